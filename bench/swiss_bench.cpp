// How long the Dutch system takes to pair a Swiss round: random events of N players over R
// rounds (results at random, a third of the games drawn), each round paired from the field as
// it stands. Prints the median and the slowest round per field size.
//
//   build/release/bench/swiss_bench [rounds] [events] [players...]
#include "ghostpost/league/pairing.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

using namespace ghostpost::bot;

namespace {

// Pairs every round of one event; returns the milliseconds each round took.
std::vector<double> event(int players, int rounds, unsigned seed) {
    std::mt19937 rng(seed);
    std::vector<std::vector<SwissRoundEntry>> history;
    std::vector<double> times;
    for (int round = 1; round <= rounds; ++round) {
        SwissRound r;
        r.round = round;
        r.rounds = rounds;
        r.players = swiss_players(players, history);
        const auto start = std::chrono::steady_clock::now();
        const auto boards = swiss_round(r);
        const auto stop = std::chrono::steady_clock::now();
        times.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
        if (!boards)
            break;
        std::vector<SwissRoundEntry> entries;
        for (const auto& b : *boards) {
            if (b.black == bye) {
                entries.push_back({b.white, bye, Colour::None, 1.0, true, b.white_float});
                continue;
            }
            const auto dice = rng() % 3;
            const double w = dice == 0 ? 1.0 : dice == 1 ? 0.5 : 0.0;
            entries.push_back({b.white, b.black, Colour::White, w, false, b.white_float});
            entries.push_back({b.black, b.white, Colour::Black, 1.0 - w, false, b.black_float});
        }
        history.push_back(entries);
    }
    return times;
}

} // namespace

int main(int argc, char** argv) {
    const int rounds = argc > 1 ? std::atoi(argv[1]) : 9;
    const int events = argc > 2 ? std::atoi(argv[2]) : 5;
    std::vector<int> sizes;
    for (int i = 3; i < argc; ++i)
        sizes.push_back(std::atoi(argv[i]));
    if (sizes.empty())
        sizes = {10, 30, 60, 100};
    std::printf("%8s %8s %8s %12s %12s\n", "players", "rounds", "events", "median ms",
                "slowest ms");
    for (int n : sizes) {
        std::vector<double> all;
        for (int e = 0; e < events; ++e) {
            const auto t = event(n, rounds, 1000U + static_cast<unsigned>(e));
            all.insert(all.end(), t.begin(), t.end());
        }
        std::sort(all.begin(), all.end());
        std::printf("%8d %8d %8d %12.1f %12.1f\n", n, rounds, events, all[all.size() / 2],
                    all.back());
    }
    return 0;
}
