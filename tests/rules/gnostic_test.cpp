// Gnostic Chess: one test per clause of the seed and per decision in docs/variants/gnostic.md
// (board, track, hit points, combat, check, end of the game, draws, notation).
#include "gnostic_test_support.h"

using namespace ghostpost::rules;
using test::act;
using test::Faces;
using test::gnostic;
using test::hp;
using test::said;

TEST_CASE("Gnostic Chess is registered as gnostic and starts from the FIDE position",
          "[variant:gnostic]") {
    auto g = gnostic();
    CHECK(g->info().title == "Gnostic Chess");
    CHECK(g->fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 track=Cd");
    CHECK(test::seats(*g) == "white");
    CHECK(g->pending().front().what == "move");
}

TEST_CASE("The square map reads its first printed row as rank 8: fixed squares keep their "
          "chequer colour and starred squares follow the track",
          "[variant:gnostic]") {
    auto g = gnostic();
    const BoardView b = g->public_view().board();
    CHECK(b.at(*parse_square("a1")).tint == Tint::Dark100);  // B
    CHECK(b.at(*parse_square("b1")).tint == Tint::Neutral);  // *
    CHECK(b.at(*parse_square("f1")).tint == Tint::Light100); // W
    CHECK(b.at(*parse_square("a8")).tint == Tint::Light100); // W
    CHECK(b.at(*parse_square("h8")).tint == Tint::Dark100);  // B
    CHECK(b.at(*parse_square("e4")).tint == Tint::Neutral);
    int light = 0, dark = 0, variable = 0;
    for (const Cell& c : b.cells) {
        light += c.tint == Tint::Light100;
        dark += c.tint == Tint::Dark100;
        variable += c.tint == Tint::Neutral;
    }
    CHECK(light == 16);
    CHECK(dark == 16);
    CHECK(variable == 32);
    // Every fixed square has the ordinary chequer colour (a1 dark).
    for (int r = 0; r < 8; ++r)
        for (int f = 0; f < 8; ++f) {
            const Tint t = b.at(Square(f, r)).tint;
            if (t != Tint::Neutral)
                CHECK((t == Tint::Dark100) == ((f + r) % 2 == 0));
        }
}

TEST_CASE("The track starts at C, moves toward dark after each full round, and bounces at the ends",
          "[variant:gnostic]") {
    auto g = gnostic();
    CHECK(test::notes(g->public_view().board()) == "Track: C, moving toward dark (A)");
    auto ev = act(*g, Seat::White, "Nf3");
    CHECK(said(ev) == "Nf3"); // no step after White alone
    ev = act(*g, Seat::Black, "Nf6");
    CHECK(said(ev) == "Nf6 | the track moves to B, next toward dark (A)");
    CHECK(g->public_view().board().at(*parse_square("e4")).tint == Tint::Dark75);
    test::play(*g, "Ng1 Ng8");
    CHECK(test::notes(g->public_view().board()) == "Track: A, moving toward light (E)");
    CHECK(g->public_view().board().at(*parse_square("e4")).tint == Tint::Dark100);
    std::string seen;
    for (int i = 0; i < 6; ++i) {
        test::play(*g, i % 2 ? "Ng1 Ng8" : "Nf3 Nf6");
        seen += test::notes(g->public_view().board()).substr(7, 1);
    }
    CHECK(seen == "BCDEDC");
    CHECK(g->public_view().board().at(*parse_square("e4")).tint == Tint::Neutral);
}

TEST_CASE("Hit points are 10 x value times the table's multiplier: stronger on the own colour",
          "[variant:gnostic]") {
    auto g = gnostic();
    CHECK(hp(*g, "b1") == "N 30/30");   // neutral
    CHECK(hp(*g, "a1") == "R 25/25");   // a light piece on 100% dark: x0.5
    CHECK(hp(*g, "h1") == "R 100/100"); // on 100% light: x2
    CHECK(hp(*g, "a8") == "r 25/25");   // a dark piece on 100% light: x0.5
    CHECK(hp(*g, "h8") == "r 100/100"); // on 100% dark: x2
    CHECK(hp(*g, "e1") == "K 100/100");
    CHECK(hp(*g, "d8") == "q 90/90");
    CHECK(hp(*g, "c1") == "B 15/15");
    CHECK(hp(*g, "b2") == "P 5/5");
    test::play(*g, "Nf3 Nf6");        // track B: starred squares are 75% dark
    CHECK(hp(*g, "c2") == "P 8/8");   // x0.75, halves rounded up
    CHECK(hp(*g, "c7") == "p 15/15"); // x1.5
    CHECK(hp(*g, "f3") == "N 60/60"); // f3 is a fixed light square
    CHECK(hp(*g, "f6") == "n 60/60"); // f6 is a fixed dark square
}

TEST_CASE("The seed's worked example is not followed: the multiplier table decides",
          "[variant:gnostic]") {
    // "a white pawn attacks a black knight on a 100% dark square": by the table the knight has
    // 60 hit points and the pawn 5, not 15 and 20 as the example says.
    auto g = gnostic("4k3/8/5n2/4P3/8/8/8/4K3 w - - 0 1");
    auto ev = act(*g, Seat::White, "exf6");
    CHECK(said(ev).rfind("exf6 | combat on f6: the White pawn (5 HP) needs 60 points, the Black "
                         "knight (60 HP) needs 5",
                         0) == 0);
}

TEST_CASE("A move onto an enemy piece starts a combat in which both owners must choose",
          "[variant:gnostic]") {
    auto g = gnostic("4k3/8/8/4p3/8/5N2/8/4K3 w - - 0 1");
    CHECK(test::has(*g, Seat::White, "Nxe5"));
    auto ev = act(*g, Seat::White, "Nxe5");
    // The pawn has one legal answer at the start of its turn, roll 1: it is made at once, and
    // told only to its owner like any first choice (issue 32, correspondence pace).
    CHECK(said(ev) == "Nxe5 | combat on e5: the White knight (30 HP) needs 10 points, the Black "
                      "pawn (10 HP) needs 30 | "
                      "[black] roll 1, the only choice of your pawn, in the combat on e5; it is "
                      "revealed when the other "
                      "side has chosen");
    CHECK(test::seats(*g) == "white");
    CHECK(g->pending()[0].what ==
          "choose by direct message the dice of their knight in the combat on e5: roll 1 to roll 3 "
          "(it has 0 banked + 0 this turn of 10)");
    CHECK(test::texts(*g, Seat::White) == std::vector<std::string>{"roll 1", "roll 2", "roll 3"});
    CHECK(test::texts(*g, Seat::Black).empty());
    // Two knights both have a choice to make: both owners must choose.
    auto k = gnostic("4k3/8/8/4n3/8/5N2/8/4K3 w - - 0 1");
    act(*k, Seat::White, "Nxe5");
    CHECK(test::seats(*k) == "white black");
    // Nothing moved yet: the knight waits on f3 for the outcome.
    CHECK(hp(*g, "f3") == "N 60/60");
    CHECK(hp(*g, "e5") == "p 10/10");
}

TEST_CASE("The first choice of a combat round stays private until both have chosen",
          "[variant:gnostic]") {
    auto g = gnostic("4k3/8/8/4n3/8/5N2/8/4K3 w - - 0 1");
    act(*g, Seat::White, "Nxe5");
    Faces dice{4, 5, 2, 6};
    auto first = act(*g, Seat::White, "roll 3", dice);
    REQUIRE(first.size() == 1);
    CHECK(first[0].only_for == Seat::White);
    CHECK(first[0].text ==
          "you chose roll 3 in the combat on e5; it is revealed when the other side has chosen");
    CHECK(dice.used() == 0);
    CHECK(test::seats(*g) == "black");
    const std::string channel = test::notes(g->public_view().board());
    CHECK(channel.find("roll 3") == std::string::npos);
    CHECK(channel.find("White knight 0 banked + 0 of 30 (has chosen)") != std::string::npos);
    CHECK(test::notes(g->seat_view(Seat::White).board()).find("your choice: roll 3") !=
          std::string::npos);
    CHECK(test::notes(g->seat_view(Seat::Black).board()).find("roll 3") == std::string::npos);
    CHECK(test::refusal(*g, Seat::White, "roll 2").rfind("it is not your decision now", 0) == 0);

    auto second = act(*g, Seat::Black, "roll 1", dice);
    CHECK(
        said(second) ==
        "combat on e5, round 1: White rolls 3 dice, Black rolls 1 die | "
        "combat on e5, round 1: the White knight rolls 4 5 2 = 11: 0 banked + 11 this turn of 30 | "
        "combat on e5, round 1: the Black knight rolls 6 = 6: 0 banked + 6 this turn of 30");
    for (const auto& e : second)
        CHECK_FALSE(e.only_for);
}

TEST_CASE("The winning attacker takes the square and keeps the loser's points as damage",
          "[variant:gnostic]") {
    auto g = gnostic("4k3/8/8/4p3/8/5N2/8/4K3 w - - 0 1");
    act(*g, Seat::White, "Nxe5");
    Faces dice{4, 5, 2, 6};
    act(*g, Seat::White, "roll 3", dice); // the pawn's roll 1 was made for it
    CHECK(hp(*g, "f3") == "-");
    CHECK(hp(*g, "e5") == "N 24/30"); // 30 on the neutral e5, minus the pawn's 6
    CHECK(test::seats(*g) == "black");
    CHECK(g->fen() == "4k3/8/8/4N3/8/8/8/4K3 b - - 0 1 track=Cd dead=-/P damage=e5:6");
}

TEST_CASE("Any die showing 1 loses the turn's points and ends that fighter's turn",
          "[variant:gnostic]") {
    auto g = gnostic("4k3/8/8/4p3/8/5N2/8/4K3 w - - 0 1");
    act(*g, Seat::White, "Nxe5");
    Faces dice{6, 1, 6, 5, 3};
    auto ev = act(*g, Seat::White, "roll 3", dice); // the pawn's roll 1 was made for it
    CHECK(said(ev) ==
          "combat on e5, round 1: White rolls 3 dice, Black rolls 1 die | "
          "combat on e5, round 1: the White knight rolls 6 1 6, a 1 loses the turn: 0 banked + 0 "
          "this turn of 10 | "
          "combat on e5, round 1: the Black pawn rolls 5 = 5: 0 banked + 5 this turn of 30");
    // The knight's turn is over; the pawn rolls on alone.
    CHECK(test::seats(*g) == "black");
    CHECK(test::texts(*g, Seat::Black) == std::vector<std::string>{"roll 1", "hold"});
    ev = act(*g, Seat::Black, "roll 1", dice);
    CHECK(said(ev) ==
          "combat on e5, round 2: Black rolls 1 die | "
          "combat on e5, round 2: the Black pawn rolls 3 = 3: 0 banked + 8 this turn of 30");
}

TEST_CASE("Holding banks the turn total; when both turns are over a new turn begins for both",
          "[variant:gnostic]") {
    auto g = gnostic("4k3/8/8/4p3/8/5N2/8/4K3 w - - 0 1");
    act(*g, Seat::White, "Nxe5");
    Faces dice{2, 2, 2, 4, 3, 3, 3};
    act(*g, Seat::White, "roll 3", dice); // knight 6, pawn 4 (its roll 1 made for it)
    CHECK(test::refusal(*g, Seat::White, "hold") == "accepted as hold");
    act(*g, Seat::White, "hold", dice);
    auto ev = act(*g, Seat::Black, "roll 1", dice);
    CHECK(said(ev) ==
          "combat on e5, round 2: White holds, Black rolls 1 die | "
          "combat on e5, round 2: the White knight holds: 6 banked + 0 this turn of 10 | "
          "combat on e5, round 2: the Black pawn rolls 3 = 3: 0 banked + 7 this turn of 30");
    CHECK(test::seats(*g) == "black");
    ev = act(*g, Seat::Black, "hold", dice);
    // A new turn: both choose again, and nobody may hold with nothing this turn, so the
    // pawn's only choice is made for it.
    CHECK(said(ev) == "combat on e5, round 3: Black holds | "
                      "combat on e5, round 3: the Black pawn holds: 7 banked + 0 this turn of 30 | "
                      "[black] roll 1, the only choice of your pawn, in the combat on e5; it is "
                      "revealed when the other side has chosen");
    CHECK(test::seats(*g) == "white");
    CHECK(test::texts(*g, Seat::Black).empty());
    ev = act(*g, Seat::White, "roll 1", dice);
    CHECK(said(ev) ==
          "combat on e5, round 4: White rolls 1 die, Black rolls 1 die | "
          "combat on e5, round 4: the White knight rolls 3 = 3: 6 banked + 3 this turn of 10 | "
          "combat on e5, round 4: the Black pawn rolls 3 = 3: 7 banked + 3 this turn of 30");
}

TEST_CASE("When the defender reaches its target first the attacker dies and the defender stays",
          "[variant:gnostic]") {
    auto g = gnostic("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1");
    act(*g, Seat::White, "exd5"); // the pawn's roll 1 is made for it
    Faces dice{3, 4, 4, 4};
    auto ev = act(*g, Seat::Black, "roll 3", dice);
    CHECK(said(ev).find(
              "the Black knight wins the combat on d5 and kills the attacking White pawn") !=
          std::string::npos);
    CHECK(hp(*g, "e4") == "-");
    CHECK(hp(*g, "d5") == "n 27/30"); // the pawn's 3 unbanked points count as damage
    CHECK(g->fen() == "4k3/8/8/3n4/8/8/8/4K3 b - - 0 1 track=Cd dead=P/- damage=d5:3");
}

TEST_CASE("When both reach their targets in the same round both pieces die", "[variant:gnostic]") {
    auto g = gnostic("4k3/8/8/4p3/8/5N2/8/4K3 w - - 0 1 damage=f3:25");
    auto start = act(*g, Seat::White, "Nxe5");
    CHECK(said(start).rfind("Nxe5 | combat on e5: the White knight (5 HP) needs 10 points, the "
                            "Black pawn (10 HP) needs 5",
                            0) == 0);
    Faces dice{6, 6, 6, 5};
    auto ev = act(*g, Seat::White, "roll 3", dice); // the pawn's roll 1 was made for it
    CHECK(said(ev).find(
              "the combat on e5 is a draw: the White knight and the Black pawn are both killed") !=
          std::string::npos);
    CHECK(g->fen() == "4k3/8/8/8/8/8/8/4K3 b - - 0 1 track=Cd dead=N/P");
}

TEST_CASE("A piece at 0 hit points or less on the contested square loses without a roll",
          "[variant:gnostic]") {
    auto g = gnostic("4k3/8/8/4p3/8/5N2/8/4K3 w - - 0 1 damage=f3:30");
    CHECK(hp(*g, "f3") == "N 30/60"); // f3 is a fixed light square, e5 is neutral
    auto ev = act(*g, Seat::White, "Nxe5");
    CHECK(said(ev) == "Nxe5 | combat on e5: the White knight (0 HP) needs 10 points, the Black "
                      "pawn (10 HP) needs 0 | "
                      "the Black pawn wins the combat on e5 and kills the attacking White knight");
    CHECK(test::seats(*g) == "black");
}

TEST_CASE("Damage persists, so weaker pieces can wear a stronger one down in series",
          "[variant:gnostic]") {
    // The rook on d5 (neutral, 50 HP) already took 45 in earlier fights: 5 are left.
    auto g = gnostic("4k3/8/8/3r4/4P3/8/8/4K3 w - - 0 1 damage=d5:45");
    CHECK(hp(*g, "d5") == "r 5/50");
    act(*g, Seat::White, "exd5");
    Faces dice{5, 2, 2, 2, 2, 1};
    auto ev = act(*g, Seat::Black, "roll 5", dice); // the pawn's roll 1 was made for it
    CHECK(said(ev).find("the White pawn wins the combat on d5 and kills the Black rook") !=
          std::string::npos);
    CHECK(hp(*g, "d5") == "P 10/10"); // the rook rolled a 1: no damage
}

TEST_CASE("There is no check: a king may move into attack and castle through attacked squares",
          "[variant:gnostic]") {
    auto g = gnostic("4kr2/8/8/8/8/8/3r4/4K2R w K - 0 1");
    CHECK(test::has(*g, Seat::White, "Ke2"));
    CHECK(test::has(*g, Seat::White, "O-O"));
    CHECK(test::has(*g, Seat::White, "Rh8"));
    act(*g, Seat::White, "O-O");
    CHECK(g->fen() == "4kr2/8/8/8/8/8/3r4/5RK1 b - - 1 1 track=Cd");
    CHECK(test::refusal(*g, Seat::Black, "O-O") ==
          "O-O is not possible: castling needs the king and that rook unmoved and free, and the "
          "squares between them empty (check does not matter in Gnostic Chess)");
}

TEST_CASE("The game ends when a king is killed", "[variant:gnostic]") {
    auto g = gnostic("4k3/8/8/8/8/8/4R3/4K3 w - - 0 1 damage=e8:95");
    act(*g, Seat::White, "Re8");
    Faces dice{6, 6, 6, 6, 6, 2};
    act(*g, Seat::White, "roll 5", dice);
    auto ev = act(*g, Seat::Black, "roll 1", dice);
    CHECK(ev.back().kind == EventKind::GameOver);
    CHECK(ev.back().text == "killing the Black king");
    CHECK(g->outcome().status == Status::WhiteWins);
    CHECK(g->pending().empty());
    CHECK(test::refusal(*g, Seat::Black, "Kd7") == "the game is over (killing the Black king)");
}

TEST_CASE("When both kings die in one combat the game is drawn", "[variant:gnostic]") {
    auto g = gnostic("8/8/8/3k4/4K3/8/8/8 w - - 0 1 damage=d5:99,e4:99");
    act(*g, Seat::White, "Kxd5");
    Faces dice{2, 3};
    act(*g, Seat::White, "roll 1", dice);
    act(*g, Seat::Black, "roll 1", dice);
    CHECK(g->outcome().status == Status::Draw);
    CHECK(g->outcome().reason == "the death of both kings");
}

TEST_CASE("En passant fights the passed pawn and the winner lands behind it", "[variant:gnostic]") {
    auto g = gnostic("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1 damage=d7:13");
    act(*g, Seat::Black, "d5"); // the track steps to B: d5 is 75% dark
    CHECK(test::has(*g, Seat::White, "exd6"));
    // Both pawns can only roll 1 die: the round is rolled at once.
    Faces dice{6, 2};
    auto ev = act(*g, Seat::White, "exd6", dice);
    CHECK(said(ev).rfind("exd6 | combat on d5: the White pawn (8 HP) needs 2 points, the Black "
                         "pawn (2 HP) needs 8 | "
                         "combat on d5, round 1: White rolls 1 die, Black rolls 1 die",
                         0) == 0);
    CHECK(g->fen() == "4k3/8/3P4/8/8/8/8/4K3 b - - 0 2 track=Bd dead=-/P damage=d6:2");
}

TEST_CASE("A pawn that wins a combat on the last rank promotes as it lands", "[variant:gnostic]") {
    auto g = gnostic("3rk3/4P3/8/8/8/8/8/4K3 w - - 0 1 damage=d8:45");
    act(*g, Seat::White, "exd8=Q");
    Faces dice{6, 3};
    act(*g, Seat::Black, "roll 1", dice); // the pawn's roll 1 was made for it
    CHECK(g->fen() == "3Qk3/8/8/8/8/8/8/4K3 b - - 0 1 track=Cd dead=-/R damage=d8:3");
}

TEST_CASE("A side that cannot move or cast passes", "[variant:gnostic]") {
    auto g = gnostic("4k3/8/8/8/8/8/8/4K3 w - - 0 1 jail=e1");
    CHECK(test::texts(*g, Seat::White) == std::vector<std::string>{"pass"});
    auto ev = act(*g, Seat::White, "pass");
    CHECK(said(ev) == "White has no move and passes");
    CHECK(test::seats(*g) == "black");
}

TEST_CASE("The 50-move rule and threefold repetition may be claimed; 75 moves end the game",
          "[variant:gnostic]") {
    auto g = gnostic("4k3/8/8/8/8/8/8/4K2R w - - 99 60");
    CHECK_FALSE(g->claimable_draw());
    act(*g, Seat::White, "Rh2");
    CHECK(g->claimable_draw() == std::optional<std::string>("the 50-move rule"));
    auto late = gnostic("4k3/8/8/8/8/8/8/4K2R w - - 149 80");
    auto ev = act(*late, Seat::White, "Rh2");
    CHECK(late->outcome().reason == "the 75-move rule");
    CHECK(ev.back().kind == EventKind::GameOver);
}

TEST_CASE("A repetition needs the track in the same place and direction", "[variant:gnostic]") {
    auto g = gnostic();
    // The track comes back to C moving toward dark only after 8 full rounds.
    for (int i = 0; i < 4; ++i) {
        test::play(*g, "Nf3 Nf6 Ng1 Ng8");
        CHECK_FALSE(g->claimable_draw());
    }
    for (int i = 0; i < 4; ++i) {
        CHECK_FALSE(g->claimable_draw());
        test::play(*g, "Nf3 Nf6 Ng1 Ng8");
    }
    CHECK(g->claimable_draw() == std::optional<std::string>("threefold repetition"));
}

TEST_CASE("The public board shows the shades on the track, hit points, prisoners and the killed",
          "[variant:gnostic][view]") {
    auto g = gnostic("rnbqkbnr/pppp1ppp/8/4p3/4P3/5Q2/PPPP1PPP/RNB1KBNR b KQkq - 1 2 track=Bd "
                     "used=I/- dead=P/NN damage=e4:4,e5:3 jail=e5");
    const BoardView b = g->public_view().board();
    CHECK(b.at(*parse_square("e4")).tint == Tint::Dark75); // '*' at track B
    CHECK(b.at(*parse_square("f1")).tint == Tint::Light100);
    // e5 is 75% dark: the Black pawn has 15 (x1.5) less 3; e4's White pawn 8 (x0.75) less 4.
    CHECK(hp(*g, "e5") == "p 12/15!");
    CHECK(hp(*g, "e4") == "P 4/8");
    CHECK(hp(*g, "f3") == "Q 180/180"); // f3 is always light: x2 for a White piece
    CHECK(test::notes(b) == "Track: B, moving toward dark (A)\n"
                            "Spells cast: White Imprison\n"
                            "Killed: White 1 pawn; Black 2 knights");
}
