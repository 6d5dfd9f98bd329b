// Gnostic Chess: the Queen's six spells, each once per side per game (docs/variants/gnostic.md).
#include "gnostic_test_support.h"

using namespace ghostpost::rules;
using test::act;
using test::gnostic;
using test::has;
using test::hp;
using test::said;

namespace {

int count_prefix(const Game& g, Seat seat, const std::string& prefix) {
    int n = 0;
    for (const auto& t : test::texts(g, seat))
        n += t.rfind(prefix, 0) == 0;
    return n;
}

} // namespace

TEST_CASE("Instead of moving, a Queen may cast: the start lists 20 moves and 707 spells",
          "[variant:gnostic]") {
    auto g = gnostic();
    // 16 pieces x 32 empty squares to teleport to; 178 pairs of different pieces to exchange
    // (no pawn onto a first or last rank); 16 enemies to imprison; Shift Time; nothing to heal
    // or revive.
    CHECK(count_prefix(*g, Seat::White, "Teleport ") == 512);
    CHECK(count_prefix(*g, Seat::White, "Exchange ") == 2 * 178); // either order may be typed
    CHECK(count_prefix(*g, Seat::White, "Imprison ") == 16);
    CHECK(count_prefix(*g, Seat::White, "Shift Time") == 1);
    CHECK(count_prefix(*g, Seat::White, "Heal ") == 0);
    CHECK(count_prefix(*g, Seat::White, "Revive ") == 0);
    CHECK(g->perft(1) == 20 + 512 + 178 + 16 + 1);
}

TEST_CASE("Teleport moves an own piece to any empty square, once per side", "[variant:gnostic]") {
    auto g = gnostic();
    CHECK_FALSE(has(*g, Seat::White, "Teleport b1-e8")); // occupied
    CHECK_FALSE(has(*g, Seat::White, "Teleport e2-e7")); // occupied
    CHECK_FALSE(has(*g, Seat::White, "Teleport b2-b8")); // no pawn on a last rank... and occupied
    auto ev = act(*g, Seat::White, "teleport b1 e5");
    CHECK(said(ev) == "White's Queen casts Teleport: the White knight goes from b1 to e5");
    CHECK(hp(*g, "e5") == "N 30/30");
    CHECK(test::seats(*g) == "black"); // the spell was White's move
    // Black's 8 pieces may go to the 31 empty middle squares or b1, its 8 pawns not to b1.
    CHECK(count_prefix(*g, Seat::Black, "Teleport ") == 8 * 32 + 8 * 31);
    act(*g, Seat::Black, "e6");
    CHECK(count_prefix(*g, Seat::White, "Teleport ") == 0);
    CHECK(test::refusal(*g, Seat::White, "Teleport e5-e4") ==
          "Teleport e5-e4 is not possible: you cast Teleport already (each spell once per game)");
    CHECK(g->fen() ==
          "rnbqkbnr/pppp1ppp/4p3/4N3/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 2 track=Bd used=T/-");
}

TEST_CASE("Teleport cannot take an imprisoned piece nor put a pawn on a first or last rank",
          "[variant:gnostic]") {
    auto g = gnostic("4k3/8/8/8/8/8/1P6/3QK1N1 w - - 0 1 jail=g1");
    CHECK(count_prefix(*g, Seat::White, "Teleport g1-") == 0);
    CHECK(has(*g, Seat::White, "Teleport b2-b7"));
    CHECK_FALSE(has(*g, Seat::White, "Teleport b2-a8"));
    CHECK_FALSE(has(*g, Seat::White, "Teleport b2-a1"));
}

TEST_CASE("Heal removes all damage of one own piece", "[variant:gnostic]") {
    auto g = gnostic("4k3/8/8/8/4N3/8/8/3QK3 w - - 0 1 damage=e4:20,e8:50");
    CHECK(has(*g, Seat::White, "Heal e4"));
    CHECK_FALSE(has(*g, Seat::White, "Heal e8")); // not White's piece
    CHECK_FALSE(has(*g, Seat::White, "Heal d1")); // nothing to heal
    auto ev = act(*g, Seat::White, "Heal e4");
    CHECK(said(ev) == "White's Queen casts Heal: the White knight on e4 is healed of 20 damage");
    CHECK(hp(*g, "e4") == "N 30/30");
}

TEST_CASE("Shift Time reverses the track, or jumps from one extreme to the other",
          "[variant:gnostic]") {
    auto g = gnostic();
    auto ev = act(*g, Seat::White, "Shift Time");
    CHECK(said(ev) ==
          "White's Queen casts Shift Time: the track stands at C and now moves toward light (E)");
    ev = act(*g, Seat::Black, "e6");
    CHECK(said(ev) == "e6 | the track moves to D, next toward light (E)");

    auto ex = gnostic("4k3/8/8/8/8/8/8/3QK3 w - - 0 1 track=Al");
    ev = act(*ex, Seat::White, "shift time");
    CHECK(said(ev) ==
          "White's Queen casts Shift Time: the track stands at E and now moves toward dark (A)");
    CHECK(ex->public_view().board().at(*parse_square("e4")).tint == Tint::Light100);
}

TEST_CASE("Exchange swaps any two pieces that are not imprisoned, named in either order",
          "[variant:gnostic]") {
    auto g = gnostic("4k3/8/8/8/3n4/8/8/3QK1N1 w - - 0 1 jail=g1 damage=d4:7");
    CHECK(has(*g, Seat::White, "Exchange d4-e8"));
    CHECK(has(*g, Seat::White, "Exchange e8-d4"));
    CHECK_FALSE(has(*g, Seat::White, "Exchange g1-d4"));
    CHECK(test::refusal(*g, Seat::White, "exchange e1 d4") == "accepted as Exchange e1-d4");
    auto ev = act(*g, Seat::White, "Exchange e1-d4");
    CHECK(
        said(ev) ==
        "White's Queen casts Exchange: the White king and the Black knight change places (e1, d4)");
    CHECK(g->fen() == "4k3/8/8/8/3K4/8/8/3Qn1N1 b - - 1 1 track=Cd used=X/- damage=e1:7 jail=g1");
}

TEST_CASE("Revive returns an own killed piece at full strength next to the Queen",
          "[variant:gnostic]") {
    auto g = gnostic("4k3/8/8/8/8/8/8/3QK3 w - - 0 1 dead=NP/Q damage=d1:40");
    std::vector<std::string> revive;
    for (const auto& t : test::texts(*g, Seat::White))
        if (t.rfind("Revive ", 0) == 0)
            revive.push_back(t);
    CHECK(revive == std::vector<std::string>{"Revive Pc2", "Revive Pd2", "Revive Pe2", "Revive Nc1",
                                             "Revive Nc2", "Revive Nd2", "Revive Ne2"});
    auto ev = act(*g, Seat::White, "revive nc2");
    CHECK(said(ev) == "White's Queen casts Revive: the White knight returns to life on c2");
    CHECK(hp(*g, "c2") == "N 30/30");
    CHECK(g->fen() == "4k3/8/8/8/8/8/2N5/3QK3 b - - 1 1 track=Cd used=R/- dead=P/Q damage=d1:40");
}

TEST_CASE("Imprison holds an enemy piece until the track reaches its owner's extreme",
          "[variant:gnostic]") {
    auto g = gnostic();
    auto ev = act(*g, Seat::White, "Imprison g8");
    CHECK(said(ev) == "White's Queen casts Imprison: the Black knight on g8 is imprisoned until "
                      "the track reaches A");
    CHECK(hp(*g, "g8") == "n 30/30!");
    CHECK_FALSE(has(*g, Seat::Black, "Nf6"));
    CHECK(test::refusal(*g, Seat::Black, "Nf6") ==
          "Nf6 is not possible: the knight on g8 is imprisoned until the track reaches A");
    CHECK_FALSE(has(*g, Seat::Black, "Teleport g8-e5")); // nor may it be teleported
    act(*g, Seat::Black, "e6");                          // track B
    act(*g, Seat::White, "e3");
    ev = act(*g, Seat::Black, "e5"); // track A: Black's own extreme
    CHECK(said(ev) == "e5 | the track moves to A, next toward light (E) | the track reached A: the "
                      "Black knight on g8 is free again");
    act(*g, Seat::White, "e4");
    CHECK(has(*g, Seat::Black, "Nf6"));
}

TEST_CASE("An imprisoned Queen casts no spells, and without a Queen there are none",
          "[variant:gnostic]") {
    auto g = gnostic("3qk3/8/8/8/8/8/8/4K3 b - - 0 1 jail=d8");
    CHECK(test::texts(*g, Seat::Black) == std::vector<std::string>{"Kd7", "Ke7", "Kf7", "Kf8"});
    auto none = gnostic("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    CHECK(test::texts(*none, Seat::White) ==
          std::vector<std::string>{"Kd1", "Kf1", "Kd2", "Ke2", "Kf2"});
}

TEST_CASE("Each spell is cast once per side, whichever Queen casts it", "[variant:gnostic]") {
    auto g = gnostic("3qk3/8/8/8/8/8/8/Q2QK3 w - - 0 1 used=SHXRI/-");
    CHECK(count_prefix(*g, Seat::White, "Teleport ") > 0);
    act(*g, Seat::White, "Teleport a1-a5");
    act(*g, Seat::Black, "Shift Time");
    // No second Teleport from the other Queen; Black still has its own.
    CHECK(count_prefix(*g, Seat::White, "Teleport ") == 0);
    CHECK(count_prefix(*g, Seat::White, "Shift Time") == 0);
    act(*g, Seat::White, "Qa6");
    CHECK(count_prefix(*g, Seat::Black, "Teleport ") > 0);
    CHECK(count_prefix(*g, Seat::Black, "Shift Time") == 0);
}

TEST_CASE("A spell that is well formed but not possible gets the reason", "[variant:gnostic]") {
    auto g = gnostic();
    CHECK(test::refusal(*g, Seat::White, "Heal e4") ==
          "Heal e4 is not possible: Heal needs a damaged piece of yours, and none is damaged");
    CHECK(test::refusal(*g, Seat::White, "Revive Nc3") ==
          "Revive Nc3 is not possible: Revive brings back a killed piece of yours, and none has "
          "been killed");
    CHECK(looks_like_action(*g, Seat::White, "Heal e4"));
    CHECK_FALSE(looks_like_action(*g, Seat::White, "heal me"));
    CHECK_FALSE(looks_like_action(*g, Seat::White, "hold on"));
    act(*g, Seat::White, "Imprison e7");
    CHECK(test::refusal(*g, Seat::White, "Imprison d7") ==
          "it is not your decision now: Black to decide");
    act(*g, Seat::Black, "d6");
    CHECK(test::refusal(*g, Seat::White, "Imprison d7") ==
          "Imprison d7 is not possible: you cast Imprison already (each spell once per game)");
    CHECK(test::refusal(*g, Seat::White, "Imprison e7") ==
          "Imprison e7 is not possible: you cast Imprison already (each spell once per game)");
    CHECK(
        test::refusal(*g, Seat::White, "roll 3") ==
        "roll 3 is not possible: roll answers the dice of a combat, and no combat is being fought");
}

TEST_CASE(
    "Could win: both sides of Gnostic Chess can always still win, since any piece may kill a king",
    "[variant:gnostic]") {
    auto g = gnostic("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1");
    CHECK(g->could_win(Seat::White));
    CHECK(g->could_win(Seat::Black)); // a lone king still fights the other king with dice
}
