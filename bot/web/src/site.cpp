// The pages. Each request borrows one read connection from a small pool (SQLite in WAL mode, or
// PostgreSQL: readers never wait for the bot's writes, nor hold them up), reads what it shows
// through the Store's interfaces, and gives it back. A game
// page is kept rendered under its game's stored revision and clocks, so a reload costs two
// indexed reads; every other page is built afresh.
#include "ghostpost/web/site.h"

#include "assets.h"
#include "ghostpost/i18n/catalogs.h"
#include "ghostpost/render/svg.h"
#include "ghostpost/rules/registry.h"
#include "ghostpost/service/board_words.h"
#include "ghostpost/service/engine_player.h"
#include "ghostpost/service/game_loader.h"
#include "ghostpost/service/game_record.h"
#include "ghostpost/service/random.h"
#include "ghostpost/service/tournament_table.h"
#include "ghostpost/storage/store.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <ctime>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <unordered_map>
#include <vector>

namespace ghostpost::web {

using bot::TableRow;
using bot::tournament_table;
using bot::TournamentTable;
using render::xml_escape;
using storage::GameRecord;
using storage::GameStatus;

namespace {

const char* const html_type = "text/html; charset=utf-8";

std::string esc(std::string_view s) {
    return xml_escape(s);
}

// A page's words in its reader's language: each a catalog message, rendered, then escaped.
struct Words {
    std::string language = "en";

    std::string tr(std::string_view source, std::vector<i18n::Arg> args = {}) const {
        return esc(i18n::catalogs().render(i18n::tr(source, std::move(args)), language));
    }
    // The same, not escaped: for text that is escaped where it is put (an SVG's label).
    std::string text(const i18n::Text& message) const {
        return i18n::catalogs().render(message, language);
    }
    // A message with parts that are markup already (a link): each `{name}` of `markup` is put
    // in after the message's own words are escaped.
    std::string tr(std::string_view source, std::vector<i18n::Arg> args,
                   const std::vector<std::pair<std::string, std::string>>& markup) const {
        for (std::size_t i = 0; i < markup.size(); ++i)
            args.emplace_back(markup[i].first, "\x01" + std::to_string(i) + "\x02");
        std::string out = tr(source, std::move(args));
        for (std::size_t i = 0; i < markup.size(); ++i) {
            const std::string mark = "\x01" + std::to_string(i) + "\x02";
            if (const std::size_t at = out.find(mark); at != std::string::npos)
                out.replace(at, mark.size(), markup[i].second);
        }
        return out;
    }
    // A word the rules give (a variant's title, a seat, how a game ended), of the kind
    // bot/i18n/po/game-words.pot files it under; escaped.
    std::string word(std::string_view kind, const std::string& text) const {
        return esc(i18n::catalogs().render(i18n::trc(kind, text), language));
    }
};

// The languages a reader can switch to, each named in itself.
const std::vector<std::pair<std::string, std::string>>& switchable_languages() {
    static const std::vector<std::pair<std::string, std::string>> all = {
        {"en", "English"},        {"de", "Deutsch"}, {"fr", "Français"},
        {"es", "Español"},        {"ru", "Русский"}, {"pt_BR", "Português (Brasil)"},
        {"zh_CN", "中文（简体）"}};
    return all;
}

// The tag <html lang> takes: "pt_BR" is "pt-BR".
std::string html_lang(std::string language) {
    std::replace(language.begin(), language.end(), '_', '-');
    return language;
}

std::string etag_of(const std::string& body) {
    std::uint64_t h = 1469598103934665603ULL; // FNV-1a
    for (char c : body) {
        h ^= static_cast<unsigned char>(c);
        h *= 1099511628211ULL;
    }
    char buf[24];
    std::snprintf(buf, sizeof buf, "\"%016llx\"", static_cast<unsigned long long>(h));
    return buf;
}

Page html(int status, std::string body) {
    Page p;
    p.status = status;
    p.content_type = html_type;
    p.body = std::move(body);
    p.etag = etag_of(p.body);
    return p;
}

// `live`: seconds between the script's looks at the page again (a game under way shown as it
// stands); 0 for a page that does not change by itself.
// `title` is escaped already.
std::string document(const Words& w, const std::string& title, const std::string& main,
                     bool script = false, int live = 0) {
    std::string out = "<!DOCTYPE html>\n<html lang=\"" + html_lang(w.language) +
                      "\"><head><meta charset=\"utf-8\">"
                      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                      "<title>" +
                      title +
                      " · ghostpost</title><link rel=\"stylesheet\" href=\"/static/site.css\">"
                      // no icon, and no request for /favicon.ico
                      "<link rel=\"icon\" href=\"data:,\">";
    if (script)
        out += "<script src=\"/static/game.js\" defer></script>";
    // The switch: a link per language keeps this page (a query alone is the same path).
    std::string languages;
    for (const auto& [tag, name] : switchable_languages())
        languages += tag == w.language
                         ? " <strong lang=\"" + html_lang(tag) + "\">" + esc(name) + "</strong>"
                         : " <a lang=\"" + html_lang(tag) + "\" hreflang=\"" + html_lang(tag) +
                               "\" href=\"?lang=" + tag + "\">" + esc(name) + "</a>";
    out += "</head><body><header><a href=\"/\">ghostpost</a><nav class=\"languages\" "
           "aria-label=\"" +
           w.tr("Language") + "\">" + languages + "</nav></header><main" +
           (live > 0 ? " data-live=\"" + std::to_string(live) + "\"" : std::string()) + ">" + main +
           "</main></body></html>\n";
    return out;
}

// `what` is escaped already.
Page not_found(const Words& w, const std::string& what) {
    const std::string title = w.tr("Not found");
    return html(404, document(w, title, "<h1>" + title + "</h1><p>" + what + "</p>"));
}

// How often a page following a game asks again: a 304 costs a cached lookup.
constexpr int live_seconds = 3;

// A positive decimal id of at most 18 digits; nullopt for anything else.
std::optional<std::int64_t> parse_id(std::string_view text) {
    if (text.empty() || text.size() > 18 || text.front() == '0')
        return std::nullopt;
    std::int64_t v = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return v;
}

std::optional<std::size_t> parse_ply(std::string_view text) {
    if (text.empty() || text.size() > 6 || (text.size() > 1 && text.front() == '0'))
        return std::nullopt;
    std::size_t v = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return v;
}

std::vector<std::string> split_path(const std::string& path) {
    std::vector<std::string> parts;
    std::size_t start = 1;
    while (start <= path.size()) {
        const std::size_t end = std::min(path.find('/', start), path.size());
        parts.push_back(path.substr(start, end - start));
        start = end + 1;
    }
    if (!parts.empty() && parts.back().empty())
        parts.pop_back(); // "/game/3/" is "/game/3"
    return parts;
}

std::string utc(std::int64_t seconds) {
    const std::time_t t = static_cast<std::time_t>(seconds);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", &tm);
    return buf;
}

std::string duration(const Words& w, std::int64_t s) {
    if (s < 0)
        s = 0;
    const std::int64_t d = s / 86400, h = s % 86400 / 3600, m = s % 3600 / 60;
    if (d > 0)
        return w.tr("{days}d {hours}h {minutes}m", {{"days", d}, {"hours", h}, {"minutes", m}});
    if (h > 0)
        return w.tr("{hours}h {minutes}m", {{"hours", h}, {"minutes", m}});
    return w.tr("{minutes}m", {{"minutes", m}});
}

const rules::VariantInfo* info_of(const std::string& variant) {
    const rules::Variant* v = rules::find_variant(variant);
    return v != nullptr ? &v->info() : nullptr;
}

// A variant's title in the reader's language, escaped.
std::string title_of(const Words& w, const std::string& variant) {
    const rules::VariantInfo* info = info_of(variant);
    return info != nullptr ? w.word("variant", info->title) : esc(variant);
}

// "White wins, 1-0 (checkmate)", with the variant's seat names; not escaped.
std::string ending(const Words& w, const GameRecord& g, const std::array<std::string, 2>& seats) {
    i18n::Text text;
    if (g.result == "1-0" || g.result == "0-1") {
        const std::string& winner = seats[g.result == "1-0" ? 0 : 1];
        text = i18n::tr("{seat} wins, {result}",
                        {{"seat", i18n::trc("seat", winner)}, {"result", g.result}});
    } else if (g.result == "1/2-1/2")
        text = i18n::tr("Draw, {result}", {{"result", g.result}});
    else
        text = i18n::verbatim(g.result);
    if (!g.reason.empty())
        text += i18n::verbatim(" (") + i18n::trc("reason", g.reason) + i18n::verbatim(")");
    return w.text(text);
}

// The words of a game's status and a tournament's format and status.
std::string status_text(const Words& w, GameStatus status) {
    switch (status) {
    case GameStatus::Challenge:
        return w.tr("a challenge");
    case GameStatus::Ongoing:
        return w.tr("under way");
    case GameStatus::Finished:
        return w.tr("finished");
    case GameStatus::Declined:
        return w.tr("declined");
    case GameStatus::Cancelled:
        return w.tr("cancelled");
    case GameStatus::Aborted:
        return w.tr("aborted");
    }
    return esc(std::string(storage::status_name(status)));
}

std::string format_text(const Words& w, const std::string& format) {
    if (format == "roundrobin")
        return w.tr("round robin");
    if (format == "double")
        return w.tr("double round robin");
    if (format == "swiss")
        return w.tr("Swiss");
    if (format == "knockout")
        return w.tr("knockout");
    return esc(format);
}

std::string tournament_status_text(const Words& w, storage::TournamentStatus status) {
    switch (status) {
    case storage::TournamentStatus::Open:
        return w.tr("open for entries");
    case storage::TournamentStatus::Running:
        return w.tr("running");
    case storage::TournamentStatus::Finished:
        return w.tr("finished");
    }
    return {};
}

// One chart per variant of the ratings a player had after each rated game, as SVG: rating
// against games played, the axis labelled with the lowest and highest hundred it spans.
std::string rating_charts(const Words& w, storage::Store& store, std::int64_t player) {
    std::map<std::string, std::vector<std::pair<std::int64_t, double>>> series;
    for (const storage::RatingPoint& p : store.rating_history(player))
        series[p.variant].emplace_back(p.games, p.rating);
    std::string out;
    for (const auto& entry : series) {
        // Named, not bound: clang 14 (the fuzz build) cannot capture a structured binding.
        const std::string& variant = entry.first;
        const auto& points = entry.second;
        double lo = points.front().second, hi = lo;
        for (const auto& p : points) {
            lo = std::min(lo, p.second);
            hi = std::max(hi, p.second);
        }
        const double bottom = std::floor(lo / 100) * 100, top = std::ceil((hi + 1) / 100) * 100;
        const auto x = [&](std::size_t i) {
            return points.size() == 1 ? 250.0
                                      : 50.0 + 400.0 * static_cast<double>(i) /
                                                   static_cast<double>(points.size() - 1);
        };
        const auto y = [&](double r) { return 10.0 + 120.0 * (top - r) / (top - bottom); };
        const auto fmt = [](double v) {
            char buf[16];
            std::snprintf(buf, sizeof buf, "%.1f", v);
            return std::string(buf);
        };
        std::string line;
        std::string dots;
        for (std::size_t i = 0; i < points.size(); ++i) {
            const std::string px = fmt(x(i)), py = fmt(y(points[i].second));
            line += (i == 0 ? "" : " ") + px + "," + py;
            const std::string rating = std::to_string(static_cast<int>(points[i].second + 0.5));
            dots += "<circle cx=\"" + px + "\" cy=\"" + py +
                    "\" r=\"3\" fill=\"#2a5db0\" data-games=\"" + std::to_string(points[i].first) +
                    "\" data-rating=\"" + rating + "\"><title>" +
                    w.tr("after game {games}: {rating}",
                         {{"games", std::to_string(points[i].first)}, {"rating", rating}}) +
                    "</title></circle>";
        }
        out += "<figure class=\"chart\"><figcaption>" + title_of(w, variant) +
               "</figcaption><svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 470 150\" "
               "class=\"rating-history\" data-variant=\"" +
               esc(variant) +
               "\"><rect x=\"40\" y=\"10\" width=\"420\" height=\"120\" fill=\"#fff\" "
               "stroke=\"#ccc\"/><text x=\"36\" y=\"16\" font-size=\"11\" "
               "text-anchor=\"end\">" +
               std::to_string(static_cast<int>(top)) +
               "</text><text x=\"36\" y=\"132\" font-size=\"11\" text-anchor=\"end\">" +
               std::to_string(static_cast<int>(bottom)) +
               "</text><polyline fill=\"none\" stroke=\"#2a5db0\" stroke-width=\"2\" points=\"" +
               line + "\"/>" + dots + "</svg></figure>";
    }
    return out;
}

// Scores are halves and tie-breaks quarters at worst: "½", "1½", "2¼", never "0½".
std::string points_text(double v) {
    const int whole = static_cast<int>(v);
    const int quarters = static_cast<int>((v - whole) * 4 + 0.5);
    const char* part[] = {"", "¼", "½", "¾"};
    if (quarters == 4)
        return std::to_string(whole + 1);
    return whole == 0 && quarters ? std::string(part[quarters])
                                  : std::to_string(whole) + part[quarters];
}

// The game page's parts (Site::Impl::game). `link(k)` is the page at ply k.
using PlyLink = std::function<std::string(std::size_t)>;

// First, previous, where the page stands, next, last.
std::string steps_nav(const Words& w, std::size_t ply, std::size_t last, const PlyLink& link) {
    const std::string first = w.tr("« first"), previous = w.tr("← previous"), next = w.tr("next →"),
                      final = w.tr("last »");
    std::string m = "<nav class=\"steps\">";
    m += ply > 0
             ? "<a id=\"first\" href=\"" + link(0) + "\">" + first +
                   "</a> <a id=\"prev\" rel=\"prev\" href=\"" + link(ply - 1) + "\">" + previous +
                   "</a>"
             : "<span id=\"first\">" + first + "</span> <span id=\"prev\">" + previous + "</span>";
    m += " <span class=\"at\">" +
         w.tr("ply {ply} of {last}",
              {{"ply", std::to_string(ply)}, {"last", std::to_string(last)}}) +
         "</span> ";
    m += ply < last
             ? "<a id=\"next\" rel=\"next\" href=\"" + link(ply + 1) + "\">" + next +
                   "</a> <a id=\"last\" href=\"" + link(last) + "\">" + final + "</a>"
             : "<span id=\"next\">" + next + "</span> <span id=\"last\">" + final + "</span>";
    return m + "</nav>";
}

// A player's rating in the game's variant, and in a finished rated game what the game did to
// it (the point of their history it made).
std::string rating_cell(storage::Store& store, const GameRecord& g,
                        std::optional<std::int64_t> player) {
    if (!player)
        return std::string();
    if (g.status == GameStatus::Finished && g.rated) {
        const auto history = store.rating_history(*player);
        for (std::size_t i = 0; i < history.size(); ++i) {
            if (history[i].game_id != g.id || history[i].variant != g.variant)
                continue;
            const double before =
                i > 0 && history[i - 1].variant == g.variant ? history[i - 1].rating : 1500.0;
            const long change = std::lround(history[i].rating) - std::lround(before);
            return "<td class=\"rating\">" + std::to_string(std::lround(before)) + " → " +
                   std::to_string(std::lround(history[i].rating)) + " (" +
                   (change >= 0 ? "+" : "−") + std::to_string(std::labs(change)) + ")</td>";
        }
    }
    const auto r = store.rating(*player, g.variant);
    return r ? "<td class=\"rating\">" + std::to_string(std::lround(r->rating)) + "</td>"
             : std::string("<td class=\"rating\"></td>");
}

// Each seat's player (`links`: their names as links) with their rating.
std::string players_table(const Words& w, storage::Store& store, const GameRecord& g,
                          const rules::VariantInfo& info, const std::array<std::string, 2>& links) {
    return "<table class=\"players\"><tr><th>" + w.word("seat", info.seat_names[0]) + "</th><td>" +
           links[0] + "</td>" + rating_cell(store, g, g.white) + "</tr><tr><th>" +
           w.word("seat", info.seat_names[1]) + "</th><td>" + links[1] + "</td>" +
           rating_cell(store, g, g.black) + "</tr></table>";
}

// The result or status, the time control, and the clocks of a game under way.
std::string status_paragraphs(const Words& w, const GameRecord& g, const rules::VariantInfo& info,
                              const std::vector<storage::ClockRecord>& clocks) {
    std::string m = "<p class=\"status\">";
    if (g.status == GameStatus::Finished)
        m += w.tr("Result: {result}", {}, {{"result", esc(ending(w, g, info.seat_names))}});
    else
        m += w.tr("Status: {status}", {}, {{"status", status_text(w, g.status)}});
    if (g.paused)
        m += " " + w.tr("(paused by a moderator)");
    m += "</p><p class=\"tc\">" +
         (g.rated ? w.tr("Clock: {control}, rated", {{"control", g.time_control}})
                  : w.tr("Clock: {control}, unrated", {{"control", g.time_control}})) +
         "</p>";
    if (clocks.empty() || g.status != GameStatus::Ongoing)
        return m;
    m += "<ul class=\"clocks\">";
    for (const auto& c : clocks) {
        m += "<li>" + w.word("seat", info.seat_names[rules::index(c.seat)]) + ": ";
        // A running clock counts down in the page (game.js) from its deadline; the text
        // without the script says when it runs out.
        if (c.running_since > 0)
            // The script rewrites the span's words as the time counts down.
            m += w.tr("{left}, deadline {deadline}",
                      {{"deadline", utc(c.running_since + c.remaining)}},
                      {{"left", "<span class=\"left\" data-deadline=\"" +
                                    std::to_string(c.running_since + c.remaining) + "\">" +
                                    w.tr("{time} from {since}", {{"since", utc(c.running_since)}},
                                         {{"time", duration(w, c.remaining)}}) +
                                    "</span>"}});
        else
            m += w.tr("{left} left", {}, {{"left", duration(w, c.remaining)}});
        m += "</li>";
    }
    return m + "</ul>";
}

// The public record's entries (who, text), each a link to its ply. A move number for each
// turn of White's, as in the PGN: every decision until White's next one (Black's reply, a
// reaction, dice chosen) stands under the same number.
std::string moves_list(const Words& w,
                       const std::vector<std::pair<rules::Seat, std::string>>& moves,
                       std::size_t ply, const PlyLink& link) {
    std::string m = "<h2>" + w.tr("Moves") + "</h2><ol class=\"moves\">";
    int number = 0;
    bool black_since = true;
    for (std::size_t k = 1; k <= moves.size(); ++k) {
        const auto& [seat, text] = moves[k - 1];
        const bool by_white = seat == rules::Seat::White;
        if (k == 1 || (by_white && black_since)) {
            if (k > 1)
                m += "</li>";
            m += "<li value=\"" + std::to_string(++number) + "\">";
            black_since = false;
        } else {
            m += " ";
        }
        black_since = black_since || !by_white;
        m += "<a class=\"" + std::string(rules::seat_name(seat)) + (k == ply ? " current" : "") +
             "\" href=\"" + link(k) + "\">" + esc(text) + "</a>";
    }
    return m + (moves.empty() ? "</ol>" : "</li></ol>");
}

// A finished game: what the channel was told at the end, and the seed of its dice; a game
// under way with dice: the seed's commitment.
std::string dice_and_reveal(const Words& w, const GameRecord& g,
                            const std::vector<storage::ActionRecord>& log,
                            const rules::VariantInfo& info, const std::string& prefix) {
    if (g.status == GameStatus::Finished) {
        auto full = bot::load_game(g, log);
        std::string reveal;
        for (const auto& e : full.game->ending_reveal())
            if (!e.only_for && !e.board)
                reveal += "<p>" + esc(e.text) + "</p>";
        if (info.uses_chance)
            reveal += "<p>" +
                      w.tr("The dice came from the secret seed {seed}, whose SHA-256 {hash} was "
                           "posted when the game started.",
                           {},
                           {{"seed", "<code id=\"seed\">" + bot::to_hex(g.seed) + "</code>"},
                            {"hash", "<code>" + bot::sha256_hex(g.seed) + "</code>"}}) +
                      "</p><p class=\"derivation\">" + esc(bot::dice_derivation()) + "</p><p>" +
                      w.tr("Say {command} in the chat and the bot replays the whole log from "
                           "the seed and compares every roll with the record.",
                           {},
                           {{"command", "<code>" + esc(prefix) + "verify " + std::to_string(g.id) +
                                            "</code>"}}) +
                      "</p>";
        return reveal.empty()
                   ? std::string()
                   : "<h2>" + w.tr("Revealed") + "</h2><div class=\"reveal\">" + reveal + "</div>";
    }
    if (info.uses_chance && g.status == GameStatus::Ongoing)
        return "<p class=\"commitment\">" +
               w.tr("The dice come from a secret seed whose SHA-256 is {hash}; the seed is "
                    "shown here when the game ends.",
                    {}, {{"hash", "<code>" + bot::sha256_hex(g.seed) + "</code>"}}) +
               "</p><p class=\"derivation\">" + esc(bot::dice_derivation()) + "</p>";
    return {};
}

} // namespace

struct Site::Impl {
    SiteSettings settings;

    // One read connection, to the SQLite file or the PostgreSQL database.
    struct Connection {
        std::unique_ptr<storage::Store> store;
    };
    std::mutex pool_mutex;
    std::vector<std::unique_ptr<Connection>> idle;

    std::mutex cache_mutex;
    std::unordered_map<std::string, Page> cache;

    explicit Impl(SiteSettings s) : settings(std::move(s)) {
        idle.push_back(open()); // fails now, not at the first request, when the file is bad
    }

    std::unique_ptr<Connection> open() const {
        auto c = std::make_unique<Connection>();
        if (!settings.db_url.empty()) {
            c->store =
                storage::open_postgres_store(settings.db_url, {.password = settings.db_password});
            return c;
        }
        storage::DatabaseOptions options;
        options.synchronous_full = false; // this connection never writes
        c->store = storage::open_sqlite_store(settings.db_path, options);
        return c;
    }

    // A connection for one request, back to the pool (up to its size) when the lease ends.
    class Lease {
    public:
        Lease(Impl& impl) : impl_(impl) {
            {
                std::lock_guard lock(impl_.pool_mutex);
                if (!impl_.idle.empty()) {
                    c_ = std::move(impl_.idle.back());
                    impl_.idle.pop_back();
                }
            }
            if (!c_)
                c_ = impl_.open();
        }
        ~Lease() {
            std::lock_guard lock(impl_.pool_mutex);
            if (impl_.idle.size() < impl_.settings.connections)
                impl_.idle.push_back(std::move(c_));
        }
        Lease(const Lease&) = delete;
        Lease& operator=(const Lease&) = delete;
        storage::Store& store() { return *c_->store; }

    private:
        Impl& impl_;
        std::unique_ptr<Connection> c_;
    };

    std::optional<Page> cached(const std::string& key) {
        std::lock_guard lock(cache_mutex);
        auto it = cache.find(key);
        if (it == cache.end())
            return std::nullopt;
        return it->second;
    }
    void keep(const std::string& key, const Page& page) {
        std::lock_guard lock(cache_mutex);
        if (cache.size() >= settings.cached_pages)
            cache.clear(); // crude but bounded; a page is rebuilt from the log on demand
        cache[key] = page;
    }

    std::string player_link(storage::Store& store, std::optional<std::int64_t> id) {
        if (!id)
            return "?";
        auto p = store.player(*id);
        if (!p)
            return "?";
        return "<a href=\"/player/" + std::to_string(p->id) + "\">" + esc(p->name) + "</a>";
    }
    std::string player_name(storage::Store& store, std::optional<std::int64_t> id) {
        if (!id)
            return "?";
        auto p = store.player(*id);
        return p ? p->name : "?";
    }

    Page route(const Words& w, const std::string& path, const Query& query);
    Page game(const Words& w, std::int64_t id, const std::vector<std::string>& rest,
              const Query& query);
    Page index(const Words& w);
    Page player(const Words& w, std::int64_t id);
    Page tournament(const Words& w, std::int64_t id);
    // The tournament page's parts.
    std::string standings(const Words& w, storage::Store& store, const TournamentTable& table);
    std::string crosstable(const Words& w, storage::Store& store, const TournamentTable& table,
                           const std::vector<storage::PairingRecord>& pairings);
    std::string pairing_lists(const Words& w, storage::Store& store,
                              const storage::TournamentRecord& t,
                              const std::vector<storage::PairingRecord>& pairings);
    Page tournament_report(const Words& w, std::int64_t id);
    Page leaderboard(const Words& w, const std::string& variant);
};

Site::Site(SiteSettings settings) : impl_(std::make_unique<Impl>(std::move(settings))) {}
Site::~Site() = default;

Page Site::get(const std::string& path, const Query& query, const std::string& language) {
    Words w;
    if (auto supported = i18n::supported_language(language);
        supported && *supported != i18n::pseudo_language)
        w.language = *supported;
    return impl_->route(w, path, query);
}

Page Site::Impl::route(const Words& w, const std::string& path, const Query& query) {
    if (path.empty() || path.front() != '/' || path.size() > 200)
        return not_found(w, w.tr("There is no such page."));
    const auto parts = split_path(path);
    if (parts.empty())
        return index(w);
    if (parts.size() == 2 && parts[0] == "static") {
        Page p;
        if (parts[1] == "game.js") {
            p.content_type = "text/javascript; charset=utf-8";
            p.body = game_script;
        } else if (parts[1] == "site.css") {
            p.content_type = "text/css; charset=utf-8";
            p.body = site_style;
        } else {
            return not_found(w, w.tr("There is no such file."));
        }
        p.etag = etag_of(p.body);
        return p;
    }
    if (parts.size() >= 2 && parts[0] == "game") {
        auto id = parse_id(parts[1]);
        if (!id || parts.size() > 3)
            return not_found(w, w.tr("There is no such game."));
        return game(w, *id, {parts.begin() + 2, parts.end()}, query);
    }
    if (parts.size() == 2 && parts[0] == "player") {
        if (auto id = parse_id(parts[1]))
            return player(w, *id);
        return not_found(w, w.tr("There is no such player."));
    }
    if (parts.size() == 2 && parts[0] == "tournament") {
        if (auto id = parse_id(parts[1]))
            return tournament(w, *id);
        return not_found(w, w.tr("There is no such tournament."));
    }
    if (parts.size() == 3 && parts[0] == "tournament" && parts[2] == "trf") {
        if (auto id = parse_id(parts[1]))
            return tournament_report(w, *id);
        return not_found(w, w.tr("There is no such tournament."));
    }
    if (parts.size() == 2 && parts[0] == "leaderboard")
        return leaderboard(w, parts[1]);
    return not_found(w, w.tr("There is no such page."));
}

Page Site::Impl::game(const Words& w, std::int64_t id, const std::vector<std::string>& rest,
                      const Query& query) {
    const std::string what = rest.empty() ? "page" : rest[0];
    if (what != "page" && what != "pgn" && what != "board.svg")
        return not_found(w, w.tr("There is no such page."));
    Lease lease(*this);
    storage::Store& store = lease.store();
    auto g = store.game(id);
    const rules::VariantInfo* info = g ? info_of(g->variant) : nullptr;
    if (!g || info == nullptr)
        return not_found(w, w.tr("There is no game #{game}.", {{"game", std::to_string(id)}}));
    const auto clocks = store.clocks(id);
    std::string clock_key;
    for (const auto& c : clocks)
        clock_key += std::to_string(c.remaining) + ":" + std::to_string(c.running_since) + ";";
    std::string ply_text;
    if (auto it = query.find("ply"); it != query.end())
        ply_text = it->second;
    // The PGN is the same in every language; a page and its board are not.
    const std::string key = what + "/" + (what == "pgn" ? std::string() : w.language) + "/" +
                            std::to_string(id) + "/" + ply_text + "/" +
                            std::to_string(g->revision) + "/" + clock_key;
    if (auto page = cached(key))
        return *page;

    const auto log = store.actions(id);
    const bool finished = g->status == GameStatus::Finished;
    const std::string white = player_name(store, g->white), black = player_name(store, g->black);
    if (what == "pgn") {
        Page p;
        p.content_type = "application/x-chess-pgn; charset=utf-8";
        p.body = bot::pgn_text(*g, log, bot::pgn_tags(store, *g, white, black));
        p.etag = etag_of(p.body);
        p.filename = "ghostpost-game-" + std::to_string(id) + ".pgn";
        keep(key, p);
        return p;
    }

    // Positions are counted in the public record's entries: a policy set in secret is no ply of
    // the page, so the links do not tell that it exists.
    const auto texts = bot::public_action_texts(*g, log);
    std::vector<std::size_t> shown; // log index of each public entry
    for (std::size_t i = 0; i < texts.size(); ++i)
        if (!texts[i].empty())
            shown.push_back(i);
    const std::size_t last = shown.size();
    std::size_t ply = last;
    if (!ply_text.empty()) {
        auto asked = parse_ply(ply_text);
        if (!asked || *asked > last)
            return not_found(w, w.tr("Game #{game} has no ply {ply}.",
                                     {{"game", std::to_string(id)}, {"ply", ply_text}}));
        ply = *asked;
    }
    const std::size_t replayed = ply == last ? log.size() : (ply == 0 ? 0 : shown[ply - 1] + 1);
    auto loaded = bot::load_game(*g, log, replayed);
    const bool at_end = ply == last;
    const rules::PublicView view =
        at_end && finished ? loaded.game->final_view() : loaded.game->public_view();

    render::SvgOptions svg_options;
    svg_options.game_label = w.text(i18n::tr("Game {game}", {{"game", std::to_string(id)}}));
    for (std::size_t seat = 0; seat < 2; ++seat)
        svg_options.seat_names[seat] = w.text(i18n::trc("seat", info->seat_names[seat]));
    svg_options.say = bot::board_words(w.language);
    if (at_end && finished)
        svg_options.ended = ending(w, *g, info->seat_names);
    std::string svg = render::render_svg(view, svg_options);
    if (what == "board.svg") {
        Page p;
        p.content_type = "image/svg+xml";
        p.body = std::move(svg);
        p.etag = etag_of(p.body);
        keep(key, p);
        return p;
    }

    const std::string gid = std::to_string(id);
    const auto link = [&](std::size_t k) { return "/game/" + gid + "?ply=" + std::to_string(k); };
    const std::string title = w.tr("Game #{game}", {{"game", gid}});
    std::string m = "<h1>" + title + " · " + w.word("variant", info->title) + "</h1>";
    m += "<div class=\"game\"><div class=\"board-box\">" + svg + steps_nav(w, ply, last, link);
    m += "</div><div class=\"side\">";
    m += players_table(w, store, *g, *info,
                       {player_link(store, g->white), player_link(store, g->black)}) +
         status_paragraphs(w, *g, *info, clocks);
    if (auto pairing = store.pairing_of_game(id))
        m +=
            "<p>" +
            w.tr("Round {round} of {tournament}", {{"round", std::to_string(pairing->round)}},
                 {{"tournament", "<a href=\"/tournament/" + std::to_string(pairing->tournament_id) +
                                     "\">" + w.tr("a tournament") + "</a>"}}) +
            "</p>";
    m += "<p><a id=\"pgn\" href=\"/game/" + gid + "/pgn\" download>" + w.tr("Download PGN") +
         "</a></p>";
    std::vector<std::pair<rules::Seat, std::string>> moves;
    for (const std::size_t i : shown)
        moves.emplace_back(log[i].seat, texts[i]);
    m += moves_list(w, moves, ply, link);
    m += dice_and_reveal(w, *g, log, *info, settings.command_prefix);
    m += "</div></div>";
    // Spectators of the game as it stands see each move as it is made.
    const int live = at_end && g->status == GameStatus::Ongoing ? live_seconds : 0;
    Page p = html(200, document(w, title, m, true, live));
    keep(key, p);
    return p;
}

Page Site::Impl::index(const Words& w) {
    Lease lease(*this);
    storage::Store& store = lease.store();
    // The newest 200 games under way: a page, not the whole table (games_by_status indexes it).
    std::string rows;
    for (const GameRecord& g : store.newest_games(GameStatus::Ongoing, 200))
        rows += "<tr><td><a href=\"/game/" + std::to_string(g.id) + "\">#" + std::to_string(g.id) +
                "</a></td><td>" + title_of(w, g.variant) + "</td><td>" +
                player_link(store, g.white) + " – " + player_link(store, g.black) + "</td></tr>";
    const std::string title = w.tr("Games under way");
    std::string m = "<h1>" + title + "</h1>";
    if (rows.empty())
        m += "<p>" + w.tr("No game is under way.") + "</p>";
    else
        m += "<table class=\"games\"><tr><th>" + w.tr("Game") + "</th><th>" + w.tr("Variant") +
             "</th><th>" + w.tr("Players") + "</th></tr>" + rows + "</table>";
    // Tournaments, the newest first: those under way or open, then those finished.
    const auto tournaments = store.recent_tournaments(100);
    for (const bool finished : {false, true}) {
        std::string list;
        for (const auto& t : tournaments) {
            if ((t.status == storage::TournamentStatus::Finished) != finished)
                continue;
            list += "<li><a href=\"/tournament/" + std::to_string(t.id) + "\">" + esc(t.name) +
                    "</a>: " + title_of(w, t.variant) + ", " + format_text(w, t.format) +
                    (t.status == storage::TournamentStatus::Open ? ", " + w.tr("open for entries")
                     : finished || t.rounds == 0
                         ? std::string()
                         : ", " + w.tr("round {round} of {rounds}",
                                       {{"round", std::to_string(t.current_round)},
                                        {"rounds", std::to_string(t.rounds)}})) +
                    "</li>";
        }
        m += "<h2>" + (finished ? w.tr("Finished tournaments") : w.tr("Tournaments")) + "</h2>" +
             (list.empty() ? "<p>" + w.tr("None.") + "</p>"
                           : "<ul class=\"tournaments\">" + list + "</ul>");
    }
    m += "<h2>" + w.tr("Leaderboards") + "</h2><ul>";
    for (const rules::Variant* v : rules::variants())
        m += "<li><a href=\"/leaderboard/" + esc(v->info().name) + "\">" +
             w.word("variant", v->info().title) + "</a></li>";
    m += "</ul>";
    return html(200, document(w, title, m));
}

Page Site::Impl::player(const Words& w, std::int64_t id) {
    Lease lease(*this);
    storage::Store& store = lease.store();
    auto p = store.player(id);
    if (!p)
        return not_found(w,
                         w.tr("There is no player #{player}.", {{"player", std::to_string(id)}}));
    std::string m = "<h1>" + esc(p->name) + "</h1>";
    // What a finished game was for this player: won, lost or drawn.
    const auto outcome = [&](const GameRecord& g) {
        const bool white = g.white == id, black = g.black == id;
        if (g.result == "1/2-1/2")
            return std::string("drawn");
        if ((g.result == "1-0" && white) || (g.result == "0-1" && black))
            return std::string("won");
        if ((g.result == "1-0" && black) || (g.result == "0-1" && white))
            return std::string("lost");
        return std::string();
    };
    const auto outcome_text = [&](const std::string& o) {
        return o == "won"     ? w.tr("won")
               : o == "drawn" ? w.tr("drawn")
               : o == "lost"  ? w.tr("lost")
                              : std::string();
    };
    const auto list = [&](const std::vector<GameRecord>& games, bool results) {
        std::string out =
            "<table class=\"games\"><tr><th>" + w.tr("Game") + "</th><th>" + w.tr("Variant") +
            "</th><th>" + w.tr("Players") + "</th>" +
            (results ? "<th>" + w.tr("Outcome") + "</th><th>" + w.tr("Result") + "</th>"
                     : std::string()) +
            "</tr>";
        for (const auto& g : games) {
            if (!g.white || !g.black)
                continue; // a challenge, not a game
            out += "<tr><td><a href=\"/game/" + std::to_string(g.id) + "\">#" +
                   std::to_string(g.id) + "</a></td><td>" + title_of(w, g.variant) + "</td><td>" +
                   player_link(store, g.white) + " – " + player_link(store, g.black) + "</td>";
            if (results)
                out += "<td class=\"outcome\">" + outcome_text(outcome(g)) + "</td><td>" +
                       esc(g.result) +
                       (g.reason.empty() ? "" : " (" + w.word("reason", g.reason) + ")") + "</td>";
            out += "</tr>";
        }
        return out + "</table>";
    };
    m += "<h2>" + w.tr("Ratings") + "</h2>";
    const auto ratings = store.ratings_of_player(id);
    if (ratings.empty()) {
        m += "<p>" + w.tr("No rated game yet.") + "</p>";
    } else {
        m += "<table class=\"ratings\"><tr><th>" + w.tr("Variant") + "</th><th>" + w.tr("Rating") +
             "</th><th>" + w.tr("Deviation") + "</th><th>" + w.tr("Games") + "</th></tr>";
        for (const auto& r : ratings)
            m += "<tr><td><a href=\"/leaderboard/" + esc(r.variant) + "\">" +
                 title_of(w, r.variant) + "</a></td><td>" +
                 std::to_string(static_cast<int>(r.rating + 0.5)) + "</td><td>" +
                 std::to_string(static_cast<int>(r.deviation + 0.5)) + "</td><td>" +
                 std::to_string(r.games) + "</td></tr>";
        m += "</table>";
    }
    m += rating_charts(w, store, id);
    m += "<h2>" + w.tr("Games under way") + "</h2>" +
         list(store.games_of_player(*p, {GameStatus::Ongoing}), false);
    const auto done = store.games_of_player(*p, {GameStatus::Finished});
    int won = 0, drawn = 0, lost = 0;
    for (const auto& g : done) {
        const std::string o = outcome(g);
        won += o == "won" ? 1 : 0;
        drawn += o == "drawn" ? 1 : 0;
        lost += o == "lost" ? 1 : 0;
    }
    m += "<h2>" + w.tr("Finished games") + "</h2><p class=\"record\">" +
         w.tr("{won} won, {drawn} drawn, {lost} lost", {{"won", std::to_string(won)},
                                                        {"drawn", std::to_string(drawn)},
                                                        {"lost", std::to_string(lost)}}) +
         "</p>" + list(done, true);
    return html(200, document(w, esc(p->name), m));
}

// The TRF16 file of a round robin or Swiss, for pairing programs and rating officers.
Page Site::Impl::tournament_report(const Words& w, std::int64_t id) {
    Lease lease(*this);
    storage::Store& store = lease.store();
    auto t = store.tournament(id);
    if (!t || t->status == storage::TournamentStatus::Open || t->format == "knockout")
        return not_found(w, t ? w.tr("This tournament has no report: it has not started, or it "
                                     "is a knockout.")
                              : w.tr("There is no tournament #{tournament}.",
                                     {{"tournament", std::to_string(id)}}));
    Page p;
    p.status = 200;
    p.content_type = "text/plain; charset=utf-8";
    p.body = bot::tournament_trf(store, *t);
    p.etag = etag_of(p.body);
    p.filename = "ghostpost-tournament-" + std::to_string(id) + ".trf";
    return p;
}

Page Site::Impl::tournament(const Words& w, std::int64_t id) {
    Lease lease(*this);
    storage::Store& store = lease.store();
    auto t = store.tournament(id);
    if (!t)
        return not_found(
            w, w.tr("There is no tournament #{tournament}.", {{"tournament", std::to_string(id)}}));
    const auto pairings = store.pairings(id);
    // The table as the chat shows it (tournament_table): the same points and tie-breaks.
    const TournamentTable table = tournament_table(store, *t);
    std::string m = "<h1>" + esc(t->name) + "</h1><p>" + title_of(w, t->variant) + ", " +
                    format_text(w, t->format) + ", " + tournament_status_text(w, t->status) +
                    (t->schedule == "allatonce" ? ", " + w.tr("every game at once")
                     : t->rounds > 0            ? ", " + w.tr("round {round} of {rounds}",
                                                              {{"round", std::to_string(t->current_round)},
                                                               {"rounds", std::to_string(t->rounds)}})
                                                : std::string()) +
                    "</p>";
    m += standings(w, store, table) + crosstable(w, store, table, pairings) +
         pairing_lists(w, store, *t, pairings);
    if (t->status != storage::TournamentStatus::Open && t->format != "knockout")
        m += "<p><a id=\"trf\" href=\"/tournament/" + std::to_string(id) + "/trf\" download>" +
             w.tr("Download the FIDE report (TRF)") + "</a></p>";
    return html(200, document(w, esc(t->name), m));
}

std::string Site::Impl::standings(const Words& w, storage::Store& store,
                                  const TournamentTable& table) {
    std::string m =
        "<h2>" + w.tr("Standings") + "</h2><p class=\"tiebreaks\">" +
        w.tr("Ties broken by {tiebreaks}.", {{"tiebreaks", tie_break_sentence(table)}}) +
        "</p><table class=\"standings\"><tr><th>#</th><th>" + w.tr("Player") + "</th><th>" +
        w.tr("Points") + "</th>";
    for (const auto& b : table.breaks)
        m += "<th title=\"" + esc(b.name) + "\">" + esc(b.short_name) + "</th>";
    m += "<th>" + w.tr("Games") + "</th></tr>";
    for (std::size_t i = 0; i < table.rows.size(); ++i) {
        const TableRow& row = table.rows[i];
        m += "<tr><td>" + std::to_string(i + 1) + "</td><td>" + player_link(store, row.player_id) +
             (row.withdrew_after ? " <small>" +
                                       w.tr("withdrew after round {round}",
                                            {{"round", std::to_string(*row.withdrew_after)}}) +
                                       "</small>"
                                 : std::string()) +
             "</td><td>" + points_text(row.points) + "</td>";
        for (const auto& v : row.breaks)
            m += "<td>" + (v ? points_text(*v) : std::string("–")) + "</td>";
        m += "<td>" + std::to_string(row.games) + "</td></tr>";
    }
    return m + "</table>";
}

std::string Site::Impl::crosstable(const Words& w, storage::Store& store,
                                   const TournamentTable& table,
                                   const std::vector<storage::PairingRecord>& pairings) {
    // Each player's results against each other, from the finished games.
    std::map<std::pair<std::int64_t, std::int64_t>, std::string> cross;
    for (const auto& pr : pairings) {
        if (!pr.black || !pr.game_id)
            continue;
        auto g = store.game(*pr.game_id);
        if (!g || g->status != GameStatus::Finished)
            continue;
        const double white = g->result == "1-0" ? 1 : g->result == "0-1" ? 0 : 0.5;
        const auto score = [](double s) {
            return s == 1 ? std::string("1") : s == 0 ? std::string("0") : std::string("½");
        };
        cross[{pr.white, *pr.black}] += score(white);
        cross[{*pr.black, pr.white}] += score(1 - white);
    }
    std::vector<std::int64_t> order;
    for (const auto& row : table.rows)
        order.push_back(row.player_id);
    std::string m = "<h2>" + w.tr("Crosstable") + "</h2><table class=\"crosstable\"><tr><th></th>";
    for (std::size_t i = 0; i < order.size(); ++i)
        m += "<th>" + std::to_string(i + 1) + "</th>";
    m += "</tr>";
    for (std::size_t i = 0; i < order.size(); ++i) {
        m += "<tr><th>" + std::to_string(i + 1) + " " + esc(player_name(store, order[i])) + "</th>";
        for (std::size_t j = 0; j < order.size(); ++j) {
            auto it = cross.find({order[i], order[j]});
            m += i == j ? std::string("<td class=\"self\"></td>")
                        : "<td>" + (it == cross.end() ? std::string() : it->second) + "</td>";
        }
        m += "</tr>";
    }
    return m + "</table>";
}

std::string Site::Impl::pairing_lists(const Words& w, storage::Store& store,
                                      const storage::TournamentRecord& t,
                                      const std::vector<storage::PairingRecord>& pairings) {
    std::string m = "<h2>" + w.tr("Pairings") + "</h2>";
    int round = 0;
    for (const auto& pr : pairings) {
        if (pr.round != round) {
            if (round != 0)
                m += "</ol>";
            round = pr.round;
            m += "<h3>" + w.tr("Round {round}", {{"round", std::to_string(round)}}) +
                 "</h3><ol class=\"pairings\">";
        }
        m += "<li>" + player_link(store, pr.white) + " – " +
             (pr.black ? player_link(store, pr.black) : w.tr("bye"));
        if (pr.game_id) {
            auto g = store.game(*pr.game_id);
            m += " <a href=\"/game/" + std::to_string(*pr.game_id) + "\">" +
                 w.tr("game #{game}", {{"game", std::to_string(*pr.game_id)}}) + "</a>";
            if (g && g->status == GameStatus::Finished)
                m += " " + esc(g->result);
        }
        m += "</li>";
    }
    if (round != 0)
        m += "</ol>";
    // Half-point byes asked for are not boards; the round's list names them.
    for (const auto& b : store.byes(t.id))
        if (b.round <= t.current_round)
            m += "<p class=\"half-bye\">" +
                 w.tr("Round {round}: {player} – half-point bye",
                      {{"round", std::to_string(b.round)}},
                      {{"player", player_link(store, b.player_id)}}) +
                 "</p>";
    return m;
}

Page Site::Impl::leaderboard(const Words& w, const std::string& variant) {
    const rules::VariantInfo* info = info_of(variant);
    if (info == nullptr || info->name != variant)
        return not_found(w, w.tr("There is no such variant."));
    Lease lease(*this);
    const std::string title =
        w.tr("Leaderboard: {variant}", {}, {{"variant", w.word("variant", info->title)}});
    std::string m = "<h1>" + title + "</h1>";
    std::string rows;
    int rank = 0;
    // The bot's levels are no players: off the board (eight levels on each platform to skip).
    auto best = lease.store().top_ratings(variant, 100 + 64);
    std::erase_if(best, [&](const storage::NamedRating& r) {
        const auto p = lease.store().player(r.rating.player_id);
        return p && bot::engine_level(p->user_id).has_value();
    });
    if (best.size() > 100)
        best.resize(100);
    for (const storage::NamedRating& r : best)
        rows += "<tr><td>" + std::to_string(++rank) + "</td><td><a href=\"/player/" +
                std::to_string(r.rating.player_id) + "\">" + esc(r.name) + "</a></td><td>" +
                std::to_string(static_cast<int>(r.rating.rating + 0.5)) + "</td><td>" +
                std::to_string(static_cast<int>(r.rating.deviation + 0.5)) + "</td><td>" +
                std::to_string(r.rating.games) + "</td></tr>";
    if (rows.empty())
        m += "<p>" +
             w.tr("Nobody has a rating in {variant} yet.", {},
                  {{"variant", w.word("variant", info->title)}}) +
             "</p>";
    else
        m += "<table class=\"leaderboard\"><tr><th>#</th><th>" + w.tr("Player") + "</th><th>" +
             w.tr("Rating") + "</th><th>" + w.tr("Deviation") + "</th><th>" + w.tr("Games") +
             "</th></tr>" + rows + "</table>";
    return html(200, document(w, title, m));
}

} // namespace ghostpost::web
