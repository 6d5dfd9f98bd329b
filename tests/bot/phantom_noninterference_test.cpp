// Issue 15, non-interference: random Phantom Chess games are played twice through
// `ghostpost console`, the two runs differing only in where the Phantoms are. Every public
// reply to every post (the players' moves, peeks and refused probes; a spectator's !board,
// !history and !pgn) and every public image must be the same byte for byte in both runs, except
// the Phantom moves' own texts (announced as the rules say) and refusals, which may be public
// in one run and "refused; the reason was sent to you by direct message" in the other.
#include "../storage/temp_path.h"
#include "../rules/phantom_squares.h"
#include "console_images.h"

#include "ghostpost/rules/notation.h"
#include "ghostpost/rules/registry.h"

#include <catch2/catch.hpp>

#include <array>
#include <cstdlib>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

using namespace ghostpost::rules;

namespace {

std::unique_ptr<Game> new_phantom_game() {
    auto started = find_variant("phantom")->start({});
    REQUIRE(started.ok());
    return std::move(*started);
}

using ghostpost::test::phantom_squares;

// Neither a capture nor a check: a Phantom move that changes nothing else the channel sees.
bool quiet(const std::string& text) {
    return text.find_first_of("x+#") == std::string::npos;
}

// The public replies to each post, split at the separator posts; a Phantom move's text is
// masked (F@e4, Fd5 -> F*), since the two runs announce their own.
std::vector<std::string> public_chunks(const std::string& output) {
    static const std::regex phantom_text("F@?x?[a-h][1-8]");
    std::vector<std::string> out(1);
    std::istringstream lines(output);
    bool pub = false;
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind(">> ", 0) == 0) {
            if (line == ">> #sep") {
                out.emplace_back();
                pub = false;
                continue;
            }
            pub = line == ">> #lobby";
        }
        if (pub)
            out.back() += std::regex_replace(line, phantom_text, "F*") + "\n";
    }
    return out;
}

} // namespace

TEST_CASE("Two Phantom Chess runs that differ only in where the Phantoms are look the same to "
          "the channel",
          "[bot][leak][variant:phantom]") {
    std::mt19937 rng(1515);
    NoRandomness no_dice;
    int compared = 0, phantom_moves = 0, probes = 0, refused_differently = 0;
    for (int n = 0; n < 4; ++n) {
        std::array<std::unique_ptr<Game>, 2> game{new_phantom_game(), new_phantom_game()};
        std::array<std::string, 2> input;
        for (auto& in : input)
            in = "#lobby mod: !channel settings images=on\n#lobby carol: !settings images=on\n"
                 "#lobby alice: !new phantom @bob white\n#lobby bob: !accept\n#sep carol: !games\n";
        std::vector<bool> probe_post{false};
        auto post = [&](const std::array<std::string, 2>& line, bool probe) {
            for (std::size_t r = 0; r < 2; ++r)
                input[r] += line[r] + "\n#sep carol: !games\n";
            probe_post.push_back(probe);
        };
        for (int i = 0; i < 45; ++i) {
            const Seat mover = game[0]->pending().front().seat;
            const std::string who = mover == Seat::White ? "#lobby alice: " : "#lobby bob: ";
            const auto roll = rng() % 10;
            if (roll == 0) {
                post({who + "peek", who + "peek"}, false);
                std::array<bool, 2> spent{};
                for (std::size_t r = 0; r < 2; ++r) {
                    auto peek = parse_action(*game[r], mover, "peek");
                    REQUIRE(peek.ok());
                    spent[r] = game[r]->apply(mover, peek->action, no_dice).ok(); // no life left
                }
                REQUIRE(spent[0] == spent[1]);
                continue;
            }
            if (roll == 1) {
                const std::array<std::string, 3> spectator{"!board", "!history", "!pgn"};
                const std::string line = "#lobby carol: " + spectator[rng() % 3];
                post({line, line}, false);
                continue;
            }
            // Quiet Phantom actions of each run, chosen independently: that is where they differ.
            std::array<std::vector<NotatedAction>, 2> ph;
            for (std::size_t r = 0; r < 2; ++r)
                for (const auto& a : game[r]->notated_actions(mover))
                    if (a.text[0] == 'F' && quiet(a.text))
                        ph[r].push_back(a);
            if (roll <= 3 && !ph[0].empty() && !ph[1].empty()) {
                std::array<NotatedAction, 2> pick{ph[0][rng() % ph[0].size()],
                                                  ph[1][rng() % ph[1].size()]};
                bool ok = true;
                for (std::size_t r = 0; r < 2 && ok; ++r) {
                    auto trial = game[r]->clone();
                    ok = trial->apply(mover, pick[r].action, no_dice).ok() &&
                         !trial->outcome().over();
                }
                if (ok) {
                    for (std::size_t r = 0; r < 2; ++r)
                        REQUIRE(game[r]->apply(mover, pick[r].action, no_dice).ok());
                    post({who + pick[0].text, who + pick[1].text}, false);
                    ++phantom_moves;
                    continue;
                }
            }
            if (roll <= 5) {
                // A probe at a square where a Phantom of either run stands, refused in both runs.
                std::vector<std::string> squares{Square(static_cast<int>(rng() % 8),
                                                        static_cast<int>(rng() % 8)).name()};
                for (const auto& g : game)
                    for (const auto& sq : phantom_squares(*g))
                        squares.push_back(sq);
                const std::string pieces[] = {"", "N", "B", "R", "Q", "K", "F@"};
                const std::string typed = pieces[rng() % 7] + squares[rng() % squares.size()];
                const bool refused0 = !parse_action(*game[0], mover, typed).ok();
                const bool refused1 = !parse_action(*game[1], mover, typed).ok();
                if (refused0 && refused1) {
                    post({who + typed, who + typed}, true);
                    ++probes;
                    continue;
                }
            }
            // A move with the same text in both runs that leaves both games under way.
            std::vector<NotatedAction> common;
            const auto other = game[1]->notated_actions(mover);
            for (const auto& a : game[0]->notated_actions(mover)) {
                if (a.text[0] == 'F')
                    continue;
                const bool same = std::any_of(other.begin(), other.end(), [&](const auto& b) {
                    return b.text == a.text && b.action == a.action;
                });
                if (!same)
                    continue;
                bool ongoing = true;
                for (const auto& g : game) {
                    auto trial = g->clone();
                    ongoing = ongoing && trial->apply(mover, a.action, no_dice).ok() &&
                              !trial->outcome().over();
                }
                if (ongoing)
                    common.push_back(a);
            }
            if (common.empty())
                break;
            const NotatedAction chosen = common[rng() % common.size()];
            for (auto& g : game)
                REQUIRE(g->apply(mover, chosen.action, no_dice).ok());
            post({who + chosen.text, who + chosen.text}, false);
        }

        ghostpost::testing::TempPath db0("phantom-ni-a"), db1("phantom-ni-b");
        const auto run0 = ghostpost::testing::run_console_keeping_images(input[0], db0.str(), "lobby");
        const auto run1 = ghostpost::testing::run_console_keeping_images(input[1], db1.str(), "lobby");
        const auto out0 = public_chunks(run0.output);
        const auto out1 = public_chunks(run1.output);
        REQUIRE(out0.size() == probe_post.size() + 1);
        REQUIRE(out1.size() == out0.size());
        for (std::size_t i = 0; i < out0.size(); ++i) {
            if (out0[i] == out1[i]) {
                ++compared;
                continue;
            }
            INFO("game " << n << " post " << i << "\nrun A:\n" << out0[i] << "run B:\n" << out1[i]);
            REQUIRE(i < probe_post.size()); // chunk i answers post i; chunk 0, the setup
            REQUIRE(probe_post[i]);
            const std::string refused = "refused; the reason was sent to you by direct message";
            CHECK((out0[i].find(refused) != std::string::npos ||
                   out1[i].find(refused) != std::string::npos));
            ++refused_differently;
        }
        CHECK(run0.images == run1.images);
        CHECK(run0.images.size() > 10); // alice's and carol's boards
    }
    CHECK(compared > 150);
    CHECK(phantom_moves > 10);
    CHECK(probes > 10);
    CHECK(refused_differently > 0); // public in one run, private in the other (5 here)
}
