#include "ghostpost/bot/pairing.h"
#include "ghostpost/bot/rating.h"

#include <catch2/catch.hpp>

#include <set>

using namespace ghostpost::bot;

TEST_CASE("Glicko-2 reproduces Glickman's worked example", "[rating]") {
    Rating player{1500, 200, 0.06};
    auto after = glicko2_update(player, {{{1400, 30, 0.06}, 1.0}, {{1550, 100, 0.06}, 0.0}, {{1700, 300, 0.06}, 0.0}});
    CHECK(after.rating == Approx(1464.06).margin(0.01));
    CHECK(after.deviation == Approx(151.52).margin(0.01));
    CHECK(after.volatility == Approx(0.05999).margin(0.00001));
}

TEST_CASE("A rating period without games only widens the deviation", "[rating]") {
    auto after = glicko2_update({1500, 200, 0.06}, {});
    CHECK(after.rating == 1500);
    CHECK(after.deviation == Approx(200.271).margin(0.001));
}

TEST_CASE("Berger tables for four players match FIDE's", "[tournament][round-robin]") {
    auto rounds = berger_schedule(4);
    REQUIRE(rounds.size() == 3);
    CHECK(rounds[0] == std::vector<Pairing>{{0, 3}, {1, 2}});
    CHECK(rounds[1] == std::vector<Pairing>{{3, 2}, {0, 1}});
    CHECK(rounds[2] == std::vector<Pairing>{{1, 3}, {2, 0}});
}

TEST_CASE("Berger tables for six players match FIDE's second round", "[tournament][round-robin]") {
    auto rounds = berger_schedule(6);
    REQUIRE(rounds.size() == 5);
    CHECK(rounds[1] == std::vector<Pairing>{{5, 3}, {4, 2}, {0, 1}});
}

TEST_CASE("A round robin meets every pair once, or twice with colours reversed", "[tournament][round-robin]") {
    for (int n : {3, 4, 5, 8}) {
        for (bool twice : {false, true}) {
            std::multiset<std::pair<int, int>> pairs;
            std::set<std::pair<int, int>> coloured;
            int byes = 0;
            for (const auto& round : berger_schedule(n, twice)) {
                std::set<int> seen;
                for (const auto& p : round) {
                    CHECK(seen.insert(p.white).second);
                    if (p.black == bye) {
                        ++byes;
                        continue;
                    }
                    CHECK(seen.insert(p.black).second);
                    pairs.insert({std::min(p.white, p.black), std::max(p.white, p.black)});
                    CHECK(coloured.insert({p.white, p.black}).second);
                }
            }
            const std::size_t cycles = twice ? 2 : 1;
            CHECK(pairs.size() == cycles * static_cast<std::size_t>(n * (n - 1) / 2));
            for (int a = 0; a < n; ++a)
                for (int b = a + 1; b < n; ++b)
                    CHECK(pairs.count({a, b}) == cycles);
            CHECK(byes == (n % 2 == 1 ? static_cast<int>(cycles) * n : 0));
        }
    }
}

TEST_CASE("A Swiss of six players over three rounds never repeats a pairing", "[tournament][swiss]") {
    std::vector<SwissPlayer> players(6);
    for (int i = 0; i < 6; ++i)
        players[static_cast<std::size_t>(i)].player = i;
    std::vector<std::vector<Pairing>> rounds;
    for (int round = 0; round < 3; ++round) {
        auto ranked = players;
        std::stable_sort(ranked.begin(), ranked.end(), [](const SwissPlayer& a, const SwissPlayer& b) { return a.score > b.score; });
        auto pairing = swiss_round(ranked);
        REQUIRE(pairing.has_value());
        REQUIRE(pairing->size() == 3);
        for (const auto& p : *pairing) {
            auto& w = players[static_cast<std::size_t>(p.white)];
            auto& b = players[static_cast<std::size_t>(p.black)];
            CHECK(std::find(w.opponents.begin(), w.opponents.end(), p.black) == w.opponents.end());
            w.opponents.push_back(p.black);
            b.opponents.push_back(p.white);
            ++w.colour_balance, w.last_colour = 1;
            --b.colour_balance, b.last_colour = -1;
            // The lower seed wins: results that keep score groups apart.
            (p.white < p.black ? w : b).score += 1;
        }
        rounds.push_back(*pairing);
    }
    // Round one: top half against bottom half, the higher seed with white.
    CHECK(rounds[0] == std::vector<Pairing>{{0, 3}, {1, 4}, {2, 5}});
    // Round two: 0 and 1 lead the one-point group; 2 floats down to the best zero-point player
    // it has not met, and the player who had black gets white.
    CHECK(rounds[1] == std::vector<Pairing>{{0, 1}, {3, 2}, {4, 5}});
    for (const auto& p : players)
        CHECK(std::abs(p.colour_balance) <= 2);
}

TEST_CASE("A Swiss with an odd field gives the bye to the lowest-ranked player without one", "[tournament][swiss]") {
    std::vector<SwissPlayer> ranked(5);
    for (int i = 0; i < 5; ++i)
        ranked[static_cast<std::size_t>(i)].player = i;
    ranked[4].had_bye = true;
    auto pairing = swiss_round(ranked);
    REQUIRE(pairing.has_value());
    CHECK(pairing->back() == Pairing{3, bye});
}

TEST_CASE("A Swiss that cannot avoid a repeat says so", "[tournament][swiss]") {
    std::vector<SwissPlayer> ranked{{0, 0, 0, 0, false, {1}}, {1, 0, 0, 0, false, {0}}};
    CHECK_FALSE(swiss_round(ranked).has_value());
}

TEST_CASE("A knockout of five players gives byes to the top three seeds", "[tournament][knockout]") {
    CHECK(knockout_first_round(5) == std::vector<Pairing>{{0, bye}, {3, 4}, {1, bye}, {2, bye}});
    CHECK(knockout_first_round(8) == std::vector<Pairing>{{0, 7}, {3, 4}, {1, 6}, {2, 5}});
}

TEST_CASE("Standings order by score, then Sonneborn-Berger in a round robin", "[tournament]") {
    // 0 beats 1, 1 beats 2, 2 beats 0: all on one point; 3 loses everything.
    std::vector<PlayedGame> games{{0, 1, 1}, {1, 2, 1}, {2, 0, 1}, {0, 3, 1}, {1, 3, 1}, {3, 2, 0.5}};
    auto table = standings(4, games, true);
    REQUIRE(table.size() == 4);
    CHECK(table[0].player == 0);
    CHECK(table[0].score == 2);
    CHECK(table[1].player == 1);
    CHECK(table[2].player == 2);
    CHECK(table[2].score == 1.5);
    CHECK(table[3].player == 3);
    CHECK(table[3].score == 0.5);
    CHECK(table[0].sonneborn_berger == 2.5); // beat 1 (2 points) and 3 (0.5)
}
