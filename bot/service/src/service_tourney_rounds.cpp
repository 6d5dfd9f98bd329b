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

namespace {

// The games of a tournament played all at once, and how many of them are over.
struct Progress {
    int games = 0;
    int over = 0;
};

Progress progress_of(const Field& f) {
    Progress out;
    for (const auto& b : f.boards)
        if (!b.bye()) {
            ++out.games;
            out.over += b.over() ? 1 : 0;
        }
    return out;
}

} // namespace

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
        if (t->status == TournamentStatus::Open)
            run.out.say(tr("{tournament} has not started: {player} or a moderator starts it with "
                           "{command}.",
                           {{"tournament", t->name},
                            {"player", run.people.mention(t->creator)},
                            {"command", run.ctx.settings.prefix + "tourney start " + t->name}}));
        else
            run.out.say(tr("{tournament} is over.", {{"tournament", t->name}}) + verbatim(" ") +
                        tr("{command} shows the final table.",
                           {{"command", run.out.form("tourney standings")}}));
        return;
    }
    Field f = load_field(run.ctx.store, *t);
    if (f.all_at_once()) {
        const Progress done = progress_of(f);
        run.out.say(tr("Every game of {tournament} started at once: there is no round to start. "
                       "{finished} of {count, plural, one {# game} other {# games}} finished.",
                       {{"tournament", t->name},
                        {"finished", std::to_string(done.over)},
                        {"count", done.games}}));
        return;
    }
    const bool entrant =
        std::find(f.players.begin(), f.players.end(), run.ctx.author.id) != f.players.end();
    if (!entrant && t->creator != run.ctx.author.id && !run.people.moderator()) {
        run.out.say(tr("Only the players of {tournament}, {creator} who created it, or a "
                       "moderator can start its next round.",
                       {{"tournament", t->name}, {"creator", run.people.mention(t->creator)}}));
        return;
    }
    if (!f.round_over(t->current_round)) {
        std::vector<std::string> open;
        for (const Board* b : f.round(t->current_round))
            if (!b->over())
                open.push_back("#" + std::to_string(*b->pairing.game_id));
        Text said = tr("Round {round} of {tournament} is not over: {count, plural, one {game "
                       "{games} is} other {games {games} are}} under way.",
                       {{"round", std::to_string(t->current_round)},
                        {"tournament", t->name},
                        {"count", open.size()},
                        {"games", join(open, ", ")}});
        if (t->next_round == "auto")
            said += verbatim(" ") + tr("The next round starts by itself when {count, plural, one "
                                       "{it ends} other {they end}}.",
                                       {{"count", open.size()}});
        run.out.say(said);
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
        run.out.say(
            tr("{tournament} has no pairings yet: it has not started.", {{"tournament", t->name}}));
        return;
    }
    const int r = round.value_or(t->current_round);
    if (r < 1 || r > t->current_round) {
        const std::vector<i18n::Arg> said{
            {"tournament", t->name}, {"count", t->rounds}, {"round", std::to_string(r)}};
        run.out.say((r >= 1 && r <= t->rounds
                         ? tr("{tournament} has {count, plural, one {# round} other {# rounds}}: "
                              "round {round} has not started yet.",
                              said)
                         : tr("{tournament} has {count, plural, one {# round} other {# rounds}}: "
                              "there is no round {round}.",
                              said)) +
                    verbatim(" ") +
                    tr("{command} shows the current one.",
                       {{"command", run.out.form("tourney pairings")}}));
        return;
    }
    Field f = load_field(run.ctx.store, *t);
    // The table is written in the language of the reply it comes with.
    const std::string language = run.out.author_language();
    const auto written = [&](const Text& text) { return Replies::written(text, language); };
    std::vector<std::string> whites, blacks, results;
    std::size_t wide = 0, wide_black = 0;
    for (const Board* b : f.round(r)) {
        whites.push_back(name_of(run.ctx.store, b->pairing.white));
        if (b->bye()) {
            blacks.push_back(written(tr("bye")));
            results.emplace_back();
        } else {
            blacks.push_back(name_of(run.ctx.store, *b->pairing.black));
            const auto& g = *b->game;
            results.push_back("#" + std::to_string(g.id) + " " +
                              (g.status == GameStatus::Finished  ? g.result
                               : g.status == GameStatus::Ongoing ? written(tr("under way"))
                                                                 : written(tr("aborted"))));
        }
        wide = std::max(wide, whites.back().size());
        wide_black = std::max(wide_black, blacks.back().size());
    }
    for (const auto& b : f.byes) {
        if (b.round != r)
            continue;
        whites.push_back(name_of(run.ctx.store, b.player_id));
        blacks.push_back(written(tr("half-point bye")));
        results.emplace_back();
        wide = std::max(wide, whites.back().size());
    }
    std::string table;
    for (std::size_t i = 0; i < whites.size(); ++i)
        table += pad(whites[i], wide) + " - " +
                 (results[i].empty() ? blacks[i] + "\n"
                                     : pad(blacks[i], wide_black) + "  " + results[i] + "\n");
    const std::vector<i18n::Arg> said{{"tournament", t->name},
                                      {"round", std::to_string(r)},
                                      {"rounds", std::to_string(t->rounds)}};
    run.out.say(f.round_over(r)
                    ? tr("{tournament}, round {round} of {rounds}, White first, complete:", said)
                    : tr("{tournament}, round {round} of {rounds}, White first, under way:", said),
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
        run.out.say(tr("{tournament} has not started; {count, plural, one {# player has} other "
                       "{# players have}} entered.",
                       {{"tournament", t->name}, {"count", f.players.size()}}) +
                    verbatim(" ") +
                    tr("{player} or a moderator starts it with {command}.",
                       {{"player", run.people.mention(t->creator)},
                        {"command", run.ctx.settings.prefix + "tourney start " + t->name}}));
        return;
    }
    const bool over = t->status == TournamentStatus::Finished;
    Text when;
    if (over) {
        // TRANSLATORS: standings as they stand when the tournament is over.
        when = tr("final");
    } else if (f.all_at_once()) {
        const Progress done = progress_of(f);
        when = tr("{finished} of {count, plural, one {# game} other {# games}} finished",
                  {{"finished", std::to_string(done.over)}, {"count", done.games}});
    } else {
        const std::vector<i18n::Arg> round{{"round", std::to_string(t->current_round)}};
        when = f.round_over(t->current_round) ? tr("after round {round}", round)
                                              : tr("during round {round}", round);
    }
    if (f.knockout()) {
        std::int64_t champion = 0;
        bracket_table(run.ctx.store, f, &champion, "en");
        const BoardOut table = table_block(run.ctx.store, f);
        run.out.say(champion ? tr("Standings of {tournament} (knockout, {when}): {player} wins.",
                                  {{"tournament", t->name},
                                   {"when", when},
                                   {"player", run.people.mention(champion)}})
                             : tr("Standings of {tournament} (knockout, {when}):",
                                  {{"tournament", t->name}, {"when", when}}),
                    table);
        return;
    }
    run.out.say(tr("Standings of {tournament} ({format}, {when}; tie-breaks: {tiebreaks}):",
                   {{"tournament", t->name},
                    {"format", format_title(t->format)},
                    {"when", when},
                    {"tiebreaks", tie_break_sentence(table_of(f))}}),
                table_block(run.ctx.store, f));
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
    const BoardOut table = table_block(ctx_.store, f);
    const std::string round = std::to_string(r), next = std::to_string(r + 1);
    const Text standings = tr("Standings after round {round}:", {{"round", round}});
    if (t->next_round == "manual") {
        out_.say_at(t->channel,
                    tr("Round {round} of {tournament} is complete.",
                       {{"round", round}, {"tournament", t->name}}) +
                        verbatim(" ") +
                        tr("Its players, {creator} who created it, or a moderator: {command} "
                           "starts round {round}.",
                           {{"creator", people_.mention(t->creator)},
                            {"command", ctx_.settings.prefix + "tourney next " + t->name},
                            {"round", next}}) +
                        verbatim(" ") + standings,
                    table);
        return;
    }
    out_.say_at(t->channel,
                tr("Round {round} of {tournament} is complete; round {next} starts now.",
                   {{"round", round}, {"tournament", t->name}, {"next", next}}) +
                    verbatim(" ") + standings,
                table);
    start_round(*t, r + 1);
}

void Tourneys::finish_tournament(TournamentRecord& t, Field& f) {
    t.status = TournamentStatus::Finished;
    ctx_.store.update_tournament(t);
    f.t = t;
    if (f.knockout()) {
        std::int64_t champion = 0;
        bracket_table(ctx_.store, f, &champion, "en");
        const BoardOut table = table_block(ctx_.store, f);
        out_.say_at(t.channel,
                    tr("{tournament} is over: {player} wins.",
                       {{"tournament", t.name}, {"player", people_.mention(champion)}}) +
                        verbatim(" ") + tr("Final standings:"),
                    table);
        return;
    }
    const TournamentTable table = table_of(f);
    const auto& top = table.rows.front();
    const bool tied = table.rows.size() > 1 && table.rows[1].points == top.points;
    // A whole score is counted; a half one ("2.5") is written as it is.
    const double whole = std::floor(top.points);
    const Text score = whole == top.points
                           ? tr("{count, plural, one {# point} other {# points}}",
                                {{"count", static_cast<std::int64_t>(whole)}})
                           // TRANSLATORS: a score with a fraction, as "2.5 points".
                           : tr("{points} points", {{"points", points(top.points)}});
    const std::vector<i18n::Arg> said{
        {"tournament", t.name}, {"player", people_.mention(top.player_id)}, {"score", score}};
    out_.say_at(t.channel,
                (tied ? tr("{tournament} is over: {player} wins with {score} on tie-break.", said)
                      : tr("{tournament} is over: {player} wins with {score}.", said)) +
                    verbatim(" ") + tr("Final standings:"),
                table_block(ctx_.store, f));
}

} // namespace ghostpost::bot
