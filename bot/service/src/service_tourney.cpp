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

Text joined(const std::vector<Text>& items, const std::string& sep) {
    Text out;
    for (std::size_t i = 0; i < items.size(); ++i)
        out += (i == 0 ? Text() : verbatim(sep)) + items[i];
    return out;
}

} // namespace

void cmd_tourney(PostParts& run, const std::vector<std::string>& args) {
    if (args.empty()) {
        auto here =
            run.ctx.post.direct
                ? std::vector<TournamentRecord>{}
                : run.ctx.store.tournaments_in_channel(run.ctx.post.platform, run.ctx.post.channel);
        if (here.empty()) {
            run.out.usage_error("tourney", tr("No tournament is run from here."));
            return;
        }
        std::vector<Text> lines;
        for (const auto& t : here) {
            const rules::Variant* v = rules::find_variant(t.variant);
            Text state;
            if (t.status == TournamentStatus::Open)
                state = tr("open for entries");
            else if (t.status == TournamentStatus::Finished)
                state = tr("finished");
            else if (t.schedule == "allatonce")
                state = tr("every game at once, {progress}",
                           {{"progress", games_finished(load_field(run.ctx.store, t))}});
            else
                state = tr("round {round} of {rounds}", {{"round", std::to_string(t.current_round)},
                                                         {"rounds", std::to_string(t.rounds)}});
            lines.push_back(
                tr("{tournament} (#{number}): {variant}, {format}, {state}",
                   {{"tournament", t.name},
                    {"number", std::to_string(t.id)},
                    {"variant", v ? game_word("variant", v->info().title) : verbatim(t.variant)},
                    {"format", format_title(t.format)},
                    {"state", state}}));
        }
        run.out.say(tr("Tournaments run from here ({command} for one):",
                       {{"command", run.out.form("tourney standings")}}),
                    Replies::written(joined(lines, "\n"), run.out.author_language()) + "\n");
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
        run.out.say(tr("There is no {command}. Say one of create, join, leave, start, pairings, "
                       "standings, next, withdraw, bye, forbid, allow, trf; {help} for more.",
                       {{"command", run.ctx.settings.prefix + "tourney " + shorten(args[0], 20)},
                        {"help", run.ctx.settings.prefix + "help tourney"}}));
}

std::optional<TournamentRecord> Tourneys::pick_tournament(const std::vector<std::string>& args,
                                                          std::size_t at) {
    // "#3": by number, as the web view's address names it.
    if (at < args.size() && args[at].starts_with('#')) {
        auto id = game_id_arg(args[at]);
        auto t = id ? ctx_.store.tournament(*id) : std::nullopt;
        if (!t || t->platform != ctx_.post.platform) {
            out_.say(tr("There is no tournament #{tournament}.",
                        {{"tournament", shorten(args[at], 20).substr(1)}}));
            return std::nullopt;
        }
        return t;
    }
    if (at < args.size() && std::isalpha(static_cast<unsigned char>(args[at][0]))) {
        auto t = ctx_.store.tournament_by_name(ctx_.post.platform, args[at]);
        if (!t)
            out_.say(tr("There is no tournament \"{name}\".", {{"name", shorten(args[at], 32)}}));
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
        out_.say(tr("Several tournaments run here ({names}): say which.",
                    {{"names", join(names, ", ")}}));
        return std::nullopt;
    }
    if (!all.empty())
        return all.back();
    out_.say(ctx_.post.direct ? tr("Name the tournament: none runs from a direct chat.")
                              : tr("Name the tournament: none runs from here."));
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
                    tr("rounds= is for a Swiss only: a round robin has a round for every opponent, "
                       "a knockout as many as it takes to leave one player. Nothing was created."));
                return false;
            }
            if (!n || value[0] == '#' || *n < 1 || *n > max_swiss_rounds) {
                run.out.usage_error("tourney", tr("rounds= takes a number from 1 to {max}.",
                                                  {{"max", std::to_string(max_swiss_rounds)}}));
                return false;
            }
            t.rounds = static_cast<int>(*n);
        } else if (key == "schedule" && eq != std::string::npos) {
            const std::string v = lower(value);
            if (v != "rounds" && v != "allatonce") {
                run.out.usage_error("tourney",
                                    tr("schedule= takes rounds (one round after another) or "
                                       "allatonce (every game of a round robin at once)."));
                return false;
            }
            if (v == "allatonce" && format != "roundrobin" && format != "double") {
                run.out.say(
                    tr("schedule=allatonce is for round robins: a Swiss or a knockout pairs each "
                       "round from the results before it. Nothing was created."));
                return false;
            }
            t.schedule = v;
        } else if (key == "next" && eq != std::string::npos) {
            const std::string v = lower(value);
            if (v != "auto" && v != "manual") {
                run.out.usage_error("tourney",
                                    tr("next= takes auto (a round starts when the last game of "
                                       "the one before ends) or manual (it waits for {command}).",
                                       {{"command", run.out.form("tourney next")}}));
                return false;
            }
            t.next_round = v;
        } else if (key == "tc" && eq != std::string::npos) {
            auto tc = parse_time_control(value);
            if (!tc.value) {
                // TRANSLATORS: {reason} is why a time control could not be read.
                run.out.say(tr("Not created: {reason}",
                               {{"reason", time_control_problem(tc, value, true)}}));
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
Text tourney_details(PostParts& run, const TournamentRecord& t, const rules::VariantInfo& info) {
    const std::string& format = t.format;
    const std::string& name = t.name;
    Text details = game_word("variant", info.title) + verbatim(", ") + format_title(format);
    if (format == "swiss")
        details +=
            verbatim(", ") +
            (t.rounds ? tr("{count, plural, one {# round} other {# rounds}}", {{"count", t.rounds}})
                      : tr("rounds by the field"));
    details += verbatim(", ") +
               tr("time control {control}",
                  {{"control", t.tc.empty() ? run.ctx.settings.default_time_control : t.tc}});
    details +=
        verbatim(", ") + (t.schedule == "allatonce" ? tr("every game at once")
                          : t.next_round == "manual"
                              ? tr("each round started with {command}",
                                   {{"command", run.ctx.settings.prefix + "tourney next " + name}})
                              : tr("each round starting when the one before ends"));
    return details;
}

} // namespace

void tourney_create(PostParts& run, const std::vector<std::string>& args) {
    if (run.ctx.post.direct) {
        run.out.say(tr("Create tournaments in a channel: its games are played there."));
        return;
    }
    if (args.size() < 3) {
        run.out.usage_error("tourney", tr("Say the name, the variant and the format."));
        return;
    }
    const std::string& name = args[0];
    if (!valid_name(name)) {
        run.out.usage_error("tourney",
                            tr("\"{name}\" cannot be a tournament name: up to {max} letters, "
                               "digits, - and _, starting with a letter.",
                               {{"name", shorten(name, 40)}, {"max", std::to_string(max_name)}}));
        return;
    }
    if (auto existing = run.ctx.store.tournament_by_name(run.ctx.post.platform, name)) {
        run.out.say(tr("There is a tournament named {tournament} already. Choose another name.",
                       {{"tournament", existing->name}}));
        return;
    }
    const rules::Variant* variant = rules::find_variant(lower(args[1]));
    if (variant == nullptr) {
        std::vector<std::string> names;
        for (const auto* v : rules::variants())
            names.push_back(v->info().name);
        run.out.say(tr("There is no variant \"{name}\". Variants: {variants}.",
                       {{"name", shorten(args[1], 20)}, {"variants", join(names, ", ")}}));
        return;
    }
    const std::string format = lower(args[2]);
    if (!known_format(format)) {
        run.out.usage_error("tourney",
                            tr("There is no format \"{name}\": roundrobin, double, swiss or "
                               "knockout.",
                               {{"name", shorten(args[2], 20)}}));
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
        run.out.say(tr("next=manual is for tournaments played round by round: with "
                       "schedule=allatonce every game starts together. Nothing was created."));
        return;
    }
    t.id = run.ctx.store.create_tournament(t);
    const std::string me = run.out.at(run.ctx.author);
    const std::string& p = run.ctx.settings.prefix;
    run.out.say(
        tr("{player} opens the tournament {tournament}: {details}.",
           {{"player", me}, {"tournament", name}, {"details", tourney_details(run, t, info)}}) +
        verbatim(" ") +
        tr("Everyone: {join} enters; {player} or a moderator starts it with {start}.",
           {{"join", p + "tourney join " + name},
            {"player", me},
            {"start", p + "tourney start " + name}}));
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
        if (t->status != TournamentStatus::Running)
            run.out.say(tr("{tournament} is over.", {{"tournament", t->name}}));
        else if (t->format == "swiss")
            run.out.say(
                tr("{tournament} has started: its games stay yours to play or resign, "
                   "and {command} leaves the rounds still to be paired.",
                   {{"tournament", t->name}, {"command", run.out.form("tourney withdraw")}}));
        else
            run.out.say(tr("{tournament} has started: its games stay yours to play or resign.",
                           {{"tournament", t->name}}));
        return;
    }
    auto before = run.ctx.store.entrants(t->id);
    const bool in = std::any_of(before.begin(), before.end(), [&](const EntrantRecord& e) {
        return e.player_id == run.ctx.author.id;
    });
    if (join_it == in) {
        run.out.say(join_it ? tr("You are in {tournament} already.", {{"tournament", t->name}})
                            : tr("You are not in {tournament}.", {{"tournament", t->name}}));
        return;
    }
    if (join_it)
        run.ctx.store.add_entrant(t->id, run.ctx.author.id, run.ctx.now);
    else
        run.ctx.store.remove_entrant(t->id, run.ctx.author.id);
    std::vector<std::string> names;
    for (const auto& e : run.ctx.store.entrants(t->id))
        names.push_back(run.people.quiet_name(e.player_id));
    const Text field = names.empty()
                           ? tr("nobody has entered yet")
                           : tr("{count, plural, one {# player} other {# players}}: {names}",
                                {{"count", names.size()}, {"names", join(names, ", ")}});
    const std::vector<i18n::Arg> args_of{
        {"player", run.out.at(run.ctx.author)}, {"tournament", t->name}, {"field", field}};
    run.out.say((join_it ? tr("{player} joins {tournament} ({field}).", args_of)
                         : tr("{player} leaves {tournament} ({field}).", args_of)) +
                verbatim(" ") +
                tr("{player} or a moderator starts it with {command}.",
                   {{"player", run.people.quiet_name(t->creator)},
                    {"command", run.ctx.settings.prefix + "tourney start " + t->name}}));
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
        run.out.say(tr("Only {creator}, who created {tournament}, or a moderator can start it.",
                       {{"creator", run.people.mention(t->creator)}, {"tournament", t->name}}));
        return;
    }
    if (t->status != TournamentStatus::Open) {
        run.out.say(t->status == TournamentStatus::Running
                        ? tr("{tournament} is under way already: round {round} of {rounds}.",
                             {{"tournament", t->name},
                              {"round", std::to_string(t->current_round)},
                              {"rounds", std::to_string(t->rounds)}})
                        : tr("{tournament} is over.", {{"tournament", t->name}}));
        return;
    }
    auto entrants = run.ctx.store.entrants(t->id);
    const int n = static_cast<int>(entrants.size());
    if (n < 2) {
        run.out.say(tr("{tournament} needs at least 2 players to start; it has {count}. Players: "
                       "{command}.",
                       {{"tournament", t->name},
                        {"count", std::to_string(n)},
                        {"command", run.ctx.settings.prefix + "tourney join " + t->name}}));
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
    Text note;
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
            note = verbatim(" ") +
                   tr("It has {rounds, plural, one {# round} other {# rounds}}, as many as "
                      "{players, plural, one {# player allows} other {# players allow}} without "
                      "anyone meeting twice.",
                      {{"rounds", most}, {"players", n}});
        }
    }
    t->status = TournamentStatus::Running;
    if (t->format == "swiss")
        t->initial_colour = drawn_colour(*t);
    run.ctx.store.update_tournament(*t);
    if (t->creator != run.ctx.author.id) // only a moderator starts another's tournament
        mod_log(run.ctx, "tourney start " + t->name);
    const rules::Variant* variant = rules::find_variant(t->variant);
    Text started =
        tr("{tournament} starts with {players, plural, one {# player} other {# players}}, seeded "
           "by rating in {variant}: {seeds}; {rounds, plural, one {# round} other {# rounds}}.",
           {{"tournament", t->name},
            {"players", n},
            {"variant",
             variant ? game_word("variant", variant->info().title) : verbatim(t->variant)},
            {"seeds", join(seeds, ", ")},
            {"rounds", t->rounds}}) +
        note;
    if (t->format == "swiss")
        started += verbatim(" ") +
                   (t->initial_colour == "white"
                        ? tr("Drawn by lot: odd seeds take white when the colour rules leave it "
                             "open.")
                        : tr("Drawn by lot: odd seeds take black when the colour rules leave it "
                             "open."));
    run.out.say_at(t->channel, started);
    if (t->schedule == "allatonce")
        run.tourneys.start_all_rounds(*t);
    else
        run.tourneys.start_round(*t, 1);
}

namespace {

// The parts of a post that make a round's games.
struct RoundMakers {
    PostContext& ctx;
    People& people;
    Games& games;
    Clocks& clocks;
    Dice& dice;
};

// A board whose game was created, as the replies word it (tourney::CreatedBoard with the
// catalog's words): the channel's line, and each of its players' part.
struct BoardWords {
    struct Player {
        std::int64_t id = 0;
        std::optional<GameRecord> game; // empty for a bye
        Text variant;                   // the game's
        Text colour;                    // the seat the player takes
        std::string opponent;
    };
    Text line;
    Text next; // who must decide first, as a sentence; empty for a bye
    std::vector<Player> players;
};

// Creates the games of a planned round and its pairings; says nothing.
std::vector<BoardWords> create_boards(const RoundMakers& m, const TournamentRecord& t,
                                      const Field& f, int round,
                                      const std::vector<PlannedBoard>& plan) {
    const rules::Variant* variant = rules::find_variant(t.variant);
    if (variant == nullptr)
        throw std::runtime_error("tournament " + t.name + ": unknown variant " + t.variant);
    auto options = rules::resolve_options(variant->info(), {});
    if (!options)
        throw std::runtime_error("tournament " + t.name + ": " + options.error().message);
    m.ctx.store.start_round(t.id, round, m.ctx.now);
    std::vector<BoardWords> out;
    int board = 0;
    for (const auto& p : plan) {
        const std::int64_t white = f.players[static_cast<std::size_t>(p.white)];
        PairingRecord rec{t.id,         round,        ++board,       white,
                          std::nullopt, std::nullopt, p.white_float, p.black_float};
        BoardWords made;
        if (p.black == bye) {
            m.ctx.store.add_pairing(rec);
            const std::string who = m.people.mention(white);
            made.line = f.knockout() ? tr("{player} has a bye to round {round}.",
                                          {{"player", who}, {"round", std::to_string(round + 1)}})
                        : f.round_robin()
                            ? tr("{player} sits this round out.", {{"player", who}})
                            : tr("{player} has a bye, worth a point.", {{"player", who}});
            made.players.push_back({white, std::nullopt, {}, {}, {}});
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
        g.challenged = m.people.player(black).handle;
        g.challenged_id = black;
        g.challenger_color = "white";
        g.white = white;
        g.black = black;
        g.status = GameStatus::Ongoing;
        g.seed = make_seed();
        g.created_at = m.ctx.now;
        g.time_control = t.tc.empty() ? m.ctx.settings.default_time_control : t.tc;
        g.rated = true;
        g.id = m.ctx.store.create_game(g);
        rec.black = black;
        rec.game_id = g.id;
        m.ctx.store.add_pairing(rec);
        Loaded l = m.games.load(g);
        m.clocks.sync_clocks(l); // the first decision's clock starts now
        // A game with dice commits to its seed here, as every game does when it starts.
        made.next = m.games.next_line(l);
        made.line =
            m.games.vs_line(l) + m.dice.seed_commitment(g, l.info()) + verbatim(" ") + made.next;
        for (Seat seat : {Seat::White, Seat::Black}) {
            const std::string colour =
                l.info().seat_names[static_cast<std::size_t>(rules::index(seat))];
            made.players.push_back({*detail::seated(g, seat), g,
                                    game_word("variant", l.info().title), game_word("seat", colour),
                                    m.people.mention(*detail::seated(g, rules::opponent(seat)))});
        }
        out.push_back(std::move(made));
    }
    return out;
}

// What a player of board `b` of round `round` hears privately when the round starts.
Text round_letter(const TournamentRecord& t, const Field& f, int round, const BoardWords& b,
                  const BoardWords::Player& p) {
    std::vector<i18n::Arg> args{{"tournament", t.name},
                                {"round", std::to_string(round)},
                                {"rounds", std::to_string(t.rounds)}};
    if (p.game) {
        args.insert(args.end(), {{"game", std::to_string(p.game->id)},
                                 {"variant", p.variant},
                                 {"seat", p.colour},
                                 {"opponent", p.opponent}});
        return tr("{tournament}, round {round} of {rounds}: you play game #{game}, {variant}, as "
                  "{seat} against {opponent}, in the tournament's channel.",
                  args) +
               verbatim(" ") + b.next;
    }
    if (f.knockout()) {
        args.push_back({"next", std::to_string(round + 1)});
        return tr("{tournament}, round {round} of {rounds}: you have a bye to round {next}.", args);
    }
    if (f.round_robin())
        return tr("{tournament}, round {round} of {rounds}: you sit this round out.", args);
    return tr("{tournament}, round {round} of {rounds}: you have a bye, worth a point.", args);
}

} // namespace

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
                    tr("Fewer than two players of {tournament} are left to pair in round {round}, "
                       "so it ends after round {last}.",
                       {{"tournament", t.name},
                        {"round", std::to_string(round)},
                        {"last", std::to_string(round - 1)}}) +
                        verbatim(" ") + tr("Final standings:"),
                    table_block(ctx_.store, f));
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
                    tr("No pairing within the rules is left (nobody meets anyone twice, nobody "
                       "has a second bye, no colour runs three times in a row or two games "
                       "ahead), so {tournament} ends after round {round}.",
                       {{"tournament", t.name}, {"round", std::to_string(round - 1)}}) +
                        verbatim(" ") + tr("Final standings:"),
                    table_block(ctx_.store, f));
        return;
    }
    const rules::Variant* variant = rules::find_variant(t.variant);
    t.current_round = round;
    ctx_.store.update_tournament(t);
    const auto boards = create_boards({ctx_, people_, games_, clocks_, dice_}, t, f, round, *plan);
    std::vector<Text> lines;
    for (const auto& b : boards)
        lines.push_back(b.line);
    for (const auto& b : f.byes)
        if (b.round == round)
            lines.push_back(tr("{player} sits this round out for half a point, as asked.",
                               {{"player", people_.mention(b.player_id)}}));
    out_.say_at(t.channel, tr("{tournament}, round {round} of {rounds} ({variant}, {format}):",
                              {{"tournament", t.name},
                               {"round", std::to_string(round)},
                               {"rounds", std::to_string(t.rounds)},
                               {"variant", variant ? game_word("variant", variant->info().title)
                                                   : verbatim(t.variant)},
                               {"format", format_title(t.format)}}) +
                               verbatim("\n") + joined(lines, "\n"));
    // Each player hears of their game after the channel has the whole round.
    for (const auto& b : boards)
        for (const auto& p : b.players)
            out_.tell(people_.player(p.id), round_letter(t, f, round, b, p), {},
                      p.game ? &*p.game : nullptr);
}

void Tourneys::start_all_rounds(TournamentRecord& t) {
    Field f = load_field(ctx_.store, t);
    const rules::Variant* variant = rules::find_variant(t.variant);
    t.current_round = t.rounds;
    ctx_.store.update_tournament(t);
    std::vector<Text> lines;
    struct Letter {
        std::vector<Text> games;
        std::optional<GameRecord> first;
        std::vector<std::string> out; // the rounds it sits out
    };
    std::map<std::int64_t, Letter> letters;
    int games = 0;
    for (int r = 1; r <= t.rounds; ++r) {
        const auto boards =
            create_boards({ctx_, people_, games_, clocks_, dice_}, t, f, r, *plan_round(f, r));
        lines.push_back(tr("Round {round}:", {{"round", std::to_string(r)}}));
        for (const auto& b : boards) {
            lines.push_back(b.line);
            for (const auto& p : b.players) {
                Letter& l = letters[p.id];
                if (!p.game) {
                    l.out.push_back(std::to_string(r));
                    continue;
                }
                ++games;
                l.games.push_back(
                    tr("game #{game}, {variant}, as {seat} against {opponent}: {next}",
                       {{"game", std::to_string(p.game->id)},
                        {"variant", p.variant},
                        {"seat", p.colour},
                        {"opponent", p.opponent},
                        {"next", b.next}}));
                if (!l.first)
                    l.first = p.game;
            }
        }
    }
    games /= 2;
    out_.say_at(t.channel,
                tr("{tournament} ({variant}, {format}): every game starts now, {count, plural, one "
                   "{# game} other {# games}} at once.",
                   {{"tournament", t.name},
                    {"variant",
                     variant ? game_word("variant", variant->info().title) : verbatim(t.variant)},
                    {"format", format_title(t.format)},
                    {"count", games}}) +
                    verbatim("\n") + joined(lines, "\n"));
    for (const std::int64_t id : f.players) {
        const Letter& l = letters[id];
        Text text =
            l.out.empty()
                ? tr("{tournament}: every game starts now. You play {count, plural, one {# game} "
                     "other {# games}} in the tournament's channel:",
                     {{"tournament", t.name}, {"count", l.games.size()}})
                : tr("{tournament}: every game starts now. You play {count, plural, one {# game} "
                     "other {# games}} in the tournament's channel and sit out {sat, plural, one "
                     "{round {rounds}} other {rounds {rounds}}}:",
                     {{"tournament", t.name},
                      {"count", l.games.size()},
                      {"sat", l.out.size()},
                      {"rounds", join(l.out, ", ")}});
        text += verbatim("\n") + joined(l.games, "\n");
        out_.tell(people_.player(id), text, {}, l.first ? &*l.first : nullptr);
    }
}

} // namespace ghostpost::bot
