// FIDE chess: material, minor pieces and pawns toward the centre, pawns forward, and a king that
// stays home while queens are on the board.
#include "variant_play.h"

namespace ghostpost::engine {

using rules::PieceKind;
using rules::Seat;

namespace {

// How far a piece of `seat` stands from its own first rank, 0..ranks-1.
int advance(const rules::BoardView& b, Seat seat, rules::Square s) {
    return seat == Seat::White ? s.rank : b.ranks - 1 - s.rank;
}

} // namespace

// Shared with Phantom Chess and Haunted Chess, which score their living pieces the same way.
int fide_piece_score(const rules::BoardView& b, rules::Square s, rules::Piece p, bool queens_on) {
    int score = fide_value(p.kind);
    switch (p.kind) {
    case PieceKind::Knight:
    case PieceKind::Bishop:
        score += centre_bonus(b, s);
        break;
    case PieceKind::Pawn:
        score += 6 * advance(b, p.seat, s) + centre_bonus(b, s) / 3;
        if (advance(b, p.seat, s) >= b.ranks - 3)
            score += 40; // two steps from promotion
        break;
    case PieceKind::Queen:
        score += centre_bonus(b, s) / 3;
        break;
    case PieceKind::King:
        score += queens_on ? -centre_bonus(b, s) : centre_bonus(b, s);
        break;
    default:
        break;
    }
    return score;
}

int evaluate_chess(const rules::BoardView& b, Seat us) {
    bool queens_on = false;
    for (const auto& cell : b.cells)
        for (const auto& f : cell.figures)
            queens_on = queens_on || f.piece.kind == PieceKind::Queen;
    int score = 0;
    for (int r = 0; r < b.ranks; ++r)
        for (int f = 0; f < b.files; ++f) {
            const rules::Square s{f, r};
            for (const auto& fig : b.at(s).figures) {
                const int v = fide_piece_score(b, s, fig.piece, queens_on);
                score += fig.piece.seat == us ? v : -v;
            }
        }
    return score;
}

} // namespace ghostpost::engine
