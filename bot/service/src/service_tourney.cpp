// Tournaments run from a channel (Tourneys, tourneys.h): !tourney create, join, leave, start,
// pairings, standings, next. The pairing systems are pure functions (pairing.h) over seed indices;
// here they meet the store. A tournament's state is its pairings and their games: scores, colours,
// who went through a knockout are always derived from the games, never kept twice.
// docs/tournaments.md describes the formats, the seeding and the tie-breaks.
#include "ghostpost/league/clock.h"
#include "ghostpost/league/pairing.h"
#include "ghostpost/rules/registry.h"
#include "post_run.h"
#include "tourney_field.h"

#include <cctype>
#include <cmath>
#include <cstdio>

namespace ghostpost::bot {

using namespace detail;
using storage::EntrantRecord;
using storage::PairingRecord;
using storage::TournamentRecord;
using storage::TournamentStatus;
using namespace tourney;

namespace {

// The Swiss initial colour (C.04.3 5.1), drawn by lot: a hash of what makes the tournament
// itself, so the draw is the same whenever it is made and nobody can choose it.
std::string drawn_colour(const TournamentRecord& t) {
    std::uint64_t h = 1469598103934665603ULL; // FNV-1a
    for (char c : t.platform + "\n" + lower(t.name) + "\n" + std::to_string(t.id) + "\n" +
                      std::to_string(t.created_at)) {
        h ^= static_cast<unsigned char>(c);
        h *= 1099511628211ULL;
    }
    return (h >> 32) % 2 == 0 ? "white" : "black";
}

} // namespace

void cmd_tourney(PostParts& run, const std::vector<std::string>& args) {
    if (args.empty()) {
        auto here =
            run.ctx.post.direct
                ? std::vector<TournamentRecord>{}
                : run.ctx.store.tournaments_in_channel(run.ctx.post.platform, run.ctx.post.channel);
        if (here.empty()) {
            run.out.usage_error("tourney", "No tournament is run from here.");
            return;
        }
        std::vector<std::string> lines;
        for (const auto& t : here) {
            const rules::Variant* v = rules::find_variant(t.variant);
            std::string state =
                t.status == TournamentStatus::Open       ? "open for entries"
                : t.status == TournamentStatus::Finished ? "finished"
                : t.schedule == "allatonce"
                    ? "every game at once, " + games_finished(load_field(run.ctx.store, t))
                    : "round " + std::to_string(t.current_round) + " of " +
                          std::to_string(t.rounds);
            lines.push_back(t.name + " (#" + std::to_string(t.id) +
                            "): " + (v ? v->info().title : t.variant) + ", " +
                            format_title(t.format) + ", " + state);
        }
        run.out.say("Tournaments run from here (" + run.out.form("tourney standings") +
                        " for one):",
                    join(lines, "\n") + "\n");
        return;
    }
    const std::string sub = lower(args[0]);
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (sub == "create")
        tourney_create(run, rest);
    else if (sub == "join" || sub == "leave")
        tourney_entry(run, rest, sub == "join");
    else if (sub == "start")
        tourney_start(run, rest);
    else if (sub == "next")
        tourney_next(run, rest);
    else if (sub == "pairings")
        tourney_pairings(run, rest);
    else if (sub == "standings")
        tourney_standings(run, rest);
    else if (sub == "withdraw")
        tourney_withdraw(run, rest);
    else if (sub == "bye")
        tourney_bye(run, rest);
    else if (sub == "forbid" || sub == "allow")
        tourney_keep_apart(run, rest, sub == "forbid");
    else if (sub == "trf")
        tourney_trf(run, rest);
    else
        run.out.say(
            "There is no " + run.ctx.settings.prefix + "tourney " + shorten(args[0], 20) +
            ". Say one of create, join, leave, start, pairings, standings, next, withdraw, bye, "
            "forbid, allow, trf; " +
            run.ctx.settings.prefix + "help tourney for more.");
}

std::optional<TournamentRecord> Tourneys::pick_tournament(const std::vector<std::string>& args,
                                                          std::size_t at) {
    // "#3": by number, as the web view's address names it.
    if (at < args.size() && args[at].starts_with('#')) {
        auto id = game_id_arg(args[at]);
        auto t = id ? ctx_.store.tournament(*id) : std::nullopt;
        if (!t || t->platform != ctx_.post.platform) {
            out_.say("There is no tournament " + shorten(args[at], 20) + ".");
            return std::nullopt;
        }
        return t;
    }
    if (at < args.size() && std::isalpha(static_cast<unsigned char>(args[at][0]))) {
        auto t = ctx_.store.tournament_by_name(ctx_.post.platform, args[at]);
        if (!t)
            out_.say("There is no tournament \"" + shorten(args[at], 32) + "\".");
        return t;
    }
    std::vector<TournamentRecord> live, all;
    if (!ctx_.post.direct)
        all = ctx_.store.tournaments_in_channel(ctx_.post.platform, ctx_.post.channel);
    for (const auto& t : all)
        if (t.status != TournamentStatus::Finished)
            live.push_back(t);
    if (live.size() == 1)
        return live.front();
    if (live.size() > 1) {
        std::vector<std::string> names;
        for (const auto& t : live)
            names.push_back(t.name);
        out_.say("Several tournaments run here (" + join(names, ", ") + "): say which.");
        return std::nullopt;
    }
    if (!all.empty())
        return all.back();
    out_.say("Name the tournament: none runs from " +
             std::string(ctx_.post.direct ? "a direct chat" : "here") + ".");
    return std::nullopt;
}

namespace {

// The options of "!tourney create" after its format (rounds=, schedule=, next=, tc=) onto `t`;
// false, after replying, when one does not read or does not fit the format.
bool read_tourney_options(PostParts& run, const std::vector<std::string>& args,
                          const std::string& format, TournamentRecord& t) {
    for (std::size_t i = 3; i < args.size(); ++i) {
        const std::string& a = args[i];
        const auto eq = a.find('=');
        const std::string key = lower(a.substr(0, eq));
        const std::string value = eq == std::string::npos ? std::string() : a.substr(eq + 1);
        if (key == "rounds" && eq != std::string::npos) {
            auto n = game_id_arg(value);
            if (format != "swiss") {
                run.out.say(
                    "rounds= is for a Swiss only: a round robin has a round for every opponent, "
                    "a knockout as many as it takes to leave one player. Nothing was created.");
                return false;
            }
            if (!n || value[0] == '#' || *n < 1 || *n > max_swiss_rounds) {
                run.out.usage_error("tourney", "rounds= takes a number from 1 to " +
                                                   std::to_string(max_swiss_rounds) + ".");
                return false;
            }
            t.rounds = static_cast<int>(*n);
        } else if (key == "schedule" && eq != std::string::npos) {
            const std::string v = lower(value);
            if (v != "rounds" && v != "allatonce") {
                run.out.usage_error("tourney",
                                    "schedule= takes rounds (one round after another) or "
                                    "allatonce (every game of a round robin at once).");
                return false;
            }
            if (v == "allatonce" && format != "roundrobin" && format != "double") {
                run.out.say(
                    "schedule=allatonce is for round robins: a Swiss or a knockout pairs each "
                    "round from the results before it. Nothing was created.");
                return false;
            }
            t.schedule = v;
        } else if (key == "next" && eq != std::string::npos) {
            const std::string v = lower(value);
            if (v != "auto" && v != "manual") {
                run.out.usage_error("tourney",
                                    "next= takes auto (a round starts when the last game of "
                                    "the one before ends) or manual (it waits for " +
                                        run.out.form("tourney next") + ").");
                return false;
            }
            t.next_round = v;
        } else if (key == "tc" && eq != std::string::npos) {
            auto tc = parse_time_control(value);
            if (!tc.value) {
                run.out.say("Not created: " + sentence_end(tc.error));
                return false;
            }
            t.tc = tc.value->text();
        } else {
            run.out.usage_error("tourney",
                                tr("I did not understand \"{text}\".", {{"text", shorten(a)}}));
            return false;
        }
    }
    return true;
}

// How a new tournament is described: "Chess, Swiss, 5 rounds, time control 3d, ...".
std::string tourney_details(PostParts& run, const TournamentRecord& t,
                            const rules::VariantInfo& info) {
    const std::string& format = t.format;
    const std::string& name = t.name;
    std::string details = info.title + ", " + format_title(format);
    if (format == "swiss")
        details += t.rounds ? ", " + plural(t.rounds, "round", "rounds") : ", rounds by the field";
    details += ", time control " + (t.tc.empty() ? run.ctx.settings.default_time_control : t.tc);
    details += t.schedule == "allatonce" ? ", every game at once"
               : t.next_round == "manual"
                   ? ", each round started with " + run.ctx.settings.prefix + "tourney next " + name
                   : ", each round starting when the one before ends";
    return details;
}

} // namespace

void tourney_create(PostParts& run, const std::vector<std::string>& args) {
    if (run.ctx.post.direct) {
        run.out.say("Create tournaments in a channel: its games are played there.");
        return;
    }
    if (args.size() < 3) {
        run.out.usage_error("tourney", "Say the name, the variant and the format.");
        return;
    }
    const std::string& name = args[0];
    if (!valid_name(name)) {
        run.out.usage_error("tourney", "\"" + shorten(name, 40) +
                                           "\" cannot be a tournament name: up to " +
                                           std::to_string(max_name) +
                                           " letters, digits, - and _, starting with a letter.");
        return;
    }
    if (auto existing = run.ctx.store.tournament_by_name(run.ctx.post.platform, name)) {
        run.out.say("There is a tournament named " + existing->name +
                    " already. Choose another name.");
        return;
    }
    const rules::Variant* variant = rules::find_variant(lower(args[1]));
    if (variant == nullptr) {
        std::vector<std::string> names;
        for (const auto* v : rules::variants())
            names.push_back(v->info().name);
        run.out.say("There is no variant \"" + shorten(args[1], 20) +
                    "\". Variants: " + join(names, ", ") + ".");
        return;
    }
    const std::string format = lower(args[2]);
    if (!known_format(format)) {
        run.out.usage_error("tourney", "There is no format \"" + shorten(args[2], 20) +
                                           "\": roundrobin, double, swiss or knockout.");
        return;
    }
    TournamentRecord t;
    if (!read_tourney_options(run, args, format, t))
        return;
    const auto& info = variant->info();
    t.platform = run.ctx.post.platform;
    t.channel = run.ctx.post.channel;
    t.name = name;
    t.variant = info.name;
    t.format = format;
    t.status = TournamentStatus::Open;
    t.creator = run.ctx.author.id;
    t.created_at = run.ctx.now;
    if (t.schedule == "allatonce" && t.next_round == "manual") {
        run.out.say("next=manual is for tournaments played round by round: with schedule=allatonce "
                    "every game starts together. Nothing was created.");
        return;
    }
    t.id = run.ctx.store.create_tournament(t);
    const std::string details = tourney_details(run, t, info);
    run.out.say(run.out.at(run.ctx.author) + " opens the tournament " + name + ": " + details +
                ". Everyone: " + run.ctx.settings.prefix + "tourney join " + name + " enters; " +
                run.out.at(run.ctx.author) + " or a moderator starts it with " +
                run.ctx.settings.prefix + "tourney start " + name + ".");
}

void tourney_entry(PostParts& run, const std::vector<std::string>& args, bool join_it) {
    if (args.size() > 1) {
        run.out.usage_error("tourney join",
                            tr("I did not understand \"{text}\".", {{"text", shorten(args[1])}}));
        return;
    }
    auto t = run.tourneys.pick_tournament(args, 0);
    if (!t)
        return;
    if (t->status == TournamentStatus::Running && join_it) {
        run.tourneys.tourney_late_entry(*t);
        return;
    }
    if (t->status != TournamentStatus::Open) {
        run.out.say(t->name +
                    (t->status == TournamentStatus::Running
                         ? " has started: its games stay yours to play or resign" +
                               (t->format == "swiss" ? ", and " + run.out.form("tourney withdraw") +
                                                           " leaves the rounds still to be paired"
                                                     : std::string())
                         : " is over") +
                    ".");
        return;
    }
    auto before = run.ctx.store.entrants(t->id);
    const bool in = std::any_of(before.begin(), before.end(), [&](const EntrantRecord& e) {
        return e.player_id == run.ctx.author.id;
    });
    if (join_it == in) {
        run.out.say(join_it ? "You are in " + t->name + " already."
                            : "You are not in " + t->name + ".");
        return;
    }
    if (join_it)
        run.ctx.store.add_entrant(t->id, run.ctx.author.id, run.ctx.now);
    else
        run.ctx.store.remove_entrant(t->id, run.ctx.author.id);
    std::vector<std::string> names;
    for (const auto& e : run.ctx.store.entrants(t->id))
        names.push_back(run.people.quiet_name(e.player_id));
    std::string field = names.empty()
                            ? std::string("nobody has entered yet")
                            : plural(static_cast<int>(names.size()), "player", "players") + ": " +
                                  join(names, ", ");
    run.out.say(run.out.at(run.ctx.author) + (join_it ? " joins " : " leaves ") + t->name + " (" +
                field + "). " + run.people.quiet_name(t->creator) +
                " or a moderator starts it with " + run.ctx.settings.prefix + "tourney start " +
                t->name + ".");
}

void tourney_start(PostParts& run, const std::vector<std::string>& args) {
    if (args.size() > 1) {
        run.out.usage_error("tourney start",
                            tr("I did not understand \"{text}\".", {{"text", shorten(args[1])}}));
        return;
    }
    auto t = run.tourneys.pick_tournament(args, 0);
    if (!t)
        return;
    if (t->creator != run.ctx.author.id && !run.people.moderator()) {
        run.out.say("Only " + run.people.mention(t->creator) + ", who created " + t->name +
                    ", or a moderator can start it.");
        return;
    }
    if (t->status != TournamentStatus::Open) {
        run.out.say(t->name + (t->status == TournamentStatus::Running
                                   ? " is under way already: "
                                     "round " +
                                         std::to_string(t->current_round) + " of " +
                                         std::to_string(t->rounds) + "."
                                   : " is over."));
        return;
    }
    auto entrants = run.ctx.store.entrants(t->id);
    const int n = static_cast<int>(entrants.size());
    if (n < 2) {
        run.out.say(t->name + " needs at least 2 players to start; it has " + std::to_string(n) +
                    ". Players: " + run.ctx.settings.prefix + "tourney join " + t->name + ".");
        return;
    }
    // Seeds by rating in the tournament's variant (a newcomer counts as 1500), then by entry.
    std::vector<std::pair<double, std::int64_t>> by_rating;
    for (const auto& e : entrants) {
        auto r = run.ctx.store.rating(e.player_id, t->variant);
        by_rating.emplace_back(r ? r->rating : 1500.0, e.player_id);
    }
    std::stable_sort(by_rating.begin(), by_rating.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<std::string> seeds;
    for (std::size_t i = 0; i < by_rating.size(); ++i) {
        run.ctx.store.set_seed(t->id, by_rating[i].second, static_cast<int>(i));
        seeds.push_back(std::to_string(i + 1) + ". " + run.people.quiet_name(by_rating[i].second) +
                        " " + points(std::round(by_rating[i].first * 10) / 10));
    }
    std::string note;
    if (t->format == "roundrobin" || t->format == "double") {
        t->rounds = static_cast<int>(berger_schedule(n, t->format == "double").size());
    } else if (t->format == "knockout") {
        t->rounds = knockout_rounds(n);
    } else {
        // Without a repeat pairing nobody can play more rounds than they have opponents.
        const int most = n - 1;
        if (t->rounds == 0)
            t->rounds = std::min(most, std::max(1, knockout_rounds(n)));
        if (t->rounds > most) {
            t->rounds = most;
            note = " It has " + plural(most, "round", "rounds") + ", as many as " +
                   std::to_string(n) + " players allow without anyone meeting twice.";
        }
    }
    t->status = TournamentStatus::Running;
    if (t->format == "swiss")
        t->initial_colour = drawn_colour(*t);
    run.ctx.store.update_tournament(*t);
    if (t->creator != run.ctx.author.id) // only a moderator starts another's tournament
        mod_log(run.ctx, "tourney start " + t->name);
    const rules::Variant* variant = rules::find_variant(t->variant);
    run.out.say_at(
        t->channel,
        t->name + " starts with " + std::to_string(n) + " players, seeded by rating in " +
            (variant ? variant->info().title : t->variant) + ": " + join(seeds, ", ") + "; " +
            plural(t->rounds, "round", "rounds") + "." + note +
            (t->format == "swiss" ? " Drawn by lot: odd seeds take " + t->initial_colour +
                                        " when the colour rules leave it open."
                                  : std::string()));
    if (t->schedule == "allatonce")
        run.tourneys.start_all_rounds(*t);
    else
        run.tourneys.start_round(*t, 1);
}

std::vector<CreatedBoard> Tourneys::create_round(const TournamentRecord& t, const Field& f,
                                                 int round, const std::vector<PlannedBoard>& plan) {
    const rules::Variant* variant = rules::find_variant(t.variant);
    if (variant == nullptr)
        throw std::runtime_error("tournament " + t.name + ": unknown variant " + t.variant);
    auto options = rules::resolve_options(variant->info(), {});
    if (!options)
        throw std::runtime_error("tournament " + t.name + ": " + options.error().message);
    ctx_.store.start_round(t.id, round, ctx_.now);
    std::vector<CreatedBoard> out;
    int board = 0;
    for (const auto& p : plan) {
        const std::int64_t white = f.players[static_cast<std::size_t>(p.white)];
        PairingRecord rec{t.id,         round,        ++board,       white,
                          std::nullopt, std::nullopt, p.white_float, p.black_float};
        CreatedBoard made;
        if (p.black == bye) {
            ctx_.store.add_pairing(rec);
            const std::string next = std::to_string(round + 1);
            made.line = people_.mention(white) +
                        (f.knockout()      ? " has a bye to round " + next
                         : f.round_robin() ? " sits this round out"
                                           : " has a bye, worth a point") +
                        ".";
            made.seats.push_back({white,
                                  f.knockout()      ? "have a bye to round " + next
                                  : f.round_robin() ? std::string("sit this round out")
                                                    : std::string("have a bye, worth a point"),
                                  std::nullopt});
            out.push_back(std::move(made));
            continue;
        }
        const std::int64_t black = f.players[static_cast<std::size_t>(p.black)];
        GameRecord g;
        g.variant = t.variant;
        g.options = *options;
        g.platform = t.platform;
        g.channel = t.channel;
        g.challenger = white;
        g.challenged = people_.player(black).handle;
        g.challenged_id = black;
        g.challenger_color = "white";
        g.white = white;
        g.black = black;
        g.status = GameStatus::Ongoing;
        g.seed = make_seed();
        g.created_at = ctx_.now;
        g.time_control = t.tc.empty() ? ctx_.settings.default_time_control : t.tc;
        g.rated = true;
        g.id = ctx_.store.create_game(g);
        rec.black = black;
        rec.game_id = g.id;
        ctx_.store.add_pairing(rec);
        Loaded l = games_.load(g);
        clocks_.sync_clocks(l); // the first decision's clock starts now
        // A game with dice commits to its seed here, as every game does when it starts.
        made.line = plain(games_.vs_line(l)) + dice_.seed_commitment(g, l.info()) + " " +
                    plain(games_.next_line(l));
        made.next = plain(games_.next_line(l));
        for (Seat seat : {Seat::White, Seat::Black}) {
            const std::string colour =
                l.info().seat_names[static_cast<std::size_t>(rules::index(seat))];
            made.seats.push_back({*detail::seated(g, seat),
                                  "play game #" + std::to_string(g.id) + ", " + l.info().title +
                                      ", as " + colour + " against " +
                                      people_.mention(*detail::seated(g, rules::opponent(seat))),
                                  g});
        }
        out.push_back(std::move(made));
    }
    return out;
}

void Tourneys::start_round(TournamentRecord& t, int round) {
    Field f = load_field(ctx_.store, t);
    int pairable = 0;
    for (int p = 0; p < static_cast<int>(f.players.size()); ++p)
        pairable += f.pairable(p, round) ? 1 : 0;
    if (t.format == "swiss" && pairable < 2) {
        // Withdrawals and byes left nobody to play: the table stands as it is.
        t.rounds = round - 1;
        t.status = TournamentStatus::Finished;
        ctx_.store.update_tournament(t);
        f.t = t;
        out_.say_at(t.channel,
                    "Fewer than two players of " + t.name + " are left to pair in round " +
                        std::to_string(round) + ", so it ends after round " +
                        std::to_string(round - 1) + ". Final standings:",
                    score_table(ctx_.store, f));
        return;
    }
    auto plan = plan_round(f, round);
    if (!plan) {
        // Every pairing left breaks an absolute criterion: the tournament ends with what was
        // played.
        t.rounds = round - 1;
        t.status = TournamentStatus::Finished;
        ctx_.store.update_tournament(t);
        f.t = t;
        out_.say_at(t.channel,
                    "No pairing within the rules is left (nobody meets anyone twice, nobody has a "
                    "second bye, no colour runs three times in a row or two games ahead), so " +
                        t.name + " ends after round " + std::to_string(round - 1) +
                        ". Final standings:",
                    score_table(ctx_.store, f));
        return;
    }
    const rules::Variant* variant = rules::find_variant(t.variant);
    t.current_round = round;
    ctx_.store.update_tournament(t);
    const auto boards = create_round(t, f, round, *plan);
    const std::string heading =
        t.name + ", round " + std::to_string(round) + " of " + std::to_string(t.rounds);
    std::vector<std::string> lines;
    for (const auto& b : boards)
        lines.push_back(b.line);
    for (const auto& b : f.byes)
        if (b.round == round)
            lines.push_back(people_.mention(b.player_id) +
                            " sits this round out for half a point, " + "as asked.");
    out_.say_at(t.channel, heading + " (" + (variant ? variant->info().title : t.variant) + ", " +
                               format_title(t.format) + "):\n" + join(lines, "\n"));
    // Each player hears of their game after the channel has the whole round.
    for (const auto& b : boards)
        for (const auto& seat : b.seats)
            out_.tell(
                people_.player(seat.player),
                heading + ": you " + seat.what +
                    (seat.game ? ", in the tournament's channel. " + b.next : std::string(".")),
                {}, seat.game ? &*seat.game : nullptr);
}

void Tourneys::start_all_rounds(TournamentRecord& t) {
    Field f = load_field(ctx_.store, t);
    const rules::Variant* variant = rules::find_variant(t.variant);
    t.current_round = t.rounds;
    ctx_.store.update_tournament(t);
    std::vector<std::string> lines;
    struct Letter {
        std::vector<std::string> games;
        std::optional<GameRecord> first;
        std::vector<std::string> out; // the rounds it sits out
    };
    std::map<std::int64_t, Letter> letters;
    int games = 0;
    for (int r = 1; r <= t.rounds; ++r) {
        const auto boards = create_round(t, f, r, *plan_round(f, r));
        lines.push_back("Round " + std::to_string(r) + ":");
        for (const auto& b : boards) {
            lines.push_back(b.line);
            for (const auto& seat : b.seats) {
                Letter& l = letters[seat.player];
                if (!seat.game) {
                    l.out.push_back(std::to_string(r));
                    continue;
                }
                ++games;
                l.games.push_back(seat.what.substr(std::string("play ").size()) + ": " + b.next);
                if (!l.first)
                    l.first = seat.game;
            }
        }
    }
    games /= 2;
    out_.say_at(t.channel, t.name + " (" + (variant ? variant->info().title : t.variant) + ", " +
                               format_title(t.format) + "): every game starts now, " +
                               plural(games, "game", "games") + " at once.\n" + join(lines, "\n"));
    for (const std::int64_t id : f.players) {
        const Letter& l = letters[id];
        std::string text = t.name + ": every game starts now. You play " +
                           plural(static_cast<int>(l.games.size()), "game", "games") +
                           " in the tournament's channel";
        if (!l.out.empty())
            text += " and sit out round" + std::string(l.out.size() == 1 ? " " : "s ") +
                    join(l.out, ", ");
        text += ":\n" + join(l.games, "\n");
        out_.tell(people_.player(id), text, {}, l.first ? &*l.first : nullptr);
    }
}

} // namespace ghostpost::bot
