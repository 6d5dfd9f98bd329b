// Tournament pairing systems and standings, as pure functions over player indices (0 = the
// first seed). The service stores tournaments and creates the games; these decide who plays whom.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace ghostpost::bot {

inline constexpr int bye = -1;

struct Pairing {
    int white;
    int black; // `bye` when white sits out this round and scores a point
    bool operator==(const Pairing&) const = default;
};

// All rounds of a round robin by the Berger tables (FIDE Handbook C.05, Annex 1): with an odd
// number of players the missing last player is the bye. A double round robin repeats the cycle
// with colours reversed.
std::vector<std::vector<Pairing>> berger_schedule(int players, bool double_round = false);

// --- Swiss pairings by the FIDE (Dutch) System, Handbook C.04.3 as in force from 1 February
// 2026, with the Basic Rules (C.04.1) and General Handling Rules (C.04.2) it relies on.
// docs/tournaments.md says how ghostpost applies them.

enum class Colour : std::int8_t { Black = -1, None = 0, White = 1 };
enum class Float : std::uint8_t { None, Down, Up };

// What one player did in one earlier round, as the pairing rules read it.
struct SwissRoundEntry {
    int player = 0;
    int opponent = bye;           // the player it was paired with; `bye` for none
    Colour colour = Colour::None; // the colour played; None when no game was played over the
                                  // board (a bye, a forfeit, a game voided, an absence)
    double points = 0;            // what the round gave it: 1 for a win or the bye, ½ a draw
    bool pab = false;             // it had the pairing-allocated bye
    // The float recorded when the round was paired; nullopt: worked out from the scores.
    // Only a game played or the bye floats; a round scored without playing floats down when
    // it gave more than a loss (1.4.3), whatever was recorded.
    std::optional<Float> floated;
};

// The colour a player should have next (1.7): absolute (colour difference beyond ±1, or the
// same colour in the last two games), strong (difference ±1), mild (balanced: the other colour
// than last time), or none before the first game.
enum class Preference : std::uint8_t { None, Mild, Strong, Absolute };
struct ColourPreference {
    Colour colour = Colour::None;
    Preference strength = Preference::None;
    bool operator==(const ColourPreference&) const = default;
};
// `played`: the colours of the games played, oldest first (rounds without a game left out, as
// C.04.2 says of colour histories).
ColourPreference colour_preference(const std::vector<Colour>& played);

// One player to pair, with what the rules need of their past.
struct SwissPlayer {
    int player = 0; // the caller's index
    int number = 0; // the pairing number (1 for the first seed): ties in score go by it
    double score = 0;
    std::vector<Colour> colours;      // the games played, oldest first
    std::vector<int> opponents;       // the players met over the board (C1: never again)
    bool bye_ineligible = false;      // had the bye, or a win's points without playing (C2)
    Float float_last = Float::None;   // the float of the round before this one
    Float float_before = Float::None; // of the round before that
    int unplayed = 0;                 // rounds without a game played (C9)
};

// The field before the next round: `rounds[r]` holds what each player did in round r + 1 (a
// player absent from a round has no entry there). Player p gets pairing number p + 1.
std::vector<SwissPlayer> swiss_players(int players,
                                       const std::vector<std::vector<SwissRoundEntry>>& rounds);

struct SwissRound {
    int round = 1;  // the round to pair, 1 for the first
    int rounds = 1; // the rounds of the tournament: topscorers exist when pairing the last
    Colour initial_colour = Colour::White; // drawn by lot before round 1 (5.1)
    std::vector<SwissPlayer> players;      // the players to pair, in any order
};

struct SwissBoard {
    int white = 0;
    int black = bye;                 // `bye` for the pairing-allocated bye
    Float white_float = Float::None; // what the board gives each player (1.4)
    Float black_float = Float::None;
    bool operator==(const SwissBoard&) const = default;
};

// One round by the Dutch system: score brackets from the top, each paired to the absolute
// criteria (C1 no second meeting, C2 no second bye, C3 no two non-topscorers with the same
// absolute colour preference), the completion criterion (C4: the rest stays pairable), the
// bye's score as low as it can be (C5), and the quality criteria C6-C21 in their order, ties
// going to the candidate the handbook's transpositions and exchanges reach first; colours by
// Article 5. Boards are sorted as C.04.2 publishes them, the bye last. nullopt when no pairing
// meets the absolute criteria (the handbook leaves that case to the arbiter).
std::optional<std::vector<SwissBoard>> swiss_round(const SwissRound& round);

// The first round of a knockout for `players` seeds: a bracket of the next power of two where
// seed 1 meets the lowest seed, and the missing seeds are byes for the top seeds.
std::vector<Pairing> knockout_first_round(int players);

struct PlayedGame {
    int white;
    int black;          // `bye` for a bye
    double white_score; // 1, 0.5 or 0; a bye what it gives: 1, or ½ when asked for
};

struct Standing {
    int player;
    double score = 0;
    double buchholz = 0;      // the sum of the opponents' scores
    double buchholz_cut1 = 0; // the same without the lowest (a round without a game is 0)
    double sonneborn_berger =
        0; // the sum of the scores of the opponents beaten, half of those drawn
    // The points scored against the players level with this one on everything before this
    // tie-break, when each of them met each other; none otherwise (FIDE C.07, direct encounter).
    std::optional<double> direct_encounter;
};

enum class TieBreak { BuchholzCut1, Buchholz, DirectEncounter, SonnebornBerger };

// The tie-breaks in their order. A Swiss follows FIDE's list for individual Swiss events
// (Buchholz cut 1, Buchholz, the direct encounter), then Sonneborn-Berger; a round robin, where
// everyone meets everyone, goes by the direct encounter, then Sonneborn-Berger, then Buchholz.
std::vector<TieBreak> tie_breaks(bool round_robin);
const char* tie_break_name(TieBreak b);  // "Buchholz cut 1"
const char* tie_break_short(TieBreak b); // "BH-C1"
std::optional<double> tie_break_value(const Standing& s, TieBreak b);

// The table after `games`, best first: by score, then the tie-breaks in their order, then seed.
// `rounds` is the number of rounds complete: a player with fewer games than that had a round
// without an opponent, and Buchholz cut 1 leaves that round (0) out instead of an opponent.
std::vector<Standing> standings(int players, const std::vector<PlayedGame>& games, bool round_robin,
                                int rounds = 0);

} // namespace ghostpost::bot
