// Giveaway chess on 8x8, exactly as Fairy-Stockfish plays `giveaway`: FIDE pieces, a king that
// is not royal and that pawns may promote to, compulsory capture, FIDE castling without any
// check conditions, en passant, and the win for a player with no legal move (or no pieces).
// Rules document: docs/variants/giveaway.md.
#include "core_game.h"

namespace ghostpost::rules {

namespace {

const VariantInfo& giveaway_info() {
    static const VariantInfo info{
        .name = "giveaway",
        .aliases = {},
        .title = "Giveaway chess",
        .files = 8,
        .ranks = 8,
        .seat_names = {"White", "Black"},
        .options = {},
        .summary = N_(
            "Lose all your pieces to win. Capturing is compulsory (choose which capture). There is "
            "no "
            "check: the king is an ordinary piece, may be captured, and a pawn may promote to it. "
            "A "
            "player with no legal move on their turn (or no pieces) wins. Castling and en passant "
            "as "
            "in chess, with no check conditions. The 50-move rule and threefold repetition may be "
            "claimed with !draw; 75 moves and fivefold repetition draw at once."),
        .notation = N_(
            "Standard algebraic notation: e4, Nf3, exd5, Nbd2, R1e2, O-O, O-O-O, e8=Q, e8=K. Also "
            "accepted: 0-0, e2e4, e2-e4, Ng1f3, e7e8q and a missing x."),
    };
    return info;
}

} // namespace

const Variant& giveaway_variant() {
    static const giveaway::CoreVariant v(giveaway::Flavour::Giveaway, giveaway_info());
    return v;
}

} // namespace ghostpost::rules
