// What the Haunted Chess game file and its explanations share.
#pragma once

#include "board.h"
#include "ghostpost/rules/game.h"

#include <optional>
#include <string>
#include <string_view>

namespace ghostpost::rules::haunted {

// "white knight", "black spirit bishop": words of the catalogs ("piece"), whole so that a
// language can make the colour agree with the piece.
Phrase piece_words(Piece p);
Phrase spirit_words(Piece p);

// "the white queen on a4", "the black spirit bishop on c6".
Phrase the_piece_on(Phrase piece, Square s);

// Why a move written like a living move (SAN or LAN) matches none of `legal`, in this
// variant's terms: a spirit in the way or on the target square, a spirit move meant, a king
// left to an invoked spirit's check.
RuleError explain(const Board& board, const MoveBuf& legal, const ActionSyntax& syntax,
                  std::string_view text);

// A spirit action as typed: "SBd7", "S:Bc6-d7", "sbxd7", "SPc8=Q".
struct SpiritSyntax {
    PieceKind kind = PieceKind::None;
    int from_file = -1;
    int from_rank = -1;
    Square to;
    PieceKind promotion = PieceKind::None;
    bool capture = false;
};

// The parts of a spirit action, or nullopt when the text is not written as one.
std::optional<SpiritSyntax> parse_spirit(std::string_view text);

// Why a spirit action written as `syntax` is none of `legal`: no such spirit, a spirit still
// under its captor, a capture without invocation, a haunted target square, the own king.
RuleError explain_spirit(const Board& board, const SpiritSyntax& syntax, std::string_view text);

} // namespace ghostpost::rules::haunted
