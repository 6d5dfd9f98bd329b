// Piece art. FIDE pieces are DejaVu Sans figurines (fonts-dejavu-core, a free font): the solid
// "black" figurine gives the silhouette, the outlined "white" one the inner lines. The pieces
// no font draws are drawn as their variants describe them (rules::Drawing, in a unit box).
#include "pieces.h"

#include "ghostpost/rules/registry.h"

#include <cairo-ft.h>
#include <ft2build.h>
#include FT_FREETYPE_H

#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <tuple>

namespace ghostpost::render::detail {

using rules::PieceKind;
using rules::Seat;

namespace {

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

Rgba paint_of(const rules::Paint& paint, const Palette& p) {
    switch (paint.role) {
    case rules::Paint::Role::Body:
        return p.body;
    case rules::Paint::Role::Ink:
        return p.ink;
    case rules::Paint::Role::Accent:
        return p.accent;
    case rules::Paint::Role::Fixed:
        break;
    }
    return {paint.r, paint.g, paint.b, paint.a};
}

// Draws a variant's description of a piece (rules::Drawing), step by step, in the seat's colours.
void draw_art(cairo_t* cr, const rules::Drawing& art, const Palette& p) {
    using Op = rules::DrawStep::Op;
    for (const rules::DrawStep& s : art.steps()) {
        const double* v = s.v;
        switch (s.op) {
        case Op::NewPath:
            cairo_new_path(cr);
            break;
        case Op::MoveTo:
            cairo_move_to(cr, v[0], v[1]);
            break;
        case Op::LineTo:
            cairo_line_to(cr, v[0], v[1]);
            break;
        case Op::CurveTo:
            cairo_curve_to(cr, v[0], v[1], v[2], v[3], v[4], v[5]);
            break;
        case Op::Arc:
            cairo_arc(cr, v[0], v[1], v[2], v[3], v[4]);
            break;
        case Op::ClosePath:
            cairo_close_path(cr);
            break;
        case Op::Save:
            cairo_save(cr);
            break;
        case Op::Restore:
            cairo_restore(cr);
            break;
        case Op::Translate:
            cairo_translate(cr, v[0], v[1]);
            break;
        case Op::Scale:
            cairo_scale(cr, v[0], v[1]);
            break;
        case Op::Source:
            set_source(cr, paint_of(s.paint, p));
            break;
        case Op::LineWidth:
            cairo_set_line_width(cr, v[0]);
            break;
        case Op::RoundJoin:
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
            break;
        case Op::RoundCap:
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
            break;
        case Op::EvenOdd:
            cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD);
            break;
        case Op::Winding:
            cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING);
            break;
        case Op::Dash:
            cairo_set_dash(cr, v, 2, 0);
            break;
        case Op::NoDash:
            cairo_set_dash(cr, nullptr, 0, 0);
            break;
        case Op::Fill:
            cairo_fill(cr);
            break;
        case Op::FillPreserve:
            cairo_fill_preserve(cr);
            break;
        case Op::Stroke:
            cairo_stroke(cr);
            break;
        case Op::StrokePreserve:
            cairo_stroke_preserve(cr);
            break;
        }
    }
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

Palette pale_palette(Seat seat) {
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

const rules::Drawing* variant_art(PieceKind kind, std::string_view variant) {
    if (const rules::Variant* v = rules::find_variant(variant))
        for (const rules::PieceArt& a : v->info().art)
            if (a.kind == kind)
                return a.art;
    if (const rules::ExtraPiece* extra = rules::extra_piece(kind))
        return extra->art;
    return nullptr;
}

void draw_piece(cairo_t* cr, rules::Piece piece, std::string_view variant, double x, double y,
                double size, const Palette& palette) {
    if (piece.kind == PieceKind::None)
        return;
    const rules::Drawing* const art = variant_art(piece.kind, variant);
    if (art == nullptr && solid_figurine(piece.kind) != nullptr) {
        cairo_save(cr);
        draw_figurine(cr, piece.kind, piece.seat, x, y, size, palette);
        cairo_restore(cr);
        return;
    }
    cairo_save(cr);
    cairo_translate(cr, x + size / 2, y + size / 2);
    cairo_scale(cr, size * 0.9, size * 0.9);
    if (art != nullptr)
        draw_art(cr, *art, palette);
    cairo_restore(cr);
}

namespace {

struct SpriteDeleter {
    void operator()(cairo_surface_t* s) const { cairo_surface_destroy(s); }
};
using Sprite = std::shared_ptr<cairo_surface_t>;

Sprite make_sprite(rules::Piece piece, std::string_view variant, int size, Look look) {
    Sprite sprite(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, size, size), SpriteDeleter{});
    cairo_t* cr = cairo_create(sprite.get());
    set_board_font_options(cr);
    const Palette palette =
        look == Look::Living ? living_palette(piece.seat) : pale_palette(piece.seat);
    draw_piece(cr, piece, variant, 0, 0, size, palette);
    const cairo_status_t st = cairo_status(cr);
    cairo_destroy(cr);
    if (st != CAIRO_STATUS_SUCCESS)
        throw std::runtime_error(std::string("piece sprite: ") + cairo_status_to_string(st));
    cairo_surface_flush(sprite.get());
    return sprite;
}

Sprite cached_sprite(rules::Piece piece, std::string_view variant, int size, Look look) {
    // The drawing a piece gets (none for a figurine) tells sprites of one kind apart.
    using Key = std::tuple<int, std::size_t, const rules::Drawing*, int, int>;
    static std::mutex mutex;
    static std::map<Key, Sprite> sprites;
    const Key key{static_cast<int>(piece.kind), index(piece.seat), variant_art(piece.kind, variant),
                  size, static_cast<int>(look)};
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
