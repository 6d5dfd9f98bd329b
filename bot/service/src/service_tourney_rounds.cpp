// Tournament rounds as they go: !tourney next, pairings and standings, and what a finished
// tournament game means for its round.
#include "ghostpost/league/clock.h"
#include "ghostpost/rules/registry.h"
#include "post_run.h"
#include "tourney_field.h"

#include <cmath>

namespace ghostpost::bot {

using namespace detail;
using namespace tourney;
using storage::EntrantRecord;
using storage::TournamentStatus;

void tourney_next(PostParts& run, const std::vector<std::string>& args) {
    if (args.size() > 1) {
        run.out.usage_error("tourney next",
                            tr("I did not understand \"{text}\".", {{"text", shorten(args[1])}}));
        return;
    }
    auto t = run.tourneys.pick_tournament(args, 0);
    if (!t)
        return;
    if (t->status != TournamentStatus::Running) {
        run.out.say(t->name + (t->status == TournamentStatus::Open
                                   ? " has not started: " + run.people.mention(t->creator) +
                                         " or a moderator starts it with " +
                                         run.ctx.settings.prefix + "tourney start " + t->name + "."
                                   : " is over. " + run.out.form("tourney standings") +
                                         " shows the final table."));
        return;
    }
    Field f = load_field(run.ctx.store, *t);
    if (f.all_at_once()) {
        run.out.say("Every game of " + t->name + " started at once: there is no round to start. " +
                    capitalized(games_finished(f)) + ".");
        return;
    }
    const bool entrant =
        std::find(f.players.begin(), f.players.end(), run.ctx.author.id) != f.players.end();
    if (!entrant && t->creator != run.ctx.author.id && !run.people.moderator()) {
        run.out.say("Only the players of " + t->name + ", " + run.people.mention(t->creator) +
                    " who created it, or a moderator can start its next round.");
        return;
    }
    if (!f.round_over(t->current_round)) {
        std::vector<std::string> open;
        for (const Board* b : f.round(t->current_round))
            if (!b->over())
                open.push_back("#" + std::to_string(*b->pairing.game_id));
        run.out.say("Round " + std::to_string(t->current_round) + " of " + t->name +
                    " is not over: game" + (open.size() == 1 ? " " : "s ") + join(open, ", ") +
                    (open.size() == 1 ? " is" : " are") + " under way." +
                    (t->next_round == "auto"
                         ? " The next round starts by itself when " +
                               std::string(open.size() == 1 ? "it ends." : "they end.")
                         : std::string()));
        return;
    }
    if (!entrant && t->creator != run.ctx.author.id) // a moderator's rights allowed it
        mod_log(run.ctx,
                "tourney next " + t->name + " round " + std::to_string(t->current_round + 1));
    run.tourneys.start_round(*t, t->current_round + 1);
}

void tourney_pairings(PostParts& run, const std::vector<std::string>& args) {
    std::size_t at = 0;
    if (!args.empty() &&
        (std::isalpha(static_cast<unsigned char>(args[0][0])) || args[0].starts_with('#')))
        at = 1;
    std::optional<int> round;
    if (at < args.size()) {
        auto n = game_id_arg(args[at]);
        if (!n || args[at][0] == '#' || at + 1 < args.size()) {
            run.out.usage_error("tourney pairings", tr("I did not understand \"{text}\".",
                                                       {{"text", shorten(args[at])}}));
            return;
        }
        round = static_cast<int>(*n);
    }
    auto t = run.tourneys.pick_tournament(args, 0);
    if (!t)
        return;
    if (t->current_round == 0) {
        run.out.say(t->name + " has no pairings yet: it has not started.");
        return;
    }
    const int r = round.value_or(t->current_round);
    if (r < 1 || r > t->current_round) {
        run.out.say(t->name + " has " + plural(t->rounds, "round", "rounds") +
                    (r >= 1 && r <= t->rounds
                         ? ": round " + std::to_string(r) + " has not started yet."
                         : ": there is no round " + std::to_string(r) + ".") +
                    " " + run.out.form("tourney pairings") + " shows the current one.");
        return;
    }
    Field f = load_field(run.ctx.store, *t);
    std::vector<std::string> whites, blacks, results;
    std::size_t wide = 0, wide_black = 0;
    for (const Board* b : f.round(r)) {
        whites.push_back(name_of(run.ctx.store, b->pairing.white));
        if (b->bye()) {
            blacks.emplace_back("bye");
            results.emplace_back();
        } else {
            blacks.push_back(name_of(run.ctx.store, *b->pairing.black));
            const auto& g = *b->game;
            results.push_back("#" + std::to_string(g.id) + " " +
                              (g.status == GameStatus::Finished  ? g.result
                               : g.status == GameStatus::Ongoing ? std::string("under way")
                                                                 : std::string("aborted")));
        }
        wide = std::max(wide, whites.back().size());
        wide_black = std::max(wide_black, blacks.back().size());
    }
    for (const auto& b : f.byes) {
        if (b.round != r)
            continue;
        whites.push_back(name_of(run.ctx.store, b.player_id));
        blacks.emplace_back("half-point bye");
        results.emplace_back();
        wide = std::max(wide, whites.back().size());
    }
    std::string table;
    for (std::size_t i = 0; i < whites.size(); ++i)
        table += pad(whites[i], wide) + " - " +
                 (results[i].empty() ? blacks[i] + "\n"
                                     : pad(blacks[i], wide_black) + "  " + results[i] + "\n");
    run.out.say(t->name + ", round " + std::to_string(r) + " of " + std::to_string(t->rounds) +
                    ", White first" +
                    (f.round_over(r) ? std::string(", complete:") : std::string(", under way:")),
                table);
}

void tourney_standings(PostParts& run, const std::vector<std::string>& args) {
    if (args.size() > 1) {
        run.out.usage_error("tourney standings",
                            tr("I did not understand \"{text}\".", {{"text", shorten(args[1])}}));
        return;
    }
    auto t = run.tourneys.pick_tournament(args, 0);
    if (!t)
        return;
    Field f = load_field(run.ctx.store, *t);
    if (t->status == TournamentStatus::Open) {
        run.out.say(t->name + " has not started; " +
                    plural(static_cast<int>(f.players.size()), "player has", "players have") +
                    " entered. " + run.people.mention(t->creator) +
                    " or a moderator starts it with " + run.ctx.settings.prefix + "tourney start " +
                    t->name + ".");
        return;
    }
    const bool over = t->status == TournamentStatus::Finished;
    const std::string when =
        over              ? std::string("final")
        : f.all_at_once() ? games_finished(f)
                          : (f.round_over(t->current_round) ? "after round " : "during round ") +
                                std::to_string(t->current_round);
    if (f.knockout()) {
        std::int64_t champion = 0;
        std::string table = bracket_table(run.ctx.store, f, &champion);
        run.out.say("Standings of " + t->name + " (knockout, " + when +
                        (champion ? "): " + run.people.mention(champion) + " wins." : "):"),
                    table);
        return;
    }
    run.out.say("Standings of " + t->name + " (" + format_title(t->format) + ", " + when +
                    "; tie-breaks: " + tie_break_sentence(table_of(f)) + "):",
                score_table(run.ctx.store, f));
}

void Tourneys::tourney_game_over(const GameRecord& g) {
    auto pairing = ctx_.store.pairing_of_game(g.id);
    if (!pairing)
        return;
    auto t = ctx_.store.tournament(pairing->tournament_id);
    if (!t || t->status != TournamentStatus::Running)
        return;
    Field f = load_field(ctx_.store, *t);
    if (f.all_at_once()) {
        // Rounds are only the Berger table's grouping: the event ends with its last game.
        if (f.round_over(pairing->round))
            ctx_.store.complete_round(t->id, pairing->round, ctx_.now);
        for (const auto& b : f.boards)
            if (!b.over())
                return;
        finish_tournament(*t, f);
        return;
    }
    const int r = t->current_round;
    if (pairing->round != r || !f.round_over(r) || !ctx_.store.complete_round(t->id, r, ctx_.now))
        return;
    if (r >= t->rounds) {
        finish_tournament(*t, f);
        return;
    }
    const std::string table =
        f.knockout() ? bracket_table(ctx_.store, f, nullptr) : score_table(ctx_.store, f);
    if (t->next_round == "manual") {
        out_.say_at(t->channel,
                    "Round " + std::to_string(r) + " of " + t->name +
                        " is complete. Its players, " + people_.mention(t->creator) +
                        " who created it, or a moderator: " + ctx_.settings.prefix +
                        "tourney next " + t->name + " starts round " + std::to_string(r + 1) +
                        ". Standings after round " + std::to_string(r) + ":",
                    table);
        return;
    }
    out_.say_at(t->channel,
                "Round " + std::to_string(r) + " of " + t->name + " is complete; round " +
                    std::to_string(r + 1) + " starts now. Standings after round " +
                    std::to_string(r) + ":",
                table);
    start_round(*t, r + 1);
}

void Tourneys::finish_tournament(TournamentRecord& t, Field& f) {
    t.status = TournamentStatus::Finished;
    ctx_.store.update_tournament(t);
    f.t = t;
    if (f.knockout()) {
        std::int64_t champion = 0;
        std::string table = bracket_table(ctx_.store, f, &champion);
        out_.say_at(
            t.channel,
            t.name + " is over: " + people_.mention(champion) + " wins. Final standings:", table);
        return;
    }
    const TournamentTable table = table_of(f);
    const auto& top = table.rows.front();
    const bool tied = table.rows.size() > 1 && table.rows[1].points == top.points;
    out_.say_at(t.channel,
                t.name + " is over: " + people_.mention(top.player_id) + " wins with " +
                    points(top.points) + (top.points == 1.0 ? " point" : " points") +
                    (tied ? " on tie-break" : "") + ". Final standings:",
                score_table(ctx_.store, f));
}

} // namespace ghostpost::bot
