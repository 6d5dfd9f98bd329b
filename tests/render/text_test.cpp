#include "ghostpost/render/text.h"
#include "ghostpost/variants/pieces.h"

#include <catch2/catch.hpp>
#include <string>

using namespace ghostpost::rules;
using ghostpost::render::Glyphs;
using ghostpost::render::render_board_text;
using ghostpost::render::TextStyle;

namespace {

void put(BoardView& b, const char* square, PieceKind k, Seat s,
         FigureStyle style = FigureStyle::Living) {
    auto sq = parse_square(square, b.files, b.ranks);
    REQUIRE(sq);
    Figure f;
    f.piece = Piece{k, s};
    f.style = style;
    b.at(*sq).figures.push_back(f);
}

// The start position after 1. e4, built by hand so the renderer is tested on its own.
BoardView after_e4() {
    BoardView b("chess", 8, 8);
    const PieceKind back[] = {PieceKind::Rook,   PieceKind::Knight, PieceKind::Bishop,
                              PieceKind::Queen,  PieceKind::King,   PieceKind::Bishop,
                              PieceKind::Knight, PieceKind::Rook};
    for (int f = 0; f < 8; ++f) {
        b.at(Square(f, 0)).figures.push_back(Figure{Piece{back[f], Seat::White}});
        b.at(Square(f, 7)).figures.push_back(Figure{Piece{back[f], Seat::Black}});
        b.at(Square(f, 6)).figures.push_back(Figure{Piece{PieceKind::Pawn, Seat::Black}});
        if (f != 4)
            b.at(Square(f, 1)).figures.push_back(Figure{Piece{PieceKind::Pawn, Seat::White}});
    }
    put(b, "e4", PieceKind::Pawn, Seat::White);
    b.last_from = Square(4, 1);
    b.last_to = Square(4, 3);
    b.deciding = {Seat::Black};
    b.ply = 1;
    b.move_number = 1;
    return b;
}

} // namespace

TEST_CASE("An ASCII board shows coordinates, the last move and who is to move", "[render][text]") {
    CHECK(render_board_text(after_e4()) == "    a  b  c  d  e  f  g  h\n"
                                           " 8  r  n  b  q  k  b  n  r   8\n"
                                           " 7  p  p  p  p  p  p  p  p   7\n"
                                           " 6  .  .  .  .  .  .  .  .   6\n"
                                           " 5  .  .  .  .  .  .  .  .   5\n"
                                           " 4  .  .  .  . *P  .  .  .   4\n"
                                           " 3  .  .  .  .  .  .  .  .   3\n"
                                           " 2  P  P  P  P *.  P  P  P   2\n"
                                           " 1  R  N  B  Q  K  B  N  R   1\n"
                                           "    a  b  c  d  e  f  g  h\n"
                                           "Move 1, Black to move. Last move: e2-e4.\n");
}

TEST_CASE("A board seen from Black has rank 1 on top and the h-file on the left",
          "[render][text]") {
    TextStyle style;
    style.bottom = Seat::Black;
    std::string text = render_board_text(after_e4(), style);
    CHECK(text.substr(0, 58) == "    h  g  f  e  d  c  b  a\n"
                                " 1  R  N  B  K  Q  B  N  R   1\n");
    CHECK(text.find(" 8  r  n  b  k  q  b  n  r   8\n    h  g  f  e  d  c  b  a\n") !=
          std::string::npos);
}

TEST_CASE("A Unicode board uses figurines and a middle dot for empty squares", "[render][text]") {
    TextStyle style;
    style.glyphs = Glyphs::Unicode;
    std::string text = render_board_text(after_e4(), style);
    CHECK(text.find(" 8  \u265C  \u265E  \u265D  \u265B  \u265A  \u265D  \u265E  \u265C   8\n") !=
          std::string::npos);
    CHECK(text.find(" 4  \u00B7  \u00B7  \u00B7  \u00B7 *\u2659  \u00B7  \u00B7  \u00B7   4\n") !=
          std::string::npos);
}

TEST_CASE("Check marks the king and names the side in check", "[render][text]") {
    BoardView b("chess", 8, 8);
    put(b, "e1", PieceKind::King, Seat::White);
    put(b, "e8", PieceKind::King, Seat::Black);
    put(b, "e2", PieceKind::Queen, Seat::White);
    b.last_from = Square(4, 1);
    b.last_to = Square(4, 6);
    b.at(Square(4, 6)).figures.push_back(Figure{Piece{PieceKind::Queen, Seat::White}});
    b.at(Square(4, 1)).figures.clear();
    b.check = Square(4, 7);
    b.deciding = {Seat::Black};
    b.move_number = 30;
    std::string text = render_board_text(b);
    CHECK(text.find(" 8  .  .  .  . !k  .  .  .   8\n 7  .  .  .  . *Q  .  .  .   7\n") !=
          std::string::npos);
    CHECK(text.find("Move 30, Black to move. Last move: e2-e7.\nBlack is in check.\n") !=
          std::string::npos);
}

TEST_CASE("A 10x10 Ghostarelay board shows Ghost, Relay and Warlord with rank 10",
          "[render][text][variant:ghostarelay]") {
    BoardView b("ghostarelay", 10, 10);
    put(b, "a1", pieces::ghost, Seat::White);
    put(b, "j10", pieces::relay, Seat::Black);
    put(b, "e1", pieces::warlord, Seat::White);
    b.deciding = {Seat::White};
    std::string text = render_board_text(b);
    CHECK(text.substr(0, 33) == "    a  b  c  d  e  f  g  h  i  j\n");
    CHECK(text.find("10  .  .  .  .  .  .  .  .  .  x  10\n") != std::string::npos);
    CHECK(text.find(" 1  G  .  .  .  W  .  .  .  .  .   1\n") != std::string::npos);
}

TEST_CASE("Spirits, stacks and Phantoms get their suffix and an Under line",
          "[render][text][variant:haunted]") {
    BoardView b("haunted", 8, 8);
    put(b, "c3", PieceKind::Knight, Seat::Black, FigureStyle::Pale);
    put(b, "d4", PieceKind::Bishop, Seat::White, FigureStyle::PaleLit);
    put(b, "e5", PieceKind::Rook, Seat::White);
    put(b, "e5", PieceKind::Knight, Seat::Black, FigureStyle::Pale);
    put(b, "f6", pieces::phantom, Seat::Black, FigureStyle::Secret);
    b.deciding = {Seat::White, Seat::Black};
    std::string text = render_board_text(b);
    CHECK(text.find(" 6   .   .   .   .   .   f?  .   .   6\n") != std::string::npos);
    CHECK(text.find(" 5   .   .   .   .   R&  .   .   .   5\n") != std::string::npos);
    CHECK(text.find(" 4   .   .   .   B^  .   .   .   .   4\n") != std::string::npos);
    CHECK(text.find(" 3   .   .   n~  .   .   .   .   .   3\n") != std::string::npos);
    CHECK(text.find("Move 1, White and Black to decide.\nUnder: e5 n~\n") != std::string::npos);
    // A column more per square on such boards: the letters under their squares.
    CHECK(text.substr(0, 35) == "     a   b   c   d   e   f   g   h\n");
}

TEST_CASE("A mark after a piece never touches the next square's mark; an entry's last move",
          "[render][text][variant:phantom]") {
    BoardView b("phantom", 8, 8);
    put(b, "e5", pieces::phantom, Seat::Black, FigureStyle::Secret);
    put(b, "f5", PieceKind::Pawn, Seat::White);
    b.last_to = Square(5, 4); // f5, entered: no square it came from
    b.deciding = {Seat::Black};
    const std::string text = render_board_text(b);
    CHECK(text.find(" 5   .   .   .   .   f? *P   .   .   5\n") != std::string::npos);
    CHECK(text.find("Move 1, Black to move. Last move: to f5.\n") != std::string::npos);
}

TEST_CASE("Gnostic hit points, imprisonment, tints and notes are spelled out under the board",
          "[render][text][variant:gnostic]") {
    BoardView b("gnostic", 8, 8);
    for (auto& cell : b.cells)
        cell.tint = Tint::Neutral;
    b.at(Square(0, 0)).tint = Tint::Dark100;
    b.at(Square(1, 0)).tint = Tint::Dark75;
    b.at(Square(2, 0)).tint = Tint::Light75;
    b.at(Square(3, 0)).tint = Tint::Light100;
    Figure king{Piece{PieceKind::King, Seat::White}};
    king.hp = 40;
    king.max_hp = 100;
    b.at(Square(4, 0)).figures.push_back(king);
    Figure rook{Piece{PieceKind::Rook, Seat::Black}};
    rook.hp = 50;
    rook.max_hp = 50;
    rook.imprisoned = true;
    b.at(Square(0, 7)).figures.push_back(rook);
    b.notes = {"Track: C, toward dark"};
    b.deciding = {Seat::White};
    std::string text = render_board_text(b);
    CHECK(text.find(" 1   #   +   -   _   K'  .   .   .   1\n") != std::string::npos);
    CHECK(text.find(" 8   r#  .   .   .   .   .   .   .   8\n") != std::string::npos);
    CHECK(text.find("Move 1, White to move.\n"
                    "Hit points: e1 K 40/100\n"
                    "Imprisoned: a8 r\n"
                    "Tints: # dark, + 75% dark, . neutral, - 75% light, _ light\n"
                    "Track: C, toward dark\n") != std::string::npos);
}

TEST_CASE("Variant seat names replace White and Black", "[render][text]") {
    BoardView b = after_e4();
    TextStyle style;
    style.seat_names = {"Paradigm", "Ghosts"};
    CHECK(render_board_text(b, style).find("Move 1, Ghosts to move.") != std::string::npos);
}

TEST_CASE("A text board has no backtick and no trailing space", "[render][text]") {
    TextStyle style;
    style.glyphs = Glyphs::Unicode;
    for (const std::string& text :
         {render_board_text(after_e4()), render_board_text(after_e4(), style)}) {
        CHECK(text.find('`') == std::string::npos);
        CHECK(text.find(" \n") == std::string::npos);
    }
}
