// The text board convention is documented in text.h.
#include "ghostpost/render/text.h"

#include <cctype>
#include <string_view>

namespace ghostpost::render {

namespace {

using rules::BoardView;
using rules::Figure;
using rules::FigureStyle;
using rules::PieceKind;
using rules::Seat;
using rules::Square;
using rules::Tint;

std::string ascii_letter(const rules::Piece& p) {
    char c = rules::piece_letter(p.kind);
    if (p.seat == Seat::Black)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return std::string(1, c);
}

std::string figurine(const rules::Piece& p) {
    // White king..pawn are U+2654..U+2659, Black U+265A..U+265F, in K Q R B N P order.
    int offset = -1;
    switch (p.kind) {
    case PieceKind::King:
        offset = 0;
        break;
    case PieceKind::Queen:
        offset = 1;
        break;
    case PieceKind::Rook:
        offset = 2;
        break;
    case PieceKind::Bishop:
        offset = 3;
        break;
    case PieceKind::Knight:
        offset = 4;
        break;
    case PieceKind::Pawn:
        offset = 5;
        break;
    default:
        return ascii_letter(p);
    }
    int code = 0x2654 + offset + (p.seat == Seat::Black ? 6 : 0);
    // Three-byte UTF-8 for a code point in U+0800..U+FFFF.
    std::string out;
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
    return out;
}

char style_suffix(FigureStyle s) {
    switch (s) {
    case FigureStyle::Pale:
        return '~';
    case FigureStyle::PaleLit:
        return '^';
    case FigureStyle::Secret:
        return '?';
    case FigureStyle::Living:
        break;
    }
    return ' ';
}

bool damaged(const Figure& f) {
    return f.max_hp > 0 && f.hp < f.max_hp;
}

char suffix(const rules::Cell& cell) {
    const Figure& top = cell.figures.front();
    if (top.imprisoned)
        return '#';
    if (cell.figures.size() > 1)
        return '&';
    if (top.style != FigureStyle::Living)
        return style_suffix(top.style);
    if (damaged(top))
        return '\'';
    return ' ';
}

std::string empty_glyph(Tint t, Glyphs glyphs) {
    switch (t) {
    case Tint::Dark100:
        return "#";
    case Tint::Dark75:
        return "+";
    case Tint::Light75:
        return "-";
    case Tint::Light100:
        return "_";
    case Tint::Neutral:
    case Tint::Chequer:
        break;
    }
    return glyphs == Glyphs::Unicode ? "\u00B7" : ".";
}

std::string file_label(int file) {
    return std::string(1, static_cast<char>('a' + file));
}

std::string rank_label(int rank) {
    std::string n = std::to_string(rank + 1);
    return n.size() < 2 ? " " + n : n;
}

std::string coordinates_line(const BoardView& b, bool flipped, bool wide) {
    std::string line = "   ";
    for (int i = 0; i < b.files; ++i) {
        int file = flipped ? b.files - 1 - i : i;
        line += (wide ? "  " : " ") + file_label(file) + " ";
    }
    return line;
}

void rstrip_into(std::string& out, std::string line) {
    while (!line.empty() && line.back() == ' ')
        line.pop_back();
    out += line;
    out += '\n';
}

// "e4 K 40/100" style lists for the detail lines under the board.
void add_detail(std::string& list, std::string item) {
    list += (list.empty() ? "" : ", ") + item;
}

std::string seat_label(const TextStyle& style, Seat s) {
    return style.seat_names[static_cast<std::size_t>(rules::index(s))];
}

} // namespace

std::string render_board_text(const BoardView& b, const TextStyle& style) {
    const bool flipped = style.bottom == Seat::Black;
    // A mark after a piece (a secret piece's '?', a pale figure's '~') would touch the next
    // square's mark
    // ("f?*p"): such boards give every square a column more.
    bool wide = false;
    for (int rank = 0; rank < b.ranks && !wide; ++rank)
        for (int file = 0; file < b.files && !wide; ++file) {
            const rules::Cell& cell = b.at(Square(file, rank));
            wide = !cell.figures.empty() && cell.figures.front().piece.kind != PieceKind::None &&
                   suffix(cell) != ' ';
        }
    std::string out;
    rstrip_into(out, coordinates_line(b, flipped, wide));
    bool tinted = false;
    std::string under, hit_points, imprisoned;
    for (int r = 0; r < b.ranks; ++r) {
        int rank = flipped ? r : b.ranks - 1 - r;
        std::string line = rank_label(rank) + " ";
        for (int i = 0; i < b.files; ++i) {
            int file = flipped ? b.files - 1 - i : i;
            Square sq(file, rank);
            const rules::Cell& cell = b.at(sq);
            tinted = tinted || cell.tint != Tint::Chequer;
            char mark = ' ';
            if (b.last_to.valid() && (sq == b.last_from || sq == b.last_to))
                mark = '*';
            if (b.check.valid() && sq == b.check)
                mark = '!';
            if (wide)
                line += ' ';
            line += mark;
            if (cell.figures.empty() || cell.figures.front().piece.kind == PieceKind::None) {
                line += empty_glyph(cell.tint, style.glyphs);
                line += ' ';
                continue;
            }
            const Figure& top = cell.figures.front();
            line += style.glyphs == Glyphs::Unicode ? figurine(top.piece) : ascii_letter(top.piece);
            line += suffix(cell);
        }
        rstrip_into(out, line + " " + rank_label(rank));
    }
    rstrip_into(out, coordinates_line(b, flipped, wide));

    // Details, walked from a1 upward so the order does not depend on orientation.
    for (int rank = 0; rank < b.ranks; ++rank) {
        for (int file = 0; file < b.files; ++file) {
            Square sq(file, rank);
            const rules::Cell& cell = b.at(sq);
            if (cell.figures.empty())
                continue;
            const Figure& top = cell.figures.front();
            if (cell.figures.size() > 1) {
                std::string items;
                for (std::size_t i = 1; i < cell.figures.size(); ++i) {
                    char s = style_suffix(cell.figures[i].style);
                    items +=
                        ascii_letter(cell.figures[i].piece) + (s == ' ' ? "" : std::string(1, s));
                }
                add_detail(under, sq.name() + " " + items);
            }
            if (damaged(top))
                add_detail(hit_points, sq.name() + " " + ascii_letter(top.piece) + " " +
                                           std::to_string(top.hp) + "/" +
                                           std::to_string(top.max_hp));
            if (top.imprisoned)
                add_detail(imprisoned, sq.name() + " " + ascii_letter(top.piece));
        }
    }

    using rules::N_;
    using rules::phrase;
    const std::string number = std::to_string(b.move_number);
    const auto seat = [&](Seat s) { return rules::Phrase{"seat", seat_label(style, s), {}}; };
    rules::Phrase status;
    if (!style.ended.empty())
        status = phrase(N_("Move {number}, game over: {ended}."),
                        {{"number", number}, {"ended", style.ended}});
    else if (b.deciding.size() == 1)
        status = phrase(N_("Move {number}, {seat} to move."),
                        {{"number", number}, {"seat", seat(b.deciding.front())}});
    else if (b.deciding.size() > 1)
        status = phrase(
            N_("Move {number}, {first} and {second} to decide."),
            {{"number", number}, {"first", seat(b.deciding[0])}, {"second", seat(b.deciding[1])}});
    else
        status = phrase(N_("Move {number}, the game is over."), {{"number", number}});
    std::string line = said(style.say, status);
    if (b.last_to.valid())
        line += " " + said(style.say,
                           b.last_from.valid()
                               ? phrase(N_("Last move: {from}-{to}."),
                                        {{"from", b.last_from.name()}, {"to", b.last_to.name()}})
                               : phrase(N_("Last move: to {to}."), {{"to", b.last_to.name()}}));
    rstrip_into(out, line);
    if (b.check.valid() && style.ended.empty()) {
        const rules::Cell& king = b.at(b.check);
        rstrip_into(
            out, said(style.say, king.figures.empty()
                                     ? phrase(N_("The king is in check."))
                                     : phrase(N_("{seat} is in check."),
                                              {{"seat", seat(king.figures.front().piece.seat)}})));
    }
    if (!under.empty())
        rstrip_into(out, said(style.say, phrase(N_("Under: {list}"), {{"list", under}})));
    if (!hit_points.empty())
        rstrip_into(out, said(style.say, phrase(N_("Hit points: {list}"), {{"list", hit_points}})));
    if (!imprisoned.empty())
        rstrip_into(out, said(style.say, phrase(N_("Imprisoned: {list}"), {{"list", imprisoned}})));
    if (tinted)
        rstrip_into(out, said(style.say, phrase(N_("Tints: # dark, + 75% dark, . neutral, - 75% "
                                                   "light, _ light"))));
    for (const std::string& note : said_notes(style.say, b))
        rstrip_into(out, note);
    return out;
}

std::string render_text(const rules::PublicView& view, const TextStyle& style) {
    return render_board_text(view.board(), style);
}

std::string render_text(const rules::SeatView& view, const TextStyle& style) {
    return render_board_text(view.board(), style);
}

} // namespace ghostpost::render
