// Boards as PNG images (cairo). A board is drawn from a view made for one audience, never from a
// game state, so an image can show no more than the view holds: a public board of a game with
// pieces only their owners see is, pixel for pixel, the same board without those pieces.
#pragma once

#include "ghostpost/render/say.h"
#include "ghostpost/rules/view.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ghostpost::render {

using PngBytes = std::vector<std::uint8_t>; // an encoded PNG file, as OutgoingMessage::png holds

struct PngOptions {
    int width_px = 480;      // the image's width; squares are as large as fits (160..2000)
    bool flip = false;       // the second seat's side at the bottom (rank 1 at the top)
    bool coordinates = true; // file letters and rank numbers around the board
    std::string game_label;  // starts the caption, e.g. "Game 12"; empty: no label
    std::string deciding;    // overrides "White to move", e.g. "Black chooses the dice"
    std::string ended;       // once the game is over, how it ended: "White wins, 1-0 (resignation)"
    // Empty: taken from the variant's registry entry (VariantInfo::title, VariantInfo::seat_names).
    std::string title;                     // shown dimmed at the caption's right end
    std::array<std::string, 2> seat_names; // for "<seat name> to move"
    Say say; // the caption's words and the notes in the reader's language; empty: English
};

// The caption over the board: "Game 12 · move 5 · White to move"; how the game ended once it is
// over (PngOptions::ended), or "game over" when nobody has to decide. Seat names come from the
// variant (VariantInfo::seat_names).
std::string png_caption(const rules::BoardView& board, const PngOptions& options = {});

// Draws the board with its pieces, the last move, check, coordinates, the caption and the
// view's notes, and encodes it as a PNG. Errors: std::invalid_argument when the board is not
// 1..10 squares each way or its cells do not match its size, or the width is out of range;
// std::runtime_error when cairo fails (out of memory).
PngBytes render_png(const rules::BoardView& board, const PngOptions& options = {});
PngBytes render_png(const rules::PublicView& view, const PngOptions& options = {});
PngBytes render_png(const rules::SeatView& view, const PngOptions& options = {});

} // namespace ghostpost::render
