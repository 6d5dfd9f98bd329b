// The engine's cost per position searched (issue #40): for a fixed set of FIDE chess positions,
// the engine and Stockfish each search the same number of positions, and the CPU time of each
// is compared; then level 8's CPU time per move in every variant the engine plays.
//
//   engine_nodes [--nodes N] [--repeat R] [--stockfish PATH|none]
//                [--part chess|levels|all|fingerprint] [--variant all|<name>] [--level L]
//
// Chess part: the engine searches N positions (250,000, level 8's budget) with no wall-clock
// cap; Stockfish (Threads 1, Hash 16, a new game before each position) is given `go nodes N`.
// Times are CPU seconds: the engine's process clock around choose(), and Stockfish's process
// clock (clock_getcpuclockid on its pid) around `go`, less the same for `go nodes 1` (reading
// the position, starting and stopping its search). Each figure is the least of R runs (3). The
// ratio is the engine's CPU over Stockfish's, for the positions' totals.
//
// Levels part: positions of seeded random play (plies 8, 24 and 40 of three games, or the first
// after each where the engine searches: not a combat's dice, answered at once, nor the answer
// to a secret choice) in each
// variant, each searched at the level (8) with the variant's budget and no wall-clock cap, from
// the seat to decide as the service gives it (its view and the public record); the median and
// the greatest CPU seconds per move.
//
// Fingerprint part (not in "all"): the engine's choice, score, depth and positions searched at
// the level in positions of every variant, to compare two builds that should search alike.
#include "engine_table.h"
#include "ghostpost/engine/engine.h"
#include "ghostpost/rules/registry.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
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

double cpu_seconds(clockid_t clock) {
    timespec ts{};
    clock_gettime(clock, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

double load_average() {
    double load[1] = {0};
    return getloadavg(load, 1) == 1 ? load[0] : -1;
}

struct Position {
    const char* name;
    const char* fen;
};

// The start, Kiwipete (perft's busiest position) and middlegames of common openings.
const Position positions[] = {
    {"start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
    {"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3P4/1p2P3/2N2Q1P/PPPB1PP1/R2QK2R w KQkq - 0 1"},
    {"italian", "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w KQkq - 1 5"},
    {"dragon", "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 3 9"},
    {"qgd", "r2q1rk1/pp1nbppp/2p1pn2/3p4/2PP1B2/2N1PN2/PPQ2PPP/R3KB1R w KQ - 2 9"},
    {"endgame", "8/5pk1/6p1/3R4/p6P/r5P1/5PK1/8 b - - 3 42"},
};

// Stockfish over UCI on a pipe, timed by its process's CPU clock.
class Uci {
public:
    explicit Uci(const std::string& path) {
        start_child(path, pid_, to_, from_);
        if (clock_getcpuclockid(pid_, &clock_) != 0)
            throw std::runtime_error("no CPU clock for stockfish's process");
        send("uci");
        wait_for("uciok");
        send("setoption name Threads value 1");
        send("setoption name Hash value 16");
        send("isready");
        wait_for("readyok");
    }
    ~Uci() {
        send("quit");
        fclose(to_);
        fclose(from_);
        waitpid(pid_, nullptr, 0);
    }
    Uci(const Uci&) = delete;
    Uci& operator=(const Uci&) = delete;

    struct Searched {
        double seconds = 0;
        int depth = 0;
        std::uint64_t nodes = 0;
    };
    // Searches `fen` for `nodes` positions from a new game; CPU seconds of the `go` alone.
    Searched search(const std::string& fen, std::uint64_t nodes) {
        send("ucinewgame");
        send("position fen " + fen);
        send("isready");
        wait_for("readyok");
        Searched s;
        const double start = cpu_seconds(clock_);
        send("go nodes " + std::to_string(nodes));
        char buf[8192];
        while (std::fgets(buf, sizeof buf, from_)) {
            const std::string line(buf);
            if (line.starts_with("bestmove")) {
                s.seconds = cpu_seconds(clock_) - start;
                return s;
            }
            // "info depth 12 seldepth 17 ... nodes 250123 ...": the last depth started.
            if (line.starts_with("info depth ")) {
                s.depth = std::stoi(line.substr(11));
                if (const auto at = line.find(" nodes "); at != std::string::npos)
                    s.nodes = std::stoull(line.substr(at + 7));
            }
        }
        throw std::runtime_error("stockfish stopped");
    }

private:
    void send(const std::string& s) {
        std::fputs((s + "\n").c_str(), to_);
        std::fflush(to_);
    }
    void wait_for(const std::string& prefix) {
        char buf[8192];
        while (std::fgets(buf, sizeof buf, from_))
            if (std::string(buf).starts_with(prefix))
                return;
        throw std::runtime_error("stockfish stopped");
    }
    pid_t pid_ = 0;
    FILE* to_ = nullptr;
    FILE* from_ = nullptr;
    clockid_t clock_{};
};

struct Searched {
    double seconds = 0;
    int depth = 0;
    std::uint64_t nodes = 0;
    std::string move;
    int score = 0;
};

// The engine searching `fen` (chess) for `nodes` positions, as the service would ask it.
Searched ours(const std::string& fen, std::uint64_t nodes) {
    const rules::Variant& chess = *rules::find_variant("chess");
    auto game = std::move(chess.start({}, fen).value());
    const Seat seat = game->pending().front().seat;
    engine::PublicRecord record{"chess", game->options(), fen, {}, {}};
    engine::Limits limits{64, nodes, 0, 0};
    const double start = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID);
    auto choice = engine::choose(game->seat_view(seat), record, limits, 1);
    Searched s;
    s.seconds = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID) - start;
    if (!choice)
        throw std::runtime_error("the engine had nothing to choose");
    s.depth = choice->depth;
    s.nodes = choice->nodes;
    s.move = choice->action.text;
    s.score = choice->score;
    return s;
}

void chess_part(std::uint64_t nodes, int repeat, const std::string& stockfish) {
    std::printf("chess, %llu positions searched each, least CPU of %d runs (load average %.2f)\n",
                static_cast<unsigned long long>(nodes), repeat, load_average());
    std::printf("%-10s %9s %6s %8s %6s %6s  %9s %6s %8s  %6s\n", "position", "ours s", "depth",
                "knodes", "move", "score", "sf s", "depth", "knodes", "ratio");
    // "none": the engine alone (for a profiler).
    auto uci = stockfish == "none" ? nullptr : std::make_unique<Uci>(stockfish);
    double total_ours = 0, total_sf = 0;
    for (const auto& p : positions) {
        Searched best{1e9, 0, 0, {}, 0};
        for (int r = 0; r < repeat; ++r) {
            auto s = ours(p.fen, nodes);
            if (s.seconds < best.seconds)
                best = s;
        }
        Uci::Searched sf{1e9, 0, 0};
        double startup = 1e9;
        for (int r = 0; uci && r < repeat; ++r) {
            startup = std::min(startup, uci->search(p.fen, 1).seconds);
            auto s = uci->search(p.fen, nodes);
            if (s.seconds < sf.seconds)
                sf = s;
        }
        sf.seconds = uci ? std::max(1e-6, sf.seconds - startup) : 1e-6;
        total_ours += best.seconds;
        total_sf += sf.seconds;
        std::printf("%-10s %9.3f %6d %8.1f %6s %6d  %9.3f %6d %8.1f  %6.2f\n", p.name, best.seconds,
                    best.depth, static_cast<double>(best.nodes) / 1000, best.move.c_str(),
                    best.score, sf.seconds, sf.depth, static_cast<double>(sf.nodes) / 1000,
                    best.seconds / sf.seconds);
        std::fflush(stdout);
    }
    std::printf("%-10s %9.3f %6s %8s %6s  %9.3f %6s %8s  %6.2f  (ours / Stockfish, CPU)\n", "total",
                total_ours, "", "", "", total_sf, "", "", total_ours / total_sf);
}

void level_part(int level, const std::string& only) {
    std::printf("level %d, CPU seconds per move, no wall-clock cap (load average %.2f)\n", level,
                load_average());
    for (const auto* v : rules::variants()) {
        const std::string name = v->info().name;
        if (only != "all" && only != name)
            continue;
        engine::Limits limits;
        try {
            limits = engine::limits_for_level(level, name);
        } catch (const std::invalid_argument&) {
            continue; // a variant the engine does not play
        }
        limits.max_seconds = 0;
        limits.lapse = 0; // the searching moves, not the lapses, are what is measured
        std::vector<double> times;
        double depth = 0, knodes = 0;
        for (std::uint64_t g = 0; g < 3; ++g) {
            Table t(*v, 77 + g);
            std::mt19937_64 rng(g);
            int next = 8; // the next ply to measure; a move answered without search waits
            for (int ply = 0; next <= 40 && ply < 60 && !t.game->outcome().over(); ++ply) {
                const Seat seat = t.game->pending().front().seat;
                if (ply >= next && !t.hidden_choice()) {
                    const double start = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID);
                    auto choice =
                        engine::choose(t.game->seat_view(seat), t.known_to(seat), limits, g);
                    const double spent = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID) - start;
                    if (choice && choice->nodes > 0) {
                        times.push_back(spent);
                        depth += choice->depth;
                        knodes += static_cast<double>(choice->nodes) / 1000;
                        next += 16;
                    }
                }
                auto actions = t.game->notated_actions(seat);
                t.play(seat, actions[rng() % actions.size()]);
            }
        }
        if (times.empty())
            continue;
        auto sorted = times;
        std::sort(sorted.begin(), sorted.end());
        const double median = sorted.size() % 2 == 1
                                  ? sorted[sorted.size() / 2]
                                  : (sorted[sorted.size() / 2 - 1] + sorted[sorted.size() / 2]) / 2;
        const auto n = static_cast<double>(times.size());
        std::printf("%-12s %2zu positions  median %.3f s  max %.3f s  depth %.1f avg  %.0f "
                    "knodes/move\n",
                    name.c_str(), times.size(), median, sorted.back(), depth / n, knodes / n);
        std::fflush(stdout);
    }
}

// What the engine chose, scored and searched at `level` in positions of every variant: two
// builds that search the same trees print the same lines (a speed change must not change them).
void fingerprint_part(int level, const std::string& only) {
    for (const auto* v : rules::variants()) {
        const std::string name = v->info().name;
        if (only != "all" && only != name)
            continue;
        engine::Limits limits;
        try {
            limits = engine::limits_for_level(level, name);
        } catch (const std::invalid_argument&) {
            continue;
        }
        limits.max_seconds = 0;
        for (std::uint64_t g = 0; g < 2; ++g) {
            Table t(*v, 77 + g);
            std::mt19937_64 rng(g);
            for (int ply = 0; ply <= 30 && !t.game->outcome().over(); ++ply) {
                const Seat seat = t.game->pending().front().seat;
                if (ply % 10 == 5 && !t.hidden_choice()) {
                    auto c = engine::choose(t.game->seat_view(seat), t.known_to(seat), limits,
                                            g + static_cast<std::uint64_t>(ply));
                    std::printf("%s game %llu ply %d: %s score %d depth %d nodes %llu\n",
                                name.c_str(), static_cast<unsigned long long>(g), ply,
                                c ? c->action.text.c_str() : "-", c ? c->score : 0,
                                c ? c->depth : 0,
                                static_cast<unsigned long long>(c ? c->nodes : 0));
                }
                auto actions = t.game->notated_actions(seat);
                t.play(seat, actions[rng() % actions.size()]);
            }
        }
    }
}

} // namespace

int main(int argc, char** argv) {
    std::uint64_t nodes = 250'000;
    int repeat = 3;
    int level = 8;
    std::string stockfish = "/usr/games/stockfish";
    std::string part = "all";
    std::string variant = "all";
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string k = argv[i], v = argv[i + 1];
        if (k == "--nodes")
            nodes = std::stoull(v);
        else if (k == "--repeat")
            repeat = std::max(1, std::stoi(v));
        else if (k == "--stockfish")
            stockfish = v;
        else if (k == "--part")
            part = v;
        else if (k == "--variant")
            variant = v;
        else if (k == "--level")
            level = std::stoi(v);
        else {
            std::cerr << "unknown option " << k << "\n";
            return 2;
        }
    }
    if (argc % 2 == 0) {
        std::cerr << "option " << argv[argc - 1] << " needs a value\n";
        return 2;
    }
    if (part == "all" || part == "chess")
        chess_part(nodes, repeat, stockfish);
    if (part == "all" || part == "levels")
        level_part(level, variant);
    if (part == "fingerprint")
        fingerprint_part(level, variant);
    return 0;
}
