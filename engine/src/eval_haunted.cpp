// Haunted Chess: living pieces as in FIDE chess; a spirit is worth part of its kind, more when a
// living piece of its side invokes it (then it captures and gives check).
#include "variant_play.h"

namespace ghostpost::engine {

using rules::FigureStyle;
using rules::PieceKind;

int fide_piece_score(const rules::BoardView& b, rules::Square s, rules::Piece p, bool queens_on);

int evaluate_haunted(const rules::BoardView& b, rules::Seat us) {
    bool queens_on = false;
    for (const auto& cell : b.cells)
        for (const auto& f : cell.figures)
            queens_on =
                queens_on || (f.piece.kind == PieceKind::Queen && f.style == FigureStyle::Living);
    int score = 0;
    for (int r = 0; r < b.ranks; ++r)
        for (int f = 0; f < b.files; ++f) {
            const rules::Square s{f, r};
            for (const auto& fig : b.at(s).figures) {
                int v = 0;
                if (fig.style == FigureStyle::Living)
                    v = fide_piece_score(b, s, fig.piece, queens_on);
                else if (fig.style == FigureStyle::PaleLit)
                    v = fide_value(fig.piece.kind) / 2;
                else
                    v = fide_value(fig.piece.kind) / 4;
                score += fig.piece.seat == us ? v : -v;
            }
        }
    return score;
}

} // namespace ghostpost::engine
