// Piece art. FIDE pieces are DejaVu Sans figurines (fonts-dejavu-core, a free font): the solid
// "black" figurine gives the silhouette, the outlined "white" one the inner lines. The pieces
// no font draws are our own paths in a unit box ([-0.5, 0.5] both ways, y down), each with a
// silhouette that differs from every chess piece: a sheet ghost, an antenna, a horned helmet,
// a mask.
#include "pieces.h"

#include "ghostpost/rules/registry.h"

#include <cairo-ft.h>
#include <ft2build.h>
#include FT_FREETYPE_H

#include <map>
#include <memory>
#include <mutex>
#include <numbers>
#include <stdexcept>
#include <tuple>

namespace ghostpost::render::detail {

using rules::PieceKind;
using rules::Seat;

namespace {

constexpr double pi = std::numbers::pi;

// Code points of the solid (black) figurines; the outlined ones are 6 below.
const char* solid_figurine(PieceKind k) {
    switch (k) {
    case PieceKind::King:
        return "\u265A";
    case PieceKind::Queen:
        return "\u265B";
    case PieceKind::Rook:
        return "\u265C";
    case PieceKind::Bishop:
        return "\u265D";
    case PieceKind::Knight:
        return "\u265E";
    case PieceKind::Pawn:
        return "\u265F";
    default:
        return nullptr;
    }
}

const char* outlined_figurine(PieceKind k) {
    switch (k) {
    case PieceKind::King:
        return "\u2654";
    case PieceKind::Queen:
        return "\u2655";
    case PieceKind::Rook:
        return "\u2656";
    case PieceKind::Bishop:
        return "\u2657";
    case PieceKind::Knight:
        return "\u2658";
    case PieceKind::Pawn:
        return "\u2659";
    default:
        return nullptr;
    }
}

// Fills every closed contour of the current path on its own, holes included: the outline of
// the whole figure. (DejaVu's solid king has open crown arches that would let the square show.)
void fill_silhouette(cairo_t* cr) {
    cairo_path_t* path = cairo_copy_path(cr);
    cairo_new_path(cr);
    for (int i = 0; i < path->num_data; i += path->data[i].header.length) {
        const cairo_path_data_t* d = &path->data[i];
        switch (d->header.type) {
        case CAIRO_PATH_MOVE_TO:
            cairo_fill(cr);
            cairo_move_to(cr, d[1].point.x, d[1].point.y);
            break;
        case CAIRO_PATH_LINE_TO:
            cairo_line_to(cr, d[1].point.x, d[1].point.y);
            break;
        case CAIRO_PATH_CURVE_TO:
            cairo_curve_to(cr, d[1].point.x, d[1].point.y, d[2].point.x, d[2].point.y, d[3].point.x,
                           d[3].point.y);
            break;
        case CAIRO_PATH_CLOSE_PATH:
            cairo_close_path(cr);
            break;
        }
    }
    cairo_fill(cr);
    cairo_path_destroy(path);
}

void draw_figurine(cairo_t* cr, PieceKind kind, Seat seat, double x, double y, double size,
                   const Palette& p) {
    cairo_set_font_face(cr, board_font());
    cairo_set_font_size(cr, size * 0.98);
    // Centre horizontally on the silhouette's ink; put every piece on one baseline, as printed
    // diagrams do, so a row of pawns stands level.
    cairo_text_extents_t ext;
    cairo_text_extents(cr, solid_figurine(kind), &ext);
    const double gx = x + size / 2 - (ext.x_bearing + ext.width / 2);
    const double gy = y + size * 0.86;

    // A rim in the ink colour keeps the piece clear of any square colour.
    cairo_move_to(cr, gx, gy);
    cairo_text_path(cr, solid_figurine(kind));
    set_source(cr, p.ink);
    cairo_set_line_width(cr, size * (seat == Seat::White ? 0.03 : 0.05));
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_stroke_preserve(cr);
    if (seat == Seat::White) {
        set_source(cr, p.body);
        fill_silhouette(cr);
        // White pieces take their inner lines from the outlined figurine.
        cairo_move_to(cr, gx, gy);
        cairo_text_path(cr, outlined_figurine(kind));
        set_source(cr, p.ink);
        cairo_fill(cr);
        return;
    }
    // Black pieces: the solid figurine over a grey silhouette, so its open details show grey
    // whatever the square.
    set_source(cr, {0.45 * p.ink.r, 0.45 * p.ink.g, 0.45 * p.ink.b, p.ink.a});
    fill_silhouette(cr);
    cairo_move_to(cr, gx, gy);
    cairo_text_path(cr, solid_figurine(kind));
    set_source(cr, p.body);
    cairo_fill(cr);
}

// Fills the current path with the body colour and outlines it with the ink colour.
void fill_and_outline(cairo_t* cr, const Rgba& fill, const Rgba& line, double width) {
    set_source(cr, fill);
    cairo_fill_preserve(cr);
    set_source(cr, line);
    cairo_set_line_width(cr, width);
    cairo_stroke(cr);
}

// A line drawn twice, wide in ink and narrow in body colour, so it reads as an outlined bar.
void outlined_stroke(cairo_t* cr, const Palette& p, double width) {
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    set_source(cr, p.ink);
    cairo_set_line_width(cr, width + 0.05);
    cairo_stroke_preserve(cr);
    set_source(cr, p.body);
    cairo_set_line_width(cr, width);
    cairo_stroke(cr);
}

// The sheet ghost: a domed head, straight sides and a scalloped hem, two eyes and a mouth.
void ghost_path(cairo_t* cr) {
    cairo_new_path(cr);
    cairo_arc(cr, 0, -0.10, 0.28, pi, 2 * pi);
    cairo_curve_to(cr, 0.28, 0.10, 0.31, 0.26, 0.34, 0.40);
    // Three scallops from right to left.
    const double xs[] = {0.34, 0.1133, -0.1133, -0.34};
    for (int i = 0; i < 3; ++i) {
        const double a = xs[i], b = xs[i + 1], m = (a + b) / 2;
        cairo_curve_to(cr, a - 0.02, 0.30, m + 0.03, 0.28, m, 0.32);
        cairo_curve_to(cr, m - 0.03, 0.36, b + 0.02, 0.46, b, 0.40);
    }
    cairo_curve_to(cr, -0.31, 0.26, -0.28, 0.10, -0.28, -0.10);
    cairo_close_path(cr);
}

void ghost_face(cairo_t* cr, const Palette& p) {
    set_source(cr, p.ink);
    for (double ex : {-0.10, 0.10}) {
        cairo_save(cr);
        cairo_translate(cr, ex, -0.11);
        cairo_scale(cr, 0.055, 0.085);
        cairo_arc(cr, 0, 0, 1, 0, 2 * pi);
        cairo_restore(cr);
        cairo_fill(cr);
    }
    cairo_save(cr);
    cairo_translate(cr, 0, 0.05);
    cairo_scale(cr, 0.05, 0.065);
    cairo_arc(cr, 0, 0, 1, 0, 2 * pi);
    cairo_restore(cr);
    cairo_fill(cr);
}

void draw_ghost(cairo_t* cr, const Palette& p, bool crowned) {
    if (crowned)
        cairo_translate(cr, 0, 0.05); // room for the crown above the head
    ghost_path(cr);
    fill_and_outline(cr, p.body, p.ink, 0.04);
    ghost_face(cr, p);
    if (!crowned)
        return;
    // A crown on the head: the piece is its side's chief (VariantInfo::art).
    cairo_new_path(cr);
    cairo_move_to(cr, -0.17, -0.33);
    cairo_line_to(cr, -0.21, -0.52);
    cairo_line_to(cr, -0.09, -0.42);
    cairo_line_to(cr, 0.00, -0.56);
    cairo_line_to(cr, 0.09, -0.42);
    cairo_line_to(cr, 0.21, -0.52);
    cairo_line_to(cr, 0.17, -0.33);
    cairo_close_path(cr);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    fill_and_outline(cr, p.accent, p.ink, 0.03);
}

// The Relay: a mast on a foot with a ball on top, sending waves both ways.
void draw_relay(cairo_t* cr, const Palette& p) {
    cairo_new_path(cr);
    cairo_move_to(cr, -0.30, 0.42);
    cairo_line_to(cr, 0.30, 0.42);
    cairo_line_to(cr, 0.22, 0.30);
    cairo_line_to(cr, 0.06, 0.26);
    cairo_line_to(cr, 0.035, -0.10);
    cairo_line_to(cr, -0.035, -0.10);
    cairo_line_to(cr, -0.06, 0.26);
    cairo_line_to(cr, -0.22, 0.30);
    cairo_close_path(cr);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    fill_and_outline(cr, p.body, p.ink, 0.04);

    for (double r : {0.21, 0.34}) {
        cairo_new_path(cr);
        cairo_arc(cr, 0, -0.18, r, -0.75, 0.75);
        outlined_stroke(cr, p, 0.045);
        cairo_new_path(cr);
        cairo_arc(cr, 0, -0.18, r, pi - 0.75, pi + 0.75);
        outlined_stroke(cr, p, 0.045);
    }
    cairo_new_path(cr);
    cairo_arc(cr, 0, -0.18, 0.095, 0, 2 * pi);
    fill_and_outline(cr, p.body, p.ink, 0.04);
}

// The Warlord: a horned helmet with a nose guard on a plinth.
void draw_warlord(cairo_t* cr, const Palette& p) {
    const Rgba horn{0.95, 0.92, 0.82, 1};
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    for (double side : {-1.0, 1.0}) {
        cairo_new_path(cr);
        cairo_move_to(cr, side * 0.20, -0.02);
        cairo_curve_to(cr, side * 0.40, -0.06, side * 0.44, -0.20, side * 0.40, -0.44);
        cairo_curve_to(cr, side * 0.33, -0.26, side * 0.28, -0.20, side * 0.16, -0.18);
        cairo_close_path(cr);
        fill_and_outline(cr, horn, p.ink, 0.035);
    }
    cairo_new_path(cr);
    cairo_arc(cr, 0, 0.02, 0.25, pi, 2 * pi);
    cairo_close_path(cr);
    fill_and_outline(cr, p.body, p.ink, 0.04);
    // Brim, nose guard and plinth as one outline.
    cairo_new_path(cr);
    cairo_move_to(cr, -0.30, 0.02);
    cairo_line_to(cr, 0.30, 0.02);
    cairo_line_to(cr, 0.30, 0.11);
    cairo_line_to(cr, 0.05, 0.11);
    cairo_line_to(cr, 0.05, 0.30);
    cairo_line_to(cr, 0.28, 0.32);
    cairo_line_to(cr, 0.30, 0.42);
    cairo_line_to(cr, -0.30, 0.42);
    cairo_line_to(cr, -0.28, 0.32);
    cairo_line_to(cr, -0.05, 0.30);
    cairo_line_to(cr, -0.05, 0.11);
    cairo_line_to(cr, -0.30, 0.11);
    cairo_close_path(cr);
    fill_and_outline(cr, p.body, p.ink, 0.04);
    // Rivets on the brim.
    set_source(cr, p.ink);
    for (double rx : {-0.20, -0.12, 0.12, 0.20}) {
        cairo_new_path(cr);
        cairo_arc(cr, rx, 0.065, 0.022, 0, 2 * pi);
        cairo_fill(cr);
    }
}

// The Phantom: a theatre mask with eye holes, cut out with the even-odd rule so the square
// shows through.
void draw_phantom(cairo_t* cr, const Palette& p) {
    cairo_new_path(cr);
    cairo_move_to(cr, 0, -0.40);
    cairo_curve_to(cr, 0.26, -0.40, 0.36, -0.24, 0.34, -0.06);
    cairo_curve_to(cr, 0.32, 0.16, 0.16, 0.40, 0, 0.42);
    cairo_curve_to(cr, -0.16, 0.40, -0.32, 0.16, -0.34, -0.06);
    cairo_curve_to(cr, -0.36, -0.24, -0.26, -0.40, 0, -0.40);
    cairo_close_path(cr);
    for (double side : {-1.0, 1.0}) {
        cairo_move_to(cr, side * 0.04, -0.12);
        cairo_curve_to(cr, side * 0.10, -0.22, side * 0.22, -0.22, side * 0.25, -0.12);
        cairo_curve_to(cr, side * 0.20, -0.04, side * 0.08, -0.04, side * 0.04, -0.12);
        cairo_close_path(cr);
    }
    // A mouth slit, turned down.
    cairo_move_to(cr, -0.14, 0.20);
    cairo_curve_to(cr, -0.06, 0.12, 0.06, 0.12, 0.14, 0.20);
    cairo_curve_to(cr, 0.06, 0.16, -0.06, 0.16, -0.14, 0.20);
    cairo_close_path(cr);
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD);
    set_source(cr, p.body);
    cairo_fill_preserve(cr);
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING);
    set_source(cr, p.ink);
    cairo_set_line_width(cr, 0.055);
    const double dash[] = {0.08, 0.05};
    cairo_set_dash(cr, dash, 2, 0);
    cairo_stroke(cr);
    cairo_set_dash(cr, nullptr, 0, 0);
}

} // namespace

void set_source(cairo_t* cr, const Rgba& c) {
    cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a);
}

Palette living_palette(Seat seat) {
    const Rgba gold{0.93, 0.74, 0.20, 1};
    if (seat == Seat::White)
        return {{0.99, 0.99, 0.97, 1}, {0.08, 0.08, 0.10, 1}, gold};
    return {{0.13, 0.13, 0.15, 1}, {0.90, 0.90, 0.88, 1}, gold};
}

Palette spirit_palette(Seat seat) {
    const Rgba gold{0.93, 0.74, 0.20, 1};
    if (seat == Seat::White)
        return {{0.86, 0.95, 1.00, 1}, {0.16, 0.36, 0.55, 1}, gold};
    return {{0.12, 0.22, 0.36, 1}, {0.78, 0.90, 1.00, 1}, gold};
}

namespace {

// The face straight from the font file of fonts-dejavu-core: no fontconfig lookup (whose
// process-wide caches outlive every render) and no substitution by another installed font.
cairo_font_face_t* load_board_font() {
    static const char* const path = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
    FT_Library library = nullptr;
    FT_Face face = nullptr;
    if (FT_Init_FreeType(&library) == 0 && FT_New_Face(library, path, 0, &face) == 0)
        return cairo_ft_font_face_create_for_ft_face(face, 0);
    // Without the package, ask fontconfig for the family by name.
    return cairo_toy_font_face_create("DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
                                      CAIRO_FONT_WEIGHT_NORMAL);
}

} // namespace

cairo_font_face_t* board_font() {
    // Created once and kept for the life of the process (FreeType library and face included):
    // cairo font faces are thread-safe and reference-counted.
    static cairo_font_face_t* const face = load_board_font();
    return face;
}

const rules::PieceArt* variant_art(PieceKind kind, std::string_view variant) {
    if (const rules::Variant* v = rules::find_variant(variant))
        for (const rules::PieceArt& a : v->info().art)
            if (a.kind == kind)
                return &a;
    return nullptr;
}

void draw_piece(cairo_t* cr, rules::Piece piece, std::string_view variant, double x, double y,
                double size, const Palette& palette) {
    if (piece.kind == PieceKind::None)
        return;
    const rules::PieceArt* const own = variant_art(piece.kind, variant);
    const PieceKind k = own != nullptr ? own->drawn_as : piece.kind;
    if (solid_figurine(k) != nullptr && own == nullptr) {
        cairo_save(cr);
        draw_figurine(cr, k, piece.seat, x, y, size, palette);
        cairo_restore(cr);
        return;
    }
    cairo_save(cr);
    cairo_translate(cr, x + size / 2, y + size / 2);
    cairo_scale(cr, size * 0.9, size * 0.9);
    switch (k) {
    case PieceKind::Ghost:
        draw_ghost(cr, palette, own != nullptr && own->crowned);
        break;
    case PieceKind::Relay:
        cairo_scale(cr, 1.1, 1.1);
        draw_relay(cr, palette);
        break;
    case PieceKind::Warlord:
        cairo_scale(cr, 1.12, 1.12);
        draw_warlord(cr, palette);
        break;
    case PieceKind::Phantom:
        draw_phantom(cr, palette);
        break;
    default:
        break;
    }
    cairo_restore(cr);
}

namespace {

struct SpriteDeleter {
    void operator()(cairo_surface_t* s) const { cairo_surface_destroy(s); }
};
using Sprite = std::shared_ptr<cairo_surface_t>;

// Which art a piece gets: 0 its kind's own, else the one its variant gives it.
int art(rules::Piece piece, std::string_view variant) {
    const rules::PieceArt* const own = variant_art(piece.kind, variant);
    return own == nullptr ? 0 : 1 + 2 * static_cast<int>(own->drawn_as) + (own->crowned ? 1 : 0);
}

Sprite make_sprite(rules::Piece piece, std::string_view variant, int size, Look look) {
    Sprite sprite(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, size, size), SpriteDeleter{});
    cairo_t* cr = cairo_create(sprite.get());
    set_board_font_options(cr);
    const Palette palette =
        look == Look::Living ? living_palette(piece.seat) : spirit_palette(piece.seat);
    draw_piece(cr, piece, variant, 0, 0, size, palette);
    const cairo_status_t st = cairo_status(cr);
    cairo_destroy(cr);
    if (st != CAIRO_STATUS_SUCCESS)
        throw std::runtime_error(std::string("piece sprite: ") + cairo_status_to_string(st));
    cairo_surface_flush(sprite.get());
    return sprite;
}

Sprite cached_sprite(rules::Piece piece, std::string_view variant, int size, Look look) {
    using Key = std::tuple<int, int, int, int, int>;
    static std::mutex mutex;
    static std::map<Key, Sprite> sprites;
    const Key key{static_cast<int>(piece.kind), index(piece.seat), art(piece, variant), size,
                  static_cast<int>(look)};
    {
        std::lock_guard lock(mutex);
        if (auto it = sprites.find(key); it != sprites.end())
            return it->second;
    }
    Sprite sprite = make_sprite(piece, variant, size, look);
    std::lock_guard lock(mutex);
    // Each image width needs its own few dozen sprites; a service uses one or two widths, so
    // starting over when the map grows large costs nothing in practice and bounds memory.
    if (sprites.size() >= 1024)
        sprites.clear();
    sprites.emplace(key, sprite);
    return sprite;
}

} // namespace

void set_board_font_options(cairo_t* cr) {
    cairo_font_options_t* fo = cairo_font_options_create();
    cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
    cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
    cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
    cairo_set_font_options(cr, fo);
    cairo_font_options_destroy(fo);
}

void paint_piece(cairo_t* cr, rules::Piece piece, std::string_view variant, int x, int y, int size,
                 Look look, double alpha) {
    if (piece.kind == PieceKind::None || size <= 0)
        return;
    const Sprite sprite = cached_sprite(piece, variant, size, look);
    // Confine the composite to the sprite's box: a bare paint walks the whole image.
    cairo_save(cr);
    cairo_rectangle(cr, x, y, size, size);
    cairo_clip(cr);
    cairo_set_source_surface(cr, sprite.get(), x, y);
    cairo_paint_with_alpha(cr, alpha);
    cairo_restore(cr);
}

} // namespace ghostpost::render::detail
