#include "chess_test_support.h"
#include "ghostpost/rules/notation.h"

// The debug build checks every invariant at every node (is_consistent in Position::perft), so
// the suite runs each position only up to depths of at most this many nodes; the release
// binary reaches the deeper figures in the same file (`ghostpost perft`).
constexpr std::uint64_t node_budget = 700'000;

TEST_CASE("Perft counts match Stockfish for the reference positions", "[chess][perft]") {
    auto cases = test::read_perft_file(GHOSTPOST_TEST_DATA "/perft/chess.epd");
    REQUIRE(cases.size() == 13);
    for (const auto& c : cases) {
        auto game = test::start("chess", c.fen);
        for (auto [depth, nodes] : c.counts) {
            if (nodes > node_budget)
                break;
            INFO(c.name << " depth " << depth);
            CHECK(game->perft(depth) == nodes);
        }
    }
}

TEST_CASE("Every legal move's SAN parses back to the same move", "[chess][notation]") {
    auto cases = test::read_perft_file(GHOSTPOST_TEST_DATA "/perft/chess.epd");
    for (const auto& c : cases) {
        auto game = test::start("chess", c.fen);
        const auto seat = game->pending().front().seat;
        const auto actions = game->notated_actions(seat);
        REQUIRE(actions.size() == c.counts.front().second);
        for (const auto& a : actions) {
            INFO(c.name << ": " << a.text);
            auto parsed = ghostpost::rules::parse_action(*game, seat, a.text);
            REQUIRE(parsed.ok());
            CHECK(parsed->action == a.action);
            CHECK(parsed->text == a.text);
        }
        // One ply deeper too, so that the other side's moves round-trip as well.
        ghostpost::rules::NoRandomness no_dice;
        for (const auto& first : actions) {
            auto next = game->clone();
            REQUIRE(next->apply(seat, first.action, no_dice).ok());
            if (next->pending().empty())
                continue;
            const auto other = next->pending().front().seat;
            for (const auto& a : next->notated_actions(other)) {
                auto parsed = ghostpost::rules::parse_action(*next, other, a.text);
                INFO(c.name << ": " << first.text << " " << a.text);
                REQUIRE(parsed.ok());
                CHECK(parsed->action == a.action);
            }
        }
    }
}

TEST_CASE("A pawn pinned on a diagonal next to its king may not step off the pin's line",
          "[chess][perft]") {
    // The bishop on f1 pins e2 to the king on d3 along f1-e2-d3: e3 and e4 would both leave
    // the king in check. The line through king and pinner once joined the north-east ray to
    // the south-east one, which let the pawn go to e4 (on the king's other diagonal).
    auto white = test::start("chess", "4k3/8/8/8/8/3K4/4P3/5b2 w - - 0 1");
    CHECK(white->perft(1) == 7); // the king's c2 d2 c3 e3 c4 d4 e4
    std::vector<std::string> moves;
    for (const auto& a : white->notated_actions(ghostpost::rules::Seat::White))
        moves.push_back(a.text);
    std::sort(moves.begin(), moves.end());
    CHECK(moves == std::vector<std::string>{"Kc2", "Kc3", "Kc4", "Kd2", "Kd4", "Ke3", "Ke4"});
    // The same for Black, mirrored.
    auto black = test::start("chess", "5B2/4p3/3k4/8/8/8/8/4K3 b - - 0 1");
    CHECK(black->perft(1) == 7);
}
