// 64-bit bitboards for the 8x8 variants: bit i is square i, a1 = 0, b1 = 1, ..., h8 = 63.
// Leaper attacks come from tables built at compile time; sliders use the classical ray method
// (the nearest blocker on each ray cuts the ray), which needs no magic numbers and is fast
// enough to beat Stockfish at perft on one thread.
#pragma once

#include "ghostpost/rules/types.h"

#include <bit>
#include <cstdint>
#include <initializer_list>
#include <utility>

namespace ghostpost::rules::chess {

using Bitboard = std::uint64_t;
using Sq = int; // 0..63

constexpr Bitboard bb(Sq s) {
    return Bitboard{1} << s;
}
constexpr int file_of(Sq s) {
    return s & 7;
}
constexpr int rank_of(Sq s) {
    return s >> 3;
}
constexpr Sq make_sq(int file, int rank) {
    return rank * 8 + file;
}
inline Sq lsb(Bitboard b) {
    return std::countr_zero(b);
}
inline Sq msb(Bitboard b) {
    return 63 - std::countl_zero(b);
}
inline Sq pop_lsb(Bitboard& b) {
    Sq s = lsb(b);
    b &= b - 1;
    return s;
}
// Counted in registers: built for any x86-64, std::popcount is a library call (no POPCNT
// instruction is assumed), and perft's last ply is mostly popcounts.
inline int popcount(Bitboard b) {
    b -= (b >> 1) & 0x5555555555555555ULL;
    b = (b & 0x3333333333333333ULL) + ((b >> 2) & 0x3333333333333333ULL);
    b = (b + (b >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return static_cast<int>((b * 0x0101010101010101ULL) >> 56);
}
inline bool more_than_one(Bitboard b) {
    return (b & (b - 1)) != 0;
}

inline Square to_square(Sq s) {
    return Square(file_of(s), rank_of(s));
}
inline Sq from_square(Square s) {
    return make_sq(s.file, s.rank);
}

constexpr Bitboard file_a = 0x0101010101010101ULL;
constexpr Bitboard rank_1 = 0xFFULL;
constexpr Bitboard dark_squares = 0xAA55AA55AA55AA55ULL; // a1 is dark

// Built at compile time; every lookup goes through these.
struct Tables {
    Bitboard knight[64];
    Bitboard king[64];
    Bitboard ferz[64];        // one step diagonally: the knight_ferz's non-knight move
    Bitboard wazir[64];       // one step orthogonally
    Bitboard pawn[2][64];     // squares a pawn of that seat attacks
    Bitboard ray[8][64];      // N, E, NE, NW (growing index), S, W, SE, SW (shrinking index)
    Bitboard between[64][64]; // squares strictly between two aligned squares, else 0
    Bitboard line[64][64];    // the whole line through two aligned squares, else 0
};

namespace detail {

constexpr bool on_board(int f, int r) {
    return f >= 0 && f < 8 && r >= 0 && r < 8;
}

constexpr Bitboard leaper(Sq s, std::initializer_list<std::pair<int, int>> steps) {
    Bitboard out = 0;
    for (auto [df, dr] : steps)
        if (on_board(file_of(s) + df, rank_of(s) + dr))
            out |= bb(make_sq(file_of(s) + df, rank_of(s) + dr));
    return out;
}

constexpr Tables build_tables() {
    Tables t{};
    constexpr int dirs[8][2] = {{0, 1},  {1, 0},  {1, 1},  {-1, 1},
                                {0, -1}, {-1, 0}, {1, -1}, {-1, -1}};
    for (Sq s = 0; s < 64; ++s) {
        t.knight[s] =
            leaper(s, {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}});
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
    // The ray pointing the other way from each of `dirs`: N-S, E-W, NE-SW, NW-SE.
    constexpr int opposite[8] = {4, 5, 7, 6, 0, 1, 3, 2};
    for (Sq a = 0; a < 64; ++a)
        for (int d = 0; d < 8; ++d)
            for (Bitboard r = t.ray[d][a]; r;) {
                const Sq b = std::countr_zero(r);
                r &= r - 1;
                t.between[a][b] = t.ray[d][a] & ~t.ray[d][b] & ~bb(b);
                t.line[a][b] = t.ray[d][a] | t.ray[opposite[d]][a] | bb(a);
            }
    return t;
}

inline constexpr Tables table_data = build_tables();

} // namespace detail

inline const Tables& tables() {
    return detail::table_data;
}

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

// The one piece the core adds to FIDE's six: it leaps as a knight or steps one square
// diagonally (a ferz), and it is the only piece a hand may hold. A variant that plays it names
// it, gives it its letter and draws it (ExtraPiece); the other extra kinds the core does not move.
inline constexpr PieceKind knight_ferz = PieceKind::Extra4;

// What a piece of this kind on `s` attacks with the given occupancy. Defined for the FIDE
// pieces and the knight_ferz.
Bitboard attacks_of(PieceKind kind, Seat seat, Sq s, Bitboard occ);

} // namespace ghostpost::rules::chess
