// Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2013), on the Glicko scale
// (1500 / 350 / 0.06 for a new player). One call updates one player over one rating period.
#pragma once

#include <vector>

namespace ghostpost::bot {

struct Rating {
    double rating = 1500.0;
    double deviation = 350.0;
    double volatility = 0.06;
};

struct RatedResult {
    Rating opponent;
    double score; // 1 win, 0.5 draw, 0 loss
};

// The player's rating after the period's results. With no results only the deviation grows.
// `tau` constrains the change in volatility (Glickman suggests 0.3 to 1.2).
Rating glicko2_update(const Rating& player, const std::vector<RatedResult>& results,
                      double tau = 0.5);

} // namespace ghostpost::bot
