#include "engine_test_support.h"

#include <algorithm>
#include <set>

using ghostpost::engine::Limits;
using ghostpost::engine::win_score;
using ghostpost::rules::Seat;

namespace {

// A fixed-depth search with no noise.
Limits depth(int d) {
    return Limits{d, 5'000'000, 0, 0};
}

// A level's limits without its time cap, so that a slow (sanitised) build searches the same.
Limits level(int n) {
    Limits l = ghostpost::engine::limits_for_level(n);
    l.max_seconds = 0;
    return l;
}

bool is_legal(const ghostpost::rules::Game& g, Seat seat, const ghostpost::rules::Action& a) {
    for (const auto& legal : g.notated_actions(seat))
        if (legal.action == a)
            return true;
    return false;
}

// Whether the side to move has an action that wins on the spot.
bool mates_in_one(const ghostpost::rules::Game& g) {
    const Seat seat = g.pending().front().seat;
    for (const auto& a : g.notated_actions(seat)) {
        auto next = g.clone();
        ghostpost::rules::NoRandomness none;
        REQUIRE(next->apply(seat, a.action, none).ok());
        if (next->outcome().over() && next->outcome().status != ghostpost::rules::Status::Draw)
            return true;
    }
    return false;
}

} // namespace

TEST_CASE("The engine mates in one: Qxf7# after the Scholar's mate set-up", "[engine][chess]") {
    test::Table t("chess");
    for (const char* m : {"e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6"})
        t.play(m);
    auto choice = t.choose(Seat::White, depth(2));
    REQUIRE(choice);
    CHECK(choice->action.text == "Qxf7#");
    CHECK(choice->score == win_score - 1);
}

TEST_CASE("The engine finds a mate in two that starts with a quiet king move", "[engine][chess]") {
    // White Kc6 and Rh1 against Ka8: no mate in one (Rh8+ Ka7), but 1.Kb6 or 1.Kc7 mates next.
    test::Table t("chess", "k7/8/2K5/8/8/8/8/7R w - - 0 1");
    auto choice = t.choose(Seat::White, depth(4));
    REQUIRE(choice);
    CHECK(choice->score == win_score - 3);
    t.play(Seat::White, choice->action);
    for (const auto& reply : t.game->notated_actions(Seat::Black)) {
        auto after = t.game->clone();
        ghostpost::rules::NoRandomness none;
        REQUIRE(after->apply(Seat::Black, reply.action, none).ok());
        INFO(choice->action.text << " " << reply.text);
        CHECK(mates_in_one(*after));
    }
}

TEST_CASE("The engine takes a hanging queen", "[engine][chess]") {
    test::Table t("chess", "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1");
    auto choice = t.choose(Seat::White, depth(2));
    REQUIRE(choice);
    CHECK(choice->action.text == "Rxd5");
}

TEST_CASE("The engine does not take a defended pawn with its queen", "[engine][chess]") {
    // Qxd5 wins a pawn and loses the queen to exd5... (the pawn on e6 guards d5).
    test::Table t("chess", "4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1");
    auto choice = t.choose(Seat::White, depth(2));
    REQUIRE(choice);
    CHECK(choice->action.text != "Qxd5");
}

TEST_CASE("Same position, level and seed: the same choice, searched the same way", "[engine]") {
    test::Table t("chess");
    for (const char* m : {"e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3"})
        t.play(m);
    for (int lvl : {1, 3}) {
        const auto limits = level(lvl);
        auto a = t.choose(Seat::Black, limits, 42);
        auto b = t.choose(Seat::Black, limits, 42);
        REQUIRE(a);
        REQUIRE(b);
        INFO("level " << lvl);
        CHECK(a->action.text == b->action.text);
        CHECK(a->nodes == b->nodes);
        CHECK(a->score == b->score);
    }
}

TEST_CASE("A level's budget is positions searched: a wall-clock cap it does not reach changes "
          "nothing",
          "[engine]") {
    test::Table t("chess");
    for (const char* m : {"d4", "Nf6", "c4", "e6", "Nc3", "Bb4"})
        t.play(m);
    Limits uncapped = level(3);
    Limits capped = uncapped;
    capped.max_seconds = 3600;
    auto a = t.choose(Seat::White, uncapped, 5);
    auto b = t.choose(Seat::White, capped, 5);
    REQUIRE(a);
    REQUIRE(b);
    CHECK(a->action.text == b->action.text);
    CHECK(a->nodes == b->nodes);
    CHECK(a->depth == b->depth);
}

TEST_CASE("The levels search more positions, deeper, with less noise, from 1 to 8", "[engine]") {
    for (int n = ghostpost::engine::min_level; n < ghostpost::engine::max_level; ++n) {
        const auto lo = ghostpost::engine::limits_for_level(n);
        const auto hi = ghostpost::engine::limits_for_level(n + 1);
        INFO("level " << n);
        CHECK(hi.max_nodes > lo.max_nodes);
        CHECK(hi.max_depth >= lo.max_depth);
        CHECK(hi.noise <= lo.noise);
        CHECK(hi.lapse == 0);
        // The daemon's safety cap; level 8 answers within the issue's 2 s.
        CHECK(hi.max_seconds <= 2.0);
    }
    CHECK(ghostpost::engine::limits_for_level(0).max_nodes ==
          ghostpost::engine::limits_for_level(1).max_nodes);
    CHECK(ghostpost::engine::limits_for_level(9).max_nodes ==
          ghostpost::engine::limits_for_level(8).max_nodes);
    // Per variant: the same budgets; lapses only in Ghost Chess, fewer at each level up, none
    // at level 1 (which is what a lapse plays like) or level 8.
    for (const auto* v : ghostpost::rules::variants()) {
        const std::string name = v->info().name;
        INFO(name);
        for (int n = ghostpost::engine::min_level; n <= ghostpost::engine::max_level; ++n) {
            const auto common = ghostpost::engine::limits_for_level(n);
            const auto own = ghostpost::engine::limits_for_level(n, name);
            INFO("level " << n);
            CHECK(own.max_nodes == common.max_nodes);
            CHECK(own.max_depth == common.max_depth);
            CHECK(own.noise == common.noise);
            if (n > ghostpost::engine::min_level + 1)
                CHECK(own.lapse <= ghostpost::engine::limits_for_level(n - 1, name).lapse);
            if (name != "ghost" || n == 1 || n == 8)
                CHECK(own.lapse == 0);
            else
                CHECK(own.lapse > 0);
        }
    }
    CHECK(ghostpost::engine::limits_for_level(7, "ghost").lapse == 5);
    CHECK(ghostpost::engine::limits_for_level(2, "ghost").lapse == 23);
    CHECK_THROWS_AS(ghostpost::engine::limits_for_level(5, "draughts"), std::invalid_argument);
}

TEST_CASE("A lapse answers as level 1 would, with the same seed; without one the level searches",
          "[engine]") {
    test::Table t("ghost");
    for (const char* m : {"c4", "Qb8"})
        t.play(m);
    const auto first = level(1);
    Limits always = level(4);
    always.lapse = 100;
    const Limits never = level(4);
    for (std::uint64_t seed : {3U, 11U, 29U}) {
        INFO("seed " << seed);
        auto as_first = t.choose(Seat::White, first, seed);
        auto lapsing = t.choose(Seat::White, always, seed);
        auto searching = t.choose(Seat::White, never, seed);
        REQUIRE(as_first);
        REQUIRE(lapsing);
        REQUIRE(searching);
        CHECK(lapsing->action.text == as_first->action.text);
        CHECK(lapsing->nodes == as_first->nodes);
        CHECK(lapsing->depth == 1);
        CHECK(searching->depth == 3);
        CHECK(searching->nodes > as_first->nodes);
    }
    // Lapses on 10 moves in 100, over 200 seeds, with a two-ply search that a lapse (one ply)
    // never is: between 8 and 32 of them.
    Limits tenth{2, 1'000'000, 0, 0};
    tenth.lapse = 10;
    int lapses = 0;
    for (std::uint64_t seed = 0; seed < 200; ++seed) {
        auto c = t.choose(Seat::White, tenth, seed);
        REQUIRE(c);
        if (c->depth == 1)
            ++lapses;
        else
            CHECK(c->depth == 2);
    }
    CHECK(lapses >= 8);
    CHECK(lapses <= 32);
}

TEST_CASE("The Ghost takes a piece on a dark square, where the capture shields her, not a "
          "guarded rook on a light one",
          "[engine][variant:ghost]") {
    // The Ghost on d4 sees the knight on f6 (dark) and the rook on d7 (light, guarded by the
    // bishop on b5: Qxd7 Bxd7 takes her).
    test::Table t("ghost", "8/3R4/5N2/1B6/3q4/8/P7/8 b - - - 0 0 1");
    auto choice = t.choose(Seat::Black, depth(2));
    REQUIRE(choice);
    CHECK(choice->action.text == "Qxf6");
}

TEST_CASE("In Gnostic Chess the spells are weighed at the root only: the reply to a move is "
          "searched among moves",
          "[engine][variant:gnostic]") {
    // Queens, kings and a pawn: White has some 190 actions, most of them spells, and so has
    // Black after each. A search two deep that weighed Black's spells too would visit some
    // 190 * 150 positions; among Black's moves alone (fewer than 30 after any White action),
    // fewer than 190 * 40.
    test::Table t("gnostic", "4k1q1/8/8/8/8/8/4P3/Q3K3 w - - 0 1");
    const auto first = t.game->legal_actions(Seat::White).size();
    test::Table replied("gnostic", "4k1q1/8/8/8/8/8/4P3/Q3K3 w - - 0 1");
    replied.play("Kf1");
    // Black's reply could be any of its own spells too.
    REQUIRE(replied.game->legal_actions(Seat::Black).size() > 100);
    REQUIRE(first > 150);
    auto choice = t.choose(Seat::White, depth(2));
    REQUIRE(choice);
    CHECK(choice->depth == 2);
    CHECK(choice->nodes > first);
    CHECK(choice->nodes < first * 40);
}

TEST_CASE("The engine has nothing to choose when it is not its turn or the game is over",
          "[engine]") {
    test::Table t("chess");
    CHECK_FALSE(t.choose(Seat::Black, depth(1)));
    for (const char* m : {"f3", "e5", "g4", "Qh4#"})
        t.play(m);
    CHECK_FALSE(t.choose(Seat::White, depth(1)));
}

TEST_CASE("A record that does not lead to the view given is refused", "[engine]") {
    test::Table t("chess");
    t.play("e4");
    auto record = t.record;
    record.actions.back().text = "d4";
    CHECK_THROWS_AS(ghostpost::engine::choose(t.game->seat_view(Seat::Black), record, depth(1), 1),
                    std::invalid_argument);
    record.variant = "no-such-game";
    CHECK_THROWS_AS(ghostpost::engine::choose(t.game->seat_view(Seat::Black), record, depth(1), 1),
                    std::invalid_argument);
}

TEST_CASE("Two Phantom Chess positions that differ only in the unseen Phantom's square give the "
          "engine the same input and the same choice",
          "[engine][variant:phantom]") {
    // Black's Phantom on d5 or on h5; White sees neither. Black's Phantom attacks e3 from d5
    // and nothing of White's from h5.
    const std::string a = "r1bqkbnr/pppp1ppp/2n5/3fp3/4P3/5N2/PPPP1PPP/RNBQKB1R[F] w KQkq - 2 3";
    const std::string b = "r1bqkbnr/pppp1ppp/2n5/4p2f/4P3/5N2/PPPP1PPP/RNBQKB1R[F] w KQkq - 2 3";
    test::Table ta("phantom", a);
    test::Table tb("phantom", b);
    REQUIRE(ta.game->fen() != tb.game->fen());
    // What the engine is given: White's view and the public record, the same in both games.
    const auto view_a = ta.game->seat_view(Seat::White);
    const auto view_b = tb.game->seat_view(Seat::White);
    CHECK(view_a.board() == view_b.board());
    ghostpost::engine::PublicRecord record{"phantom", ta.game->options(), {}, {}, {}};
    for (int lvl : {1, 2}) {
        const auto limits = level(lvl);
        auto ca = ghostpost::engine::choose(view_a, record, limits, 9);
        auto cb = ghostpost::engine::choose(view_b, record, limits, 9);
        REQUIRE(ca);
        REQUIRE(cb);
        INFO("level " << lvl);
        CHECK(ca->action.text == cb->action.text);
        CHECK(ca->action.action == cb->action.action);
        CHECK(ca->nodes == cb->nodes);
        CHECK(ca->worlds == 4);
        // Whatever it chose can be played in either game: it avoids what a Phantom might forbid.
        CHECK(is_legal(*ta.game, Seat::White, ca->action.action));
        CHECK(is_legal(*tb.game, Seat::White, cb->action.action));
    }
}

TEST_CASE("In Phantom Chess the engine plays when the unseen Phantom shields a king from its rook",
          "[engine][variant:phantom]") {
    // Black's Phantom on e5 stands between White's rook on e1 and Black's king on e8. White's
    // board without it would have the king of the side not to move in check: no position of the
    // game, so only the worlds with the Phantom on the e-file between them can be thought in.
    test::Table t("phantom", "4k3/8/8/4f3/8/8/8/K3R3[F] w - - 0 1");
    const auto view = t.game->seat_view(Seat::White);
    REQUIRE(view.board().at({4, 4}).figures.empty());
    ghostpost::engine::PublicRecord record{"phantom", t.game->options(), {}, {}, {}};
    auto choice = ghostpost::engine::choose(view, record, depth(1), 3);
    REQUIRE(choice);
    // The squares e2 to e7 fit the view; the engine thinks in the four it samples.
    CHECK(choice->worlds == 4);
    CHECK(is_legal(*t.game, Seat::White, choice->action.action));
}

TEST_CASE("In Phantom Chess the engine takes the unseen Phantom where its entry was announced",
          "[engine][variant:phantom]") {
    test::Table t("phantom");
    for (const char* m : {"e4", "F@d5"})
        t.play(m);
    // White's board shows d5 empty; the announcement put Black's Phantom there.
    CHECK(t.game->seat_view(Seat::White).board().at({3, 4}).figures.empty());
    auto choice = t.choose(Seat::White, depth(1));
    REQUIRE(choice);
    CHECK(choice->worlds == 1);
    CHECK(choice->action.text == "exd5");
    t.play(Seat::White, choice->action);
    CHECK(t.game->public_view().board().notes.back() == "Phantoms: White in hand, Black gone");
}

TEST_CASE("The engine gives a legal action in every variant from random positions",
          "[engine][slow]") {
    for (const auto* variant : ghostpost::rules::variants()) {
        const std::string name = variant->info().name;
        for (std::uint64_t game = 0; game < 1; ++game) {
            test::Table t(name);
            std::mt19937_64 rng(game * 7919 + 17);
            for (int ply = 0; ply < 40 && !t.game->outcome().over(); ++ply) {
                const auto pending = t.game->pending();
                const Seat seat = pending.front().seat;
                const auto public_notes = t.game->public_view().board().notes;
                const bool hidden_choice =
                    std::any_of(public_notes.begin(), public_notes.end(), [](const std::string& n) {
                        return n.find("(has chosen)") != std::string::npos;
                    });
                if (ply % 10 == 3 && !hidden_choice) {
                    auto choice = t.choose(seat, level(1), rng());
                    INFO(name << " ply " << ply << " " << t.game->fen());
                    REQUIRE(choice);
                    CHECK(is_legal(*t.game, seat, choice->action.action));
                    // The text names that action when read back against the game.
                    auto parsed =
                        ghostpost::rules::parse_action(*t.game, seat, choice->action.text);
                    REQUIRE(parsed.ok());
                    CHECK(parsed->action == choice->action.action);
                }
                auto actions = t.game->notated_actions(seat);
                t.play(seat, actions[rng() % actions.size()]);
            }
        }
    }
}

TEST_CASE("The hooks a search uses give what the views, copies and apply they stand for give, in "
          "every variant",
          "[engine][rules]") {
    // A board, a kept game and a kept view that have held other positions before, as the
    // search's do: what they are written from must leave nothing of what was there.
    for (const auto* variant : ghostpost::rules::variants()) {
        const std::string name = variant->info().name;
        test::Table t(name);
        auto kept = t.game->clone();
        ghostpost::rules::BoardView board;
        std::mt19937_64 rng(11);
        for (int ply = 0; ply < 60 && !t.game->outcome().over(); ++ply) {
            INFO(name << " ply " << ply << " " << t.game->fen());
            auto expected = t.game->final_view().board();
            t.game->final_board(board);
            board.note_phrases = expected.note_phrases;
            CHECK(board == expected);
            for (Seat s : {Seat::White, Seat::Black}) {
                auto seen = t.game->seat_view(s).board();
                t.game->seat_board(s, board);
                board.note_phrases = seen.note_phrases;
                CHECK(board == seen);
            }
            // pending_seats: pending()'s seats, and whether it is one ordinary move.
            {
                const auto pending = t.game->pending();
                std::vector<Seat> seats{Seat::Black, Seat::White, Seat::Black}, expected_seats;
                for (const auto& d : pending)
                    expected_seats.push_back(d.seat);
                CHECK(t.game->pending_seats(seats) ==
                      (pending.size() == 1 && pending.front().what == "move"));
                CHECK(seats == expected_seats);
            }
            // assign: the kept game becomes the position, as a clone would be.
            REQUIRE(kept->assign(*t.game));
            CHECK(kept->fen() == t.game->fen());
            CHECK(kept->ply() == t.game->ply());
            CHECK(kept->public_view().board() == t.game->public_view().board());
            const Seat seat = t.game->pending().front().seat;
            CHECK(kept->legal_actions(seat) == t.game->legal_actions(seat));
            // apply_silently: the position apply() reaches, from the same dice.
            const auto actions = t.game->notated_actions(seat);
            const auto& action = actions[rng() % actions.size()];
            auto loud = t.game->clone();
            const auto seed = static_cast<std::uint64_t>(ply);
            test::TestDice dice_a(seed), dice_b(seed);
            REQUIRE(loud->apply(seat, action.action, dice_a).ok());
            REQUIRE(kept->apply_silently(seat, action.action, dice_b));
            CHECK(kept->fen() == loud->fen());
            CHECK(kept->outcome().status == loud->outcome().status);
            CHECK(kept->final_view().board() == loud->final_view().board());
            t.play(seat, action);
        }
        // A refused action changes nothing; a game of another variant is not copied.
        auto before = t.game->fen();
        ghostpost::rules::Action nonsense;
        nonsense.kind = ghostpost::rules::ActionKind::Special;
        nonsense.special = 250;
        test::TestDice dice(1);
        REQUIRE(kept->assign(*t.game));
        CHECK_FALSE(kept->apply_silently(Seat::White, nonsense, dice));
        CHECK(kept->fen() == before);
        auto other =
            ghostpost::rules::find_variant(name == "chess" ? "haunted" : "chess")->start({});
        REQUIRE(other.ok());
        CHECK_FALSE(kept->assign(**other));
    }
}

TEST_CASE("In Gnostic Chess the boards a search reads write a combat's line as the views do, for "
          "each fighter's seat and for the channel",
          "[engine][rules][variant:gnostic]") {
    // The search reads the board at every roll of a combat, so the combat's line is written
    // apart from the other notes: each of its forms is compared here.
    std::set<std::string> forms;
    ghostpost::rules::BoardView board;
    for (std::uint64_t seed = 0; seed < 8; ++seed) {
        test::Table t("gnostic");
        std::mt19937_64 rng(seed);
        for (int ply = 0; ply < 160 && !t.game->outcome().over(); ++ply) {
            INFO("seed " << seed << " ply " << ply << " " << t.game->fen());
            const auto expected = t.game->final_view().board();
            t.game->final_board(board);
            CHECK(board.notes == expected.notes);
            for (Seat s : {Seat::White, Seat::Black}) {
                const auto seen = t.game->seat_view(s).board();
                t.game->seat_board(s, board);
                CHECK(board.notes == seen.notes);
                for (const auto& note : seen.notes) {
                    if (!note.starts_with("Combat on "))
                        continue;
                    const auto choice = note.find("your choice: ");
                    if (choice != std::string::npos)
                        forms.insert(note.ends_with(")") ? "the first fighter's choice"
                                                         : "the second fighter's choice");
                    for (const char* state : {"(choosing)", "(has chosen)", "(turn over)"})
                        if (note.find(state) != std::string::npos)
                            forms.insert(state);
                }
            }
            // Captures half the time, so that combats come often.
            const Seat seat = t.game->pending().front().seat;
            const auto actions = t.game->notated_actions(seat);
            std::vector<const ghostpost::rules::NotatedAction*> captures;
            for (const auto& a : actions)
                if (a.action.kind == ghostpost::rules::ActionKind::Move && a.action.to.valid() &&
                    !expected.at(a.action.to).figures.empty())
                    captures.push_back(&a);
            const bool capture = !captures.empty() && rng() % 2 == 0;
            t.play(seat,
                   capture ? *captures[rng() % captures.size()] : actions[rng() % actions.size()]);
        }
    }
    CHECK(forms == std::set<std::string>{"(choosing)", "(has chosen)", "(turn over)",
                                         "the first fighter's choice",
                                         "the second fighter's choice"});
}

TEST_CASE("In Ghost Chess the board a search reads has the views' notes in each of their forms",
          "[engine][rules][variant:ghost]") {
    // The search's board writes its notes apart from the views' phrases: each form is compared.
    std::set<std::string> forms;
    ghostpost::rules::BoardView board;
    // Random games from the start, and from positions with the rarer notes (Haunt, a Shadow
    // Nexus, a piece locked by the Shadow Nexus move), which random play hardly reaches.
    const std::vector<std::string> starts{"", "8/8/8/8/3q2n1/2n5/P7/2R1R3 b - - - 0 0 1",
                                          "2R2R2/3q4/8/8/8/8/P7/2B2B2 b - - - 0 0 1",
                                          "2q2R2/8/8/8/8/3B4/P7/2B5 w - - d3 0 0 2"};
    for (std::uint64_t seed = 0; seed < 16; ++seed) {
        test::Table t("ghost", starts[seed % starts.size()]);
        std::mt19937_64 rng(seed);
        if (seed % starts.size() == 1)
            t.play("Ne5"); // the knights Haunt beside the Shadowed Ghost
        for (int ply = 0; ply < 200 && !t.game->outcome().over(); ++ply) {
            INFO("seed " << seed << " ply " << ply << " " << t.game->fen());
            const auto expected = t.game->final_view().board();
            t.game->final_board(board);
            CHECK(board.notes == expected.notes);
            t.game->seat_board(Seat::Black, board);
            CHECK(board.notes == expected.notes);
            for (const auto& note : expected.notes)
                for (const char* form :
                     {"Full Nexus", "Half Nexus", "no Nexus", "Shadow Nexus.", "(Shadow)",
                      "(Haunt)", "(Hide)", "), ", "Cannot move", "Rescued knights lost"})
                    if (note.find(form) != std::string::npos)
                        forms.insert(form);
            const Seat seat = t.game->pending().front().seat;
            const auto actions = t.game->notated_actions(seat);
            t.play(seat, actions[rng() % actions.size()]);
        }
    }
    CHECK(forms == std::set<std::string>{"Full Nexus", "Half Nexus", "no Nexus", "Shadow Nexus.",
                                         "(Shadow)", "(Haunt)", "(Hide)", "), ", "Cannot move",
                                         "Rescued knights lost"});
}

TEST_CASE("In Giveaway and Ghostarelay the board a search reads has the views' notes, and a pass "
          "applied silently reaches what apply reaches",
          "[engine][rules][variant:giveaway][variant:ghostarelay]") {
    std::set<std::string> forms;
    ghostpost::rules::BoardView board;
    const ghostpost::rules::Options stuck{{"pass_when_stuck", "on"}};
    struct Start {
        std::string variant, fen;
        ghostpost::rules::Options options;
    };
    // Random games, and a position where both sides are stuck and pass under the option.
    for (const auto& start :
         {Start{"giveaway", "", {}}, Start{"ghostarelay", "", stuck},
          Start{"ghostarelay", "10/10/10/10/4p5/4P5/10/10/10/10 w - - 0 1", stuck}}) {
        test::Table t(start.variant, start.fen, start.options);
        std::mt19937_64 rng(5);
        for (int ply = 0; ply < 120 && !t.game->outcome().over(); ++ply) {
            INFO(start.variant << " ply " << ply << " " << t.game->fen());
            const auto expected = t.game->final_view().board();
            t.game->final_board(board);
            CHECK(board.notes == expected.notes);
            t.game->seat_board(Seat::Black, board);
            CHECK(board.notes == expected.notes);
            for (const auto& note : expected.notes)
                for (const char* form : {"must capture", "passes", "Option pass_when_stuck: on"})
                    if (note.find(form) != std::string::npos)
                        forms.insert(form);
            const Seat seat = t.game->pending().front().seat;
            const auto actions = t.game->notated_actions(seat);
            const auto& action = actions[rng() % actions.size()];
            auto quiet = t.game->clone();
            ghostpost::rules::NoRandomness none;
            REQUIRE(quiet->apply_silently(seat, action.action, none));
            t.play(seat, action);
            CHECK(quiet->fen() == t.game->fen());
            CHECK(quiet->outcome().status == t.game->outcome().status);
        }
    }
    CHECK(forms == std::set<std::string>{"must capture", "passes", "Option pass_when_stuck: on"});
}

TEST_CASE("The search's speed-ups search the same trees: choices, scores and positions searched "
          "as before them",
          "[engine][chess]") {
    // 20,000 positions from each (seed 1): the figures of the engine that copied the game at
    // every node (bench/engine_nodes --part chess --nodes 20000, before issue #40's change).
    struct Expected {
        const char* fen;
        const char* move;
        int score;
        int depth;
    };
    const Expected expected[] = {
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e3", 27, 5},
        {"r3k2r/p1ppqpb1/bn2pnp1/3P4/1p2P3/2N2Q1P/PPPB1PP1/R2QK2R w KQkq - 0 1", "d6", 172, 4},
        {"r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 3 9", "O-O-O", 50, 3},
        {"8/5pk1/6p1/3R4/p6P/r5P1/5PK1/8 b - - 3 42", "Rb3", 92, 5},
    };
    for (const auto& e : expected) {
        INFO(e.fen);
        test::Table t("chess", e.fen);
        const Seat seat = t.game->pending().front().seat;
        auto choice = t.choose(seat, Limits{64, 20'000, 0, 0}, 1);
        REQUIRE(choice);
        CHECK(choice->action.text == e.move);
        CHECK(choice->score == e.score);
        CHECK(choice->depth == e.depth);
        CHECK(choice->nodes == 20'001);
    }
}
