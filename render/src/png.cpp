// PNG boards. Layout, from the top: a caption bar, the board with coordinates on its left and
// bottom, then the view's notes. Everything scales with the requested width, so a 480 px 8x8
// board has 55 px squares and a 10x10 board 44 px squares.
#include "ghostpost/render/png.h"

#include "ghostpost/rules/registry.h"
#include "pieces.h"
#include "png_encode.h"

#include <algorithm>
#include <cairo.h>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

namespace ghostpost::render {

using namespace detail;
using rules::BoardView;
using rules::Figure;
using rules::FigureStyle;
using rules::Square;

namespace {

struct SurfaceDeleter {
    void operator()(cairo_surface_t* s) const { cairo_surface_destroy(s); }
};
struct ContextDeleter {
    void operator()(cairo_t* c) const { cairo_destroy(c); }
};
using Surface = std::unique_ptr<cairo_surface_t, SurfaceDeleter>;
using Context = std::unique_ptr<cairo_t, ContextDeleter>;

constexpr Rgba background{0.165, 0.180, 0.215, 1};
constexpr Rgba light_square{0.905, 0.885, 0.830, 1};
constexpr Rgba dark_square{0.490, 0.561, 0.651, 1};
constexpr Rgba caption_ink{0.96, 0.96, 0.94, 1};
constexpr Rgba dim_ink{0.66, 0.70, 0.76, 1};
constexpr Rgba last_move{1.00, 0.82, 0.22, 0.50};

Rgba mix(const Rgba& a, const Rgba& b, double t) {
    return {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t, 1};
}

// The five shades of a tinted board run from the light square colour to the dark one in equal
// steps, so a 75% square sits visibly between a fixed square and a neutral one.
Rgba square_colour(const BoardView& b, Square sq) {
    switch (b.at(sq).tint) {
    case rules::Tint::Light100:
        return light_square;
    case rules::Tint::Light75:
        return mix(light_square, dark_square, 0.25);
    case rules::Tint::Neutral:
        return mix(light_square, dark_square, 0.5);
    case rules::Tint::Dark75:
        return mix(light_square, dark_square, 0.75);
    case rules::Tint::Dark100:
        return dark_square;
    case rules::Tint::Chequer:
        break;
    }
    return (sq.file + sq.rank) % 2 == 0 ? dark_square : light_square; // a1 is dark
}

struct Layout {
    int width = 0, height = 0;
    int square = 0;
    int left = 0, top = 0;
    int caption = 0;
    int line = 0; // height of one line of notes
    bool flip = false;
    int files = 8, ranks = 8;

    int x(int file) const { return left + square * (flip ? files - 1 - file : file); }
    int y(int rank) const { return top + square * (flip ? rank : ranks - 1 - rank); }
};

Layout make_layout(const BoardView& b, const PngOptions& o) {
    Layout l;
    l.flip = o.flip;
    l.files = b.files;
    l.ranks = b.ranks;
    l.width = o.width_px;
    const int pad = std::max(4, o.width_px / 40);
    const int coord = o.coordinates ? std::max(10, o.width_px / 20) : pad;
    l.caption = std::max(16, o.width_px * 2 / 30);
    l.square = (o.width_px - coord - pad) / b.files;
    l.left = coord + (o.width_px - coord - pad - l.square * b.files) / 2;
    l.top = l.caption + pad;
    l.line = std::max(10, o.width_px * 3 / 80);
    const int notes = b.notes.empty() ? 0 : static_cast<int>(b.notes.size()) * l.line + pad / 2;
    l.height = l.top + l.square * b.ranks + coord + notes;
    return l;
}

bool on_board(const BoardView& b, Square s) {
    return s.valid() && s.file < b.files && s.rank < b.ranks;
}

void fill_rect(cairo_t* cr, double x, double y, double w, double h, const Rgba& c) {
    set_source(cr, c);
    cairo_rectangle(cr, x, y, w, h);
    cairo_fill(cr);
}

// Writes `text` so that it fits `max_width`, shrinking the font when it must.
void show_text_fitted(cairo_t* cr, const std::string& text, double x, double baseline, double size,
                      double max_width) {
    cairo_set_font_size(cr, size);
    cairo_text_extents_t ext;
    cairo_text_extents(cr, text.c_str(), &ext);
    if (ext.x_advance > max_width && ext.x_advance > 0)
        cairo_set_font_size(cr, size * max_width / ext.x_advance);
    cairo_move_to(cr, x, baseline);
    cairo_show_text(cr, text.c_str());
}

void show_text_centred(cairo_t* cr, const std::string& text, double cx, double cy) {
    cairo_text_extents_t ext;
    cairo_text_extents(cr, text.c_str(), &ext);
    cairo_move_to(cr, cx - ext.x_bearing - ext.width / 2, cy - ext.y_bearing - ext.height / 2);
    cairo_show_text(cr, text.c_str());
}

void draw_caption(cairo_t* cr, const BoardView& b, const PngOptions& o, const Layout& l) {
    const double size = l.caption * 0.5;
    const double baseline = l.caption * 0.68;
    const double margin = l.left;
    std::string title = o.title;
    if (title.empty())
        if (const rules::Variant* v = rules::find_variant(b.variant))
            title = v->info().title;
    cairo_set_font_size(cr, size * 0.85);
    cairo_text_extents_t title_ext{};
    if (!title.empty())
        cairo_text_extents(cr, title.c_str(), &title_ext);
    double room = l.width - 2 * margin;
    if (!title.empty() && title_ext.x_advance < room * 0.4) {
        set_source(cr, dim_ink);
        cairo_move_to(cr, l.width - margin - title_ext.x_advance, baseline);
        cairo_show_text(cr, title.c_str());
        room -= title_ext.x_advance + size;
    }
    set_source(cr, caption_ink);
    show_text_fitted(cr, png_caption(b, o), margin, baseline, size, room);
}

void draw_squares(cairo_t* cr, const BoardView& b, const Layout& l) {
    for (int r = 0; r < b.ranks; ++r)
        for (int f = 0; f < b.files; ++f)
            fill_rect(cr, l.x(f), l.y(r), l.square, l.square, square_colour(b, Square(f, r)));
    for (Square s : {b.last_from, b.last_to})
        if (on_board(b, s))
            fill_rect(cr, l.x(s.file), l.y(s.rank), l.square, l.square, last_move);
    if (on_board(b, b.check)) {
        const double cx = l.x(b.check.file) + l.square / 2.0;
        const double cy = l.y(b.check.rank) + l.square / 2.0;
        cairo_pattern_t* glow = cairo_pattern_create_radial(cx, cy, 0, cx, cy, l.square * 0.62);
        cairo_pattern_add_color_stop_rgba(glow, 0.0, 0.95, 0.05, 0.05, 1.0);
        cairo_pattern_add_color_stop_rgba(glow, 0.45, 0.90, 0.10, 0.10, 0.75);
        cairo_pattern_add_color_stop_rgba(glow, 1.0, 0.80, 0.10, 0.10, 0.0);
        cairo_set_source(cr, glow);
        cairo_rectangle(cr, l.x(b.check.file), l.y(b.check.rank), l.square, l.square);
        cairo_fill(cr);
        cairo_pattern_destroy(glow);
    }
}

void draw_coordinates(cairo_t* cr, const BoardView& b, const Layout& l) {
    cairo_set_font_size(cr, std::max(8.0, l.width / 37.0));
    set_source(cr, dim_ink);
    const double bottom = l.top + l.square * b.ranks;
    const double gap = l.left; // the margin the coordinates live in
    for (int f = 0; f < b.files; ++f) {
        const std::string name(1, static_cast<char>('a' + f));
        show_text_centred(cr, name, l.x(f) + l.square / 2.0, bottom + gap * 0.45);
    }
    for (int r = 0; r < b.ranks; ++r)
        show_text_centred(cr, std::to_string(r + 1), gap * 0.5, l.y(r) + l.square / 2.0);
}

// A pale figure: faded and cold. A lit one stands in a golden glow, is less faded and wears
// a small star, so "this one can capture" is visible at a glance.
void draw_pale(cairo_t* cr, const Figure& f, const BoardView& b, int x, int y, int size) {
    const bool invoked = f.style == FigureStyle::PaleLit;
    if (invoked) {
        const double cx = x + size / 2, cy = y + size / 2;
        cairo_pattern_t* glow = cairo_pattern_create_radial(cx, cy, 0, cx, cy, size * 0.55);
        cairo_pattern_add_color_stop_rgba(glow, 0.0, 1.0, 0.88, 0.40, 0.85);
        cairo_pattern_add_color_stop_rgba(glow, 1.0, 1.0, 0.80, 0.30, 0.0);
        cairo_set_source(cr, glow);
        cairo_arc(cr, cx, cy, size * 0.55, 0, 2 * M_PI);
        cairo_fill(cr);
        cairo_pattern_destroy(glow);
    }
    paint_piece(cr, f.piece, b.variant, x, y, size, Look::Pale, invoked ? 0.8 : 0.5);
    if (invoked) {
        // A four-pointed star in the box's top right corner.
        const double r = size * 0.13, cx = x + size - r * 1.1, cy = y + r * 1.1;
        cairo_new_path(cr);
        for (int i = 0; i < 8; ++i) {
            const double a = i * M_PI / 4 - M_PI / 2;
            const double d = i % 2 == 0 ? r : r * 0.38;
            cairo_line_to(cr, cx + d * std::cos(a), cy + d * std::sin(a));
        }
        cairo_close_path(cr);
        set_source(cr, {1.0, 0.78, 0.15, 1});
        cairo_fill_preserve(cr);
        set_source(cr, {0.35, 0.22, 0.0, 1});
        cairo_set_line_width(cr, std::max(1.0, size * 0.02));
        cairo_stroke(cr);
    }
}

void draw_hp_bar(cairo_t* cr, const Figure& f, double x, double y, double s) {
    const double frac = std::clamp(static_cast<double>(f.hp) / f.max_hp, 0.0, 1.0);
    const double bx = x + s * 0.12, by = y + s * 0.86, bw = s * 0.76, bh = std::max(3.0, s * 0.085);
    fill_rect(cr, bx - 1, by - 1, bw + 2, bh + 2, {0.08, 0.08, 0.10, 0.85});
    const Rgba colour = frac > 0.5    ? Rgba{0.30, 0.80, 0.30, 1}
                        : frac > 0.25 ? Rgba{0.95, 0.70, 0.15, 1}
                                      : Rgba{0.90, 0.20, 0.15, 1};
    fill_rect(cr, bx, by, bw * frac, bh, colour);
    // The points themselves, for the dice target: small, in the square's top left corner.
    const std::string points = std::to_string(f.hp);
    cairo_set_font_size(cr, s * 0.22);
    cairo_text_extents_t ext;
    cairo_text_extents(cr, points.c_str(), &ext);
    const double pw = ext.x_advance + s * 0.08, ph = s * 0.26;
    fill_rect(cr, x + 1, y + 1, pw, ph, {0.08, 0.08, 0.10, 0.80});
    set_source(cr, {1, 1, 1, 1});
    cairo_move_to(cr, x + 1 + s * 0.04, y + 1 + ph * 0.80);
    cairo_show_text(cr, points.c_str());
}

// Prison bars across the square.
void draw_bars(cairo_t* cr, double x, double y, double s) {
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo_new_path(cr);
    for (double t : {0.2, 0.4, 0.6, 0.8}) {
        cairo_move_to(cr, x + s * t, y + s * 0.08);
        cairo_line_to(cr, x + s * t, y + s * 0.92);
    }
    cairo_move_to(cr, x + s * 0.12, y + s * 0.08);
    cairo_line_to(cr, x + s * 0.88, y + s * 0.08);
    cairo_move_to(cr, x + s * 0.12, y + s * 0.92);
    cairo_line_to(cr, x + s * 0.88, y + s * 0.92);
    set_source(cr, {0.95, 0.95, 0.95, 0.9});
    cairo_set_line_width(cr, s * 0.075);
    cairo_stroke_preserve(cr);
    set_source(cr, {0.20, 0.20, 0.24, 0.95});
    cairo_set_line_width(cr, s * 0.045);
    cairo_stroke(cr);
}

bool is_pale(const Figure& f) {
    return f.style == FigureStyle::Pale || f.style == FigureStyle::PaleLit;
}

void draw_cell(cairo_t* cr, const BoardView& b, const rules::Cell& cell, int x, int y, int s) {
    const Figure* main = nullptr;
    for (const Figure& f : cell.figures)
        if (!is_pale(f) && f.piece.kind != rules::PieceKind::None) {
            main = &f;
            break;
        }
    // A piece only its owner sees is in its owner's private view alone, faded as a reminder.
    if (main != nullptr)
        paint_piece(cr, main->piece, b.variant, x, y, s, Look::Living,
                    main->style == FigureStyle::Secret ? 0.75 : 1.0);
    // A pale figure alone has the square to itself. One sharing the square with a living piece sits
    // small in the top right corner on a pale disc, above the piece so it stays visible.
    bool whole_square_taken = main != nullptr;
    for (const Figure& f : cell.figures) {
        if (!is_pale(f))
            continue;
        if (!whole_square_taken) {
            draw_pale(cr, f, b, x, y, s);
            whole_square_taken = true;
            continue;
        }
        const int ss = s * 46 / 100, sx = x + s - ss;
        cairo_new_path(cr);
        cairo_arc(cr, sx + ss / 2.0, y + ss / 2.0, ss * 0.5, 0, 2 * M_PI);
        set_source(cr, {0.93, 0.97, 1.0, 0.7});
        cairo_fill(cr);
        draw_pale(cr, f, b, sx, y, ss);
        break; // the rules allow one pale figure per square; a second would hide under it
    }
    if (main == nullptr)
        return;
    if (main->imprisoned)
        draw_bars(cr, x, y, s);
    if (main->max_hp > 0 && main->hp < main->max_hp)
        draw_hp_bar(cr, *main, x, y, s);
}

void draw_notes(cairo_t* cr, const BoardView& b, const Layout& l, const Say& say) {
    set_source(cr, dim_ink);
    double baseline =
        l.top + l.square * b.ranks +
        (l.height - l.top - l.square * b.ranks - l.line * static_cast<double>(b.notes.size()));
    for (const std::string& note : said_notes(say, b)) {
        baseline += l.line;
        show_text_fitted(cr, note, l.left, baseline - l.line * 0.3, l.line * 0.72,
                         l.width - 2.0 * l.left);
    }
}

void check_board(const BoardView& b, const PngOptions& o) {
    if (b.files < 1 || b.files > rules::max_files || b.ranks < 1 || b.ranks > rules::max_ranks)
        throw std::invalid_argument("render_png: a board must be 1..10 squares each way");
    if (b.cells.size() != static_cast<std::size_t>(b.files * b.ranks))
        throw std::invalid_argument("render_png: the board's cells do not match its size");
    if (o.width_px < 160 || o.width_px > 2000)
        throw std::invalid_argument("render_png: the width must be 160..2000 px");
}

} // namespace

std::string png_caption(const BoardView& board, const PngOptions& options) {
    std::string text = options.game_label;
    if (!text.empty())
        text += " \u00b7 ";
    using rules::N_;
    using rules::phrase;
    text += said(options.say,
                 phrase(N_("move {number}"), {{"number", std::to_string(board.move_number)}})) +
            " \u00b7 ";
    if (!options.ended.empty())
        return text + options.ended;
    if (!options.deciding.empty())
        return text + options.deciding;
    if (board.deciding.empty())
        return text + said(options.say, phrase(N_("game over")));
    std::array<std::string, 2> names = options.seat_names;
    if (names[0].empty() || names[1].empty()) {
        names = {"White", "Black"};
        if (const rules::Variant* v = rules::find_variant(board.variant))
            names = v->info().seat_names;
    }
    const auto seat = [&](std::size_t i) { return rules::Phrase{"seat", names[i], {}}; };
    if (board.deciding.size() > 1)
        return text + said(options.say, phrase(N_("{first} and {second} to decide"),
                                               {{"first", seat(0)}, {"second", seat(1)}}));
    return text + said(options.say, phrase(N_("{seat} to move"),
                                           {{"seat", seat(static_cast<std::size_t>(
                                                         rules::index(board.deciding.front())))}}));
}

PngBytes render_png(const BoardView& board, const PngOptions& options) {
    check_board(board, options);
    const Layout l = make_layout(board, options);
    // RGB24: no alpha channel in the file, which keeps the PNG about a quarter smaller.
    Surface surface(cairo_image_surface_create(CAIRO_FORMAT_RGB24, l.width, l.height));
    Context context(cairo_create(surface.get()));
    cairo_t* cr = context.get();
    if (cairo_status(cr) != CAIRO_STATUS_SUCCESS)
        throw std::runtime_error(std::string("render_png: ") +
                                 cairo_status_to_string(cairo_status(cr)));

    set_board_font_options(cr);
    cairo_set_font_face(cr, board_font());

    set_source(cr, background);
    cairo_paint(cr);
    draw_caption(cr, board, options, l);
    draw_squares(cr, board, l);
    if (options.coordinates)
        draw_coordinates(cr, board, l);
    for (int r = 0; r < board.ranks; ++r)
        for (int f = 0; f < board.files; ++f) {
            const rules::Cell& cell = board.at(Square(f, r));
            if (!cell.figures.empty())
                draw_cell(cr, board, cell, l.x(f), l.y(r), l.square);
        }
    cairo_set_font_face(cr, board_font());
    draw_notes(cr, board, l, options.say);

    if (cairo_status(cr) != CAIRO_STATUS_SUCCESS)
        throw std::runtime_error(std::string("render_png: ") +
                                 cairo_status_to_string(cairo_status(cr)));
    return encode_png(surface.get());
}

PngBytes render_png(const rules::PublicView& view, const PngOptions& options) {
    return render_png(view.board(), options);
}

PngBytes render_png(const rules::SeatView& view, const PngOptions& options) {
    return render_png(view.board(), options);
}

} // namespace ghostpost::render
