#include "chess/bitboard.h"

namespace ghostpost::rules::chess {
namespace {

bool on_board(int f, int r) { return f >= 0 && f < 8 && r >= 0 && r < 8; }

Bitboard leaper(Sq s, std::initializer_list<std::pair<int, int>> steps) {
    Bitboard out = 0;
    for (auto [df, dr] : steps)
        if (on_board(file_of(s) + df, rank_of(s) + dr))
            out |= bb(make_sq(file_of(s) + df, rank_of(s) + dr));
    return out;
}

Tables build() {
    Tables t{};
    constexpr int dirs[8][2] = {{0, 1}, {1, 0}, {1, 1}, {-1, 1}, {0, -1}, {-1, 0}, {1, -1}, {-1, -1}};
    for (Sq s = 0; s < 64; ++s) {
        t.knight[s] = leaper(s, {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}});
        t.ferz[s] = leaper(s, {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}});
        t.wazir[s] = leaper(s, {{0, 1}, {0, -1}, {1, 0}, {-1, 0}});
        t.king[s] = t.ferz[s] | t.wazir[s];
        t.pawn[0][s] = leaper(s, {{1, 1}, {-1, 1}});
        t.pawn[1][s] = leaper(s, {{1, -1}, {-1, -1}});
        for (int d = 0; d < 8; ++d) {
            int f = file_of(s) + dirs[d][0], r = rank_of(s) + dirs[d][1];
            for (; on_board(f, r); f += dirs[d][0], r += dirs[d][1])
                t.ray[d][s] |= bb(make_sq(f, r));
        }
    }
    for (Sq a = 0; a < 64; ++a)
        for (int d = 0; d < 8; ++d)
            for (Bitboard r = t.ray[d][a]; r;) {
                Sq b = pop_lsb(r);
                t.between[a][b] = t.ray[d][a] & ~t.ray[d][b] & ~bb(b);
                t.line[a][b] = t.ray[d][a] | t.ray[(d + 4) % 8][a] | bb(a);
            }
    return t;
}

} // namespace

const Tables& tables() {
    static const Tables t = build();
    return t;
}

Bitboard attacks_of(PieceKind kind, Seat seat, Sq s, Bitboard occ) {
    const Tables& t = tables();
    switch (kind) {
    case PieceKind::Pawn: return t.pawn[index(seat)][s];
    case PieceKind::Knight: return t.knight[s];
    case PieceKind::Bishop: return bishop_attacks(s, occ);
    case PieceKind::Rook: return rook_attacks(s, occ);
    case PieceKind::Queen: return queen_attacks(s, occ);
    case PieceKind::King: return t.king[s];
    case PieceKind::Phantom: return t.knight[s] | t.ferz[s];
    default: return 0;
    }
}

} // namespace ghostpost::rules::chess
