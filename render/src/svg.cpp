// SVG boards. The same layout and colours as the PNG boards (png.cpp), in SVG user units: a
// square is 60 units, the caption bar 36, the coordinates' margin 24, a line of notes 22. The
// chess figures are the Unicode figurines, which every browser font has; the pieces no font has
// (the pieces variants add) are their letters in a disc. The PNG's own
// vector art lives in cairo code and does not carry over to markup.
#include "ghostpost/render/svg.h"

#include "ghostpost/render/png.h"
#include "ghostpost/rules/registry.h"

#include <cstdio>
#include <stdexcept>
#include <string>

namespace ghostpost::render {

using rules::BoardView;
using rules::Figure;
using rules::FigureStyle;
using rules::PieceKind;
using rules::Seat;
using rules::Square;

namespace {

constexpr int square_size = 60;
constexpr int caption_height = 36;
constexpr int margin = 24;
constexpr int note_height = 22;

// The PNG's square colours (png.cpp) as hex, and the tints as the same mixes of them.
const char* square_fill(const BoardView& b, Square s) {
    switch (b.at(s).tint) {
    case rules::Tint::Light100:
        return "#e7e2d4";
    case rules::Tint::Light75:
        return "#c9cac8";
    case rules::Tint::Neutral:
        return "#b2b9bd";
    case rules::Tint::Dark75:
        return "#97a4b1";
    case rules::Tint::Dark100:
        return "#7d8fa6";
    case rules::Tint::Chequer:
        break;
    }
    return (s.file + s.rank) % 2 == 0 ? "#7d8fa6" : "#e7e2d4"; // a1 is dark
}

// The solid figurines (U+265A..U+265F), filled white or black, so both sides have the same
// shapes whatever the font does with the outlined ones.
const char* figurine(PieceKind k) {
    switch (k) {
    case PieceKind::King:
        return "\u265a";
    case PieceKind::Queen:
        return "\u265b";
    case PieceKind::Rook:
        return "\u265c";
    case PieceKind::Bishop:
        return "\u265d";
    case PieceKind::Knight:
        return "\u265e";
    case PieceKind::Pawn:
        return "\u265f";
    default:
        return nullptr;
    }
}

char letter(const rules::Piece& p) {
    const char c = rules::piece_letter(p.kind);
    return p.seat == Seat::White ? c : static_cast<char>(c - 'A' + 'a');
}

bool is_pale(const Figure& f) {
    return f.style == FigureStyle::Pale || f.style == FigureStyle::PaleLit;
}

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    std::string s = buf;
    if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0)
        s.resize(s.size() - 2);
    return s;
}

struct Layout {
    int files = 8, ranks = 8;
    bool flip = false;
    int left = margin, top = caption_height;
    double x(int file) const { return left + square_size * (flip ? files - 1 - file : file); }
    double y(int rank) const { return top + square_size * (flip ? rank : ranks - 1 - rank); }
};

// One figure drawn in the box at (x, y) of side `s`; `opacity` fades pale figures.
void draw_figure(std::string& out, const Figure& f, double x, double y, double s, double opacity) {
    const bool white = f.piece.seat == Seat::White;
    const char* fill = white ? "#fafaf5" : "#1c1c20";
    const char* ink = white ? "#1c1c20" : "#fafaf5";
    std::string group = "<g";
    if (opacity < 1)
        group += " opacity=\"" + num(opacity) + "\"";
    out += group + ">";
    if (const char* glyph = figurine(f.piece.kind)) {
        out += "<text x=\"" + num(x + s / 2) + "\" y=\"" + num(y + s * 0.80) + "\" font-size=\"" +
               num(s * 0.86) + "\" text-anchor=\"middle\" fill=\"" + fill + "\" stroke=\"" + ink +
               "\" stroke-width=\"" + num(s / 40) + "\">" + glyph + "</text>";
    } else {
        out += "<circle cx=\"" + num(x + s / 2) + "\" cy=\"" + num(y + s / 2) + "\" r=\"" +
               num(s * 0.38) + "\" fill=\"" + fill + "\" stroke=\"" + ink + "\" stroke-width=\"" +
               num(s / 25) + "\"/><text x=\"" + num(x + s / 2) + "\" y=\"" + num(y + s * 0.64) +
               "\" font-size=\"" + num(s * 0.42) +
               "\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"" + ink + "\">" +
               std::string(1, rules::piece_letter(f.piece.kind)) + "</text>";
    }
    out += "</g>";
}

void draw_cell(std::string& out, const rules::Cell& cell, double x, double y) {
    const double s = square_size;
    const Figure* main = nullptr;
    for (const Figure& f : cell.figures)
        if (!is_pale(f) && f.piece.kind != PieceKind::None) {
            main = &f;
            break;
        }
    if (main != nullptr)
        draw_figure(out, *main, x, y, s, main->style == FigureStyle::Secret ? 0.75 : 1.0);
    // As on the PNG: a pale figure alone has the square; beside a living piece it sits small in
    // the top right corner. A lit one glows gold.
    for (const Figure& f : cell.figures) {
        if (!is_pale(f))
            continue;
        const bool invoked = f.style == FigureStyle::PaleLit;
        const double ss = main != nullptr ? s * 0.46 : s;
        const double sx = main != nullptr ? x + s - ss : x;
        if (invoked)
            out += "<circle cx=\"" + num(sx + ss / 2) + "\" cy=\"" + num(y + ss / 2) + "\" r=\"" +
                   num(ss * 0.5) + "\" fill=\"#ffd84d\" opacity=\"0.6\"/>";
        draw_figure(out, f, sx, y, ss, invoked ? 0.8 : 0.5);
        break;
    }
    if (main == nullptr)
        return;
    if (main->imprisoned)
        for (double t : {0.2, 0.4, 0.6, 0.8})
            out += "<line x1=\"" + num(x + s * t) + "\" y1=\"" + num(y + s * 0.08) + "\" x2=\"" +
                   num(x + s * t) + "\" y2=\"" + num(y + s * 0.92) +
                   "\" stroke=\"#333340\" stroke-width=\"" + num(s * 0.045) + "\"/>";
    if (main->max_hp > 0 && main->hp < main->max_hp) {
        const double frac = static_cast<double>(main->hp) / main->max_hp;
        const char* colour = frac > 0.5 ? "#4dcc4d" : frac > 0.25 ? "#f2b226" : "#e63326";
        out += "<rect x=\"" + num(x + s * 0.12) + "\" y=\"" + num(y + s * 0.86) + "\" width=\"" +
               num(s * 0.76 * (frac < 0 ? 0 : frac)) + "\" height=\"" + num(s * 0.085) +
               "\" fill=\"" + colour + "\"/><text x=\"" + num(x + 3) + "\" y=\"" +
               num(y + s * 0.22) + "\" font-size=\"" + num(s * 0.2) + "\" fill=\"#fff\" " +
               "stroke=\"#000\" stroke-width=\"0.6\">" + std::to_string(main->hp) + "</text>";
    }
}

void check_board(const BoardView& b) {
    if (b.files < 1 || b.files > rules::max_files || b.ranks < 1 || b.ranks > rules::max_ranks)
        throw std::invalid_argument("render_svg: a board must be 1..10 squares each way");
    if (b.cells.size() != static_cast<std::size_t>(b.files * b.ranks))
        throw std::invalid_argument("render_svg: the board's cells do not match its size");
}

} // namespace

std::string xml_escape(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

std::string render_svg(const BoardView& board, const SvgOptions& options) {
    check_board(board);
    Layout l;
    l.files = board.files;
    l.ranks = board.ranks;
    l.flip = options.flip;
    l.left = options.coordinates ? margin : 6;
    const int bottom = options.coordinates ? margin : 6;
    const int width = l.left + square_size * board.files + 6;
    const int height = caption_height + square_size * board.ranks + bottom +
                       note_height * static_cast<int>(board.notes.size());

    std::string out;
    out.reserve(8192);
    out += "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"board\" viewBox=\"0 0 " +
           std::to_string(width) + " " + std::to_string(height) +
           "\" font-family=\"DejaVu Sans, sans-serif\" data-files=\"" +
           std::to_string(board.files) + "\" data-ranks=\"" + std::to_string(board.ranks) +
           "\" data-ply=\"" + std::to_string(board.ply) + "\">";
    out += "<rect width=\"100%\" height=\"100%\" fill=\"#2a2e37\"/>";

    PngOptions caption;
    caption.game_label = options.game_label;
    caption.ended = options.ended;
    caption.seat_names = options.seat_names;
    caption.say = options.say;
    out += "<text class=\"caption\" x=\"" + std::to_string(l.left) +
           "\" y=\"24\" font-size=\"17\" fill=\"#f5f5f0\">" +
           xml_escape(png_caption(board, caption)) + "</text>";

    for (int r = 0; r < board.ranks; ++r)
        for (int f = 0; f < board.files; ++f) {
            const Square s(f, r);
            const rules::Cell& cell = board.at(s);
            std::string pieces;
            for (const Figure& fig : cell.figures)
                if (fig.piece.kind != PieceKind::None)
                    pieces += letter(fig.piece);
            const double x = l.x(f), y = l.y(r);
            out += "<g class=\"sq\" data-square=\"" + s.name() + "\" data-piece=\"" + pieces +
                   "\"><rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" +
                   std::to_string(square_size) + "\" height=\"" + std::to_string(square_size) +
                   "\" fill=\"" + square_fill(board, s) + "\"/>";
            if (s == board.last_from || s == board.last_to)
                out += "<rect class=\"last\" x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" +
                       std::to_string(square_size) + "\" height=\"" + std::to_string(square_size) +
                       "\" fill=\"#ffd138\" opacity=\"0.5\"/>";
            if (s == board.check)
                out += "<circle class=\"check\" cx=\"" + num(x + square_size / 2.0) + "\" cy=\"" +
                       num(y + square_size / 2.0) + "\" r=\"" + num(square_size * 0.45) +
                       "\" fill=\"#e61a1a\" opacity=\"0.6\"/>";
            draw_cell(out, cell, x, y);
            out += "</g>";
        }

    if (options.coordinates) {
        const int base = caption_height + square_size * board.ranks;
        for (int f = 0; f < board.files; ++f)
            out += "<text x=\"" + num(l.x(f) + square_size / 2.0) + "\" y=\"" +
                   std::to_string(base + 17) +
                   "\" font-size=\"13\" text-anchor=\"middle\" fill=\"#a8b3c2\">" +
                   std::string(1, static_cast<char>('a' + f)) + "</text>";
        for (int r = 0; r < board.ranks; ++r)
            out += "<text x=\"12\" y=\"" + num(l.y(r) + square_size / 2.0 + 5) +
                   "\" font-size=\"13\" text-anchor=\"middle\" fill=\"#a8b3c2\">" +
                   std::to_string(r + 1) + "</text>";
    }
    int baseline = caption_height + square_size * board.ranks + bottom;
    for (const std::string& note : said_notes(options.say, board)) {
        baseline += note_height;
        out += "<text class=\"note\" x=\"" + std::to_string(l.left) + "\" y=\"" +
               std::to_string(baseline - 6) + "\" font-size=\"14\" fill=\"#a8b3c2\">" +
               xml_escape(note) + "</text>";
    }
    out += "</svg>";
    return out;
}

std::string render_svg(const rules::PublicView& view, const SvgOptions& options) {
    return render_svg(view.board(), options);
}

std::string render_svg(const rules::SeatView& view, const SvgOptions& options) {
    return render_svg(view.board(), options);
}

} // namespace ghostpost::render
