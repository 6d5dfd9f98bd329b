#include "ghostpost/bot/pairing.h"
#include "ghostpost/bot/rating.h"

#include <catch2/catch.hpp>
#include <set>

using namespace ghostpost::bot;

TEST_CASE("Glicko-2 reproduces Glickman's worked example", "[rating]") {
    Rating player{1500, 200, 0.06};
    auto after = glicko2_update(
        player, {{{1400, 30, 0.06}, 1.0}, {{1550, 100, 0.06}, 0.0}, {{1700, 300, 0.06}, 0.0}});
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

TEST_CASE("A round robin meets every pair once, or twice with colours reversed",
          "[tournament][round-robin]") {
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

TEST_CASE("A knockout of five players gives byes to the top three seeds",
          "[tournament][knockout]") {
    CHECK(knockout_first_round(5) == std::vector<Pairing>{{0, bye}, {3, 4}, {1, bye}, {2, bye}});
    CHECK(knockout_first_round(8) == std::vector<Pairing>{{0, 7}, {3, 4}, {1, 6}, {2, 5}});
}

TEST_CASE("Standings order by score, then Sonneborn-Berger in a round robin", "[tournament]") {
    // 0 beats 1, 1 beats 2, 2 beats 0: all on one point; 3 loses everything.
    std::vector<PlayedGame> games{{0, 1, 1}, {1, 2, 1}, {2, 0, 1},
                                  {0, 3, 1}, {1, 3, 1}, {3, 2, 0.5}};
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
