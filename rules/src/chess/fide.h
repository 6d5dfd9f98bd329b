// The FIDE rules around a Position that every chess-based variant reuses: how a game ends,
// which draws may be claimed, the board as a view, and why a well-formed move is illegal.
#pragma once

#include "chess/position.h"
#include "ghostpost/rules/game.h"

#include <optional>
#include <string>

namespace ghostpost::rules::chess {

// Checkmate, stalemate, insufficient material, the 75-move rule and fivefold repetition end
// the game by themselves; `legal` is the side to move's legal moves.
Outcome fide_outcome(const Position& pos, const MoveList& legal);

// The 50-move rule or threefold repetition, when the side to move may claim a draw now.
std::optional<std::string> fide_claimable_draw(const Position& pos);

// The whole board as everyone sees it in FIDE chess: every piece, last move, check.
BoardView fide_board(const Position& pos, std::string variant, bool over);
// The same written over `into`, whose storage is reused (Game::final_board).
void fide_board_into(const Position& pos, std::string_view variant, bool over, BoardView& into);

// Why `syntax` names no legal move: a piece that cannot reach the square, a move that leaves
// the king in check, castling through check, and so on. `pos` is restored before returning.
RuleError explain_fide_illegal(Position& pos, const ActionSyntax& syntax, std::string_view text);

// The moves of `legal` that `action` may be (same squares, kind and promotion).
std::optional<Move> find_move(const Position& pos, const MoveList& legal, const Action& action);

} // namespace ghostpost::rules::chess
