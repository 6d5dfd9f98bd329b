// One FEN reader into a Setup, each variant's one constructor that names every reason a Setup
// fails, and is_consistent for every variant family (issue #35). The corrupted states are made
// through the cores' unchecked entry points (a move played without asking whether it is legal),
// which is what a bug in a generator would do.
#include "chess/position.h"
#include "ghost/ghost.h"
#include "ghostpost/rules/registry.h"
#include "ghostpost/rules/setup.h"
#include "giveaway/position.h"
#include "gnostic/gnostic.h"
#include "gnostic_test_support.h"
#include "haunted/board.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using namespace ghostpost::rules;
using Reasons = std::vector<std::string>;

namespace {

Reasons reasons(const char* variant, const std::string& fen) {
    const Variant* v = find_variant(variant);
    REQUIRE(v != nullptr);
    return v->fen_reasons({}, fen);
}

std::string refusal(const char* variant, const std::string& fen) {
    auto g = find_variant(variant)->start({}, fen);
    REQUIRE_FALSE(g.ok());
    CHECK(g.error().kind == ErrorKind::BadSetup);
    return g.error().message;
}

} // namespace

TEST_CASE("The shared FEN reader keeps the letters, the bracketed list, the side's note and the "
          "fields for the variant to judge",
          "[setup][fen]") {
    auto s = read_fen("rnbxqkgbnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNBXQKGBNR b - - 3 9",
                      FenShape{.files = 10, .ranks = 10});
    REQUIRE(s.ok());
    CHECK(s->files == 10);
    CHECK(s->at(3, 0) == 'X');
    CHECK(s->at(6, 9) == 'g');
    CHECK(s->at(4, 4) == '\0');
    CHECK(s->side == Seat::Black);
    CHECK(s->fields == Reasons{"-", "-", "3", "9"});
    CHECK_FALSE(s->bracketed.has_value());

    auto spirits = read_fen("4k3/8/8/8/8/8/8/4K3[Bc6,nd4] w - -", FenShape{.brackets = true});
    REQUIRE(spirits.ok());
    CHECK(spirits->bracketed == std::optional<std::string>("Bc6,nd4"));
    CHECK(spirits->count('K') == 1);

    auto pending = read_fen("8/8/8/4q3/8/8/P7/2B2B2 b:w-Reaction,xPe5 - - -",
                            FenShape{.side_note = true, .max_fields = 8});
    REQUIRE(pending.ok());
    CHECK(pending->side_note == std::optional<std::string>("w-Reaction,xPe5"));
    CHECK(pending->side == Seat::Black);

    auto why = [](const char* fen, FenShape shape = {}) {
        auto r = read_fen(fen, shape);
        return r ? std::string("read") : r.error().message;
    };
    CHECK(why("8/8/8/8") == "a FEN needs at least the placement and the side to move");
    CHECK(why("8/8/8/8/8/8/8/8 w - - 0 1 x") == "a FEN has at most 6 fields");
    CHECK(why("8/8/8/8/8/8/8/7 w") == "the placement must have 8 ranks of 8 squares");
    CHECK(why("8/8/9/8/8/8/8/8 w") == "rank 6 has more than 8 squares");
    CHECK(why("8/8/8/8/8/8/8/8/8 w") == "the placement has more than 8 ranks");
    CHECK(why("8/8/8/8/8/8/8/4K2? w") == "unknown piece letter '?'");
    CHECK(why("8/8/8/8/8/8/8/8[F w", FenShape{.brackets = true}) ==
          "the list in brackets must close with ]");
    CHECK(why("8/8/8/8/8/8/8/8 x") == "the side to move must be w or b");
    CHECK(why("8/8/8/8/8/8/8/8 w:note") == "the side to move must be w or b");

    auto fields = [](Reasons f) {
        auto r = read_standard_fields(f);
        return r ? std::string("read") : r.error().message;
    };
    CHECK(fields({"KQkq", "e3", "0", "1"}) == "read");
    CHECK(fields({"KX"}) == "unknown castling right 'X'");
    CHECK(fields({"-", "e4"}) == "the en passant square must be on rank 3 or 6");
    CHECK(fields({"-", "-", "1001"}) ==
          "the move counters must be a number from 0 to 1000 and a number from 1 to 10000");
    CHECK(fields({"-", "-", "0", "x"}) ==
          "the move counters must be a number from 0 to 1000 and a number from 1 to 10000");
}

TEST_CASE("A chess FEN with several faults is told all of them, the first as before",
          "[setup][fen][chess]") {
    const std::string fen = "4k3/8/8/8/8/8/8/PK1K1F2 w X - 0 1";
    CHECK(reasons("chess", fen) ==
          Reasons{"unknown castling right 'X'", "white has more than one king",
                  "pawns cannot stand on the first or last rank", "FIDE chess has no Phantom",
                  "each side needs exactly one king"});
    CHECK(refusal("chess", fen) == "cannot read that FEN: unknown castling right 'X'");
    CHECK(reasons("chess", "4k3/8/8/8/8/8/8/4K3 w - - 0 1").empty());
}

TEST_CASE("A Phantom Chess FEN with several faults is told all of them", "[setup][fen]") {
    const std::string fen = "P3k3/8/8/8/8/8/5F2/1K3F2[Fq] w - - 0 1";
    CHECK(reasons("phantom", fen) == Reasons{"only a Phantom (F) can be in hand, not 'q'",
                                             "pawns cannot stand on the first or last rank",
                                             "White has more than one Phantom"});
    CHECK(refusal("phantom", fen) ==
          "cannot read that FEN: only a Phantom (F) can be in hand, not 'q'");
}

TEST_CASE("A giveaway and a Ghostarelay FEN with several faults are told all of them",
          "[setup][fen]") {
    const std::string giveaway = "4k3/8/8/8/8/8/8/P3K1G1 w Kq e3 0 1";
    CHECK(reasons("giveaway", giveaway) ==
          Reasons{"'G' is not a piece of this variant",
                  "castling right K needs its king and rook on their start squares",
                  "castling right q needs its king and rook on their start squares",
                  "the en-passant square must be on rank 6", "white pawn on its first rank"});
    CHECK(refusal("giveaway", giveaway) == "bad FEN: 'G' is not a piece of this variant");

    const std::string ghostarelay = "9k/10/10/10/10/10/10/10/10/p8F w KQ a3 0 1";
    CHECK(reasons("ghostarelay", ghostarelay) ==
          Reasons{"'F' is not a piece of this variant", "Ghostarelay has no castling rights: use -",
                  "Ghostarelay has no en passant: use -", "black pawn on its last rank"});
}

TEST_CASE("A Haunted Chess FEN with several faults is told all of them", "[setup][fen]") {
    const std::string fen = "4k3/8/8/8/8/8/8/P3K2X[Kd4,nd4,Nd5,Nd5,pa8] w - e3 0 1";
    CHECK(reasons("haunted", fen) ==
          Reasons{"unknown piece letter 'X'", "cannot read the spirit \"Kd4\"", "two spirits on d5",
                  "a spirit pawn cannot stand on its own first rank (a8)",
                  "the en passant square must be on the sixth (or third) rank",
                  "a living pawn cannot stand on the first or last rank"});
    CHECK(refusal("haunted", fen) == "cannot read that FEN: unknown piece letter 'X'");
}

TEST_CASE("A Gnostic Chess FEN with several faults is told all of them", "[setup][fen]") {
    const std::string fen = "4k3/8/8/8/8/8/8/P3K2G w Z - 0 1 track=Ax used=Z/- foo=1";
    CHECK(reasons("gnostic", fen) ==
          Reasons{"cannot read 'G' in the placement", "a pawn stands on a1",
                  "unknown castling right 'Z'",
                  "track= needs a position A-E and a direction d or l, like track=Cd",
                  "cannot read spell letter 'Z'",
                  "unknown field foo=1 (known: track=, used=, dead=, damage=, jail=)"});
}

TEST_CASE("A Gnostic Chess FEN keeps only the castling rights whose king and rook are at home",
          "[setup][fen]") {
    // Found by fen_fuzz checking is_consistent: the rights stayed, and the FEN and the
    // repetition key carried a right no move could use.
    CHECK(test::start("gnostic", "4k3/8/8/8/8/8/8/r3K2R w KQkq - 0 1")->fen() ==
          "4k3/8/8/8/8/8/8/r3K2R w K - 0 1 track=Cd");
}

TEST_CASE("A Ghost Chess FEN with several faults is told all of them", "[setup][fen]") {
    const std::string fen = "nnnq4/8/8/8/8/8/8/K7 b X c3 a1,b1 2";
    CHECK(reasons("ghost", fen) ==
          Reasons{"'K' is no Ghost Chess piece (the Paradigm has P N B R, the Ghost q and "
                  "rescued knights n)",
                  "the Nexus field is F (Full Nexus intact) or -, then maybe :pawns back on rank 2",
                  "immune pieces only while the Paradigm is to move",
                  "a locked piece only while the Paradigm is to move",
                  "knights lost is 0 or 1 (the second lost knight ends the game)",
                  "the Paradigm needs at least one piece",
                  "there are only two knights in the game"});
}

TEST_CASE("Every variant's start and perft positions go FEN, Setup, position, FEN and back",
          "[setup][fen]") {
    for (const Variant* v : variants()) {
        INFO(v->info().name);
        auto start = v->start({});
        REQUIRE(start.ok());
        const std::string fen = (*start)->fen();
        REQUIRE_FALSE(fen.empty());
        CHECK(v->fen_reasons({}, fen).empty());
        auto again = test::start(v->info().name, fen);
        CHECK(again->fen() == fen);
        CHECK(test::texts(*again) == test::texts(**start));
        CHECK(again->is_consistent());
    }
    for (const char* name :
         {"chess", "phantom", "giveaway", "ghostarelay", "haunted", "gnostic", "ghost"}) {
        const auto cases =
            test::read_perft_file(std::string(GHOSTPOST_TEST_DATA "/perft/") + name + ".epd");
        REQUIRE(cases.size() >= 2);
        for (const auto& c : cases) {
            INFO(name << ": " << c.fen);
            auto first = test::start(name, c.fen);
            CHECK(first->is_consistent());
            auto second = test::start(name, first->fen());
            CHECK(second->fen() == first->fen());
            CHECK(test::texts(*second) == test::texts(*first));
        }
    }
}

TEST_CASE("is_consistent catches a chess position broken by an unchecked move", "[setup][chess]") {
    using chess::Move;
    chess::Position pinned;
    REQUIRE(pinned.set_fen("4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1").empty());
    CHECK(pinned.is_consistent());
    pinned.do_move(Move{12, 19}); // the pinned bishop e2-d3 leaves the king to the rook
    CHECK_FALSE(pinned.is_consistent());

    chess::Position promoting;
    REQUIRE(promoting.set_fen("4k3/P7/8/8/8/8/8/4K3 w - - 0 1").empty());
    promoting.do_move(Move{48, 56}); // a7-a8 without promoting
    CHECK_FALSE(promoting.is_consistent());
}

TEST_CASE("is_consistent catches a giveaway and a Ghostarelay position broken by an unchecked "
          "move",
          "[setup]") {
    using namespace giveaway;
    auto pos = Position::from_fen(Flavour::Giveaway, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    REQUIRE(pos.ok());
    CHECK(pos->is_consistent());
    pos->play(Move{to_sq(0, 6), to_sq(0, 7), PieceKind::Pawn}); // a7-a8 without promoting
    CHECK_FALSE(pos->is_consistent());

    auto ten = Position::from_fen(Flavour::Ghostarelay, "9k/P9/10/10/10/10/10/10/10/K9 w - - 0 1");
    REQUIRE(ten.ok());
    CHECK(ten->is_consistent());
    ten->play(Move{to_sq(0, 8), to_sq(0, 9), PieceKind::Pawn});
    CHECK_FALSE(ten->is_consistent());
}

TEST_CASE("is_consistent catches a Haunted Chess board broken by an unchecked move", "[setup]") {
    haunted::Board board;
    REQUIRE(board.set_fen("4k3/4r3/8/8/8/8/4B3/4K3[nd5] w - - 0 1").empty());
    CHECK(board.is_consistent());
    board.make(haunted::HMove{12, 19}); // the pinned bishop leaves its king in check
    CHECK_FALSE(board.is_consistent());
}

TEST_CASE("is_consistent catches a Gnostic Chess state with a broken invariant", "[setup]") {
    gnostic::State st;
    REQUIRE(gnostic::read_fen(st, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 track=Cd").empty());
    CHECK(gnostic::is_consistent(st));
    gnostic::State two_kings = st;
    two_kings.board[20] = gnostic::Unit{PieceKind::King, Seat::White, 0, false};
    CHECK_FALSE(gnostic::is_consistent(two_kings));
    gnostic::State off_track = st;
    off_track.track = 5;
    CHECK_FALSE(gnostic::is_consistent(off_track));
    gnostic::State empty_prisoner = st;
    empty_prisoner.board[27].imprisoned = true;
    CHECK_FALSE(gnostic::is_consistent(empty_prisoner));
}

TEST_CASE("is_consistent catches a Ghost Chess state with a broken invariant", "[setup]") {
    ghost::State s = ghost::start_state();
    CHECK(ghost::is_consistent(s));
    ghost::State stray = s;
    stray.white ^= 1; // a1's rook gone from the bitboard, not from the board
    CHECK_FALSE(ghost::is_consistent(stray));
}

TEST_CASE("Every variant's state stays consistent along seeded random games", "[setup]") {
    for (const Variant* v : variants()) {
        INFO(v->info().name);
        test::Lcg choose(35), dice(7);
        auto g = test::start(v->info().name);
        for (int ply = 0; ply < 60 && !g->pending().empty(); ++ply) {
            const Seat seat = g->pending().front().seat;
            const auto actions = g->legal_actions(seat);
            REQUIRE_FALSE(actions.empty());
            REQUIRE(g->apply(seat,
                             actions[choose.uniform(static_cast<std::uint32_t>(actions.size()))],
                             dice)
                        .ok());
            CHECK(g->is_consistent());
        }
    }
}
