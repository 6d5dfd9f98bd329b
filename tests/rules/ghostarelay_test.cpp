// Ghostarelay: one test per clause of the seed and per decision in docs/variants/ghostarelay.md,
// plus perft regression figures.
#include "chess_test_support.h"
#include "ghostpost/rules/notation.h"
#include "ghostpost/variants/pieces.h"

#include <algorithm>

using namespace ghostpost::rules;

using test::offers;
using test::refusal;
using test::texts;

namespace {

constexpr std::uint64_t node_budget = 700'000;

std::unique_ptr<Game> ghostarelay(const std::string& fen = {}, const Options& options = {}) {
    return test::start("ghostarelay", fen, options);
}

} // namespace

TEST_CASE("Ghostarelay perft regression figures hold", "[variant:ghostarelay][perft]") {
    auto cases = test::read_perft_file(GHOSTPOST_TEST_DATA "/perft/ghostarelay.epd");
    REQUIRE(cases.size() == 6);
    for (const auto& c : cases) {
        auto game = ghostarelay(c.fen);
        CHECK(game->fen() == c.fen);
        for (auto [depth, nodes] : c.counts) {
            if (nodes > node_budget)
                break;
            INFO(c.name << " depth " << depth);
            CHECK(game->perft(depth) == nodes);
        }
    }
}

// perft counts the last ply without listing it (and Ghostarelay's inner plies unsorted): the
// counts must be those of the moves the game lists.
TEST_CASE("Ghostarelay perft equals the count through the Game interface",
          "[variant:ghostarelay][perft]") {
    for (const auto& c : test::read_perft_file(GHOSTPOST_TEST_DATA "/perft/ghostarelay.epd")) {
        auto game = ghostarelay(c.fen);
        for (auto [depth, nodes] : c.counts) {
            if (depth > 3 || nodes > 60'000)
                break;
            INFO(c.name << " depth " << depth);
            CHECK(game->perft(depth) == test::generic_perft(*game, depth));
        }
    }
}

TEST_CASE("Every legal Ghostarelay move's text parses back to the same move",
          "[variant:ghostarelay][notation]") {
    NoRandomness no_dice;
    for (const auto& c : test::read_perft_file(GHOSTPOST_TEST_DATA "/perft/ghostarelay.epd")) {
        auto game = ghostarelay(c.fen);
        const auto seat = game->pending().front().seat;
        const auto actions = game->notated_actions(seat);
        REQUIRE(actions.size() == c.counts.front().second);
        for (const auto& a : actions) {
            auto parsed = parse_action(*game, seat, a.text);
            INFO(c.name << ": " << a.text);
            REQUIRE(parsed.ok());
            CHECK(parsed->action == a.action);
            auto next = game->clone();
            REQUIRE(next->apply(seat, a.action, no_dice).ok());
            if (next->pending().empty())
                continue;
            const auto other = next->pending().front().seat;
            for (const auto& b : next->notated_actions(other)) {
                auto reply = parse_action(*next, other, b.text);
                INFO(c.name << ": " << a.text << " " << b.text);
                REQUIRE(reply.ok());
                CHECK(reply->action == b.action);
            }
        }
    }
}

TEST_CASE("Setup: the 10x10 board holds the seed's array with White to move",
          "[variant:ghostarelay]") {
    auto g = ghostarelay();
    CHECK(g->fen() == "rnbxqkgbnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNBXQKGBNR w - - 0 1");
    CHECK(g->info().files == 10);
    CHECK(g->info().ranks == 10);
    CHECK(g->pending().front().seat == Seat::White);
    const BoardView& b = g->public_view().board();
    CHECK(b.files == 10);
    CHECK(b.at(Square(3, 0)).figures.front().piece == Piece{pieces::relay, Seat::White});
    CHECK(b.at(Square(6, 0)).figures.front().piece == Piece{pieces::ghost, Seat::White});
    CHECK(b.at(Square(9, 9)).figures.front().piece == Piece{PieceKind::Rook, Seat::Black});
    CHECK(g->perft(1) == 86);
}

TEST_CASE("Ghost: it goes to any vacant square, the last rank too, and never captures by itself",
          "[variant:ghostarelay]") {
    auto g = ghostarelay("10/10/10/10/10/10/10/10/10/G8k w - - 0 1");
    auto moves = texts(*g);
    CHECK(moves.size() == 98);
    CHECK(offers(*g, "Gj10"));
    CHECK(offers(*g, "Gi1"));
    CHECK(refusal(*g, "Gxj1") == "Gxj1 is not possible: the Ghost never captures (only when an "
                                 "enemy Relay next to it lets it capture "
                                 "straight away from that Relay on a diagonal)");
}

TEST_CASE("Relay: one step any way or a knight's leap, and it never captures by itself",
          "[variant:ghostarelay]") {
    auto g = ghostarelay("k9/10/10/10/4p5/4X5/10/10/10/10 w - - 0 1");
    // Seven steps (e6 is taken) and eight leaps.
    CHECK(texts(*g) == std::vector<std::string>{"Xc4", "Xc6", "Xd3", "Xd4", "Xd5", "Xd6", "Xd7",
                                                "Xe4", "Xf3", "Xf4", "Xf5", "Xf6", "Xf7", "Xg4",
                                                "Xg6"});
    CHECK(refusal(*g, "Xxe6") == "Xxe6 is not possible: the Relay never captures (only when an "
                                 "enemy Relay next to it lets it capture "
                                 "straight away from that Relay on a diagonal)");
}

TEST_CASE("Relay grant: an orthogonal neighbour moves straight away as a rook, without capturing",
          "[variant:ghostarelay]") {
    auto g = ghostarelay("k9/4p5/10/10/4N5/4x5/10/10/10/10 w - - 0 1");
    CHECK(texts(*g) == std::vector<std::string>{"Nc5", "Nc7", "Nd4", "Nd8", "Ne7", "Ne8", "Nf4",
                                                "Nf8", "Ng5", "Ng7"});
    CHECK(refusal(*g, "Nxe9") == "Nxe9 is not possible: no knight can capture on e9");
}

TEST_CASE("Relay grant: a diagonal neighbour moves or captures straight away as a bishop",
          "[variant:ghostarelay]") {
    auto quiet = ghostarelay("k9/10/10/10/10/4N5/3x6/10/10/10 w - - 0 1");
    CHECK(texts(*quiet) == std::vector<std::string>{"Nc4", "Nc6", "Nd3", "Nd7", "Nf3", "Nf6", "Nf7",
                                                    "Ng4", "Ng6", "Ng7", "Nh8", "Ni9", "Nj10"});
    auto capture = ghostarelay("k9/10/7p2/10/10/4N5/3x6/10/10/10 w - - 0 1");
    CHECK(texts(*capture) == std::vector<std::string>{"Nxh8"});
}

TEST_CASE("Relay grants reach Ghosts and Relays, whose granted captures are compulsory too",
          "[variant:ghostarelay]") {
    auto ghost = ghostarelay("k9/10/10/6p3/10/4G5/3x6/10/10/10 w - - 0 1");
    CHECK(texts(*ghost) == std::vector<std::string>{"Gxg7"});
    auto relay = ghostarelay("k9/10/10/6p3/10/4X5/3x6/10/10/10 w - - 0 1");
    CHECK(texts(*relay) == std::vector<std::string>{"Xxg7"});
}

TEST_CASE("Relay grants stack, one per adjacent enemy Relay", "[variant:ghostarelay]") {
    auto g = ghostarelay("k9/10/10/10/10/4N5/3xx5/10/10/10 w - - 0 1");
    // Eight knight moves, five up the file away from e4, five up the diagonal away from d4.
    CHECK(texts(*g).size() == 18);
    CHECK(offers(*g, "Ne10"));
    CHECK(offers(*g, "Nj10"));
}

TEST_CASE("A Relay grants nothing to the pieces of its own side", "[variant:ghostarelay]") {
    auto g = ghostarelay("k9/10/10/10/10/4N5/3X6/10/10/10 w - - 0 1");
    CHECK(texts(*g).size() == 23); // 8 knight moves, 7 relay steps, 8 relay leaps
    CHECK_FALSE(offers(*g, "Nf6"));
}

TEST_CASE("Warlord: it captures any enemy piece anywhere, and the player chooses which",
          "[variant:ghostarelay]") {
    auto g = ghostarelay("9k/10/10/10/10/4p5/10/10/10/W9 w - - 0 1");
    CHECK(texts(*g) == std::vector<std::string>{"Wxe5", "Wxj10"});
}

TEST_CASE("Warlord: it only moves by capturing", "[variant:ghostarelay]") {
    auto g = ghostarelay("9k/10/10/10/10/4p5/10/10/10/W9 w - - 0 1");
    CHECK(refusal(*g, "Wb2") == "Wb2 is not possible: the Warlord only moves by capturing, and it "
                                "can capture any enemy piece");
}

TEST_CASE("Warlord: while it stands, its owner must capture with some piece",
          "[variant:ghostarelay]") {
    auto g = ghostarelay("9p/10/10/10/10/10/10/2N7/10/W9 w - - 0 1");
    CHECK(texts(*g) == std::vector<std::string>{"Wxj10"});
    CHECK(refusal(*g, "Nd5") == "Nd5 is not possible: you must capture: Wxj10 is available");
}

TEST_CASE("Warlord: it can be captured like any other piece", "[variant:ghostarelay]") {
    auto g = ghostarelay("r9/10/10/10/10/10/10/10/10/W8P b - - 0 1");
    CHECK(texts(*g) == std::vector<std::string>{"Rxa1"});
}

TEST_CASE("Pawns double-step from their second rank and never take en passant",
          "[variant:ghostarelay]") {
    auto g = ghostarelay("9k/10/10/10/10/10/3p6/10/4P5/10 w - - 0 1");
    CHECK(texts(*g) == std::vector<std::string>{"e3", "e4"});
    test::play(*g, "e4");
    CHECK(g->fen() == "9k/10/10/10/10/10/3pP5/10/10/10 b - - 0 1");
    CHECK(texts(*g) == std::vector<std::string>{"Ki10", "Ki9", "Kj9", "d3"});
    CHECK(refusal(*g, "dxe3") == "dxe3 is not possible: there is nothing to capture on e3");
}

TEST_CASE("Pawns promote on the last rank, and only to a Warlord", "[variant:ghostarelay]") {
    auto g = ghostarelay("10/P9/10/10/10/10/10/10/10/9k w - - 0 1");
    CHECK(texts(*g) == std::vector<std::string>{"a10=W"});
    CHECK(refusal(*g, "a10=Q") == "a10=Q is not possible: a pawn reaching the last rank becomes a "
                                  "Warlord: write =W (for example a10=W)");
    CHECK(refusal(*g, "a9a10w") == "accepted as a10=W");
    test::play(*g, "a10=W");
    CHECK(g->fen() == "W9/10/10/10/10/10/10/10/10/9k b - - 0 1");
}

TEST_CASE("King: it is not royal, and it can be captured", "[variant:ghostarelay]") {
    auto g = ghostarelay("4r5/10/10/10/10/4K5/10/10/10/10 b - - 0 1");
    CHECK(texts(*g) == std::vector<std::string>{"Rxe5"});
    test::play(*g, "Rxe5");
    CHECK(g->outcome().status == Status::WhiteWins);
    CHECK(g->outcome().reason == "White has no pieces left");
}

TEST_CASE("Castling: the king moves two squares and the rook beyond jumps over it",
          "[variant:ghostarelay]") {
    auto g = ghostarelay("4k5/10/10/10/10/10/10/10/10/R4K3R w - - 0 1");
    CHECK(offers(*g, "Kh1"));
    CHECK(offers(*g, "Kd1"));
    CHECK(refusal(*g, "Kf1h1") == "accepted as Kh1");
    test::play(*g, "Kh1");
    CHECK(g->fen() == "4k5/10/10/10/10/10/10/10/10/R5RK2 b - - 1 1");
}

TEST_CASE("Castling: along a file, with the opponent's rook", "[variant:ghostarelay]") {
    auto g = ghostarelay("k9/5r4/10/10/10/10/10/10/10/5K4 w - - 0 1");
    CHECK(offers(*g, "Kf3"));
    test::play(*g, "Kf3");
    CHECK(g->fen() == "k9/10/10/10/10/10/10/5K4/5r4/10 b - - 1 1");
}

TEST_CASE("Castling: the first piece beyond must be a rook, and it is not allowed in words",
          "[variant:ghostarelay]") {
    auto g = ghostarelay("4k5/10/10/10/10/10/10/10/10/5K2NR w - - 0 1");
    CHECK_FALSE(offers(*g, "Kh1"));
    CHECK(refusal(*g, "Kh1") == "Kh1 is not possible: to castle, the first piece beyond h1 must be "
                                "a rook (of either side), to jump to g1");
    CHECK(
        refusal(*g, "O-O") ==
        "O-O is not possible: castling is written K and the king's destination (for example Kh1): "
        "the king moves "
        "two squares along a line and the first piece beyond must be a rook, which jumps over it");
}

TEST_CASE("Castling does not capture, so it is refused when a capture is due",
          "[variant:ghostarelay]") {
    auto g = ghostarelay("4k5/10/10/10/10/10/10/4p5/5P4/5K3R w - - 0 1");
    CHECK(texts(*g) == std::vector<std::string>{"fxe3"});
    CHECK(refusal(*g, "Kh1") == "Kh1 is not possible: you must capture: fxe3 is available");
}

TEST_CASE("Ghostarelay: a player with no legal move on their turn wins", "[variant:ghostarelay]") {
    auto g = ghostarelay("10/10/10/10/4p5/4P5/10/10/10/10 w - - 0 1");
    CHECK(g->outcome().status == Status::WhiteWins);
    CHECK(g->outcome().reason == "White has no legal move");
}

TEST_CASE("Option pass_when_stuck: a player with no legal move passes instead of winning",
          "[variant:ghostarelay][option]") {
    auto g = ghostarelay("10/10/10/10/4p5/4P5/10/10/10/10 w - - 0 1", {{"pass_when_stuck", "on"}});
    CHECK_FALSE(g->outcome().over());
    CHECK(texts(*g) == std::vector<std::string>{"pass"});
    CHECK(refusal(*g, "PASS") == "accepted as pass");
    test::play(*g, "pass");
    CHECK(g->fen() == "10/10/10/10/4p5/4P5/10/10/10/10 b - - 1 1");
    CHECK(texts(*g) == std::vector<std::string>{"pass"});
    CHECK(g->public_view().board().notes ==
          std::vector<std::string>{"Black has no legal move and passes",
                                   "Option pass_when_stuck: on"});
    // Both sides stuck: the passes repeat the position until fivefold repetition draws.
    test::play(*g, "pass pass pass pass pass pass pass");
    CHECK(g->outcome().status == Status::Draw);
    CHECK(g->outcome().reason == "fivefold repetition");
}

TEST_CASE("Option pass_when_stuck: only a player with no pieces left wins",
          "[variant:ghostarelay][option]") {
    auto g = ghostarelay("4r5/10/10/10/10/4K5/10/10/10/10 b - - 0 1", {{"pass_when_stuck", "on"}});
    test::play(*g, "Rxe5");
    CHECK(g->outcome().status == Status::WhiteWins);
    CHECK(g->outcome().reason == "White has no pieces left");
}

TEST_CASE("Option pass_when_stuck is off by default and takes only on or off",
          "[variant:ghostarelay][option]") {
    const Variant* v = find_variant("ghostarelay");
    REQUIRE(v != nullptr);
    REQUIRE(v->info().options.size() == 1);
    CHECK(v->info().options.front().name == "pass_when_stuck");
    CHECK(v->info().options.front().default_value == "off");
    CHECK(ghostarelay()->options().at("pass_when_stuck") == "off");
    auto bad = v->start({{"pass_when_stuck", "maybe"}});
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().kind == ErrorKind::BadSetup);
    CHECK(bad.error().message == "option pass_when_stuck=maybe is not allowed: use off or on");
}

TEST_CASE("Notation: two-digit ranks in squares and in disambiguation",
          "[variant:ghostarelay][notation]") {
    auto g = ghostarelay("R9/10/10/10/9k/10/10/10/10/R9 w - - 0 1");
    CHECK(offers(*g, "R10a5"));
    CHECK(offers(*g, "R1a5"));
    CHECK(offers(*g, "Rj10"));
    CHECK(offers(*g, "Rb10"));
    CHECK(offers(*g, "R1a9"));
    CHECK(refusal(*g, "Ra5") == "Ra5 is ambiguous: R1a5 or R10a5");
    CHECK(refusal(*g, "a10a5") == "accepted as R10a5");
    CHECK(refusal(*g, "Ra10a5") == "accepted as R10a5");
}

TEST_CASE("Threefold repetition may be claimed and the 75-move rule ends a Ghostarelay game",
          "[variant:ghostarelay][draw]") {
    auto g = ghostarelay("9k/10/10/10/10/10/10/10/10/G9 w - - 0 1");
    test::play(*g, "Gb1 Kj9 Ga1 Kj10 Gb1 Kj9 Ga1 Kj10");
    CHECK(g->claimable_draw() == std::optional<std::string>("threefold repetition"));
    auto h = ghostarelay("9k/10/10/10/10/10/10/10/10/G9 w - - 149 80");
    CHECK(h->claimable_draw() == std::optional<std::string>("50-move rule"));
    test::play(*h, "Ge5");
    CHECK(h->outcome().reason == "75-move rule");
}

TEST_CASE("A Ghostarelay FEN that cannot be used is refused with its reason",
          "[variant:ghostarelay]") {
    const Variant* v = find_variant("ghostarelay");
    auto eight = v->start({}, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1");
    REQUIRE_FALSE(eight.ok());
    CHECK(eight.error().message == "bad FEN: rank 10 does not have 10 squares");
    auto rights =
        v->start({}, "rnbxqkgbnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNBXQKGBNR w KQkq - 0 1");
    REQUIRE_FALSE(rights.ok());
    CHECK(rights.error().message == "bad FEN: Ghostarelay has no castling rights: use -");
    auto pawn = v->start({}, "P9/10/10/10/10/10/10/10/10/9k w - - 0 1");
    REQUIRE_FALSE(pawn.ok());
    CHECK(pawn.error().message == "bad FEN: white pawn on its last rank");
}

TEST_CASE("Could win: a side whose pieces nothing can ever capture, and that always has a move, "
          "cannot win",
          "[variant:ghostarelay]") {
    // White's Ghost never captures and Black has no Relay to lend it a capture: nothing of
    // Black's can be taken, and Black's Ghost always has a move, so Black cannot win.
    auto g = ghostarelay("10/10/10/10/4g5/10/10/4G5/10/10 w - - 0 1");
    CHECK_FALSE(g->could_win(Seat::Black));
    CHECK_FALSE(g->could_win(Seat::White));
    // A Relay of Black's lends the White Ghost diagonal moves that capture.
    auto relay = ghostarelay("10/10/10/10/4g5/5x4/10/4G5/10/10 w - - 0 1");
    CHECK(relay->could_win(Seat::Black));
    // A piece that captures (here a pawn) can take Black's pieces.
    auto pawn = ghostarelay("10/10/10/10/4g5/10/10/4G5/P9/10 w - - 0 1");
    CHECK(pawn->could_win(Seat::Black));
    // Without a Ghost, Black may run out of moves, which wins unless pass_when_stuck is on.
    auto stuck = ghostarelay("10/10/10/10/4k5/10/10/4G5/10/10 w - - 0 1");
    CHECK(stuck->could_win(Seat::Black));
    auto passing =
        ghostarelay("10/10/10/10/4k5/10/10/4G5/10/10 w - - 0 1", {{"pass_when_stuck", "on"}});
    CHECK_FALSE(passing->could_win(Seat::Black));
    CHECK(ghostarelay()->could_win(Seat::White));
}

TEST_CASE("Text that is no move is answered with Ghostarelay's own examples, without O-O",
          "[variant:ghostarelay][notation]") {
    CHECK(refusal(*ghostarelay(), "hello") ==
          "\"hello\" is not a move. Write moves like e4, Nf3, exd5, Ge7, Xd3, Kh1 or a10=W (!rules "
          "ghostarelay shows the notation).");
}
