// ghostpost as a player. The engine is given what one seat knows of a game, never the game:
// that seat's SeatView and the public record (the variant, its options, every action's
// announced text and the dice everybody saw). From these it builds the positions it thinks in
// (one, or a sample of those consistent with what it knows when the rules hide something),
// searches them through the rules interface and names one action for its seat.
#pragma once

#include "ghostpost/rules/game.h"
#include "ghostpost/rules/replay.h"
#include "ghostpost/rules/view.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ghostpost::engine {

// What everybody has seen of a game since it started.
struct PublicRecord {
    std::string variant;    // registry name or alias
    rules::Options options; // as the game was started with
    // The position the game started from when it was not the variant's own (a study, a test);
    // only where the start is public: a seat's view, not this, gives what the rules hide.
    std::string start_fen;
    std::vector<rules::LoggedAction> actions; // announced texts, in order (no hidden choice)
    std::vector<std::uint32_t> draws; // the chance outcomes announced so far (dice), in order
};

// How hard the engine thinks: levels 1 (weak, noisy) to 8 (strongest, under 2 s a move). The
// budget is counted in positions searched, so a level plays the same moves on any machine under
// any load; the wall-clock cap only keeps a daemon on a busy machine answering in time.
struct Limits {
    int max_depth = 64;
    std::uint64_t max_nodes = 1000; // positions searched, before the variant's own scale
    double max_seconds = 0;         // a safety cap on the wall clock; 0: none (reproducible)
    int noise = 0;                  // centipawns of random spread on the root moves' scores
    // Percent of its moves on which the level has a lapse: it answers as level 1 would (one
    // ply, 400 centipawns of noise) instead of searching.
    int lapse = 0;
};
inline constexpr int min_level = 1;
inline constexpr int max_level = 8;
// The limits of a level; levels outside 1..8 are clamped.
Limits limits_for_level(int level);
// The limits of a level in `variant` (a registry name or alias): the same positions, depth and
// noise, with the variant's lapses where it has them. Errors:
// std::invalid_argument when the engine does not play the variant.
Limits limits_for_level(int level, std::string_view variant);

struct Choice {
    rules::NotatedAction action; // one of the seat's legal actions, with its canonical text
    int score = 0;               // centipawns for the engine's seat; large when a win is seen
    int depth = 0;               // the deepest search completed
    std::uint64_t nodes = 0;     // positions searched
    int worlds = 1;              // positions thought in (more than one when something is hidden)
};

// Scores at or beyond this mean a forced result was seen.
inline constexpr int win_score = 100000;

// The action the engine takes for `view.seat()`, thinking within `limits`, with `seed` for its
// random choices (same inputs and seed, same choice, unless the wall-clock cap cut the search).
// nullopt when the seat has nothing to decide (or the game is over). Errors:
// std::invalid_argument when the variant is unknown or the record does not lead to `view`.
std::optional<Choice> choose(const rules::SeatView& view, const PublicRecord& record,
                             const Limits& limits, std::uint64_t seed);

// A RandomSource that writes down every number it hands out, so a caller holding the real
// game's stream can give the engine the public dice (PublicRecord::draws).
class RecordingRandom final : public rules::RandomSource {
public:
    explicit RecordingRandom(rules::RandomSource& inner) : inner_(inner) {}
    std::uint32_t uniform(std::uint32_t n) override {
        draws_.push_back(inner_.uniform(n));
        return draws_.back();
    }
    const std::vector<std::uint32_t>& draws() const { return draws_; }

private:
    rules::RandomSource& inner_;
    std::vector<std::uint32_t> draws_;
};

} // namespace ghostpost::engine
