// The record: !games (under way and finished), !history, !pgn and !fen.
#include "ghostpost/league/clock.h"
#include "ghostpost/render/png.h"
#include "ghostpost/render/text.h"
#include "ghostpost/rules/notation.h"
#include "ghostpost/rules/registry.h"
#include "ghostpost/rules/replay.h"
#include "ghostpost/service/command.h"
#include "ghostpost/service/game_loader.h"
#include "ghostpost/service/game_record.h"
#include "post_run.h"

#include <algorithm>
#include <ctime>
#include <stdexcept>

namespace ghostpost::bot {

using namespace detail;

namespace {
// !games answers in pages, so that one player's long list is no flood.
constexpr std::size_t games_per_page = 10;
} // namespace

void cmd_games(PostParts& run, const std::vector<std::string>& args) {
    PlayerRecord whom = run.ctx.author;
    bool under_way = true, finished = false;
    bool named_someone = false;
    std::size_t page = 1;
    for (const auto& a : args) {
        const std::string word = lower(a);
        if (word.starts_with("page=") && page == 1 && word.size() > 5 && word.size() <= 9 &&
            word.find_first_not_of("0123456789", 5) == std::string::npos &&
            std::stoul(word.substr(5)) >= 1) {
            page = std::stoul(word.substr(5));
        } else if (word == "finished" && under_way && !finished) {
            under_way = false;
            finished = true;
        } else if (word == "all" && under_way && !finished) {
            finished = true;
        } else if (a.size() >= 2 && a[0] == '@' && !named_someone) {
            auto p = run.people.known_player(a);
            if (!p)
                return;
            whom = *p;
            named_someone = true;
        } else {
            run.out.usage_error("games",
                                tr("I did not understand \"{text}\".", {{"text", shorten(a)}}));
            return;
        }
    }
    if (!under_way) {
        say_finished(run, whom, false, page);
        return;
    }
    auto games = run.ctx.store.games_of_player(whom, {GameStatus::Challenge, GameStatus::Ongoing});
    std::vector<std::string> first, later;
    for (const auto& g : games) {
        std::string id = "#" + std::to_string(g.id) + " " + g.variant;
        if (g.status == GameStatus::Challenge) {
            if (g.challenger == whom.id)
                later.push_back(id + ": challenge to " +
                                (g.challenged_id        ? run.people.mention(*g.challenged_id)
                                 : g.challenged.empty() ? std::string("anyone")
                                                        : "@" + g.challenged) +
                                ", waiting for an answer");
            else
                first.push_back(id + ": challenge from " + run.people.mention(g.challenger) +
                                ", to accept or decline");
            continue;
        }
        Loaded l = run.games.load(g);
        Seat seat = *detail::seat_of(g, whom.id);
        std::string line = id + " vs " +
                           run.people.mention(*detail::seated(g, rules::opponent(seat))) + ": " +
                           plain(run.games.next_line(l));
        auto ds = deciders(l);
        (std::find(ds.begin(), ds.end(), seat) != ds.end() ? first : later).push_back(line);
    }
    if (first.empty() && later.empty()) {
        if (finished) {
            say_finished(run, whom, true);
            return;
        }
        const auto done =
            run.ctx.store.games_of_player(whom, {GameStatus::Finished, GameStatus::Aborted}).size();
        run.out.say(run.out.at(whom) + " has no game under way and no open challenge." +
                    (done == 0 ? std::string()
                               : " " + std::to_string(done) + (done == 1 ? " game" : " games") +
                                     " finished: " + run.ctx.settings.prefix +
                                     "games finished lists them."));
        return;
    }
    first.insert(first.end(), later.begin(), later.end());
    std::vector<std::string> shown;
    std::string more;
    if (!one_page(run, first, page, "games" + std::string(finished ? " all" : ""), shown, more))
        return;
    run.out.say("Games of " + run.out.at(whom) + ", those waiting for them first" + more + ":",
                join(shown, "\n") + "\n");
    if (finished)
        say_finished(run, whom, true, page);
}

bool one_page(PostParts& run, const std::vector<std::string>& lines, std::size_t page,
              const std::string& command, std::vector<std::string>& shown, std::string& more) {
    const std::size_t pages = (lines.size() + games_per_page - 1) / games_per_page;
    if (page > pages) {
        run.out.say(
            "There " +
            std::string(pages == 1 ? "is 1 page" : "are " + std::to_string(pages) + " pages") +
            " of games, not " + std::to_string(page) + ".");
        return false;
    }
    const auto from = (page - 1) * games_per_page;
    const auto to = std::min(lines.size(), from + games_per_page);
    shown.assign(lines.begin() + static_cast<std::ptrdiff_t>(from),
                 lines.begin() + static_cast<std::ptrdiff_t>(to));
    more.clear();
    if (pages > 1)
        more = ", page " + std::to_string(page) + " of " + std::to_string(pages) +
               (page < pages ? " (" + run.ctx.settings.prefix + command +
                                   " page=" + std::to_string(page + 1) + " for the next)"
                             : std::string());
    return true;
}

void say_finished(PostParts& run, const PlayerRecord& whom, bool after_current, std::size_t page) {
    auto done = run.ctx.store.games_of_player(whom, {GameStatus::Finished, GameStatus::Aborted});
    if (done.empty()) {
        if (!after_current)
            run.out.say(run.out.at(whom) + " has no finished game yet.");
        return;
    }
    const std::size_t pages = (done.size() + games_per_page - 1) / games_per_page;
    if (after_current && page > pages)
        return; // "!games all page=3": the games under way had a third page, these have not
    std::vector<std::string> lines;
    // The newest first: only the page's games are looked up.
    for (auto it = done.rbegin(); it != done.rend(); ++it) {
        const auto index = static_cast<std::size_t>(it - done.rbegin());
        if (index / games_per_page + 1 != page) {
            lines.emplace_back();
            continue;
        }
        const GameRecord& g = *it;
        const auto seat = detail::seat_of(g, whom.id);
        const auto other = seat ? detail::seated(g, rules::opponent(*seat)) : std::nullopt;
        std::string line = "#" + std::to_string(g.id) + " " + g.variant +
                           (other ? " vs " + run.people.mention(*other) : std::string()) + ": ";
        if (g.status == GameStatus::Aborted) {
            line += "aborted";
        } else {
            const bool won = (g.result == "1-0" && seat == Seat::White) ||
                             (g.result == "0-1" && seat == Seat::Black);
            const bool draw = g.result == "1/2-1/2";
            line += g.result + " (" +
                    (draw  ? "draw"
                     : won ? "won"
                           : "lost") +
                    (g.reason.empty() ? "" : ", " + g.reason) + ")";
        }
        lines.push_back(std::move(line));
    }
    std::vector<std::string> shown;
    std::string more;
    if (!one_page(run, lines, page, after_current ? "games all" : "games finished", shown, more))
        return;
    run.out.say("Finished games of " + run.out.at(whom) + more + ":", join(shown, "\n") + "\n");
}

void cmd_history(PostParts& run, const std::vector<std::string>& args, bool pgn) {
    std::string command = pgn ? "pgn" : "history";
    std::size_t used = 0;
    auto g = run.games.pick_game(args, used, command, true);
    if (!g)
        return;
    if (used < args.size()) {
        run.out.usage_error(
            command, tr("I did not understand \"{text}\".", {{"text", shorten(args[used])}}));
        return;
    }
    auto log = run.ctx.store.actions(g->id);
    const rules::Variant* variant = rules::find_variant(g->variant);
    if (variant == nullptr)
        throw std::runtime_error("game #" + std::to_string(g->id) + ": unknown variant");
    const auto& info = variant->info();
    std::string moves = run.dice.record_movetext(*g, log);
    if (!pgn) {
        // Counted as shown: a standing policy set by direct message is no public ply.
        const auto shown = run.dice.public_action_texts(*g, log);
        const auto plies = std::count_if(shown.begin(), shown.end(),
                                         [](const std::string& t) { return !t.empty(); });
        run.out.say("Game #" + std::to_string(g->id) + ", " + info.title + ", " +
                        std::to_string(plies) + (plies == 1 ? " ply." : " plies."),
                    log.empty() ? std::string("(no moves yet)\n") : wrap_moves(moves, 60));
        return;
    }
    auto name = [&](std::optional<std::int64_t> id) {
        return id ? run.people.player(*id).name : "?";
    };
    const std::string text =
        pgn_text(*g, log, pgn_tags(run.ctx.store, *g, name(g->white), name(g->black)));
    // FIDE chess from the start position opens in lichess's analysis board, moves and all.
    std::string link;
    if (info.name == "chess" && !log.empty()) {
        link = "\nAnalyse it on lichess: https://lichess.org/analysis/pgn/";
        for (std::size_t i = 0; i < log.size(); ++i) {
            link += i ? "_" : "";
            for (const char c : log[i].text)
                link += c == '+' ? "%2B" : c == '#' ? "%23" : std::string(1, c);
        }
    }
    run.out.say("PGN of game #" + std::to_string(g->id) + ":" + link, text);
}

PgnTags pgn_tags(storage::Store& store, const GameRecord& g, std::string white, std::string black) {
    PgnTags tags{std::move(white), std::move(black), {}, "-"};
    if (const auto pairing = store.pairing_of_game(g.id)) {
        tags.round = std::to_string(pairing->round) + "." + std::to_string(pairing->board);
        if (const auto tourney = store.tournament(pairing->tournament_id))
            tags.event = tourney->name;
    }
    return tags;
}

std::string pgn_text(const GameRecord& g, const std::vector<storage::ActionRecord>& log,
                     const PgnTags& tags) {
    const rules::Variant* variant = rules::find_variant(g.variant);
    if (variant == nullptr)
        throw std::runtime_error("game #" + std::to_string(g.id) + ": unknown variant");
    const auto& info = variant->info();
    const std::string moves = public_movetext(g, log);
    std::time_t t = static_cast<std::time_t>(g.created_at);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char date[16];
    std::strftime(date, sizeof date, "%Y.%m.%d", &tm);
    char time[16];
    std::strftime(time, sizeof time, "%H:%M:%S", &tm);
    const std::string result = g.status == GameStatus::Finished ? g.result : "*";
    // The seven tags every PGN reader knows, then those lichess writes.
    std::string text =
        "[Event \"" +
        pgn_escape(tags.event.empty() ? "ghostpost game " + std::to_string(g.id) : tags.event) +
        "\"]\n" + "[Site \"" + pgn_escape(g.platform + " " + g.channel) + "\"]\n" + "[Date \"" +
        date + "\"]\n" + "[Round \"" + pgn_escape(tags.round) + "\"]\n" + "[White \"" +
        pgn_escape(tags.white) + "\"]\n" + "[Black \"" + pgn_escape(tags.black) + "\"]\n" +
        "[Result \"" + result + "\"]\n" + "[UTCDate \"" + date + "\"]\n" + "[UTCTime \"" + time +
        "\"]\n" + "[Variant \"" + (info.name == "chess" ? "Standard" : info.title) + "\"]\n" +
        "[TimeControl \"" + pgn_time_control(g.time_control) + "\"]\n" + "[Termination \"" +
        pgn_termination(g) + "\"]\n";
    std::string body = moves;
    if (g.status == GameStatus::Finished && !g.reason.empty())
        body += std::string(body.empty() ? "" : " ") + "{" + g.reason + "}";
    text += "\n" + wrap_moves(body.empty() ? result : body + " " + result, 78);
    return text;
}

std::string pgn_escape(const std::string& value) {
    std::string out;
    for (const char c : value) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c == '\n' ? ' ' : c;
    }
    return out;
}

std::string pgn_time_control(const std::string& tc) {
    const auto parsed = parse_time_control(tc);
    if (!parsed.value || parsed.value->kind == TimeControl::Kind::None)
        return "-";
    const TimeControl& c = *parsed.value;
    if (c.kind == TimeControl::Kind::PerMove)
        return "1/" + std::to_string(c.base); // one move in so many seconds
    return std::to_string(c.base) + "+" + std::to_string(c.increment);
}

// The Termination values lichess writes: how the game ended, not who won.
std::string pgn_termination(const GameRecord& g) {
    if (g.status == GameStatus::Aborted)
        return "Abandoned";
    if (g.status != GameStatus::Finished)
        return "Unterminated";
    if (g.reason.starts_with("timeout"))
        return "Time forfeit";
    if (g.reason == "adjudication")
        return "Adjudication";
    if (g.reason == "forfeit")
        return "Rules infraction";
    return "Normal";
}

void cmd_fen(PostParts& run, const std::vector<std::string>& args) {
    std::size_t used = 0;
    auto g = run.games.pick_game(args, used, "fen", true);
    if (!g)
        return;
    if (used < args.size()) {
        run.out.usage_error(
            "fen", tr("I did not understand \"{text}\".", {{"text", shorten(args[used])}}));
        return;
    }
    if (g->status != GameStatus::Ongoing && g->status != GameStatus::Finished &&
        g->status != GameStatus::Aborted) {
        run.out.say("Game #" + std::to_string(g->id) + " never started.");
        return;
    }
    Loaded l = run.games.load(*g);
    // A FEN is the whole position: while a game hides pieces or dice decide, it would tell
    // what the rules keep from the channel.
    if (g->status == GameStatus::Ongoing && (hides_pieces(*l.game) || l.info().uses_chance)) {
        run.out.say(
            "Game #" + std::to_string(g->id) + " (" + l.info().title +
            ") keeps part of its position hidden while it runs: its FEN comes once it is over.");
        return;
    }
    const std::string fen = l.game->fen();
    if (fen.empty()) {
        run.out.say(l.info().title + " has no FEN.");
        return;
    }
    std::string text = "FEN of game #" + std::to_string(g->id) + " after " +
                       std::to_string(l.plies) + (l.plies == 1 ? " ply:" : " plies:");
    if (l.info().name == "chess") {
        std::string url = fen;
        std::replace(url.begin(), url.end(), ' ', '_');
        text += " https://lichess.org/analysis/" + url;
    }
    run.out.say(text, fen);
}

} // namespace ghostpost::bot
