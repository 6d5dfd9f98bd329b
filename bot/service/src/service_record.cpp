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

bool one_page(PostParts& run, const std::vector<std::string>& lines, std::size_t page,
              const std::string& command, std::vector<std::string>& shown, Text& more) {
    const std::size_t pages = (lines.size() + games_per_page - 1) / games_per_page;
    if (page > pages) {
        run.out.say(tr("{pages, plural, one {There is # page of games, not {page}.} other {There "
                       "are # pages of games, not {page}.}}",
                       {{"pages", pages}, {"page", std::to_string(page)}}));
        return false;
    }
    const auto from = (page - 1) * games_per_page;
    const auto to = std::min(lines.size(), from + games_per_page);
    shown.assign(lines.begin() + static_cast<std::ptrdiff_t>(from),
                 lines.begin() + static_cast<std::ptrdiff_t>(to));
    more = Text();
    const std::string this_page = std::to_string(page), all_pages = std::to_string(pages);
    if (pages > 1 && page < pages) {
        const std::string next =
            run.ctx.settings.prefix + command + " page=" + std::to_string(page + 1);
        // TRANSLATORS: ends "Games of @bob" in "Games of @bob, page 1 of 3 (!games page=2 ...):".
        more = tr(", page {page} of {pages} ({command} for the next)",
                  {{"page", this_page}, {"pages", all_pages}, {"command", next}});
    } else if (pages > 1) {
        // TRANSLATORS: ends "Games of @bob" in "Games of @bob, page 3 of 3:".
        more = tr(", page {page} of {pages}", {{"page", this_page}, {"pages", all_pages}});
    }
    return true;
}

namespace {

// A line of a list of games, "#4 chess vs @bob: <state>" (without an opponent: "#4 chess:
// <state>"), in the author's language: the list is the reply's code block.
std::string game_line(PostParts& run, const GameRecord& g, const std::string& opponent,
                      const Text& state) {
    const std::string id = std::to_string(g.id);
    return Replies::written(
        opponent.empty()
            ? tr("#{game} {variant}: {state}",
                 {{"game", id}, {"variant", g.variant}, {"state", state}})
            : tr("#{game} {variant} vs {player}: {state}",
                 {{"game", id}, {"variant", g.variant}, {"player", opponent}, {"state", state}}),
        run.out.author_language());
}

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
        if (g.status == GameStatus::Challenge) {
            if (g.challenger == whom.id && !g.challenged_id && g.challenged.empty())
                later.push_back(
                    game_line(run, g, {}, tr("challenge to anyone, waiting for an answer")));
            else if (g.challenger == whom.id)
                later.push_back(
                    game_line(run, g, {},
                              tr("challenge to {player}, waiting for an answer",
                                 {{"player", g.challenged_id ? run.people.mention(*g.challenged_id)
                                                             : "@" + g.challenged}})));
            else
                first.push_back(game_line(run, g, {},
                                          tr("challenge from {player}, to accept or decline",
                                             {{"player", run.people.mention(g.challenger)}})));
            continue;
        }
        Loaded l = run.games.load(g);
        Seat seat = *detail::seat_of(g, whom.id);
        std::string line =
            game_line(run, g, run.people.mention(*detail::seated(g, rules::opponent(seat))),
                      run.games.next_line(l));
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
        Text reply = tr("{player} has no game under way and no open challenge.",
                        {{"player", run.out.at(whom)}});
        if (done != 0)
            reply += verbatim(" ") +
                     tr("{count, plural, one {# game finished} other {# games finished}}: "
                        "{command} lists them.",
                        {{"count", done}, {"command", run.ctx.settings.prefix + "games finished"}});
        run.out.say(reply);
        return;
    }
    first.insert(first.end(), later.begin(), later.end());
    std::vector<std::string> shown;
    Text more;
    if (!one_page(run, first, page, "games" + std::string(finished ? " all" : ""), shown, more))
        return;
    // TRANSLATORS: {more} is empty or ", page 1 of 3 (!games page=2 for the next)".
    run.out.say(tr("Games of {player}, those waiting for them first{more}:",
                   {{"player", run.out.at(whom)}, {"more", more}}),
                join(shown, "\n") + "\n");
    if (finished)
        say_finished(run, whom, true, page);
}

void say_finished(PostParts& run, const PlayerRecord& whom, bool after_current, std::size_t page) {
    auto done = run.ctx.store.games_of_player(whom, {GameStatus::Finished, GameStatus::Aborted});
    if (done.empty()) {
        if (!after_current)
            run.out.say(tr("{player} has no finished game yet.", {{"player", run.out.at(whom)}}));
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
        Text state;
        if (g.status == GameStatus::Aborted) {
            state = tr("aborted");
        } else {
            const bool won = (g.result == "1-0" && seat == Seat::White) ||
                             (g.result == "0-1" && seat == Seat::Black);
            const bool draw = g.result == "1/2-1/2";
            // TRANSLATORS: how a finished game ended for the player (!games finished).
            const Text outcome = draw ? tr("draw") : won ? tr("won") : tr("lost");
            state = g.reason.empty()
                        ? tr("{result} ({outcome})", {{"result", g.result}, {"outcome", outcome}})
                        : tr("{result} ({outcome}, {reason})",
                             {{"result", g.result},
                              {"outcome", outcome},
                              {"reason", game_word("reason", g.reason)}});
        }
        lines.push_back(
            game_line(run, g, other ? run.people.mention(*other) : std::string(), state));
    }
    std::vector<std::string> shown;
    Text more;
    if (!one_page(run, lines, page, after_current ? "games all" : "games finished", shown, more))
        return;
    const std::string who = run.out.at(whom);
    // TRANSLATORS: {more} is empty or ", page 1 of 3 (!games finished page=2 for the next)".
    run.out.say(tr("Finished games of {player}{more}:", {{"player", who}, {"more", more}}),
                join(shown, "\n") + "\n");
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
        run.out.say(tr("Game #{game}, {variant}, {plies, plural, one {# ply} other {# plies}}.",
                       {{"game", std::to_string(g->id)},
                        {"variant", game_word("variant", info.title)},
                        {"plies", plies}}),
                    log.empty()
                        ? Replies::written(tr("(no moves yet)"), run.out.author_language()) + "\n"
                        : wrap_moves(moves, 60));
        return;
    }
    auto name = [&](std::optional<std::int64_t> id) {
        return id ? run.people.player(*id).name : "?";
    };
    const std::string text =
        pgn_text(*g, log, pgn_tags(run.ctx.store, *g, name(g->white), name(g->black)));
    // FIDE chess from the start position opens in lichess's analysis board, moves and all.
    Text heading = tr("PGN of game #{game}:", {{"game", std::to_string(g->id)}});
    if (info.name == "chess" && !log.empty()) {
        std::string link = "https://lichess.org/analysis/pgn/";
        for (std::size_t i = 0; i < log.size(); ++i) {
            link += i ? "_" : "";
            for (const char c : log[i].text)
                link += c == '+' ? "%2B" : c == '#' ? "%23" : std::string(1, c);
        }
        heading += verbatim("\n") + tr("Analyse it on lichess: {link}", {{"link", link}});
    }
    run.out.say(heading, text);
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
        run.out.say(tr("Game #{game} never started.", {{"game", std::to_string(g->id)}}));
        return;
    }
    Loaded l = run.games.load(*g);
    // A FEN is the whole position: while a game hides pieces or dice decide, it would tell
    // what the rules keep from the channel.
    if (g->status == GameStatus::Ongoing && (hides_pieces(*l.game) || l.info().uses_chance)) {
        run.out.say(tr(
            "Game #{game} ({variant}) keeps part of its position hidden while it runs: "
            "its FEN comes once it is over.",
            {{"game", std::to_string(g->id)}, {"variant", game_word("variant", l.info().title)}}));
        return;
    }
    const std::string fen = l.game->fen();
    if (fen.empty()) {
        run.out.say(
            tr("{variant} has no FEN.", {{"variant", game_word("variant", l.info().title)}}));
        return;
    }
    Text text = tr("FEN of game #{game} after {plies, plural, one {# ply} other {# plies}}:",
                   {{"game", std::to_string(g->id)}, {"plies", l.plies}});
    if (l.info().name == "chess") {
        std::string url = fen;
        std::replace(url.begin(), url.end(), ' ', '_');
        text += verbatim(" https://lichess.org/analysis/" + url);
    }
    run.out.say(text, fen);
}

} // namespace ghostpost::bot
