// Phantom Chess internals shared by the files of this folder: move generation with entries,
// announcements that give nothing hidden away, and explanations of refused moves.
// The rules and their reading are in docs/variants/phantom.md.
#pragma once

#include "chess/position.h"
#include "ghostpost/rules/game.h"
#include "ghostpost/variants/pieces.h"

#include <optional>
#include <string>

namespace ghostpost::rules::phantom {

// The entry rules a game was started with (options phantom_entry_capture, phantom_entry_check).
struct EntryRules {
    bool capture = false; // may the Phantom enter on an enemy piece (not the king), capturing it
    bool check = false;   // may the entering Phantom give check
};

// The squares where the side to move may enter its Phantom now: none when it has no Phantom in
// hand; otherwise the entry rules, and only squares that answer a check.
chess::Bitboard entry_squares(const chess::Position& pos, EntryRules rules);

// Every legal action of the side to move: the chess moves and the Phantom's entries.
void generate(const chess::Position& pos, EntryRules rules, chess::MoveList& out);

// Leaf nodes `depth` plies deep, walking `pos` in place (restored before returning).
std::uint64_t perft(chess::Position& pos, EntryRules rules, int depth);

// The move as it is announced to everybody: SAN with F for the Phantom, entries as F@e4 (F@xe4
// when capturing), + and # that count entries as answers to check. Disambiguation looks only at
// what the channel sees, so naming a move never tells where a Phantom stands. `m` is legal;
// `pos` is restored before returning.
std::string announce(chess::Position& pos, const chess::Move& m, EntryRules rules);

// The board without its Phantoms: what the channel sees of the occupancy.
inline chess::Bitboard visible(const chess::Position& pos) {
    return pos.pieces() & ~pos.pieces(pieces::phantom);
}

// "your Phantom on e4" / "White's Phantom on e4", for the reasons told privately.
Phrase phantom_on(const chess::Position& pos, chess::Sq s, Seat viewer);

// Why the move `syntax` (not an entry) of the side to move is refused. When a Phantom is among
// the reasons, the public message says only that the move was refused and private_detail names
// the Phantom's square for the mover; otherwise the FIDE explanation, which names nothing hidden.
// `pos` is restored before returning.
RuleError explain_move(chess::Position& pos, const ActionSyntax& syntax, std::string_view text);

// Why the entry `syntax` (F@e4) of the side to move is refused, hidden the same way.
RuleError explain_entry(const chess::Position& pos, const ActionSyntax& syntax, EntryRules rules,
                        std::string_view text);

// Whether the move or entry `syntax` names a legal action of the side to move in `pos` (a king
// is never taken), read as the parser reads it: a bare pawn push never names a capture.
bool allows(const chess::Position& pos, EntryRules rules, const ActionSyntax& syntax);

// Why the move or entry `syntax` of the side to move is refused when the board the mover sees
// (`pos` without the other side's Phantom) already forbids it. The reason never depends on where
// the other Phantom stands: it is read on the board everyone sees (no Phantom at all), in public;
// only when the mover's own Phantom is what forbids the move is the reason the mover's alone.
RuleError explain_seen(const chess::Position& pos, const ActionSyntax& syntax, EntryRules rules,
                       std::string_view text);

// The positions the other side's Phantom may make, from `view` and the announced actions
// (Variant::hidden_placements).
std::optional<HiddenPlacements> phantom_placements(const SeatView& view,
                                                   const std::vector<LoggedAction>& announced);

} // namespace ghostpost::rules::phantom
