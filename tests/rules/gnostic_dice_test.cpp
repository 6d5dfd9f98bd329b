// Gnostic Chess: standing dice policies, the default the service applies at a combat deadline,
// dice that replay from the seed (what !verify relies on), notation, and perft.
#include "ghostpost/rules/replay.h"
#include "gnostic_test_support.h"

using namespace ghostpost::rules;
using test::act;
using test::Faces;
using test::gnostic;
using test::said;

namespace {

const char* const knight_fight = "4k3/8/8/4p3/8/5N2/8/4K3 w - - 0 1";
// Two knights: neither has a forced choice, so both owners must choose.
const char* const knights = "4k3/8/8/4n3/8/5N2/8/4K3 w - - 0 1";

// Plays `log` from the start with `dice` and returns every public Roll event's text.
std::vector<std::string> rolls_of(const std::vector<LoggedAction>& log, RandomSource& dice,
                                  const std::string& fen = {}) {
    auto g = gnostic(fen);
    std::vector<std::string> out;
    for (const auto& entry : log)
        for (const auto& e : act(*g, entry.seat, entry.text, dice))
            if (e.kind == EventKind::Roll && !e.only_for)
                out.push_back(e.text);
    return out;
}

} // namespace

TEST_CASE("A standing policy may be registered at any time and is told only to its owner",
          "[variant:gnostic]") {
    auto g = gnostic();
    auto ev = act(*g, Seat::Black, "policy roll 4 hold 20");
    REQUIRE(ev.size() == 1);
    CHECK(ev[0].only_for == Seat::Black);
    CHECK(ev[0].text == "your standing policy: roll 4 dice, hold at 20 points this turn (used when "
                        "you do not choose before the combat deadline)");
    // No ply: a count that grew would tell everyone that a policy was set (issue 32).
    CHECK(g->ply() == 0);
    CHECK(g->public_view().board().ply == 0);
    CHECK(test::seats(*g) == "white"); // still White's move
    CHECK(test::notes(g->seat_view(Seat::Black).board())
              .find("Your standing policy: roll 4, hold at 20") != std::string::npos);
    CHECK(test::notes(g->public_view().board()).find("policy") == std::string::npos);
    CHECK(test::refusal(*g, Seat::White, "Policy Roll 10 Hold 200") ==
          "accepted as policy roll 10 hold 200");
    CHECK(test::refusal(*g, Seat::White, "policy off") == "accepted as policy off");
    CHECK(
        test::refusal(*g, Seat::White, "policy roll 11 hold 20") ==
        "policy roll 11 hold 20 is not possible: a policy is written policy roll N hold T, with N "
        "from 1 to 10 dice and T from 1 to 200 points, or policy off");
}

TEST_CASE("At the deadline the service applies default, which follows the standing policy",
          "[variant:gnostic]") {
    auto g = gnostic(knight_fight);
    CHECK(
        test::refusal(*g, Seat::White, "default") ==
        "default is not possible: default lets your standing policy choose your dice in a combat, "
        "and you have no dice to choose now");
    // The pawn can only roll 1 die at the start of its turn: that choice is made at once.
    auto ev = act(*g, Seat::White, "Nxe5");
    CHECK(said(ev).find("[black] roll 1, the only choice of your pawn, in the combat on e5; it is "
                        "revealed when the other side has chosen") != std::string::npos);
    CHECK(test::seats(*g) == "white");
    // Set while White is asked, the policy answers from the next round; `default` uses it now.
    act(*g, Seat::White, "policy roll 4 hold 7");
    CHECK(test::seats(*g) == "white");
    Faces dice{3, 3, 2, 2, 6, 6};
    // The knight may roll at most 3 dice: the policy's 4 is capped at the piece's value.
    ev = act(*g, Seat::White, "default", dice); // knight 8, pawn 2
    CHECK(said(ev).rfind("White's standing policy chose roll 3 | "
                         "combat on e5, round 1: White rolls 3 dice, Black rolls 1 die",
                         0) == 0);
    // Round 2: the turn total (8) has reached the policy's hold threshold (7), so the policy
    // holds at once; the pawn, with points this turn, has a choice to make.
    CHECK(said(ev).find("[white] your standing policy chose hold in the combat on e5; it is "
                        "revealed when the other side has chosen") != std::string::npos);
    CHECK(test::seats(*g) == "black");
    ev = act(*g, Seat::Black, "roll 1", dice);
    CHECK(said(ev).rfind("combat on e5, round 2: White holds, Black rolls 1 die", 0) == 0);
}

TEST_CASE("A policy's words are read as the list of two thousand policies writes them",
          "[variant:gnostic][notation]") {
    auto g = gnostic(knight_fight);
    // The keys of every listed anytime action, and near misses of each part of the grammar.
    auto keys_of = [&](Seat seat) {
        std::vector<std::string> keys;
        for (const auto& a : g->anytime_actions(seat))
            keys.push_back(word_key(a.text));
        for (const char* miss :
             {"policyroll03hold2", "policyroll0hold5", "policyroll11hold1", "policyroll1hold201",
              "policyroll1hold0", "policyroll1hold", "policyroll1hold2x", "policyroll1000hold1",
              "policyrollhold2", "policyroll10hold0200", "policy", "policyof", "defaults",
              "default", "policyoff", "policyroll10hold200", ""})
            keys.emplace_back(miss);
        return keys;
    };
    auto same_as_the_list = [&](Seat seat) {
        int found = 0;
        for (const auto& key : keys_of(seat)) {
            const auto read = g->anytime_action(seat, key);
            const auto listed = g->Game::anytime_action(seat, key); // a search of the list
            REQUIRE(read.has_value() == listed.has_value());
            if (read) {
                CHECK(read->action == listed->action);
                CHECK(read->text == listed->text);
                ++found;
            }
        }
        return found;
    };
    // 2000 policies and "policy off", each once from the list and once from the near misses.
    CHECK(g->anytime_actions(Seat::White).size() == 2001);
    CHECK(same_as_the_list(Seat::White) == 2003);
    CHECK(word_key(" Policy Roll 10 Hold 200!") == "policyroll10hold200");
    CHECK(g->anytime_action(Seat::White, "policyroll10hold200")->text == "policy roll 10 hold 200");
    CHECK_FALSE(g->anytime_action(Seat::White, "default"));
    act(*g, Seat::White, "Nxe5");
    // In a combat "default" is listed too: 2002, plus three from the near misses.
    CHECK(same_as_the_list(Seat::White) == 2005);
    CHECK(g->anytime_action(Seat::White, "default")->text == "default");
}

TEST_CASE("A seat past its combat deadline is answered with `default`, and only in a combat",
          "[variant:gnostic]") {
    auto g = gnostic(knights);
    CHECK_FALSE(g->deadline_action(Seat::White));
    CHECK_FALSE(g->deadline_action(Seat::Black));
    act(*g, Seat::White, "Nxe5");
    REQUIRE(g->deadline_action(Seat::White));
    CHECK(g->deadline_action(Seat::White)->text == "default");
    CHECK(g->deadline_action(Seat::Black)->text == "default");
    Faces dice{4, 4, 4, 4};
    act(*g, Seat::White, "default", dice);
    CHECK_FALSE(g->deadline_action(Seat::White)); // chosen: nothing left to answer for it
    CHECK(g->deadline_action(Seat::Black)->text == "default");
    // A variant without such an answer leaves it to the clock.
    const auto chess = test::start("chess");
    CHECK_FALSE(chess->deadline_action(Seat::White));
}

TEST_CASE("Without a policy the default rolls 3 dice (at most the piece's value) and holds at 15",
          "[variant:gnostic]") {
    auto g = gnostic(knight_fight);
    act(*g, Seat::White, "Nxe5"); // the pawn's only choice, roll 1, is made at once
    Faces dice{4, 4, 4, 4};
    auto ev = act(*g, Seat::White, "default", dice);
    CHECK(said(ev).rfind("White's standing policy chose roll 3 | "
                         "combat on e5, round 1: White rolls 3 dice, Black rolls 1 die",
                         0) == 0);
    CHECK(g->outcome().status == Status::Ongoing);
    CHECK(test::seats(*g) == "black"); // the knight won with 12
}

TEST_CASE("Combat choices are written roll N and hold, in any case and spacing",
          "[variant:gnostic]") {
    auto g = gnostic(knight_fight);
    CHECK(test::refusal(*g, Seat::White, "Ne5") == "accepted as Nxe5");
    act(*g, Seat::White, "Nxe5");
    CHECK(test::refusal(*g, Seat::White, "Roll 2") == "accepted as roll 2");
    CHECK(test::refusal(*g, Seat::White, "ROLL3") == "accepted as roll 3");
    CHECK(test::refusal(*g, Seat::White, "roll 4") ==
          "roll 4 is not possible: your knight rolls 1 to 3 dice");
    CHECK(test::refusal(*g, Seat::White, "Kd2") ==
          "Kd2 is not possible now: a combat is being fought on e5; choose your dice with roll N "
          "or hold");
}

TEST_CASE("Every roll comes from the game's stream, so a replay with the seed reproduces it",
          "[variant:gnostic]") {
    const std::vector<LoggedAction> log{
        {Seat::White, "Nxe5"},
        {Seat::Black, "roll 1"},
        {Seat::White, "roll 1"},
        {Seat::Black, "policy roll 1 hold 3"},
    };
    test::Lcg first(42), again(42), other(7);
    auto rolls = rolls_of(log, first, knights);
    REQUIRE(!rolls.empty());
    CHECK(rolls == rolls_of(log, again, knights));
    // The log replays through the shared replay() with the same stream, too.
    auto g = gnostic(knights);
    test::Lcg replayed(42);
    REQUIRE(replay(*g, log, replayed).ok());
    CHECK(g->ply() == 3); // the policy is no ply
    // Another seed gives other dice for at least one of many fights.
    bool differs = false;
    for (std::uint64_t seed = 1; seed < 20 && !differs; ++seed) {
        test::Lcg a(seed), b(seed + 1000);
        differs = rolls_of(log, a, knights) != rolls_of(log, b, knights);
    }
    CHECK(differs);
}

TEST_CASE("A long game of random decisions keeps the state consistent", "[variant:gnostic]") {
    test::Lcg choose(2024), dice(99);
    auto g = gnostic();
    int combats = 0, actions = 0;
    while (!g->outcome().over() && actions < 400) {
        const auto pending = g->pending();
        REQUIRE_FALSE(pending.empty());
        const Seat seat = pending[choose.uniform(static_cast<std::uint32_t>(pending.size()))].seat;
        const auto options = g->notated_actions(seat);
        REQUIRE_FALSE(options.empty());
        // Prefer captures and ordinary moves over spells, so the game has fights.
        std::vector<NotatedAction> moves;
        for (const auto& o : options)
            if (o.action.kind != ActionKind::Special || choose.uniform(40) == 0)
                moves.push_back(o);
        const auto& pick = moves.empty()
                               ? options[0]
                               : moves[choose.uniform(static_cast<std::uint32_t>(moves.size()))];
        // The canonical text reads back as the same action.
        auto parsed = parse_action(*g, seat, pick.text);
        REQUIRE(parsed.ok());
        REQUIRE(parsed->action == pick.action);
        auto events = g->apply(seat, pick.action, dice);
        REQUIRE(events.ok());
        combats += pick.text.rfind("roll", 0) == 0;
        ++actions;
        if (!g->pending().empty() && g->pending().size() == 1 && g->pending()[0].what == "move") {
            // Between turns the FEN dialect carries the whole position.
            auto copy = gnostic(g->fen());
            CHECK(copy->fen() == g->fen());
        }
    }
    CHECK(combats > 10);
}

TEST_CASE("Gnostic perft matches the stored regression numbers", "[variant:gnostic][perft]") {
    for (const auto& c : test::read_perft_file(GHOSTPOST_TEST_DATA "/perft/gnostic.epd")) {
        auto g = gnostic(c.fen);
        for (const auto& [depth, nodes] : c.counts) {
            INFO(c.name << " depth " << depth);
            CHECK(g->perft(depth) == nodes);
        }
    }
}

// perft counts the last ply without listing it (Teleports and Exchanges by their squares): at
// every position one action away from each stored one, the count must be the number of actions
// the game lists for the seats that must decide.
TEST_CASE("Gnostic perft's last ply counts the actions the game lists",
          "[variant:gnostic][perft]") {
    auto listed = [](const Game& g) {
        std::uint64_t n = 0;
        for (const auto& d : g.pending())
            n += g.legal_actions(d.seat).size();
        return n;
    };
    test::Lcg dice(40);
    int positions = 0;
    for (const auto& c : test::read_perft_file(GHOSTPOST_TEST_DATA "/perft/gnostic.epd")) {
        auto g = gnostic(c.fen);
        CHECK(g->perft(1) == listed(*g));
        for (const auto& d : g->pending())
            for (const auto& a : g->legal_actions(d.seat)) {
                auto next = g->clone();
                REQUIRE(next->apply(d.seat, a, dice).ok());
                INFO(c.name << ", then " << next->fen());
                CHECK(next->perft(1) == listed(*next));
                ++positions;
            }
    }
    CHECK(positions > 1000);
}
