// Piece art for the PNG boards: the FIDE pieces from DejaVu Sans's chess figurines, and for the
// pieces no font has, the vector drawings their variants describe (rules::Drawing).
#pragma once

#include "ghostpost/rules/game.h"
#include "ghostpost/rules/types.h"

#include <cairo.h>
#include <cstdint>
#include <string_view>

namespace ghostpost::render::detail {

struct Rgba {
    double r = 0, g = 0, b = 0, a = 1;
};

// The two colours of a figure: `body` fills it, `ink` draws its outline and inner lines.
struct Palette {
    Rgba body;
    Rgba ink;
    Rgba accent; // a detail a drawing marks out (Paint::Role::Accent)
};

Palette living_palette(rules::Seat seat);
// Pale figures are drawn in cold, washed-out colours so they never pass for a living piece.
Palette pale_palette(rules::Seat seat);

void set_source(cairo_t* cr, const Rgba& c);

// The drawing a piece of `kind` gets in `variant`: the variant's own (VariantInfo::art), else the
// extra piece's (rules::ExtraPiece); nullptr for a chess piece drawn as its figurine.
const rules::Drawing* variant_art(rules::PieceKind kind, std::string_view variant);

// Draws `piece` at full opacity in the box with top-left corner (x, y) and side `size`.
// `variant` picks the art its registry entry gives a piece.
void draw_piece(cairo_t* cr, rules::Piece piece, std::string_view variant, double x, double y,
                double size, const Palette& palette);

// Which colours a figure is drawn in.
enum class Look : std::uint8_t { Living, Pale };

// Paints `piece` in the box with top-left corner (x, y) and side `size` from a rendered sprite
// kept in a process-wide cache (thread-safe), so a board pays for each piece's outlines once.
void paint_piece(cairo_t* cr, rules::Piece piece, std::string_view variant, int x, int y, int size,
                 Look look, double alpha = 1.0);

// Font options every text and sprite is drawn with, fixed so the same board gives the same
// pixels whatever the system's fontconfig prefers (the golden tests depend on it).
void set_board_font_options(cairo_t* cr);

// The DejaVu Sans face every text and figurine on the board uses, created once.
cairo_font_face_t* board_font();

} // namespace ghostpost::render::detail
