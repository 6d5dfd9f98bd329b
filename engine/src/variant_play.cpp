// The table from a variant's registry name to how the engine plays it.
#include "variant_play.h"

#include "ghostpost/rules/registry.h"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

namespace ghostpost::engine {
namespace {

const std::array plays{
    VariantPlay{.name = "chess", .evaluate = evaluate_chess},
    // Captures are compulsory in the giveaway family: the horizon needs no capture extension.
    VariantPlay{.name = "giveaway", .evaluate = evaluate_giveaway, .quiescence = false},
    VariantPlay{.name = "ghostarelay",
                .evaluate = evaluate_ghostarelay,
                .quiescence = false,
                .node_percent = 80},
    VariantPlay{.name = "phantom",
                .evaluate = evaluate_phantom,
                .determinise = phantom_worlds,
                .worlds = 4,
                .node_percent = 80},
    // Captures start dice combats: no capture extension, no table (apply draws dice), and the
    // dice are chosen by the combat arithmetic (gnostic_dice), not by search. The spells
    // (hundreds of Teleports and Exchanges) are weighed at the root only.
    VariantPlay{.name = "gnostic",
                .evaluate = evaluate_gnostic,
                .answer = gnostic_dice,
                .deep = gnostic_deep,
                .quiescence = false,
                .transpositions = false},
    // The Ghost hides on a dark square and the Paradigm guards every piece: without lapses,
    // engines of neighbouring levels from 5 up drew three games in four. A lapse as the Ghost
    // often costs her the game, and a Ghost that lapses on one move in fourteen already loses
    // as often as one that lapses on one in ten; so the step from level 7 to 6 is wide, and
    // level 7's few lapses are what level 8 wins by (the matches: README).
    VariantPlay{.name = "ghost",
                .evaluate = evaluate_ghost,
                .contempt = 100,
                .lapses = {0, 23, 21, 19, 17, 12, 5, 0}},
    VariantPlay{.name = "haunted", .evaluate = evaluate_haunted, .node_percent = 50},
};

} // namespace

const VariantPlay& play_for(std::string_view variant) {
    const rules::Variant* v = rules::find_variant(variant);
    if (v != nullptr)
        variant = v->info().name;
    for (const auto& p : plays)
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
