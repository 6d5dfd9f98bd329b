// Tournaments run from a channel: !tourney create, join, leave, start, pairings, standings,
// next. The pairing systems are pure functions (pairing.h) over seed indices; here they meet
// the store. A tournament's state is its pairings and their games: scores, colours, who went
// through a knockout are always derived from the games, never kept twice. docs/tournaments.md
// describes the formats, the seeding and the tie-breaks.
#include "ghostpost/bot/clock.h"
#include "ghostpost/bot/pairing.h"
#include "ghostpost/rules/registry.h"
#include "post_run.h"

#include <cctype>
#include <cmath>
#include <cstdio>

namespace ghostpost::bot {

using namespace detail;
using storage::EntrantRecord;
using storage::PairingRecord;
using storage::TournamentRecord;
using storage::TournamentStatus;

namespace {

constexpr std::size_t max_name = 32;
constexpr int max_swiss_rounds = 30;

std::string format_title(const std::string& format) {
    if (format == "roundrobin")
        return "round robin";
    if (format == "double")
        return "double round robin";
    if (format == "swiss")
        return "Swiss";
    return "knockout";
}

bool known_format(const std::string& f) {
    return f == "roundrobin" || f == "double" || f == "swiss" || f == "knockout";
}

// A letter first, so that a round number after a command is never taken for a name.
bool valid_name(const std::string& name) {
    if (name.empty() || name.size() > max_name ||
        !std::isalpha(static_cast<unsigned char>(name[0])))
        return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
    });
}

// 2.5 as "2.5", 3 as "3", 3.25 as "3.25": scores and tie-breaks are quarters at worst.
std::string points(double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.2f", value);
    std::string s = buffer;
    while (s.back() == '0')
        s.pop_back();
    if (s.back() == '.')
        s.pop_back();
    return s;
}

std::string pad(std::string s, std::size_t width) {
    if (s.size() < width)
        s.append(width - s.size(), ' ');
    return s;
}

std::string plural(int n, const std::string& one, const std::string& many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

struct Board {
    PairingRecord pairing;
    std::optional<GameRecord> game; // empty for a bye
    bool bye() const { return !pairing.black; }
    bool over() const { return bye() || (game && game->status != GameStatus::Ongoing); }
    // What White scored; nullopt while under way, for a bye and for a game that counts for
    // nobody (aborted by a moderator).
    std::optional<double> white_score() const {
        if (!game || game->status != GameStatus::Finished)
            return std::nullopt;
        return game->result == "1-0" ? 1.0 : game->result == "0-1" ? 0.0 : 0.5;
    }
};

// Everything a tournament's replies are built from. Players are indexed by seed (0 = first).
struct Field {
    TournamentRecord t;
    std::vector<std::int64_t> players;
    std::vector<Board> boards;

    int index(std::int64_t player_id) const {
        for (std::size_t i = 0; i < players.size(); ++i)
            if (players[i] == player_id)
                return static_cast<int>(i);
        throw std::logic_error("tournament " + t.name + ": no entrant " +
                               std::to_string(player_id));
    }
    std::vector<const Board*> round(int r) const {
        std::vector<const Board*> out;
        for (const auto& b : boards)
            if (b.pairing.round == r)
                out.push_back(&b);
        return out;
    }
    bool round_over(int r) const {
        auto bs = round(r);
        return std::all_of(bs.begin(), bs.end(), [](const Board* b) { return b->over(); });
    }
    bool knockout() const { return t.format == "knockout"; }
    bool round_robin() const { return t.format == "roundrobin" || t.format == "double"; }

    // The games with a result, by seed index; a Swiss bye scores a point, a round-robin bye
    // nothing (everyone sits out once per cycle).
    std::vector<PlayedGame> played() const {
        std::vector<PlayedGame> out;
        for (const auto& b : boards) {
            if (b.bye()) {
                if (t.format == "swiss")
                    out.push_back({index(b.pairing.white), bye, 1.0});
            } else if (auto s = b.white_score()) {
                out.push_back({index(b.pairing.white), index(*b.pairing.black), *s});
            }
        }
        return out;
    }

    // Who goes through a knockout board: the winner; on a draw (or a game voided) the higher
    // seed, who played Black with draw odds.
    std::int64_t advancing(const Board& b) const {
        if (b.bye())
            return b.pairing.white;
        auto s = b.white_score();
        if (s && *s == 1.0)
            return b.pairing.white;
        if (s && *s == 0.0)
            return *b.pairing.black;
        return index(b.pairing.white) < index(*b.pairing.black) ? b.pairing.white
                                                                : *b.pairing.black;
    }
};

Field load_field(storage::Store& store, const TournamentRecord& t) {
    Field f;
    f.t = t;
    for (const auto& e : store.entrants(t.id))
        f.players.push_back(e.player_id);
    for (const auto& p : store.pairings(t.id)) {
        Board b{p, std::nullopt};
        if (p.game_id)
            b.game = store.game(*p.game_id);
        f.boards.push_back(std::move(b));
    }
    return f;
}

int knockout_rounds(int players) {
    int rounds = 0;
    for (int size = 1; size < players; size *= 2)
        ++rounds;
    return rounds;
}

std::string name_of(storage::Store& store, std::int64_t id) {
    auto p = store.player(id);
    if (!p)
        throw std::logic_error("no player " + std::to_string(id));
    return at(*p);
}

// The table of a round robin or a Swiss, best first, with both tie-breaks (the format's own
// first) and the games counted.
std::string score_table(storage::Store& store, const Field& f) {
    const bool rr = f.round_robin();
    auto table = standings(static_cast<int>(f.players.size()), f.played(), rr);
    std::vector<int> games(f.players.size(), 0);
    for (const auto& g : f.played()) {
        ++games[static_cast<std::size_t>(g.white)];
        if (g.black != bye)
            ++games[static_cast<std::size_t>(g.black)];
    }
    std::vector<std::string> names;
    std::size_t width = 6;
    for (const auto& s : table) {
        names.push_back(name_of(store, f.players[static_cast<std::size_t>(s.player)]));
        width = std::max(width, names.back().size());
    }
    const std::string first = rr ? "SB" : "BH", second = rr ? "BH" : "SB";
    std::string out = " # " + pad("player", width + 2) + pad("points", 8) + pad(first, 7) +
                      pad(second, 7) + "games\n";
    for (std::size_t i = 0; i < table.size(); ++i) {
        const auto& s = table[i];
        const double a = rr ? s.sonneborn_berger : s.buchholz;
        const double b = rr ? s.buchholz : s.sonneborn_berger;
        std::string rank = std::to_string(i + 1);
        out += pad(std::string(rank.size() < 2 ? 1 : 0, ' ') + rank, 3) + pad(names[i], width + 2) +
               pad(points(s.score), 8) + pad(points(a), 7) + pad(points(b), 7) +
               std::to_string(games[static_cast<std::size_t>(s.player)]) + "\n";
    }
    return out;
}

// A knockout as it stands: each player with how far they came, the champion first.
std::string bracket_table(storage::Store& store, const Field& f, std::int64_t* champion) {
    struct Row {
        int seed;
        int reached = 0; // the last round played in
        int out_in = 0;  // 0: still in (or the champion)
        std::int64_t game = 0;
        bool drawn = false; // lost on the higher seed's draw odds
    };
    std::vector<Row> rows;
    for (std::size_t i = 0; i < f.players.size(); ++i)
        rows.push_back({static_cast<int>(i)});
    for (const auto& b : f.boards) {
        for (auto id : {std::optional<std::int64_t>(b.pairing.white), b.pairing.black}) {
            if (!id)
                continue;
            Row& r = rows[static_cast<std::size_t>(f.index(*id))];
            r.reached = std::max(r.reached, b.pairing.round);
            if (b.over() && f.advancing(b) != *id) {
                r.out_in = b.pairing.round;
                r.game = b.game ? b.game->id : 0;
                r.drawn = b.white_score() == 0.5;
            }
        }
    }
    std::optional<std::int64_t> winner;
    if (f.t.status == TournamentStatus::Finished) {
        auto last = f.round(f.t.rounds);
        if (last.size() == 1 && last.front()->over())
            winner = f.advancing(*last.front());
    }
    if (champion)
        *champion = winner.value_or(0);
    std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
        const int ka = a.out_in ? a.out_in : 1000, kb = b.out_in ? b.out_in : 1000;
        return ka != kb ? ka > kb : a.seed < b.seed;
    });
    std::size_t width = 6;
    for (const auto& r : rows)
        width = std::max(width, name_of(store, f.players[static_cast<std::size_t>(r.seed)]).size());
    std::string out = "seed player\n";
    for (const auto& r : rows) {
        const std::int64_t id = f.players[static_cast<std::size_t>(r.seed)];
        std::string state;
        if (winner && *winner == id)
            state = "wins the tournament";
        else if (r.out_in == 0)
            state = r.reached ? "through to round " + std::to_string(r.reached + 1) : "waiting";
        else
            state = (r.out_in == f.t.rounds ? std::string("lost the final")
                                            : "out in round " + std::to_string(r.out_in)) +
                    (r.game ? " (game #" + std::to_string(r.game) +
                                  (r.drawn ? " drawn: the higher seed goes through)" : ")")
                            : std::string());
        if (r.out_in == 0 && !(winner && *winner == id)) {
            // Still in: in the round being played, or through to the next one.
            bool playing = false;
            for (const Board* b : f.round(f.t.current_round))
                if ((b->pairing.white == id || b->pairing.black == id) && !b->over())
                    playing = true;
            if (playing)
                state = "playing round " + std::to_string(f.t.current_round);
        }
        out +=
            pad(std::to_string(r.seed + 1), 5) + pad(name_of(store, id), width + 2) + state + "\n";
    }
    return out;
}

} // namespace

void PostRun::cmd_tourney(const std::vector<std::string>& args) {
    if (args.empty()) {
        auto here = post_.direct ? std::vector<TournamentRecord>{}
                                 : store_.tournaments_in_channel(post_.platform, post_.channel);
        if (here.empty()) {
            usage_error("tourney", "No tournament is run from here.");
            return;
        }
        std::vector<std::string> lines;
        for (const auto& t : here) {
            const rules::Variant* v = rules::find_variant(t.variant);
            std::string state = t.status == TournamentStatus::Open ? "open for entries"
                                : t.status == TournamentStatus::Finished
                                    ? "finished"
                                    : "round " + std::to_string(t.current_round) + " of " +
                                          std::to_string(t.rounds);
            lines.push_back(t.name + ": " + (v ? v->info().title : t.variant) + ", " +
                            format_title(t.format) + ", " + state);
        }
        say("Tournaments run from here (" + form("tourney standings") + " for one):",
            join(lines, "\n") + "\n");
        return;
    }
    const std::string sub = lower(args[0]);
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (sub == "create")
        tourney_create(rest);
    else if (sub == "join" || sub == "leave")
        tourney_entry(rest, sub == "join");
    else if (sub == "start")
        tourney_start(rest);
    else if (sub == "next")
        tourney_next(rest);
    else if (sub == "pairings")
        tourney_pairings(rest);
    else if (sub == "standings")
        tourney_standings(rest);
    else
        say("There is no " + s_.settings_.prefix + "tourney " + shorten(args[0], 20) +
            ". Say one of create, join, leave, start, pairings, standings, next; " +
            s_.settings_.prefix + "help tourney for more.");
}

std::optional<TournamentRecord> PostRun::pick_tournament(const std::vector<std::string>& args,
                                                         std::size_t at) {
    if (at < args.size() && std::isalpha(static_cast<unsigned char>(args[at][0]))) {
        auto t = store_.tournament_by_name(post_.platform, args[at]);
        if (!t)
            say("There is no tournament \"" + shorten(args[at], 32) + "\".");
        return t;
    }
    std::vector<TournamentRecord> live, all;
    if (!post_.direct)
        all = store_.tournaments_in_channel(post_.platform, post_.channel);
    for (const auto& t : all)
        if (t.status != TournamentStatus::Finished)
            live.push_back(t);
    if (live.size() == 1)
        return live.front();
    if (live.size() > 1) {
        std::vector<std::string> names;
        for (const auto& t : live)
            names.push_back(t.name);
        say("Several tournaments run here (" + join(names, ", ") + "): say which.");
        return std::nullopt;
    }
    if (!all.empty())
        return all.back();
    say("Name the tournament: none runs from " +
        std::string(post_.direct ? "a direct chat" : "here") + ".");
    return std::nullopt;
}

void PostRun::tourney_create(const std::vector<std::string>& args) {
    if (post_.direct) {
        say("Create tournaments in a channel: its games are played there.");
        return;
    }
    if (args.size() < 3) {
        usage_error("tourney", "Say the name, the variant and the format.");
        return;
    }
    const std::string& name = args[0];
    if (!valid_name(name)) {
        usage_error("tourney", "\"" + shorten(name, 40) + "\" cannot be a tournament name: up to " +
                                   std::to_string(max_name) +
                                   " letters, digits, - and _, starting with a letter.");
        return;
    }
    if (auto existing = store_.tournament_by_name(post_.platform, name)) {
        say("There is a tournament named " + existing->name + " already. Choose another name.");
        return;
    }
    const rules::Variant* variant = rules::find_variant(lower(args[1]));
    if (variant == nullptr) {
        std::vector<std::string> names;
        for (const auto* v : rules::variants())
            names.push_back(v->info().name);
        say("There is no variant \"" + shorten(args[1], 20) + "\". Variants: " + join(names, ", ") +
            ".");
        return;
    }
    const std::string format = lower(args[2]);
    if (!known_format(format)) {
        usage_error("tourney", "There is no format \"" + shorten(args[2], 20) +
                                   "\": roundrobin, double, swiss or knockout.");
        return;
    }
    TournamentRecord t;
    for (std::size_t i = 3; i < args.size(); ++i) {
        const std::string& a = args[i];
        const auto eq = a.find('=');
        const std::string key = lower(a.substr(0, eq));
        const std::string value = eq == std::string::npos ? std::string() : a.substr(eq + 1);
        if (key == "rounds" && eq != std::string::npos) {
            auto n = game_id_arg(value);
            if (format != "swiss") {
                say("rounds= is for a Swiss only: a round robin has a round for every opponent, "
                    "a knockout as many as it takes to leave one player. Nothing was created.");
                return;
            }
            if (!n || value[0] == '#' || *n < 1 || *n > max_swiss_rounds) {
                usage_error("tourney", "rounds= takes a number from 1 to " +
                                           std::to_string(max_swiss_rounds) + ".");
                return;
            }
            t.rounds = static_cast<int>(*n);
        } else if (key == "tc" && eq != std::string::npos) {
            auto tc = parse_time_control(value);
            if (!tc.value) {
                say("Not created: " + sentence_end(tc.error));
                return;
            }
            t.tc = tc.value->text();
        } else {
            usage_error("tourney", "I did not understand \"" + shorten(a) + "\".");
            return;
        }
    }
    const auto& info = variant->info();
    t.platform = post_.platform;
    t.channel = post_.channel;
    t.name = name;
    t.variant = info.name;
    t.format = format;
    t.status = TournamentStatus::Open;
    t.creator = author_.id;
    t.created_at = now_;
    t.id = store_.create_tournament(t);
    std::string details = info.title + ", " + format_title(format);
    if (format == "swiss")
        details += t.rounds ? ", " + plural(t.rounds, "round", "rounds") : ", rounds by the field";
    details += ", time control " + (t.tc.empty() ? s_.settings_.default_time_control : t.tc);
    say(at(author_) + " opens the tournament " + name + ": " + details + ". Everyone: " +
        s_.settings_.prefix + "tourney join " + name + " enters; " + at(author_) +
        " or a moderator starts it with " + s_.settings_.prefix + "tourney start " + name + ".");
}

void PostRun::tourney_entry(const std::vector<std::string>& args, bool join_it) {
    if (args.size() > 1) {
        usage_error("tourney join", "I did not understand \"" + shorten(args[1]) + "\".");
        return;
    }
    auto t = pick_tournament(args, 0);
    if (!t)
        return;
    if (t->status != TournamentStatus::Open) {
        say(t->name +
            (t->status == TournamentStatus::Running
                 ? " has started: entries are closed" +
                       std::string(join_it ? ""
                                           : ", and its games stay yours to play "
                                             "or resign")
                 : " is over") +
            ".");
        return;
    }
    auto before = store_.entrants(t->id);
    const bool in = std::any_of(before.begin(), before.end(),
                                [&](const EntrantRecord& e) { return e.player_id == author_.id; });
    if (join_it == in) {
        say(join_it ? "You are in " + t->name + " already." : "You are not in " + t->name + ".");
        return;
    }
    if (join_it)
        store_.add_entrant(t->id, author_.id, now_);
    else
        store_.remove_entrant(t->id, author_.id);
    std::vector<std::string> names;
    for (const auto& e : store_.entrants(t->id))
        names.push_back(mention(e.player_id));
    std::string field = names.empty()
                            ? std::string("nobody has entered yet")
                            : plural(static_cast<int>(names.size()), "player", "players") + ": " +
                                  join(names, ", ");
    say(at(author_) + (join_it ? " joins " : " leaves ") + t->name + " (" + field + "). " +
        mention(t->creator) + " or a moderator starts it with " + s_.settings_.prefix +
        "tourney start " + t->name + ".");
}

void PostRun::tourney_start(const std::vector<std::string>& args) {
    if (args.size() > 1) {
        usage_error("tourney start", "I did not understand \"" + shorten(args[1]) + "\".");
        return;
    }
    auto t = pick_tournament(args, 0);
    if (!t)
        return;
    if (t->creator != author_.id && !moderator()) {
        say("Only " + mention(t->creator) + ", who created " + t->name +
            ", or a moderator can start it.");
        return;
    }
    if (t->status != TournamentStatus::Open) {
        say(t->name +
            (t->status == TournamentStatus::Running
                 ? " is under way already: "
                   "round " +
                       std::to_string(t->current_round) + " of " + std::to_string(t->rounds) + "."
                 : " is over."));
        return;
    }
    auto entrants = store_.entrants(t->id);
    const int n = static_cast<int>(entrants.size());
    if (n < 2) {
        say(t->name + " needs at least 2 players to start; it has " + std::to_string(n) +
            ". Players: " + s_.settings_.prefix + "tourney join " + t->name + ".");
        return;
    }
    // Seeds by rating in the tournament's variant (a newcomer counts as 1500), then by entry.
    std::vector<std::pair<double, std::int64_t>> by_rating;
    for (const auto& e : entrants) {
        auto r = store_.rating(e.player_id, t->variant);
        by_rating.emplace_back(r ? r->rating : 1500.0, e.player_id);
    }
    std::stable_sort(by_rating.begin(), by_rating.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<std::string> seeds;
    for (std::size_t i = 0; i < by_rating.size(); ++i) {
        store_.set_seed(t->id, by_rating[i].second, static_cast<int>(i));
        seeds.push_back(std::to_string(i + 1) + ". " + mention(by_rating[i].second) + " " +
                        points(std::round(by_rating[i].first * 10) / 10));
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
    store_.update_tournament(*t);
    const rules::Variant* variant = rules::find_variant(t->variant);
    say_at(t->channel,
           t->name + " starts with " + std::to_string(n) + " players, seeded by rating in " +
               (variant ? variant->info().title : t->variant) + ": " + join(seeds, ", ") + "; " +
               plural(t->rounds, "round", "rounds") + "." + note);
    start_round(*t, 1);
}

void PostRun::start_round(TournamentRecord& t, int round) {
    Field f = load_field(store_, t);
    const int n = static_cast<int>(f.players.size());
    std::vector<Pairing> pairs; // seed indices
    if (f.round_robin()) {
        pairs = berger_schedule(n, t.format == "double").at(static_cast<std::size_t>(round - 1));
    } else if (f.knockout()) {
        if (round == 1) {
            for (const auto& p : knockout_first_round(n))
                pairs.push_back(p.black == bye ? p : Pairing{p.black, p.white});
        } else {
            std::vector<int> through;
            for (const Board* b : f.round(round - 1))
                through.push_back(f.index(f.advancing(*b)));
            for (std::size_t i = 0; i + 1 < through.size(); i += 2) {
                const int a = through[i], b = through[i + 1];
                pairs.push_back({std::max(a, b), std::min(a, b)}); // the lower seed has White
            }
        }
    } else {
        auto table = standings(n, f.played(), false);
        std::vector<SwissPlayer> ranked(static_cast<std::size_t>(n));
        for (int i = 0; i < n; ++i)
            ranked[static_cast<std::size_t>(i)].player = i;
        for (const auto& s : table)
            ranked[static_cast<std::size_t>(s.player)].score = s.score;
        for (const auto& b : f.boards) {
            auto& w = ranked[static_cast<std::size_t>(f.index(b.pairing.white))];
            if (b.bye()) {
                w.had_bye = true;
                continue;
            }
            auto& k = ranked[static_cast<std::size_t>(f.index(*b.pairing.black))];
            w.opponents.push_back(k.player);
            k.opponents.push_back(w.player);
            ++w.colour_balance;
            w.last_colour = 1;
            --k.colour_balance;
            k.last_colour = -1;
        }
        std::stable_sort(
            ranked.begin(), ranked.end(),
            [](const SwissPlayer& a, const SwissPlayer& b) { return a.score > b.score; });
        auto swiss = swiss_round(ranked);
        if (!swiss) {
            // Every pairing left would repeat one: the tournament ends with what was played.
            t.rounds = round - 1;
            t.status = TournamentStatus::Finished;
            store_.update_tournament(t);
            f.t = t;
            say_at(t.channel,
                   "No pairing without a repeat is left, so " + t.name + " ends after round " +
                       std::to_string(round - 1) + ". Final standings:",
                   score_table(store_, f));
            return;
        }
        pairs = *swiss;
    }

    const rules::Variant* variant = rules::find_variant(t.variant);
    if (variant == nullptr)
        throw std::runtime_error("tournament " + t.name + ": unknown variant " + t.variant);
    auto options = rules::resolve_options(variant->info(), {});
    if (!options)
        throw std::runtime_error("tournament " + t.name + ": " + options.error().message);
    t.current_round = round;
    store_.update_tournament(t);
    store_.start_round(t.id, round, now_);
    const std::string heading =
        t.name + ", round " + std::to_string(round) + " of " + std::to_string(t.rounds);
    std::vector<std::string> lines;
    // Each player hears of their game after the channel has the whole round.
    struct Letter {
        std::int64_t to;
        std::string text;
        std::optional<GameRecord> game;
    };
    std::vector<Letter> letters;
    int board = 0;
    for (const auto& p : pairs) {
        const std::int64_t white = f.players[static_cast<std::size_t>(p.white)];
        PairingRecord rec{t.id, round, ++board, white, std::nullopt, std::nullopt};
        if (p.black == bye) {
            store_.add_pairing(rec);
            const std::string next = std::to_string(round + 1);
            lines.push_back(mention(white) +
                            (f.knockout()      ? " has a bye to round " + next
                             : f.round_robin() ? " sits this round out"
                                               : " has a bye, worth a point") +
                            ".");
            letters.push_back({white,
                               heading + ": you " +
                                   (f.knockout()      ? "have a bye to round " + next
                                    : f.round_robin() ? std::string("sit this round out")
                                                      : std::string("have a bye, worth a point")) +
                                   ".",
                               std::nullopt});
            continue;
        }
        const std::int64_t black = f.players[static_cast<std::size_t>(p.black)];
        GameRecord g;
        g.variant = t.variant;
        g.options = *options;
        g.platform = t.platform;
        g.channel = t.channel;
        g.challenger = white;
        g.challenged = player(black).handle;
        g.challenged_id = black;
        g.challenger_color = "white";
        g.white = white;
        g.black = black;
        g.status = GameStatus::Ongoing;
        g.seed = make_seed();
        g.created_at = now_;
        g.time_control = t.tc.empty() ? s_.settings_.default_time_control : t.tc;
        g.rated = true;
        g.id = store_.create_game(g);
        rec.black = black;
        rec.game_id = g.id;
        store_.add_pairing(rec);
        Loaded l = load(g);
        sync_clocks(l); // the first decision's clock starts now
        lines.push_back(vs_line(l) + " " + next_line(l));
        for (Seat seat : {Seat::White, Seat::Black}) {
            const std::string colour =
                l.info().seat_names[static_cast<std::size_t>(rules::index(seat))];
            letters.push_back({*seated(g, seat),
                               heading + ": you play game #" + std::to_string(g.id) + ", " +
                                   l.info().title + ", as " + colour + " against " +
                                   mention(*seated(g, rules::opponent(seat))) +
                                   ", in the tournament's channel. " + next_line(l),
                               g});
        }
    }
    say_at(t.channel, heading + " (" + variant->info().title + ", " + format_title(t.format) +
                          "):\n" + join(lines, "\n"));
    for (const auto& letter : letters)
        tell(player(letter.to), letter.text, {}, letter.game ? &*letter.game : nullptr);
}

} // namespace ghostpost::bot

namespace ghostpost::bot {

void PostRun::tourney_next(const std::vector<std::string>& args) {
    if (args.size() > 1) {
        usage_error("tourney next", "I did not understand \"" + shorten(args[1]) + "\".");
        return;
    }
    auto t = pick_tournament(args, 0);
    if (!t)
        return;
    if (t->status != TournamentStatus::Running) {
        say(t->name +
            (t->status == TournamentStatus::Open
                 ? " has not started: " + mention(t->creator) + " or a moderator starts it with " +
                       s_.settings_.prefix + "tourney start " + t->name + "."
                 : " is over. " + form("tourney standings") + " shows the final table."));
        return;
    }
    Field f = load_field(store_, *t);
    const bool entrant =
        std::find(f.players.begin(), f.players.end(), author_.id) != f.players.end();
    if (!entrant && t->creator != author_.id && !moderator()) {
        say("Only the players of " + t->name + ", " + mention(t->creator) +
            " who created it, or a moderator can start its next round.");
        return;
    }
    if (!f.round_over(t->current_round)) {
        std::vector<std::string> open;
        for (const Board* b : f.round(t->current_round))
            if (!b->over())
                open.push_back("#" + std::to_string(*b->pairing.game_id));
        say("Round " + std::to_string(t->current_round) + " of " + t->name + " is not over: game" +
            (open.size() == 1 ? " " : "s ") + join(open, ", ") +
            (open.size() == 1 ? " is" : " are") + " under way.");
        return;
    }
    start_round(*t, t->current_round + 1);
}

void PostRun::tourney_pairings(const std::vector<std::string>& args) {
    std::size_t at = 0;
    if (!args.empty() && std::isalpha(static_cast<unsigned char>(args[0][0])))
        at = 1;
    std::optional<int> round;
    if (at < args.size()) {
        auto n = game_id_arg(args[at]);
        if (!n || args[at][0] == '#' || at + 1 < args.size()) {
            usage_error("tourney pairings", "I did not understand \"" + shorten(args[at]) + "\".");
            return;
        }
        round = static_cast<int>(*n);
    }
    auto t = pick_tournament(args, 0);
    if (!t)
        return;
    if (t->current_round == 0) {
        say(t->name + " has no pairings yet: it has not started.");
        return;
    }
    const int r = round.value_or(t->current_round);
    if (r < 1 || r > t->current_round) {
        say(t->name + " has " + plural(t->rounds, "round", "rounds") +
            (r >= 1 && r <= t->rounds ? ": round " + std::to_string(r) + " has not started yet."
                                      : ": there is no round " + std::to_string(r) + ".") +
            " " + form("tourney pairings") + " shows the current one.");
        return;
    }
    Field f = load_field(store_, *t);
    std::vector<std::string> whites, blacks, results;
    std::size_t wide = 0, wide_black = 0;
    for (const Board* b : f.round(r)) {
        whites.push_back(name_of(store_, b->pairing.white));
        if (b->bye()) {
            blacks.emplace_back("bye");
            results.emplace_back();
        } else {
            blacks.push_back(name_of(store_, *b->pairing.black));
            const auto& g = *b->game;
            results.push_back("#" + std::to_string(g.id) + " " +
                              (g.status == GameStatus::Finished  ? g.result
                               : g.status == GameStatus::Ongoing ? std::string("under way")
                                                                 : std::string("aborted")));
        }
        wide = std::max(wide, whites.back().size());
        wide_black = std::max(wide_black, blacks.back().size());
    }
    std::string table;
    for (std::size_t i = 0; i < whites.size(); ++i)
        table += pad(whites[i], wide) + " - " +
                 (results[i].empty() ? blacks[i] + "\n"
                                     : pad(blacks[i], wide_black) + "  " + results[i] + "\n");
    say(t->name + ", round " + std::to_string(r) + " of " + std::to_string(t->rounds) +
            ", White first" +
            (f.round_over(r) ? std::string(", complete:") : std::string(", under way:")),
        table);
}

void PostRun::tourney_standings(const std::vector<std::string>& args) {
    if (args.size() > 1) {
        usage_error("tourney standings", "I did not understand \"" + shorten(args[1]) + "\".");
        return;
    }
    auto t = pick_tournament(args, 0);
    if (!t)
        return;
    Field f = load_field(store_, *t);
    if (t->status == TournamentStatus::Open) {
        say(t->name + " has not started; " +
            plural(static_cast<int>(f.players.size()), "player has", "players have") +
            " entered. " + mention(t->creator) + " or a moderator starts it with " +
            s_.settings_.prefix + "tourney start " + t->name + ".");
        return;
    }
    const bool over = t->status == TournamentStatus::Finished;
    const std::string when =
        over ? std::string("final")
             : (f.round_over(t->current_round) ? "after round " : "during round ") +
                   std::to_string(t->current_round);
    if (f.knockout()) {
        std::int64_t champion = 0;
        std::string table = bracket_table(store_, f, &champion);
        say("Standings of " + t->name + " (knockout, " + when +
                (champion ? "): " + mention(champion) + " wins." : "):"),
            table);
        return;
    }
    say("Standings of " + t->name + " (" + format_title(t->format) + ", " + when +
            "; tie-breaks: " +
            (f.round_robin() ? "Sonneborn-Berger (SB), then Buchholz (BH)"
                             : "Buchholz (BH), then Sonneborn-Berger (SB)") +
            "):",
        score_table(store_, f));
}

void PostRun::tourney_game_over(const GameRecord& g) {
    auto pairing = store_.pairing_of_game(g.id);
    if (!pairing)
        return;
    auto t = store_.tournament(pairing->tournament_id);
    if (!t || t->status != TournamentStatus::Running || pairing->round != t->current_round)
        return;
    Field f = load_field(store_, *t);
    const int r = t->current_round;
    if (!f.round_over(r) || !store_.complete_round(t->id, r, now_))
        return;
    if (r < t->rounds) {
        say_at(t->channel,
               "Round " + std::to_string(r) + " of " + t->name + " is complete. Its players, " +
                   mention(t->creator) + " who created it, or a moderator: " + s_.settings_.prefix +
                   "tourney next " + t->name + " starts round " + std::to_string(r + 1) +
                   ". Standings after round " + std::to_string(r) + ":",
               f.knockout() ? bracket_table(store_, f, nullptr) : score_table(store_, f));
        return;
    }
    t->status = TournamentStatus::Finished;
    store_.update_tournament(*t);
    f.t = *t;
    if (f.knockout()) {
        std::int64_t champion = 0;
        std::string table = bracket_table(store_, f, &champion);
        say_at(t->channel,
               t->name + " is over: " + mention(champion) + " wins. Final standings:", table);
        return;
    }
    auto table = standings(static_cast<int>(f.players.size()), f.played(), f.round_robin());
    const auto& top = table.front();
    const bool tied = table.size() > 1 && table[1].score == top.score;
    say_at(t->channel,
           t->name + " is over: " + mention(f.players[static_cast<std::size_t>(top.player)]) +
               " wins with " + points(top.score) + (top.score == 1.0 ? " point" : " points") +
               (tied ? " on tie-break" : "") + ". Final standings:",
           score_table(store_, f));
}

} // namespace ghostpost::bot
