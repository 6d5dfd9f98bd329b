#include "ghostpost/bot/pairing.h"

#include <algorithm>
#include <functional>

namespace ghostpost::bot {

std::vector<std::vector<Pairing>> berger_schedule(int players, bool double_round) {
    std::vector<std::vector<Pairing>> rounds;
    if (players < 2)
        return rounds;
    const int n = players + players % 2; // an odd field plays with a phantom last player
    const int m = n - 1;
    auto real = [&](int p) { return p < players ? p : bye; };
    for (int r = 0; r < m; ++r) {
        std::vector<Pairing> round;
        const int s = (r * (n / 2)) % m;
        // The last player alternates colours; the others rotate round the circle.
        Pairing first = r % 2 == 0 ? Pairing{s, n - 1} : Pairing{n - 1, s};
        round.push_back(first);
        for (int i = 1; i < n / 2; ++i)
            round.push_back({(s + i) % m, (s - i + m) % m});
        for (auto& p : round) {
            p = {real(p.white), real(p.black)};
            if (p.white == bye)
                std::swap(p.white, p.black); // the one who plays is named first
        }
        rounds.push_back(round);
    }
    if (double_round) {
        const auto first_cycle = rounds;
        for (auto round : first_cycle) {
            for (auto& p : round)
                if (p.black != bye)
                    std::swap(p.white, p.black);
            rounds.push_back(round);
        }
    }
    return rounds;
}

std::optional<std::vector<Pairing>> swiss_round(const std::vector<SwissPlayer>& ranked) {
    const int n = static_cast<int>(ranked.size());
    std::vector<bool> used(static_cast<std::size_t>(n), false);
    std::vector<Pairing> out;
    auto met = [&](int a, int b) {
        const auto& o = ranked[static_cast<std::size_t>(a)].opponents;
        return std::find(o.begin(), o.end(), ranked[static_cast<std::size_t>(b)].player) != o.end();
    };
    auto colours = [&](int a, int b) -> Pairing {
        const auto& pa = ranked[static_cast<std::size_t>(a)];
        const auto& pb = ranked[static_cast<std::size_t>(b)];
        bool a_white = pa.colour_balance != pb.colour_balance ? pa.colour_balance < pb.colour_balance
                       : pa.last_colour != pb.last_colour    ? pa.last_colour < pb.last_colour
                                                             : true; // the higher-ranked player
        return a_white ? Pairing{pa.player, pb.player} : Pairing{pb.player, pa.player};
    };
    // Candidates for the highest unpaired player: the bottom half of their own score group
    // first (top meets bottom), then the rest of the group, then lower groups in order.
    std::function<bool()> pair_rest = [&]() -> bool {
        int top = -1;
        for (int i = 0; i < n; ++i)
            if (!used[static_cast<std::size_t>(i)]) {
                top = i;
                break;
            }
        if (top < 0)
            return true;
        std::vector<int> group, lower;
        for (int i = top + 1; i < n; ++i) {
            if (used[static_cast<std::size_t>(i)])
                continue;
            (ranked[static_cast<std::size_t>(i)].score == ranked[static_cast<std::size_t>(top)].score ? group : lower).push_back(i);
        }
        // With the top player the group has k + 1 members; the bottom half starts at (k + 1) / 2.
        const std::size_t k = group.size();
        const std::size_t h = k == 0 ? 0 : (k + 1) / 2 - 1;
        std::vector<int> order(group.begin() + static_cast<std::ptrdiff_t>(h), group.end());
        order.insert(order.end(), group.begin(), group.begin() + static_cast<std::ptrdiff_t>(h));
        order.insert(order.end(), lower.begin(), lower.end());
        used[static_cast<std::size_t>(top)] = true;
        for (int c : order) {
            if (met(top, c))
                continue;
            used[static_cast<std::size_t>(c)] = true;
            out.push_back(colours(top, c));
            if (pair_rest())
                return true;
            out.pop_back();
            used[static_cast<std::size_t>(c)] = false;
        }
        used[static_cast<std::size_t>(top)] = false;
        return false;
    };
    if (n % 2 == 1) {
        for (int b = n - 1; b >= 0; --b) {
            if (ranked[static_cast<std::size_t>(b)].had_bye)
                continue;
            used[static_cast<std::size_t>(b)] = true;
            out.clear();
            if (pair_rest()) {
                out.push_back({ranked[static_cast<std::size_t>(b)].player, bye});
                return out;
            }
            used[static_cast<std::size_t>(b)] = false;
        }
        return std::nullopt;
    }
    if (pair_rest())
        return out;
    return std::nullopt;
}

std::vector<Pairing> knockout_first_round(int players) {
    int size = 1;
    while (size < players)
        size *= 2;
    std::vector<int> order{1};
    for (int s = 1; s < size; s *= 2) {
        std::vector<int> next;
        for (int seed : order) {
            next.push_back(seed);
            next.push_back(2 * s + 1 - seed);
        }
        order = next;
    }
    std::vector<Pairing> out;
    for (std::size_t i = 0; i + 1 < order.size(); i += 2) {
        const int a = order[i] - 1, b = order[i + 1] - 1;
        out.push_back({a, b < players ? b : bye});
    }
    return out;
}

std::vector<Standing> standings(int players, const std::vector<PlayedGame>& games, bool round_robin) {
    std::vector<Standing> table(static_cast<std::size_t>(players));
    for (int p = 0; p < players; ++p)
        table[static_cast<std::size_t>(p)].player = p;
    auto at = [&](int p) -> Standing& { return table[static_cast<std::size_t>(p)]; };
    for (const auto& g : games) {
        at(g.white).score += g.black == bye ? 1.0 : g.white_score;
        if (g.black != bye)
            at(g.black).score += 1.0 - g.white_score;
    }
    for (const auto& g : games) {
        if (g.black == bye)
            continue;
        at(g.white).buchholz += at(g.black).score;
        at(g.black).buchholz += at(g.white).score;
        at(g.white).sonneborn_berger += g.white_score * at(g.black).score;
        at(g.black).sonneborn_berger += (1.0 - g.white_score) * at(g.white).score;
    }
    std::stable_sort(table.begin(), table.end(), [&](const Standing& a, const Standing& b) {
        if (a.score != b.score)
            return a.score > b.score;
        const double a1 = round_robin ? a.sonneborn_berger : a.buchholz;
        const double b1 = round_robin ? b.sonneborn_berger : b.buchholz;
        if (a1 != b1)
            return a1 > b1;
        const double a2 = round_robin ? a.buchholz : a.sonneborn_berger;
        const double b2 = round_robin ? b.buchholz : b.sonneborn_berger;
        if (a2 != b2)
            return a2 > b2;
        return a.player < b.player;
    });
    return table;
}

} // namespace ghostpost::bot
