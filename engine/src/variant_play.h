// One variant's way of playing: how it scores a position for a seat and which search features
// fit it. The table (eval_variants.cpp) and each evaluation (eval_<variant>.cpp) are the only
// files of the engine that name variants; what a seat cannot see, the rules say
// (Variant::hidden_placements).
#pragma once

#include "ghostpost/engine/engine.h"
#include "ghostpost/rules/game.h"

#include <array>
#include <memory>
#include <random>
#include <span>
#include <string_view>
#include <vector>

namespace ghostpost::engine {

// Centipawns for `us` in the position `board` shows (the engine's own full view of a world).
using Evaluate = int (*)(const rules::BoardView& board, rules::Seat us);

// The positions the engine thinks in. `naming`, when set, is the position the seat sees
// (without what is hidden from it), whose texts name the chosen action as the seat would.
struct Worlds {
    std::vector<std::unique_ptr<rules::Game>> games;
    std::unique_ptr<rules::Game> naming;
    // The position keys (position_key) of the positions the game has been in, when it was
    // replayed from its start: a search that comes back to one of them scores a draw.
    std::vector<std::uint64_t> history;
};

// A hash of the position `g` is in, as its FEN names it without the move counters, with who
// decides what now; 0 when the variant writes no FEN.
std::uint64_t position_key(const rules::Game& g);

// A seat's answer to a question of chance the rules ask without a search (the dice of a
// combat): one of `legal`, or nullopt to search as usual.
using Answer = std::optional<rules::NotatedAction> (*)(
    const rules::BoardView& board, rules::Seat us, const std::vector<rules::NotatedAction>& legal);

// Whether an action is searched below the root as well (nullptr: every action is).
using SearchedDeep = bool (*)(const rules::Action& action);

struct VariantPlay {
    std::string_view name;
    Evaluate evaluate = nullptr;
    Answer answer = nullptr;     // nullptr: every decision is searched
    SearchedDeep deep = nullptr; // nullptr: every action is searched at every depth
    bool quiescence = true;      // search captures past the horizon (not where captures are forced)
    bool transpositions = true;  // fen() names a position exactly (no chance in apply)
    bool late_reductions = true; // late quiet moves are searched shallower first
    int worlds = 1;              // how many positions to sample when something is hidden
    // The share of a level's positions this variant searches, in percent: a position costs
    // more in some variants than in others, and every level keeps its time across variants.
    int node_percent = 100;
    // What a draw costs the seat that searches, in centipawns: where engines of one strength
    // mostly draw (one side hiding), a draw scored below an even position makes
    // each side play on, and the stronger one is the one that gains by it.
    int contempt = 0;
    // Levels 1 to 8's lapses (Limits::lapse) in this variant. Where engines of neighbouring
    // strength nearly always draw, a deeper search alone seldom wins: a level
    // below 8 also errs now and then, a little less often at each level up.
    std::array<int, max_level> lapses{};
};

// Every variant's play (eval_variants.cpp).
std::span<const VariantPlay> variant_plays();
// The play of `variant` (a registry name). Errors: std::invalid_argument when there is none.
const VariantPlay& play_for(std::string_view variant);

// Shared by the evaluations: the usual values of FIDE pieces in centipawns.
int fide_value(rules::PieceKind kind);
// A small bonus for standing near the centre, 0 in a corner to 30 in the middle of the board.
int centre_bonus(const rules::BoardView& board, rules::Square s);

// Determinisation by replay: the variant's start position with the record applied, the draws
// played back as the dice. Errors: std::invalid_argument when the record does not apply or does
// not lead to the cells `view` shows.
Worlds replay_world(const rules::Variant& variant, const rules::SeatView& view,
                    const PublicRecord& record, int count, std::mt19937_64& rng);
// Determinisation of hidden pieces: the positions the rules say the game may be in
// (`hidden`), in a random order, each kept when the seat's view of it is `view`; up to `count`.
// Errors: std::invalid_argument when none fits.
Worlds placed_worlds(const rules::Variant& variant, const rules::HiddenPlacements& hidden,
                     const rules::SeatView& view, const PublicRecord& record, int count,
                     std::mt19937_64& rng);

} // namespace ghostpost::engine
