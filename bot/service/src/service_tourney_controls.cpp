// What organisers of a Swiss ask for, and lichess's users ask for each: a player withdraws (or a
// moderator withdraws them), a late entry before a round, a half-point bye asked for in advance,
// two players kept apart. docs/tournaments.md says how each counts in the pairings and the table.
#include "post_run.h"
#include "tourney_field.h"

#include <cctype>

namespace ghostpost::bot {

using namespace detail;
using namespace tourney;
using storage::ByeRequest;
using storage::EntrantRecord;
using storage::TournamentRecord;
using storage::TournamentStatus;

namespace {

std::optional<EntrantRecord> entrant_of(storage::Store& store, std::int64_t tournament,
                                        std::int64_t player) {
    for (const auto& e : store.entrants(tournament))
        if (e.player_id == player)
            return e;
    return std::nullopt;
}

// Why a tournament of `format` (not a Swiss) has no such thing as what follows: its games, or
// its rounds, are fixed when it starts.
Text fixed_when_started(const std::string& format, const std::string& tournament) {
    const std::vector<i18n::Arg> args{{"tournament", tournament}};
    if (format == "roundrobin")
        return tr("A round robin's games are fixed when it starts, so nobody is withdrawn from "
                  "{tournament}: a player who stops resigns each game as it comes.",
                  args);
    if (format == "double")
        return tr("A double round robin's games are fixed when it starts, so nobody is withdrawn "
                  "from {tournament}: a player who stops resigns each game as it comes.",
                  args);
    return tr("A knockout's games are fixed when it starts, so nobody is withdrawn from "
              "{tournament}: a player who stops resigns each game as it comes.",
              args);
}

Text no_half_point_byes(const std::string& format) {
    if (format == "roundrobin")
        return tr("Only a Swiss has half-point byes: a round robin's rounds are fixed when it "
                  "starts.");
    if (format == "double")
        return tr("Only a Swiss has half-point byes: a double round robin's rounds are fixed when "
                  "it starts.");
    return tr("Only a Swiss has half-point byes: a knockout's rounds are fixed when it starts.");
}

Text no_keeping_apart(const std::string& format) {
    if (format == "roundrobin")
        return tr("Only a Swiss pairs by the table: a round robin pairs everyone as its schedule "
                  "says.");
    if (format == "double")
        return tr("Only a Swiss pairs by the table: a double round robin pairs everyone as its "
                  "schedule says.");
    return tr("Only a Swiss pairs by the table: a knockout pairs everyone as its schedule says.");
}

} // namespace

std::optional<ControlTarget> Tourneys::control_target(const std::vector<std::string>& args,
                                                      const std::string& command,
                                                      std::size_t mentions) {
    // [name] then the mentions; a name begins with a letter, a mention never does.
    ControlTarget c;
    std::vector<std::string> rest = args;
    while (!rest.empty() && c.players.size() < mentions && people_.named(rest.back())) {
        auto p = people_.known_player(rest.back());
        if (!p)
            return std::nullopt;
        c.players.insert(c.players.begin(), *p);
        rest.pop_back();
    }
    if (rest.size() > 1) {
        out_.usage_error(command,
                         tr("I did not understand \"{text}\".", {{"text", shorten(rest[1])}}));
        return std::nullopt;
    }
    if (!rest.empty() && !std::isalpha(static_cast<unsigned char>(rest[0][0])) &&
        !rest[0].starts_with('#')) {
        out_.usage_error(command,
                         tr("I did not understand \"{text}\".", {{"text", shorten(rest[0])}}));
        return std::nullopt;
    }
    auto t = pick_tournament(rest, 0);
    if (!t)
        return std::nullopt;
    c.t = *t;
    return c;
}

bool Tourneys::organiser_of(const TournamentRecord& t) const {
    return t.creator == ctx_.author.id || people_.moderator();
}

void tourney_withdraw(PostParts& run, const std::vector<std::string>& args) {
    auto c = run.tourneys.control_target(args, "tourney withdraw", 1);
    if (!c)
        return;
    TournamentRecord& t = c->t;
    const PlayerRecord who = c->players.empty() ? run.ctx.author : c->players.front();
    const bool self = who.id == run.ctx.author.id;
    if (!self && !run.tourneys.organiser_of(t)) {
        run.out.say(tr("Only {creator}, who created {tournament}, or a moderator can withdraw "
                       "another player.",
                       {{"creator", run.people.mention(t.creator)}, {"tournament", t.name}}));
        return;
    }
    auto e = entrant_of(run.ctx.store, t.id, who.id);
    if (!e) {
        run.out.say(self ? tr("You are not in {tournament}.", {{"tournament", t.name}})
                         : tr("{player} is not in {tournament}.",
                              {{"player", run.out.at(who)}, {"tournament", t.name}}));
        return;
    }
    if (t.status == TournamentStatus::Finished) {
        run.out.say(
            tr("{tournament} is over: its table stands as played.", {{"tournament", t.name}}));
        return;
    }
    if (t.status == TournamentStatus::Open) {
        run.ctx.store.remove_entrant(t.id, who.id);
        if (!self)
            mod_log(run.ctx, "tourney withdraw " + t.name + " " + run.out.at(who));
        run.out.say(tr("{player} is no longer in {tournament}; it has not started.",
                       {{"player", run.out.at(who)}, {"tournament", t.name}}));
        return;
    }
    if (t.format != "swiss") {
        run.out.say(fixed_when_started(t.format, t.name));
        return;
    }
    if (e->withdrawn_round) {
        run.out.say(tr("{player} withdrew from {tournament} already, from round {round} on.",
                       {{"player", run.out.at(who)},
                        {"tournament", t.name},
                        {"round", std::to_string(*e->withdrawn_round)}}));
        return;
    }
    Field f = load_field(run.ctx.store, t);
    // The round under way stays as paired; the next one is the first without them.
    const int from = t.current_round + 1;
    e->withdrawn_round = from;
    run.ctx.store.update_entrant(t.id, *e);
    for (const auto& b : f.byes)
        if (b.player_id == who.id && b.round >= from)
            run.ctx.store.withdraw_bye(t.id, b);
    Text open;
    for (const Board* b : f.round(t.current_round))
        if (!b->over() && (b->pairing.white == who.id || b->pairing.black == who.id))
            open = verbatim(" ") +
                   tr("Game #{game} of round {round} is still to be played or resigned.",
                      {{"game", std::to_string(*b->pairing.game_id)},
                       {"round", std::to_string(t.current_round)}});
    if (!self)
        mod_log(run.ctx, "tourney withdraw " + t.name + " " + run.out.at(who));
    const std::string name = run.out.at(who);
    run.out.say(
        (from > t.rounds
             ? tr("{player} withdraws from {tournament}: the last round is "
                  "under way, so nothing changes but the table.",
                  {{"player", name}, {"tournament", t.name}})
             : tr("{player} withdraws from {tournament}: not paired from "
                  "round {round} on; the games played count.",
                  {{"player", name}, {"tournament", t.name}, {"round", std::to_string(from)}})) +
        open);
}

void Tourneys::tourney_late_entry(TournamentRecord& t) {
    if (t.format != "swiss") {
        out_.say(tr("{tournament} has started: entries are closed. Only a Swiss takes late "
                    "entries, since its rounds are paired one at a time.",
                    {{"tournament", t.name}}));
        return;
    }
    auto e = entrant_of(ctx_.store, t.id, ctx_.author.id);
    if (e) {
        out_.say(e->withdrawn_round
                     ? tr("You withdrew from {tournament}; a withdrawal is final.",
                          {{"tournament", t.name}})
                     : tr("You are in {tournament} already.", {{"tournament", t.name}}));
        return;
    }
    const int first = t.current_round + 1;
    if (first > t.rounds) {
        out_.say(
            tr("{tournament} is in its last round: entries are closed.", {{"tournament", t.name}}));
        return;
    }
    ctx_.store.add_entrant(t.id, ctx_.author.id, ctx_.now);
    EntrantRecord late = entrant_of(ctx_.store, t.id, ctx_.author.id).value();
    late.first_round = first;
    ctx_.store.update_entrant(t.id, late);
    out_.say(tr("{player} joins {tournament} late, as seed {seed}: paired from round {round} of "
                "{rounds}, with no points for the {missed, plural, =1 {round} other {# rounds}} "
                "missed.",
                {{"player", out_.at(ctx_.author)},
                 {"tournament", t.name},
                 {"seed", std::to_string(late.seed + 1)},
                 {"round", std::to_string(first)},
                 {"rounds", std::to_string(t.rounds)},
                 {"missed", first - 1}}));
}

namespace {

// The bye of `who` in round `r` of `t` asked for, or with `cancel` withdrawn; `self`: asked by
// `who` themselves (else by an organiser, and logged).
void answer_bye(PostParts& run, const TournamentRecord& t, const PlayerRecord& who, bool self,
                int r, bool cancel) {
    const ByeRequest request{who.id, r};
    const auto byes = run.ctx.store.byes(t.id);
    const bool asked = std::find(byes.begin(), byes.end(), request) != byes.end();
    const std::vector<i18n::Arg> args{
        {"player", run.out.at(who)}, {"round", std::to_string(r)}, {"tournament", t.name}};
    if (cancel != asked) {
        run.out.say(
            asked ? tr("{player} sits out round {round} of {tournament} already.", args)
                  : tr("{player} has no bye in round {round} of {tournament} to cancel.", args));
        return;
    }
    if (cancel)
        run.ctx.store.withdraw_bye(t.id, request);
    else
        run.ctx.store.request_bye(t.id, request);
    if (!self)
        mod_log(run.ctx, "tourney bye " + t.name + " " + std::to_string(r) +
                             (cancel ? " cancel " : " ") + run.out.at(who));
    run.out.say(cancel ? tr("{player} plays round {round} of {tournament} after all.", args)
                       : tr("{player} sits out round {round} of {tournament} for half a point "
                            "({command} undoes it).",
                            {{"player", run.out.at(who)},
                             {"round", std::to_string(r)},
                             {"tournament", t.name},
                             {"command", run.ctx.settings.prefix + "tourney bye " + t.name + " " +
                                             std::to_string(r) + " cancel"}}));
}

} // namespace

void tourney_bye(PostParts& run, const std::vector<std::string>& args) {
    // [name] <round> [cancel] [@player]
    std::vector<std::string> rest = args;
    bool cancel = false;
    std::optional<PlayerRecord> other;
    if (!rest.empty() && run.people.named(rest.back())) {
        other = run.people.known_player(rest.back());
        if (!other)
            return;
        rest.pop_back();
    }
    if (!rest.empty() && lower(rest.back()) == "cancel") {
        cancel = true;
        rest.pop_back();
    }
    std::optional<std::int64_t> round;
    if (!rest.empty() && (round = game_id_arg(rest.back())) && rest.back()[0] != '#')
        rest.pop_back();
    else
        round.reset();
    if (!round || rest.size() > 1) {
        run.out.usage_error("tourney bye", tr("Say the round to sit out, as in {form}.",
                                              {{"form", run.out.form("tourney bye")}}));
        return;
    }
    auto t = run.tourneys.pick_tournament(rest, 0);
    if (!t)
        return;
    const PlayerRecord who = other ? *other : run.ctx.author;
    const bool self = who.id == run.ctx.author.id;
    if (!self && !run.tourneys.organiser_of(*t)) {
        run.out.say(tr("Only {creator}, who created {tournament}, or a moderator can ask a bye for "
                       "another player.",
                       {{"creator", run.people.mention(t->creator)}, {"tournament", t->name}}));
        return;
    }
    if (t->format != "swiss") {
        run.out.say(no_half_point_byes(t->format));
        return;
    }
    if (t->status == TournamentStatus::Finished) {
        run.out.say(tr("{tournament} is over.", {{"tournament", t->name}}));
        return;
    }
    auto e = entrant_of(run.ctx.store, t->id, who.id);
    if (!e || e->withdrawn_round) {
        if (!self)
            run.out.say(tr("{player} is not playing in {tournament}.",
                           {{"player", run.out.at(who)}, {"tournament", t->name}}));
        else if (!e)
            run.out.say(tr("You are not playing in {tournament}: {command} first.",
                           {{"tournament", t->name}, {"command", run.out.form("tourney join")}}));
        else
            run.out.say(tr("You are not playing in {tournament}.", {{"tournament", t->name}}));
        return;
    }
    const int r = static_cast<int>(*round);
    const int last = t->rounds ? t->rounds : max_swiss_rounds;
    if (r <= t->current_round || r > last || r < e->first_round) {
        const bool late = r < e->first_round && r <= last;
        const std::vector<i18n::Arg> said{
            {"tournament", t->name}, {"round", std::to_string(r)}, {"count", t->rounds}};
        if (r <= t->current_round)
            run.out.say(tr("Round {round} of {tournament} is paired already: a bye is asked for "
                           "before its round.",
                           {{"round", std::to_string(r)}, {"tournament", t->name}}));
        else if (t->rounds && late)
            run.out.say(tr("{tournament} has {count, plural, one {# round} other {# rounds}}: "
                           "there is no round {round} to sit out for a late entrant.",
                           said));
        else if (t->rounds)
            run.out.say(tr("{tournament} has {count, plural, one {# round} other {# rounds}}: "
                           "there is no round {round} to sit out.",
                           said));
        else if (late)
            run.out.say(tr("{tournament} has no such round: there is no round {round} to sit out "
                           "for a late entrant.",
                           {{"tournament", t->name}, {"round", std::to_string(r)}}));
        else
            run.out.say(tr("{tournament} has no such round: there is no round {round} to sit out.",
                           {{"tournament", t->name}, {"round", std::to_string(r)}}));
        return;
    }
    answer_bye(run, *t, who, self, r, cancel);
}

void tourney_keep_apart(PostParts& run, const std::vector<std::string>& args, bool apart) {
    const std::string command = apart ? "tourney forbid" : "tourney allow";
    auto c = run.tourneys.control_target(args, command, 2);
    if (!c)
        return;
    if (c->players.size() != 2) {
        run.out.usage_error(command, tr("Name the two players."));
        return;
    }
    const TournamentRecord& t = c->t;
    const PlayerRecord &a = c->players[0], &b = c->players[1];
    if (!run.tourneys.organiser_of(t)) {
        run.out.say(tr("Only {creator}, who created {tournament}, or a moderator can keep players "
                       "apart.",
                       {{"creator", run.people.mention(t.creator)}, {"tournament", t.name}}));
        return;
    }
    if (t.format != "swiss") {
        run.out.say(no_keeping_apart(t.format));
        return;
    }
    if (t.status == TournamentStatus::Finished) {
        run.out.say(tr("{tournament} is over.", {{"tournament", t.name}}));
        return;
    }
    if (a.id == b.id) {
        run.out.say(tr("That is one player twice."));
        return;
    }
    for (const PlayerRecord& p : {a, b})
        if (!entrant_of(run.ctx.store, t.id, p.id)) {
            run.out.say(tr("{player} is not in {tournament}.",
                           {{"player", run.out.at(p)}, {"tournament", t.name}}));
            return;
        }
    if (apart)
        run.ctx.store.forbid_pairing(t.id, a.id, b.id);
    else
        run.ctx.store.allow_pairing(t.id, a.id, b.id);
    if (t.creator != run.ctx.author.id)
        mod_log(run.ctx, command + " " + t.name + " " + run.out.at(a) + " " + run.out.at(b));
    const std::vector<i18n::Arg> pair{
        {"tournament", t.name}, {"player", run.out.at(a)}, {"other", run.out.at(b)}};
    run.out.say(apart ? tr("{tournament}: {player} and {other} are never paired with each other "
                           "from the next round on.",
                           pair)
                      : tr("{tournament}: {player} and {other} may be paired with each other "
                           "again.",
                           pair));
}

void tourney_trf(PostParts& run, const std::vector<std::string>& args) {
    if (args.size() > 1) {
        run.out.usage_error("tourney trf",
                            tr("I did not understand \"{text}\".", {{"text", shorten(args[1])}}));
        return;
    }
    auto t = run.tourneys.pick_tournament(args, 0);
    if (!t)
        return;
    if (t->status == TournamentStatus::Open) {
        run.out.say(tr("{tournament} has not started: there is nothing to report yet.",
                       {{"tournament", t->name}}));
        return;
    }
    if (t->format == "knockout") {
        run.out.say(tr("A knockout has a bracket, not a table: {command} shows it.",
                       {{"command", run.out.form("tourney standings")}}));
        return;
    }
    run.out.say(tr("{tournament} as a FIDE Tournament Report File (TRF16; the web view has it as "
                   "a file):",
                   {{"tournament", t->name}}),
                tournament_trf(run.ctx.store, *t));
}

} // namespace ghostpost::bot
