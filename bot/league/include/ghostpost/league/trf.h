// The FIDE Tournament Report File (TRF16) as pairing programs read it: the player lines and
// their round cells, without the service's storage, so that ghostpost's table and the bench that
// checks its Swiss against bbpPairings write the same columns.
#pragma once

#include <string>
#include <vector>

namespace ghostpost::bot::trf {

// One round of one player, "oooo c r": the opponent's starting rank (0 for none, written 0000),
// the colour ('w', 'b', or '-' when no game was played) and the result ('1', '0', '=', or for
// an unplayed round 'U' the pairing-allocated bye, 'H' a half-point bye, 'Z' absent, ' ' a game
// under way).
std::string cell(int opponent, char colour, char result);

// A 001 line: columns 1-89 (starting rank, name, points, rank; no sex, title, rating,
// federation, FIDE id or birth date known) and a cell per round; a missing cell is an absence.
std::string player_line(int number, const std::string& name, double points, int rank,
                        const std::vector<std::string>& cells);

} // namespace ghostpost::bot::trf
