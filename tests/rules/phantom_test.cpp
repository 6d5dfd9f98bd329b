// Phantom Chess: one test per clause of the seed and per decision in docs/variants/phantom.md,
// plus perft regression figures.
#include "chess_test_support.h"
#include "ghostpost/rules/notation.h"
#include "ghostpost/variants/pieces.h"

#include <algorithm>

using namespace ghostpost::rules;

using test::offers;
using test::texts;

namespace {

std::unique_ptr<Game> phantom(const std::string& fen = {}, const Options& options = {}) {
    return test::start("phantom", fen, options);
}

std::vector<std::string> phantom_texts(const Game& g) {
    std::vector<std::string> out;
    for (const auto& t : texts(g))
        if (t[0] == 'F')
            out.push_back(t);
    return out;
}

// The refusal of `typed` by the side to move: "public | private".
std::string refusal(const Game& g, const std::string& typed) {
    REQUIRE_FALSE(g.pending().empty());
    auto r = parse_action(g, g.pending().front().seat, typed);
    if (r)
        return "accepted as " + r->text;
    return r.error().message + " | " + r.error().private_detail;
}

std::vector<Event> play_one(Game& g, Seat seat, const std::string& typed) {
    NoRandomness no_dice;
    auto parsed = parse_action(g, seat, typed);
    INFO(typed << ": " << (parsed ? "" : parsed.error().message));
    REQUIRE(parsed.ok());
    auto events = g.apply(seat, parsed->action, no_dice);
    REQUIRE(events.ok());
    return *events;
}

// Every figure of a view as "Fe4" (upper case White, lower case Black; a Phantom-styled figure
// gets a trailing '*').
std::vector<std::string> figures(const BoardView& b) {
    std::vector<std::string> out;
    for (int r = 0; r < b.ranks; ++r)
        for (int f = 0; f < b.files; ++f)
            for (const auto& fig : b.at(Square(f, r)).figures) {
                char c = piece_letter(fig.piece.kind);
                if (fig.piece.seat == Seat::Black)
                    c = static_cast<char>(c - 'A' + 'a');
                out.push_back(std::string(1, c) + Square(f, r).name() +
                              (fig.style == FigureStyle::Secret ? "*" : ""));
            }
    return out;
}

const std::string refused_publicly =
    "that move was refused; the reason was sent to you by direct message (no peek was spent)";

} // namespace

TEST_CASE("Phantom Chess perft from the start matches Fairy-Stockfish with the default entry rules",
          "[variant:phantom][perft]") {
    auto cases = test::read_perft_file(GHOSTPOST_TEST_DATA "/perft/phantom.epd");
    REQUIRE(cases.size() >= 4);
    for (const auto& c : cases) {
        auto game = phantom(c.fen);
        CHECK(game->fen() == c.fen);
        for (auto [depth, nodes] : c.counts) {
            INFO(c.name << " depth " << depth);
            CHECK(game->perft(depth) == nodes);
        }
    }
}

TEST_CASE("Phantom Chess perft with entry allowed to give check matches Fairy-Stockfish",
          "[variant:phantom][perft]") {
    // Figures from the issue (Fairy-Stockfish, dropChecks = true).
    auto game = phantom({}, {{"phantom_entry_check", "yes"}});
    CHECK(game->perft(1) == 52);
    CHECK(game->perft(2) == 2565);
    CHECK(game->perft(3) == 92748);
}

TEST_CASE("The fast Phantom perft agrees with walking the notated actions",
          "[variant:phantom][perft]") {
    const std::vector<std::pair<std::string, Options>> cases{
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Ff] w KQkq - 0 1",
         {{"phantom_entry_capture", "yes"}}},
        {"r3k2r/p1pp1pb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R[Ff] w KQkq - 0 1", {}},
        {"r3k2r/p1pp1pb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R[Ff] w KQkq - 0 1",
         {{"phantom_entry_capture", "yes"}, {"phantom_entry_check", "yes"}}},
        {"4k3/8/8/3f4/8/2F5/8/R3K2R w KQ - 0 1", {}},
        {"4k3/8/8/8/8/8/8/r3K3[Ff] w - - 0 1", {{"phantom_entry_capture", "yes"}}},
    };
    for (const auto& [fen, options] : cases) {
        auto game = phantom(fen, options);
        INFO(fen);
        CHECK(game->perft(2) == game->Game::perft(2));
    }
}

TEST_CASE("The Phantom moves one square diagonally or jumps like a knight",
          "[variant:phantom][rules]") {
    auto game = phantom("4k3/8/8/8/3F4/8/8/4K3 w - - 0 1");
    CHECK(phantom_texts(*game) == std::vector<std::string>{"Fb3", "Fb5", "Fc2", "Fc3", "Fc5", "Fc6",
                                                           "Fe2", "Fe3", "Fe5", "Fe6", "Ff3",
                                                           "Ff5"});
}

TEST_CASE("The Phantom captures and is captured", "[variant:phantom][rules]") {
    auto takes = phantom("4k3/8/8/4n3/3F4/8/8/4K3 w - - 0 1");
    CHECK(offers(*takes, "Fxe5"));
    auto taken = phantom("4k3/8/2n5/8/3F4/8/8/4K3 b - - 0 1");
    CHECK(offers(*taken, "Nxd4"));
    // Black cannot see the Phantom: a capture is read on Black's board, so Nd4 takes it and
    // Nxd4 is refused (issue 32, "the capture marker").
    CHECK(refusal(*taken, "Nxd4") ==
          "Nxd4 is not possible: there is nothing to capture on d4; Nd4 would be a quiet move | ");
    CHECK(play_one(*taken, Seat::Black, "Nd4").front().text == "Nxd4");
    CHECK(taken->fen() == "4k3/8/8/8/3n4/8/8/4K3 w - - 0 2");
}

TEST_CASE("The Phantom gives check, and the check is announced", "[variant:phantom][rules]") {
    auto game = phantom("4k3/8/8/8/4F3/8/8/4K3 w - - 0 1");
    CHECK(offers(*game, "Fd6+"));
    CHECK(offers(*game, "Ff6+"));
    auto events = play_one(*game, Seat::White, "Fd6");
    CHECK(std::any_of(events.begin(), events.end(), [](const Event& e) {
        return e.kind == EventKind::Check && e.text == "check" && !e.only_for;
    }));
    CHECK(game->public_view().board().check == Square(4, 7));
}

TEST_CASE("The Phantom can deliver checkmate", "[variant:phantom][rules]") {
    auto game = phantom("7k/6pp/8/4F3/8/8/8/4K3[f] w - - 0 1");
    CHECK(offers(*game, "Ff7#"));
    play_one(*game, Seat::White, "Ff7");
    CHECK(game->outcome().status == Status::WhiteWins);
    CHECK(game->outcome().reason == "checkmate");
}

TEST_CASE("The Phantom blocks check, moving or entering", "[variant:phantom][rules]") {
    auto moving = phantom("4k3/8/8/8/8/2F5/8/r3K3 w - - 0 1");
    CHECK(phantom_texts(*moving) == std::vector<std::string>{"Fb1", "Fd1"});
    auto entering = phantom("4k3/8/8/8/8/8/8/r3K3[F] w - - 0 1");
    CHECK(texts(*entering) ==
          std::vector<std::string>{"F@b1", "F@c1", "F@d1", "Kd2", "Ke2", "Kf2"});
}

TEST_CASE("The Phantom cannot be passed through", "[variant:phantom][rules]") {
    auto own = phantom("4k3/8/8/8/8/8/8/R1F1K3 w - - 0 1");
    CHECK_FALSE(offers(*own, "Rd1"));
    CHECK(offers(*own, "Rb1"));
    auto theirs = phantom("4k3/8/8/8/8/2f5/8/B3K3 w - - 0 1");
    CHECK_FALSE(offers(*theirs, "Bd4"));
    CHECK(offers(*theirs, "Bxc3"));
}

TEST_CASE("The Phantom enters by announcement as that turn's move", "[variant:phantom][rules]") {
    auto game = phantom();
    play_one(*game, Seat::White, "F@e4");
    CHECK(game->fen() == "rnbqkbnr/pppppppp/8/8/4F3/8/PPPPPPPP/RNBQKBNR[f] b KQkq - 1 1");
    CHECK(game->pending().front().seat == Seat::Black);
    CHECK(game->ply() == 1);
}

TEST_CASE("The Phantom may enter at any time, also in the middle of the game",
          "[variant:phantom][rules]") {
    auto game = phantom();
    test::play(*game, "e4 e5 Nf3 Nc6 Bc4");
    CHECK(offers(*game, "F@d4"));
    play_one(*game, Seat::Black, "f@d4"); // lower case is accepted
    CHECK(game->fen() == "r1bqkbnr/pppp1ppp/2n5/4p3/2BfP3/5N2/PPPP1PPP/RNBQK2R[F] w KQkq - 4 4");
}

TEST_CASE("By default the Phantom enters only on an empty square",
          "[variant:phantom][rules][option]") {
    auto game = phantom("4k3/8/8/8/4n3/8/8/4K3[F] w - - 0 1");
    CHECK_FALSE(offers(*game, "F@xe4"));
    CHECK(refusal(*game, "F@e4") ==
          "F@e4 is not possible: the Phantom enters only on an empty square in this game "
          "(phantom_entry_capture=no) | ");
    CHECK(refusal(*game, "F@e1") == "F@e1 is not possible: your own king stands on e1 | ");
}

TEST_CASE("With phantom_entry_capture=yes the Phantom may capture on entry, but not the king",
          "[variant:phantom][rules][option]") {
    auto game = phantom("4k3/8/8/8/4n3/8/8/4K3[F] w - - 0 1", {{"phantom_entry_capture", "yes"}});
    CHECK(offers(*game, "F@xe4"));
    CHECK(refusal(*game, "F@e8") ==
          "F@e8 is not possible: the Phantom cannot enter on the king | ");
    play_one(*game, Seat::White, "F@e4");
    CHECK(game->fen() == "4k3/8/8/8/4F3/8/8/4K3 b - - 0 1");
}

TEST_CASE("A Phantom entering on a rook's start square ends that rook's castling right",
          "[variant:phantom][rules][option][issue35]") {
    // Found by is_consistent after every action: the right stayed, and O-O would have moved the
    // white Phantom on h8 as if it were Black's rook.
    auto game = phantom("4k2r/8/8/8/8/8/8/4K3[F] w k - 0 1", {{"phantom_entry_capture", "yes"}});
    play_one(*game, Seat::White, "F@h8");
    CHECK(game->fen() == "4k2F/8/8/8/8/8/8/4K3 b - - 0 1");
    CHECK_FALSE(offers(*game, "O-O"));
}

TEST_CASE("By default the entering Phantom may not give check",
          "[variant:phantom][rules][option]") {
    auto game = phantom();
    CHECK_FALSE(offers(*game, "F@d6+"));
    CHECK(refusal(*game, "F@d6") ==
          "F@d6 is not possible: entering on d6 would give check, which this game's entry rules "
          "forbid (phantom_entry_check=no) | ");
}

TEST_CASE("With phantom_entry_check=yes the entering Phantom may give check and mate",
          "[variant:phantom][rules][option]") {
    auto start = phantom({}, {{"phantom_entry_check", "yes"}});
    CHECK(offers(*start, "F@d6+"));
    CHECK(offers(*start, "F@f6+"));
    auto mate = phantom("7k/6pp/8/8/8/8/8/4K3[F] w - - 0 1", {{"phantom_entry_check", "yes"}});
    CHECK(offers(*mate, "F@f7#"));
    auto no_mate = phantom("7k/6pp/8/8/8/8/8/4K3[F] w - - 0 1");
    CHECK_FALSE(offers(*no_mate, "F@f7#"));
}

TEST_CASE("Each player has one Phantom, and a captured Phantom never enters again",
          "[variant:phantom][rules]") {
    auto game = phantom("4k3/8/2n5/8/3F4/8/P7/4K3 b - - 0 1");
    play_one(*game, Seat::Black, "Nd4");
    CHECK(refusal(*game, "F@e4") ==
          "F@e4 is not possible: your Phantom was captured, and it never enters again | ");
    auto in_play = phantom("4k3/8/8/8/3F4/8/8/4K3 w - - 0 1");
    CHECK(refusal(*in_play, "F@a1") == "F@a1 is not possible: your Phantom is already in play: it "
                                       "enters once, and moves as Fa1 | ");
    CHECK(test::start("phantom", {}, {})->fen().find("[Ff]") != std::string::npos);
    const auto* v = find_variant("phantom");
    auto two = v->start({}, "4k3/8/8/8/3F4/8/8/4K3[F] w - - 0 1");
    REQUIRE_FALSE(two.ok());
    CHECK(two.error().message == "cannot read that FEN: White has more than one Phantom");
}

TEST_CASE("A pawn does not promote to a Phantom", "[variant:phantom][rules]") {
    auto game = phantom("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    CHECK(offers(*game, "a8=Q+"));
    CHECK_FALSE(offers(*game, "a8=F"));
    CHECK(refusal(*game, "a8=F") ==
          "a8=F is not possible: a pawn promotes to a queen, rook, bishop or knight | ");
}

TEST_CASE("Castling follows FIDE: a Phantom attacking the king's path forbids it",
          "[variant:phantom][rules]") {
    auto game = phantom("4k3/8/8/8/8/4f3/8/4K2R w K - 0 1");
    CHECK_FALSE(offers(*game, "O-O"));
    CHECK(refusal(*game, "O-O") ==
          refused_publicly +
              " | O-O is not possible: the king would pass through f1, which Black's "
              "Phantom on e3 attacks");
    auto own = phantom("4k3/8/8/8/8/8/8/4KF1R w K - 0 1");
    CHECK(refusal(*own, "0-0") ==
          refused_publicly +
              " | 0-0 is not possible: your Phantom on f1 stands between your king and rook");
}

TEST_CASE("Public boards never show a Phantom, nor mark its last move", "[variant:phantom][view]") {
    auto game = phantom();
    play_one(*game, Seat::White, "F@e4");
    const BoardView pub = game->public_view().board();
    auto figs = figures(pub);
    CHECK(std::none_of(figs.begin(), figs.end(),
                       [](const std::string& f) { return f[0] == 'F' || f[0] == 'f'; }));
    CHECK_FALSE(pub.last_from.valid());
    CHECK_FALSE(pub.last_to.valid());
    play_one(*game, Seat::Black, "e5");
    play_one(*game, Seat::White, "Fc5");
    CHECK_FALSE(game->public_view().board().last_to.valid());
    play_one(*game, Seat::Black, "Nf6");
    CHECK(game->public_view().board().last_to == Square(5, 5));
}

TEST_CASE("A seat's view shows its own Phantom and not the other's", "[variant:phantom][view]") {
    auto game = phantom("4k3/8/1f6/8/3F4/8/8/4K3 w - - 0 1");
    auto white = figures(game->seat_view(Seat::White).board());
    auto black = figures(game->seat_view(Seat::Black).board());
    CHECK(white == std::vector<std::string>{"Ke1", "Fd4*", "ke8"});
    CHECK(black == std::vector<std::string>{"Ke1", "fb6*", "ke8"});
    CHECK(figures(game->public_view().board()) == std::vector<std::string>{"Ke1", "ke8"});
}

TEST_CASE("After moving or entering its Phantom the mover gets a private board with it",
          "[variant:phantom][view]") {
    auto game = phantom();
    auto events = play_one(*game, Seat::White, "F@e4");
    REQUIRE(events.size() == 2);
    CHECK(events[0].kind == EventKind::Moved);
    CHECK(events[0].text == "F@e4");
    CHECK_FALSE(events[0].only_for);
    CHECK(events[1].text == "your Phantom now stands on e4");
    CHECK(events[1].only_for == Seat::White);
    REQUIRE(events[1].board);
    CHECK(events[1].board->seat() == Seat::White);
    CHECK(events[1].board->board().at(Square(4, 3)).figures ==
          std::vector<Figure>{Figure{Piece{pieces::phantom, Seat::White}, FigureStyle::Secret}});
    // A move of another piece brings no private board.
    auto pawn = play_one(*game, Seat::Black, "e5");
    CHECK(std::none_of(pawn.begin(), pawn.end(),
                       [](const Event& e) { return e.only_for || e.board; }));
}

TEST_CASE("A peek spends a life and shows the peeker both Phantoms privately, at any time",
          "[variant:phantom][peek]") {
    auto game = phantom("4k3/8/1f6/8/3F4/8/8/4K3 w - - 0 1");
    CHECK(game->public_view().board().notes ==
          std::vector<std::string>{"Peeks left: White 3, Black 3",
                                   "Phantoms: White in play, Black in play"});
    // Black peeks while White is to move.
    auto events = play_one(*game, Seat::Black, "PEEK");
    REQUIRE(events.size() == 2);
    CHECK(events[0].text == "Black peeks at the Phantoms (2 peeks left)");
    CHECK_FALSE(events[0].only_for);
    CHECK(events[1].kind == EventKind::Reveal);
    CHECK(events[1].text == "the Phantoms: White's Phantom on d4; Black's Phantom on b6");
    CHECK(events[1].only_for == Seat::Black);
    REQUIRE(events[1].board);
    CHECK(figures(events[1].board->board()) ==
          std::vector<std::string>{"Ke1", "Fd4*", "fb6*", "ke8"});
    CHECK(game->public_view().board().notes.front() == "Peeks left: White 3, Black 2");
    CHECK(game->pending().front().seat == Seat::White);
}

TEST_CASE("Three lives by default: a fourth peek is refused", "[variant:phantom][peek][option]") {
    auto game = phantom();
    for (int i = 0; i < 3; ++i)
        play_one(*game, Seat::White, "peek");
    auto parsed = parse_action(*game, Seat::White, "peek");
    REQUIRE(parsed.ok());
    NoRandomness no_dice;
    auto fourth = game->apply(Seat::White, parsed->action, no_dice);
    REQUIRE_FALSE(fourth.ok());
    CHECK(fourth.error().message == "you have no peeks left (all 3 spent)");
    CHECK(game->public_view().board().notes.front() == "Peeks left: White 0, Black 3");
}

TEST_CASE("Hard mode (phantom_lives=0) allows no peeks", "[variant:phantom][peek][option]") {
    auto game = phantom({}, {{"phantom_lives", "0"}});
    CHECK(game->public_view().board().notes.front() == "Peeks: none (hard mode)");
    auto parsed = parse_action(*game, Seat::Black, "peek");
    REQUIRE(parsed.ok());
    NoRandomness no_dice;
    auto refused = game->apply(Seat::Black, parsed->action, no_dice);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message ==
          "this game is played in hard mode (phantom_lives=0): no peeks; you see a Phantom only by "
          "moving your own");
}

TEST_CASE("A move refused because of an unseen Phantom is refused publicly and explained privately",
          "[variant:phantom][refusal]") {
    // Black's Phantom on c3 stands in the white bishop's way and attacks e2 (its king's flight).
    auto game = phantom("4k3/8/8/8/8/2f5/8/B3K3 w - - 0 1");
    CHECK(refusal(*game, "Bd4") ==
          refused_publicly + " | Bd4 is not possible: Black's Phantom on c3 is in the way");
    CHECK(refusal(*game, "Ke2") ==
          refused_publicly +
              " | Ke2 is not possible: your king would be attacked by Black's Phantom on c3");
    CHECK(refusal(*game, "Kd2") ==
          refused_publicly +
              " | Kd2 is not possible: your king would be attacked by Black's Phantom on c3");
    // A reason everyone can see stays public.
    CHECK(refusal(*game, "Bb3") == "Bb3 is not possible: no bishop can reach b3 | ");
    // Refusals spend no life.
    CHECK(game->public_view().board().notes.front() == "Peeks left: White 3, Black 3");
}

TEST_CASE("A move onto one's own unseen Phantom is refused without naming the square in public",
          "[variant:phantom][refusal]") {
    auto game = phantom("4k3/8/8/8/8/5F2/8/4K1N1 w - - 0 1");
    CHECK(refusal(*game, "Nf3") ==
          refused_publicly + " | Nf3 is not possible: your own Phantom stands on f3");
    CHECK(refusal(*game, "f3f4") ==
          refused_publicly + " | f3f4 is not possible: the phantom on f3 cannot reach f4");
    CHECK(refusal(*game, "Ff4") ==
          refused_publicly + " | Ff4 is not possible: no phantom can reach f4");
}

TEST_CASE("A pawn pushed into an unseen Phantom is refused privately",
          "[variant:phantom][refusal]") {
    auto game = phantom("4k3/8/8/8/8/4f3/4P3/K7 w - - 0 1");
    CHECK(refusal(*game, "e3") ==
          refused_publicly + " | e3 is not possible: Black's Phantom on e3 is in the way");
    CHECK(refusal(*game, "e4") ==
          refused_publicly + " | e4 is not possible: Black's Phantom on e3 is in the way");
    CHECK(refusal(*game, "exf3") == "exf3 is not possible: there is nothing to capture on f3 | ");
}

TEST_CASE("Entering while in check from an unseen Phantom is refused privately",
          "[variant:phantom][refusal]") {
    auto game = phantom("4k3/8/8/8/8/3f4/8/4K3[F] w - - 0 1");
    CHECK(refusal(*game, "F@a5") ==
          refused_publicly +
              " | F@a5 is not possible: you are in check from Black's Phantom on d3, "
              "and entering on a5 does not answer it");
    auto occupied = phantom("4k3/8/8/8/3f4/8/8/4K3[F] w - - 0 1");
    CHECK(refusal(*occupied, "F@d4") ==
          refused_publicly +
              " | F@d4 is not possible: Black's Phantom on d4 already stands there, and the "
              "Phantom enters only on an empty square (phantom_entry_capture=no)");
}

TEST_CASE("Moving a Phantom that is not in play gets a public reason",
          "[variant:phantom][refusal]") {
    auto game = phantom();
    CHECK(refusal(*game, "Fe4") ==
          "Fe4 is not possible: your Phantom has not entered play yet (it enters with F@e4) | ");
}

TEST_CASE("Announcements disambiguate by the board everyone sees", "[variant:phantom][notation]") {
    // The h1 rook cannot reach c1 past White's own Phantom on d1, but the channel cannot know
    // that, so the a1 rook's move is announced as Rac1 (FIDE SAN would say Rc1).
    auto game = phantom("4k3/8/8/8/8/8/4K3/R2F3R w - - 0 1");
    CHECK(offers(*game, "Rac1"));
    CHECK(offers(*game, "Rhe1"));
    auto typed = parse_action(*game, Seat::White, "Rc1");
    REQUIRE(typed.ok());
    CHECK(typed->text == "Rac1");
}

TEST_CASE("Every legal Phantom Chess move's text parses back to the same move",
          "[variant:phantom][notation]") {
    for (const auto& c : test::read_perft_file(GHOSTPOST_TEST_DATA "/perft/phantom.epd")) {
        for (const Options& options : {Options{}, Options{{"phantom_entry_capture", "yes"},
                                                          {"phantom_entry_check", "yes"}}}) {
            auto game = phantom(c.fen, options);
            const Seat seat = game->pending().front().seat;
            for (const auto& a : game->notated_actions(seat)) {
                auto back = read_recorded_action(*game, seat, a.text);
                INFO(c.fen << " " << a.text);
                REQUIRE(back.ok());
                CHECK(back->action == a.action);
            }
        }
    }
}

TEST_CASE("At the game's end both Phantoms are shown and the Phantom Card is read out",
          "[variant:phantom][view]") {
    auto game = phantom("7k/6pp/8/4F3/1f6/8/8/4K3 w - - 0 1");
    auto events = play_one(*game, Seat::White, "Ff7#");
    REQUIRE(game->outcome().over());
    CHECK(std::any_of(events.begin(), events.end(), [](const Event& e) {
        return e.kind == EventKind::Reveal && !e.only_for &&
               e.text ==
                   "the Phantom Card is turned over: White's Phantom on f7; Black's Phantom on b4";
    }));
    CHECK(figures(game->public_view().board()) ==
          std::vector<std::string>{"Ke1", "fb4*", "Ff7*", "pg7", "ph7", "kh8"});
    CHECK(game->public_view().board().last_to == Square(5, 6));
}

TEST_CASE("Phantom Chess keeps the house draws: threefold claim and the 75-move rule",
          "[variant:phantom][draw]") {
    auto game = phantom();
    test::play(*game, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8");
    CHECK(game->claimable_draw() == std::optional<std::string>("threefold repetition"));
    auto long_game = phantom("4k3/8/8/8/8/8/8/4K2R[Ff] w - - 149 80");
    test::play(*long_game, "Rh2");
    CHECK(long_game->outcome().status == Status::Draw);
    CHECK(long_game->outcome().reason == "75-move rule");
}

TEST_CASE("Phantom Chess options are checked when a game is created", "[variant:phantom][option]") {
    const auto* v = find_variant("phantom");
    REQUIRE(v != nullptr);
    auto bad = v->start({{"phantom_entry_check", "maybe"}});
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().message == "option phantom_entry_check=maybe is not allowed: use no or yes");
    auto lives = v->start({{"phantom_lives", "-1"}});
    REQUIRE_FALSE(lives.ok());
    CHECK(lives.error().message == "option phantom_lives=-1 is not allowed: use a whole number");
    auto five = test::start("phantom", {}, {{"phantom_lives", "5"}});
    CHECK(five->public_view().board().notes.front() == "Peeks left: White 5, Black 5");
}

// Issue 15: the parser reads a move on the board the mover sees (docs/variants/phantom.md,
// "Reading a move"). Each of these was answered from the true board before.
TEST_CASE("A bare pawn push is read on the board the mover sees and never takes an unseen Phantom",
          "[variant:phantom][notation][refusal]") {
    // Black's Phantom on c3, unseen by White: "c3" once answered "c3 is ambiguous: bxc3 or dxc3".
    auto both = phantom("4k3/8/8/8/8/2f5/1PPP4/4K3 w - - 0 1");
    CHECK(refusal(*both, "c3") ==
          refused_publicly + " | c3 is not possible: Black's Phantom on c3 is in the way");
    // With one pawn able to take, "c3" was played as bxc3.
    auto one = phantom("4k3/8/8/8/8/2f5/1P6/4K3 w - - 0 1");
    CHECK(refusal(*one, "c3") == "c3 is not possible: no pawn can reach c3 | ");
    // The same reply as on a board with no Phantom at all.
    auto none = phantom("4k3/8/8/8/8/8/1P6/4K3 w - - 0 1");
    CHECK(refusal(*none, "c3") == "c3 is not possible: no pawn can reach c3 | ");
    // Naming the capture of a Phantom one remembers takes it.
    CHECK(refusal(*one, "bxc3") == "accepted as bxc3");
}

TEST_CASE("Disambiguation counts the moves the mover sees, not those an unseen Phantom blocks",
          "[variant:phantom][notation][refusal]") {
    // Black's Phantom on c3 blocks the a3 rook; "Rh3" was silently played as Rhh3.
    auto game = phantom("4k3/8/8/8/8/R1f5/8/4K2R w - - 0 1");
    CHECK(refusal(*game, "Rh3") == "Rh3 is ambiguous: Rhh3 or Rah3 | ");
    CHECK(refusal(*game, "Rah3") ==
          refused_publicly + " | Rah3 is not possible: Black's Phantom on c3 is in the way");
    CHECK(refusal(*game, "Rhh3") == "accepted as Rhh3");
    // Without the Phantom the channel's reply is the same.
    auto plain = phantom("4k3/8/8/8/8/R7/8/4K2R w - - 0 1");
    CHECK(refusal(*plain, "Rh3") == "Rh3 is ambiguous: Rhh3 or Rah3 | ");
}

TEST_CASE("A move that only an unseen Phantom makes illegal is refused in public and explained in "
          "private",
          "[variant:phantom][refusal]") {
    // Black's Phantom on d3 gives check; White sees no check and plays on.
    auto game = phantom("4k3/8/8/8/8/3f4/P7/4K3 w - - 0 1");
    CHECK(refusal(*game, "a3") ==
          refused_publicly + " | a3 is not possible: you are in check from Black's Phantom on d3, "
                             "and this move does not answer it");
}

TEST_CASE("Could win: a Phantom, on the board or still to enter, can mate with its king",
          "[variant:phantom]") {
    // Neither side has a Phantom left: FIDE chess's rule (a lone king or knight cannot mate).
    auto bare = phantom("4k3/8/8/8/8/8/8/N3K3 w - - 0 1");
    CHECK_FALSE(bare->could_win(Seat::White));
    CHECK_FALSE(bare->could_win(Seat::Black));
    // White's Phantom in hand mates with the king; Black's Phantom may block its king's flight.
    auto hand = phantom("4k3/8/8/8/8/8/8/N3K3[Ff] w - - 0 1");
    CHECK(hand->could_win(Seat::White));
    CHECK(hand->could_win(Seat::Black));
    auto white_only = phantom("4k3/8/8/8/8/8/8/4K3[F] w - - 0 1");
    CHECK(white_only->could_win(Seat::White));
    CHECK_FALSE(white_only->could_win(Seat::Black));
}

TEST_CASE("However the game ends, the Phantom Card is turned over and the final board shows both "
          "Phantoms",
          "[variant:phantom][view]") {
    // A resignation, a timeout, a draw or a void ends the game outside the rules: the service
    // asks for ending_reveal and shows final_view from then on.
    auto game = phantom("4k3/8/8/8/1f6/8/8/4K1F1 w - - 0 1");
    REQUIRE_FALSE(game->outcome().over());
    const auto reveal = game->ending_reveal();
    REQUIRE(reveal.size() == 1);
    CHECK(reveal.front().kind == EventKind::Reveal);
    CHECK_FALSE(reveal.front().only_for.has_value());
    CHECK(reveal.front().text ==
          "the Phantom Card is turned over: White's Phantom on g1; Black's Phantom on b4");
    CHECK(figures(game->final_view().board()) ==
          std::vector<std::string>{"Ke1", "Fg1*", "fb4*", "ke8"});
    CHECK(figures(game->public_view().board()) == std::vector<std::string>{"Ke1", "ke8"});
    // After a mate the rules turned the card over already.
    auto mated = phantom("7k/6pp/8/4F3/1f6/8/8/4K3 w - - 0 1");
    play_one(*mated, Seat::White, "Ff7#");
    CHECK(mated->ending_reveal().empty());
}

TEST_CASE("A lower-case file letter is the pawn taking an unseen Phantom, never the mover's own "
          "Phantom moving there",
          "[variant:phantom][issue15]") {
    // Found by the round trip: Black's Phantom stands unseen on e5, White's on f3 and a White
    // pawn on f4. "fxe5" is the pawn's capture (a Phantom the mover remembers), not "Fe5".
    auto g = phantom("rnbqk2r/1ppp4/4ppPb/p3f2P/5P2/PP3F1N/2PP2BP/1NBQK1R1 w kq - 0 16");
    auto pawn = parse_action(*g, Seat::White, "fxe5");
    REQUIRE(pawn.ok());
    CHECK(pawn->text == "fxe5");
    CHECK(pawn->action.piece == PieceKind::Pawn);
    auto own = parse_action(*g, Seat::White, "Fe5");
    REQUIRE(own.ok());
    CHECK(own->action.piece != PieceKind::Pawn);
}

namespace {

// `fen` (White to move, Black's Phantom in hand) with Black's Phantom entered on `square`
// instead; empty when the square is taken.
std::string with_black_phantom(const std::string& fen, Square square) {
    std::string board;
    for (char c : fen.substr(0, fen.find('[')))
        board += c >= '1' && c <= '8' ? std::string(static_cast<std::size_t>(c - '0'), '1')
                                      : std::string(1, c);
    // board: ranks 8..1 separated by '/', one character per square.
    const std::size_t at = static_cast<std::size_t>((7 - square.rank) * 9 + square.file);
    if (board[at] != '1')
        return {};
    board[at] = 'f';
    std::string out;
    int run = 0;
    for (char c : board) {
        if (c == '1') {
            ++run;
            continue;
        }
        if (run > 0)
            out += std::to_string(run);
        run = 0;
        out += c;
    }
    if (run > 0)
        out += std::to_string(run);
    return out + fen.substr(fen.find(']') + 1);
}

} // namespace

// Issue 32: a move is checked on the board the mover sees first. Black's Phantom entered on e3
// in one game and on h6 in another; White's refusals read the card for free before.
TEST_CASE("A move the mover's own board forbids gets the same public reason wherever the other "
          "Phantom stands",
          "[variant:phantom][refusal][issue32]") {
    const std::string fen = "4k3/8/8/7P/4P3/8/8/4K1NR[f] w K - 0 1";
    const std::vector<std::pair<std::string, std::string>> expected{
        {"O-O", "O-O is not possible: there are pieces between the king and the rook | "},
        {"e3e4", "e3e4 is not possible: your own pawn stands on e4 | "},
        {"h6h5", "h6h5 is not possible: your own pawn stands on h5 | "},
        {"Kg1", "Kg1 is not possible: your own knight stands on g1 | "},
        {"Nf4", "Nf4 is not possible: no knight can reach f4 | "},
    };
    auto in_hand = phantom(fen);
    for (const auto& [typed, reply] : expected)
        CHECK(refusal(*in_hand, typed) == reply);
    int boards = 0;
    for (int sq = 0; sq < 64; ++sq) {
        const std::string placed = with_black_phantom(fen, Square(sq % 8, sq / 8));
        if (placed.empty())
            continue;
        INFO(placed);
        auto game = phantom(placed);
        ++boards;
        for (const auto& [typed, reply] : expected)
            CHECK(refusal(*game, typed) == reply);
    }
    CHECK(boards == 58);
    // Legal on the board White sees, illegal only because of the Phantom: a dispute, settled by
    // the card and told privately.
    auto attacked = phantom(with_black_phantom("4k3/8/8/8/8/8/8/4K2R[f] w K - 0 1", Square(4, 2)));
    CHECK(refusal(*attacked, "O-O") ==
          refused_publicly +
              " | O-O is not possible: the king would pass through f1, which Black's "
              "Phantom on e3 attacks");
}

// Issue 32: "Aside from when you move your own Phantom and write its new location on the card,
// you are permitted only three chances to look"; in hard mode "the only way to remind yourself
// of the opponent's position is to move your own Phantom".
TEST_CASE("Moving or entering your own Phantom shows you the card, in hard mode too",
          "[variant:phantom][view][issue32]") {
    for (const char* lives : {"3", "0"}) {
        INFO("phantom_lives=" << lives);
        auto game = phantom("4k3/8/7f/8/8/8/8/4K3[F] w - - 0 1", {{"phantom_lives", lives}});
        auto entered = play_one(*game, Seat::White, "F@d4");
        REQUIRE(entered.size() == 2);
        CHECK(entered[1].text == "your Phantom now stands on d4; writing it on the card you see "
                                 "Black's Phantom on h6");
        CHECK(entered[1].only_for == Seat::White);
        REQUIRE(entered[1].board);
        CHECK(figures(entered[1].board->board()) ==
              std::vector<std::string>{"Ke1", "Fd4*", "fh6*", "ke8"});
        // Black's own move of its Phantom shows White's.
        auto moved = play_one(*game, Seat::Black, "Fg4");
        REQUIRE(moved.size() == 2);
        CHECK(moved[1].text == "your Phantom now stands on g4; writing it on the card you see "
                               "White's Phantom on d4");
        CHECK(moved[1].only_for == Seat::Black);
        // Any other move shows nothing, and seat views still hide the other Phantom.
        auto king = play_one(*game, Seat::White, "Kd2");
        CHECK(std::none_of(king.begin(), king.end(),
                           [](const Event& e) { return e.only_for || e.board; }));
        CHECK(figures(game->seat_view(Seat::White).board()) ==
              std::vector<std::string>{"Kd2", "Fd4*", "ke8"});
    }
    // With the other Phantom still in hand there is nothing on the card to see.
    auto game = phantom();
    auto events = play_one(*game, Seat::White, "F@e4");
    CHECK(events[1].text == "your Phantom now stands on e4");
}
