#include "search.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <string>

namespace ghostpost::engine {

using rules::ActionKind;
using rules::Seat;

namespace {

constexpr int infinity = 1'000'000;
constexpr int max_qdepth = 6;
constexpr int max_ply = 127;
constexpr std::size_t table_size = std::size_t{1} << 18;
// Scores this close to a win are a forced result at a known distance from the root.
constexpr int forced = win_score - 1000;

// The dice of a world in the search: a fixed stream per search, so a seed repeats a choice.
class SearchDice final : public rules::RandomSource {
public:
    explicit SearchDice(std::mt19937_64& rng) : rng_(rng) {}
    std::uint32_t uniform(std::uint32_t n) override {
        return static_cast<std::uint32_t>(rng_() % n);
    }

private:
    std::mt19937_64& rng_;
};

int value_of(const rules::BoardView& b, rules::Square s) {
    if (!s.valid() || s.file >= b.files || s.rank >= b.ranks || b.at(s).figures.empty())
        return 0;
    const auto k = b.at(s).figures.front().piece.kind;
    const int v = fide_value(k);
    return v > 0 ? v : (k == rules::PieceKind::King ? 50 : 400);
}

// A forced result is stored in the table as its distance from the position, not the root.
int to_table(int score, int ply) {
    return score >= forced ? score + ply : score <= -forced ? score - ply : score;
}
int from_table(int score, int ply) {
    return score >= forced ? score - ply : score <= -forced ? score + ply : score;
}

} // namespace

Search::Search(const VariantPlay& play, Seat root, std::uint64_t max_nodes,
               Clock::time_point deadline, std::uint64_t seed,
               const std::vector<std::uint64_t>& history)
    : play_(play), root_(root), max_nodes_(max_nodes), deadline_(deadline), rng_(seed),
      history_keys_(history), killers_(max_ply + 1), history_(10000, 0),
      plies_(max_ply + max_qdepth + 3) {
    if (play_.transpositions)
        table_.resize(table_size);
}

void Search::count_node() {
    ++nodes_;
    if (nodes_ > max_nodes_ ||
        (deadline_ != Clock::time_point::max() && (nodes_ & 63) == 0 && Clock::now() > deadline_))
        throw OutOfBudget{};
}

int Search::history_index(const rules::Action& a) const {
    const int from = a.from.valid() ? a.from.rank * 10 + a.from.file : 0;
    const int to = a.to.valid() ? a.to.rank * 10 + a.to.file : 0;
    return from * 100 + to;
}

const rules::Game* Search::child(const rules::Game& g, Seat seat, const rules::Action& a, int ply) {
    auto& next = plies_[static_cast<std::size_t>(ply)].game;
    if (!next || !next->assign(g))
        next = g.clone();
    SearchDice dice(rng_);
    if (!next->apply_silently(seat, a, dice))
        return nullptr;
    // Decisions of chance that the variant answers without search (a combat's dice) are
    // played at once, one sampled outcome per visit.
    if (play_.answer) {
        for (int guard = 0; guard < 400 && !next->outcome().over(); ++guard) {
            if (next->pending_seats(answer_seats_))
                break; // an ordinary move: searched, not answered
            bool answered = false;
            for (const Seat decider : answer_seats_) {
                auto legal = next->notated_actions(decider);
                next->seat_board(decider, answer_board_);
                auto ans = play_.answer(answer_board_, decider, legal);
                if (!ans || ans->action.kind != ActionKind::Choice || ans->text == "pass")
                    continue;
                if (!next->apply_silently(decider, ans->action, dice))
                    continue;
                count_node(); // a decision answered costs about what a position searched does
                answered = true;
                break;
            }
            if (!answered)
                break;
        }
    }
    return next.get();
}

const rules::BoardView& Search::board_at(const rules::Game& g, int ply) {
    auto& board = plies_[static_cast<std::size_t>(ply)].board;
    g.final_board(board);
    return board;
}

std::optional<int> Search::ended(const rules::Game& g, int ply) const {
    const auto outcome = g.outcome();
    if (outcome.status == rules::Status::Draw)
        return -play_.contempt;
    if (outcome.over()) {
        const bool won = (outcome.status == rules::Status::WhiteWins) == (root_ == Seat::White);
        return won ? win_score - ply : -win_score + ply;
    }
    return std::nullopt;
}

const std::vector<Search::Ordered>& Search::order(const rules::BoardView& b, Seat mover,
                                                  const std::vector<rules::Action>& actions,
                                                  int ply, const rules::Action* first) {
    auto& out = plies_[static_cast<std::size_t>(ply)].ordered;
    out.clear();
    const auto& killers = killers_[static_cast<std::size_t>(std::min(ply, max_ply))];
    for (const auto& act : actions) {
        Ordered o{act, 0, false};
        const bool onto = act.kind == ActionKind::Move || act.kind == ActionKind::Drop;
        if (onto && act.to.valid() && act.to.file < b.files && act.to.rank < b.ranks &&
            !b.at(act.to).figures.empty() && b.at(act.to).figures.front().piece.seat != mover) {
            o.capture = true;
            o.key = 1'000'000 + value_of(b, act.to) * 16 - value_of(b, act.from) / 16;
        } else if (act.promotion != rules::PieceKind::None) {
            o.key = 900'000;
        } else if (act == killers[0] || act == killers[1]) {
            o.key = 800'000;
        } else {
            o.key = history_[static_cast<std::size_t>(history_index(act))];
        }
        if (first && act == *first)
            o.key = 2'000'000;
        out.push_back(o);
    }
    // Highest key first, ties in the order given: a stable insertion sort, which needs no
    // buffer (std::stable_sort allocates one) and is quick on lists this short.
    for (std::size_t i = 1; i < out.size(); ++i) {
        const Ordered o = out[i];
        std::size_t j = i;
        for (; j > 0 && out[j - 1].key < o.key; --j)
            out[j] = out[j - 1];
        out[j] = o;
    }
    return out;
}

int Search::quiesce(const rules::Game& g, int alpha, int beta, int ply, int qdepth) {
    count_node();
    if (auto over = ended(g, ply))
        return *over;
    const auto& board = board_at(g, ply);
    const int stand = play_.evaluate(board, root_);
    if (qdepth >= max_qdepth)
        return stand;
    const auto pending = g.pending();
    if (pending.empty())
        return stand;
    const Seat seat = pending.front().seat;
    const bool maximise = seat == root_;
    if (maximise) {
        if (stand >= beta)
            return stand;
        alpha = std::max(alpha, stand);
    } else {
        if (stand <= alpha)
            return stand;
        beta = std::min(beta, stand);
    }
    int best = stand;
    for (const auto& o : order(board, seat, g.legal_actions(seat), ply, nullptr)) {
        if (!o.capture)
            break; // captures come first
        const auto* next = child(g, seat, o.action, ply + 1);
        if (!next)
            continue;
        const int score = quiesce(*next, alpha, beta, ply + 1, qdepth + 1);
        if (maximise) {
            best = std::max(best, score);
            alpha = std::max(alpha, score);
        } else {
            best = std::min(best, score);
            beta = std::min(beta, score);
        }
        if (alpha >= beta)
            break;
    }
    return best;
}

int Search::search(const rules::Game& g, int depth, int alpha, int beta, int ply) {
    if (auto over = ended(g, ply)) {
        count_node();
        return *over;
    }
    const auto pending = g.pending();
    if (pending.empty()) {
        count_node();
        return play_.evaluate(board_at(g, ply), root_);
    }
    if (depth <= 0 || ply >= max_ply) {
        if (play_.quiescence)
            return quiesce(g, alpha, beta, ply, 0);
        count_node();
        return play_.evaluate(board_at(g, ply), root_);
    }
    count_node();
    const Seat seat = pending.front().seat;
    const bool maximise = seat == root_;

    std::uint64_t key = 0;
    Entry* entry = nullptr;
    rules::Action tt_best;
    bool have_best = false;
    if (play_.transpositions) {
        key = position_key(g);
        // A position the game has been in before is a draw by repetition: the side that is
        // better avoids it, the side that is worse seeks it. Only the game's positions count,
        // not those on the way here, which would make the table's scores depend on the path.
        if (key != 0 && std::binary_search(history_keys_.begin(), history_keys_.end(), key))
            return -play_.contempt;
        if (key != 0) {
            entry = &table_[key & (table_size - 1)];
            if (entry->key == key) {
                const int score = from_table(entry->score, ply);
                if (entry->depth >= depth) {
                    if (entry->bound == 0 || (entry->bound == 1 && score >= beta) ||
                        (entry->bound == 2 && score <= alpha))
                        return score;
                }
                tt_best = entry->best;
                have_best = true;
            }
        }
    }
    const int alpha0 = alpha, beta0 = beta;
    auto actions = g.legal_actions(seat);
    if (play_.deep) {
        // What is not searched deep is still a choice a seat has: dropped only while others
        // are left.
        auto rest = actions;
        std::erase_if(rest, [&](const rules::Action& a) { return !play_.deep(a); });
        if (!rest.empty())
            actions = std::move(rest);
    }
    if (actions.empty()) {
        count_node();
        return play_.evaluate(board_at(g, ply), root_);
    }
    const auto& board = board_at(g, ply);
    // A royal piece in check: the reply is searched a ply deeper, so a mate or a lost piece
    // behind the check is not hidden just past the horizon.
    if (board.check.valid() && ply < 2 * depth + 8)
        ++depth;
    const auto& ordered = order(board, seat, actions, ply, have_best ? &tt_best : nullptr);
    const bool in_check = board.check.valid();

    int best = maximise ? -infinity : infinity;
    rules::Action best_action = ordered.front().action;
    int searched = 0;
    for (const auto& o : ordered) {
        const auto* next = child(g, seat, o.action, ply + 1);
        if (!next)
            continue;
        int score = 0;
        // Late quiet moves rarely matter: a shallower look first, the full depth when it
        // surprises.
        const bool reduce = play_.late_reductions && depth >= 3 && searched >= 3 && !o.capture &&
                            o.key < 800'000 && !in_check;
        if (reduce) {
            score = maximise ? search(*next, depth - 2, alpha, alpha + 1, ply + 1)
                             : search(*next, depth - 2, beta - 1, beta, ply + 1);
            if (maximise ? score > alpha : score < beta)
                score = search(*next, depth - 1, alpha, beta, ply + 1);
        } else {
            score = search(*next, depth - 1, alpha, beta, ply + 1);
        }
        ++searched;
        if (maximise ? score > best : score < best) {
            best = score;
            best_action = o.action;
        }
        if (maximise)
            alpha = std::max(alpha, score);
        else
            beta = std::min(beta, score);
        if (alpha >= beta) {
            if (!o.capture) {
                auto& k = killers_[static_cast<std::size_t>(std::min(ply, max_ply))];
                if (!(k[0] == o.action)) {
                    k[1] = k[0];
                    k[0] = o.action;
                }
                history_[static_cast<std::size_t>(history_index(o.action))] += depth * depth;
            }
            break;
        }
    }
    if (entry != nullptr) {
        entry->key = key;
        entry->depth = static_cast<std::int8_t>(std::min(depth, 100));
        entry->score = to_table(best, ply);
        entry->best = best_action;
        entry->bound = best >= beta0 ? 1 : best <= alpha0 ? 2 : 0;
    }
    return best;
}

SearchResult Search::run(const rules::Game& world, int max_depth, bool exact,
                         const std::vector<rules::Action>& allowed) {
    SearchResult result;
    auto named = world.notated_actions(root_);
    if (!allowed.empty())
        std::erase_if(named, [&](const rules::NotatedAction& a) {
            return std::find(allowed.begin(), allowed.end(), a.action) == allowed.end();
        });
    if (named.empty())
        return result;
    std::vector<rules::Action> actions;
    for (const auto& a : named)
        actions.push_back(a.action);
    const auto& board = board_at(world, 0);
    std::vector<rules::NotatedAction> root;
    for (const auto& o : order(board, root_, actions, 0, nullptr))
        for (const auto& a : named)
            if (a.action == o.action) {
                root.push_back(a);
                break;
            }
    for (int depth = 1; depth <= max_depth; ++depth) {
        std::vector<RootScore> scores;
        try {
            int alpha = -infinity;
            for (const auto& a : root) {
                const auto* next = child(world, root_, a.action, 1);
                if (!next)
                    continue;
                // Exact scores for all: a full window. Otherwise a move must beat the best.
                const int score = search(*next, depth - 1, exact ? -infinity : alpha, infinity, 1);
                scores.push_back({a, score});
                alpha = std::max(alpha, score);
            }
        } catch (const OutOfBudget&) {
            if (depth > 1) {
                // Keep the last full depth, but a move this depth proved better replaces it.
                if (!exact && !scores.empty() && !result.scores.empty()) {
                    auto best = std::max_element(
                        scores.begin(), scores.end(),
                        [](const RootScore& x, const RootScore& y) { return x.score < y.score; });
                    if (best->score > result.scores.front().score && best != scores.begin()) {
                        auto it = std::find_if(result.scores.begin(), result.scores.end(),
                                               [&](const RootScore& r) {
                                                   return r.action.action == best->action.action;
                                               });
                        if (it != result.scores.end())
                            std::rotate(result.scores.begin(), it, it + 1);
                    }
                }
                break;
            }
            // Depth 1 must finish: give it the nodes it needs, and stop there.
            max_nodes_ = std::numeric_limits<std::uint64_t>::max();
            deadline_ = Clock::time_point::max();
            max_depth = 1;
            --depth;
            continue;
        }
        std::stable_sort(scores.begin(), scores.end(),
                         [](const RootScore& x, const RootScore& y) { return x.score > y.score; });
        result.scores = scores;
        result.depth = depth;
        // The next depth looks at the best moves first.
        root.clear();
        for (const auto& s : scores)
            root.push_back(s.action);
        if (std::abs(scores.front().score) >= forced)
            break; // a forced result: deeper search will not change the choice
    }
    result.nodes = nodes_;
    return result;
}

} // namespace ghostpost::engine
