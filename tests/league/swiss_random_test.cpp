// Random Swiss events paired round after round by the Dutch system: every absolute criterion
// checked after every round, a pairing found whenever one exists, and, for small fields, the
// same pairing as the handbook's literal procedure (swiss_reference.h).
#include "ghostpost/league/pairing.h"
#include "swiss_reference.h"

#include <catch2/catch.hpp>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <sstream>

using namespace ghostpost::bot;

namespace {

std::size_t u(int i) {
    return static_cast<std::size_t>(i);
}

// A tournament in progress: what each round gave each player.
struct Event {
    int players = 0;
    int rounds = 0;
    Colour initial = Colour::White;
    std::vector<std::vector<SwissRoundEntry>> history;
    std::vector<bool> withdrawn;
    std::mt19937 rng;

    Event(int n, int r, unsigned seed) : players(n), rounds(r), withdrawn(u(n), false), rng(seed) {
        initial = rng() % 2 ? Colour::White : Colour::Black;
    }
    int roll(int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); }

    // The next round's field; `away` are absent for it with a half-point bye.
    SwissRound field(const std::vector<int>& away) const {
        SwissRound r;
        r.round = static_cast<int>(history.size()) + 1;
        r.rounds = rounds;
        r.initial_colour = initial;
        for (const auto& p : swiss_players(players, history))
            if (!withdrawn[u(p.player)] &&
                std::find(away.begin(), away.end(), p.player) == away.end())
                r.players.push_back(p);
        return r;
    }

    // Plays the round: random results with draws, now and then a forfeit.
    void play(const std::vector<SwissBoard>& boards, const std::vector<int>& away, bool forfeits) {
        std::vector<SwissRoundEntry> round;
        for (const auto& b : boards) {
            if (b.black == bye) {
                round.push_back({b.white, bye, Colour::None, 1.0, true, b.white_float});
                continue;
            }
            const int dice = roll(100);
            if (forfeits && dice < 4) {
                const bool white_wins = dice < 2;
                round.push_back({b.white, b.black, Colour::None, white_wins ? 1.0 : 0.0});
                round.push_back({b.black, b.white, Colour::None, white_wins ? 0.0 : 1.0});
                continue;
            }
            const double w = dice < 40 ? 1.0 : dice < 65 ? 0.5 : 0.0;
            round.push_back({b.white, b.black, Colour::White, w, false, b.white_float});
            round.push_back({b.black, b.white, Colour::Black, 1.0 - w, false, b.black_float});
        }
        for (int p : away)
            round.push_back({p, bye, Colour::None, 0.5});
        history.push_back(round);
    }
};

std::string describe(const std::vector<SwissBoard>& boards) {
    std::ostringstream out;
    for (const auto& b : boards)
        out << b.white + 1 << "-" << (b.black == bye ? 0 : b.black + 1) << " ";
    return out.str();
}

// Whether any pairing of the field meets the absolute criteria, by a search of its own:
// the player with the fewest possible opponents first.
bool pairing_exists(const SwissRound& r) {
    const int n = static_cast<int>(r.players.size());
    std::vector<ColourPreference> pref;
    std::vector<bool> top;
    for (const auto& p : r.players) {
        pref.push_back(colour_preference(p.colours));
        top.push_back(r.round == r.rounds && p.score * 2 > r.rounds - 1);
    }
    std::vector<std::vector<bool>> ok(u(n), std::vector<bool>(u(n), false));
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b) {
            if (a == b)
                continue;
            const auto& met = r.players[u(a)].opponents;
            const bool again =
                std::find(met.begin(), met.end(), r.players[u(b)].player) != met.end();
            const bool clash = !top[u(a)] && !top[u(b)] &&
                               pref[u(a)].strength == Preference::Absolute &&
                               pref[u(b)].strength == Preference::Absolute &&
                               pref[u(a)].colour == pref[u(b)].colour;
            ok[u(a)][u(b)] = !again && !clash;
        }
    std::vector<bool> used(u(n), false);
    std::function<bool(bool)> go = [&](bool bye_left) -> bool {
        int pick = -1, fewest = n + 1;
        for (int a = 0; a < n; ++a) {
            if (used[u(a)])
                continue;
            int options = 0;
            for (int b = 0; b < n; ++b)
                options += !used[u(b)] && ok[u(a)][u(b)];
            if (options < fewest) {
                fewest = options;
                pick = a;
            }
        }
        if (pick < 0)
            return true;
        used[u(pick)] = true;
        if (bye_left && !r.players[u(pick)].bye_ineligible && go(false)) {
            used[u(pick)] = false;
            return true;
        }
        for (int b = 0; b < n; ++b) {
            if (used[u(b)] || !ok[u(pick)][u(b)])
                continue;
            used[u(b)] = true;
            const bool done = go(bye_left);
            used[u(b)] = false;
            if (done) {
                used[u(pick)] = false;
                return true;
            }
        }
        used[u(pick)] = false;
        return false;
    };
    return go(n % 2 == 1);
}

// Checks a round's boards against the absolute criteria and the round's field.
void check_absolute(const SwissRound& r, const std::vector<SwissBoard>& boards) {
    std::map<int, const SwissPlayer*> who;
    for (const auto& p : r.players)
        who[p.player] = &p;
    std::set<int> seen;
    int byes = 0;
    for (const auto& b : boards) {
        REQUIRE(who.count(b.white) == 1);
        REQUIRE(seen.insert(b.white).second);
        if (b.black == bye) {
            ++byes;
            // C2: nobody has a second bye, nor one after a win without playing.
            CHECK_FALSE(who[b.white]->bye_ineligible);
            continue;
        }
        REQUIRE(who.count(b.black) == 1);
        REQUIRE(seen.insert(b.black).second);
        const SwissPlayer& w = *who[b.white];
        const SwissPlayer& k = *who[b.black];
        // C1: no second meeting.
        CHECK(std::find(w.opponents.begin(), w.opponents.end(), k.player) == w.opponents.end());
        // C.04.1: colour difference within ±2, never three times the same colour in a row,
        // except for topscorers and their opponents in the last round.
        auto top = [&](const SwissPlayer& p) {
            return r.round == r.rounds && p.score * 2 > r.rounds - 1;
        };
        if (top(w) || top(k))
            continue;
        for (const auto& [p, c] : {std::pair{&w, Colour::White}, std::pair{&k, Colour::Black}}) {
            auto h = p->colours;
            h.push_back(c);
            int cd = 0;
            for (Colour x : h)
                cd += static_cast<int>(x);
            INFO("player " << p->player + 1 << " in round " << r.round);
            CHECK(std::abs(cd) <= 2);
            CHECK_FALSE((h.size() >= 3 && h[h.size() - 1] == h[h.size() - 2] &&
                         h[h.size() - 2] == h[h.size() - 3]));
        }
    }
    // Everyone paired, the odd one out with the bye.
    CHECK(seen.size() == r.players.size());
    CHECK(byes == static_cast<int>(r.players.size() % 2));
}

} // namespace

TEST_CASE("Random Swiss events of 30 players over 9 rounds keep every absolute criterion after "
          "every round",
          "[swiss][random]") {
    for (unsigned seed : {1U, 2U, 3U, 4U, 5U, 6U}) {
        Event ev(30, 9, seed);
        for (int round = 1; round <= 9; ++round) {
            INFO("seed " << seed << ", round " << round);
            // Now and then a player is away for a round, and two players withdraw halfway.
            std::vector<int> away;
            if (round > 1 && ev.roll(3) == 0)
                away.push_back(ev.roll(30));
            if (round == 5) {
                ev.withdrawn[u(ev.roll(30))] = true;
                ev.withdrawn[u(ev.roll(30))] = true;
            }
            away.erase(
                std::remove_if(away.begin(), away.end(), [&](int p) { return ev.withdrawn[u(p)]; }),
                away.end());
            const SwissRound field = ev.field(away);
            const auto boards = swiss_round(field);
            if (!boards) {
                CHECK_FALSE(pairing_exists(field));
                break;
            }
            check_absolute(field, *boards);
            ev.play(*boards, away, true);
        }
        CHECK(ev.history.size() == 9);
    }
}

TEST_CASE("Swiss events played to the last possible round find a pairing whenever one exists",
          "[swiss][random]") {
    int impossible = 0;
    for (unsigned seed = 100; seed < 160; ++seed) {
        std::mt19937 pick(seed);
        const int n = 4 + static_cast<int>(pick() % 7); // 4 to 10 players
        Event ev(n, n - (n % 2 == 0 ? 1 : 0), seed);
        for (int round = 1; round <= ev.rounds; ++round) {
            INFO("seed " << seed << ", " << n << " players, round " << round);
            const SwissRound field = ev.field({});
            const auto boards = swiss_round(field);
            CHECK(boards.has_value() == pairing_exists(field));
            if (!boards) {
                ++impossible;
                break;
            }
            check_absolute(field, *boards);
            ev.play(*boards, {}, false);
        }
    }
    // The search is asked the hard question too: some of these events run out of pairings.
    CHECK(impossible > 5);
}

TEST_CASE("Small random events are paired exactly as the handbook's literal procedure pairs them",
          "[swiss][random][reference]") {
    int rounds_compared = 0;
    for (unsigned seed = 1000; seed < 1060; ++seed) {
        std::mt19937 pick(seed);
        const int n = 4 + static_cast<int>(pick() % 6); // 4 to 9 players
        Event ev(n, std::min(n - 1, 6), seed);
        for (int round = 1; round <= ev.rounds; ++round) {
            std::vector<int> away;
            if (round > 1 && n > 5 && ev.roll(4) == 0)
                away.push_back(ev.roll(n));
            const SwissRound field = ev.field(away);
            const auto ours = swiss_round(field);
            const auto literal = reference::swiss_round(field);
            INFO("seed " << seed << ", " << n << " players, round " << round << ": "
                         << (ours ? describe(*ours) : "none") << "/ "
                         << (literal ? describe(*literal) : "none"));
            REQUIRE(ours.has_value() == literal.has_value());
            if (!ours)
                break;
            auto sorted = [](std::vector<SwissBoard> v) {
                std::sort(v.begin(), v.end(), [](const SwissBoard& a, const SwissBoard& b) {
                    return std::pair{a.white, a.black} < std::pair{b.white, b.black};
                });
                return v;
            };
            CHECK(sorted(*ours) == sorted(*literal));
            ++rounds_compared;
            ev.play(*ours, away, true);
        }
    }
    CHECK(rounds_compared > 150);
}

TEST_CASE("The handbook's orders of exchanges and transpositions, as its examples give them",
          "[swiss][reference]") {
    // 4.2: an 11-player homogeneous bracket has 720 transpositions, 6-7-8-9-10 first and
    // 11-10-9-8-7 last; with two MDPs (S1 of two), 72, from 3-4 to 11-10.
    const std::vector<int> s2{6, 7, 8, 9, 10, 11};
    const auto t = reference::arrangements(s2, 5);
    REQUIRE(t.size() == 720);
    CHECK(t.front() == std::vector<int>{6, 7, 8, 9, 10});
    CHECK(t[1] == std::vector<int>{6, 7, 8, 9, 11});
    CHECK(t[2] == std::vector<int>{6, 7, 8, 10, 9});
    CHECK(t.back() == std::vector<int>{11, 10, 9, 8, 7});
    const auto two = reference::arrangements({3, 4, 5, 6, 7, 8, 9, 10, 11}, 2);
    REQUIRE(two.size() == 72);
    CHECK(two.front() == std::vector<int>{3, 4});
    CHECK(two[1] == std::vector<int>{3, 5});
    CHECK(two.back() == std::vector<int>{11, 10});
    // 4.3, in an eleven-player bracket (S1 = 1-5): one BSN before two; 6 with 4 before 8 with
    // 5; 8+6 with 4+3 before 9+8 with 5+4; moving 5 out before 4, 5-2 before 4-3, 5-4-1 before
    // 5-3-2; moving 6 in before 7, 6-9 before 7-8, 6-7-10 before 6-8-9.
    const auto order = reference::exchanges(5, 11);
    auto at = [&](std::vector<int> out, std::vector<int> in) {
        return std::find(order.begin(), order.end(), std::pair{out, in}) - order.begin();
    };
    CHECK(order.front() == std::pair{std::vector<int>{5}, std::vector<int>{6}});
    CHECK(at({5}, {11}) < at({4, 5}, {6, 7}));
    CHECK(at({4}, {6}) < at({5}, {8}));
    CHECK(at({3, 4}, {6, 8}) < at({4, 5}, {8, 9}));
    CHECK(at({5}, {7}) < at({4}, {6})); // both two apart: 5 leaving S1 first
    CHECK(at({2, 5}, {6, 8}) < at({3, 4}, {6, 8}));
    CHECK(at({1, 4, 5}, {6, 7, 9}) < at({2, 3, 5}, {6, 7, 9}));
    CHECK(at({4}, {6}) < at({4}, {7}));
    CHECK(at({3, 4}, {6, 9}) < at({3, 4}, {7, 8}));
    CHECK(at({1, 2, 4}, {6, 7, 10}) < at({1, 2, 4}, {6, 8, 9}));
}

TEST_CASE("Crowded brackets where many pairs are barred take the exchange and transposition the "
          "handbook's order reaches first",
          "[swiss][random][reference]") {
    // Fields made up for the brackets, not played out: players who met many of the others,
    // random colour histories and floats, one to three score groups. Three kinds: the top half
    // barred from the bottom half (exchanges), several score groups with players who cannot
    // meet the next group (floaters, C8), and the last round with topscorers (C10, C11); then
    // the same two with every colour history and float alike, so that only the order of
    // exchanges (or of the next bracket's needs) can tell candidates apart.
    int compared = 0;
    for (unsigned seed = 5000; seed < 5490; ++seed) {
        std::mt19937 rng(seed);
        auto roll = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
        const int kind = static_cast<int>(seed % 7);
        const bool plain = kind >= 3;
        SwissRound r;
        const int n = kind == 3 || kind == 5 ? 10 : 6 + roll(5); // 6 to 10
        r.round = kind == 2 ? 7 : 4;
        r.rounds = 7;
        r.initial_colour = roll(2) ? Colour::White : Colour::Black;
        for (int p = 0; p < n; ++p) {
            SwissPlayer sp;
            sp.player = p;
            sp.number = p + 1;
            if (kind == 0)
                sp.score = p < roll(3) ? 2.5 : 1.5;
            else if (kind == 1)
                sp.score = 1.0 + 0.5 * roll(4);
            else if (kind == 2)
                sp.score = 2.0 + 0.5 * roll(4);
            else if (kind == 3 || kind == 5)
                sp.score = 1.5;
            else if (kind == 4)
                sp.score = p < n / 2 - 1 + roll(3) ? 2.0 : 1.0;
            else
                sp.score = p < 3 ? 2.0 : p < 5 ? 1.5 : 1.0;
            const int games = kind == 2 ? 6 : 3;
            for (int g = 0; g < games; ++g)
                sp.colours.push_back(plain     ? (g % 2 ? Colour::Black : Colour::White)
                                     : roll(2) ? Colour::White
                                               : Colour::Black);
            if (!plain) {
                sp.float_last = static_cast<Float>(roll(3));
                sp.float_before = static_cast<Float>(roll(3));
                sp.bye_ineligible = roll(3) == 0;
                sp.unplayed = roll(2);
            }
            r.players.push_back(sp);
        }
        for (int a = 0; a < n; ++a)
            for (int b = a + 1; b < n; ++b) {
                const bool across = (a < n / 2) != (b < n / 2);
                // Kind 5: most of S1 cannot meet S2, so pairs form inside both halves; kind 6:
                // some of the top group cannot meet the group below it.
                const int barred = kind == 0 || kind == 3 ? (across ? 75 : 10)
                                   : kind == 4            ? 50
                                   : kind == 5            ? (across && a > 0 ? 90 : 30)
                                   : kind == 6            ? (a < 3 && b >= 3 && b < 5 ? 60 : 25)
                                                          : 35;
                if (roll(100) < barred) {
                    r.players[u(a)].opponents.push_back(b);
                    r.players[u(b)].opponents.push_back(a);
                }
            }
        const auto ours = swiss_round(r);
        const auto literal = reference::swiss_round(r);
        INFO("seed " << seed << ": " << (ours ? describe(*ours) : "none") << "/ "
                     << (literal ? describe(*literal) : "none"));
        REQUIRE(ours.has_value() == literal.has_value());
        if (!ours)
            continue;
        auto sorted = [](std::vector<SwissBoard> v) {
            std::sort(v.begin(), v.end(), [](const SwissBoard& a, const SwissBoard& b) {
                return std::pair{a.white, a.black} < std::pair{b.white, b.black};
            });
            return v;
        };
        CHECK(sorted(*ours) == sorted(*literal));
        ++compared;
    }
    CHECK(compared > 280);
}

TEST_CASE("Of two exchanges equal in size, sum and what leaves S1, the one bringing the lowest "
          "BSN into S1 comes first (4.3: 6-9 before 7-8)",
          "[swiss][reference]") {
    // Ten players on 1.5 points with the same colours, so that only the order of exchanges
    // tells the candidates apart. S1 is 1-5, S2 6-10. 4 and 5 may meet none of S2 nor each
    // other, so both leave S1, and only two exchanges remain: 6 and 9 into S1, or 7 and 8,
    // the sums moved equal (15 against 9). 6-9 comes first. Two layouts of S2, so that no
    // accident of the search order can pass for the rule.
    struct Layout {
        std::vector<std::pair<int, int>> s2_pairs; // who in S2 may meet
        std::vector<int> away_from_s1;             // S2 players 1-3 may not meet
        std::string expected;
    };
    const std::vector<Layout> layouts{
        // 6-7 and 9-10 meet (8 plays S1) before 7-9 and 8-10 (6 plays S1).
        {{{6, 7}, {9, 10}, {7, 9}, {8, 10}}, {9}, "4-1 5-2 8-3 7-6 10-9 "},
        // 6-8 and 9-10 meet (7 plays S1) before 7-9 and 8-10 (6 plays S1).
        {{{6, 8}, {9, 10}, {7, 9}, {8, 10}}, {9, 10}, "4-1 5-2 7-3 8-6 10-9 "},
    };
    for (const auto& layout : layouts) {
        SwissRound r;
        r.round = 4;
        r.rounds = 7;
        for (int p = 0; p < 10; ++p) {
            SwissPlayer sp;
            sp.player = p;
            sp.number = p + 1;
            sp.score = 1.5;
            sp.colours = {Colour::White, Colour::Black, Colour::White};
            r.players.push_back(sp);
        }
        auto bar = [&](int a, int b) {
            r.players[u(a - 1)].opponents.push_back(b - 1);
            r.players[u(b - 1)].opponents.push_back(a - 1);
        };
        for (int s1 : {4, 5})
            for (int s2 = 6; s2 <= 10; ++s2)
                bar(s1, s2);
        bar(4, 5);
        for (int s1 : {1, 2, 3})
            for (int s2 : layout.away_from_s1)
                bar(s1, s2);
        for (int a = 6; a <= 10; ++a)
            for (int b = a + 1; b <= 10; ++b)
                if (std::find(layout.s2_pairs.begin(), layout.s2_pairs.end(), std::pair{a, b}) ==
                    layout.s2_pairs.end())
                    bar(a, b);
        const auto boards = swiss_round(r);
        REQUIRE(boards);
        // The higher-ranked player keeps the Black both prefer.
        CHECK(describe(*boards) == layout.expected);
        const auto literal = reference::swiss_round(r);
        REQUIRE(literal);
        CHECK(describe(*literal) == layout.expected);
    }
}
