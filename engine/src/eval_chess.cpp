// FIDE chess: material, minor pieces and pawns toward the centre, pawns forward, and a king that
// stays home while queens are on the board; then what a short search does not see by itself:
// the pieces' mobility, passed, doubled and isolated pawns, the bishop pair, rooks on open
// files and the pawns sheltering a king.
#include "variant_play.h"

#include <array>

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

namespace {

// The structure terms on an 8x8 board of FIDE pieces (the first figure of each cell), for
// White minus Black.
int fide_structure(const rules::BoardView& b) {
    if (b.files != 8 || b.ranks != 8)
        return 0;
    std::array<PieceKind, 64> kind{};
    std::array<int, 64> side{}; // +1 White, -1 Black, 0 empty
    for (int i = 0; i < 64; ++i) {
        const auto& figs = b.cells[static_cast<std::size_t>(i)].figures;
        if (figs.empty())
            continue;
        kind[static_cast<std::size_t>(i)] = figs.front().piece.kind;
        side[static_cast<std::size_t>(i)] = figs.front().piece.seat == Seat::White ? 1 : -1;
    }
    auto at = [&](int f, int r) { return static_cast<std::size_t>(r * 8 + f); };
    // Pawns per file and the most advanced / least advanced rank of each side's pawns there.
    std::array<std::array<int, 8>, 2> pawns{};
    std::array<std::array<int, 8>, 2> lowest{}, highest{};
    for (int s = 0; s < 2; ++s)
        for (int f = 0; f < 8; ++f) {
            lowest[static_cast<std::size_t>(s)][static_cast<std::size_t>(f)] = 8;
            highest[static_cast<std::size_t>(s)][static_cast<std::size_t>(f)] = -1;
        }
    int bishops[2] = {0, 0};
    for (int r = 0; r < 8; ++r)
        for (int f = 0; f < 8; ++f) {
            const auto i = at(f, r);
            if (side[i] == 0)
                continue;
            const std::size_t s = side[i] > 0 ? 0 : 1;
            if (kind[i] == PieceKind::Pawn) {
                ++pawns[s][static_cast<std::size_t>(f)];
                auto& lo = lowest[s][static_cast<std::size_t>(f)];
                auto& hi = highest[s][static_cast<std::size_t>(f)];
                lo = std::min(lo, r);
                hi = std::max(hi, r);
            } else if (kind[i] == PieceKind::Bishop) {
                ++bishops[s];
            }
        }
    int score = 0;
    if (bishops[0] >= 2)
        score += 30;
    if (bishops[1] >= 2)
        score -= 30;
    static constexpr int passed_bonus[8] = {0, 5, 10, 20, 35, 60, 100, 0};
    for (int r = 0; r < 8; ++r)
        for (int f = 0; f < 8; ++f) {
            const auto i = at(f, r);
            if (side[i] == 0)
                continue;
            const int sign = side[i];
            const std::size_t us = sign > 0 ? 0 : 1, them = 1 - us;
            const auto fu = static_cast<std::size_t>(f);
            switch (kind[i]) {
            case PieceKind::Pawn: {
                const bool isolated =
                    (f == 0 || pawns[us][fu - 1] == 0) && (f == 7 || pawns[us][fu + 1] == 0);
                if (isolated)
                    score -= sign * 12;
                // Passed: no enemy pawn ahead on this file or the files beside it.
                bool passed = true;
                for (int df = -1; df <= 1 && passed; ++df) {
                    const int ff = f + df;
                    if (ff < 0 || ff > 7)
                        continue;
                    const auto ffu = static_cast<std::size_t>(ff);
                    if (pawns[them][ffu] == 0)
                        continue;
                    passed = sign > 0 ? highest[them][ffu] <= r : lowest[them][ffu] >= r;
                }
                if (passed)
                    score += sign * passed_bonus[sign > 0 ? r : 7 - r];
                break;
            }
            case PieceKind::Rook: {
                if (pawns[us][fu] == 0)
                    score += sign * (pawns[them][fu] == 0 ? 25 : 12);
                break;
            }
            default:
                break;
            }
            // Mobility of the long-range pieces and knights: squares reached, own pieces not.
            int reach = 0;
            auto ray = [&](int df, int dr, bool slide) {
                int ff = f + df, rr = r + dr;
                while (ff >= 0 && ff < 8 && rr >= 0 && rr < 8) {
                    const auto j = at(ff, rr);
                    if (side[j] != sign)
                        ++reach;
                    if (side[j] != 0 || !slide)
                        break;
                    ff += df;
                    rr += dr;
                }
            };
            switch (kind[i]) {
            case PieceKind::Knight:
                for (auto [df, dr] : {std::pair{1, 2},
                                      {2, 1},
                                      {2, -1},
                                      {1, -2},
                                      {-1, -2},
                                      {-2, -1},
                                      {-2, 1},
                                      {-1, 2}})
                    ray(df, dr, false);
                score += sign * 4 * (reach - 4);
                break;
            case PieceKind::Bishop:
                for (auto [df, dr] : {std::pair{1, 1}, {1, -1}, {-1, 1}, {-1, -1}})
                    ray(df, dr, true);
                score += sign * 4 * (reach - 6);
                break;
            case PieceKind::Rook:
                for (auto [df, dr] : {std::pair{1, 0}, {-1, 0}, {0, 1}, {0, -1}})
                    ray(df, dr, true);
                score += sign * 2 * (reach - 7);
                break;
            case PieceKind::Queen:
                for (auto [df, dr] : {std::pair{1, 1},
                                      {1, -1},
                                      {-1, 1},
                                      {-1, -1},
                                      {1, 0},
                                      {-1, 0},
                                      {0, 1},
                                      {0, -1}})
                    ray(df, dr, true);
                score += sign * (reach - 13);
                break;
            case PieceKind::King: {
                // Pawns of its own in front of a king on its first two ranks shelter it.
                const int home = sign > 0 ? r : 7 - r;
                if (home <= 1) {
                    int shelter = 0;
                    for (int df = -1; df <= 1; ++df) {
                        const int ff = f + df;
                        if (ff < 0 || ff > 7)
                            continue;
                        for (int step = 1; step <= 2; ++step) {
                            const int rr = r + sign * step;
                            if (rr < 0 || rr > 7)
                                continue;
                            const auto j = at(ff, rr);
                            if (side[j] == sign && kind[j] == PieceKind::Pawn) {
                                shelter += step == 1 ? 12 : 6;
                                break;
                            }
                        }
                    }
                    score += sign * shelter;
                }
                break;
            }
            default:
                break;
            }
        }
    for (std::size_t f = 0; f < 8; ++f) {
        if (pawns[0][f] > 1)
            score -= 15 * (pawns[0][f] - 1);
        if (pawns[1][f] > 1)
            score += 15 * (pawns[1][f] - 1);
    }
    return score;
}

} // namespace

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
    const int structure = fide_structure(b);
    return score + (us == Seat::White ? structure : -structure);
}

} // namespace ghostpost::engine
