// Alpha-beta over the rules interface: iterative deepening, captures first (most valuable
// victim, least valuable attacker), killer moves and a history table, a transposition table
// keyed by a hash of the position's FEN where the variant has one and no dice, a position of
// the game's past scored as a draw by repetition, a check extension, late quiet moves searched
// shallower first, and a capture search past the horizon.
// Scores are always for the root seat: a node maximises when the root seat decides there and
// minimises otherwise, so variants where one seat decides twice in a row need nothing special.
//
// The search stops on its budget of positions, so the same inputs and seed search the same tree
// on any machine under any load; a wall-clock deadline, when one is given, is only a safety cap.
#pragma once

#include "variant_play.h"

#include <array>
#include <chrono>
#include <cstdint>
#include <random>
#include <vector>

namespace ghostpost::engine {

struct RootScore {
    rules::NotatedAction action;
    int score = 0;
};

struct SearchResult {
    std::vector<RootScore> scores; // best first; all root actions when asked for exact scores
    int depth = 0;
    std::uint64_t nodes = 0;
};

class Search {
public:
    using Clock = std::chrono::steady_clock;
    // `deadline` Clock::time_point::max() searches the budget of nodes to its end.
    // `history`: the sorted position keys of the game so far (a position met again in the
    // search is a draw by repetition); empty when unknown.
    Search(const VariantPlay& play, rules::Seat root, std::uint64_t max_nodes,
           Clock::time_point deadline, std::uint64_t seed,
           const std::vector<std::uint64_t>& history = {});

    // Searches `world` to `max_depth` or until the budget runs out. Only root actions in
    // `allowed` are considered when it is not empty. With `exact`, every root action gets its
    // true score at the last completed depth (for noisy low levels); otherwise only the best
    // is exact. At least depth 1 is always completed.
    SearchResult run(const rules::Game& world, int max_depth, bool exact,
                     const std::vector<rules::Action>& allowed);

private:
    struct Entry {
        std::uint64_t key = 0;
        int score = 0;
        std::int8_t depth = -1;
        std::uint8_t bound = 0; // 0 exact, 1 lower, 2 upper
        rules::Action best;
    };
    struct Ordered {
        rules::Action action;
        int key = 0;
        bool capture = false;
    };

    // What the search keeps for each ply, reused from one position to the next so that a
    // position visited allocates nothing where the variant reuses storage (Game::assign).
    struct Ply {
        std::unique_ptr<rules::Game> game; // the position at this ply (child() writes it)
        rules::BoardView board;            // its final board, once read
        std::vector<Ordered> ordered;      // its actions in the order they are searched
    };

    int search(const rules::Game& g, int depth, int alpha, int beta, int ply);
    int quiesce(const rules::Game& g, int alpha, int beta, int ply, int qdepth);
    // The score of a position where the game is over, or nullopt.
    std::optional<int> ended(const rules::Game& g, int ply) const;
    // `actions` in the order they are searched, written over plies_[ply].ordered.
    const std::vector<Ordered>& order(const rules::BoardView& b, rules::Seat mover,
                                      const std::vector<rules::Action>& actions, int ply,
                                      const rules::Action* first);
    // `g`'s final board, written over plies_[ply].board.
    const rules::BoardView& board_at(const rules::Game& g, int ply);
    // `g` after `seat` plays `a`, then the decisions of chance the variant answers without
    // search (both seats choosing dice) played with their answers; nullptr when `a` is refused.
    // The position is plies_[ply].game, valid until the next child() at the same ply.
    const rules::Game* child(const rules::Game& g, rules::Seat seat, const rules::Action& a,
                             int ply);
    // Counts a position; throws OutOfBudget when the nodes or the time are spent.
    void count_node();
    int history_index(const rules::Action& a) const;

    const VariantPlay& play_;
    rules::Seat root_;
    std::uint64_t max_nodes_;
    Clock::time_point deadline_;
    std::mt19937_64 rng_;
    std::uint64_t nodes_ = 0;
    const std::vector<std::uint64_t>& history_keys_;
    std::vector<Entry> table_;
    std::vector<std::array<rules::Action, 2>> killers_;
    std::vector<int> history_;
    std::vector<Ply> plies_;
    rules::BoardView answer_board_;         // a seat's board for the answers of chance (child())
    std::vector<rules::Seat> answer_seats_; // the seats to decide there (child())
};

// Thrown inside the search when the budget runs out; the root keeps its last full depth.
struct OutOfBudget {};

} // namespace ghostpost::engine
