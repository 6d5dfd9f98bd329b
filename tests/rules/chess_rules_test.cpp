#include "chess_test_support.h"

using namespace ghostpost::rules;

namespace {
std::vector<std::string> texts(const Game& g, Seat s) {
    std::vector<std::string> out;
    for (const auto& a : g.notated_actions(s))
        out.push_back(a.text);
    return out;
}
bool has(const std::vector<std::string>& v, const std::string& t) {
    return std::find(v.begin(), v.end(), t) != v.end();
}
} // namespace

TEST_CASE("Fool's mate ends the game with checkmate for Black", "[chess]") {
    auto g = test::start("chess");
    test::play(*g, "f3 e5 g4 Qh4#");
    CHECK(g->outcome().status == Status::BlackWins);
    CHECK(g->outcome().reason == "checkmate");
    CHECK(g->pending().empty());
    CHECK(g->notated_actions(Seat::White).empty());
}

TEST_CASE("The mating move is written with # and a check with +", "[chess][notation]") {
    auto g = test::start("chess");
    test::play(*g, "f3 e5 g4");
    CHECK(has(texts(*g, Seat::Black), "Qh4#"));
    auto h = test::start("chess");
    test::play(*h, "e4 f6 d4");
    CHECK(has(texts(*h, Seat::Black), "g5"));
    test::play(*h, "g5");
    CHECK(has(texts(*h, Seat::White), "Qh5#"));
    test::play(*h, "Nf3 a6");
    CHECK(has(texts(*h, Seat::White), "Qd3"));
}

TEST_CASE("Stalemate is a draw at once", "[chess]") {
    auto g = test::start("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    CHECK(g->outcome().status == Status::Draw);
    CHECK(g->outcome().reason == "stalemate");
}

TEST_CASE("Insufficient material draws: bare kings, one minor piece, same-coloured bishops",
          "[chess]") {
    CHECK(test::start("chess", "8/8/8/4k3/8/8/8/4K3 w - - 0 1")->outcome().reason ==
          "insufficient material");
    CHECK(test::start("chess", "8/8/8/4k3/8/8/8/4KN2 w - - 0 1")->outcome().reason ==
          "insufficient material");
    CHECK(test::start("chess", "8/8/8/4k1b1/8/8/8/2B1K3 w - - 0 1")->outcome().reason ==
          "insufficient material");
    // Bishops on both colours, or two knights, can still mate (with help): the game goes on.
    CHECK_FALSE(test::start("chess", "8/8/8/4kb2/8/8/8/2B1K3 w - - 0 1")->outcome().over());
    CHECK_FALSE(test::start("chess", "8/8/8/4k3/8/8/8/3NKN2 w - - 0 1")->outcome().over());
}

TEST_CASE("In chess, the 50-move rule may be claimed and the 75-move rule ends the game",
          "[chess]") {
    auto g = test::start("chess", "8/8/8/4k3/8/8/R7/4K3 w - - 99 80");
    CHECK_FALSE(g->claimable_draw().has_value());
    test::play(*g, "Ra3");
    REQUIRE(g->claimable_draw().has_value());
    CHECK(*g->claimable_draw() == "50-move rule");
    CHECK_FALSE(g->outcome().over());
    auto h = test::start("chess", "8/8/8/4k3/8/8/R7/4K3 w - - 149 100");
    test::play(*h, "Ra3");
    CHECK(h->outcome().status == Status::Draw);
    CHECK(h->outcome().reason == "75-move rule");
}

TEST_CASE("In chess, threefold repetition may be claimed and fivefold ends the game", "[chess]") {
    auto g = test::start("chess");
    test::play(*g, "Nf3 Nf6 Ng1 Ng8");
    CHECK_FALSE(g->claimable_draw().has_value());
    test::play(*g, "Nf3 Nf6 Ng1 Ng8");
    REQUIRE(g->claimable_draw().has_value());
    CHECK(*g->claimable_draw() == "threefold repetition");
    test::play(*g, "Nf3 Nf6 Ng1 Ng8");
    CHECK_FALSE(g->outcome().over());
    test::play(*g, "Nf3 Nf6 Ng1 Ng8");
    CHECK(g->outcome().status == Status::Draw);
    CHECK(g->outcome().reason == "fivefold repetition");
}

TEST_CASE("FEN goes out exactly as it came in", "[chess][fen]") {
    for (const char* fen : {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"})
        CHECK(test::start("chess", fen)->fen() == fen);
    auto g = test::start("chess");
    test::play(*g, "e4 d5 e5 f5");
    CHECK(g->fen() == "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
}

TEST_CASE("A FEN that cannot be a chess position is refused with its reason", "[chess][fen]") {
    const auto* v = find_variant("chess");
    auto bad = [&](const char* fen) {
        auto g = v->start({}, fen);
        REQUIRE_FALSE(g.ok());
        CHECK(g.error().kind == ErrorKind::BadSetup);
        return g.error().message;
    };
    CHECK(bad("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1") ==
          "cannot read that FEN: the placement must have 8 ranks of 8 squares");
    CHECK(bad("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1") ==
          "cannot read that FEN: rank 6 has more than 8 squares");
    CHECK(bad("8/8/8/4k3/8/8/8/4K3 x - - 0 1") ==
          "cannot read that FEN: the side to move must be w or b");
    CHECK(bad("8/8/8/4k3/8/8/4R3/4K3 w - - 0 1") ==
          "cannot read that FEN: the side not to move is in check");
    CHECK(bad("8/8/8/8/8/8/8/4K3 w - - 0 1") ==
          "cannot read that FEN: each side needs exactly one king");
    CHECK(bad("P7/8/8/4k3/8/8/8/4K3 w - - 0 1") ==
          "cannot read that FEN: pawns cannot stand on the first or last rank");
    CHECK(bad("8/8/8/4k3/8/8/8/4K2F w - - 0 1") ==
          "cannot read that FEN: FIDE chess has no Phantom");
}

TEST_CASE("Castling moves king and rook and removes the rights", "[chess]") {
    auto g = test::start("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    test::play(*g, "O-O O-O-O");
    CHECK(g->fen() == "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2");
}

TEST_CASE("En passant captures the pawn that passed", "[chess]") {
    auto g = test::start("chess");
    test::play(*g, "e4 a6 e5 d5");
    CHECK(has(texts(*g, Seat::White), "exd6"));
    test::play(*g, "exd6");
    CHECK(g->fen() == "rnbqkbnr/1pp1pppp/p2P4/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3");
}

TEST_CASE("A promotion offers four pieces and the public view shows the new piece", "[chess]") {
    auto g = test::start("chess", "8/P6k/8/8/8/8/8/K7 w - - 0 1");
    auto t = texts(*g, Seat::White);
    CHECK(has(t, "a8=Q"));
    CHECK(has(t, "a8=R"));
    CHECK(has(t, "a8=B"));
    CHECK(has(t, "a8=N"));
    test::play(*g, "a8=R");
    const auto& board = g->public_view().board();
    REQUIRE(board.at(Square(0, 7)).figures.size() == 1);
    CHECK(board.at(Square(0, 7)).figures[0].piece == Piece{PieceKind::Rook, Seat::White});
    CHECK(board.last_from == Square(0, 6));
    CHECK(board.last_to == Square(0, 7));
    CHECK(board.deciding == std::vector<Seat>{Seat::Black});
}

TEST_CASE("The view marks the king in check", "[chess]") {
    auto g = test::start("chess");
    test::play(*g, "e4 f5 Qh5+");
    CHECK(g->public_view().board().check == Square(4, 7));
}

TEST_CASE("A move out of turn is refused without changing the game", "[chess]") {
    auto g = test::start("chess");
    NoRandomness no_dice;
    Action e5{ActionKind::Move, PieceKind::Pawn, Square(4, 6), Square(4, 4)};
    auto r = g->apply(Seat::Black, e5, no_dice);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().kind == ErrorKind::NotYourTurn);
    CHECK(r.error().message == "it is white's move");
    CHECK(g->ply() == 0);
}
