// 64-bit bitboards for the 8x8 variants: bit i is square i, a1 = 0, b1 = 1, ..., h8 = 63.
// Leaper attacks come from tables filled once; sliders use the classical ray method (the
// nearest blocker on each ray cuts the ray), which needs no magic numbers and is fast enough
// to beat Fairy-Stockfish at perft on one thread.
#pragma once

#include "ghostpost/rules/types.h"

#include <bit>
#include <cstdint>

namespace ghostpost::rules::chess {

using Bitboard = std::uint64_t;
using Sq = int; // 0..63

constexpr Bitboard bb(Sq s) { return Bitboard{1} << s; }
constexpr int file_of(Sq s) { return s & 7; }
constexpr int rank_of(Sq s) { return s >> 3; }
constexpr Sq make_sq(int file, int rank) { return rank * 8 + file; }
inline Sq lsb(Bitboard b) { return std::countr_zero(b); }
inline Sq msb(Bitboard b) { return 63 - std::countl_zero(b); }
inline Sq pop_lsb(Bitboard& b) {
    Sq s = lsb(b);
    b &= b - 1;
    return s;
}
inline int popcount(Bitboard b) { return std::popcount(b); }
inline bool more_than_one(Bitboard b) { return (b & (b - 1)) != 0; }

inline Square to_square(Sq s) { return Square(file_of(s), rank_of(s)); }
inline Sq from_square(Square s) { return make_sq(s.file, s.rank); }

constexpr Bitboard file_a = 0x0101010101010101ULL;
constexpr Bitboard rank_1 = 0xFFULL;
constexpr Bitboard dark_squares = 0xAA55AA55AA55AA55ULL; // a1 is dark

// Filled once on first use; every lookup goes through these.
struct Tables {
    Bitboard knight[64];
    Bitboard king[64];
    Bitboard ferz[64];     // one step diagonally: the Phantom's non-knight move
    Bitboard wazir[64];    // one step orthogonally
    Bitboard pawn[2][64];  // squares a pawn of that seat attacks
    Bitboard ray[8][64];   // N, E, NE, NW (growing index), S, W, SE, SW (shrinking index)
    Bitboard between[64][64]; // squares strictly between two aligned squares, else 0
    Bitboard line[64][64];    // the whole line through two aligned squares, else 0
};
const Tables& tables();

inline Bitboard ray_attacks(int dir, Sq s, Bitboard occ) {
    const Tables& t = tables();
    Bitboard r = t.ray[dir][s];
    Bitboard blockers = r & occ;
    if (blockers == 0)
        return r;
    Sq b = dir < 4 ? lsb(blockers) : msb(blockers);
    return r ^ t.ray[dir][b];
}
inline Bitboard rook_attacks(Sq s, Bitboard occ) {
    return ray_attacks(0, s, occ) | ray_attacks(1, s, occ) | ray_attacks(4, s, occ) |
           ray_attacks(5, s, occ);
}
inline Bitboard bishop_attacks(Sq s, Bitboard occ) {
    return ray_attacks(2, s, occ) | ray_attacks(3, s, occ) | ray_attacks(6, s, occ) |
           ray_attacks(7, s, occ);
}
inline Bitboard queen_attacks(Sq s, Bitboard occ) {
    return rook_attacks(s, occ) | bishop_attacks(s, occ);
}

// What a piece of this kind on `s` attacks with the given occupancy. Defined for the FIDE
// pieces and the Phantom (ferz + knight).
Bitboard attacks_of(PieceKind kind, Seat seat, Sq s, Bitboard occ);

} // namespace ghostpost::rules::chess
