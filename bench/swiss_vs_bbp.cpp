// ghostpost's Dutch system against bbpPairings, round by round: random Swiss events (random
// field sizes and round counts, random results, some games voided by a moderator and so unplayed
// for both, as "counts for nobody" makes them) are paired by swiss_round(), written as FIDE TRF
// files and handed to `bbpPairings --dutch <file> -c`, which pairs every round again from the
// ones before it and lists each round whose pairings differ from the file's. Prints the rounds
// compared and every difference, with the file kept for a look.
//
//   build/release/bench/swiss_vs_bbp <bbpPairings> [events] [first seed] [voided per mille] [dir]
//                                    [keep]
//
// bbpPairings is not a Debian package: build it from its sources by hand (README, "Benchmarks").
#include "ghostpost/league/pairing.h"
#include "ghostpost/league/trf.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <vector>

using namespace ghostpost::bot;

namespace {

struct Event {
    int players = 0, rounds = 0, paired = 0;
    std::string trf;
};

Event play(unsigned seed, int voided_per_mille) {
    std::mt19937 rng(seed);
    Event e;
    e.players = 5 + static_cast<int>(rng() % 36);
    e.rounds = 3 + static_cast<int>(rng() % 7);
    if (e.rounds >= e.players)
        e.rounds = e.players - 1;
    const Colour initial = rng() % 2 == 0 ? Colour::White : Colour::Black;
    std::vector<std::vector<SwissRoundEntry>> history;
    std::vector<std::vector<std::string>> cells(static_cast<std::size_t>(e.players));
    std::vector<double> points(static_cast<std::size_t>(e.players), 0);
    for (int round = 1; round <= e.rounds; ++round) {
        SwissRound r;
        r.round = round;
        r.rounds = e.rounds;
        r.initial_colour = initial;
        r.players = swiss_players(e.players, history);
        const auto boards = swiss_round(r);
        if (!boards)
            break;
        ++e.paired;
        std::vector<SwissRoundEntry> entries;
        for (const auto& b : *boards) {
            auto& wc = cells[static_cast<std::size_t>(b.white)];
            if (b.black == bye) {
                entries.push_back({b.white, bye, Colour::None, 1.0, true, b.white_float});
                wc.push_back(trf::cell(0, '-', 'U'));
                points[static_cast<std::size_t>(b.white)] += 1;
                continue;
            }
            auto& bc = cells[static_cast<std::size_t>(b.black)];
            if (static_cast<int>(rng() % 1000) < voided_per_mille) {
                entries.push_back({b.white, b.black, Colour::None, 0.0});
                entries.push_back({b.black, b.white, Colour::None, 0.0});
                wc.push_back(trf::cell(b.black + 1, 'w', '-'));
                bc.push_back(trf::cell(b.white + 1, 'b', '-'));
                continue;
            }
            const auto dice = rng() % 20;
            const double w = dice < 8 ? 1.0 : dice < 13 ? 0.5 : 0.0;
            entries.push_back({b.white, b.black, Colour::White, w, false, b.white_float});
            entries.push_back({b.black, b.white, Colour::Black, 1.0 - w, false, b.black_float});
            points[static_cast<std::size_t>(b.white)] += w;
            points[static_cast<std::size_t>(b.black)] += 1.0 - w;
            const char mark = w == 1.0 ? '1' : w == 0.0 ? '0' : '=';
            const char other = w == 1.0 ? '0' : w == 0.0 ? '1' : '=';
            wc.push_back(trf::cell(b.black + 1, 'w', mark));
            bc.push_back(trf::cell(b.white + 1, 'b', other));
        }
        history.push_back(entries);
    }
    e.trf = "012 bench " + std::to_string(seed) + "\n062 " + std::to_string(e.players) + "\n";
    for (int p = 0; p < e.players; ++p)
        e.trf += trf::player_line(p + 1, "p" + std::to_string(p + 1),
                                  points[static_cast<std::size_t>(p)], p + 1,
                                  cells[static_cast<std::size_t>(p)]) +
                 "\n";
    e.trf += "XXR " + std::to_string(e.rounds) + "\n";
    e.trf += std::string("XXC ") + (initial == Colour::White ? "white1" : "black1") + "\n";
    return e;
}

std::string run(const std::string& command) {
    std::string out;
    if (FILE* pipe = popen(command.c_str(), "r")) {
        std::array<char, 4096> buffer;
        while (std::fgets(buffer.data(), static_cast<int>(buffer.size()), pipe))
            out += buffer.data();
        pclose(pipe);
    }
    return out;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr,
                     "usage: %s <bbpPairings> [events] [first seed] [voided per mille] "
                     "[dir] [keep]\n",
                     argv[0]);
        return 2;
    }
    const std::string bbp = argv[1];
    const int events = argc > 2 ? std::atoi(argv[2]) : 200;
    const unsigned first = argc > 3 ? static_cast<unsigned>(std::atoi(argv[3])) : 1;
    const int voided = argc > 4 ? std::atoi(argv[4]) : 40;
    const std::string dir = argc > 5 ? argv[5] : "/tmp";
    const bool keep = argc > 6 && std::string(argv[6]) == "keep"; // the files that agree, too
    long rounds = 0, differing = 0, events_differing = 0;
    for (int i = 0; i < events; ++i) {
        const unsigned seed = first + static_cast<unsigned>(i);
        const Event e = play(seed, voided);
        rounds += e.paired;
        const std::string path = dir + "/swiss-" + std::to_string(seed) + ".trf";
        std::ofstream(path) << e.trf;
        const std::string out = run(bbp + " --dutch " + path + " -c 2>&1");
        // A round that differs prints its pairings side by side under "Checker pairings".
        long here = 0;
        for (const char* mark : {"Checker pairings", "No valid pairing"})
            for (std::size_t at = 0; (at = out.find(mark, at)) != std::string::npos; ++at)
                ++here;
        if (here > 0) {
            differing += here;
            ++events_differing;
            std::printf("seed %u (%d players, %d rounds): %s", seed, e.players, e.rounds,
                        out.c_str());
        } else if (!keep) {
            std::remove(path.c_str());
        }
    }
    std::printf("%d events, %ld rounds compared, %ld rounds differ in %ld events (voided games: "
                "%d per mille)\n",
                events, rounds, differing, events_differing, voided);
    return 0;
}
