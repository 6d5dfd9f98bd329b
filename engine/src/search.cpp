#include "search.h"

#include <algorithm>
#include <limits>

namespace ghostpost::engine {

using rules::ActionKind;
using rules::Seat;

namespace {

constexpr int infinity = 1'000'000;
constexpr int max_qdepth = 6;

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

} // namespace

Search::Search(const VariantPlay& play, Seat root, std::uint64_t max_nodes,
               Clock::time_point deadline, std::uint64_t seed)
    : play_(play), root_(root), max_nodes_(max_nodes), deadline_(deadline), rng_(seed),
      killers_(128), history_(10000, 0) {}

void Search::count_node() {
    ++nodes_;
    if (nodes_ > max_nodes_ || ((nodes_ & 63) == 0 && Clock::now() > deadline_))
        throw OutOfBudget{};
}

int Search::history_index(const rules::Action& a) const {
    const int from = a.from.valid() ? a.from.rank * 10 + a.from.file : 0;
    const int to = a.to.valid() ? a.to.rank * 10 + a.to.file : 0;
    return from * 100 + to;
}

std::unique_ptr<rules::Game> Search::child(const rules::Game& g, Seat seat,
                                           const rules::Action& a) {
    auto next = g.clone();
    SearchDice dice(rng_);
    auto applied = next->apply(seat, a, dice);
    if (!applied)
        return nullptr;
    // Decisions of chance that the variant answers without search (a combat's dice) are
    // played at once, one sampled outcome per visit.
    if (play_.answer) {
        for (int guard = 0; guard < 400 && !next->outcome().over(); ++guard) {
            auto pending = next->pending();
            bool answered = false;
            for (const auto& d : pending) {
                if (pending.size() == 1 && d.what == "move")
                    continue; // an ordinary move: searched, not answered
                auto legal = next->notated_actions(d.seat);
                auto ans = play_.answer(next->seat_view(d.seat).board(), d.seat, legal);
                if (!ans || ans->action.kind != ActionKind::Choice || ans->text == "pass")
                    continue;
                if (!next->apply(d.seat, ans->action, dice))
                    continue;
                answered = true;
                break;
            }
            if (!answered)
                break;
        }
    }
    return next;
}

int Search::leaf(const rules::Game& g, int ply) {
    const auto outcome = g.outcome();
    if (outcome.status == rules::Status::Draw)
        return 0;
    if (outcome.over()) {
        const bool won = (outcome.status == rules::Status::WhiteWins) == (root_ == Seat::White);
        return won ? win_score - ply : -win_score + ply;
    }
    return play_.evaluate(g.final_view().board(), root_);
}

std::vector<Search::Ordered> Search::order(const rules::BoardView& b, Seat mover,
                                           std::vector<rules::NotatedAction> actions, int ply,
                                           const rules::Action* first) const {
    std::vector<Ordered> out;
    out.reserve(actions.size());
    const auto& killers = killers_[static_cast<std::size_t>(std::min(ply, 127))];
    for (auto& a : actions) {
        Ordered o{std::move(a), 0, false};
        const auto& act = o.action.action;
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
        out.push_back(std::move(o));
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const Ordered& x, const Ordered& y) { return x.key > y.key; });
    return out;
}

int Search::quiesce(const rules::Game& g, int alpha, int beta, int ply, int qdepth) {
    count_node();
    const int stand = leaf(g, ply);
    if (g.outcome().over() || qdepth >= max_qdepth)
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
    const auto board = g.final_view().board();
    int best = stand;
    for (auto& o : order(board, seat, g.notated_actions(seat), ply, nullptr)) {
        if (!o.capture)
            break; // captures come first
        auto next = child(g, seat, o.action.action);
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
    if (g.outcome().over())
        return leaf(g, ply);
    const auto pending = g.pending();
    if (pending.empty())
        return leaf(g, ply);
    if (depth <= 0)
        return play_.quiescence ? quiesce(g, alpha, beta, ply, 0) : (count_node(), leaf(g, ply));
    count_node();
    const Seat seat = pending.front().seat;
    const bool maximise = seat == root_;

    std::string key;
    const rules::Action* first = nullptr;
    Entry* entry = nullptr;
    if (play_.transpositions) {
        key = g.fen();
        if (!key.empty()) {
            key += seat == Seat::White ? "|w" : "|b";
            entry = &table_[key];
            if (entry->depth >= depth) {
                if (entry->bound == 0)
                    return entry->score;
                if (entry->bound == 1 && entry->score >= beta)
                    return entry->score;
                if (entry->bound == 2 && entry->score <= alpha)
                    return entry->score;
            }
            if (entry->depth >= 0)
                first = &entry->best;
        }
    }
    const rules::Action tt_best = first ? *first : rules::Action{};
    const int alpha0 = alpha, beta0 = beta;
    auto actions = g.notated_actions(seat);
    if (actions.empty())
        return leaf(g, ply);
    const auto board = g.final_view().board();
    auto ordered = order(board, seat, std::move(actions), ply, first ? &tt_best : nullptr);

    int best = maximise ? -infinity : infinity;
    rules::Action best_action = ordered.front().action.action;
    for (auto& o : ordered) {
        auto next = child(g, seat, o.action.action);
        if (!next)
            continue;
        const int score = search(*next, depth - 1, alpha, beta, ply + 1);
        if (maximise ? score > best : score < best) {
            best = score;
            best_action = o.action.action;
        }
        if (maximise)
            alpha = std::max(alpha, score);
        else
            beta = std::min(beta, score);
        if (alpha >= beta) {
            if (!o.capture) {
                auto& k = killers_[static_cast<std::size_t>(std::min(ply, 127))];
                if (!(k[0] == o.action.action)) {
                    k[1] = k[0];
                    k[0] = o.action.action;
                }
                history_[static_cast<std::size_t>(history_index(o.action.action))] += depth * depth;
            }
            break;
        }
    }
    if (entry != nullptr) {
        entry = &table_[key]; // the map may have rehashed during the children
        entry->depth = depth;
        entry->score = best;
        entry->best = best_action;
        entry->bound = best >= beta0 ? 1 : best <= alpha0 ? 2 : 0;
        if (table_.size() > 400'000)
            table_.clear();
    }
    return best;
}

SearchResult Search::run(const rules::Game& world, int max_depth, bool exact,
                         const std::vector<rules::Action>& allowed) {
    SearchResult result;
    const auto pending = world.pending();
    auto actions = world.notated_actions(root_);
    if (!allowed.empty())
        std::erase_if(actions, [&](const rules::NotatedAction& a) {
            return std::find(allowed.begin(), allowed.end(), a.action) == allowed.end();
        });
    if (actions.empty())
        return result;
    const auto board = world.final_view().board();
    auto root = order(board, root_, std::move(actions), 0, nullptr);
    for (int depth = 1; depth <= max_depth; ++depth) {
        std::vector<RootScore> scores;
        try {
            int alpha = -infinity;
            for (auto& o : root) {
                auto next = child(world, root_, o.action.action);
                if (!next)
                    continue;
                // Exact scores for all: a full window. Otherwise a move must beat the best.
                const int score = search(*next, depth - 1, exact ? -infinity : alpha, infinity, 1);
                scores.push_back({o.action, score});
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
            // Depth 1 must finish: give it the nodes it needs, one per action.
            max_nodes_ = std::numeric_limits<std::uint64_t>::max();
            deadline_ = Clock::time_point::max();
            --depth;
            continue;
        }
        std::stable_sort(scores.begin(), scores.end(),
                         [](const RootScore& x, const RootScore& y) { return x.score > y.score; });
        result.scores = scores;
        result.depth = depth;
        // The next depth looks at the best moves first.
        std::vector<Ordered> reordered;
        for (const auto& s : scores)
            reordered.push_back({s.action, 0, false});
        root = std::move(reordered);
        if (std::abs(scores.front().score) >= win_score - 200)
            break; // a forced result: deeper search will not change the choice
    }
    result.nodes = nodes_;
    return result;
}

} // namespace ghostpost::engine
