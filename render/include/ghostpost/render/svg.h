// Boards as SVG for the web pages. Like the PNG, an SVG board is drawn from a view made for one
// audience and never from a game state, so a page can show no more than the view holds.
//
// The markup is meant to be read by machines too: every square is a <g class="sq"> carrying
// data-square="e4" and data-piece with the figures on it, upper case for the first seat and lower
// case for the second in the letters of rules::piece_letter ("P", "n", "" when empty; a square
// holding more than one figure lists them top first, "Rx"). A browser test reads these.
#pragma once

#include "ghostpost/render/say.h"
#include "ghostpost/rules/view.h"

#include <array>
#include <string>

namespace ghostpost::render {

struct SvgOptions {
    bool flip = false;       // the second seat's side at the bottom (rank 1 at the top)
    bool coordinates = true; // file letters and rank numbers around the board
    // The caption, as for PNG boards (png_caption): "Game 12 · move 5 · White to move".
    std::string game_label;
    std::string ended;
    std::array<std::string, 2> seat_names;
    Say say; // the caption's words and the notes in the reader's language; empty: English
};

// The board with pieces, the last move, check, coordinates, caption and the view's notes, as a
// standalone <svg> element (UTF-8, no XML prolog, so it can be inlined in HTML or served as
// image/svg+xml). Errors: std::invalid_argument when the board is not 1..10 squares each way or
// its cells do not match its size.
std::string render_svg(const rules::BoardView& board, const SvgOptions& options = {});
std::string render_svg(const rules::PublicView& view, const SvgOptions& options = {});
std::string render_svg(const rules::SeatView& view, const SvgOptions& options = {});

// `text` with &, <, >, " and ' written as entities, for XML and HTML text and attributes.
std::string xml_escape(std::string_view text);

} // namespace ghostpost::render
