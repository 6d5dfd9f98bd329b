// Ghost Chess: the Ghost (a queen with powers) alone against the Paradigm's army. She wins by
// taking every piece he has and loses when she is taken, which she need never be while she
// stands on a dark square: a Hide or a capture there shields her for his next turn. So the
// score counts the pieces he has left (each one she must still take), where she stands (dark or
// light, and how many safe squares she has), what she can take without being taken back (a
// piece on a dark square, or one nothing guards), and her rescued knights: helpers at first, a
// weakness to guard once one is lost, since losing both loses the game.
#include "variant_play.h"

#include <algorithm>
#include <array>

namespace ghostpost::engine {

using rules::PieceKind;
using rules::Seat;

namespace {

bool dark(rules::Square s) {
    return (s.file + s.rank) % 2 == 0;
}

// Her worth is set so that the start scores about 0, as even as the game is (engines of one
// strength mostly draw it), so that a draw by repetition is sought only from a worse position.
constexpr int ghost_worth = 3670;

// Every Paradigm piece is one more the Ghost must take to win: a piece counts for itself as
// well as for what it does.
int paradigm_value(PieceKind k) {
    return 60 + fide_value(k);
}

// Squares the Paradigm attacks, counted: where the Ghost may not stand unshielded, and which of
// his pieces are defended.
std::array<int, 64> paradigm_attacks(const rules::BoardView& b) {
    std::array<int, 64> out{};
    auto mark = [&](int f, int r) { ++out[static_cast<std::size_t>(r * 8 + f)]; };
    auto occupied = [&](int f, int r) { return !b.at({f, r}).figures.empty(); };
    auto ray = [&](int f, int r, int df, int dr) {
        for (f += df, r += dr; f >= 0 && f < 8 && r >= 0 && r < 8; f += df, r += dr) {
            mark(f, r);
            if (occupied(f, r))
                break;
        }
    };
    for (int r = 0; r < 8; ++r)
        for (int f = 0; f < 8; ++f) {
            const auto& figs = b.at({f, r}).figures;
            if (figs.empty() || figs.front().piece.seat != Seat::White)
                continue;
            switch (figs.front().piece.kind) {
            case PieceKind::Pawn:
                for (int df : {-1, 1})
                    if (f + df >= 0 && f + df < 8 && r + 1 < 8)
                        mark(f + df, r + 1);
                break;
            case PieceKind::Knight:
                for (auto [df, dr] : {std::pair{1, 2},
                                      {2, 1},
                                      {2, -1},
                                      {1, -2},
                                      {-1, -2},
                                      {-2, -1},
                                      {-2, 1},
                                      {-1, 2}})
                    if (f + df >= 0 && f + df < 8 && r + dr >= 0 && r + dr < 8)
                        mark(f + df, r + dr);
                break;
            case PieceKind::Bishop:
                for (auto [df, dr] : {std::pair{1, 1}, {1, -1}, {-1, 1}, {-1, -1}})
                    ray(f, r, df, dr);
                break;
            case PieceKind::Rook:
                for (auto [df, dr] : {std::pair{1, 0}, {-1, 0}, {0, 1}, {0, -1}})
                    ray(f, r, df, dr);
                break;
            default:
                break;
            }
        }
    return out;
}

} // namespace

int evaluate_ghost(const rules::BoardView& b, Seat us) {
    if (b.files != 8 || b.ranks != 8)
        return 0;
    const auto attacked = paradigm_attacks(b);
    auto attacks_on = [&](rules::Square s) {
        return attacked[static_cast<std::size_t>(s.rank * 8 + s.file)];
    };
    const bool one_lost =
        std::find(b.notes.begin(), b.notes.end(), "Rescued knights lost: 1 of 2.") != b.notes.end();
    // One knight lost: one more and the game is lost.
    int ghost_side = one_lost ? -200 : 0; // for the Ghost player (Black)
    rules::Square ghost;
    for (int r = 0; r < 8; ++r)
        for (int f = 0; f < 8; ++f) {
            const rules::Square s{f, r};
            const auto& figs = b.at(s).figures;
            if (figs.empty())
                continue;
            const auto p = figs.front().piece;
            if (p.seat == Seat::White) {
                ghost_side -= paradigm_value(p.kind);
                // On her colour a piece is a target for a capture that shields her; an
                // undefended one anywhere is a target too.
                if (dark(s))
                    ghost_side += 8;
                if (attacks_on(s) == 0)
                    ghost_side += 10;
            } else if (p.kind == PieceKind::Queen) {
                ghost = s;
                ghost_side += ghost_worth;
            } else {
                // A rescued knight fights for her, but losing two of them loses the game: once
                // one is lost, the other is a weakness to guard more than a piece.
                ghost_side += (one_lost ? 150 : 350) + centre_bonus(b, s);
                if (attacks_on(s) > 0)
                    ghost_side -= one_lost ? 250 : 40;
            }
        }
    if (ghost.valid()) {
        // On a dark square she is never lost: a Hide or a capture there shields her. On a
        // light one she must keep moving, and the fewer safe squares she has the closer she is
        // to being caught.
        ghost_side += dark(ghost) ? 40 : -40;
        int safe = 0;
        int first = 0, second = 0;
        for (int df = -1; df <= 1; ++df)
            for (int dr = -1; dr <= 1; ++dr) {
                if (df == 0 && dr == 0)
                    continue;
                rules::Square s{ghost.file + df, ghost.rank + dr};
                while (s.file >= 0 && s.rank >= 0 && s.file < 8 && s.rank < 8) {
                    const auto& figs = b.at(s).figures;
                    if (figs.empty()) {
                        if (attacks_on(s) == 0)
                            ++safe;
                        s = rules::Square{s.file + df, s.rank + dr};
                        continue;
                    }
                    // A piece she may take without being taken back: on a dark square (the
                    // capture shields her), or where nothing of his guards the square.
                    if (figs.front().piece.seat == Seat::White && (dark(s) || attacks_on(s) == 0)) {
                        const int v = paradigm_value(figs.front().piece.kind);
                        if (v > first) {
                            second = first;
                            first = v;
                        } else {
                            second = std::max(second, v);
                        }
                    }
                    break;
                }
            }
        ghost_side += 4 * safe;
        if (!dark(ghost) && safe == 0)
            ghost_side -= 150;
        // With the Paradigm to move he saves one target; a second falls.
        const bool paradigm_moves =
            std::find(b.deciding.begin(), b.deciding.end(), Seat::White) != b.deciding.end();
        ghost_side += paradigm_moves ? second * 3 / 4 + first / 8 : first / 4;
    }
    return us == Seat::Black ? ghost_side : -ghost_side;
}

} // namespace ghostpost::engine
