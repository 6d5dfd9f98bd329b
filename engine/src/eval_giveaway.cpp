// Giveaway and Ghostarelay: the side that loses all its pieces (or cannot move) wins, so fewer
// pieces is better; a piece that cannot be made to capture (a Ghost, a Relay) is the hardest
// to lose and counts most against its owner.
#include "ghostpost/variants/pieces.h"
#include "variant_play.h"

namespace ghostpost::engine {

using rules::PieceKind;

namespace {

int burden(PieceKind kind) {
    switch (kind) {
    case rules::pieces::ghost:
        return 160; // never captures: only an enemy capture removes it
    case rules::pieces::relay:
        return 140;
    case rules::pieces::warlord:
        return 60; // captures anything anywhere: easy to give away
    case PieceKind::King:
        return 110;
    case PieceKind::Pawn:
        return 90;
    default:
        return 100;
    }
}

int losing_count(const rules::BoardView& b, rules::Seat us) {
    int score = 0;
    for (const auto& cell : b.cells)
        for (const auto& f : cell.figures)
            score += f.piece.seat == us ? -burden(f.piece.kind) : burden(f.piece.kind);
    return score;
}

} // namespace

int evaluate_giveaway(const rules::BoardView& b, rules::Seat us) {
    return losing_count(b, us);
}
int evaluate_ghostarelay(const rules::BoardView& b, rules::Seat us) {
    return losing_count(b, us);
}

} // namespace ghostpost::engine
