// Endings and offers: !resign, !draw, !takeback and !abort, and what the rules hid, told when a
// game ends (service_offers.cpp). Private to the service.
#pragma once

#include "games.h"
#include "handler.h"

#include <string>
#include <vector>

namespace ghostpost::bot {

void cmd_resign(PostParts& run, const Args& args);
void cmd_draw(PostParts& run, const Args& args);
void cmd_takeback(PostParts& run, const Args& args);
void cmd_abort(PostParts& run, const Args& args);
// A subscriber of the end of games (game_end_subscribers): what the rules hid, turned over
// (Game::ending_reveal), and the full record of every game whose channel's board hid pieces: it
// names every hidden move's square.
void publish_hidden_records(PostParts& run, const std::vector<Ended>& ended);

} // namespace ghostpost::bot
