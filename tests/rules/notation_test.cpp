#include "chess_test_support.h"
#include "ghostpost/variants/pieces.h"

using namespace ghostpost::rules;

namespace {
std::string canonical(const Game& g, const std::string& typed) {
    auto r = parse_action(g, g.pending().front().seat, typed);
    if (!r)
        return "error: " + r.error().message;
    return r->text;
}
RuleError error_of(const Game& g, const std::string& typed) {
    auto r = parse_action(g, g.pending().front().seat, typed);
    REQUIRE_FALSE(r.ok());
    return r.error();
}
} // namespace

TEST_CASE("Forgiving forms of a move all mean the canonical move", "[notation]") {
    auto g = test::start("chess");
    for (const char* typed :
         {"Nf3", "Ng1f3", "Ng1-f3", "g1f3", "g1-f3", "nf3", "Nf3!", "Nf3!?", "  Nf3. ", "Nf3+",
          "(Nf3)", "Ngf3", "N1f3", "`Nf3`", "1. Nf3", "1.Nf3"})
        CHECK(canonical(*g, typed) == "Nf3");
    CHECK(canonical(*g, "e2e4") == "e4");
    CHECK(canonical(*g, "e2-e4") == "e4");
    CHECK(canonical(*g, "e4") == "e4");
}

TEST_CASE("Castling is read with letters O or zeros", "[notation]") {
    auto g = test::start("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    for (const char* typed : {"O-O", "0-0", "OO", "o-o", "e1g1", "Kg1", "O-O+"})
        CHECK(canonical(*g, typed) == "O-O");
    for (const char* typed : {"O-O-O", "0-0-0", "e1c1"})
        CHECK(canonical(*g, typed) == "O-O-O");
}

TEST_CASE("Captures and promotions may leave out x and =", "[notation]") {
    auto g = test::start("chess", "3r3k/4P3/8/3p4/4P3/8/8/K7 w - - 0 1");
    CHECK(canonical(*g, "exd5") == "exd5");
    CHECK(canonical(*g, "ed5") == "exd5");
    CHECK(canonical(*g, "e4d5") == "exd5");
    CHECK(canonical(*g, "exd8=Q+") == "exd8=Q+");
    CHECK(canonical(*g, "exd8Q") == "exd8=Q+");
    CHECK(canonical(*g, "ed8q") == "exd8=Q+");
    CHECK(canonical(*g, "e7d8q") == "exd8=Q+");
    CHECK(canonical(*g, "e7d8n") == "exd8=N");
    CHECK(canonical(*g, "e8=R+") == "e8=R+");
    CHECK(canonical(*g, "e8R") == "e8=R+");
}

TEST_CASE("An e.p. suffix is accepted", "[notation]") {
    auto g = test::start("chess", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    CHECK(canonical(*g, "exd6 e.p.") == "exd6");
    CHECK(canonical(*g, "exd6e.p.") == "exd6");
    CHECK(canonical(*g, "exd6ep") == "exd6");
}

TEST_CASE("A b-file pawn move wins over a bishop; a lower-case letter may mean a bishop otherwise",
          "[notation]") {
    // Both the b2 pawn and the bishop on a4... here: the pawn b2 can go to b3 and no bishop can.
    auto g = test::start("chess", "4k3/8/8/8/8/2p5/1P6/4KB2 w - - 0 1");
    CHECK(canonical(*g, "bxc3") == "bxc3");
    CHECK(canonical(*g, "Bxc3") == "error: Bxc3 is not possible: no bishop can capture on c3");
    CHECK(canonical(*g, "bd3") == "Bd3");
    CHECK(canonical(*g, "b3") == "b3");
}

TEST_CASE("A capital file letter (phones capitalise a post) is the file when no such piece moves",
          "[notation]") {
    auto g = test::start("chess", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    CHECK(canonical(*g, "E5") == "e5");
    CHECK(canonical(*g, "Exd5") == "exd5");
    CHECK(canonical(*g, "F4") == "f4");
    CHECK(canonical(*g, "G3") == "g3");
    CHECK(canonical(*g, "H4") == "h4");
    CHECK(canonical(*g, "A3") == "a3");
    // B is a bishop, never the b-file, and a capital file letter reads no further than that.
    CHECK(canonical(*g, "B3") == "error: \"B3\" is not a move. Write moves like e4, Nf3, exd5, "
                                 "O-O or e8=Q (!rules chess shows the notation).");
    CHECK(canonical(*g, "E6") == "error: E6 is not possible: no pawn can reach e6");
}

TEST_CASE("An ambiguous move lists the canonical candidates", "[notation]") {
    auto g = test::start("chess", "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
    auto e = error_of(*g, "Nd2");
    CHECK(e.kind == ErrorKind::Ambiguous);
    CHECK(e.message == "Nd2 is ambiguous: Nbd2 or Nfd2");
    CHECK(e.candidates == std::vector<std::string>{"Nbd2", "Nfd2"});
    CHECK(canonical(*g, "Nbd2") == "Nbd2");
    CHECK(canonical(*g, "Nfd2") == "Nfd2");
    CHECK(canonical(*g, "Nb1d2") == "Nbd2");
}

TEST_CASE("Rank and square disambiguation follow the PGN order", "[notation]") {
    auto rooks = test::start("chess", "4k3/R7/8/8/8/8/R7/4K3 w - - 0 1");
    CHECK(canonical(*rooks, "R7a5") == "R7a5");
    CHECK(canonical(*rooks, "R2a5") == "R2a5");
    auto queens = test::start("chess", "1k6/8/8/8/Q6Q/8/8/Q3K3 w - - 0 1");
    CHECK(canonical(*queens, "Qa4d4") == "Qa4d4");
    CHECK(canonical(*queens, "Qa1d4") == "Q1d4");
    CHECK(canonical(*queens, "Qhd4") == "Qhd4");
    CHECK(error_of(*queens, "Qd4").message == "Qd4 is ambiguous: Q1d4, Qa4d4 or Qhd4");
}

TEST_CASE("Illegal moves say why", "[notation]") {
    auto g = test::start("chess");
    CHECK(error_of(*g, "Ne5").message == "Ne5 is not possible: no knight can reach e5");
    CHECK(error_of(*g, "e5").message == "e5 is not possible: no pawn can reach e5");
    CHECK(error_of(*g, "Nd2").message == "Nd2 is not possible: your own pawn stands on d2");
    CHECK(error_of(*g, "O-O").message ==
          "O-O is not possible: there are pieces between the king and the rook");
    CHECK(error_of(*g, "e3e4").message == "e3e4 is not possible: there is no piece on e3");
    CHECK(error_of(*g, "e7e5").message == "e7e5 is not possible: the piece on e7 is not yours");
    // A piece letter with a square of another piece: that piece is not there, whatever the
    // one there could do.
    CHECK(error_of(*g, "Ke2e4").message ==
          "Ke2e4 is not possible: there is no king on e2: your pawn stands there");
    CHECK(error_of(*g, "Ng1e2").message == "Ng1e2 is not possible: your own pawn stands on e2");
    CHECK(error_of(*g, "Ng1g3").message ==
          "Ng1g3 is not possible: the knight on g1 cannot reach g3");
    CHECK(error_of(*g, "Ne5").kind == ErrorKind::Illegal);

    auto pinned = test::start("chess", "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1");
    CHECK(error_of(*pinned, "Bd3").message ==
          "Bd3 is not possible: that leaves your king in check");
    auto checked = test::start("chess", "4k3/4r3/8/8/8/8/8/N3K3 w - - 0 1");
    CHECK(error_of(*checked, "Nb3").message ==
          "Nb3 is not possible: you are in check and it does not answer the check");

    auto through = test::start("chess", "4k3/8/8/8/8/8/5r2/4K2R w K - 0 1");
    CHECK(error_of(*through, "O-O").message ==
          "O-O is not possible: cannot castle through check: f1 is attacked");
    auto into = test::start("chess", "4k3/8/8/8/8/8/6r1/4K2R w K - 0 1");
    CHECK(error_of(*into, "O-O").message ==
          "O-O is not possible: the king would be in check on g1");
    auto in_check = test::start("chess", "4k3/4r3/8/8/8/8/8/4K2R w K - 0 1");
    CHECK(error_of(*in_check, "O-O").message ==
          "O-O is not possible: you cannot castle out of check");
    auto moved = test::start("chess", "4k3/8/8/8/8/8/8/4K2R w - - 0 1");
    CHECK(error_of(*moved, "O-O").message == "O-O is not possible: castling on that side is no "
                                             "longer allowed (the king or that rook has moved)");

    auto promo = test::start("chess", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    CHECK(error_of(*promo, "a8").message ==
          "a8 is not possible: a pawn reaching the last rank must promote: add =Q, =R, =B or =N");
    CHECK(error_of(*promo, "a8=K").message ==
          "a8=K is not possible: a pawn promotes to a queen, rook, bishop or knight");
}

TEST_CASE("Text that is not a move says what a move looks like", "[notation]") {
    auto g = test::start("chess");
    const std::string help = " is not a move. Write moves like e4, Nf3, exd5, O-O or e8=Q (!rules "
                             "chess shows the notation).";
    CHECK(error_of(*g, "hello").message == "\"hello\"" + help);
    CHECK(error_of(*g, "e9").message == "\"e9\"" + help);
    CHECK(error_of(*g, "Zf3").message == "\"Zf3\"" + help);
    CHECK(error_of(*g, "hello").kind == ErrorKind::NotAMove);
    CHECK(error_of(*g, std::string(1 << 20, 'e')).kind == ErrorKind::NotAMove);
    CHECK(error_of(*g, "\xff\xfe").kind == ErrorKind::NotAMove);
}

TEST_CASE("Only the seat that must decide may act", "[notation]") {
    auto g = test::start("chess");
    auto r = parse_action(*g, Seat::Black, "e5");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().kind == ErrorKind::NotYourTurn);
    CHECK(r.error().message == "it is not your decision now: White to decide");
}

TEST_CASE("Chatter does not look like a move, moves and move-shaped text do", "[notation]") {
    auto g = test::start("chess");
    CHECK(looks_like_action(*g, Seat::White, "e4"));
    CHECK(looks_like_action(*g, Seat::White, "Ne5"));
    CHECK(looks_like_action(*g, Seat::Black, "e5"));
    CHECK(looks_like_action(*g, Seat::White, "O-O"));
    CHECK_FALSE(looks_like_action(*g, Seat::White, "good game"));
    CHECK_FALSE(looks_like_action(*g, Seat::White, "ok"));
    CHECK_FALSE(looks_like_action(*g, Seat::White, "I think e4 is best"));
    CHECK_FALSE(looks_like_action(*g, Seat::White, std::string(1 << 20, 'a')));
}

TEST_CASE("Squares up to j10 parse on a 10x10 board and not beyond", "[notation]") {
    auto s = parse_syntax("R10a5", 10, 10);
    REQUIRE(s.has_value());
    CHECK(s->piece == PieceKind::Rook);
    CHECK(s->from_rank == 9);
    CHECK(s->to == Square(0, 4));
    auto p = parse_syntax("a10=W", 10, 10);
    REQUIRE(p.has_value());
    CHECK(p->to == Square(0, 9));
    CHECK(p->promotion == pieces::warlord);
    CHECK_FALSE(parse_syntax("a10", 8, 8).has_value());
    CHECK_FALSE(parse_syntax("k5", 10, 10).has_value());
    auto drop = parse_syntax("F@e4");
    REQUIRE(drop.has_value());
    CHECK(drop->drop);
    CHECK(drop->piece == pieces::phantom);
}

namespace {
// A game with one move, one special word and an anytime action, to test the parser alone.
class WordGame final : public Game {
public:
    std::unique_ptr<Game> clone() const override { return std::make_unique<WordGame>(*this); }
    const VariantInfo& info() const override {
        static const VariantInfo i{.name = "words", .title = "Words"};
        return i;
    }
    const Options& options() const override { return options_; }
    std::vector<Decision> pending() const override { return {Decision{Seat::White, "move"}}; }
    std::vector<NotatedAction> notated_actions(Seat s) const override {
        if (s != Seat::White)
            return {};
        Action e4{ActionKind::Move, PieceKind::Pawn, Square(4, 1), Square(4, 3)};
        Action hide{};
        hide.kind = ActionKind::Pass;
        return {{e4, "e4"}, {hide, "Hide"}};
    }
    std::vector<NotatedAction> anytime_actions(Seat) const override {
        Action peek{};
        peek.kind = ActionKind::Special;
        peek.special = 7;
        return {{peek, "peek"}};
    }
    Result<std::vector<Event>> apply(Seat, const Action&, RandomSource&) override {
        return std::vector<Event>{};
    }
    Outcome outcome() const override { return {}; }
    PublicView public_view() const override { return make_public(BoardView("words", 8, 8)); }
    SeatView seat_view(Seat s) const override { return make_private(s, BoardView("words", 8, 8)); }
    int ply() const override { return 0; }

private:
    Options options_;
};
} // namespace

TEST_CASE("Special words are read in any case; a capital first letter of a move is its file",
          "[notation]") {
    WordGame g;
    auto hide = parse_action(g, Seat::White, "hide!");
    REQUIRE(hide.ok());
    CHECK(hide->text == "Hide");
    CHECK(parse_action(g, Seat::White, "E4")->text == "e4");
    CHECK(parse_action(g, Seat::White, "e4")->text == "e4");
    CHECK(parse_action(g, Seat::White, "hIDE")->text == "Hide");
}

TEST_CASE("An anytime action is taken whatever the turn", "[notation]") {
    WordGame g;
    auto peek = parse_action(g, Seat::Black, "PEEK");
    REQUIRE(peek.ok());
    CHECK(peek->text == "peek");
    CHECK(peek->action.special == 7);
    CHECK(looks_like_action(g, Seat::Black, "peek"));
    auto move = parse_action(g, Seat::Black, "e5");
    REQUIRE_FALSE(move.ok());
    CHECK(move.error().kind == ErrorKind::NotYourTurn);
}

TEST_CASE("Options take their defaults and refuse unknown names and values",
          "[notation][options]") {
    VariantInfo info{
        .name = "x",
        .title = "Test Chess",
        .options = {{"lives", "3", {}, "peeks"}, {"mode", "easy", {"easy", "hard"}, ""}}};
    auto d = resolve_options(info, {});
    REQUIRE(d.ok());
    CHECK(d->at("lives") == "3");
    CHECK(d->at("mode") == "easy");
    CHECK(resolve_options(info, {{"lives", "0"}})->at("lives") == "0");
    CHECK(resolve_options(info, {{"color", "red"}}).error().message ==
          "Test Chess has no option \"color\" (its options: lives, mode)");
    CHECK(resolve_options(info, {{"mode", "medium"}}).error().message ==
          "option mode=medium is not allowed: use easy or hard");
    CHECK(resolve_options(info, {{"lives", "-1"}}).error().message ==
          "option lives=-1 is not allowed: use a whole number");
}

TEST_CASE("A promotion with only one possible piece may leave the piece out", "[notation]") {
    auto g = test::start("ghostarelay", "10/P9/10/10/10/10/10/10/10/9k w - - 0 1");
    CHECK(canonical(*g, "a10") == "a10=W");
    CHECK(canonical(*g, "a9a10") == "a10=W");
    // In chess there are four pieces to choose from, so the piece must be named.
    auto chess = test::start("chess", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    CHECK(error_of(*chess, "a8").kind == ErrorKind::Illegal);
}

TEST_CASE("A leading lower-case x is the Relay, not a capture mark", "[notation]") {
    auto g = test::start("ghostarelay");
    CHECK(canonical(*g, "xc3") == "Xc3");
    CHECK(canonical(*g, "c3") == "c3");
}

TEST_CASE("A bare pawn push never means a capture", "[notation][issue15]") {
    // "c3" was read as bxc3 when only the b-pawn could go to c3.
    auto g = test::start("chess", "4k3/8/8/8/8/2n5/1P6/4K3 w - - 0 1");
    CHECK(canonical(*g, "c3") == "error: c3 is not possible: no pawn can reach c3");
    CHECK(canonical(*g, "bxc3") == "bxc3");
    CHECK(canonical(*g, "bc3") == "bxc3");
    CHECK(canonical(*g, "b2c3") == "bxc3");
    // "c3" with pawns able to take from both sides was "ambiguous: bxc3 or dxc3".
    auto two = test::start("chess", "4k3/8/8/8/8/2n5/1P1P4/4K3 w - - 0 1");
    CHECK(canonical(*two, "c3") == "error: c3 is not possible: no pawn can reach c3");
}

TEST_CASE("An anytime word is the whole post: nothing may follow it", "[notation]") {
    WordGame g;
    CHECK(parse_action(g, Seat::Black, "Peek").ok());
    CHECK(parse_action(g, Seat::Black, " p-e-e-k ").ok());
    // Found by fuzzing: letters after the word (dropped as capture marks) or a long tail after
    // 64 characters were once read as a peek.
    CHECK_FALSE(parse_action(g, Seat::Black, "peekxxx").ok());
    CHECK_FALSE(parse_action(g, Seat::Black, "peek" + std::string(70, 'x')).ok());
    CHECK_FALSE(parse_action(g, Seat::Black, "peek" + std::string(61, ' ') + "anything").ok());
    CHECK_FALSE(looks_like_action(g, Seat::Black, "peekxxx"));
}

TEST_CASE("Whatever the parser plays from the seat that decides looks like a move", "[notation]") {
    auto g = test::start("chess");
    // Found by fuzzing: accepted by !move but ignored as chatter when posted bare.
    REQUIRE(parse_action(*g, Seat::White, "ng1f3").ok());
    CHECK(looks_like_action(*g, Seat::White, "ng1f3"));
    CHECK(looks_like_action(*g, Seat::White, "nf3"));
    CHECK_FALSE(looks_like_action(*g, Seat::White, "nice"));
}

// Issue 32: a move written as a capture must capture (rules-decisions, "the capture marker").
TEST_CASE("A move written as a capture must capture, in every variant", "[notation][issue32]") {
    auto chess = test::start("chess");
    test::play(*chess, "e4 e5");
    for (const char* typed : {"Qxh5", "Q:h5", "d1xh5", "Qxh5+"})
        CHECK(test::refusal(*chess, typed) ==
              std::string(typed == std::string("Qxh5+") ? "Qxh5" : typed) +
                  " is not possible: there is nothing to capture on h5; Qh5 would be a quiet move");
    CHECK(test::refusal(*chess, "Qh5") == "accepted as Qh5");
    // A capture need not be marked.
    auto marked = test::start("chess", "4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1");
    CHECK(test::refusal(*marked, "Qd5") == "accepted as Qxd5");
    CHECK(test::refusal(*marked, "Qxd5") == "accepted as Qxd5");

    // Ghost Chess: a capture by the Ghost can Shadow her, a quiet move cannot, so the
    // difference decides games.
    auto ghost = test::start("ghost");
    test::play(*ghost, "d4");
    CHECK(test::refusal(*ghost, "Qxd5") ==
          "Qxd5 is not possible: there is nothing to capture on d5; Qd5 would be a quiet move");
    CHECK(test::refusal(*ghost, "Qxd4") == "accepted as Qxd4");

    // Phantom Chess decides on the board the mover sees, so the refusal is the same whether or
    // not Black's Phantom stands on d5 (Qd5 takes a Phantom that stands there).
    for (const char* fen : {"4k3/8/8/3f4/8/8/8/3QK3 w - - 0 1", "4k3/8/7f/8/8/8/8/3QK3 w - - 0 1",
                            "4k3/8/8/8/8/8/8/3QK3[f] w - - 0 1"}) {
        INFO(fen);
        auto phantom = test::start("phantom", fen);
        auto r = parse_action(*phantom, Seat::White, "Qxd5");
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().message ==
              "Qxd5 is not possible: there is nothing to capture on d5; Qd5 would be a quiet move");
        CHECK(r.error().private_detail.empty());
    }
    auto phantom = test::start("phantom", "4k3/8/8/3f4/8/8/8/3QK3 w - - 0 1");
    CHECK(test::refusal(*phantom, "Qd5") == "accepted as Qxd5");
}

namespace {
std::string in_language(const Game& g, const std::string& typed, const std::string& language) {
    auto r = parse_action(g, g.pending().front().seat, typed, language);
    if (!r)
        return "error: " + r.error().message;
    return r->text;
}
} // namespace

TEST_CASE("A move typed with a language's own piece letters reads as the standard move",
          "[notation][language]") {
    auto g = test::start("chess");
    CHECK(in_language(*g, "Sf3", "de") == "Nf3");
    CHECK(in_language(*g, "Sg1f3", "de") == "Nf3");
    CHECK(in_language(*g, "Cf3", "fr") == "Nf3");
    CHECK(in_language(*g, "Cc3", "es") == "Nc3");
    CHECK(in_language(*g, "Cc3", "pt_BR") == "Nc3");
    CHECK(in_language(*g, "\u041af3", "ru") == "Nf3");
    CHECK(in_language(*g, "\u9a6cf3", "zh_CN") == "Nf3");
    // English letters are read in every language; a language without letters of its own reads
    // only those.
    CHECK(in_language(*g, "Nf3", "de") == "Nf3");
    CHECK(in_language(*g, "e4", "ru") == "e4");
    CHECK(in_language(*g, "Sf3", "en").rfind("error: ", 0) == 0);
    CHECK(in_language(*g, "Sf3", "fr").rfind("error: ", 0) == 0);
}

TEST_CASE("Every piece letter and the promotion letter of each language", "[notation][language]") {
    // White: king e1, queen d1, rook a1, bishop c1, knight b1, a pawn on g7 to promote; none of
    // the moves below gives check to the king on b6.
    auto g = test::start("chess", "8/6P1/1k6/8/8/8/8/RNBQK3 w Q - 0 1");
    const std::vector<std::pair<std::string, std::vector<std::string>>> letters{
        {"de", {"Ke2", "Dd2", "Ta2", "Ld2", "Sc3", "g8=D", "g8T"}},
        {"fr", {"Re2", "Dd2", "Ta2", "Fd2", "Cc3", "g8=D", "g8T"}},
        {"es", {"Re2", "Dd2", "Ta2", "Ad2", "Cc3", "g8=D", "g8T"}},
        {"pt_BR", {"Re2", "Dd2", "Ta2", "Bd2", "Cc3", "g8=D", "g8T"}},
        {"ru",
         {"\u041a\u0440e2", "\u0424d2", "\u041ba2", "\u0421d2", "\u041ac3", "g8=\u0424",
          "g8\u041b"}},
        {"zh_CN",
         {"\u738be2", "\u540ed2", "\u8f66a2", "\u8c61d2", "\u9a6cc3", "g8=\u540e", "g8\u8f66"}},
    };
    const std::vector<std::string> meant{"Ke2", "Qd2", "Ra2", "Bd2", "Nc3", "g8=Q", "g8=R"};
    for (const auto& [language, typed] : letters)
        for (std::size_t i = 0; i < typed.size(); ++i) {
            INFO(language + ": " + typed[i]);
            CHECK(in_language(*g, typed[i], language) == meant[i]);
        }
}

TEST_CASE("A letter that names one piece in English and another in the player's language is "
          "asked about when both moves are possible",
          "[notation][language]") {
    // French R is the king (roi); English R is the rook. Rook a3, king f2.
    auto g = test::start("chess", "4k3/8/8/8/8/R7/5K2/8 w - - 0 1");
    const auto r = parse_action(*g, g->pending().front().seat, "Rf3", "fr");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().kind == ErrorKind::Ambiguous);
    CHECK(r.error().message == "Rf3 reads as Rf3 in English piece letters and as Kf3 in French "
                               "ones: write Tf3 or Kf3 to say which");
    CHECK(r.error().candidates == std::vector<std::string>{"Rf3", "Kf3"});
    // Each spelling it proposes has one meaning.
    CHECK(in_language(*g, "Tf3", "fr") == "Rf3");
    CHECK(in_language(*g, "Kf3", "fr") == "Kf3");
    // Only one reading possible: that one, whichever letters it takes.
    CHECK(in_language(*g, "Rb3", "fr") == "Rb3"); // the king cannot reach b3
    CHECK(in_language(*g, "Re1", "fr") == "Ke1"); // the rook cannot reach e1
    // In English the letter is the rook's alone.
    CHECK(in_language(*g, "Rf3", "en") == "Rf3");
}

TEST_CASE("Chatter in a language with piece letters is still not a move", "[notation][language]") {
    auto g = test::start("chess");
    const Seat white = g->pending().front().seat;
    CHECK(looks_like_action(*g, white, "Sf3", "de"));
    CHECK(looks_like_action(*g, white, "\u041af3", "ru"));
    CHECK_FALSE(looks_like_action(*g, white, "\u041af3", "en"));
    CHECK_FALSE(looks_like_action(*g, white, "Das ist gut", "de"));
    CHECK_FALSE(looks_like_action(*g, white, "\u041a\u0430\u043a \u0434\u0435\u043b\u0430?", "ru"));
}

TEST_CASE("A variant's word that begins with a language's piece letter is still that word",
          "[notation][language]") {
    // German and French T is the rook; Transcend is the Ghost's action in every language.
    auto g = test::start("ghost");
    test::play(*g, "e4");
    for (const char* language : {"en", "de", "fr", "es", "pt_BR"}) {
        INFO(language);
        CHECK(in_language(*g, "Transcend", language) == "Transcend");
        CHECK(in_language(*g, "Hide", language) == "Hide");
    }
    CHECK(looks_like_action(*g, g->pending().front().seat, "Transcend", "de"));
}

TEST_CASE("A phrase of the rules is written in English with its parts and its counts",
          "[rules][phrase]") {
    const Phrase seat{"seat", "White", {}};
    CHECK(phrase("{seat} peeks", {{"seat", seat}}).english() == "White peeks");
    const char* dice = "{count, plural, one {# die} other {# dice}}";
    CHECK(phrase(dice, {{"count", "1"}}).english() == "1 die");
    CHECK(phrase(dice, {{"count", "3"}}).english() == "3 dice");
    CHECK(phrase(dice, {{"count", "0"}}).english() == "0 dice");
    // A branch holds placeholders of its own; an exact value wins over "one".
    const Phrase left = phrase(
        "{seat} has {count, plural, =0 {no peek} one {# peek for {seat}} other {# peeks}} left",
        {{"seat", seat}, {"count", "1"}});
    CHECK(left.english() == "White has 1 peek for White left");
    CHECK(phrase("{n, plural, =0 {none} one {# one} other {# more}}", {{"n", "0"}}).english() ==
          "none");
    // A # outside a plural is itself, and a placeholder nobody gave is left empty.
    CHECK(phrase("#{game} {missing}.", {{"game", "4"}}).english() == "#4 .");
}
