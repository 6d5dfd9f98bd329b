#include "ghostpost/league/pairing.h"

#include <algorithm>

namespace ghostpost::bot {

std::vector<std::vector<Pairing>> berger_schedule(int players, bool double_round) {
    std::vector<std::vector<Pairing>> rounds;
    if (players < 2)
        return rounds;
    const int n = players + players % 2; // an odd field plays with a dummy last player (the bye)
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

std::vector<TieBreak> tie_breaks(bool round_robin) {
    if (round_robin)
        return {TieBreak::DirectEncounter, TieBreak::SonnebornBerger, TieBreak::Buchholz};
    return {TieBreak::BuchholzCut1, TieBreak::Buchholz, TieBreak::DirectEncounter,
            TieBreak::SonnebornBerger};
}

const char* tie_break_name(TieBreak b) {
    switch (b) {
    case TieBreak::BuchholzCut1:
        return "Buchholz cut 1";
    case TieBreak::Buchholz:
        return "Buchholz";
    case TieBreak::DirectEncounter:
        return "direct encounter";
    case TieBreak::SonnebornBerger:
        return "Sonneborn-Berger";
    }
    return "";
}

const char* tie_break_short(TieBreak b) {
    switch (b) {
    case TieBreak::BuchholzCut1:
        return "BH-C1";
    case TieBreak::Buchholz:
        return "BH";
    case TieBreak::DirectEncounter:
        return "DE";
    case TieBreak::SonnebornBerger:
        return "SB";
    }
    return "";
}

std::optional<double> tie_break_value(const Standing& s, TieBreak b) {
    switch (b) {
    case TieBreak::BuchholzCut1:
        return s.buchholz_cut1;
    case TieBreak::Buchholz:
        return s.buchholz;
    case TieBreak::DirectEncounter:
        return s.direct_encounter;
    case TieBreak::SonnebornBerger:
        return s.sonneborn_berger;
    }
    return std::nullopt;
}

std::vector<Standing> standings(int players, const std::vector<PlayedGame>& games, bool round_robin,
                                int rounds) {
    std::vector<Standing> table(static_cast<std::size_t>(players));
    for (int p = 0; p < players; ++p)
        table[static_cast<std::size_t>(p)].player = p;
    auto at = [&](int p) -> Standing& { return table[static_cast<std::size_t>(p)]; };
    for (const auto& g : games) {
        at(g.white).score += g.white_score;
        if (g.black != bye)
            at(g.black).score += 1.0 - g.white_score;
    }
    std::vector<std::vector<double>> faced(static_cast<std::size_t>(players));
    for (const auto& g : games) {
        if (g.black == bye)
            continue;
        faced[static_cast<std::size_t>(g.white)].push_back(at(g.black).score);
        faced[static_cast<std::size_t>(g.black)].push_back(at(g.white).score);
        at(g.white).sonneborn_berger += g.white_score * at(g.black).score;
        at(g.black).sonneborn_berger += (1.0 - g.white_score) * at(g.white).score;
    }
    for (auto& s : table) {
        const auto& scores = faced[static_cast<std::size_t>(s.player)];
        for (double v : scores)
            s.buchholz += v;
        s.buchholz_cut1 = s.buchholz;
        if (!scores.empty() && static_cast<int>(scores.size()) >= rounds)
            s.buchholz_cut1 -= *std::min_element(scores.begin(), scores.end());
    }

    const std::vector<TieBreak> order = tie_breaks(round_robin);
    // Compares by score and the tie-breaks before position `upto` of `order`.
    auto level = [&](const Standing& a, const Standing& b, std::size_t upto) {
        if (a.score != b.score)
            return a.score > b.score ? -1 : 1;
        for (std::size_t i = 0; i < upto; ++i) {
            const double x = tie_break_value(a, order[i]).value_or(0);
            const double y = tie_break_value(b, order[i]).value_or(0);
            if (x != y)
                return x > y ? -1 : 1;
        }
        return 0;
    };
    const auto de = std::find(order.begin(), order.end(), TieBreak::DirectEncounter);
    const auto before_de = static_cast<std::size_t>(de - order.begin());
    std::stable_sort(table.begin(), table.end(), [&](const Standing& a, const Standing& b) {
        return level(a, b, before_de) < 0;
    });
    // The direct encounter among each group still level: only when every two of them met.
    for (std::size_t first = 0; first < table.size();) {
        std::size_t end = first + 1;
        while (end < table.size() && level(table[first], table[end], before_de) == 0)
            ++end;
        if (end - first >= 2) {
            std::vector<int> group;
            for (std::size_t i = first; i < end; ++i)
                group.push_back(table[i].player);
            const auto in_group = [&](int p) {
                return std::find(group.begin(), group.end(), p) != group.end();
            };
            std::vector<std::vector<bool>> met(group.size(), std::vector<bool>(group.size()));
            std::vector<double> points(group.size(), 0);
            const auto slot = [&](int p) {
                return static_cast<std::size_t>(std::find(group.begin(), group.end(), p) -
                                                group.begin());
            };
            for (const auto& g : games) {
                if (g.black == bye || !in_group(g.white) || !in_group(g.black))
                    continue;
                const std::size_t w = slot(g.white), b = slot(g.black);
                met[w][b] = met[b][w] = true;
                points[w] += g.white_score;
                points[b] += 1.0 - g.white_score;
            }
            bool all_met = true;
            for (std::size_t x = 0; x < group.size(); ++x)
                for (std::size_t y = x + 1; y < group.size(); ++y)
                    all_met = all_met && met[x][y];
            if (all_met)
                for (std::size_t i = first; i < end; ++i)
                    table[i].direct_encounter = points[slot(table[i].player)];
        }
        first = end;
    }
    std::stable_sort(table.begin(), table.end(), [&](const Standing& a, const Standing& b) {
        if (const int c = level(a, b, order.size()); c != 0)
            return c < 0;
        return a.player < b.player;
    });
    return table;
}

} // namespace ghostpost::bot
