// Phantom Chess: FIDE material and placement, plus the Phantom (a ferz and a knight in one, and
// unseen): on the board it counts a little more than a knight; in hand, still to enter anywhere,
// about as much.
#include "ghostpost/variants/pieces.h"
#include "variant_play.h"

namespace ghostpost::engine {

using rules::PieceKind;
using rules::Seat;

int fide_piece_score(const rules::BoardView& b, rules::Square s, rules::Piece p, bool queens_on);

namespace {

constexpr int phantom_on_board = 420;
constexpr int phantom_in_hand = 380;

// "Phantoms: White in play, Black in hand": whether `seat`'s Phantom is still to enter.
bool in_hand(const rules::BoardView& b, Seat seat) {
    const std::string key = seat == Seat::White ? "White in hand" : "Black in hand";
    for (const auto& note : b.notes)
        if (note.starts_with("Phantoms:") && note.find(key) != std::string::npos)
            return true;
    return false;
}

} // namespace

int evaluate_phantom(const rules::BoardView& b, Seat us) {
    bool queens_on = false;
    for (const auto& cell : b.cells)
        for (const auto& f : cell.figures)
            queens_on = queens_on || f.piece.kind == PieceKind::Queen;
    int score = 0;
    for (int r = 0; r < b.ranks; ++r)
        for (int f = 0; f < b.files; ++f) {
            const rules::Square s{f, r};
            for (const auto& fig : b.at(s).figures) {
                const int v = fig.piece.kind == rules::pieces::phantom
                                  ? phantom_on_board + centre_bonus(b, s)
                                  : fide_piece_score(b, s, fig.piece, queens_on);
                score += fig.piece.seat == us ? v : -v;
            }
        }
    for (Seat s : {Seat::White, Seat::Black})
        if (in_hand(b, s))
            score += s == us ? phantom_in_hand : -phantom_in_hand;
    return score;
}

} // namespace ghostpost::engine
