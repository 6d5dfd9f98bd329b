// The table from a variant's registry name to how the engine plays it: the one place of the
// engine, with each variant's eval_<variant>.cpp, that names variants.
#include "variant_play.h"

#include <array>

namespace ghostpost::engine {

// Each evaluation, in its file eval_<variant>.cpp.
int evaluate_chess(const rules::BoardView& board, rules::Seat us);
int evaluate_giveaway(const rules::BoardView& board, rules::Seat us);
int evaluate_ghostarelay(const rules::BoardView& board, rules::Seat us);
int evaluate_phantom(const rules::BoardView& board, rules::Seat us);
int evaluate_gnostic(const rules::BoardView& board, rules::Seat us);
int evaluate_ghost(const rules::BoardView& board, rules::Seat us);
int evaluate_haunted(const rules::BoardView& board, rules::Seat us);
bool gnostic_deep(const rules::Action& action);
std::optional<rules::NotatedAction> gnostic_dice(const rules::BoardView& board, rules::Seat us,
                                                 const std::vector<rules::NotatedAction>& legal);

namespace {

const std::array plays{
    VariantPlay{.name = "chess", .evaluate = evaluate_chess},
    // Captures are compulsory in the giveaway family: the horizon needs no capture extension.
    VariantPlay{.name = "giveaway", .evaluate = evaluate_giveaway, .quiescence = false},
    VariantPlay{.name = "ghostarelay",
                .evaluate = evaluate_ghostarelay,
                .quiescence = false,
                .node_percent = 80},
    VariantPlay{.name = "phantom", .evaluate = evaluate_phantom, .worlds = 4, .node_percent = 80},
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

std::span<const VariantPlay> variant_plays() {
    return plays;
}

} // namespace ghostpost::engine
