#include "ghostpost/engine/engine.h"

#include "ghostpost/rules/registry.h"
#include "search.h"
#include "variant_play.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace ghostpost::engine {

using rules::Seat;

Limits limits_for_level(int level) {
    // Depth, positions searched, a wall-clock cap and noise per level. The low levels are set
    // by depth and noise, the high ones by positions, which nearly treble from level to level
    // (each doubling is worth less the deeper the search). The seconds are only a safety cap
    // for a daemon on a loaded machine: on this one level 8 answers well under 2 s a move.
    static const Limits table[] = {
        {1, 1'000, 0.5, 400}, {1, 2'000, 0.5, 60},  {2, 4'000, 0.6, 25},  {3, 8'000, 0.7, 10},
        {64, 10'000, 0.8, 0}, {64, 25'000, 1.0, 0}, {64, 70'000, 1.4, 0}, {64, 250'000, 1.9, 0},
    };
    return table[std::clamp(level, min_level, max_level) - 1];
}

Limits limits_for_level(int level, std::string_view variant) {
    Limits limits = limits_for_level(level);
    const auto index = static_cast<std::size_t>(std::clamp(level, min_level, max_level) - 1);
    limits.lapse = play_for(variant).lapses[index];
    return limits;
}

std::optional<Choice> choose(const rules::SeatView& view, const PublicRecord& record,
                             const Limits& limits, std::uint64_t seed) {
    const rules::Variant* variant = rules::find_variant(record.variant);
    if (variant == nullptr)
        throw std::invalid_argument("unknown variant " + record.variant);
    const VariantPlay& play = play_for(variant->info().name);
    if (limits.lapse > 0) {
        // A stream of its own, so that the moves searched are the same with lapses or without.
        std::mt19937_64 lapses(seed ^ 0x1a95e5ULL);
        if (static_cast<int>(lapses() % 100) < limits.lapse) {
            Limits lapse = limits_for_level(min_level);
            lapse.max_seconds = limits.max_seconds;
            return choose(view, record, lapse, seed);
        }
    }
    const Seat us = view.seat();
    std::mt19937_64 rng(seed);
    // Where the rules hide pieces from this seat, the positions they may stand in; otherwise the
    // record replays to the one position.
    const auto hidden = variant->hidden_placements(view, record.actions);
    Worlds worlds = hidden ? placed_worlds(*variant, *hidden, view, record, play.worlds, rng)
                           : replay_world(*variant, view, record, 1, rng);
    const rules::Game& first = *worlds.games.front();
    if (first.outcome().over())
        return std::nullopt;
    const auto pending = first.pending();
    if (std::none_of(pending.begin(), pending.end(),
                     [&](const rules::Decision& d) { return d.seat == us; }))
        return std::nullopt;
    const auto legal = first.notated_actions(us);
    if (legal.empty())
        return std::nullopt;

    // The name the seat gives an action: from the position it sees when there is one.
    auto named = [&](const rules::NotatedAction& a) {
        if (worlds.naming)
            for (auto& seen : worlds.naming->notated_actions(us))
                if (seen.action == a.action)
                    return seen;
        return a;
    };
    if (play.answer) {
        if (auto answer = play.answer(first.seat_view(us).board(), us, legal))
            return Choice{named(*answer), 0, 0, 0, 1};
    }
    if (legal.size() == 1)
        return Choice{named(legal.front()), 0, 0, 0, 1};

    // Root actions legal in every world: a move a hidden piece might forbid is avoided.
    std::vector<rules::Action> allowed;
    for (const auto& a : legal) {
        bool everywhere = true;
        for (std::size_t i = 1; i < worlds.games.size() && everywhere; ++i) {
            auto other = worlds.games[i]->notated_actions(us);
            everywhere =
                std::any_of(other.begin(), other.end(),
                            [&](const rules::NotatedAction& o) { return o.action == a.action; });
        }
        if (everywhere)
            allowed.push_back(a.action);
    }

    const auto deadline =
        limits.max_seconds > 0
            ? Search::Clock::now() +
                  std::chrono::microseconds(static_cast<std::int64_t>(limits.max_seconds * 1e6))
            : Search::Clock::time_point::max();
    const auto budget = limits.max_nodes * static_cast<std::uint64_t>(play.node_percent) / 100;
    const auto per_world = std::max<std::uint64_t>(1, budget / worlds.games.size());
    struct Tally {
        rules::NotatedAction action;
        int votes = 0;
        long total = 0;
    };
    std::vector<Tally> tally;
    Choice choice;
    choice.worlds = static_cast<int>(worlds.games.size());
    for (std::size_t i = 0; i < worlds.games.size(); ++i) {
        Search search(play, us, per_world, deadline, seed + 0x9E37 * (i + 1), worlds.history);
        auto result = search.run(*worlds.games[i], limits.max_depth, limits.noise > 0, allowed);
        choice.nodes += result.nodes;
        choice.depth = std::max(choice.depth, result.depth);
        if (result.scores.empty())
            continue;
        RootScore best = result.scores.front();
        if (limits.noise > 0) {
            int best_noisy = 0;
            bool any = false;
            for (const auto& s : result.scores) {
                const int spread = 2 * limits.noise + 1;
                const int noisy = s.score +
                                  static_cast<int>(rng() % static_cast<std::uint64_t>(spread)) -
                                  limits.noise;
                if (!any || noisy > best_noisy) {
                    best = s;
                    best_noisy = noisy;
                    any = true;
                }
            }
        }
        auto it = std::find_if(tally.begin(), tally.end(), [&](const Tally& t) {
            return t.action.action == best.action.action;
        });
        if (it == tally.end())
            tally.push_back({best.action, 1, best.score});
        else {
            ++it->votes;
            it->total += best.score;
        }
    }
    if (tally.empty())
        return Choice{named(legal.front()), 0, 0, choice.nodes, choice.worlds};
    const auto winner =
        std::max_element(tally.begin(), tally.end(), [](const Tally& x, const Tally& y) {
            return x.votes != y.votes ? x.votes < y.votes : x.total < y.total;
        });
    choice.action = named(winner->action);
    choice.score = static_cast<int>(winner->total / winner->votes);
    return choice;
}

} // namespace ghostpost::engine
