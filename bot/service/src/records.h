// What a game shows: its board now or earlier (!board, service_board.cpp) and its record (!games,
// !history, !pgn, !fen, service_record.cpp). Private to the service.
#pragma once

#include "games.h"
#include "handler.h"

#include <string>
#include <vector>

namespace ghostpost::bot {

void cmd_board(PostParts& run, const Args& args);
void cmd_games(PostParts& run, const Args& args);
void cmd_history(PostParts& run, const Args& args, bool pgn);
inline void cmd_record(PostParts& run, const Args& args) {
    cmd_history(run, args, false);
}
inline void cmd_pgn(PostParts& run, const Args& args) {
    cmd_history(run, args, true);
}
void cmd_fen(PostParts& run, const Args& args);
// The player's finished and aborted games, newest first, page `page`; `after_current`: as
// the second part of "!games all" (says nothing when there are none).
void say_finished(PostParts& run, const storage::PlayerRecord& whom, bool after_current,
                  std::size_t page = 1);
// The lines of page `page` (from 1) in `shown`, and in `more` ", page 2 of 3 (...)" when
// there are several; false, after replying, when there is no such page.
bool one_page(PostParts& run, const std::vector<std::string>& lines, std::size_t page,
              const std::string& command, std::vector<std::string>& shown, Text& more);

} // namespace ghostpost::bot
