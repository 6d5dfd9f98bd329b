// Ghost Chess: one test (at least) per clause of the seed text and per decision of
// docs/variants/ghost.md, named after it. Positions are written in the Ghost Chess FEN dialect:
// placement, side (after a colon, a decision pending in the turn: b:w-Reaction,xPe5), Nexus flag
// (F or -), immune squares, locked square, rescued knights lost, halfmove clock, move number.
#include "chess_test_support.h"
#include "ghostpost/rules/notation.h"

#include <algorithm>
#include <map>
#include <random>

using namespace ghostpost::rules;

using test::offers;
using test::refusal;
using test::texts;

namespace {

const std::string start_fen = "3q4/8/8/8/8/8/PPPPPPPP/RNB2BNR w F - - 0 0 1";

// "Paradigm: move" / "Ghost: place the rescued knight: ..."
std::string asked(const Game& g) {
    auto p = g.pending();
    if (p.empty())
        return "nobody";
    return g.info().seat_names[index(p.front().seat)] + ": " + p.front().what;
}

std::vector<std::string> notes(const Game& g) {
    return g.public_view().board().notes;
}

std::vector<std::string> event_texts(Game& g, const std::string& typed) {
    NoRandomness no_dice;
    const Seat seat = g.pending().front().seat;
    auto a = parse_action(g, seat, typed);
    INFO(typed << ": " << (a ? "" : a.error().message));
    REQUIRE(a.ok());
    auto ev = g.apply(seat, a->action, no_dice);
    REQUIRE(ev.ok());
    std::vector<std::string> out;
    for (const auto& e : *ev)
        out.push_back(e.text);
    return out;
}

} // namespace

// ---------------------------------------------------------------- setup and turn order

TEST_CASE("Setup: the Ghost on d8 against rooks, knights, bishops and pawns, no king or queen",
          "[variant:ghost]") {
    auto g = test::start("ghost");
    CHECK(g->fen() == start_fen);
    CHECK(g->info().seat_names[0] == "Paradigm");
    CHECK(g->info().seat_names[1] == "Ghost");
    CHECK(g->info().title == "Ghost Chess");
    CHECK(find_variant("ghost") == find_variant("GhostChess"));
}

TEST_CASE("Decision 1: the Paradigm moves first", "[variant:ghost]") {
    auto g = test::start("ghost");
    CHECK(asked(*g) == "Paradigm: move");
    auto r = parse_action(*g, Seat::Black, "Qd7");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().kind == ErrorKind::NotYourTurn);
    CHECK(r.error().message == "it is not your decision now: Paradigm to decide");
}

TEST_CASE(
    "The Paradigm's first decisions: 16 pawn moves, 4 knight moves, 16 Scouting moves, 8 Assaults",
    "[variant:ghost]") {
    auto g = test::start("ghost");
    const std::vector<std::string> want = {
        "Assault a6", "Assault b5", "Assault c4", "Assault d3", "Assault e3", "Assault f4",
        "Assault g5", "Assault h6", "Na3",        "Nc3",        "Nf3",        "Nh3",
        "Pd2-a5",     "Pd2-b4",     "Pd2-c3",     "Pd2-e1",     "Pd2-e3",     "Pd2-f4",
        "Pd2-g5",     "Pd2-h6",     "Pe2-a6",     "Pe2-b5",     "Pe2-c4",     "Pe2-d1",
        "Pe2-d3",     "Pe2-f3",     "Pe2-g4",     "Pe2-h5",     "a3",         "a4",
        "b3",         "b4",         "c3",         "c4",         "d3",         "d4",
        "e3",         "e4",         "f3",         "f4",         "g3",         "g4",
        "h3",         "h4"};
    CHECK(texts(*g) == want);
}

TEST_CASE("The Ghost moves as a queen and may always Hide or Transcend", "[variant:ghost]") {
    auto g = test::start("ghost");
    test::play(*g, "e4");
    CHECK(asked(*g) == "Ghost: move, Hide or Transcend");
    auto t = texts(*g);
    CHECK(t.size() == 22);
    CHECK(offers(*g, "Qxd2"));
    CHECK(offers(*g, "Qh4"));
    CHECK(offers(*g, "Hide"));
    CHECK(offers(*g, "Transcend"));
    CHECK(refusal(*g, "e5") ==
          "e5 is not possible: the Ghost's side has only the Ghost (Q) and rescued knights (N)");
}

// ---------------------------------------------------------------- Shadow and Haunt

TEST_CASE(
    "Shadow: the Ghost capturing on a dark square cannot be captured in the next Paradigm turn",
    "[variant:ghost][shadow]") {
    auto g = test::start("ghost", "8/8/8/4P3/3q4/8/P7/4R3 b - - - 0 0 1");
    auto ev = event_texts(*g, "Qxe5");
    CHECK(ev.back() ==
          "Shadow: the Ghost captured on a dark square and cannot be captured next turn");
    CHECK(g->fen() == "8/8/8/4q3/8/8/P7/4R3 w - e5 - 0 0 2");
    CHECK(refusal(*g, "Rxe5") ==
          "Rxe5 is not possible: the Ghost on e5 is in Shadow and cannot be captured this turn");
    CHECK(notes(*g).at(1) == "Cannot be captured this turn: Qe5 (Shadow).");
}

TEST_CASE("Shadow lasts for the next Paradigm turn only", "[variant:ghost][shadow]") {
    auto g = test::start("ghost", "8/8/8/4P3/3q4/8/P7/4R3 b - - - 0 0 1");
    test::play(*g, "Qxe5 a3 Qe6");
    CHECK(offers(*g, "Rxe6"));
}

TEST_CASE("Decision 3: dark squares are the board's dark squares; a capture on a light square "
          "gives no Shadow",
          "[variant:ghost][shadow]") {
    auto g = test::start("ghost", "8/8/8/8/3qP3/8/P7/4R3 b - - - 0 0 1");
    test::play(*g, "Qxe4");
    CHECK(g->fen() == "8/8/8/8/4q3/8/P7/4R3 w - - - 0 0 2");
    CHECK(offers(*g, "Rxe4"));
}

TEST_CASE("Decision 4: only the Ghost's own captures Shadow; a rescued knight's capture does not",
          "[variant:ghost][shadow]") {
    auto g = test::start("ghost", "7q/8/2n5/8/3P4/8/P7/3R4 b - - - 0 0 1");
    test::play(*g, "Nxd4");
    CHECK(g->fen() == "7q/8/8/8/3n4/8/P7/3R4 w - - - 0 0 2");
    CHECK(offers(*g, "Rxd4"));
}

TEST_CASE("Shadow: the Ghost on a dark square flanked by both knights on one line is safe; "
          "orthogonal flankers are not",
          "[variant:ghost][shadow]") {
    auto g = test::start("ghost", "8/8/8/3q4/2n1n3/8/P7/2RR4 b - - - 0 0 1");
    auto ev = event_texts(*g, "Qd4");
    CHECK(ev.back() ==
          "Shadow: the Ghost is flanked by both knights and cannot be captured next turn");
    CHECK(g->fen() == "8/8/8/8/2nqn3/8/P7/2RR4 w - d4 - 0 1 2");
    CHECK(refusal(*g, "Rxd4") ==
          "Rxd4 is not possible: the Ghost on d4 is in Shadow and cannot be captured this turn");
    CHECK(offers(*g, "Rxc4"));
}

TEST_CASE("Haunt: knights flanking the Ghost diagonally cannot be captured either",
          "[variant:ghost][shadow]") {
    auto g = test::start("ghost", "8/8/8/8/3q2n1/2n5/P7/2R1R3 b - - - 0 0 1");
    auto ev = event_texts(*g, "Ne5");
    CHECK(ev.back() == "Haunt: the knights on c3 and e5 cannot be captured next turn");
    CHECK(g->fen() == "8/8/8/4n3/3q4/2n5/P7/2R1R3 w - c3,d4,e5 - 0 1 2");
    CHECK(refusal(*g, "Rxc3") == "Rxc3 is not possible: the knight on c3 Haunts (flanking the "
                                 "Ghost diagonally) and cannot be captured this turn");
    CHECK(refusal(*g, "Rxe5") == "Rxe5 is not possible: the knight on e5 Haunts (flanking the "
                                 "Ghost diagonally) and cannot be captured this turn");
    CHECK(notes(*g).at(1) == "Cannot be captured this turn: Qd4 (Shadow), Nc3 Ne5 (Haunt).");
}

TEST_CASE("Decision 4: flanked means adjacent on opposite sides; two knights beside her on one "
          "side do not flank",
          "[variant:ghost][shadow]") {
    auto g = test::start("ghost", "8/8/3q4/2n5/2n5/8/P7/3R4 b - - - 0 0 1");
    test::play(*g, "Qd4");
    CHECK(g->fen() == "8/8/8/2n5/2nq4/8/P7/3R4 w - - - 0 1 2");
    CHECK(offers(*g, "Rxd4"));
}

TEST_CASE("Shadow: a flanked Ghost on a light square is not protected", "[variant:ghost][shadow]") {
    auto g = test::start("ghost", "8/8/8/4q3/3n1n2/8/P7/4R3 b - - - 0 0 1");
    test::play(*g, "Qe4");
    CHECK(g->fen() == "8/8/8/8/3nqn2/8/P7/4R3 w - - - 0 1 2");
    CHECK(offers(*g, "Rxe4"));
}

// ---------------------------------------------------------------- Rescue

TEST_CASE("Rescue: a knight the Ghost captures must enter on a free dark square of her home row, "
          "her choice",
          "[variant:ghost][rescue]") {
    auto g = test::start("ghost", "8/8/8/q7/8/2N5/P7/6N1 b - - - 0 0 1");
    test::play(*g, "Qxc3");
    CHECK(asked(*g) == "Ghost: place the rescued knight: N@b8, N@d8, N@f8 or N@h8");
    CHECK(texts(*g) == std::vector<std::string>{"N@b8", "N@d8", "N@f8", "N@h8"});
    CHECK(refusal(*g, "Skip") ==
          "Skip is not possible: first place the rescued knight: N@b8, N@d8, N@f8 or N@h8");
    auto ev = event_texts(*g, "N@d8");
    CHECK(ev.at(1) == "Rescue: the knight enters on d8");
    CHECK(g->fen() == "3n4/8/8/8/8/2q5/P7/6N1 w - c3 - 0 0 2");
    CHECK(asked(*g) == "Paradigm: move");
}

TEST_CASE("Rescue: with one free dark square the knight enters there without a question",
          "[variant:ghost][rescue]") {
    auto g = test::start("ghost", "1R3R1P/8/8/q7/8/2N5/P7/8 b - - - 0 0 1");
    test::play(*g, "Qxc3");
    CHECK(g->fen() == "1R1n1R1P/8/8/8/8/2q5/P7/8 w - c3 - 0 0 2");
}

TEST_CASE("Decision 5: the rescue is forfeited when no dark square of the home row is free",
          "[variant:ghost][rescue]") {
    auto g = test::start("ghost", "1R1R1P1P/8/8/q7/8/2N5/P7/8 b - - - 0 0 1");
    auto ev = event_texts(*g, "Qxc3");
    CHECK(std::find(ev.begin(), ev.end(),
                    "No dark square of the home row is free: the knight cannot be rescued") !=
          ev.end());
    CHECK(g->fen() == "1R1R1P1P/8/8/8/8/2q5/P7/8 w - c3 - 0 0 2");
}

TEST_CASE("Decision 6: Rescue by exchange: the Paradigm chooses the knight and the captured rook "
          "returns to its start square",
          "[variant:ghost][rescue]") {
    auto g = test::start("ghost", "8/8/8/q7/8/R7/P7/1N4N1 b - - - 0 0 1");
    test::play(*g, "Qxa3");
    CHECK(asked(*g) ==
          "Ghost: exchange the captured rook for a knight (N@b8, N@d8, N@f8 or N@h8) or Skip");
    test::play(*g, "N@f8");
    CHECK(asked(*g) == "Paradigm: choose which knight is rescued: Rescue Nb1 or Rescue Ng1");
    auto ev = event_texts(*g, "Rescue Ng1");
    CHECK(ev ==
          std::vector<std::string>{
              "Rescue Ng1", "Rescue: the knight from g1 changes sides",
              "Rescue: the knight enters on f8", "The captured rook returns to a1",
              "Shadow: the Ghost captured on a dark square and cannot be captured next turn"});
    CHECK(g->fen() == "5n2/8/8/8/8/q7/P7/RN6 w - a3 - 0 0 2");
}

TEST_CASE("Rescue by exchange is optional: Skip keeps the captured rook off the board",
          "[variant:ghost][rescue]") {
    auto g = test::start("ghost", "8/8/8/q7/8/R7/P7/1N4N1 b - - - 0 0 1");
    test::play(*g, "Qxa3 skip");
    CHECK(g->fen() == "8/8/8/8/8/q7/P7/1N4N1 w - a3 - 0 0 2");
}

TEST_CASE("Rescue by exchange with one Paradigm knight takes it without asking",
          "[variant:ghost][rescue]") {
    auto g = test::start("ghost", "8/8/8/q7/8/B7/P7/6N1 b - - - 0 0 1");
    test::play(*g, "Qxa3 N@b8");
    // The bishop was on a dark square, so it goes back to c1.
    CHECK(g->fen() == "1n6/8/8/8/8/q7/P7/2B5 w - a3 - 0 0 2");
    CHECK(notes(*g).at(0) == "Paradigm: no Nexus.");
}

TEST_CASE("Decision 6: a captured piece whose start square is taken is lost",
          "[variant:ghost][rescue]") {
    auto g = test::start("ghost", "8/8/8/q7/8/R7/P7/P5N1 b - - - 0 0 1");
    auto ev = event_texts(*g, "Qxa3");
    ev = event_texts(*g, "N@b8");
    CHECK(std::find(ev.begin(), ev.end(),
                    "The captured rook cannot return: its start square is taken") != ev.end());
    CHECK(g->fen() == "1n6/8/8/8/8/q7/P7/P7 w - a3 - 0 0 2");
}

TEST_CASE("Rescue: a knight captured by a rescued knight is not rescued",
          "[variant:ghost][rescue]") {
    auto g = test::start("ghost", "7q/8/8/1n6/8/2N5/P7/8 b - - - 0 0 1");
    test::play(*g, "Nxc3");
    CHECK(g->fen() == "7q/8/8/8/8/2n5/P7/8 w - - - 0 0 2");
}

// ---------------------------------------------------------------- pawns without knights

TEST_CASE("Decision 7: once the Paradigm has lost both knights his pawns also step one square "
          "sideways or back, without capturing",
          "[variant:ghost][pawns]") {
    auto g = test::start("ghost", "7q/8/8/8/2nP4/8/8/8 w - - - 0 0 1");
    CHECK(texts(*g) == std::vector<std::string>{"Pd4-d3", "Pd4-e4", "d5"});
    auto with_knight = test::start("ghost", "7q/8/8/8/3P4/8/8/7N w - - - 0 0 1");
    CHECK(refusal(*with_knight, "Pd4-e4") == "Pd4-e4 is not possible: a pawn steps sideways or "
                                             "back only once the Paradigm has lost both knights");
}

TEST_CASE("Pawns still capture only diagonally forward", "[variant:ghost][pawns]") {
    auto g = test::start("ghost", "7q/8/8/2n1n3/3P4/8/8/8 w - - - 0 0 1");
    CHECK(texts(*g) ==
          std::vector<std::string>{"Pd4-c4", "Pd4-d3", "Pd4-e4", "d5", "dxc5", "dxe5"});
}

// ---------------------------------------------------------------- Hide

TEST_CASE("Hide: a pass after which the Ghost's pieces on dark squares cannot be captured in the "
          "next Paradigm turn",
          "[variant:ghost][hide]") {
    auto g = test::start("ghost", "8/8/8/8/3qn3/2n5/P7/2RRR3 b - - - 0 0 1");
    auto ev = event_texts(*g, "Hide");
    CHECK(ev ==
          std::vector<std::string>{
              "Hide", "Hide: the Ghost's pieces on dark squares cannot be captured next turn"});
    CHECK(g->fen() == "8/8/8/8/3qn3/2n5/P7/2RRR3 w - c3,d4 - 0 1 2");
    CHECK(
        refusal(*g, "Rxd4") ==
        "Rxd4 is not possible: the Ghost on d4 is hidden (Hide) and cannot be captured this turn");
    CHECK(
        refusal(*g, "Rxc3") ==
        "Rxc3 is not possible: the knight on c3 is hidden (Hide) and cannot be captured this turn");
    CHECK(offers(*g, "Rxe4"));
}

TEST_CASE("Decision 8: Hide may be used on consecutive turns", "[variant:ghost][hide]") {
    auto g = test::start("ghost");
    test::play(*g, "e4 Hide e5 Hide d4 hide");
    CHECK(g->fen() == "3q4/8/8/4P3/3P4/8/PPP2PPP/RNB2BNR w F d8 - 0 1 4");
}

TEST_CASE(
    "Hide protects pieces, not squares: the board lists only the protected pieces still standing",
    "[variant:ghost][hide]") {
    auto g = test::start("ghost", "3n1n2/8/8/8/4q3/8/P7/4R3 b - - - 0 0 1");
    test::play(*g, "Hide");
    CHECK(notes(*g).at(1) == "Cannot be captured this turn: Nd8 Nf8 (Hide).");
    test::play(*g, "Rxe4 Nc6");
    CHECK(notes(*g).at(1) == "Cannot be captured this turn: Nf8 (Hide).");
    test::play(*g, "Skip");
    CHECK(g->outcome().status == Status::WhiteWins);
    CHECK(notes(*g) == std::vector<std::string>{"Paradigm: no Nexus."});
}

// ---------------------------------------------------------------- Transcend

TEST_CASE(
    "Transcend: the Ghost takes every touching Paradigm piece; pieces remain, so the Paradigm wins",
    "[variant:ghost][transcend]") {
    auto g = test::start("ghost", "8/8/8/3PP3/3q4/2P5/P7/8 b - - - 0 0 1");
    auto ev = event_texts(*g, "Transcend");
    CHECK(ev.at(1) == "The Ghost transcends on d4, taking Pc3, Pd5, Pe5");
    CHECK(g->outcome().status == Status::WhiteWins);
    CHECK(g->outcome().reason == "the Ghost transcended and Paradigm pieces remain");
    CHECK(g->pending().empty());
}

TEST_CASE("Transcend: the Ghost wins when no Paradigm piece remains",
          "[variant:ghost][transcend][victory]") {
    auto g = test::start("ghost", "8/8/8/3PP3/3q4/2P5/8/8 b - - - 0 0 1");
    test::play(*g, "transcend");
    CHECK(g->outcome().status == Status::BlackWins);
    CHECK(g->outcome().reason == "the Ghost transcended and no Paradigm piece remains");
}

TEST_CASE("Decision 9: after the Transcend each rescued knight may make one move, capturing too",
          "[variant:ghost][transcend]") {
    auto g = test::start("ghost", "8/8/8/8/3q4/R1P5/8/1n6 b - - - 0 0 1");
    test::play(*g, "Transcend");
    CHECK(asked(*g) ==
          "Ghost: move each knight once after the Transcend (Nd2, Nxa3 or Nc3) or Skip");
    auto ev = event_texts(*g, "Nxa3");
    CHECK(ev.back() == "the Ghost transcended and no Paradigm piece remains");
    CHECK(g->outcome().status == Status::BlackWins);
}

TEST_CASE("Decision 9: each knight moves at most once after the Transcend, and Skip ends it",
          "[variant:ghost][transcend]") {
    auto g = test::start("ghost", "8/8/8/8/3q4/8/8/Rn4nR b - - - 0 0 1");
    test::play(*g, "Transcend Nc3");
    CHECK(asked(*g) ==
          "Ghost: move each knight once after the Transcend (Ne2, Nf3 or Nh3) or Skip");
    test::play(*g, "Skip");
    CHECK(g->outcome().status == Status::WhiteWins);
    CHECK(g->fen() == "8/8/8/8/8/2n5/8/R5nR b:Transcended - - - 0 0 1");
}

TEST_CASE("Victory (a): capturing the Ghost transcends her, taking the capturer and every touching "
          "Paradigm piece",
          "[variant:ghost][transcend][victory]") {
    auto g = test::start("ghost", "8/8/5P2/4q3/3P4/8/P7/4R3 w - - - 0 0 1");
    auto ev = event_texts(*g, "Rxe5");
    CHECK(ev.at(2) == "The Ghost was captured and transcends on e5, taking Pd4, Re5, Pf6");
    CHECK(g->outcome().status == Status::WhiteWins);
    auto all = test::start("ghost", "8/8/5P2/4q3/3P4/8/8/4R3 w - - - 0 0 1");
    test::play(*all, "Rxe5");
    CHECK(all->outcome().status == Status::BlackWins);
}

TEST_CASE("Victory (a): when the Ghost is captured her knights' moves are asked of the Ghost "
          "player in the Paradigm's turn",
          "[variant:ghost][transcend][victory]") {
    auto g = test::start("ghost", "8/8/8/4q3/8/8/P4n2/4R3 w - - - 0 0 1");
    test::play(*g, "Rxe5");
    CHECK(asked(*g) == "Ghost: move each knight once after the Transcend (Nd1, Nh1, Nd3, Nh3, Ne4 "
                       "or Ng4) or Skip");
    test::play(*g, "Skip");
    CHECK(g->outcome().status == Status::WhiteWins);
}

TEST_CASE("Victory (c): the Paradigm wins when the second rescued knight is captured",
          "[variant:ghost][victory]") {
    auto g = test::start("ghost", "7q/8/8/8/8/2n5/P7/2R5 w - - - 1 0 1");
    auto ev = event_texts(*g, "Rxc3");
    CHECK(ev.back() == "both of the Ghost's rescued knights were captured");
    CHECK(g->outcome().status == Status::WhiteWins);
    auto first = test::start("ghost", "7q/8/8/8/8/2n5/P7/2R5 w - - - 0 0 1");
    test::play(*first, "Rxc3");
    CHECK_FALSE(first->outcome().over());
    CHECK(notes(*first).back() == "Rescued knights lost: 1 of 2.");
}

TEST_CASE("Victory (d): the Ghost wins when the last Paradigm piece is captured",
          "[variant:ghost][victory]") {
    auto g = test::start("ghost", "8/8/8/4P3/3q4/8/8/8 b - - - 0 0 1");
    test::play(*g, "Qxe5");
    CHECK(g->outcome().status == Status::BlackWins);
    CHECK(g->outcome().reason == "no Paradigm piece remains");
}

// ---------------------------------------------------------------- Nexus modes

TEST_CASE("Decision 11: Full Nexus lasts while the twelve pieces never moved and is never restored",
          "[variant:ghost][nexus]") {
    auto g = test::start("ghost");
    CHECK(notes(*g).at(0) == "Paradigm: Full Nexus.");
    test::play(*g, "Nc3 Qd7 Nb1 Qd8");
    CHECK(g->fen() == "3q4/8/8/8/8/8/PPPPPPPP/RNB2BNR w - - - 0 4 3");
    CHECK(notes(*g).at(0) == "Paradigm: Half Nexus.");
    CHECK(refusal(*g, "Pd2-f4") == "Pd2-f4 is not possible: Scouting (the d2 and e2 pawns moving "
                                   "as bishops) needs the Full Nexus");
    CHECK_FALSE(offers(*g, "Assault e3"));
}

TEST_CASE("Full Nexus survives moves of the centre pawns and of the Ghost",
          "[variant:ghost][nexus]") {
    auto g = test::start("ghost");
    test::play(*g, "d4 Qd5 e3 Qxd4");
    CHECK(notes(*g).at(0) == "Paradigm: Full Nexus.");
}

TEST_CASE("Decision 12: Scouting: in Full Nexus the d2 and e2 pawns move as bishops, capturing too",
          "[variant:ghost][nexus]") {
    auto g = test::start("ghost", "8/8/8/6q1/8/8/PPPPPPPP/RNB2BNR w F - - 0 0 1");
    CHECK(offers(*g, "Pd2xg5"));
    CHECK(offers(*g, "Pe2-a6"));
    CHECK(refusal(*g, "Pc2-d3") == "Pc2-d3 is not possible: no pawn can reach d3");
    test::play(*g, "d2f4");
    CHECK(g->fen() == "8/8/8/6q1/5P2/8/PPP1PPPP/RNB2BNR b F - - 0 0 1");
}

TEST_CASE("Decision 13: Assault moves one wing's block of six along its bishop's diagonal, through "
          "pieces, once",
          "[variant:ghost][nexus]") {
    auto g = test::start("ghost");
    auto ev = event_texts(*g, "Assault e3");
    CHECK(ev.back() == "Assault: the block of six moves with the bishop to e3");
    CHECK(g->fen() == "3q4/8/8/8/2PPP3/2RNB3/3PPPPP/5BNR b - - - 0 0 1");
    test::play(*g, "Qd7");
    const auto after = texts(*g);
    CHECK(std::none_of(after.begin(), after.end(),
                       [](const std::string& t) { return t.starts_with("Assault"); }));
}

TEST_CASE("Decision 13: an Assault never captures: every destination square must be empty",
          "[variant:ghost][nexus]") {
    auto g = test::start("ghost", "8/8/8/8/3q4/8/PPPPPPPP/RNB2BNR w F - - 0 0 1");
    CHECK_FALSE(offers(*g, "Assault e3"));
    CHECK_FALSE(offers(*g, "Assault f4"));
    CHECK(offers(*g, "Assault g5"));
    CHECK(offers(*g, "Assault h6"));
}

TEST_CASE("Decision 14: Respawn puts a captured pawn back on d1 or e1 while the bishops are home",
          "[variant:ghost][nexus]") {
    auto g = test::start("ghost", "8/8/8/4P3/3q4/8/P7/2B2B2 b - - - 0 0 1");
    test::play(*g, "Qxe5");
    CHECK(asked(*g) == "Paradigm: Respawn the captured pawn (Respawn d1 or Respawn e1), or Skip");
    auto ev = event_texts(*g, "respawn d1");
    CHECK(ev.at(1) == "Respawn: the pawn comes back on d1");
    CHECK(g->fen() == "8/8/8/4q3/8/8/P7/2BP1B2 w - e5 - 0 0 2");
    CHECK(asked(*g) == "Paradigm: move");
    CHECK(offers(*g, "d2"));
}

TEST_CASE("Decision 14: Respawn is optional and needs a free square between the bishops",
          "[variant:ghost][nexus]") {
    auto g = test::start("ghost", "8/8/8/4P3/3q4/8/P7/2BR1B2 b - - - 0 0 1");
    test::play(*g, "Qxe5");
    CHECK(texts(*g) == std::vector<std::string>{"Respawn e1", "Skip"});
    test::play(*g, "Skip");
    CHECK(g->fen() == "8/8/8/4q3/8/8/P7/2BR1B2 w - e5 - 0 0 2");
}

TEST_CASE("Respawn needs a Nexus: without both bishops home a captured pawn stays off",
          "[variant:ghost][nexus]") {
    auto g = test::start("ghost", "8/8/8/4P3/3q4/8/P7/5B2 b - - - 0 0 1");
    test::play(*g, "Qxe5");
    CHECK(asked(*g) == "Paradigm: move");
}

TEST_CASE("Half Nexus: bishops home after other Nexus pieces moved allow Respawn but not Scouting "
          "or Assault, and can be re-established",
          "[variant:ghost][nexus]") {
    auto g = test::start("ghost", "3q4/8/8/8/8/8/P2PP3/2B2B2 w - - - 0 0 1");
    CHECK(notes(*g).at(0) == "Paradigm: Half Nexus.");
    CHECK_FALSE(offers(*g, "Pd2-f4"));
    test::play(*g, "Bb2 Qd7");
    CHECK(notes(*g).at(0) == "Paradigm: no Nexus.");
    test::play(*g, "Bc1 Qd8");
    CHECK(notes(*g).at(0) == "Paradigm: Half Nexus.");
}

TEST_CASE("Shadow Nexus: the Ghost may enter her home row only to capture",
          "[variant:ghost][nexus]") {
    auto g = test::start("ghost", "2R2R2/3q4/8/8/8/8/P7/2B2B2 b - - - 0 0 1");
    CHECK(notes(*g).at(0) == "Paradigm: Half Nexus and Shadow Nexus.");
    CHECK(refusal(*g, "Qd8") == "Qd8 is not possible: in a Shadow Nexus the Ghost's side enters "
                                "her home row only to capture");
    CHECK(refusal(*g, "Qe8") == "Qe8 is not possible: in a Shadow Nexus the Ghost's side enters "
                                "her home row only to capture");
    CHECK(offers(*g, "Qxc8"));
}

TEST_CASE("Shadow Nexus: the pieces on c8 and f8 may move as bishops", "[variant:ghost][nexus]") {
    auto g = test::start("ghost", "2R2R2/8/4q3/8/8/8/P7/2B2B2 w - - - 0 0 1");
    CHECK(offers(*g, "Rb7"));
    CHECK(offers(*g, "Rxe6"));
    CHECK(offers(*g, "Rg7"));
    auto no_nexus = test::start("ghost", "2R2R2/8/4q3/8/8/8/P7/2B5 w - - - 0 0 1");
    CHECK(refusal(*no_nexus, "Rb7") ==
          "Rb7 is not possible: the pieces on c8 and f8 move as bishops only in a Shadow Nexus");
}

TEST_CASE("Decision 15: after the Ghost captures in a Shadow Nexus the Paradigm may make a "
          "non-capturing move to a light square, and that piece is locked for his next move",
          "[variant:ghost][nexus]") {
    auto g = test::start("ghost", "2R2R2/3q4/8/8/8/8/P7/2B2B2 b - - - 0 0 1");
    test::play(*g, "Qxc8");
    CHECK(asked(*g) ==
          "Paradigm: make the Shadow Nexus move (a non-capturing move to a light square), or Skip");
    CHECK(offers(*g, "Bd3"));
    CHECK_FALSE(offers(*g, "Rf6")); // a dark square
    CHECK(offers(*g, "Re8"));
    auto ev = event_texts(*g, "Bd3");
    CHECK(ev.at(1) == "Shadow Nexus move: the piece on d3 cannot move next turn");
    CHECK(g->fen() == "2q2R2/8/8/8/8/3B4/P7/2B5 w - - d3 0 0 2");
    CHECK(notes(*g).at(1) == "Cannot move this turn (Shadow Nexus move): Bd3.");
    CHECK(refusal(*g, "Be4") == "Be4 is not possible: the bishop on d3 made the Shadow Nexus move "
                                "and cannot move this turn");
    test::play(*g, "a3 Qc7");
    CHECK(offers(*g, "Be4"));
}

TEST_CASE("Decision 2: one special move per turn: after a pawn capture in a Shadow Nexus the "
          "Paradigm chooses Respawn or the Shadow Nexus move",
          "[variant:ghost][nexus]") {
    auto g = test::start("ghost", "2R2R2/3q4/4P3/8/8/8/P7/2B2B2 b - - - 0 0 1");
    test::play(*g, "Qxe6");
    CHECK(asked(*g) == "Paradigm: Respawn the captured pawn (Respawn d1 or Respawn e1), or make "
                       "the Shadow Nexus move (a non-capturing move to a light square), or Skip");
    event_texts(*g, "Respawn e1");
    CHECK(asked(*g) == "Paradigm: move");
    CHECK(g->fen() == "2R2R2/8/4q3/8/8/8/P7/2B1PB2 w - - - 0 0 2");
}

TEST_CASE(
    "Decision 2: one special move per turn: a Rescue in a Shadow Nexus leaves no Shadow Nexus move",
    "[variant:ghost][nexus][rescue]") {
    auto g = test::start("ghost", "2R2R2/3q4/8/1N6/8/8/P7/2B2B2 b - - - 0 0 1");
    test::play(*g, "Qxb5");
    CHECK(asked(*g) == "Ghost: place the rescued knight: N@b8, N@d8 or N@h8");
    test::play(*g, "N@h8");
    CHECK(asked(*g) == "Paradigm: move");
}

// ---------------------------------------------------------------- Search

TEST_CASE("Decision 16: Search at once: a pawn reaching rank 8 may go back to any free light "
          "square of its file, through pieces",
          "[variant:ghost][search]") {
    auto g = test::start("ghost", "q7/6P1/6n1/8/8/8/8/8 w - - - 0 0 1");
    test::play(*g, "g8");
    CHECK(asked(*g) == "Paradigm: Search with the pawn on g8 now (Search g2 or Search g4) or Skip");
    auto ev = event_texts(*g, "search g2");
    CHECK(ev.at(1) == "Search: the pawn goes back to g2");
    CHECK(g->fen() == "q7/8/6n1/8/8/8/6P1/8 b -:g2 - - 0 0 1");
}

TEST_CASE("Decision 16: Search later, in place of a move; pawns never promote",
          "[variant:ghost][search]") {
    auto g = test::start("ghost", "q7/6P1/8/8/8/8/8/7N w - - - 0 0 1");
    CHECK(refusal(*g, "g8=Q") == "g8=Q is not possible: pawns do not promote in Ghost Chess; a "
                                 "pawn on rank 8 may Search instead (Search a3)");
    test::play(*g, "g8 Skip Qb8");
    CHECK(offers(*g, "Search g2"));
    CHECK(offers(*g, "Search g6"));
    event_texts(*g, "Search g6");
    CHECK(g->fen() == "1q6/8/6P1/8/8/8/8/7N b - - - 0 0 2");
}

// ---------------------------------------------------------------- the end of a game

TEST_CASE("Decision 17: the Paradigm loses when he has no action at all",
          "[variant:ghost][victory]") {
    auto g = test::start("ghost", "3q4/8/8/8/8/8/8/R7 w - - a1 0 0 1");
    CHECK(g->outcome().status == Status::BlackWins);
    CHECK(g->outcome().reason == "the Paradigm cannot move");
}

TEST_CASE("House rules: the 50-move rule may be claimed and the 75-move rule ends the game",
          "[variant:ghost][draw]") {
    auto g = test::start("ghost", "3q4/8/8/8/8/8/7P/R7 w - - - 0 99 60");
    CHECK_FALSE(g->claimable_draw());
    test::play(*g, "Ra2");
    CHECK(g->claimable_draw() == std::optional<std::string>("50-move rule"));
    auto late = test::start("ghost", "3q4/8/8/8/8/8/7P/R7 w - - - 0 149 80");
    test::play(*late, "Ra2");
    CHECK(late->outcome().status == Status::Draw);
    CHECK(late->outcome().reason == "75-move rule");
}

TEST_CASE("House rules: threefold repetition may be claimed and fivefold ends the game",
          "[variant:ghost][draw]") {
    auto g = test::start("ghost", "3q4/8/8/8/8/8/7P/R7 w - - - 0 0 1");
    test::play(*g, "Ra2 Qd7 Ra1 Qd8 Ra2 Qd7 Ra1");
    CHECK_FALSE(g->claimable_draw());
    test::play(*g, "Qd8");
    CHECK(g->claimable_draw() == std::optional<std::string>("threefold repetition"));
    test::play(*g, "Ra2 Qd7 Ra1 Qd8 Ra2 Qd7 Ra1 Qd8");
    CHECK(g->outcome().reason == "fivefold repetition");
}

// ---------------------------------------------------------------- notation and FEN

TEST_CASE("Ghost Chess notation: every canonical text parses back to its action, and forgiving "
          "forms are accepted",
          "[variant:ghost][notation]") {
    const std::vector<std::string> fens = {
        start_fen,
        "2R2R2/3q4/4P3/8/8/8/P7/2B2B2 b - - - 0 0 1",
        "q7/6P1/8/8/8/8/8/7N w - - - 0 0 1",
        "7q/8/8/2n1n3/3P4/8/8/8 w - - - 0 0 1",
        "8/8/8/q7/8/R7/P7/1N4N1 b - - - 0 0 1",
        "8/8/8/8/3q4/8/8/Rn4nR b - - - 0 0 1",
    };
    NoRandomness no_dice;
    for (const auto& fen : fens) {
        // Walk two decisions deep, checking every text on the way.
        std::vector<std::unique_ptr<Game>> level;
        level.push_back(test::start("ghost", fen));
        for (int depth = 0; depth < 2; ++depth) {
            std::vector<std::unique_ptr<Game>> next;
            for (auto& g : level) {
                if (g->pending().empty())
                    continue;
                const Seat seat = g->pending().front().seat;
                for (const auto& a : g->notated_actions(seat)) {
                    auto parsed = parse_action(*g, seat, a.text);
                    INFO(fen << ": " << a.text);
                    REQUIRE(parsed.ok());
                    CHECK(parsed->action == a.action);
                    CHECK(parsed->text == a.text);
                    if (depth == 0) {
                        auto c = g->clone();
                        REQUIRE(c->apply(seat, a.action, no_dice).ok());
                        next.push_back(std::move(c));
                    }
                }
            }
            level = std::move(next);
        }
    }
    auto g = test::start("ghost");
    CHECK(refusal(*g, "assault E3") == "accepted as Assault e3");
    CHECK(refusal(*g, "d2-f4") == "accepted as Pd2-f4");
    CHECK(refusal(*g, "nc3") == "accepted as Nc3");
    CHECK(refusal(*g, "Nb1-c3!") == "accepted as Nc3");
    auto r = test::start("ghost", "8/8/8/q7/8/R7/P7/1N4N1 b - - - 0 0 1");
    test::play(*r, "Qxa3");
    CHECK(refusal(*r, "n@f8") == "accepted as N@f8");
    CHECK(refusal(*r, "SKIP") == "accepted as Skip");
    test::play(*r, "N@f8");
    CHECK(refusal(*r, "rescue ng1") == "accepted as Rescue Ng1");
}

TEST_CASE("Ghost Chess refusals explain the variant's rules", "[variant:ghost][notation]") {
    auto g = test::start("ghost");
    CHECK(refusal(*g, "O-O") ==
          "O-O is not possible: there is no castling in Ghost Chess (neither side has a king)");
    CHECK(refusal(*g, "Qd4") == "Qd4 is not possible: the Paradigm has no queen");
    CHECK(refusal(*g, "Ra3") == "Ra3 is not possible: no rook can reach a3");
    CHECK(refusal(*g, "N@b8") == "N@b8 is not possible: a piece enters the board only by Rescue "
                                 "(N@b8) or Respawn (Respawn d1), when they are offered");
    auto r = test::start("ghost", "8/8/8/q7/8/R7/P7/1N4N1 b - - - 0 0 1");
    test::play(*r, "Qxa3");
    CHECK(refusal(*r, "Qb4") == "Qb4 is not possible: first exchange the captured rook for a "
                                "knight (N@b8, N@d8, N@f8 or N@h8) or Skip");
    auto wrong_seat = parse_action(*r, Seat::White, "Rescue Ng1");
    REQUIRE_FALSE(wrong_seat.ok());
    CHECK(wrong_seat.error().kind == ErrorKind::NotYourTurn);
}

TEST_CASE("Ghost Chess FEN: positions round-trip and impossible ones are refused",
          "[variant:ghost][fen]") {
    for (const std::string fen : {"2R2R2/8/4q3/8/8/3B4/P7/2B5 w - - d3 1 7 20",
                                  "8/8/8/4n3/3q4/2n5/P7/2R1R3 w - c3,d4,e5 - 0 0 2"})
        CHECK(test::start("ghost", fen)->fen() == fen);
    auto bad = [](const std::string& fen) {
        auto g = find_variant("ghost")->start({}, fen);
        return g ? std::string("accepted") : g.error().message;
    };
    CHECK(bad("8/8/8/8/8/8/8/R7 w") ==
          "cannot read that FEN: the Ghost (q) must be on the board exactly once");
    CHECK(bad("3q4/8/8/8/8/8/8/K7 w") ==
          "cannot read that FEN: 'K' is no Ghost Chess piece (the Paradigm has P N B R, the Ghost "
          "q and rescued knights n)");
    CHECK(bad("3q4/8/8/8/8/8/8/8 w") ==
          "cannot read that FEN: the Paradigm needs at least one piece");
    CHECK(bad("3q4/8/8/8/8/8/8/R7 w F") ==
          "cannot read that FEN: Full Nexus needs the twelve Nexus pieces on their start squares");
    CHECK(bad("nn1q4/8/8/8/8/8/8/N7 w") ==
          "cannot read that FEN: there are only two knights in the game");
    CHECK(bad("3q4/8/8/8/8/8/8/R7 b - a1") ==
          "cannot read that FEN: immune pieces only while the Paradigm is to move");
}

TEST_CASE("Ghost Chess perft from the start and from special positions matches the regression file",
          "[variant:ghost][perft]") {
    auto cases = test::read_perft_file(GHOSTPOST_TEST_DATA "/perft/ghost.epd");
    REQUIRE(cases.size() == 8);
    for (const auto& c : cases) {
        auto game = test::start("ghost", c.fen);
        CHECK(game->fen() == c.fen);
        for (auto [depth, nodes] : c.counts) {
            if (nodes > 600'000)
                break;
            INFO(c.name << " depth " << depth);
            CHECK(game->perft(depth) == nodes);
        }
    }
}

TEST_CASE("Ghost Chess fast perft agrees with walking the interface", "[variant:ghost][perft]") {
    for (const std::string& fen :
         {start_fen, std::string("2R2R2/3q4/4P3/8/8/8/P7/2B2B2 b - - - 0 0 1"),
          std::string("8/8/8/q7/8/R7/P7/1N4N1 b - - - 0 0 1")}) {
        auto g = test::start("ghost", fen);
        INFO(fen);
        CHECK(g->perft(3) == g->Game::perft(3));
    }
}

// perft counts the last ply without listing it, and a key hashes the board by words: the
// counts must be those of the actions the game lists, at every ply (Game::perft walks the
// interface for the first ply only, then calls the fast perft of each copy).
TEST_CASE("Ghost Chess perft equals the count through the Game interface at every ply",
          "[variant:ghost][perft]") {
    for (const auto& c : test::read_perft_file(GHOSTPOST_TEST_DATA "/perft/ghost.epd")) {
        auto game = test::start("ghost", c.fen);
        for (auto [depth, nodes] : c.counts) {
            if (depth > 3 || nodes > 40'000)
                break;
            INFO(c.name << " depth " << depth);
            CHECK(game->perft(depth) == test::generic_perft(*game, depth));
        }
    }
}

// ---------------------------------------------------------------- issue 15: rules fidelity

TEST_CASE("Decision 6 after an Assault: the pieces keep their start squares, so an exchanged rook "
          "returns to a1",
          "[variant:ghost][rescue][nexus]") {
    auto g = test::start("ghost");
    // The Assault carries the a1 rook to c3; the Ghost takes it there and exchanges it.
    test::play(*g, "Assault-e3 Qa5 h3 Qxc3 N@b8");
    auto ev = event_texts(*g, "Rescue-Ng1");
    CHECK(std::find(ev.begin(), ev.end(), "The captured rook returns to a1") != ev.end());
    const BoardView b = g->public_view().board();
    const auto& a1 = b.at(Square(0, 0)).figures;
    REQUIRE(a1.size() == 1);
    CHECK(a1.front().piece == Piece{PieceKind::Rook, Seat::White});
}

TEST_CASE("After a Search the last move shown is where the pawn went back to",
          "[variant:ghost][search]") {
    auto g = test::start("ghost", "q7/6P1/6n1/8/8/8/8/8 w - - - 0 0 1");
    test::play(*g, "g8 Search-g2");
    const BoardView b = g->public_view().board();
    CHECK(b.last_from == Square(6, 7));
    CHECK(b.last_to == Square(6, 1));
}

TEST_CASE("Ghost Chess specials out of their time are refused with the reason",
          "[variant:ghost][notation]") {
    auto g = test::start("ghost");
    CHECK(refusal(*g, "hide") ==
          "hide is not possible: Hide is a special move of the Ghost, not of the Paradigm");
    CHECK(refusal(*g, "Respawn f1") == "Respawn f1 is not possible: Respawn is offered only right "
                                       "after the Ghost's side captures a "
                                       "pawn, while both bishops stand on c1 and f1");
    CHECK(refusal(*g, "Search h8") ==
          "Search h8 is not possible: Search needs a pawn of the Paradigm on rank 8");
    CHECK(refusal(*g, "Assault e5") ==
          "Assault e5 is not possible: Assault now is Assault a6, Assault b5, "
          "Assault c4, Assault d3, Assault e3, Assault f4, Assault g5 or Assault h6");
    test::play(*g, "a3");
    // Each side's specials are its own.
    CHECK(
        refusal(*g, "Assault e3") ==
        "Assault e3 is not possible: Assault is a special move of the Paradigm, not of the Ghost");
    test::play(*g, "Qd7");
    CHECK(refusal(*g, "Assault e3") == "Assault e3 is not possible: Assault needs the Full Nexus "
                                       "(the twelve pieces of a1-c2 and f1-h2 never "
                                       "moved), and there is one Assault per game");
    // Text shaped like a special is an attempt at one: the channel gets the reason too.
    CHECK(looks_like_action(*g, Seat::White, "Assault e3"));
    CHECK(looks_like_action(*g, Seat::Black, "hide"));
    CHECK_FALSE(looks_like_action(*g, Seat::White, "hide and seek"));
    auto theirs = parse_action(*g, Seat::Black, "hide");
    REQUIRE_FALSE(theirs.ok());
    CHECK(theirs.error().message == "it is not your decision now: Paradigm to decide");
    // A Respawn square that is not offered names the ones that are.
    auto r = test::start("ghost", "8/8/8/4P3/3q4/8/P7/2BR1B2 b - - - 0 0 1");
    test::play(*r, "Qxe5");
    CHECK(refusal(*r, "Respawn d1") == "Respawn d1 is not possible: Respawn now is Respawn e1");
}

TEST_CASE("Text that is no Ghost Chess action is answered with Ghost Chess examples, without "
          "castling or promotion",
          "[variant:ghost][notation]") {
    auto g = test::start("ghost");
    CHECK(refusal(*g, "hello") ==
          "\"hello\" is not a move. Write moves like e4, Nf3, Bxc6, Qxd5, Pd2-f4, "
          "Hide or Search a3 (!rules ghost shows the notation).");
}

TEST_CASE("Could win: either side of Ghost Chess can always still win while the game is under way",
          "[variant:ghost][victory]") {
    // One pawn against a lone Ghost: she can still take it, and he wins if she transcends.
    auto g = test::start("ghost", "3q4/8/8/8/8/8/P7/8 w - - - 0 0 1");
    CHECK(g->could_win(Seat::White));
    CHECK(g->could_win(Seat::Black));
}

// Issue 32: spellings players type, each accepted when it names one action.
TEST_CASE("Ghost Chess reads pass for Hide or Skip, Nf8 for a rescue and P@d1 for a Respawn",
          "[variant:ghost][notation][issue32]") {
    auto g = test::start("ghost");
    test::play(*g, "d4");
    CHECK(refusal(*g, "pass") == "accepted as Hide");
    CHECK(refusal(*g, "Pass") == "accepted as Hide");
    // The Paradigm has no pass.
    test::play(*g, "Hide");
    CHECK(refusal(*g, "pass") == "pass is not possible: there is no passing now; you must move");

    auto rescue = test::start("ghost", "8/8/8/q7/8/2N5/P7/6N1 b - - - 0 0 1");
    test::play(*rescue, "Qxc3");
    // A pending decision without a pass: "pass" lists its choices.
    CHECK(refusal(*rescue, "pass") ==
          "pass is not possible: there is no passing now; you must place the "
          "rescued knight: N@b8, N@d8, N@f8 or N@h8");
    CHECK(refusal(*rescue, "Nf8") == "accepted as N@f8");

    auto respawn = test::start("ghost", "8/8/8/4P3/3q4/8/P7/2B2B2 b - - - 0 0 1");
    test::play(*respawn, "Qxe5");
    CHECK(refusal(*respawn, "P@d1") == "accepted as Respawn d1");
    CHECK(refusal(*respawn, "P@e1") == "accepted as Respawn e1");
    CHECK(refusal(*respawn, "pass") == "accepted as Skip");
}

// Issue 32: "the Paradigm player may move any of his pieces in any non-capturing legal move that
// would leave that piece on a non-black square": the c8 piece's bishop moves are legal moves.
TEST_CASE("Decision 15: the Shadow Nexus move may be a bishop move of the c8 piece while the "
          "Shadow Nexus holds",
          "[variant:ghost][nexus][issue32]") {
    auto g = test::start("ghost", "2R2R2/3q4/4P3/8/8/8/P7/2B2B2 b - - - 0 0 1");
    test::play(*g, "Qxe6");
    CHECK(offers(*g, "Rb7"));
    CHECK(offers(*g, "Rd7"));
    CHECK_FALSE(offers(*g, "Rxe6")); // never a capture
    CHECK_FALSE(offers(*g, "Re7"));  // the f8 rook's bishop moves end on dark squares
    auto ev = event_texts(*g, "Rd7");
    CHECK(ev.at(1) == "Shadow Nexus move: the piece on d7 cannot move next turn");
    CHECK(g->fen() == "5R2/3R4/4q3/8/8/8/P7/2B2B2 w - - d7 0 0 2");
}

// Issue 32: "No double step once off rank 2" (decision 7): a pawn that stepped back (or a
// respawned one) stands on rank 2 without its double step; the FEN says which.
TEST_CASE("Decision 7: a pawn back on rank 2 does not step two squares again",
          "[variant:ghost][pawns][issue32]") {
    auto g = test::start("ghost", "7q/8/8/8/8/3P4/8/R7 w - - - 0 0 1");
    test::play(*g, "Pd3-d2 Qh7");
    CHECK(offers(*g, "d3"));
    CHECK_FALSE(offers(*g, "d4"));
    CHECK(refusal(*g, "d4") == "d4 is not possible: the pawn on d2 has left rank 2 before, and "
                               "only a pawn that never left it steps two squares");
    CHECK(g->fen() == "8/7q/8/8/8/8/3P4/R7 w -:d2 - - 0 1 2");
    auto read = test::start("ghost", g->fen());
    CHECK(read->fen() == g->fen());
    CHECK_FALSE(offers(*read, "d4"));
    // A pawn that never left rank 2 keeps it, also after a sideways step along the rank.
    auto home = test::start("ghost", "7q/8/8/8/8/8/3P4/R7 w - - - 0 0 1");
    CHECK(offers(*home, "d4"));
    test::play(*home, "Pd2-e2 Qh7");
    CHECK(offers(*home, "e4"));
}

// ---------------------------------------------------------------- issue 32: the FEN of a pending
// decision

namespace {

// Reads the FEN of `g` into a fresh game and checks it is the same decision: the same seat is
// asked the same question with the same actions, and the FEN written again is the same text.
std::unique_ptr<Game> read_back(const Game& g) {
    const std::string fen = g.fen();
    INFO(fen);
    auto copy = test::start("ghost", fen);
    CHECK(copy->fen() == fen);
    CHECK(asked(*copy) == asked(g));
    CHECK(texts(*copy) == texts(g));
    CHECK(copy->outcome().status == g.outcome().status);
    CHECK(copy->outcome().reason == g.outcome().reason);
    return copy;
}

// Plays `moves` in both games and checks they still agree: board, notes and the decision next.
void play_both(Game& a, Game& b, const std::string& moves) {
    test::play(a, moves);
    test::play(b, moves);
    CHECK(b.fen() == a.fen());
    CHECK(notes(b) == notes(a));
    CHECK(asked(b) == asked(a));
    CHECK(b.outcome().reason == a.outcome().reason);
}

std::string refused(const std::string& fen) {
    auto g = find_variant("ghost")->start({}, fen);
    return g ? std::string("accepted") : g.error().message;
}

} // namespace

TEST_CASE("Ghost Chess FEN while the Ghost places a rescued knight names her decision and keeps "
          "her Shadow",
          "[variant:ghost][fen][rescue][issue32]") {
    auto g = test::start("ghost", "8/8/8/q7/8/2N5/P7/6N1 b - - - 0 0 1");
    test::play(*g, "Qxc3");
    CHECK(g->fen() == "8/8/8/8/8/2q5/P7/6N1 b:b-Place,xNc3 - - - 0 0 1");
    auto copy = read_back(*g);
    CHECK(asked(*copy) == "Ghost: place the rescued knight: N@b8, N@d8, N@f8 or N@h8");
    // c3 is dark: the Ghost took there, so she is in Shadow for the Paradigm's turn in both.
    play_both(*g, *copy, "N@d8");
    CHECK(copy->fen() == "3n4/8/8/8/8/2q5/P7/6N1 w - c3 - 0 0 2");
    CHECK(notes(*copy).at(1) == "Cannot be captured this turn: Qc3 (Shadow).");
}

TEST_CASE("Ghost Chess FEN while a Rescue by exchange is offered and while the Paradigm chooses "
          "the knight",
          "[variant:ghost][fen][rescue][issue32]") {
    auto g = test::start("ghost", "8/8/8/q7/8/R7/P7/1N4N1 b - - - 0 0 1");
    test::play(*g, "Qxa3");
    // The captured rook would return to a1: the FEN says so, as the board no longer can.
    CHECK(g->fen() == "8/8/8/8/8/q7/P7/1N4N1 b:b-Exchange,xRa3,a1 - - - 0 0 1");
    auto offer = read_back(*g);
    CHECK(texts(*offer) == std::vector<std::string>{"N@b8", "N@d8", "N@f8", "N@h8", "Skip"});
    play_both(*g, *offer, "N@f8");
    CHECK(g->fen() == "8/8/8/8/8/q7/P7/1N4N1 b:w-Choose,xRa3,a1,N@f8 - - - 0 0 1");
    auto choice = read_back(*g);
    CHECK(asked(*choice) == "Paradigm: choose which knight is rescued: Rescue Nb1 or Rescue Ng1");
    play_both(*g, *choice, "Rescue-Ng1");
    CHECK(choice->fen() == "5n2/8/8/8/8/q7/P7/RN6 w - a3 - 0 0 2");
    // The h1 rook of the other wing returns to h1, also when read from a FEN.
    auto h1 = test::start("ghost", "8/8/8/7q/8/7R/P7/1N4N1 b - - - 0 0 1");
    test::play(*h1, "Qxh3");
    CHECK(h1->fen() == "8/8/8/8/8/7q/P7/1N4N1 b:b-Exchange,xRh3,h1 - - - 0 0 1");
    auto h1_copy = read_back(*h1);
    play_both(*h1, *h1_copy, "N@b8 Rescue-Nb1");
    CHECK(h1_copy->fen() == "1n6/8/8/8/8/7q/P7/6NR w - - - 0 0 2");
}

TEST_CASE("Ghost Chess FEN while the Paradigm may Respawn keeps the Ghost's Shadow",
          "[variant:ghost][fen][nexus][issue32]") {
    auto g = test::start("ghost", "8/8/8/4P3/3q4/8/P7/2B2B2 b - - - 0 0 1");
    test::play(*g, "Qxe5");
    CHECK(g->fen() == "8/8/8/4q3/8/8/P7/2B2B2 b:w-Reaction,xPe5 - - - 0 0 1");
    auto copy = read_back(*g);
    CHECK(asked(*copy) ==
          "Paradigm: Respawn the captured pawn (Respawn d1 or Respawn e1), or Skip");
    play_both(*g, *copy, "Skip");
    CHECK(copy->fen() == "8/8/8/4q3/8/8/P7/2B2B2 w - e5 - 0 0 2");
    CHECK(notes(*copy).at(1) == "Cannot be captured this turn: Qe5 (Shadow).");
    // A rescued knight's capture gives no Shadow, read from the FEN too.
    auto knight = test::start("ghost", "7q/8/8/1n6/8/2P5/P7/2B2B2 b - - - 0 0 1");
    test::play(*knight, "Nxc3");
    CHECK(knight->fen() == "7q/8/8/8/8/2n5/P7/2B2B2 b:w-Reaction,xPc3 - - - 0 0 1");
    auto knight_copy = read_back(*knight);
    play_both(*knight, *knight_copy, "Respawn-d1");
    CHECK(knight_copy->fen() == "7q/8/8/8/8/2n5/P7/2BP1B2 w - - - 0 0 2");
}

TEST_CASE(
    "Ghost Chess FEN while the Paradigm may make the Shadow Nexus move says the Shadow Nexus held",
    "[variant:ghost][fen][nexus][issue32]") {
    auto g = test::start("ghost", "2R2R2/3q4/4P3/8/8/8/P7/2B2B2 b - - - 0 0 1");
    test::play(*g, "Qxe6");
    CHECK(g->fen() == "2R2R2/8/4q3/8/8/8/P7/2B2B2 b:w-Reaction,xPe6,Nexus - - - 0 0 1");
    auto copy = read_back(*g);
    play_both(*g, *copy, "Rd7");
    CHECK(copy->fen() == "5R2/3R4/4q3/8/8/8/P7/2B2B2 w - - d7 0 0 2");
    // The capture that ends the Shadow Nexus (the c8 rook) still gives the move; declining the
    // exchange leads to it.
    auto ex = test::start("ghost", "2R2R2/3q4/8/8/8/8/P7/1NB2B2 b - - - 0 0 1");
    test::play(*ex, "Qxc8");
    CHECK(ex->fen() == "2q2R2/8/8/8/8/8/P7/1NB2B2 b:b-Exchange,xRc8,a1,Nexus - - - 0 0 1");
    auto ex_copy = read_back(*ex);
    play_both(*ex, *ex_copy, "Skip");
    CHECK(ex->fen() == "2q2R2/8/8/8/8/8/P7/1NB2B2 b:w-Reaction,xRc8,Nexus - - - 0 0 1");
    auto reaction = read_back(*ex);
    play_both(*ex, *reaction, "Bd3");
    CHECK(reaction->fen() == "2q2R2/8/8/8/8/3B4/P7/1NB5 w - - d3 0 0 2");
}

TEST_CASE("Ghost Chess FEN while the Paradigm may Search at once keeps the Ghost's protection",
          "[variant:ghost][fen][search][issue32]") {
    auto g = test::start("ghost", "1q6/6P1/6n1/8/8/8/8/8 b - - - 0 0 1");
    test::play(*g, "Hide g8");
    CHECK(g->fen() == "1q4P1/8/6n1/8/8/8/8/8 w:w-Search,g8 - b8 - 0 1 2");
    auto copy = read_back(*g);
    CHECK(texts(*copy) == std::vector<std::string>{"Search g2", "Search g4", "Skip"});
    CHECK(notes(*copy) == notes(*g));
    play_both(*g, *copy, "Search-g2");
    CHECK(copy->fen() == "1q6/8/6n1/8/8/8/6P1/8 b -:g2 - - 0 0 2");
}

TEST_CASE(
    "Ghost Chess FEN after a Transcend: the knights' moves are pending and the end reads back",
    "[variant:ghost][fen][transcend][issue32]") {
    auto g = test::start("ghost", "8/8/8/8/3q4/8/8/Rn4nR b - - - 0 0 1");
    test::play(*g, "Transcend");
    CHECK(g->fen() == "8/8/8/8/8/8/8/Rn4nR b:b-Knights - - - 0 0 1");
    auto copy = read_back(*g);
    play_both(*g, *copy, "Nc3");
    // The knight on c3 has moved: only the g1 knight may still move.
    CHECK(g->fen() == "8/8/8/8/8/2n5/8/R5nR b:b-Knights,c3 - - - 0 0 1");
    auto moved = read_back(*g);
    CHECK(texts(*moved) == std::vector<std::string>{"Ne2", "Nf3", "Nh3", "Skip"});
    play_both(*g, *moved, "Skip");
    CHECK(g->fen() == "8/8/8/8/8/2n5/8/R5nR b:Transcended - - - 0 0 1");
    auto over = read_back(*g);
    CHECK(over->outcome().status == Status::WhiteWins);
    CHECK(over->pending().empty());
    // Without knights the game ends at once; the Ghost wins when nothing of the Paradigm remains.
    auto all = test::start("ghost", "8/8/8/3PP3/3q4/2P5/8/8 b - - - 0 0 1");
    test::play(*all, "Transcend");
    CHECK(all->fen() == "8/8/8/8/8/8/8/8 b:Transcended - - - 0 0 1");
    CHECK(read_back(*all)->outcome().status == Status::BlackWins);
}

TEST_CASE("Ghost Chess FEN after the Ghost is captured: her knights' moves in the Paradigm's turn "
          "read back",
          "[variant:ghost][fen][transcend][issue32]") {
    // Hide protected the g1 knight for this Paradigm turn; once the Ghost has transcended
    // nothing is protected or locked any more, so the FEN names nothing (the knight may move off).
    auto g = test::start("ghost", "8/8/8/8/4q3/8/P7/4R1n1 b - - - 0 0 1");
    test::play(*g, "Hide Rxe4");
    CHECK(g->fen() == "8/8/8/8/8/8/P7/6n1 w:b-Knights - - - 0 1 2");
    auto copy = read_back(*g);
    CHECK(asked(*copy) ==
          "Ghost: move each knight once after the Transcend (Ne2, Nf3 or Nh3) or Skip");
    play_both(*g, *copy, "Nf3");
    CHECK(g->fen() == "8/8/8/8/8/5n2/P7/8 w:Transcended - - - 0 1 2");
    read_back(*g);
}

TEST_CASE("Ghost Chess FEN: an impossible pending decision is refused with the reason",
          "[variant:ghost][fen][issue32]") {
    const std::string why = "cannot read that FEN: ";
    // Who decides must be the seat the decision belongs to, in the turn it belongs to.
    CHECK(refused("8/8/8/4q3/8/8/P7/2B2B2 b:b-Reaction,xPe5") ==
          why + "Reaction is the Paradigm's decision: write w-Reaction");
    CHECK(refused("8/8/8/4q3/8/8/P7/2B2B2 w:w-Reaction,xPe5") ==
          why + "Reaction is decided in the Ghost's turn (b)");
    CHECK(refused("8/8/8/4q3/8/8/P7/2B2B2 b:w-Castle") ==
          why + "the pending decision is Place, Exchange, Choose, Reaction, Search, Knights or "
                "Transcended, "
                "written after the side and a colon (b:w-Reaction,xPe5)");
    CHECK(refused("8/8/8/4q3/8/8/P7/2B2B2 b:Reaction,xPe5") ==
          why + "the pending decision names who decides: w-Reaction");
    // The capture must name a piece of the Ghost's side where it was made.
    CHECK(refused("8/8/8/4q3/8/8/P7/2B2B2 b:w-Reaction,xPd4") ==
          why + "the capture on d4: nothing of the Ghost's side stands there");
    CHECK(refused("8/8/8/4q3/8/8/P7/2B2B2 b:w-Reaction,xQe5") ==
          why + "the capture is written x, the piece taken (P, N, B or R) and its square: xPe5");
    CHECK(refused("7q/8/8/8/8/2n5/P7/6N1 b:b-Place,xNc3") ==
          why + "only a knight the Ghost takes herself is rescued");
    CHECK(refused("1R3R1P/8/8/8/8/2q5/P7/6N1 b:b-Place,xNc3") ==
          why + "the rescued knight enters without a question unless two dark squares of rank 8 "
                "are free");
    CHECK(refused("3n4/8/8/8/8/2q5/P7/n7 b:b-Place,xNc3") ==
          why + "there are only two knights in the game");
    // A decider that would have nothing to decide.
    CHECK(refused("8/8/8/4q3/8/8/P7/5B2 b:w-Reaction,xPe5") ==
          why + "the Paradigm would have nothing to choose: no Respawn and no Shadow Nexus move");
    CHECK(refused("8/8/8/4q3/8/8/P7/2B2B2 b:w-Reaction,xPe5,Nexus,Nexus") ==
          why + "Reaction takes the capture and maybe Nexus: b:w-Reaction,xPe5,Nexus");
    CHECK(refused("7q/8/8/8/8/2n5/P7/2B2B2 b:w-Reaction,xPc3,Nexus") ==
          why + "the Shadow Nexus move follows only a capture by the Ghost herself");
    CHECK(refused("8/8/8/8/8/q7/P7/8 b:b-Exchange,xRa3,a1") ==
          why + "the Ghost cannot exchange: the Paradigm has no knight or no dark square of rank 8 "
                "is free");
    CHECK(refused("8/8/8/8/8/q7/P7/1N6 b:b-Exchange,xRa3,c1") ==
          why + "a captured rook returns to a1 or h1, a bishop to c1 (dark squares) or f1 (light)");
    CHECK(refused("8/8/8/8/8/q7/P7/1N6 b:w-Choose,xRa3,a1,N@f8") ==
          why + "the Paradigm chooses the knight only when he has two");
    CHECK(refused("8/8/8/8/8/q7/P7/1N4N1 b:w-Choose,xRa3,a1,N@e8") ==
          why + "the exchanged knight enters on a free dark square of rank 8 (N@b8, N@d8, N@f8 or "
                "N@h8)");
    CHECK(refused("q7/6P1/8/8/8/8/8/8 w:w-Search,g7") ==
          why + "Search at once names the Paradigm's pawn on rank 8, not g7");
    CHECK(refused("q5P1/8/8/8/8/8/8/8 w:w-Search,g8 - - g8") ==
          why + "the pawn on g8 is locked by the Shadow Nexus move: it did not just move");
    CHECK(refused("q5P1/8/6R1/8/6R1/8/6R1/8 w:w-Search,g8") ==
          why + "the pawn on g8 has no free light square of its file to go back to");
    CHECK(refused("8/8/8/8/3q4/8/8/Rn4nR b:b-Knights") ==
          why + "the Ghost is still on the board: she has not transcended");
    CHECK(refused("8/8/8/8/8/8/8/R7 b:b-Knights") ==
          why + "no knight of the Ghost's side has a move left");
    CHECK(refused("8/8/8/8/8/8/8/Rn6 b:b-Knights,c3") ==
          why + "the knights that moved: no knight of the Ghost's side on c3");
    CHECK(refused("8/8/8/8/8/8/8/1n6 b:b-Knights") ==
          why + "no Paradigm piece remains: the game is over (b:Transcended)");
    CHECK(refused("3q4/8/8/8/8/8/8/R7 b:Transcended") ==
          why + "the Ghost is still on the board: she has not transcended");
    // Without the pending field the Ghost must stand on the board, as before.
    CHECK(refused("8/8/8/8/8/8/8/R7 w") == why + "the Ghost (q) must be on the board exactly once");
    // The FEN of an ordinary turn is as it was.
    CHECK(test::start("ghost", start_fen)->fen() == start_fen);
}

TEST_CASE(
    "Ghost Chess FEN: at every decision of random games the FEN reads back to the same decision",
    "[variant:ghost][fen][issue32]") {
    // Positions rich in triggered decisions: the start (Respawn, Search), a Shadow Nexus, a
    // Ghost among knights and rooks (Rescue, exchange), knights ready for a Transcend.
    const std::vector<std::string> starts = {
        start_fen,
        "2R2R2/3q4/4P3/1N6/8/R7/P1P3P1/1NB2B2 b - - - 0 0 1",
        "8/6P1/8/q7/1N6/R1B5/P7/6N1 b - - - 0 0 1",
        "1n6/8/2P5/4R3/3q4/2P5/P7/2B2BnR b - - - 0 0 1",
    };
    std::mt19937 gen(32);
    NoRandomness no_dice;
    std::map<std::string, int> seen; // the pending words met, to show the walk reached each
    for (int game = 0; game < 80; ++game) {
        auto g = test::start("ghost", starts[static_cast<std::size_t>(game) % starts.size()]);
        for (int ply = 0; ply < 60 && !g->outcome().over(); ++ply) {
            const std::string fen = g->fen();
            const std::string side =
                fen.substr(fen.find(' ') + 1, fen.find(' ', fen.find(' ') + 1) - fen.find(' ') - 1);
            if (side.find(':') != std::string::npos)
                ++seen[side.substr(side.find(':') + 1, side.find(',') - side.find(':') - 1)];
            auto copy = find_variant("ghost")->start({}, fen);
            INFO(fen << (copy ? "" : ": " + copy.error().message));
            REQUIRE(copy.ok());
            REQUIRE((*copy)->fen() == fen);
            REQUIRE(asked(**copy) == asked(*g));
            REQUIRE(texts(**copy) == texts(*g));
            const Seat seat = g->pending().front().seat;
            const auto list = g->legal_actions(seat);
            const Action a =
                list[std::uniform_int_distribution<std::size_t>(0, list.size() - 1)(gen)];
            REQUIRE(g->apply(seat, a, no_dice).ok());
        }
        if (g->outcome().over()) {
            auto copy = test::start("ghost", g->fen());
            CHECK(copy->fen() == g->fen());
        }
    }
    for (const char* word :
         {"b-Place", "b-Exchange", "w-Choose", "w-Reaction", "w-Search", "b-Knights"}) {
        INFO(word);
        CHECK(seen[word] > 0);
    }
}
