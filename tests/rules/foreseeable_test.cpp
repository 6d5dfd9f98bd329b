// Game::foreseeable, which the service's conditional moves (!forecast) rely on: a line checked
// when it is stored must play out later exactly as checked, so no seat may know more than the
// other and no die may decide anything.
#include "chess_test_support.h"
#include "ghostpost/rules/registry.h"

#include <random>

using namespace ghostpost::rules;

TEST_CASE("Only the variants without hidden pieces or dice can be foreseen", "[rules][forecast]") {
    std::vector<std::string> foreseeable, not_foreseeable;
    for (const Variant* v : variants()) {
        auto g = test::start(v->info().name);
        (g->foreseeable() ? foreseeable : not_foreseeable).push_back(v->info().name);
    }
    CHECK(foreseeable ==
          std::vector<std::string>{"chess", "giveaway", "ghostarelay", "ghost", "haunted"});
    CHECK(not_foreseeable == std::vector<std::string>{"phantom", "gnostic"});
}

TEST_CASE("In a foreseeable position every seat sees the public board and nothing rolls dice",
          "[rules][forecast]") {
    // Random games in every variant: wherever the game says it can be foreseen, the claim is
    // checked against what it shows each seat; a die drawn there would throw (NoRandomness).
    std::mt19937 gen(21);
    NoRandomness no_dice;
    for (const Variant* v : variants()) {
        for (int game = 0; game < 5; ++game) {
            auto g = test::start(v->info().name);
            if (!g->foreseeable())
                continue;
            for (int ply = 0; ply < 80 && !g->pending().empty(); ++ply) {
                REQUIRE(g->foreseeable());
                const BoardView shown = g->public_view().board();
                CHECK(g->seat_view(Seat::White).board() == shown);
                CHECK(g->seat_view(Seat::Black).board() == shown);
                const Seat seat = g->pending().front().seat;
                const auto actions = g->notated_actions(seat);
                REQUIRE_FALSE(actions.empty());
                const auto& a =
                    actions[std::uniform_int_distribution<std::size_t>(0, actions.size() - 1)(gen)];
                REQUIRE(g->apply(seat, a.action, no_dice).ok());
            }
        }
    }
}

TEST_CASE("A Phantom Chess game cannot be foreseen at any point", "[rules][forecast]") {
    auto g = test::start("phantom");
    NoRandomness no_dice;
    for (const char* move : {"e4", "e5", "Nf3"}) {
        CHECK_FALSE(g->foreseeable());
        auto parsed = parse_action(*g, g->pending().front().seat, move);
        REQUIRE(parsed.ok());
        REQUIRE(g->apply(g->pending().front().seat, parsed->action, no_dice).ok());
    }
    CHECK_FALSE(g->foreseeable());
}
