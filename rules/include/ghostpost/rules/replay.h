// Rebuilding a game from its log: the action log is the truth, and a state is its replay.
#pragma once

#include "ghostpost/rules/game.h"

#include <string>
#include <string_view>
#include <vector>

namespace ghostpost::rules {

struct LoggedAction {
    Seat seat;
    std::string text; // canonical text as stored
};

// Movetext as PGN files and !history write it, with everything that is no action blanked out:
// tag pairs, comments ({...} and ; to the end of the line), variations ((...), nested),
// numeric annotation glyphs ($1). Move numbers and results stay. Never fails: an unclosed
// comment or variation runs to the end.
std::string strip_movetext(std::string_view text);

// Applies each logged action in order to `game`. Errors: the first action that no longer
// parses or applies, with its ply in the message (a broken log is a programmer error upstream,
// but the replay tool reports it as a value).
Result<int> replay(Game& game, const std::vector<LoggedAction>& log, RandomSource& rng);

} // namespace ghostpost::rules
