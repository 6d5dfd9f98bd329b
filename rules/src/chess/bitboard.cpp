#include "chess/bitboard.h"

namespace ghostpost::rules::chess {

Bitboard attacks_of(PieceKind kind, Seat seat, Sq s, Bitboard occ) {
    const Tables& t = tables();
    switch (kind) {
    case PieceKind::Pawn:
        return t.pawn[index(seat)][s];
    case PieceKind::Knight:
        return t.knight[s];
    case PieceKind::Bishop:
        return bishop_attacks(s, occ);
    case PieceKind::Rook:
        return rook_attacks(s, occ);
    case PieceKind::Queen:
        return queen_attacks(s, occ);
    case PieceKind::King:
        return t.king[s];
    case knight_ferz:
        return t.knight[s] | t.ferz[s];
    default:
        return 0;
    }
}

} // namespace ghostpost::rules::chess
