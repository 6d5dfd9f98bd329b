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
        run.out.say("Only " + run.people.mention(t.creator) + ", who created " + t.name +
                    ", or a moderator can withdraw another player.");
        return;
    }
    auto e = entrant_of(run.ctx.store, t.id, who.id);
    if (!e) {
        run.out.say((self ? std::string("You are") : run.out.at(who) + " is") + " not in " +
                    t.name + ".");
        return;
    }
    if (t.status == TournamentStatus::Finished) {
        run.out.say(t.name + " is over: its table stands as played.");
        return;
    }
    if (t.status == TournamentStatus::Open) {
        run.ctx.store.remove_entrant(t.id, who.id);
        if (!self)
            mod_log(run.ctx, "tourney withdraw " + t.name + " " + run.out.at(who));
        run.out.say(run.out.at(who) + " is no longer in " + t.name + "; it has not started.");
        return;
    }
    if (t.format != "swiss") {
        run.out.say("A " + format_title(t.format) +
                    "'s games are fixed when it starts, so nobody is " + "withdrawn from " +
                    t.name + ": a player who stops resigns each game as it comes.");
        return;
    }
    if (e->withdrawn_round) {
        run.out.say(run.out.at(who) + " withdrew from " + t.name + " already, from round " +
                    std::to_string(*e->withdrawn_round) + " on.");
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
    std::string open;
    for (const Board* b : f.round(t.current_round))
        if (!b->over() && (b->pairing.white == who.id || b->pairing.black == who.id))
            open = " Game #" + std::to_string(*b->pairing.game_id) + " of round " +
                   std::to_string(t.current_round) + " is still to be played or resigned.";
    if (!self)
        mod_log(run.ctx, "tourney withdraw " + t.name + " " + run.out.at(who));
    run.out.say(
        run.out.at(who) + " withdraws from " + t.name +
        (from > t.rounds
             ? ": the last round is under way, so nothing changes but the table."
             : ": not paired from round " + std::to_string(from) + " on; the games played count.") +
        open);
}

void Tourneys::tourney_late_entry(TournamentRecord& t) {
    if (t.format != "swiss") {
        out_.say(t.name + " has started: entries are closed. Only a Swiss takes late entries, " +
                 "since its rounds are paired one at a time.");
        return;
    }
    auto e = entrant_of(ctx_.store, t.id, ctx_.author.id);
    if (e) {
        out_.say(e->withdrawn_round ? "You withdrew from " + t.name + "; a withdrawal is final."
                                    : "You are in " + t.name + " already.");
        return;
    }
    const int first = t.current_round + 1;
    if (first > t.rounds) {
        out_.say(t.name + " is in its last round: entries are closed.");
        return;
    }
    ctx_.store.add_entrant(t.id, ctx_.author.id, ctx_.now);
    EntrantRecord late = entrant_of(ctx_.store, t.id, ctx_.author.id).value();
    late.first_round = first;
    ctx_.store.update_entrant(t.id, late);
    out_.say(out_.at(ctx_.author) + " joins " + t.name + " late, as seed " +
             std::to_string(late.seed + 1) + ": paired from round " + std::to_string(first) +
             " of " + std::to_string(t.rounds) + ", with no points for the " +
             (first == 2 ? std::string("round") : plural(first - 1, "round", "rounds")) +
             " missed.");
}

namespace {

// The bye of `who` in round `r` of `t` asked for, or with `cancel` withdrawn; `self`: asked by
// `who` themselves (else by an organiser, and logged).
void answer_bye(PostParts& run, const TournamentRecord& t, const PlayerRecord& who, bool self,
                int r, bool cancel) {
    const ByeRequest request{who.id, r};
    const auto byes = run.ctx.store.byes(t.id);
    const bool asked = std::find(byes.begin(), byes.end(), request) != byes.end();
    if (cancel != asked) {
        run.out.say(run.out.at(who) +
                    (asked ? " sits out round " + std::to_string(r) + " of " + t.name + " already."
                           : " has no bye in round " + std::to_string(r) + " of " + t.name +
                                 " to cancel."));
        return;
    }
    if (cancel)
        run.ctx.store.withdraw_bye(t.id, request);
    else
        run.ctx.store.request_bye(t.id, request);
    if (!self)
        mod_log(run.ctx, "tourney bye " + t.name + " " + std::to_string(r) +
                             (cancel ? " cancel " : " ") + run.out.at(who));
    run.out.say(cancel
                    ? run.out.at(who) + " plays round " + std::to_string(r) + " of " + t.name +
                          " after all."
                    : run.out.at(who) + " sits out round " + std::to_string(r) + " of " + t.name +
                          " for half a point (" + run.ctx.settings.prefix + "tourney bye " +
                          t.name + " " + std::to_string(r) + " cancel undoes it).");
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
        run.out.usage_error("tourney bye",
                            "Say the round to sit out, as in " + run.out.form("tourney bye") + ".");
        return;
    }
    auto t = run.tourneys.pick_tournament(rest, 0);
    if (!t)
        return;
    const PlayerRecord who = other ? *other : run.ctx.author;
    const bool self = who.id == run.ctx.author.id;
    if (!self && !run.tourneys.organiser_of(*t)) {
        run.out.say("Only " + run.people.mention(t->creator) + ", who created " + t->name +
                    ", or a moderator can ask a bye for another player.");
        return;
    }
    if (t->format != "swiss") {
        run.out.say("Only a Swiss has half-point byes: a " + format_title(t->format) +
                    "'s rounds are fixed when it starts.");
        return;
    }
    if (t->status == TournamentStatus::Finished) {
        run.out.say(t->name + " is over.");
        return;
    }
    auto e = entrant_of(run.ctx.store, t->id, who.id);
    if (!e || e->withdrawn_round) {
        run.out.say((self ? std::string("You are") : run.out.at(who) + " is") + " not playing in " +
                    t->name + (self && !e ? ": " + run.out.form("tourney join") + " first." : "."));
        return;
    }
    const int r = static_cast<int>(*round);
    const int last = t->rounds ? t->rounds : max_swiss_rounds;
    if (r <= t->current_round || r > last || r < e->first_round) {
        run.out.say(r <= t->current_round
                        ? "Round " + std::to_string(r) + " of " + t->name +
                              " is paired already: a bye is asked for before its round."
                        : t->name + " has " +
                              (t->rounds ? plural(t->rounds, "round", "rounds")
                                         : std::string("no such round")) +
                              ": there is no round " + std::to_string(r) + " to sit out" +
                              (r < e->first_round && r <= last ? " for a late entrant." : "."));
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
        run.out.usage_error(command, "Name the two players.");
        return;
    }
    const TournamentRecord& t = c->t;
    const PlayerRecord &a = c->players[0], &b = c->players[1];
    if (!run.tourneys.organiser_of(t)) {
        run.out.say("Only " + run.people.mention(t.creator) + ", who created " + t.name +
                    ", or a moderator can keep players apart.");
        return;
    }
    if (t.format != "swiss") {
        run.out.say("Only a Swiss pairs by the table: a " + format_title(t.format) +
                    " pairs everyone as its schedule says.");
        return;
    }
    if (t.status == TournamentStatus::Finished) {
        run.out.say(t.name + " is over.");
        return;
    }
    if (a.id == b.id) {
        run.out.say("That is one player twice.");
        return;
    }
    for (const PlayerRecord& p : {a, b})
        if (!entrant_of(run.ctx.store, t.id, p.id)) {
            run.out.say(run.out.at(p) + " is not in " + t.name + ".");
            return;
        }
    if (apart)
        run.ctx.store.forbid_pairing(t.id, a.id, b.id);
    else
        run.ctx.store.allow_pairing(t.id, a.id, b.id);
    if (t.creator != run.ctx.author.id)
        mod_log(run.ctx, command + " " + t.name + " " + run.out.at(a) + " " + run.out.at(b));
    run.out.say(t.name + ": " + run.out.at(a) + " and " + run.out.at(b) +
                (apart ? " are never paired with each other from the next round on."
                       : " may be paired with each other again."));
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
        run.out.say(t->name + " has not started: there is nothing to report yet.");
        return;
    }
    if (t->format == "knockout") {
        run.out.say("A knockout has a bracket, not a table: " + run.out.form("tourney standings") +
                    " shows it.");
        return;
    }
    run.out.say(t->name +
                    " as a FIDE Tournament Report File (TRF16; the web view has it as a file):",
                tournament_trf(run.ctx.store, *t));
}

} // namespace ghostpost::bot
