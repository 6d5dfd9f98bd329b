#include "ghostpost/bot/pairing.h"

#include <algorithm>

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

std::vector<Standing> standings(int players, const std::vector<PlayedGame>& games,
                                bool round_robin) {
    std::vector<Standing> table(static_cast<std::size_t>(players));
    for (int p = 0; p < players; ++p)
        table[static_cast<std::size_t>(p)].player = p;
    auto at = [&](int p) -> Standing& { return table[static_cast<std::size_t>(p)]; };
    for (const auto& g : games) {
        at(g.white).score += g.white_score;
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
