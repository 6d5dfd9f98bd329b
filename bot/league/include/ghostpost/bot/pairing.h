// Tournament pairing systems and standings, as pure functions over player indices (0 = the
// first seed). The service stores tournaments and creates the games; these decide who plays whom.
#pragma once

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

struct SwissPlayer {
    int player;
    double score = 0;
    int colour_balance = 0;   // games with white minus games with black
    int last_colour = 0;      // +1 white, -1 black, 0 none yet
    bool had_bye = false;
    std::vector<int> opponents;
};

// One Swiss round. `ranked` is in ranking order (score, then seed). Within a score group the
// top half meets the bottom half; a player who cannot be paired in their group floats down; no
// two players meet twice; the bye goes to the lowest-ranked player who has not had one.
// nullopt when no pairing without a repeat exists.
std::optional<std::vector<Pairing>> swiss_round(const std::vector<SwissPlayer>& ranked);

// The first round of a knockout for `players` seeds: a bracket of the next power of two where
// seed 1 meets the lowest seed, and the missing seeds are byes for the top seeds.
std::vector<Pairing> knockout_first_round(int players);

struct PlayedGame {
    int white;
    int black;          // `bye` for a bye
    double white_score; // 1, 0.5 or 0; a bye scores 1
};

struct Standing {
    int player;
    double score = 0;
    double buchholz = 0;         // the sum of the opponents' scores
    double sonneborn_berger = 0; // the sum of the scores of the opponents beaten, half of those drawn
};

// The table after `games`, best first: by score, then Sonneborn-Berger (round robin) or
// Buchholz (Swiss), then the other, then seed.
std::vector<Standing> standings(int players, const std::vector<PlayedGame>& games, bool round_robin);

} // namespace ghostpost::bot
