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

// What a PGN's tags say beyond the game record: the players' names and, for a tournament game,
// the event and "round.board".
struct PgnTags {
    std::string white;
    std::string black;
    std::string event; // empty: "ghostpost game <id>"
    std::string round = "-";
};

// The tags of game `g` with these names: its tournament and round.board when it is one's.
PgnTags pgn_tags(storage::Store& store, const storage::GameRecord& g, std::string white,
                 std::string black);

// The game in PGN: the seven tags, then those lichess writes (UTCDate, UTCTime, Variant,
// TimeControl, Termination), then the public movetext wrapped at 78 columns between turns, the
// reason the game ended as a comment. Errors: as public_movetext.
std::string pgn_text(const storage::GameRecord& g, const std::vector<storage::ActionRecord>& log,
                     const PgnTags& tags);

// A PGN tag value: quotes and backslashes escaped, line breaks as spaces.
std::string pgn_escape(const std::string& value);
// A time control as PGN's TimeControl tag: "-" none, "1/259200" a move in 3 days,
// "604800+86400" a base and an increment.
std::string pgn_time_control(const std::string& tc);
// lichess's Termination values: Normal, Time forfeit, Adjudication, Rules infraction,
// Abandoned, Unterminated.
std::string pgn_termination(const storage::GameRecord& g);

} // namespace ghostpost::bot
