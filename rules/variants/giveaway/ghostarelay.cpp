// Ghostarelay (zzo38 A. Black, 2011): giveaway on 10x10 with a Ghost (G) that moves to any
// empty square, a Relay (X) that lends enemy pieces next to it moves straight away from it,
// and the Warlord (W), the only promotion, which captures any enemy piece anywhere. Castling:
// the king steps two squares along a line and the first piece beyond, a rook of either side,
// jumps over it. Our readings of the seed are in docs/variants/ghostarelay.md.
#include "core_game.h"

namespace ghostpost::rules {

namespace {

const VariantInfo& ghostarelay_info() {
    static const VariantInfo info{
        .name = "ghostarelay",
        .aliases = {},
        .title = "Ghostarelay",
        .files = 10,
        .ranks = 10,
        .seat_names = {"White", "Black"},
        .options = {OptionSpec{
            std::string(giveaway::pass_option),
            "off",
            {"off", "on"},
            N_("on: a player with no legal move passes, and only a player with no pieces "
               "left wins")}},
        .summary =
            N_("Giveaway on a 10x10 board: lose all your pieces to win. Capturing is "
               "compulsory (choose which). A "
               "player with no legal move on their turn wins (no pieces means no moves). No "
               "check: the king is an "
               "ordinary piece. Ghost G: moves to any empty square, never captures. Relay X: "
               "one step any way or a "
               "knight's leap, never captures; an enemy piece next to a Relay may move "
               "straight away from it, as a "
               "rook without capturing (orthogonal neighbour) or as a bishop that may capture "
               "(diagonal "
               "neighbour). Warlord W: captures any enemy piece anywhere, and only moves by "
               "capturing; pawns "
               "promote to it only. Pawns: double step from their second rank, no en passant. "
               "Castling: the king "
               "moves two empty squares along a rank or file and the first piece beyond, a "
               "rook of either side, "
               "jumps to the square it passed. 50-move and threefold claims with !draw; 75 "
               "moves and fivefold "
               "draw at once."),
        .notation = N_(
            "Algebraic with two-digit ranks: e4, Nf3, exd5, Ra10, R10a5, Ge7 (Ghost), Xd3 (Relay), "
            "Wxe9 "
            "(Warlord), a10=W, castling as the king's move: Kh1, Kd1, Kf3. Also accepted: e2e4, "
            "Gg1e7, a9a10w and a missing x."),
        .examples = "e4, Nf3, exd5, Ge7, Xd3, Kh1 or a10=W",
    };
    return info;
}

} // namespace

const Variant& ghostarelay_variant() {
    static const giveaway::CoreVariant v(giveaway::Flavour::Ghostarelay, ghostarelay_info());
    return v;
}

} // namespace ghostpost::rules
