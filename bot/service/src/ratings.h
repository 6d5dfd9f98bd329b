// Ratings: !rating and !leaderboard, and the rating changes and tournament steps said when games
// end (service_rating.cpp). Private to the service.
#pragma once

#include "games.h"
#include "handler.h"

#include <string>
#include <vector>

namespace ghostpost::bot {

void cmd_rating(PostParts& run, const Args& args);
void cmd_leaderboard(PostParts& run, const Args& args);
// A subscriber of the end of games (game_end_subscribers): the rating changes, said where each
// game is read, and each tournament game's next step.
void settle(PostParts& run, const std::vector<Ended>& ended);

} // namespace ghostpost::bot
