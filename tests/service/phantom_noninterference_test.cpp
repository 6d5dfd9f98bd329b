// Issue 15, non-interference: random Phantom Chess games are played twice through
// `ghostpost console`, the two runs differing only in where the Phantoms are. Every public
// reply to every post (the players' moves, peeks and refused probes; a spectator's !board,
// !history and !pgn) and every public image must be the same byte for byte in both runs, except
// the Phantom moves' own texts (announced as the rules say) and refusals, which may be public
// in one run and "refused; the reason was sent to you by direct message" in the other.
#include "../rules/phantom_squares.h"
#include "../storage/temp_path.h"
#include "console_images.h"
#include "ghostpost/rules/notation.h"
#include "ghostpost/rules/registry.h"
#include "ghostpost/variants/pieces.h"

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
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
                std::vector<std::string> squares{
                    Square(static_cast<int>(rng() % 8), static_cast<int>(rng() % 8)).name()};
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
        const auto run0 =
            ghostpost::testing::run_console_keeping_images(input[0], db0.str(), "lobby");
        const auto run1 =
            ghostpost::testing::run_console_keeping_images(input[1], db1.str(), "lobby");
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
    // Probes refused differently (a dispute in one run, played in the other) may be none now
    // that a move is refused first on the mover's own board (issue 32); the generalised test
    // below makes disputes on purpose and lists what they may change.
    CHECK(refused_differently <= 5);
}

namespace {

// What a post of the generalised test is, and so which of its replies may differ between the
// two runs (they differ only in where Black's Phantom is).
enum class PostKind {
    Same,         // everything anyone but Black is told must be the same
    BlackPhantom, // Black's Phantom moved: its announcement is masked, the rest the same
    OwnerCard,    // a peek by White, or White's Phantom moved: White's DM shows Black's card
    Dispute,      // White's move is legal on White's board, refused for Black's Phantom:
                  // the channel hears the same, White's DM gives the card's reason
};

// The replies to each post sent to anyone but Black (the channel, alice, carol), split at the
// separator posts. Black's Phantom moves are masked in every chunk (!history and !pgn list them).
std::vector<std::string> chunks_for_all_but_black(const std::string& output) {
    static const std::regex phantom_text("F@?x?[a-h][1-8]");
    std::vector<std::string> out(1);
    std::istringstream lines(output);
    bool keep = false;
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind(">> ", 0) == 0) {
            if (line == ">> #sep") {
                out.emplace_back();
                keep = false;
                continue;
            }
            keep = line == ">> #lobby" || line == ">> @alice" || line == ">> @carol";
        }
        if (keep)
            out.back() += std::regex_replace(line, phantom_text, "F*") + "\n";
    }
    return out;
}

// The same chunk without alice's direct messages.
std::string without_alice(const std::string& chunk) {
    std::string out;
    std::istringstream lines(chunk);
    bool keep = true;
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind(">> ", 0) == 0)
            keep = line != ">> @alice";
        if (keep)
            out += line + "\n";
    }
    return out;
}

bool seen_reaches(const std::vector<NotatedAction>& seen, const Square& to) {
    return std::any_of(seen.begin(), seen.end(), [&](const NotatedAction& a) {
        return (a.action.kind == ActionKind::Move || a.action.kind == ActionKind::Drop) &&
               a.action.to == to;
    });
}

std::vector<std::string> seen_texts(const Game& g, Seat seat) {
    std::vector<std::string> out;
    for (const auto& a : g.seen_actions(seat))
        out.push_back(a.text);
    return out;
}

} // namespace

// Issue 32, non-interference generalised: posts by both players and a spectator, in the channel
// and by direct message (legal moves, moves illegal on the mover's own board, moves illegal only
// because of the hidden Phantom, peeks, commands), played twice with only Black's Phantom on
// different squares. Everything said to the channel, to White and to the spectator is the same
// byte for byte, except what the rules allow to differ, listed in PostKind.
TEST_CASE("Two Phantom Chess runs that differ only in Black's Phantom tell White and the channel "
          "the same",
          "[bot][leak][variant:phantom][issue32]") {
    std::mt19937 rng(3232);
    NoRandomness no_dice;
    int same = 0, visible_probes = 0, disputes = 0, owner_cards = 0, black_phantom = 0, dms = 0;
    for (int n = 0; n < 3; ++n) {
        std::array<std::unique_ptr<Game>, 2> game{new_phantom_game(), new_phantom_game()};
        std::array<std::string, 2> input;
        for (auto& in : input)
            in = "#lobby alice: !new phantom @bob white\n#lobby bob: !accept\n#sep carol: !games\n";
        std::vector<PostKind> kinds{PostKind::Same};
        auto post = [&](const std::array<std::string, 2>& line, PostKind kind) {
            for (std::size_t r = 0; r < 2; ++r)
                input[r] += line[r] + "\n#sep carol: !games\n";
            kinds.push_back(kind);
        };
        auto both = [&](const std::string& line, PostKind kind) { post({line, line}, kind); };
        auto refused_in_both = [&](Seat seat, const std::string& typed) {
            return !parse_action(*game[0], seat, typed).ok() &&
                   !parse_action(*game[1], seat, typed).ok();
        };
        for (int i = 0; i < 50; ++i) {
            const Seat mover = game[0]->pending().front().seat;
            const bool white = mover == Seat::White;
            const bool dm = rng() % 4 == 0;
            const std::string who = dm ? (white ? "@dm alice: " : "@dm bob: ")
                                       : (white ? "#lobby alice: " : "#lobby bob: ");
            dms += dm;
            const auto roll = rng() % 12;
            if (roll == 0) {
                both(who + "peek", white ? PostKind::OwnerCard : PostKind::Same);
                for (auto& g : game) {
                    auto peek = parse_action(*g, mover, "peek");
                    REQUIRE(peek.ok());
                    (void)g->apply(mover, peek->action, no_dice); // refused with no life left
                }
                continue;
            }
            if (roll == 1) {
                const std::array<std::string, 5> spectator{
                    "#lobby carol: !board", "#lobby carol: !history", "#lobby carol: !pgn",
                    "@dm carol: !board 1", "@dm alice: !board"};
                both(spectator[rng() % spectator.size()], PostKind::Same);
                continue;
            }
            // Black's Phantom: entered and moved on different squares in the two runs.
            std::array<std::vector<NotatedAction>, 2> ph;
            for (std::size_t r = 0; r < 2; ++r)
                for (const auto& a : game[r]->notated_actions(mover))
                    if (a.text[0] == 'F' && quiet(a.text))
                        ph[r].push_back(a);
            if (!white && roll <= 4 && !ph[0].empty() && !ph[1].empty()) {
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
                    post({who + pick[0].text, who + pick[1].text}, PostKind::BlackPhantom);
                    ++black_phantom;
                    continue;
                }
            }
            // A probe; false when the text would be played in some run, or is no probe for
            // this test.
            auto probe = [&]() -> bool {
                // A probe. On the mover's own board both runs look alike for White; for Black
                // (whose own Phantom differs) only probes both runs refuse in public are posted.
                const auto seen = game[0]->seen_actions(mover);
                if (white)
                    REQUIRE(seen_texts(*game[0], mover) == seen_texts(*game[1], mover));
                std::vector<std::string> squares{
                    Square(static_cast<int>(rng() % 8), static_cast<int>(rng() % 8)).name()};
                for (const auto& g : game)
                    for (const auto& sq : phantom_squares(*g))
                        squares.push_back(sq);
                const std::string to = squares[rng() % squares.size()];
                const std::string from = squares[rng() % squares.size()];
                const std::string pieces[] = {"", "N", "B", "R", "Q", "K", "F@", "F"};
                std::string typed;
                PostKind kind = PostKind::Same;
                switch (rng() % 5) {
                case 0:
                    typed = rng() % 2 ? "O-O" : "O-O-O";
                    break;
                case 1:
                    typed = pieces[rng() % 8] + to;
                    break;
                case 2:
                    typed = from + to;
                    break;
                case 3: {
                    // A quiet move on the mover's board written as a capture.
                    std::vector<std::string> quiet_moves;
                    for (const auto& a : seen)
                        if (a.action.kind == ActionKind::Move &&
                            a.action.piece != PieceKind::Pawn &&
                            a.action.piece != pieces::phantom && quiet(a.text) && a.text[0] != 'O')
                            quiet_moves.push_back(strip_annotations(a.text));
                    if (!quiet_moves.empty()) {
                        typed = quiet_moves[rng() % quiet_moves.size()];
                        typed.insert(typed.size() - 2, "x");
                    }
                    break;
                }
                default:
                    // A move White sees as legal: a dispute where Black's Phantom forbids it.
                    if (!seen.empty()) {
                        typed = seen[rng() % seen.size()].text;
                        kind = PostKind::Dispute;
                    }
                }
                if (typed.empty() || !refused_in_both(mover, typed))
                    return false; // played in some run: not a probe
                if (kind == PostKind::Same && white) {
                    // Illegal on White's board for sure: no move White sees goes there.
                    const auto parts = parse_syntax(typed);
                    if (parts && parts->castle == 0 && seen_reaches(seen, parts->to) &&
                        typed.find('x') == std::string::npos)
                        return false;
                    if (parts && parts->castle != 0 &&
                        std::any_of(seen.begin(), seen.end(), [&](const auto& a) {
                            return strip_annotations(a.text) ==
                                   (parts->castle == 1 ? "O-O" : "O-O-O");
                        }))
                        return false;
                }
                if (!white) {
                    if (kind == PostKind::Dispute)
                        return false;
                    bool hidden = false;
                    for (const auto& g : game)
                        hidden = hidden ||
                                 !parse_action(*g, mover, typed).error().private_detail.empty();
                    if (hidden)
                        return false; // Black's own Phantom is the reason: Black's business
                }
                both(who + typed, kind);
                (kind == PostKind::Dispute ? disputes : visible_probes) += 1;
                return true;
            };
            if (roll <= 8 && probe())
                continue;
            // A move with the same text in both runs that leaves both games under way.
            std::vector<NotatedAction> common;
            const auto other = game[1]->notated_actions(mover);
            for (const auto& a : game[0]->notated_actions(mover)) {
                if (a.text[0] == 'F' && !white)
                    continue;
                const bool same_move = std::any_of(other.begin(), other.end(), [&](const auto& b) {
                    return b.text == a.text && b.action == a.action;
                });
                if (!same_move)
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
            both(who + chosen.text, chosen.text[0] == 'F' ? PostKind::OwnerCard : PostKind::Same);
        }

        ghostpost::testing::TempPath db0("phantom-ni2-a"), db1("phantom-ni2-b");
        const auto run0 =
            ghostpost::testing::run_console_keeping_images(input[0], db0.str(), "lobby");
        const auto run1 =
            ghostpost::testing::run_console_keeping_images(input[1], db1.str(), "lobby");
        const auto out0 = chunks_for_all_but_black(run0.output);
        const auto out1 = chunks_for_all_but_black(run1.output);
        REQUIRE(out0.size() == kinds.size() + 1);
        REQUIRE(out1.size() == out0.size());
        for (std::size_t i = 0; i + 1 < out0.size(); ++i) {
            INFO("game " << n << " post " << i << "\nrun A:\n" << out0[i] << "run B:\n" << out1[i]);
            switch (kinds[i]) {
            case PostKind::Same:
            case PostKind::BlackPhantom:
                CHECK(out0[i] == out1[i]);
                same += out0[i] == out1[i];
                break;
            case PostKind::OwnerCard:
            case PostKind::Dispute:
                CHECK(without_alice(out0[i]) == without_alice(out1[i]));
                owner_cards += kinds[i] == PostKind::OwnerCard;
                break;
            }
        }
        CHECK(out0.back() == out1.back());
    }
    CHECK(same > 100);
    CHECK(visible_probes > 10);
    CHECK(black_phantom > 5);
    CHECK(owner_cards > 3);
    CHECK(dms > 20);
    WARN("disputes posted: " << disputes);
}
