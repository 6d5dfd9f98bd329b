// The 8x8 giveaway variant: Fairy-Stockfish's `giveaway` rules, one test per clause of
// docs/variants/giveaway.md, and perft against fairy-stockfish.
#include "chess_test_support.h"
#include "ghostpost/rules/notation.h"

#include <algorithm>

using namespace ghostpost::rules;

using test::refusal;
using test::texts;

namespace {

// The debug build runs under sanitizers; deeper figures in the file are for `ghostpost perft`.
constexpr std::uint64_t node_budget = 700'000;

} // namespace

TEST_CASE("Giveaway perft matches Fairy-Stockfish for the reference positions",
          "[variant:giveaway][perft]") {
    auto cases = test::read_perft_file(GHOSTPOST_TEST_DATA "/perft/giveaway.epd");
    REQUIRE(cases.size() == 10);
    for (const auto& c : cases) {
        auto game = test::start("giveaway", c.fen);
        CHECK(game->fen() == c.fen);
        for (auto [depth, nodes] : c.counts) {
            if (nodes > node_budget)
                break;
            INFO(c.name << " depth " << depth);
            CHECK(game->perft(depth) == nodes);
        }
    }
}

TEST_CASE("Giveaway perft from the start position is 2732672 at depth 5",
          "[variant:giveaway][perft]") {
    auto game = test::start("giveaway");
    CHECK(game->perft(5) == 2732672);
}

// perft counts the last ply without listing it (and Ghostarelay's inner plies unsorted): the
// counts must be those of the moves the game lists.
TEST_CASE("Giveaway perft equals the count through the Game interface",
          "[variant:giveaway][perft]") {
    for (const auto& c : test::read_perft_file(GHOSTPOST_TEST_DATA "/perft/giveaway.epd")) {
        auto game = test::start("giveaway", c.fen);
        for (auto [depth, nodes] : c.counts) {
            if (depth > 3 || nodes > 60'000)
                break;
            INFO(c.name << " depth " << depth);
            CHECK(game->perft(depth) == test::generic_perft(*game, depth));
        }
    }
}

TEST_CASE("Every legal giveaway move's text parses back to the same move",
          "[variant:giveaway][notation]") {
    NoRandomness no_dice;
    for (const auto& c : test::read_perft_file(GHOSTPOST_TEST_DATA "/perft/giveaway.epd")) {
        auto game = test::start("giveaway", c.fen);
        if (game->pending().empty())
            continue;
        const auto seat = game->pending().front().seat;
        const auto actions = game->notated_actions(seat);
        REQUIRE(actions.size() == c.counts.front().second);
        for (const auto& a : actions) {
            auto next = game->clone();
            auto parsed = parse_action(*next, seat, a.text);
            INFO(c.name << ": " << a.text);
            REQUIRE(parsed.ok());
            CHECK(parsed->action == a.action);
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

TEST_CASE("Giveaway starts from the chess position with White to move", "[variant:giveaway]") {
    auto g = test::start("giveaway");
    CHECK(g->fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    REQUIRE(g->pending().size() == 1);
    CHECK(g->pending().front().seat == Seat::White);
    CHECK(g->info().title == "Giveaway chess");
    CHECK(g->info().options.empty());
}

TEST_CASE("Capture is compulsory: only captures are legal when one exists", "[variant:giveaway]") {
    auto g = test::start("giveaway");
    test::play(*g, "e3 b5");
    CHECK(texts(*g) == std::vector<std::string>{"Bxb5"});
    CHECK(refusal(*g, "Nf3") == "Nf3 is not possible: you must capture: Bxb5 is available");
}

TEST_CASE("The player chooses which capture to make", "[variant:giveaway]") {
    auto g = test::start("giveaway", "4k3/8/8/4p3/8/5N2/1B6/4K3 w - - 0 1");
    CHECK(texts(*g) == std::vector<std::string>{"Bxe5", "Nxe5"});
    CHECK(refusal(*g, "Kd1") ==
          "Kd1 is not possible: you must capture: Bxe5 or Nxe5 are available");
    test::play(*g, "Nxe5");
    CHECK(g->fen() == "4k3/8/8/4N3/8/8/1B6/4K3 b - - 0 1");
}

TEST_CASE("The king is not royal: it may step next to an enemy and be captured",
          "[variant:giveaway]") {
    auto g = test::start("giveaway", "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1");
    CHECK(texts(*g) == std::vector<std::string>{"Kxd2"});
    auto h = test::start("giveaway", "4k3/8/8/8/8/8/8/r3K3 b - - 0 1");
    CHECK(texts(*h) == std::vector<std::string>{"Rxe1"});
    test::play(*h, "Rxe1");
    CHECK(h->outcome().status == Status::WhiteWins);
    CHECK(h->outcome().reason == "White has no pieces left");
}

TEST_CASE("A pawn may promote to a king as well as to Q, R, B or N", "[variant:giveaway]") {
    auto g = test::start("giveaway", "8/P7/8/8/8/8/8/k7 w - - 0 1");
    CHECK(texts(*g) == std::vector<std::string>{"a8=B", "a8=K", "a8=N", "a8=Q", "a8=R"});
    test::play(*g, "a8=K");
    CHECK(g->fen() == "K7/8/8/8/8/8/8/k7 b - - 0 1");
    CHECK(refusal(*g, "Kb3") == "Kb3 is not possible: no king can reach b3");
}

TEST_CASE("Giveaway: a player with no legal move on their turn wins", "[variant:giveaway]") {
    auto g = test::start("giveaway", "8/8/8/8/8/p7/P7/8 w - - 0 1");
    CHECK(g->outcome().status == Status::WhiteWins);
    CHECK(g->outcome().reason == "White has no legal move");
    CHECK(g->pending().empty());
    CHECK(g->perft(1) == 0);
}

TEST_CASE("A player who has lost every piece wins", "[variant:giveaway]") {
    auto g = test::start("giveaway", "8/8/8/8/8/8/1p6/B7 b - - 0 1");
    CHECK(texts(*g) == std::vector<std::string>{"bxa1=B", "bxa1=K", "bxa1=N", "bxa1=Q", "bxa1=R"});
    NoRandomness no_dice;
    auto events = g->apply(Seat::Black, parse_action(*g, Seat::Black, "bxa1=Q")->action, no_dice);
    REQUIRE(events.ok());
    CHECK(events->back().kind == EventKind::GameOver);
    CHECK(events->back().text == "White has no pieces left");
    CHECK(g->outcome().status == Status::WhiteWins);
}

TEST_CASE("Castling ignores attacks on the king's path", "[variant:giveaway]") {
    auto g = test::start("giveaway", "4kr2/8/8/8/8/8/8/4K2R w K - 0 1");
    auto moves = texts(*g);
    CHECK(std::count(moves.begin(), moves.end(), "O-O") == 1);
    CHECK(refusal(*g, "0-0") == "accepted as O-O");
    CHECK(refusal(*g, "e1g1") == "accepted as O-O");
    test::play(*g, "O-O");
    CHECK(g->fen() == "4kr2/8/8/8/8/8/8/5RK1 b - - 1 1");
    CHECK(texts(*g) == std::vector<std::string>{"Rxf1"});
}

TEST_CASE("Castling rights end when the king or that rook moves", "[variant:giveaway]") {
    auto g = test::start("giveaway", "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1");
    test::play(*g, "Rh2 Kd8 Rh1 Ke8");
    CHECK(g->fen() == "r3k3/8/8/8/8/8/8/4K2R w - - 4 3");
    CHECK(refusal(*g, "O-O") == "O-O is not possible: castling on that side is no longer allowed "
                                "(the king or that rook has moved)");
}

TEST_CASE("En passant is a capture and so it is compulsory", "[variant:giveaway]") {
    auto g =
        test::start("giveaway", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
    CHECK(texts(*g) == std::vector<std::string>{"exf6"});
    test::play(*g, "exf6");
    CHECK(g->fen() == "rnbqkbnr/ppp1p1pp/5P2/3p4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3");
}

TEST_CASE("A double step shows an en-passant square only when a pawn can take",
          "[variant:giveaway]") {
    auto g = test::start("giveaway");
    test::play(*g, "e4");
    CHECK(g->fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    auto h = test::start("giveaway", "4k3/8/8/8/5p2/8/4P3/4K3 w - - 0 1");
    test::play(*h, "e4");
    CHECK(h->fen() == "4k3/8/8/8/4Pp2/8/8/4K3 b - e3 0 1");
    CHECK(texts(*h) == std::vector<std::string>{"fxe3"});
}

TEST_CASE("Threefold repetition may be claimed and fivefold ends the game",
          "[variant:giveaway][draw]") {
    auto g = test::start("giveaway", "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    test::play(*g, "Kd1 Kd8 Ke1 Ke8");
    CHECK_FALSE(g->claimable_draw().has_value());
    test::play(*g, "Kd1 Kd8 Ke1 Ke8");
    CHECK(g->claimable_draw() == std::optional<std::string>("threefold repetition"));
    CHECK_FALSE(g->outcome().over());
    test::play(*g, "Kd1 Kd8 Ke1 Ke8 Kd1 Kd8 Ke1");
    CHECK_FALSE(g->outcome().over());
    test::play(*g, "Ke8");
    CHECK(g->outcome().status == Status::Draw);
    CHECK(g->outcome().reason == "fivefold repetition");
}

TEST_CASE("The 50-move rule may be claimed and 75 moves end the game", "[variant:giveaway][draw]") {
    auto g = test::start("giveaway", "4k3/8/8/8/8/8/8/4K3 w - - 99 60");
    CHECK_FALSE(g->claimable_draw().has_value());
    test::play(*g, "Kd1");
    CHECK(g->claimable_draw() == std::optional<std::string>("50-move rule"));
    auto h = test::start("giveaway", "4k3/8/8/8/8/8/8/4K3 w - - 149 80");
    CHECK_FALSE(h->outcome().over());
    test::play(*h, "Kd1");
    CHECK(h->outcome().status == Status::Draw);
    CHECK(h->outcome().reason == "75-move rule");
}

TEST_CASE("A giveaway FEN that cannot be used is refused with its reason", "[variant:giveaway]") {
    const Variant* v = find_variant("giveaway");
    REQUIRE(v != nullptr);
    auto short_rank = v->start({}, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1");
    REQUIRE_FALSE(short_rank.ok());
    CHECK(short_rank.error().kind == ErrorKind::BadSetup);
    CHECK(short_rank.error().message == "bad FEN: the placement must have 8 ranks of 8 squares");
    auto no_rook = v->start({}, "4k3/8/8/8/8/8/8/4K3 w K - 0 1");
    REQUIRE_FALSE(no_rook.ok());
    CHECK(no_rook.error().message ==
          "bad FEN: castling right K needs its king and rook on their start squares");
    auto ghost = v->start({}, "4k3/8/8/8/8/8/8/4K1G1 w - - 0 1");
    REQUIRE_FALSE(ghost.ok());
    CHECK(ghost.error().message == "bad FEN: 'G' is not a piece of this variant");
}

TEST_CASE("Giveaway views show every piece to everyone and say when a capture is due",
          "[variant:giveaway]") {
    auto g = test::start("giveaway");
    test::play(*g, "e3 b5");
    const BoardView& pub = g->public_view().board();
    CHECK(pub.variant == "giveaway");
    CHECK(pub.at(Square(1, 4)).figures.front().piece == Piece{PieceKind::Pawn, Seat::Black});
    CHECK(pub.last_from == Square(1, 6));
    CHECK(pub.last_to == Square(1, 4));
    CHECK(pub.notes == std::vector<std::string>{"White must capture"});
    CHECK(g->seat_view(Seat::Black).board() == pub);
}

TEST_CASE("Could win: every giveaway piece captures, so no position is counted as unwinnable",
          "[variant:giveaway]") {
    auto g = test::start("giveaway", "8/8/8/4p3/4P3/8/8/8 w - - 0 1");
    CHECK(g->could_win(Seat::White));
    CHECK(g->could_win(Seat::Black));
}
