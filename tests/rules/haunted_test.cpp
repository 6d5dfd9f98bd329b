// Haunted Chess: one test per rule clause and per decision of docs/variants/haunted.md.
#include "chess_test_support.h"

#include <algorithm>

using test::offers;
using test::texts;

namespace {

using namespace ghostpost::rules;

Square sq(const char* name) {
    return *parse_square(name);
}

std::vector<Figure> figures(const Game& g, const char* square) {
    return g.public_view().board().at(sq(square)).figures;
}

Figure living(PieceKind k, Seat s) {
    return Figure{Piece{k, s}, FigureStyle::Living};
}
Figure spirit(PieceKind k, Seat s, bool invoked = false) {
    return Figure{Piece{k, s}, invoked ? FigureStyle::PaleLit : FigureStyle::Pale};
}

// Plays one move by its text and returns the texts of the events it caused.
std::vector<std::string> move(Game& g, const std::string& text) {
    NoRandomness no_dice;
    const Seat seat = g.pending().front().seat;
    auto action = parse_action(g, seat, text);
    INFO(text << ": " << (action ? "" : action.error().message));
    REQUIRE(action.ok());
    auto events = g.apply(seat, action->action, no_dice);
    REQUIRE(events.ok());
    std::vector<std::string> out;
    for (const auto& e : *events)
        out.push_back(e.text);
    return out;
}

std::string refusal(const Game& g, const std::string& text) {
    auto action = parse_action(g, g.pending().front().seat, text);
    REQUIRE_FALSE(action.ok());
    return action.error().message;
}

} // namespace

TEST_CASE("The inventor's worked game ends 6.Qa4+ with check by the invoked white spirit bishop",
          "[variant:haunted]") {
    auto g = test::start("haunted");
    test::play(*g, "e4 e5 Nf3 Nc6 Bb5 d6");

    // 4.Bxc6: the black knight becomes a spirit under the white bishop.
    CHECK(move(*g, "Bxc6+") == std::vector<std::string>{"Bxc6+",
                                                        "the black knight on c6 becomes a spirit",
                                                        "check by the white bishop on c6"});
    CHECK(figures(*g, "c6") == std::vector<Figure>{living(PieceKind::Bishop, Seat::White),
                                                   spirit(PieceKind::Knight, Seat::Black)});

    // 4...bxc6: two spirits on c6, the bishop outranks the knight; it waits under the pawn.
    CHECK(move(*g, "bxc6") ==
          std::vector<std::string>{
              "bxc6", "the white bishop on c6 becomes a spirit",
              "two spirits meet on c6: the white spirit bishop stays and the black spirit "
              "knight leaves the game"});
    CHECK(figures(*g, "c6") == std::vector<Figure>{living(PieceKind::Pawn, Seat::Black),
                                                   spirit(PieceKind::Bishop, Seat::White)});

    test::play(*g, "c3");
    // 5...c5: the spirit bishop is released but not invoked, so no check.
    CHECK(move(*g, "c5") ==
          std::vector<std::string>{"c5", "the white spirit bishop on c6 is released"});
    CHECK(figures(*g, "c6") == std::vector<Figure>{spirit(PieceKind::Bishop, Seat::White)});
    CHECK_FALSE(g->public_view().board().check.valid());

    // 6.Qa4+: the queen attacks c6 (its ray stops there), invoking the spirit, which checks via d7.
    CHECK(offers(*g, "Qa4+"));
    CHECK(move(*g, "Qa4") ==
          std::vector<std::string>{"Qa4+", "check by the invoked white spirit bishop on c6"});
    CHECK(figures(*g, "c6") == std::vector<Figure>{spirit(PieceKind::Bishop, Seat::White, true)});
    CHECK(g->public_view().board().check == sq("e8"));
    CHECK(g->fen() == "r1bqkbnr/p1p2ppp/3p4/2p1p3/Q3P3/2P2N2/PP1P1PPP/RNB1K2R[Bc6] b KQkq - 1 6");
    // The queen's own line to e8 is blocked by the spirit: ...Bd7 and ...Qd7 answer the spirit.
    CHECK(texts(*g) == std::vector<std::string>{"Bd7", "Ke7", "Qd7"});
}

TEST_CASE("A captured piece becomes a spirit under its captor, inert until the square is left",
          "[variant:haunted]") {
    auto g = test::start("haunted", "4k3/8/8/3p4/8/1B6/8/4K3 w - - 0 1");
    CHECK(move(*g, "Bxd5")[1] == "the black pawn on d5 becomes a spirit");
    CHECK(g->fen() == "4k3/8/8/3B4/8/8/8/4K3[pd5] b - - 0 1");
    // A virtual spirit has no moves of its own.
    CHECK(texts(*g) == std::vector<std::string>{"Kd7", "Kd8", "Ke7", "Kf8"});
}

TEST_CASE("A released spirit moves like its kind onto empty squares only", "[variant:haunted]") {
    auto g = test::start("haunted", "4k3/8/8/8/3n4/8/8/4K3[Bc3,rf6] w - - 0 1");
    auto all = texts(*g);
    // c3 diagonals: b2 a1, d2, b4 a5, and d4 holds a black knight (no capture: not invoked).
    CHECK(offers(*g, "SBa1"));
    CHECK(offers(*g, "SBb4"));
    CHECK(offers(*g, "SBd2"));
    CHECK_FALSE(offers(*g, "SBxd4"));
    CHECK(std::count_if(all.begin(), all.end(),
                        [](const std::string& t) { return t.starts_with("SB"); }) == 5);
}

TEST_CASE("A spirit never moves onto another spirit and never crosses one", "[variant:haunted]") {
    auto g = test::start("haunted", "4k3/8/8/8/8/8/8/4K3[Bd4,nf6] w - - 0 1");
    CHECK(offers(*g, "SBe5"));
    CHECK_FALSE(offers(*g, "SBf6"));
    CHECK_FALSE(offers(*g, "SBg7"));
    auto all = texts(*g);
    CHECK(std::count_if(all.begin(), all.end(),
                        [](const std::string& t) { return t.starts_with("SB"); }) == 10);
    CHECK(g->perft(1) == 15); // 10 spirit moves and the king's 5
}

TEST_CASE("An invoked spirit captures, and what it captures is annihilated", "[variant:haunted]") {
    auto g = test::start("haunted", "4k3/8/8/8/3r4/8/8/B3K3[Bc3] w - - 0 1");
    CHECK(figures(*g, "c3") == std::vector<Figure>{spirit(PieceKind::Bishop, Seat::White, true)});
    CHECK(move(*g, "SBxd4") ==
          std::vector<std::string>{"SBxd4",
                                   "the white spirit bishop annihilates the black rook on d4"});
    CHECK(g->fen() == "4k3/8/8/8/8/8/8/B3K3[Bd4] b - - 0 1");
}

TEST_CASE("A spirit that is not invoked cannot capture", "[variant:haunted]") {
    auto g = test::start("haunted", "4k3/8/8/8/3r4/8/8/4K3[Bc3] w - - 0 1");
    CHECK(figures(*g, "c3") == std::vector<Figure>{spirit(PieceKind::Bishop, Seat::White)});
    CHECK_FALSE(offers(*g, "SBxd4"));
    CHECK(offers(*g, "SBb4"));
}

TEST_CASE(
    "Invocation counts any friendly living piece whose attack reaches the spirit, the king too",
    "[variant:haunted]") {
    auto g = test::start("haunted", "4k3/8/8/8/1r6/3K4/8/8[Bc3] w - - 0 1");
    CHECK(figures(*g, "c3") == std::vector<Figure>{spirit(PieceKind::Bishop, Seat::White, true)});
    CHECK(offers(*g, "SBxb4"));
    CHECK(g->public_view().board().notes == std::vector<std::string>{"Spirits: Bc3 (invoked)"});
}

TEST_CASE("Spirits block lines for both sides and can never be captured", "[variant:haunted]") {
    auto g = test::start("haunted", "4k3/8/8/8/8/8/8/R3K3[nc1] w Q - 0 1");
    CHECK(offers(*g, "Rb1"));
    CHECK_FALSE(offers(*g, "Rd1"));
    CHECK(refusal(*g, "Rd1") == "Rd1 is not possible: the black spirit knight on c1 blocks the "
                                "rook on a1: spirits cannot be crossed");
    CHECK(refusal(*g, "Rc1") ==
          "Rc1 is not possible: c1 is haunted by the black spirit knight: spirits can never "
          "be captured and nothing may stand on them");
    // Including castling paths.
    CHECK(refusal(*g, "O-O-O") ==
          "O-O-O is not possible: the black spirit knight on c1 stands between the king "
          "and the rook, and spirits never move aside for castling");
}

TEST_CASE("Check comes only from living pieces and invoked spirits", "[variant:haunted]") {
    auto quiet = test::start("haunted", "k7/8/8/8/8/8/8/4K3[re5] w - - 0 1");
    CHECK_FALSE(quiet->public_view().board().check.valid());
    CHECK(texts(*quiet) == std::vector<std::string>{"Kd1", "Kd2", "Ke2", "Kf1", "Kf2"});

    auto invoked = test::start("haunted", "k7/3n4/8/8/8/8/8/4K3[re5] w - - 0 1");
    CHECK(invoked->public_view().board().check == sq("e1"));
    CHECK(texts(*invoked) == std::vector<std::string>{"Kd1", "Kd2", "Kf1", "Kf2"});
    CHECK(refusal(*invoked, "Ke2") == "Ke2 is not possible: you are in check from the invoked "
                                      "black spirit rook on e5 and it does not answer "
                                      "the check");
}

TEST_CASE("A move that leaves the king to an invoked spirit is refused", "[variant:haunted]") {
    // The white bishop shields e1 from the black spirit rook's file; the knight on d7 invokes it.
    auto g = test::start("haunted", "k7/3n4/8/8/8/8/4B3/4K3[re5] w - - 0 1");
    CHECK_FALSE(offers(*g, "Bd3"));
    CHECK(refusal(*g, "Bd3") == "Bd3 is not possible: that leaves your king in check from the "
                                "invoked black spirit rook on e5");
}

TEST_CASE("Two spirits on one square: the higher of Q R B N P stays", "[variant:haunted]") {
    // A living capture of a piece that carries a weaker spirit.
    auto g = test::start("haunted", "4k3/8/8/4b3/8/2N5/8/4K3[pc3] b - - 0 1");
    CHECK(move(*g, "Bxc3+") ==
          std::vector<std::string>{
              "Bxc3+", "the white knight on c3 becomes a spirit",
              "two spirits meet on c3: the white spirit knight stays and the black spirit "
              "pawn leaves the game",
              "check by the black bishop on c3"});
    CHECK(g->fen() == "4k3/8/8/8/8/2b5/8/4K3[Nc3] w - - 0 2");
}

TEST_CASE("Two spirits of one rank: the one already on the square stays, same side too",
          "[variant:haunted]") {
    auto g = test::start("haunted", "4k3/8/8/4b3/8/2N5/8/4K3[Nc3] b - - 0 1");
    CHECK(move(*g, "Bxc3+")[2] == "two spirits meet on c3: the white spirit knight stays and the "
                                  "white spirit knight leaves the game");
    CHECK(g->fen() == "4k3/8/8/8/8/2b5/8/4K3[Nc3] w - - 0 2");
}

TEST_CASE("A spirit that captures onto a stronger spirit leaves the game", "[variant:haunted]") {
    // Under the knight a black spirit queen waits: it outranks the pawn and stays, released.
    // The invoked white spirit pawn on b5 (the rook on b1 reaches it) takes the knight on c6.
    auto g = test::start("haunted", "4k3/8/2n5/8/8/8/8/1R2K3[Pb5,qc6] w - - 0 1");
    CHECK(move(*g, "SPxc6") ==
          std::vector<std::string>{
              "SPxc6", "the white spirit pawn annihilates the black knight on c6",
              "two spirits meet on c6: the black spirit queen stays and the white spirit pawn "
              "leaves the game"});
    CHECK(g->fen() == "4k3/8/8/8/8/8/8/1R2K3[qc6] b - - 0 1");
}

TEST_CASE("A spirit pawn moves in its own colour's direction, two steps from its first rank",
          "[variant:haunted]") {
    auto g = test::start("haunted", "4k3/8/8/8/8/8/8/4K3[pd7,Pg2] b - - 0 1");
    CHECK(offers(*g, "SPd6"));
    CHECK(offers(*g, "SPd5"));
    CHECK_FALSE(offers(*g, "SPd8"));
    test::play(*g, "SPd5");
    CHECK(offers(*g, "SPg3"));
    CHECK(offers(*g, "SPg4"));
}

TEST_CASE("A spirit pawn invoked on arrival at the last rank may be reborn as that move",
          "[variant:haunted]") {
    auto g = test::start("haunted", "k7/8/8/8/8/8/8/2R1K3[Pc7] w - - 0 1");
    CHECK(offers(*g, "SPc8"));
    CHECK(offers(*g, "SPc8=Q+"));
    CHECK(offers(*g, "SPc8=N"));
    CHECK(move(*g, "SPc8=Q") ==
          std::vector<std::string>{"SPc8=Q+", "the spirit pawn on c8 is reborn as a living queen",
                                   "check by the white queen on c8"});
    CHECK(g->fen() == "k1Q5/8/8/8/8/8/8/2R1K3 b - - 0 1");
}

TEST_CASE("A spirit pawn not invoked on arrival stays a spirit and may be reborn on a later turn",
          "[variant:haunted]") {
    auto g = test::start("haunted", "7k/8/8/8/8/8/8/R3K3[Pc7] w - - 0 1");
    CHECK(offers(*g, "SPc8"));
    CHECK_FALSE(offers(*g, "SPc8=Q"));
    test::play(*g, "SPc8 Kg7");
    CHECK_FALSE(offers(*g, "SPc8=Q"));
    test::play(*g, "Rc1 Kf6");
    CHECK(figures(*g, "c8") == std::vector<Figure>{spirit(PieceKind::Pawn, Seat::White, true)});
    CHECK(offers(*g, "SPc8=R"));
    auto action = parse_action(*g, Seat::White, "SPc8=R");
    REQUIRE(action.ok());
    CHECK(action->action.from == sq("c8"));
    CHECK(action->action.to == sq("c8"));
    CHECK(parse_action(*g, Seat::White, "spc8r")->text == "SPc8=R");
    CHECK(move(*g, "SPc8=R")[1] == "the spirit pawn on c8 is reborn as a living rook");
    CHECK(g->fen() == "2R5/8/5k2/8/8/8/8/2R1K3 b - - 0 3");
}

TEST_CASE("A rebirth written as a living promotion is refused with the spirit form to write, piece "
          "included",
          "[variant:haunted]") {
    auto g = test::start("haunted", "4k3/8/8/8/8/8/8/1R2K3[Pb7] w - - 0 1");
    CHECK(refusal(*g, "b8=Q") ==
          "b8=Q is not possible: no living pawn can go to b8, but your white spirit pawn "
          "on b7 can: write SPb8=Q");
    CHECK(refusal(*g, "b8=N") ==
          "b8=N is not possible: no living pawn can go to b8, but your white spirit pawn "
          "on b7 can: write SPb8=N");
}

TEST_CASE("En passant leaves the captured pawn's spirit released on its own square",
          "[variant:haunted]") {
    auto g = test::start("haunted", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    CHECK(move(*g, "exd6") ==
          std::vector<std::string>{"exd6", "the black pawn on d5 becomes a spirit"});
    CHECK(g->fen() == "4k3/8/3P4/8/8/8/8/4K3[pd5] b - - 0 2");
    CHECK(figures(*g, "d5") == std::vector<Figure>{spirit(PieceKind::Pawn, Seat::Black)});
    CHECK(offers(*g, "SPd4"));
}

TEST_CASE("No insufficient-material draw while a spirit exists", "[variant:haunted]") {
    auto haunted = test::start("haunted", "4k3/8/8/8/8/8/8/4K3[Nd4] w - - 0 1");
    CHECK(haunted->outcome().status == Status::Ongoing);
    auto bare = test::start("haunted", "4k3/8/8/8/8/8/8/4K2N w - - 0 1");
    CHECK(bare->outcome().status == Status::Draw);
    CHECK(bare->outcome().reason == "insufficient material");
}

TEST_CASE(
    "Spirit pawn moves and spirit captures reset the 50-move count, other spirit moves do not",
    "[variant:haunted]") {
    auto g = test::start("haunted", "4k3/8/8/8/8/8/8/4K3[Nd4,Pa2] w - - 99 60");
    CHECK_FALSE(g->claimable_draw());
    test::play(*g, "SNf5");
    CHECK(g->claimable_draw() == std::optional<std::string>("50-move rule"));
    test::play(*g, "Kd8 SPa3");
    CHECK(g->fen() == "3k4/8/8/8/8/8/8/4K3[Pa3,Nf5] b - - 0 61");
}

TEST_CASE("Spirit moves are written S, letter, SAN, and accepted in forgiving forms",
          "[variant:haunted]") {
    auto g = test::start("haunted", "4k3/8/8/8/8/8/8/4K3[Bd4] w - - 0 1");
    for (const char* typed : {"SBe5", "S:Be5", "S-Be5", "S Be5", "sbe5", "SBxe5", "sBe5!"}) {
        auto a = parse_action(*g, Seat::White, typed);
        INFO(typed);
        REQUIRE(a.ok());
        CHECK(a->text == "SBe5");
    }
    CHECK(refusal(*g, "Be5") == "Be5 is not possible: no living bishop can go to e5, but your "
                                "white spirit bishop on d4 can: write SBe5");
}

TEST_CASE("Spirit moves written from square to square are read too", "[variant:haunted]") {
    auto g = test::start("haunted", "4k3/8/8/8/8/8/8/4K3[Bd4] w - - 0 1");
    for (const char* typed : {"SBd4-e5", "S:Bd4e5", "sbd4e5", "S Bd4 e5", "SB4e5"}) {
        auto a = parse_action(*g, Seat::White, typed);
        INFO(typed << ": " << (a ? "" : a.error().message));
        REQUIRE(a.ok());
        CHECK(a->text == "SBe5");
    }
}

TEST_CASE("Refused spirit moves say what the spirit rules forbid", "[variant:haunted]") {
    auto sleeping = test::start("haunted", "4k3/8/8/8/3r4/8/8/4K3[Bc3] w - - 0 1");
    CHECK(looks_like_action(*sleeping, Seat::White, "SBxd4"));
    CHECK(refusal(*sleeping, "SBxd4") ==
          "SBxd4 is not possible: the spirit bishop on c3 is not invoked, so it "
          "cannot capture: a living piece of yours must attack c3");
    CHECK(refusal(*sleeping, "SQd1") == "SQd1 is not possible: you have no spirit queen");
    CHECK(refusal(*sleeping, "SKd1") == "SKd1 is not possible: a king never becomes a spirit");

    auto waiting = test::start("haunted");
    test::play(*waiting, "e4 e5 Nf3 Nc6 Bb5 d6 Bxc6+");
    CHECK(refusal(*waiting, "SNd4") ==
          "SNd4 is not possible: your spirit knight on c6 waits under the white "
          "bishop and is released only when that square is left");

    auto pawn = test::start("haunted", "7k/8/8/8/8/8/8/R3K3[Pc7] w - - 0 1");
    CHECK(refusal(*pawn, "SPc8=Q") ==
          "SPc8=Q is not possible: a spirit pawn is reborn only if it is invoked on "
          "c8 (a living piece of yours must attack it)");

    auto twins = test::start("haunted", "4k3/8/8/8/8/8/8/4K3[Nb1,Nf1] w - - 0 1");
    auto both = parse_action(*twins, Seat::White, "SNd2");
    REQUIRE_FALSE(both.ok());
    CHECK(both.error().kind == ErrorKind::Ambiguous);
    CHECK(both.error().message == "SNd2 is ambiguous: SNbd2 or SNfd2");
}

TEST_CASE("The same spirit kind reaching one square is disambiguated like SAN",
          "[variant:haunted]") {
    auto g = test::start("haunted", "4k3/8/8/8/8/8/8/4K3[Nb1,Nf1] w - - 0 1");
    CHECK(offers(*g, "SNbd2"));
    CHECK(offers(*g, "SNfd2"));
    CHECK(offers(*g, "SNa3"));
}

TEST_CASE("Haunted FEN lists the spirits in brackets and reads back what it writes",
          "[variant:haunted]") {
    const std::string fen = "r3k2r/8/8/8/8/8/8/R3K2R[Bc6,nd4,Pe5] w KQkq - 3 20";
    auto g = test::start("haunted", fen);
    CHECK(g->fen() == "r3k2r/8/8/8/8/8/8/R3K2R[nd4,Pe5,Bc6] w KQkq - 3 20");
    const auto* v = find_variant("haunted");
    CHECK_FALSE(v->start({}, "4k3/8/8/8/8/8/8/4K3[Kd4] w - - 0 1").ok());
    CHECK(v->start({}, "4k3/8/8/8/8/8/8/4K3[Bd4,nd4] w - - 0 1").error().message ==
          "cannot read that FEN: two spirits on d4");
}

TEST_CASE("Haunted Chess perft numbers match tests/data/perft/haunted.epd",
          "[variant:haunted][perft]") {
    for (const auto& c :
         test::read_perft_file(std::string(GHOSTPOST_TEST_DATA) + "/perft/haunted.epd")) {
        auto g = test::start("haunted", c.fen);
        for (auto [depth, nodes] : c.counts) {
            if (nodes > 500'000)
                continue; // kept for the release-build check: `ghostpost perft --variant haunted`
            INFO(c.name << " depth " << depth);
            CHECK(g->perft(depth) == nodes);
        }
    }
}

// perft decides most moves' legality without playing them (only living pieces can threaten the
// king while no spirit of the opponent is released or waits under the mover): its counts must
// be those of the moves the game lists.
TEST_CASE("Haunted Chess perft equals the count through the Game interface",
          "[variant:haunted][perft]") {
    for (const auto& c :
         test::read_perft_file(std::string(GHOSTPOST_TEST_DATA) + "/perft/haunted.epd")) {
        auto g = test::start("haunted", c.fen);
        for (auto [depth, nodes] : c.counts) {
            if (depth > 3 || nodes > 60'000)
                break;
            INFO(c.name << " depth " << depth);
            CHECK(g->perft(depth) == test::generic_perft(*g, depth));
        }
    }
    // The knight keeps the black spirit rook under it from being released: once it moved, the
    // spirit, invoked by the rook behind it, would check the king. Only the king may move.
    auto pinned = test::start("haunted", "4r2k/8/8/8/8/8/4N3/4K3[re2] w - - 0 1");
    CHECK(pinned->perft(1) == 4);
    // A piece on a spirit is pinned by nothing: the spirit still blocks the line once it left.
    auto shielded = test::start("haunted", "4r2k/8/8/8/8/8/4B3/4K3[Be2] w - - 0 1");
    CHECK(shielded->perft(1) == 13); // the bishop's 9 moves and the king's 4
    auto check = test::start("haunted", "4r2k/8/8/8/1b6/8/3PB3/4K3[Rd6,nc3] w - - 0 1");
    // A pawn pinned on a diagonal next to its king may not step two squares onto the king's
    // other diagonal (e7-e5 with the king on d6): only the king's 7 moves.
    auto diagonal = test::start("haunted", "5B2/4p3/3k4/8/8/8/8/4K3 b - - 0 1");
    CHECK(diagonal->perft(1) == 7);
    // Found by playing random games: the same pin, with spirits on the board.
    auto played = test::start(
        "haunted", "rnbq1B1r/pp2p2p/3k2p1/2p2p2/2pPn3/1P4P1/P2QPP1P/RN2KBNR[Pc4,bf8] b - - 0 11");
    CHECK(played->perft(1) == 35);
    for (const auto* g : {pinned.get(), shielded.get(), check.get(), diagonal.get(), played.get()})
        for (int depth = 1; depth <= 3; ++depth)
            CHECK(g->perft(depth) == test::generic_perft(*g, depth));
}

TEST_CASE("Could win: only a bare king without spirits of its side can never win",
          "[variant:haunted]") {
    auto bare = test::start("haunted", "4k3/8/8/8/8/8/8/4K2R w - - 0 1");
    CHECK(bare->could_win(Seat::White));
    CHECK_FALSE(bare->could_win(Seat::Black));
    // A spirit of its side, invoked by the king itself, can give check.
    auto spirit = test::start("haunted", "4k3/8/8/8/8/8/8/4K2R[qd5] w - - 0 1");
    CHECK(spirit->could_win(Seat::Black));
    // Another side's spirit is no help.
    auto theirs = test::start("haunted", "4k3/8/8/8/8/8/8/4K2R[Qd5] w - - 0 1");
    CHECK_FALSE(theirs->could_win(Seat::Black));
}

// Issue 32: the spirit form is pointed to for a rebirth in place too ("b8=Q" with the spirit pawn
// already on b8, invoked by the rook on b1).
TEST_CASE(
    "A rebirth in place written as a living promotion is refused with the spirit form to write",
    "[variant:haunted][issue32]") {
    auto g = test::start("haunted", "8/8/7k/8/8/8/8/1R2K3[Pb8] w - - 0 1");
    REQUIRE(offers(*g, "SPb8=Q"));
    CHECK(refusal(*g, "b8=Q") ==
          "b8=Q is not possible: no living pawn can go to b8, but your white spirit pawn "
          "there can be reborn: write SPb8=Q");
}

// Issue 32: "Spirits can't cross pieces nor be crossed by any piece". A knight's leap crosses no
// square, so spirits around it never stop it (docs/variants/haunted.md).
TEST_CASE("A knight leaps over spirits, living or spirit knight alike",
          "[variant:haunted][issue32]") {
    // Spirits on every square between b1 and its targets.
    auto g = test::start("haunted", "4k3/8/8/8/8/8/8/1N2K3[nb2,nc2,nc1] w - - 0 1");
    CHECK(offers(*g, "Nd2"));
    CHECK(offers(*g, "Nc3"));
    CHECK(offers(*g, "Na3"));
    // A spirit knight leaps over living pieces the same way.
    auto spirit_knight = test::start("haunted", "4k3/8/8/8/8/8/1PP5/2B1K3[Nb1] w - - 0 1");
    CHECK(offers(*spirit_knight, "SNd2"));
    CHECK(offers(*spirit_knight, "SNa3"));
}

// Issue 32: spellings players type.
TEST_CASE("Coordinates alone name a spirit's move", "[variant:haunted][notation][issue32]") {
    auto g = test::start("haunted", "4k3/8/8/8/8/8/8/4K3[Bc6] w - - 0 1");
    CHECK(test::refusal(*g, "c6d7") == "accepted as SBd7");
    CHECK(test::refusal(*g, "c6-d7") == "accepted as SBd7");
}
