#include "ghostpost/league/pairing.h"
#include "ghostpost/league/rating.h"

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

TEST_CASE("A round robin's tie goes first to the direct encounter of those level", "[tournament]") {
    // 0 and 1 each beat 2 and 3; 1 beat 0, so 0 and 1 are level on 2 points only until their
    // own game; 2 and 3 drew and are level on ½, their game drawn: Sonneborn-Berger decides.
    std::vector<PlayedGame> games{{0, 2, 1}, {0, 3, 1}, {1, 2, 1},
                                  {1, 3, 1}, {0, 1, 0}, {2, 3, 0.5}};
    auto table = standings(4, games, true);
    REQUIRE(table.size() == 4);
    CHECK(table[0].player == 1);
    CHECK(table[0].score == 3);
    CHECK_FALSE(table[0].direct_encounter.has_value()); // alone on 3
    CHECK(table[1].player == 0);
    CHECK(table[2].player == 2);
    CHECK(table[2].direct_encounter == 0.5);
    CHECK(table[3].player == 3);
    CHECK(table[3].direct_encounter == 0.5);
    CHECK(tie_breaks(true) == std::vector<TieBreak>{TieBreak::DirectEncounter,
                                                    TieBreak::SonnebornBerger, TieBreak::Buchholz});
}

TEST_CASE("A Swiss breaks ties by Buchholz cut 1, Buchholz, the direct encounter, then "
          "Sonneborn-Berger",
          "[tournament][swiss]") {
    CHECK(tie_breaks(false) == std::vector<TieBreak>{TieBreak::BuchholzCut1, TieBreak::Buchholz,
                                                     TieBreak::DirectEncounter,
                                                     TieBreak::SonnebornBerger});
    CHECK(std::string(tie_break_short(TieBreak::BuchholzCut1)) == "BH-C1");
    CHECK(std::string(tie_break_name(TieBreak::DirectEncounter)) == "direct encounter");
    // Six players, three rounds. Round 1: 0-3 1-0, 1-4 1-0, 2-5 1-0. Round 2: 0-1 ½, 2-3 1-0,
    // 4-5 1-0. Round 3: 2-0 0-1, 1-4 is not allowed again, so 1-3 1-0, 5-4 ½.
    std::vector<PlayedGame> games{{0, 3, 1}, {1, 4, 1}, {2, 5, 1}, {0, 1, 0.5}, {2, 3, 1},
                                  {4, 5, 1}, {2, 0, 0}, {1, 3, 1}, {5, 4, 0.5}};
    auto table = standings(6, games, false, 3);
    REQUIRE(table.size() == 6);
    // Scores: 0: 2½, 1: 2½, 2: 2, 3: 0, 4: 1½, 5: ½.
    // Buchholz: 0 met 3, 1, 2: 0 + 2½ + 2 = 4½; 1 met 4, 0, 3: 1½ + 2½ + 0 = 4. Cut 1 leaves
    // out each one's weakest opponent, 3 (0): 4½ and 4 again; 0 ahead.
    CHECK(table[0].player == 0);
    CHECK(table[0].buchholz == 4.5);
    CHECK(table[0].buchholz_cut1 == 4.5);
    CHECK(table[1].player == 1);
    CHECK(table[1].buchholz == 4);
    CHECK(table[1].buchholz_cut1 == 4);
    CHECK_FALSE(table[0].direct_encounter.has_value()); // not level on the cut
    CHECK(table[2].player == 2);
    CHECK(table[2].buchholz == 0.5 + 0 + 2.5);
    CHECK(table[2].buchholz_cut1 == 0.5 + 2.5); // 3's 0 cut
    CHECK(table[3].player == 4);
    CHECK(table[5].player == 3);
}

TEST_CASE("Buchholz cut 1 leaves out a round without an opponent before any opponent",
          "[tournament][swiss]") {
    // Three rounds; 0 had a bye in round 3 (a point, no opponent); 1 played all three.
    std::vector<PlayedGame> games{{0, 2, 1},   {1, 3, 1}, {0, 1, 0.5},
                                  {0, bye, 1}, {1, 2, 1}, {3, 2, 0.5}};
    auto table = standings(4, games, false, 3);
    auto row = [&](int p) {
        for (const auto& s : table)
            if (s.player == p)
                return s;
        FAIL("no row");
        return table.front();
    };
    CHECK(row(0).buchholz == 0.5 + 2.5);      // 2 has ½, 1 has 2½
    CHECK(row(0).buchholz_cut1 == 0.5 + 2.5); // the bye round is the one cut
    CHECK(row(1).buchholz == 0.5 + 2.5 + 0.5);
    CHECK(row(1).buchholz_cut1 == 2.5 + 0.5); // one of the ½ opponents cut
}

TEST_CASE("The direct encounter applies only when each of those level met each other",
          "[tournament][swiss]") {
    // 0, 1 and 2 end level on everything before it: 0 beat 1; 2 met neither. No direct
    // encounter then: Sonneborn-Berger and the seed decide.
    std::vector<PlayedGame> games{{0, 1, 1}, {2, 3, 1}, {1, 3, 1}, {0, 2, 0}};
    auto level = standings(4, games, false, 2);
    for (const auto& s : level)
        CHECK_FALSE(s.direct_encounter.has_value());
    // Two level on points and both Buchholz figures, who met: the winner of their game goes
    // first, though the seed would put the other ahead. Games: 1 beat 0, 0 beat 2 and 3, 1 beat
    // 3, 2 beat 1, 2-3 drawn: 0 and 1 on 2 points, Buchholz 4 and cut 1 3½ each.
    std::vector<PlayedGame> met{{0, 1, 0}, {2, 3, 0.5}, {0, 2, 1}, {1, 3, 1}, {0, 3, 1}, {2, 1, 1}};
    auto table = standings(4, met, false, 3);
    CHECK(table[0].player == 1);
    CHECK(table[0].direct_encounter == 1);
    CHECK(table[1].player == 0);
    CHECK(table[1].direct_encounter == 0);
    CHECK(table[0].buchholz == table[1].buchholz);
    CHECK(table[0].buchholz_cut1 == table[1].buchholz_cut1);
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
