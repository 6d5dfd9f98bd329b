// Finding a variant's play, and what the evaluations share.
#include "variant_play.h"

#include "ghostpost/rules/registry.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ghostpost::engine {
const VariantPlay& play_for(std::string_view variant) {
    const rules::Variant* v = rules::find_variant(variant);
    if (v != nullptr)
        variant = v->info().name;
    for (const auto& p : variant_plays())
        if (p.name == variant)
            return p;
    throw std::invalid_argument("the engine does not play " + std::string(variant));
}

std::uint64_t position_key(const rules::Game& g) {
    std::string key = g.fen();
    if (key.empty())
        return 0;
    // Every dialect ends with the halfmove clock and the move number, which a repeated
    // position does not repeat.
    for (int field = 0; field < 2; ++field)
        if (const auto space = key.rfind(' '); space != std::string::npos)
            key.erase(space);
    // The FEN describes the start of a turn; a decision within it (a rescue, a Search) is not
    // in every dialect's FEN.
    for (const auto& d : g.pending()) {
        key += d.seat == rules::Seat::White ? "|w:" : "|b:";
        key += d.what;
    }
    return std::hash<std::string>{}(key) | 1;
}

int fide_value(rules::PieceKind kind) {
    using rules::PieceKind;
    switch (kind) {
    case PieceKind::Pawn:
        return 100;
    case PieceKind::Knight:
        return 310;
    case PieceKind::Bishop:
        return 330;
    case PieceKind::Rook:
        return 500;
    case PieceKind::Queen:
        return 900;
    default:
        return 0;
    }
}

int centre_bonus(const rules::BoardView& board, rules::Square s) {
    // Distance from the centre in half-squares, per axis, scaled to the board's size.
    const int df = std::abs(2 * s.file - (board.files - 1));
    const int dr = std::abs(2 * s.rank - (board.ranks - 1));
    const int span = board.files + board.ranks - 2;
    return 30 - 30 * (df + dr) / std::max(1, span);
}

} // namespace ghostpost::engine
