// Standard algebraic notation for the chess core, as in the PGN standard: disambiguation by
// file, then rank, then square, among legal moves only; O-O, =Q, + and #.
#pragma once

#include "chess/position.h"
#include "ghostpost/rules/game.h"

#include <string>
#include <vector>

namespace ghostpost::rules::chess {

// The SAN of `m`, one of `legal` (all legal moves of the side to move, drops included).
// `pos` is restored before returning; its move is made briefly to find check and mate.
std::string to_san(Position& pos, const Move& m, const MoveList& legal);

// A move as the interface's Action, and back.
Action to_action(const Position& pos, const Move& m);

// Every legal move as an Action, without its text: what a search needs.
std::vector<Action> to_actions(const Position& pos, const MoveList& legal);

// Every legal move with its SAN: the notated actions of the side to move.
std::vector<NotatedAction> notate(Position& pos, const MoveList& legal);

// LAN for a move ("e2e4", "e7e8q", "F@e4"), as UCI engines write it.
std::string to_lan(const Move& m);

} // namespace ghostpost::rules::chess
