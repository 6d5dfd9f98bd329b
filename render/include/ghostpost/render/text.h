// Text boards for chat: plain ASCII or Unicode figurines, made from a view, never a game state.
//
// The convention, one board of any size up to 10x10:
//
//        a  b  c  d  e  f  g  h
//     8  r  n  b  q  k  b  n  r   8
//     7  p  p  p  p  .  p  p  p   7
//     4  .  .  .  . *P  .  .  .   4
//     2  P  P  P  P *.  P  P  P   2
//        a  b  c  d  e  f  g  h
//     Move 1, Black to move. Last move: e2-e4.
//
// - Every square is three characters: a mark, the figure, a suffix.
// - Figure: the piece letter of rules::piece_letter (P N B R Q K, and the letter a variant gives
//   each piece it adds), upper case for White, lower case for Black. In Unicode mode the six chess
//   pieces are figurines (U+2654..U+265F) and the variant pieces keep their letters, so every
//   square stays one column wide. An empty square is '.' ('·' in Unicode), or on a tinted board
//   its tint: '#' 100% dark, '+' 75% dark, '.' neutral, '-' 75% light,
//   '_' 100% light.
// - Mark: '*' on the squares of the last move, '!' on a royal piece in check (check wins).
// - Suffix, the first that applies: '#' an imprisoned piece, '&' something lies under the
//   piece, '~' a pale figure, '^' a lit one (it may act now), '?' a piece only its owner sees, '\''
//   a damaged piece (hit points below full).
// - Under the board: the move number and who decides, the last move, check, then one line per
//   kind of detail a suffix only hints at (what lies under a piece, hit points, imprisonment,
//   the tint key), then the variant's own notes.
// - The board itself has only letters, digits, spaces and . * ! # & ~ ^ ? ' + - _ : , and the
//   status lines under it are words in the reader's language (TextStyle::say); never a backtick,
//   so the board is safe inside a chat code block. Lines carry no trailing spaces.
#pragma once

#include "ghostpost/render/say.h"
#include "ghostpost/rules/view.h"

#include <array>
#include <cstdint>
#include <string>

namespace ghostpost::render {

enum class Glyphs : std::uint8_t { Ascii, Unicode };

struct TextStyle {
    Glyphs glyphs = Glyphs::Ascii;
    rules::Seat bottom = rules::Seat::White; // the seat whose side is drawn at the bottom
    std::array<std::string, 2> seat_names{"White", "Black"};
    // Once the game is over, how it ended ("White wins, 1-0 (resignation)"): said instead of
    // whose move it is, and instead of a check the game no longer cares about.
    std::string ended;
    // The status lines and notes in the reader's language (say.h); empty: English.
    Say say;
};

// The board with its coordinates and status lines, each line ending in '\n'.
std::string render_text(const rules::PublicView& view, const TextStyle& style = {});
std::string render_text(const rules::SeatView& view, const TextStyle& style = {});
// For boards that are already one audience's (the two overloads above, and tests).
std::string render_board_text(const rules::BoardView& board, const TextStyle& style = {});

} // namespace ghostpost::render
