// Challenges: !new, and the answers to one (!accept, !decline, !cancel); a game against the
// engine starts at once (service_challenge.cpp, service_engine.cpp). Private to the service.
#pragma once

#include "games.h"
#include "handler.h"

#include <string>
#include <vector>

namespace ghostpost::bot {

void cmd_new(PostParts& run, const Args& args);
void cmd_answer(PostParts& run, const Args& args, const std::string& command);
inline void cmd_accept(PostParts& run, const Args& args) {
    cmd_answer(run, args, "accept");
}
inline void cmd_decline(PostParts& run, const Args& args) {
    cmd_answer(run, args, "decline");
}
inline void cmd_cancel(PostParts& run, const Args& args) {
    cmd_answer(run, args, "cancel");
}
// True, after replying with the limit and the games that reach it, when the author may
// not take on one more game: max_open_games in all, or max_bot_games when
// `against_bot`. `then` ends the refusal: what stays as it was.
bool refuse_over_game_limits(PostParts& run, bool against_bot, const Text& then);
// The game `g` (made by !new, not yet stored) against the engine at `level`, seated and
// started at once: the engine accepts every challenge.
void start_engine_game(PostParts& run, storage::GameRecord g, int level);

} // namespace ghostpost::bot
