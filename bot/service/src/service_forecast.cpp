// Conditional moves (!forecast; Forecasts, forecasts.h): a player stores, by direct message, lines
// of play from the position now ("if they play Nf3, I answer Nc6; if they then play Bb5, I answer
// a6"), and the service answers the opponent's move at once, in the same transaction as that move,
// when it matches the first move of a line. Only where the rules say a game can be foreseen
// (Game::foreseeable: nothing hidden, no dice), so that a line checked when it is stored plays
// out exactly as checked.
//
// A forecast is one seat's lines, all starting from the same ply. Lines may part only at a move
// of the opponent's: one reply to each position. When it is the player's own decision, every
// line starts with the player's move, which is played at once (lichess's premove followed by
// conditional moves). Each action of the game keeps the lines that foresaw it, shortened by it,
// and drops the others. What ends a game clears its forecasts silently; a takeback clears them
// and tells their owners. docs/forecasts.md says all of it in the players' words.
#include "ghostpost/league/clock.h"
#include "ghostpost/rules/notation.h"
#include "ghostpost/rules/registry.h"
#include "ghostpost/service/command.h"
#include "post_run.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <variant>

namespace ghostpost::bot {

using namespace detail;

namespace {

constexpr std::size_t max_lines = 20;        // lines one forecast keeps
constexpr std::size_t max_line_actions = 30; // actions in one line
constexpr std::size_t max_extra_words = 4;   // a canonical text has at most five words

// "12.", "12...", "1…" and results are no actions: movetext copied from elsewhere reads.
bool is_move_number(const std::string& w) {
    if (w == "*" || w == "1-0" || w == "0-1" || w == "1/2-1/2")
        return true;
    std::size_t i = 0;
    while (i < w.size() && w[i] >= '0' && w[i] <= '9')
        ++i;
    if (i == 0 || i == w.size())
        return false;
    const std::string rest = w.substr(i);
    return rest.find_first_not_of('.') == std::string::npos || rest == "\u2026";
}

bool is_clear_word(const std::string& w) {
    const std::string l = lower(w);
    return l == "clear" || l == "off" || l == "delete" || l == "cancel";
}

// A line of actions read from a position: canonical texts and who decides each.
struct Line {
    std::vector<std::string> texts;
    std::vector<Seat> seats;
};

struct LineError {
    std::size_t place = 0; // 1-based place of the action in the line
    Text reason;           // a sentence
};

// Reads `units` in order from the position of `start`, each as an action of whoever must decide
// then. A unit that is no action on its own may take up to four more units with it ("Respawn
// d1") when `join` is set (typed words; stored lines hold whole canonical texts).
std::variant<Line, LineError> read_line(const rules::Game& start,
                                        const std::vector<std::string>& units, bool join) {
    auto game = start.clone();
    rules::NoRandomness no_dice; // a foreseeable game draws none
    Line line;
    for (std::size_t i = 0; i < units.size();) {
        const std::size_t place = line.texts.size() + 1;
        if (game->outcome().over())
            return LineError{place, tr("the game is over before it ({reason}).",
                                       {{"reason", game_word("reason", game->outcome().reason)}})};
        const auto pending = game->pending();
        if (pending.size() != 1 || !game->foreseeable())
            return LineError{place, tr("what comes there cannot be foreseen.")};
        if (line.texts.size() == max_line_actions)
            return LineError{
                place, tr("a line holds at most {count, plural, one {# move} other {# moves}}.",
                          {{"count", max_line_actions}})};
        const Seat seat = pending.front().seat;
        auto parsed = rules::parse_action(*game, seat, units[i]);
        std::size_t used = 1;
        if (!parsed && join) {
            std::optional<rules::RuleError> named; // a special named by several words, refused
            std::string joined = units[i];
            for (std::size_t extra = 1; extra <= max_extra_words && i + extra < units.size();
                 ++extra) {
                joined += " " + units[i + extra];
                auto longer = rules::parse_action(*game, seat, joined);
                if (longer) {
                    parsed = std::move(longer);
                    used = extra + 1;
                    break;
                }
                if (!named && longer.error().kind != rules::ErrorKind::NotAMove)
                    named = longer.error();
            }
            if (!parsed && named && parsed.error().kind == rules::ErrorKind::NotAMove)
                return LineError{place, reason_of(*named)};
        }
        if (!parsed)
            return LineError{place, reason_of(parsed.error())};
        auto applied = game->apply(seat, parsed->action, no_dice);
        if (!applied)
            return LineError{place, reason_of(applied.error())};
        line.texts.push_back(parsed->text);
        line.seats.push_back(seat);
        i += used;
    }
    return line;
}

// Why two of `lines` cannot stand together: they part at an action of `mine`, and a forecast
// has one reply to each position. Empty when they can.
Text contradiction(const std::vector<Line>& lines, Seat mine) {
    for (std::size_t i = 0; i < lines.size(); ++i) {
        for (std::size_t j = i + 1; j < lines.size(); ++j) {
            const Line& a = lines[i];
            const Line& b = lines[j];
            std::size_t k = 0;
            while (k < a.texts.size() && k < b.texts.size() && a.texts[k] == b.texts[k])
                ++k;
            if (k == a.texts.size() || k == b.texts.size() || a.seats[k] != mine)
                continue; // one goes on where the other ends, or they part at their move
            if (k == 0)
                return tr("your lines start with different moves of yours ({move} and {other}), "
                          "and you play one move now.",
                          {{"move", a.texts[0]}, {"other", b.texts[0]}});
            const std::vector<std::string> before(a.texts.begin(),
                                                  a.texts.begin() + static_cast<long>(k));
            return tr("after {moves} one line plays {move} and another {other}: a forecast has "
                      "one reply to each move.",
                      {{"moves", join(before, " ")}, {"move", a.texts[k]}, {"other", b.texts[k]}});
        }
    }
    return {};
}

// The lines without repeats and without lines that another one continues (they add nothing).
std::vector<Line> without_repeats(const std::vector<Line>& lines) {
    std::vector<Line> out;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const auto& a = lines[i].texts;
        bool covered = false;
        for (std::size_t j = 0; j < lines.size() && !covered; ++j) {
            const auto& b = lines[j].texts;
            if (j == i || b.size() < a.size() || !std::equal(a.begin(), a.end(), b.begin()))
                continue;
            covered = b.size() > a.size() || j < i; // of two equal lines the first stays
        }
        if (!covered)
            out.push_back(lines[i]);
    }
    return out;
}

std::string lines_text(const std::vector<std::vector<std::string>>& lines) {
    std::string out;
    for (const auto& line : lines)
        out += join(line, " ") + "\n";
    return out;
}

} // namespace

namespace {

// The command's arguments; a line per row of the message reads as lines separated by ';' (the
// command's words lose the line breaks).
Args forecast_args(PostParts& run, const Args& command_args) {
    Args args = command_args;
    if (run.ctx.post.text.find('\n') != std::string::npos) {
        std::string text;
        for (char c : run.ctx.post.text)
            text += c == '\n' ? std::string(" ; ") : std::string(1, c);
        if (auto c = parse_command(text, {run.ctx.settings.prefix, "/"}))
            args = c->args;
    }
    return args;
}

// "!forecast" alone: the author's forecasts of every game, by game.
void list_forecasts(PostParts& run) {
    std::string rows;
    for (const auto& g : run.ctx.store.games_of_player(run.ctx.author, {GameStatus::Ongoing})) {
        const auto seat = detail::seat_of(g, run.ctx.author.id);
        for (const auto& f : run.ctx.store.forecasts(g.id))
            if (seat && f.seat == *seat && f.ply == run.ctx.store.action_count(g.id))
                for (const auto& line : f.lines)
                    rows += "#" + std::to_string(g.id) + ": " + join(line, " ") + "\n";
    }
    if (rows.empty())
        run.out.say(tr("You have no forecasts. Use: {form}", {{"form", run.out.form("forecast")}}));
    else
        run.out.say(tr("Your forecasts, by game:"), rows);
}

// The forecast `seat` stored for this position of `l`; one of an earlier position is no longer
// any, and is deleted.
std::optional<storage::ForecastRecord> current_forecast(PostParts& run, const Loaded& l,
                                                        Seat seat) {
    std::optional<storage::ForecastRecord> stored;
    for (auto& f : run.ctx.store.forecasts(l.rec.id)) {
        if (f.seat != seat)
            continue;
        if (f.ply == l.plies)
            stored = std::move(f);
        else
            run.ctx.store.clear_forecast(l.rec.id, f.seat);
    }
    return stored;
}

// "!forecast 4" shows the stored forecast, "!forecast 4 clear" (`clear`) deletes it.
void show_or_clear_forecast(PostParts& run, const Loaded& l, Seat seat,
                            const std::optional<storage::ForecastRecord>& stored, bool clear,
                            const Text& other) {
    const std::string id = std::to_string(l.rec.id);
    if (!stored) {
        run.out.say(tr("You have no forecast in game #{game}. Use: {form}",
                       {{"game", id}, {"form", run.out.form("forecast")}}));
    } else if (clear) {
        run.ctx.store.clear_forecast(l.rec.id, seat);
        run.out.say(tr("Your forecast in game #{game} is cleared ({count, plural, one {# line} "
                       "other {# lines}}).",
                       {{"game", id}, {"count", stored->lines.size()}}));
    } else {
        const auto ds = deciders(l);
        const bool mine_first = std::find(ds.begin(), ds.end(), seat) != ds.end();
        run.out.say(mine_first
                        ? tr("Your forecast in game #{game}, {count, plural, one {# line} "
                             "other {# lines}}, each starting with your own move:",
                             {{"game", id}, {"count", stored->lines.size()}})
                        : tr("Your forecast in game #{game}, {count, plural, one {# line} "
                             "other {# lines}}, each starting with the next move of "
                             "{player}:",
                             {{"game", id}, {"count", stored->lines.size()}, {"player", other}}),
                    lines_text(stored->lines));
    }
}

// Lines are separated by ';'; the words of each are actions, move numbers skipped.
std::vector<std::vector<std::string>> typed_lines(const Args& rest) {
    std::vector<std::vector<std::string>> typed;
    std::vector<std::string> words;
    const auto close = [&] {
        if (!words.empty())
            typed.push_back(std::move(words));
        words.clear();
    };
    for (const std::string& arg : rest) {
        std::size_t start = 0;
        while (true) {
            const std::size_t semi = arg.find(';', start);
            const std::string piece =
                arg.substr(start, semi == std::string::npos ? std::string::npos : semi - start);
            if (!piece.empty() && !is_move_number(piece))
                words.push_back(piece);
            if (semi == std::string::npos)
                break;
            close();
            start = semi + 1;
        }
    }
    close();
    return typed;
}

// What a new forecast is read against: the game, the author's seat, the opponent's name, and
// whether the first move of each line is the author's own.
struct ForecastGame {
    Loaded& l;
    Seat seat;
    Text other;
    bool mine_first;
};

// Reads the typed lines onto `lines`; false, after saying why nothing was stored, when one does
// not read or foresees no reply of the author's.
bool read_typed_lines(PostParts& run, const ForecastGame& fg,
                      const std::vector<std::vector<std::string>>& typed,
                      std::vector<Line>& lines) {
    const std::string id = std::to_string(fg.l.rec.id);
    const Text start_hint =
        fg.mine_first ? tr("It is your decision in game #{game}, so a line starts with your move.",
                           {{"game", id}})
                      : tr("A line starts with the next move of {player}.", {{"player", fg.other}});
    for (std::size_t i = 0; i < typed.size(); ++i) {
        const std::string line_number = std::to_string(i + 1);
        auto read = read_line(*fg.l.game, typed[i], true);
        if (const auto* e = std::get_if<LineError>(&read)) {
            const std::string place = std::to_string(e->place);
            Text said =
                tr("Nothing was stored.") + verbatim(" ") +
                (typed.size() > 1
                     // TRANSLATORS: the n-th move of the n-th line of a forecast the player typed.
                     ? tr("Line {line}, move {place}: {reason}",
                          {{"line", line_number}, {"place", place}, {"reason", e->reason}})
                     // TRANSLATORS: the n-th move of the one line of a forecast the player typed.
                     : tr("Move {place}: {reason}", {{"place", place}, {"reason", e->reason}}));
            if (e->place == 1)
                said += verbatim(" ") + start_hint;
            run.out.say(said);
            return false;
        }
        Line line = std::get<Line>(std::move(read));
        // A reply of the player's to a move of the opponent's is what a forecast is for.
        bool theirs = false, answers = false;
        for (Seat s : line.seats) {
            answers = answers || (theirs && s == fg.seat);
            theirs = theirs || s != fg.seat;
        }
        if (!answers) {
            const std::string example =
                run.ctx.settings.prefix + "forecast " + id + " " +
                (fg.mine_first ? "<your move> <theirs> <your reply>" : "<their move> <your reply>");
            run.out.say(
                tr("Nothing was stored.") + verbatim(" ") +
                (typed.size() > 1
                     ? tr("Line {line} has no reply of yours to a move of {player}: write the "
                          "move you expect, then yours, for example {example}.",
                          {{"line", line_number}, {"player", fg.other}, {"example", example}})
                     : tr("The line has no reply of yours to a move of {player}: write the move "
                          "you expect, then yours, for example {example}.",
                          {{"player", fg.other}, {"example", example}})));
            return false;
        }
        lines.push_back(std::move(line));
    }
    return true;
}

// Stores `lines` (`kept` of them from the stored forecast) and says so; the author's own first
// move is played at once.
void store_forecast(PostParts& run, const ForecastGame& fg, std::vector<Line> lines,
                    std::size_t kept) {
    const std::string& p = run.ctx.settings.prefix;
    const std::string id = std::to_string(fg.l.rec.id);
    lines = without_repeats(lines);
    if (const Text why = contradiction(lines, fg.seat); !why.empty()) {
        Text said = tr("Nothing was stored: {reason}", {{"reason", why}});
        if (kept > 0)
            said += verbatim(" ") +
                    // TRANSLATORS: {command} clears the forecast stored, to write it anew.
                    tr("{command} starts again.", {{"command", p + "forecast " + id + " clear"}});
        run.out.say(said);
        return;
    }
    if (lines.size() > max_lines) {
        run.out.say(tr("Nothing was stored: a forecast holds at most {max, plural, one {# line} "
                       "other {# lines}}, and this would make {count}.",
                       {{"max", max_lines}, {"count", std::to_string(lines.size())}}));
        return;
    }
    storage::ForecastRecord f{fg.l.rec.id, fg.seat, run.ctx.author.id, fg.l.plies, {}};
    for (const Line& line : lines)
        f.lines.push_back(line.texts);
    run.ctx.store.put_forecast(f);
    const std::string first = lines.front().texts.front();
    const std::vector<i18n::Arg> stored{{"game", id}, {"count", lines.size()}};
    run.out.say(
        (kept > 0 ? tr("Forecast for game #{game} updated: {count, plural, one {# line} "
                       "other {# lines}} in all.",
                       stored)
                  : tr("Forecast stored for game #{game}: {count, plural, one {# line} "
                       "other {# lines}}.",
                       stored)) +
            verbatim(" ") +
            (fg.mine_first
                 ? tr("Your {move} is played now; when {player} answers as a line foresees, I "
                      "play your reply at once.",
                      {{"move", first}, {"player", fg.other}})
                 : tr("When {player} plays the first move of a line, I play your reply at once.",
                      {{"player", fg.other}})) +
            verbatim(" ") +
            // TRANSLATORS: "it" is the player's forecast (conditional moves).
            tr("{show} shows it, {clear} deletes it.",
               {{"show", p + "forecast " + id}, {"clear", p + "forecast " + id + " clear"}}),
        lines_text(f.lines));
    if (fg.mine_first)
        run.session.play(fg.l, fg.seat, first);
}

// The lines of `rest` added to what `seat` stored for `l`, once the game may be foreseen.
void new_forecast(PostParts& run, Loaded& l, Seat seat,
                  const std::optional<storage::ForecastRecord>& stored, const Args& rest,
                  const Text& other) {
    const std::string id = std::to_string(l.rec.id);
    if (!l.game->foreseeable()) {
        run.out.say(tr("Game #{game} is {variant}: forecasts are only for games where nothing is "
                       "hidden and no dice are rolled, so that a line can be checked when it is "
                       "stored. Nothing was stored.",
                       {{"game", id}, {"variant", game_word("variant", l.info().title)}}));
        return;
    }
    const auto ds = deciders(l);
    const ForecastGame fg{l, seat, other, ds.size() == 1 && ds.front() == seat};
    if (fg.mine_first && l.rec.paused) {
        run.out.say(tr("Game #{game} is paused by a moderator, so your first move cannot be "
                       "played now. Nothing was stored.",
                       {{"game", id}}));
        return;
    }
    const auto typed = typed_lines(rest);
    if (typed.empty()) {
        run.out.usage_error("forecast",
                            tr("Say the lines: your opponent's move and your reply, and so on."));
        return;
    }
    std::vector<Line> lines;
    if (stored)
        for (const auto& texts : stored->lines) {
            auto read = read_line(*l.game, texts, false);
            if (std::holds_alternative<Line>(read))
                lines.push_back(std::get<Line>(std::move(read)));
        }
    const std::size_t kept = lines.size();
    if (read_typed_lines(run, fg, typed, lines))
        store_forecast(run, fg, std::move(lines), kept);
}

} // namespace

void cmd_forecast(PostParts& run, const Args& command_args) {
    const Args args = forecast_args(run, command_args);
    // The lines would tell the opponent what the player has in mind: they are never read out
    // of a channel, let alone stored from one.
    if (!run.ctx.post.direct) {
        run.out.say(tr("Forecasts are private: send {command} to me by direct message. Nothing "
                       "was stored.",
                       {{"command", run.ctx.settings.prefix + "forecast"}}));
        return;
    }
    if (args.empty()) {
        list_forecasts(run);
        return;
    }
    std::size_t used = 0;
    auto g = run.games.pick_game(args, used, "forecast", false);
    if (!g)
        return;
    const std::string id = std::to_string(g->id);
    const Args rest(args.begin() + static_cast<long>(used), args.end());
    const bool lines_given = !rest.empty() && !(rest.size() == 1 && is_clear_word(rest[0]));
    if (g->status != GameStatus::Ongoing) {
        const rules::Variant* v = rules::find_variant(g->variant);
        Text said = v ? run.games.over_line(*g, v->info())
                      : tr("Game #{game} is not under way.", {{"game", id}});
        if (lines_given)
            said += verbatim(" ") + tr("Nothing was stored.");
        run.out.say(said);
        return;
    }
    const auto seat = detail::seat_of(*g, run.ctx.author.id);
    if (!seat) {
        run.out.say(tr("You are not playing in game #{game}.", {{"game", id}}));
        return;
    }
    Loaded l = run.games.load(*g);
    const auto stored = current_forecast(run, l, *seat);
    const Text other = run.people.who(l.rec, l.info(), rules::opponent(*seat));
    if (lines_given)
        new_forecast(run, l, *seat, stored, rest, other);
    else
        show_or_clear_forecast(run, l, *seat, stored, !rest.empty(), other);
}

std::optional<Seat> Forecasts::follow_forecasts(Loaded& l, Seat seat,
                                                const std::string& canonical) {
    auto stored = ctx_.store.forecasts(l.rec.id);
    if (stored.empty())
        return std::nullopt;
    if (l.game->outcome().over()) {
        clear_forecasts(l.rec); // the end of the game says enough
        return std::nullopt;
    }
    const auto ds = deciders(l);
    std::optional<Seat> answering;
    for (auto& f : stored) {
        // Lines of another position (a log changed by another process) foresee nothing here.
        if (f.ply != l.plies - 1) {
            ctx_.store.clear_forecast(l.rec.id, f.seat);
            continue;
        }
        bool foreseen = false;
        std::vector<std::vector<std::string>> kept;
        for (auto& line : f.lines) {
            if (line.empty() || line.front() != canonical)
                continue;
            foreseen = true;
            line.erase(line.begin());
            if (!line.empty())
                kept.push_back(std::move(line));
        }
        const bool yours = std::find(ds.begin(), ds.end(), f.seat) != ds.end();
        if (kept.empty()) {
            ctx_.store.clear_forecast(l.rec.id, f.seat);
            // A move of the owner's own that leaves their lines needs no word.
            if (f.seat == seat)
                continue;
            const std::vector<i18n::Arg> played{
                {"player", people_.mention(*detail::seated(l.rec, seat))}, {"move", canonical}};
            Text note;
            if (foreseen)
                note = yours ? tr("{player} played {move}, as your forecast foresaw, but no line "
                                  "of it goes further; the decision is yours.",
                                  played)
                             : tr("{player} played {move}, as your forecast foresaw, but no line "
                                  "of it goes further.",
                                  played);
            else
                note = yours ? tr("{player} played {move}, which your forecast did not foresee, "
                                  "so it is dropped; the decision is yours.",
                                  played)
                             : tr("{player} played {move}, which your forecast did not foresee, "
                                  "so it is dropped.",
                                  played);
            // Notes are kept in English until forecasts.h keeps them as Texts.
            forecast_notes_.emplace_back(f.player_id, note);
            continue;
        }
        f.lines = std::move(kept);
        f.ply = l.plies;
        ctx_.store.put_forecast(f);
        if (!yours || ds.size() != 1)
            continue;
        // The owner decides for themselves what a forecast cannot have weighed: a draw offered
        // after it was stored would be declined by playing on, and a banned player's moves are
        // refused however they come.
        const std::vector<i18n::Arg> held{{"move", canonical}, {"reply", f.lines.front().front()}};
        Text note;
        if (auto offer = ctx_.store.offer(l.rec.id, OfferKind::Draw);
            offer && offer->seat != f.seat) {
            std::vector<i18n::Arg> args = held;
            args.emplace_back("player", people_.mention(*detail::seated(l.rec, offer->seat)));
            note = tr("{player} offers a draw, so your forecast did not answer {move} with "
                      "{reply}. The decision is yours; the forecast stays, its lines now starting "
                      "with that reply.",
                      std::move(args));
        } else if (const auto account = ctx_.store.player(f.player_id);
                   account && ctx_.store.ban(l.rec.platform,
                                             people_.as_player(*account, l.rec.platform).user_id)) {
            note = tr("you are banned here by a moderator, so your forecast did not answer {move} "
                      "with {reply}. The decision is yours; the forecast stays, its lines now "
                      "starting with that reply.",
                      held);
        }
        if (note.empty()) {
            answering = f.seat;
            continue;
        }
        forecast_notes_.emplace_back(f.player_id, note);
    }
    return answering;
}

Text Forecasts::answer_forecasts(Session& session, Loaded& l, std::optional<Seat> answering) {
    const std::string id = std::to_string(l.rec.id);
    Text said;
    std::map<std::int64_t, std::vector<Text>> played; // by owner: "Nf3 with Nc6"
    std::string previous;
    if (const auto log = ctx_.store.actions(l.rec.id); answering && !log.empty())
        previous = log.back().text;
    // Each answer uses up the first action of a stored line, so this ends.
    while (answering && l.rec.status == GameStatus::Ongoing) {
        std::optional<storage::ForecastRecord> f;
        for (auto& stored : ctx_.store.forecasts(l.rec.id))
            if (stored.seat == *answering)
                f = std::move(stored);
        if (!f || f->lines.empty())
            break;
        auto parsed = rules::parse_action(*l.game, f->seat, f->lines.front().front());
        if (!parsed) {
            // The lines were read from this very position when they were stored; a reply that
            // no longer reads means the log changed behind them, and they foresee nothing.
            ctx_.store.clear_forecast(l.rec.id, f->seat);
            break;
        }
        auto acted = session.act(l, f->seat, *parsed, f->player_id,
                                 "forecast:" + ctx_.post.message_id, true);
        if (!acted)
            break;
        said += verbatim(" ") + tr("{player} played {move} in game #{game}, from a forecast.",
                                   {{"player", people_.who(l.rec, l.info(), f->seat)},
                                    {"move", parsed->text},
                                    {"game", id}});
        for (const auto& n : acted->public_notes)
            said += " " + n;
        played[f->player_id].push_back(
            // TRANSLATORS: a forecast answered the opponent's {move} with the player's {reply}.
            tr("{move} with {reply}", {{"move", previous}, {"reply", parsed->text}}));
        previous = parsed->text;
        answering = acted->answering;
    }
    for (const auto& [owner, moves] : played) {
        Text left = tr("Nothing of it is left.");
        for (const auto& f : ctx_.store.forecasts(l.rec.id))
            if (f.player_id == owner) {
                std::vector<std::string> texts;
                for (const auto& line : f.lines)
                    texts.push_back(join(line, " "));
                left = tr("It goes on with {count, plural, one {# line} other {# lines}}: {lines}.",
                          {{"count", f.lines.size()}, {"lines", join(texts, "; ")}});
            }
        // "Nf3 with Nc6, then Bb5 with a6"
        Text answered = moves.front();
        for (std::size_t i = 1; i < moves.size(); ++i)
            // TRANSLATORS: a list of "{move} with {reply}", in the order played.
            answered = tr("{first}, then {next}", {{"first", answered}, {"next", moves[i]}});
        forecast_notes_.emplace_back(owner,
                                     tr("your forecast answered {moves}.", {{"moves", answered}}) +
                                         verbatim(" ") + left);
    }
    return said;
}

void Forecasts::clear_forecasts(const GameRecord& g, const Text& why) {
    for (const auto& f : ctx_.store.forecasts(g.id)) {
        ctx_.store.clear_forecast(g.id, f.seat);
        if (!why.empty())
            out_.tell(people_.player(f.player_id),
                      tr("Game #{game}: {reason}, so your forecast is cleared.",
                         {{"game", std::to_string(g.id)}, {"reason", why}}),
                      {}, &g);
    }
}

void Forecasts::tell_forecast_notes(const GameRecord& g) {
    for (const auto& [owner, text] : forecast_notes_)
        out_.tell(people_.player(owner),
                  tr("Game #{game}: {reason}", {{"game", std::to_string(g.id)}, {"reason", text}}),
                  {}, &g);
    forecast_notes_.clear();
}

} // namespace ghostpost::bot
