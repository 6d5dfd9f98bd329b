// Strength matches of the engine (issue #23): every variant at level 8 against a random mover
// and against a one-ply greedy player, each level against the level below, and FIDE chess
// against Stockfish at a Skill Level (0 unless --skill) over UCI; and the engine's speed per level.
//
//   engine_match --match random|greedy|ladder|stockfish|speed [--variant all|<name>]
//                [--games N] [--first G] [--level L] [--pair N] [--opening PLIES]
//                [--max-plies P] [--seconds S] [--show] [--stockfish PATH] [--skill N]
//
// Game g has the seed 1000 + g; the engine is White in even games. Each level searches its
// budget of positions with no wall-clock cap (unless --seconds gives one), so a run plays the
// same games on any machine under any load, and a match split with --first plays the same
// games as the whole; Stockfish alone (Skill Level uses the clock) varies. Engine against
// engine (ladder, stockfish), each pair of games starts from the same --opening plies (4 unless
// given) chosen at random among sound moves, colours swapped. A game still running after
// --max-plies actions (300) is a draw. Times are CPU seconds of the engine's thread, which the
// machine's load does not inflate. One line per match; --show adds every game's actions.
//
// The engine is given only its seat's view and the public record, as in the service.
#include "engine_table.h"
#include "ghostpost/engine/engine.h"
#include "ghostpost/rules/notation.h"
#include "ghostpost/rules/registry.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <functional>
#include <iostream>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace ghostpost;
using bench::Dice;
using bench::start_child;
using bench::Table;
using rules::Seat;

namespace {

using Player = std::function<rules::NotatedAction(Table&, Seat)>;

struct Stats {
    double seconds = 0; // CPU time of the engine's thread: what the machine's load does not change
    int moves = 0;
    double max_seconds = 0;
    std::uint64_t nodes = 0;
};

double thread_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

Player engine_player(engine::Limits limits, std::uint64_t seed, Stats* stats) {
    return [=](Table& t, Seat seat) {
        const double start = thread_seconds();
        auto choice = engine::choose(t.game->seat_view(seat), t.known_to(seat), limits,
                                     seed + static_cast<std::uint64_t>(t.record.actions.size()));
        const double s = thread_seconds() - start;
        if (stats) {
            stats->seconds += s;
            stats->max_seconds = std::max(stats->max_seconds, s);
            ++stats->moves;
            stats->nodes += choice ? choice->nodes : 0;
        }
        if (!choice)
            throw std::runtime_error("the engine had nothing to choose");
        // Phantom Chess: the engine names the move on the board it sees; the game reads it so.
        auto parsed = rules::parse_action(*t.game, seat, choice->action.text);
        if (!parsed)
            throw std::runtime_error("the engine's text does not read: " + choice->action.text);
        return *parsed;
    };
}

Player random_player(std::uint64_t seed) {
    auto rng = std::make_shared<std::mt19937_64>(seed);
    return [rng](Table& t, Seat seat) {
        auto actions = t.game->notated_actions(seat);
        return actions[(*rng)() % actions.size()];
    };
}

// Material of `us` minus the other side's, as the board shows it (own pieces counted negative
// in the giveaway family, where losing them is the aim).
int material(const rules::BoardView& b, Seat us, bool giveaway) {
    int score = 0;
    for (const auto& cell : b.cells)
        for (const auto& f : cell.figures) {
            int v = 1;
            switch (f.piece.kind) {
            case rules::PieceKind::Pawn:
                v = 1;
                break;
            case rules::PieceKind::Knight:
            case rules::PieceKind::Bishop:
                v = 3;
                break;
            case rules::PieceKind::Rook:
                v = 5;
                break;
            case rules::PieceKind::Queen:
                v = 9;
                break;
            case rules::PieceKind::King:
                v = giveaway ? 1 : 0;
                break;
            default:
                v = 3;
                break;
            }
            if (f.style == rules::FigureStyle::Pale || f.style == rules::FigureStyle::PaleLit)
                v = 0;
            if (giveaway)
                v = 1;
            score += f.piece.seat == us ? v : -v;
        }
    return giveaway ? -score : score;
}

// One ply: the action after which its material count is best (a win is best of all), ties
// broken at random.
Player greedy_player(std::uint64_t seed) {
    auto rng = std::make_shared<std::mt19937_64>(seed);
    return [rng](Table& t, Seat seat) {
        const bool giveaway = t.record.variant == "giveaway" || t.record.variant == "ghostarelay";
        auto actions = t.game->notated_actions(seat);
        std::shuffle(actions.begin(), actions.end(), *rng);
        int best = -1'000'000;
        rules::NotatedAction chosen = actions.front();
        for (const auto& a : actions) {
            auto next = t.game->clone();
            Dice dice((*rng)());
            if (!next->apply(seat, a.action, dice))
                continue;
            int score = material(next->final_view().board(), seat, giveaway);
            const auto o = next->outcome();
            if (o.over() && o.status != rules::Status::Draw)
                score = ((o.status == rules::Status::WhiteWins) == (seat == Seat::White))
                            ? 1'000'000
                            : -1'000'000;
            if (score > best) {
                best = score;
                chosen = a;
            }
        }
        return chosen;
    };
}

// Stockfish over UCI on a pipe.
class Uci {
public:
    explicit Uci(const std::string& path, int skill) {
        start_child(path, pid_, to_, from_);
        send("uci");
        wait_for("uciok");
        send("setoption name Skill Level value " + std::to_string(skill));
        send("setoption name Threads value 1");
        send("isready");
        wait_for("readyok");
    }
    ~Uci() {
        send("quit");
        fclose(to_);
        fclose(from_);
        waitpid(pid_, nullptr, 0);
    }
    std::string best(const std::vector<std::string>& moves, int millis) {
        std::string position = "position startpos";
        if (!moves.empty()) {
            position += " moves";
            for (const auto& m : moves)
                position += " " + m;
        }
        send(position);
        send("go movetime " + std::to_string(millis));
        // "bestmove e2e4 ponder e7e5", or without the ponder move when none follows.
        const std::string line = wait_for("bestmove");
        return line.substr(9, line.find_first_of(" \r\n", 9) - 9);
    }

private:
    void send(const std::string& s) {
        std::fputs((s + "\n").c_str(), to_);
        std::fflush(to_);
    }
    std::string wait_for(const std::string& prefix) {
        char buf[4096];
        while (std::fgets(buf, sizeof buf, from_)) {
            std::string line(buf);
            if (line.starts_with(prefix))
                return line;
        }
        throw std::runtime_error("stockfish stopped");
    }
    pid_t pid_ = 0;
    FILE* to_ = nullptr;
    FILE* from_ = nullptr;
};

std::string uci_text(const rules::Action& a) {
    std::string s = a.from.name() + a.to.name();
    if (a.promotion != rules::PieceKind::None)
        s += static_cast<char>(std::tolower(rules::piece_letter(a.promotion)));
    return s;
}

Player stockfish_player(std::shared_ptr<Uci> uci, int millis) {
    return [uci, millis](Table& t, Seat seat) {
        std::vector<std::string> moves;
        // The record's texts as UCI moves: replayed on a fresh game to read their squares.
        auto replay = rules::find_variant("chess")->start({});
        rules::NoRandomness none;
        for (const auto& a : t.record.actions) {
            auto parsed = rules::parse_action(**replay, a.seat, a.text);
            moves.push_back(uci_text(parsed->action));
            (void)(*replay)->apply(a.seat, parsed->action, none);
        }
        const std::string best = uci->best(moves, millis);
        for (const auto& a : t.game->notated_actions(seat))
            if (uci_text(a.action) == best)
                return a;
        std::string line;
        for (const auto& m : moves)
            line += " " + m;
        throw std::runtime_error("stockfish's move is not legal here: " + best + " after" + line);
    };
}

struct Options {
    std::string match = "random";
    std::string variant = "all";
    int games = 10;
    int first = 0; // the first game's number: a match split over processes plays its parts
    int level = 8;
    int pair = 0;       // ladder: only level pair+1 against level pair (0: every pair)
    double seconds = 0; // a wall-clock cap per move; 0 (the default) searches the level's budget
    int max_plies = 300;
    bool show = false; // print each game's actions and result
    // Engine against engine: the first plies of each pair of games are chosen at random among
    // the moves a shallow search finds sound, the same for both games of the pair with colours
    // swapped, so that a deterministic engine does not play one game fifty times.
    int opening = 0;
    std::string stockfish = "/usr/games/stockfish";
    int skill = 0; // Stockfish's Skill Level (0-20)
};

double result_of(const rules::Game& g) {
    const auto o = g.outcome();
    return o.status == rules::Status::WhiteWins   ? 1.0
           : o.status == rules::Status::BlackWins ? 0.0
                                                  : 0.5;
}

// 1 for a White win, 0.5 for a draw, 0 for a Black win.
double play_game(const rules::Variant& v, Player white, Player black, std::uint64_t seed,
                 std::uint64_t opening_seed, const Options& o) {
    Table t(v, seed);
    const engine::Limits sound{2, 3'000, 0, 60};
    for (int ply = 0; ply < o.opening && !t.game->outcome().over(); ++ply) {
        const Seat seat = t.game->pending().front().seat;
        auto choice = engine::choose(t.game->seat_view(seat), t.known_to(seat), sound,
                                     opening_seed * 131 + static_cast<std::uint64_t>(ply));
        if (!choice)
            break;
        auto parsed = rules::parse_action(*t.game, seat, choice->action.text);
        if (!parsed)
            throw std::runtime_error("the opening's text does not read: " + choice->action.text);
        t.play(seat, *parsed);
    }
    for (int ply = static_cast<int>(t.record.actions.size());
         ply < o.max_plies && !t.game->outcome().over(); ++ply) {
        const Seat seat = t.game->pending().front().seat;
        t.play(seat, (seat == Seat::White ? white : black)(t, seat));
    }
    if (o.show) {
        std::string line;
        for (const auto& a : t.record.actions)
            line += (line.empty() ? "" : " ") + a.text;
        const auto out = t.game->outcome();
        std::printf("  [%s] %s {%s}\n", out.over() ? out.reason.c_str() : "adjudicated draw",
                    line.c_str(),
                    result_of(*t.game) == 1.0   ? "1-0"
                    : result_of(*t.game) == 0.0 ? "0-1"
                                                : "1/2");
    }
    return result_of(*t.game);
}

// Plays games first..first+games-1 of the engine (Player made by `ours`) against `theirs`,
// colours alternating (even games the engine is White), and prints the engine's score.
void match(const rules::Variant& v, const std::string& label, const Options& o,
           const std::function<Player(std::uint64_t, Stats*)>& ours,
           const std::function<Player(std::uint64_t)>& theirs) {
    double score = 0;
    int wins = 0, draws = 0, losses = 0;
    double as_white = 0;
    int white_games = 0;
    Stats stats;
    for (int g = o.first; g < o.first + o.games; ++g) {
        const std::uint64_t seed = 1000 + static_cast<std::uint64_t>(g);
        const bool white = g % 2 == 0;
        const std::uint64_t opening = 5000 + static_cast<std::uint64_t>(g / 2);
        const double r =
            white ? play_game(v, ours(seed, &stats), theirs(seed * 7), seed, opening, o)
                  : 1.0 - play_game(v, theirs(seed * 7), ours(seed, &stats), seed, opening, o);
        score += r;
        if (white) {
            as_white += r;
            ++white_games;
        }
        (r == 1.0 ? wins : r == 0.0 ? losses : draws) += 1;
        if (o.show)
            std::printf("  game %d: engine %s, scores %.1f\n", g, white ? "White" : "Black", r);
        std::fflush(stdout);
    }
    std::printf("%-12s %-26s games %3d-%-3d +%d =%d -%d  score %5.1f %% (as White %.1f of %d)  "
                "engine %.2f s/move avg, %.2f s max (CPU), %.0f knodes/s\n",
                v.info().name.c_str(), label.c_str(), o.first, o.first + o.games - 1, wins, draws,
                losses, 100.0 * score / o.games, as_white, white_games,
                stats.moves ? stats.seconds / stats.moves : 0.0, stats.max_seconds,
                stats.seconds > 0 ? static_cast<double>(stats.nodes) / stats.seconds / 1000 : 0.0);
    std::fflush(stdout);
}

// The engine's speed: positions of seeded random play (8, 24 and 48 plies in, 4 games), each
// searched at `level` from the side to decide; CPU seconds and nodes per move.
void speed(const rules::Variant& v, const engine::Limits& limits, int level) {
    Stats stats;
    int depth = 0;
    for (std::uint64_t game = 0; game < 4; ++game) {
        Table t(v, 77 + game);
        std::mt19937_64 rng(game);
        for (int ply = 0; ply < 48 && !t.game->outcome().over(); ++ply) {
            const Seat seat = t.game->pending().front().seat;
            if (ply == 8 || ply == 24 || ply == 47) {
                const double start = thread_seconds();
                auto choice =
                    engine::choose(t.game->seat_view(seat), t.known_to(seat), limits, game);
                const double s = thread_seconds() - start;
                stats.seconds += s;
                stats.max_seconds = std::max(stats.max_seconds, s);
                ++stats.moves;
                if (choice) {
                    stats.nodes += choice->nodes;
                    depth += choice->depth;
                }
            }
            auto actions = t.game->notated_actions(seat);
            t.play(seat, actions[rng() % actions.size()]);
        }
    }
    std::printf("%-12s level %d: %2d positions, %.2f s/move avg, %.2f s max (CPU), depth %.1f "
                "avg, %.0f knodes/move, %.0f knodes/s\n",
                v.info().name.c_str(), level, stats.moves, stats.seconds / stats.moves,
                stats.max_seconds, static_cast<double>(depth) / stats.moves,
                static_cast<double>(stats.nodes) / stats.moves / 1000,
                static_cast<double>(stats.nodes) / stats.seconds / 1000);
    std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv) {
    Options o;
    bool opening_given = false;
    for (int i = 1; i < argc; ++i) {
        const std::string k = argv[i];
        if (k == "--show") {
            o.show = true;
            continue;
        }
        if (i + 1 >= argc) {
            std::cerr << "option " << k << " needs a value\n";
            return 2;
        }
        const std::string v = argv[++i];
        if (k == "--match")
            o.match = v;
        else if (k == "--variant")
            o.variant = v;
        else if (k == "--games")
            o.games = std::stoi(v);
        else if (k == "--first")
            o.first = std::stoi(v);
        else if (k == "--level")
            o.level = std::stoi(v);
        else if (k == "--pair")
            o.pair = std::stoi(v);
        else if (k == "--seconds")
            o.seconds = std::stod(v);
        else if (k == "--max-plies")
            o.max_plies = std::stoi(v);
        else if (k == "--opening") {
            o.opening = std::stoi(v);
            opening_given = true;
        } else if (k == "--stockfish")
            o.stockfish = v;
        else if (k == "--skill")
            o.skill = std::stoi(v);
        else {
            std::cerr << "unknown option " << k << "\n";
            return 2;
        }
    }
    if (!opening_given && (o.match == "ladder" || o.match == "stockfish"))
        o.opening = 4;
    // Without --seconds the bench searches each level's budget to its end, so a seed gives the
    // same games on any machine under any load; the daemon's wall-clock cap is not applied.
    auto limits = [&](int level, const rules::Variant& v) {
        auto l = engine::limits_for_level(level, v.info().name);
        l.max_seconds = o.seconds;
        return l;
    };
    std::vector<const rules::Variant*> list;
    for (const auto* v : rules::variants())
        if (o.variant == "all" || v->info().name == o.variant)
            list.push_back(v);
    for (const auto* v : list) {
        const auto level = o.level;
        auto ours = [&](std::uint64_t seed, Stats* s) {
            return engine_player(limits(level, *v), seed, s);
        };
        if (o.match == "random")
            match(*v, "level " + std::to_string(level) + " vs random", o, ours, random_player);
        else if (o.match == "greedy")
            match(*v, "level " + std::to_string(level) + " vs greedy", o, ours, greedy_player);
        else if (o.match == "ladder")
            for (int n = 1; n < 8; ++n) {
                if (o.pair != 0 && n != o.pair)
                    continue;
                match(
                    *v, "level " + std::to_string(n + 1) + " vs level " + std::to_string(n), o,
                    [&, n](std::uint64_t seed, Stats* s) {
                        return engine_player(limits(n + 1, *v), seed, s);
                    },
                    [&, n](std::uint64_t seed) {
                        return engine_player(limits(n, *v), seed, nullptr);
                    });
            }
        else if (o.match == "stockfish" && v->info().name == "chess") {
            auto uci = std::make_shared<Uci>(o.stockfish, o.skill);
            match(*v,
                  "level " + std::to_string(level) + " vs Stockfish skill " +
                      std::to_string(o.skill),
                  o, ours, [&](std::uint64_t) { return stockfish_player(uci, 1000); });
        } else if (o.match == "speed")
            speed(*v, limits(level, *v), level);
    }
    return 0;
}
