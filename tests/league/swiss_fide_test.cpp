// The Dutch system against the worked examples FIDE publishes: the nine-round tournament that
// FIDE's Technical Commission pairs round by round in "Mastering the Dutch" (C.04.3 version
// 2026, chapters 3 to 11), and the rules' own definitions in C.04.3 (2026) Articles 1 and 5.
#include "ghostpost/league/pairing.h"

#include <catch2/catch.hpp>
#include <sstream>

using namespace ghostpost::bot;

namespace {

// One board of a published crosstable, players by pairing number. Results: '1' White won,
// '0' Black won, '=' a draw, '+' White won by forfeit, '-' Black won by forfeit.
struct Published {
    int white, black;
    char result;
};
struct PublishedRound {
    std::vector<Published> games;
    int pab = 0;                  // the pairing-allocated bye, 0 for none
    std::vector<int> half_points; // players absent with a half-point bye
};

// "Mastering the Dutch" (FIDE TEC, 2026): fifteen players, nine rounds, with forfeits, byes
// on request and pairing-allocated byes. The results are transcribed from the book's
// crosstables as the open-source chesspairing project keeps them in its tests
// (github.com/gnutterts/chesspairing, pairing/dutch/mastering_dutch_2026_test.go and
// fide_examples_test.go); the pairings each round must produce are the book's tables.
const std::vector<PublishedRound> mastering_the_dutch{
    {{{1, 8, '1'},
      {9, 2, '='},
      {3, 10, '1'},
      {11, 4, '0'},
      {5, 12, '='},
      {13, 6, '1'},
      {7, 14, '0'}},
     15,
     {}},
    {{{14, 1, '0'},
      {2, 5, '1'},
      {15, 3, '0'},
      {4, 13, '1'},
      {10, 7, '0'},
      {8, 11, '1'},
      {12, 9, '='}},
     0,
     {6}},
    {{{1, 4, '='},
      {3, 2, '='},
      {6, 5, '='},
      {13, 8, '-'},
      {9, 14, '1'},
      {11, 10, '1'},
      {12, 15, '1'}},
     0,
     {7}},
    {{{4, 3, '-'},
      {2, 1, '0'},
      {8, 9, '0'},
      {7, 12, '1'},
      {5, 13, '1'},
      {14, 6, '0'},
      {15, 11, '0'}},
     10,
     {}},
    {{{1, 3, '='},
      {9, 7, '0'},
      {4, 5, '1'},
      {12, 2, '='},
      {6, 8, '0'},
      {13, 11, '1'},
      {10, 15, '1'}},
     14,
     {}},
    {{{7, 1, '0'},
      {3, 4, '1'},
      {8, 12, '1'},
      {11, 9, '='},
      {2, 10, '1'},
      {5, 14, '-'},
      {15, 6, '0'}},
     13,
     {}},
    {{{3, 8, '1'},
      {1, 9, '='},
      {4, 2, '1'},
      {6, 7, '0'},
      {13, 14, '1'},
      {12, 11, '1'},
      {5, 10, '0'}},
     0,
     {15}},
    {{{7, 3, '='},
      {1, 13, '1'},
      {9, 4, '0'},
      {2, 8, '1'},
      {10, 12, '1'},
      {11, 6, '1'},
      {14, 15, '0'}},
     5,
     {}},
};

// The book's pairing table of each round, White first, the bye as "n-0".
const std::vector<std::string> published_pairings{
    "1-8, 9-2, 3-10, 11-4, 5-12, 13-6, 7-14, 15-0", // §3, round 1
    "14-1, 15-3, 4-13, 2-5, 12-9, 10-7, 8-11",      // §4, round 2 (6 absent)
    "1-4, 3-2, 13-8, 9-14, 12-15, 6-5, 11-10",      // §5, round 3 (7 absent)
    "4-3, 2-1, 8-9, 7-12, 5-13, 14-6, 15-11, 10-0", // §6, round 4
    "1-3, 9-7, 4-5, 12-2, 6-8, 13-11, 10-15, 14-0", // §7, round 5
    "7-1, 3-4, 8-12, 11-9, 2-10, 5-14, 15-6, 13-0", // §8, round 6
    "3-8, 1-9, 4-2, 6-7, 13-14, 12-11, 5-10",       // §9, round 7 (15 absent)
    "7-3, 1-13, 9-4, 2-8, 10-12, 11-6, 14-15, 5-0", // §10, round 8
    "10-1, 9-3, 4-7, 13-2, 8-15, 5-11, 12-14, 6-0", // §11, round 9
};

std::vector<SwissRoundEntry> entries(const PublishedRound& r) {
    std::vector<SwissRoundEntry> out;
    for (const auto& g : r.games) {
        const bool forfeit = g.result == '+' || g.result == '-';
        const double white = g.result == '1' || g.result == '+' ? 1.0 : g.result == '=' ? 0.5 : 0.0;
        SwissRoundEntry w{g.white - 1, g.black - 1, forfeit ? Colour::None : Colour::White, white};
        SwissRoundEntry b{g.black - 1, g.white - 1, forfeit ? Colour::None : Colour::Black,
                          1.0 - white};
        out.push_back(w);
        out.push_back(b);
    }
    if (r.pab)
        out.push_back({r.pab - 1, bye, Colour::None, 1.0, true});
    for (int p : r.half_points)
        out.push_back({p - 1, bye, Colour::None, 0.5});
    return out;
}

std::string text(const std::vector<SwissBoard>& boards) {
    std::ostringstream out;
    for (std::size_t i = 0; i < boards.size(); ++i)
        out << (i ? ", " : "") << boards[i].white + 1 << "-"
            << (boards[i].black == bye ? 0 : boards[i].black + 1);
    return out.str();
}

// Pairs round `round` of the book's tournament from the results before it.
std::string pair_published(int round) {
    std::vector<std::vector<SwissRoundEntry>> history;
    for (int r = 0; r + 1 < round; ++r)
        history.push_back(entries(mastering_the_dutch[static_cast<std::size_t>(r)]));
    auto players = swiss_players(15, history);
    // Who is away in this round (a half-point bye asked for) is not paired.
    std::vector<int> away;
    if (round <= static_cast<int>(mastering_the_dutch.size()))
        away = mastering_the_dutch[static_cast<std::size_t>(round - 1)].half_points;
    SwissRound sr;
    sr.round = round;
    sr.rounds = 9;
    sr.initial_colour = Colour::White;
    for (const auto& p : players)
        if (std::find(away.begin(), away.end(), p.number) == away.end())
            sr.players.push_back(p);
    auto boards = swiss_round(sr);
    REQUIRE(boards.has_value());
    return text(*boards);
}

} // namespace

TEST_CASE("Mastering the Dutch: the scores before each round match the book's", "[swiss][fide]") {
    std::vector<std::vector<SwissRoundEntry>> history;
    for (std::size_t r = 0; r < 3; ++r)
        history.push_back(entries(mastering_the_dutch[r]));
    auto players = swiss_players(15, history);
    // Before round 4 (§6): 2.5 2 2.5 2.5 1 1 1.5 2 2 0 1 2 1 1 1.
    const std::vector<double> book{2.5, 2, 2.5, 2.5, 1, 1, 1.5, 2, 2, 0, 1, 2, 1, 1, 1};
    for (std::size_t p = 0; p < 15; ++p)
        CHECK(players[p].score == book[p]);
    // A forfeit is no game: Kevin (8) won round 3 without playing, so he may not have the bye
    // and floated down; Patricia (13) lost it and played only two games.
    CHECK(players[7].bye_ineligible);
    CHECK(players[7].float_last == Float::Down);
    CHECK(players[7].colours == std::vector<Colour>{Colour::Black, Colour::White});
    CHECK(players[12].colours.size() == 2);
    CHECK(players[12].float_last == Float::None);
    CHECK(players[12].unplayed == 1);
    // Stephanie (15) had the bye in round 1: no colour, a downfloat, never another bye.
    CHECK(players[14].bye_ineligible);
    CHECK(players[14].colours.size() == 2);
}

TEST_CASE("Mastering the Dutch, round 1: top half against bottom half, colours by lot, the bye "
          "to the last",
          "[swiss][fide]") {
    CHECK(pair_published(1) == published_pairings[0]);
}

TEST_CASE("Mastering the Dutch, round 2: a player absent, the bye's receiver paired up",
          "[swiss][fide]") {
    CHECK(pair_published(2) == published_pairings[1]);
}

TEST_CASE("Mastering the Dutch, round 3", "[swiss][fide]") {
    CHECK(pair_published(3) == published_pairings[2]);
}

TEST_CASE("Mastering the Dutch, round 4: the bye's score as low as it can be (C5)",
          "[swiss][fide]") {
    CHECK(pair_published(4) == published_pairings[3]);
}

TEST_CASE("Mastering the Dutch, round 5", "[swiss][fide]") {
    CHECK(pair_published(5) == published_pairings[4]);
}

TEST_CASE("Mastering the Dutch, round 6: completion (C4) and the next bracket (C8)",
          "[swiss][fide]") {
    CHECK(pair_published(6) == published_pairings[5]);
}

TEST_CASE("Mastering the Dutch, round 7: colour allocation", "[swiss][fide]") {
    CHECK(pair_published(7) == published_pairings[6]);
}

TEST_CASE("Mastering the Dutch, round 8", "[swiss][fide]") {
    CHECK(pair_published(8) == published_pairings[7]);
}

TEST_CASE("Mastering the Dutch, round 9: topscorers in the last round (C10, C11)",
          "[swiss][fide]") {
    CHECK(pair_published(9) == published_pairings[8]);
}

TEST_CASE("Colour preferences are absolute, strong or mild as Article 1.7 defines them",
          "[swiss]") {
    using C = Colour;
    using P = Preference;
    CHECK(colour_preference({}) == ColourPreference{});
    CHECK(colour_preference({C::White}) == ColourPreference{C::Black, P::Strong});
    CHECK(colour_preference({C::White, C::Black}) == ColourPreference{C::White, P::Mild});
    CHECK(colour_preference({C::Black, C::White}) == ColourPreference{C::Black, P::Mild});
    CHECK(colour_preference({C::White, C::White}) == ColourPreference{C::Black, P::Absolute});
    CHECK(colour_preference({C::White, C::Black, C::Black}) ==
          ColourPreference{C::White, P::Absolute});
    CHECK(colour_preference({C::Black, C::White, C::Black, C::White, C::White}) ==
          ColourPreference{C::Black, P::Absolute});
    CHECK(colour_preference({C::White, C::Black, C::White}) ==
          ColourPreference{C::Black, P::Strong});
}
