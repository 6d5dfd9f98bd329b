// Ghost Chess: the Ghost (a queen with powers) alone against the Paradigm's army, and she is
// the game: losing her loses it. Material counts as in chess, the Ghost far above a queen,
// with the Paradigm's pawns worth more the closer they come to rank 8 (Search).
#include "variant_play.h"

namespace ghostpost::engine {

using rules::PieceKind;
using rules::Seat;

int evaluate_ghost(const rules::BoardView& b, Seat us) {
    int score = 0;
    for (int r = 0; r < b.ranks; ++r)
        for (int f = 0; f < b.files; ++f) {
            const rules::Square s{f, r};
            for (const auto& fig : b.at(s).figures) {
                int v = fide_value(fig.piece.kind);
                if (fig.piece.kind == PieceKind::Queen)
                    v = 1500 + centre_bonus(b, s);
                else if (fig.piece.kind == PieceKind::Pawn)
                    v += 5 * (fig.piece.seat == Seat::White ? s.rank : b.ranks - 1 - s.rank);
                else if (fig.piece.kind == PieceKind::Knight)
                    v += centre_bonus(b, s);
                score += fig.piece.seat == us ? v : -v;
            }
        }
    return score;
}

} // namespace ghostpost::engine
