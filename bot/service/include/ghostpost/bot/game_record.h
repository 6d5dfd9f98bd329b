// A game's record as the public may read it: the texts of its log, its movetext and its PGN,
// with every secret decision hidden while the game is under way. !history, !pgn and the web
// pages all read a record through here, so they cannot disagree about what is public.
#pragma once

#include "ghostpost/storage/store.h"

#include <string>
#include <vector>

namespace ghostpost::bot {

// The texts of `log` as the channel may see them, one per action: while the game is under way,
// a secret decision the game asked for reads "{a secret choice}" and one a player volunteered
// (a standing policy) is empty. Errors: std::runtime_error when the variant is unknown.
std::vector<std::string> public_action_texts(const storage::GameRecord& g,
                                             const std::vector<storage::ActionRecord>& log);

// Numbered movetext with the same secrets hidden and, for games with chance, every roll as a
// comment. Errors: std::runtime_error when the log does not replay.
std::string public_movetext(const storage::GameRecord& g,
                            const std::vector<storage::ActionRecord>& log);

// The game in PGN: the seven tags (and Variant, Termination), then the public movetext wrapped
// at 78 columns. Errors: as public_movetext.
std::string pgn_text(const storage::GameRecord& g, const std::vector<storage::ActionRecord>& log,
                     const std::string& white, const std::string& black);

} // namespace ghostpost::bot
