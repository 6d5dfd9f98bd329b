// A second pairing by the Dutch system, written the way the handbook describes it rather than
// the way the engine computes it: for each bracket every candidate in the handbook's order
// (MDP sets, S2 transpositions, resident exchanges), each evaluated on the criteria C4-C21 by
// exhaustive search over the rest of the round, the best kept and ties left to the candidate
// generated first. Exponential, so for fields of a dozen players at most; the engine's weight
// encoding is checked against it.
#pragma once

#include "ghostpost/league/pairing.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

namespace ghostpost::bot::reference {

// The exchanges of Article 4.3 between an S1 of BSNs 1..n1 and an S2 of n1+1..size, in order:
// fewest BSNs moved, the smallest difference of the sums moved, the highest BSN leaving S1, the
// lowest entering it. Each as (leaving S1, entering S1), both ascending.
inline std::vector<std::pair<std::vector<int>, std::vector<int>>> exchanges(int n1, int size) {
    std::vector<std::pair<std::vector<int>, std::vector<int>>> out;
    const int n2 = size - n1;
    for (int k = 1; k <= std::min(n1, n2); ++k) {
        std::vector<std::vector<int>> from1, from2;
        std::function<void(int, int, std::vector<int>&, std::vector<std::vector<int>>&)> choose =
            [&](int lo, int hi, std::vector<int>& cur, std::vector<std::vector<int>>& into) {
                if (static_cast<int>(cur.size()) == k) {
                    into.push_back(cur);
                    return;
                }
                for (int x = lo; x <= hi; ++x) {
                    cur.push_back(x);
                    choose(x + 1, hi, cur, into);
                    cur.pop_back();
                }
            };
        std::vector<int> cur;
        choose(1, n1, cur, from1);
        choose(n1 + 1, size, cur, from2);
        std::vector<std::pair<std::vector<int>, std::vector<int>>> level;
        for (const auto& a : from1)
            for (const auto& b : from2)
                level.emplace_back(a, b);
        auto sum = [](const std::vector<int>& v) {
            int s = 0;
            for (int x : v)
                s += x;
            return s;
        };
        std::stable_sort(level.begin(), level.end(), [&](const auto& x, const auto& y) {
            const int dx = sum(x.second) - sum(x.first), dy = sum(y.second) - sum(y.first);
            if (dx != dy)
                return dx < dy;
            std::vector<int> ox(x.first.rbegin(), x.first.rend()),
                oy(y.first.rbegin(), y.first.rend());
            if (ox != oy)
                return ox > oy;         // the higher BSN leaving S1 first
            return x.second < y.second; // the lower BSN entering S1 first
        });
        out.insert(out.end(), level.begin(), level.end());
    }
    return out;
}

// Every arrangement of `count` elements of `pool` (ascending), in lexicographic order: the
// transpositions of Article 4.2 as far as the first `count` BSNs tell them apart.
inline std::vector<std::vector<int>> arrangements(const std::vector<int>& pool, int count) {
    std::vector<std::vector<int>> out;
    std::vector<int> cur;
    std::vector<char> used(pool.size(), 0);
    std::function<void()> go = [&]() {
        if (static_cast<int>(cur.size()) == count) {
            out.push_back(cur);
            return;
        }
        for (std::size_t i = 0; i < pool.size(); ++i) {
            if (used[i])
                continue;
            used[i] = 1;
            cur.push_back(pool[i]);
            go();
            cur.pop_back();
            used[i] = 0;
        }
    };
    go();
    return out;
}

class Reference {
public:
    explicit Reference(const SwissRound& r) : r_(r) {
        for (const auto& p : r.players)
            e_.push_back(&p);
        std::stable_sort(e_.begin(), e_.end(), [](const SwissPlayer* a, const SwissPlayer* b) {
            return a->score != b->score ? a->score > b->score : a->number < b->number;
        });
        n_ = static_cast<int>(e_.size());
        for (const auto* p : e_) {
            pref_.push_back(colour_preference(p->colours));
            int cd = 0;
            for (Colour c : p->colours)
                cd += static_cast<int>(c);
            cd_.push_back(cd);
            top_.push_back(r.round >= r.rounds && p->score * 2 > r.rounds - 1);
        }
    }

    std::optional<std::vector<SwissBoard>> pair() {
        const std::uint32_t everyone = (n_ == 32 ? 0U : (1U << n_)) - 1U;
        if (!complete(everyone))
            return std::nullopt;
        if (n_ % 2 == 1)
            bye_score_ = min_bye(everyone);
        std::vector<double> scores;
        for (const auto* p : e_)
            if (scores.empty() || scores.back() != p->score)
                scores.push_back(p->score);
        std::vector<int> mdps;
        std::uint32_t done = 0;
        std::vector<std::pair<int, int>> pairs;
        int pab = -1;
        for (std::size_t g = 0; g < scores.size(); ++g) {
            Bracket b;
            b.mdps = mdps;
            for (int a = 0; a < n_; ++a) {
                if (e_[u(a)]->score == scores[g])
                    b.residents.push_back(a);
                else if (g + 1 < scores.size() && e_[u(a)]->score == scores[g + 1])
                    b.next.push_back(a);
                else if (e_[u(a)]->score < scores[g] && !(done >> a & 1U))
                    b.below |= 1U << a;
            }
            for (int a : b.next)
                b.below |= 1U << a;
            b.last = g + 1 == scores.size();
            std::optional<Candidate> best;
            bool collapse = false;
            if (b.last && !b.mdps.empty()) {
                // When the round's best bye needs two MDPs to meet, the last bracket collapses
                // into one homogeneous group.
                std::uint32_t all = 0;
                for (int a : b.mdps)
                    all |= 1U << a;
                for (int a : b.residents)
                    all |= 1U << a;
                const Shape sh = shape(b);
                collapse = !sh.any || sh.c5 > min_bye(all);
            }
            if (!collapse)
                best = pair_bracket(b);
            if (!best && b.last) {
                // Two MDPs must meet: the last bracket collapses into one homogeneous group.
                Bracket c;
                c.residents = b.mdps;
                c.residents.insert(c.residents.end(), b.residents.begin(), b.residents.end());
                std::sort(c.residents.begin(), c.residents.end());
                c.last = true;
                best = pair_bracket(c);
            }
            if (!best)
                throw std::logic_error("reference: no candidate for a bracket");
            mdps.clear();
            std::uint32_t paired = 0;
            for (const auto& [x, y] : best->pairs) {
                pairs.emplace_back(x, y);
                paired |= (1U << x) | (1U << y);
            }
            done |= paired;
            for (int a : b.mdps)
                if (!(paired >> a & 1U))
                    mdps.push_back(a);
            for (int a : b.residents)
                if (!(paired >> a & 1U))
                    mdps.push_back(a);
            std::sort(mdps.begin(), mdps.end());
        }
        if (mdps.size() > 1)
            throw std::logic_error("reference: several left at the end");
        if (mdps.size() == 1)
            pab = mdps.front();
        std::vector<SwissBoard> out;
        for (const auto& [x, y] : pairs) {
            const bool xw = white(x, y);
            const int w = xw ? x : y, k = xw ? y : x;
            SwissBoard b{e_[u(w)]->player, e_[u(k)]->player};
            const double sw = e_[u(w)]->score, sk = e_[u(k)]->score;
            b.white_float = sw > sk ? Float::Down : sw < sk ? Float::Up : Float::None;
            b.black_float = sk > sw ? Float::Down : sk < sw ? Float::Up : Float::None;
            out.push_back(b);
        }
        if (pab >= 0)
            out.push_back({e_[u(pab)]->player, bye, Float::Down, Float::None});
        return out;
    }

    // Article 5.2, written afresh: does a (by rank) get White against b?
    bool white(int a, int b) const {
        const ColourPreference pa = pref_[u(a)], pb = pref_[u(b)];
        const bool a_wants_white = pa.colour == Colour::White;
        if (pa.colour != Colour::None && pb.colour != Colour::None && pa.colour != pb.colour)
            return a_wants_white;
        if (pa.colour == Colour::None || pb.colour == Colour::None) {
            if (pa.colour != Colour::None)
                return a_wants_white;
            if (pb.colour != Colour::None)
                return pb.colour == Colour::Black;
        } else {
            if (pa.strength > pb.strength)
                return a_wants_white;
            if (pb.strength > pa.strength)
                return !a_wants_white;
            if (pa.strength == Preference::Absolute && std::abs(cd_[u(a)]) != std::abs(cd_[u(b)]))
                return (std::abs(cd_[u(a)]) > std::abs(cd_[u(b)])) == a_wants_white;
        }
        const auto &ha = e_[u(a)]->colours, &hb = e_[u(b)]->colours;
        auto ia = ha.rbegin(), ib = hb.rbegin();
        for (; ia != ha.rend() && ib != hb.rend(); ++ia, ++ib)
            if (*ia != *ib)
                return *ia == Colour::Black;
        const int high = std::min(a, b);
        Colour c = pref_[u(high)].colour;
        if (c == Colour::None)
            c = e_[u(high)]->number % 2 == 1
                    ? r_.initial_colour
                    : (r_.initial_colour == Colour::White ? Colour::Black : Colour::White);
        return (high == a) == (c == Colour::White);
    }

private:
    static std::size_t u(int i) { return static_cast<std::size_t>(i); }

    struct Bracket {
        std::vector<int> mdps, residents, next;
        std::uint32_t below = 0; // every player of the lower brackets (next included)
        bool last = false;
    };
    struct Candidate {
        std::vector<std::pair<int, int>> pairs;
        std::uint32_t floaters = 0;
    };
    // A candidate's value: criteria in order, each lower is better.
    using Value = std::vector<std::vector<double>>;

    bool legal(int a, int b) const {
        const auto& met = e_[u(a)]->opponents;
        if (std::find(met.begin(), met.end(), e_[u(b)]->player) != met.end())
            return false;
        return top_[u(a)] || top_[u(b)] || pref_[u(a)].strength != Preference::Absolute ||
               pref_[u(b)].strength != Preference::Absolute ||
               pref_[u(a)].colour != pref_[u(b)].colour;
    }

    // The lowest score a bye can have in a complete pairing of `set` (-1 when even and
    // complete, infinity when none is complete).
    double min_bye(std::uint32_t set) {
        auto it = min_bye_.find(set);
        if (it != min_bye_.end())
            return it->second;
        double best = std::numeric_limits<double>::infinity();
        if (set == 0) {
            best = -1;
        } else {
            int a = 0;
            while (!(set >> a & 1U))
                ++a;
            const std::uint32_t rest = set & ~(1U << a);
            for (int b = a + 1; b < n_; ++b)
                if ((rest >> b & 1U) && legal(a, b))
                    best = std::min(best, min_bye(rest & ~(1U << b)));
            if (std::popcount(set) % 2 == 1 && !e_[u(a)]->bye_ineligible) {
                const double without = min_bye(rest);
                if (without == -1)
                    best = std::min(best, e_[u(a)]->score);
            }
            // The bye for someone after a: a paired above, the bye found below.
        }
        min_bye_[set] = best;
        return best;
    }
    bool complete(std::uint32_t set) {
        return min_bye(set) != std::numeric_limits<double>::infinity();
    }

    static std::vector<double> desc(std::vector<double> v) {
        std::sort(v.begin(), v.end(), std::greater<>());
        return v;
    }

    // The best outcome of the next bracket (more pairs, then lower downfloater scores) for the
    // downfloaters `floaters`, among its pairings that keep the round complete with the bye's
    // score at `bye`: {-pairs, scores...}.
    std::vector<double> next_best(const Bracket& b, std::uint32_t floaters, double bye) {
        std::vector<int> mdp, res;
        for (int a = 0; a < n_; ++a)
            if (floaters >> a & 1U)
                mdp.push_back(a);
        res = b.next;
        const std::uint32_t lower = b.below & ~[&] {
            std::uint32_t m = 0;
            for (int a : res)
                m |= 1U << a;
            return m;
        }();
        std::vector<double> best;
        bool any = false;
        std::vector<std::pair<int, int>> cur;
        std::uint32_t used = 0;
        std::function<void(std::size_t)> go = [&](std::size_t i) {
            // Players taken in order: each MDP or resident is paired with a later resident,
            // or not paired.
            std::vector<int> all = mdp;
            all.insert(all.end(), res.begin(), res.end());
            if (i == all.size()) {
                std::uint32_t rest = lower;
                std::vector<double> left;
                for (int a : all)
                    if (!(used >> a & 1U)) {
                        rest |= 1U << a;
                        left.push_back(e_[u(a)]->score);
                    }
                if (min_bye(rest) != bye)
                    return;
                std::vector<double> v{-static_cast<double>(cur.size())};
                for (double s : desc(left))
                    v.push_back(s);
                if (!any || v < best) {
                    best = v;
                    any = true;
                }
                return;
            }
            const int a = all[i];
            if (used >> a & 1U) {
                go(i + 1);
                return;
            }
            go(i + 1);
            for (int r : res) {
                if (r == a || (used >> r & 1U) || !legal(a, r))
                    continue;
                if (std::find(res.begin(), res.end(), a) != res.end() && r < a)
                    continue;
                used |= (1U << a) | (1U << r);
                cur.emplace_back(a, r);
                go(i + 1);
                cur.pop_back();
                used &= ~((1U << a) | (1U << r));
            }
        };
        go(0);
        return best;
    }

    // The value of a candidate, or nullopt when it breaks C1-C4.
    std::optional<Value> value(const Bracket& b, const Candidate& c) {
        for (const auto& [x, y] : c.pairs)
            if (!legal(x, y))
                return std::nullopt;
        const std::uint32_t rest = c.floaters | (b.below);
        if (!complete(rest))
            return std::nullopt;
        auto is_mdp = [&](int a) {
            return std::find(b.mdps.begin(), b.mdps.end(), a) != b.mdps.end();
        };
        Value v;
        const double bye = min_bye(rest);
        v.push_back({bye});                                            // C5
        v.push_back({static_cast<double>(std::popcount(c.floaters))}); // C6
        std::vector<double> fl;
        for (int a = 0; a < n_; ++a)
            if (c.floaters >> a & 1U)
                fl.push_back(e_[u(a)]->score);
        v.push_back(desc(fl)); // C7
        if (!b.last)
            v.push_back(next_best(b, c.floaters, bye)); // C8
        // C9, the bye's unplayed rounds: in the last bracket, and in a bracket at or below the
        // bye's score where the bye's assignee floats down alone (where more float, nothing
        // here): a resident of the bye's score, or a player moved down from above it.
        const bool at_bye = !b.residents.empty() && e_[u(b.residents.front())]->score <= bye_score_;
        if (b.last || at_bye) {
            double unplayed = 0;
            if (b.last || std::popcount(c.floaters) == 1)
                for (int a = 0; a < n_; ++a)
                    if (c.floaters >> a & 1U)
                        unplayed = e_[u(a)]->unplayed;
            v.push_back({unplayed});
        }
        std::array<double, 4> miss{};
        for (const auto& [x, y] : c.pairs) {
            const bool xw = white(x, y);
            for (int side = 0; side < 2; ++side) {
                const int z = side == 0 ? x : y;
                const Colour got = (side == 0) == xw ? Colour::White : Colour::Black;
                const int cd = cd_[u(z)] + static_cast<int>(got);
                const auto& h = e_[u(z)]->colours;
                miss[0] += std::abs(cd) > 2;
                miss[1] += h.size() >= 2 && h[h.size() - 1] == got && h[h.size() - 2] == got;
                miss[2] += pref_[u(z)].colour != Colour::None && got != pref_[u(z)].colour;
                miss[3] += pref_[u(z)].strength == Preference::Strong && got != pref_[u(z)].colour;
            }
        }
        for (double m : miss)
            v.push_back({m}); // C10-C13
        auto fl_of = [&](int a, int back) {
            return back == 0 ? e_[u(a)]->float_last : e_[u(a)]->float_before;
        };
        std::array<double, 2> res_down{}, opp_up{};
        std::array<std::vector<double>, 2> mdp_sd, opp_sd;
        for (int back = 0; back < 2; ++back) {
            for (int a : b.residents)
                if ((c.floaters >> a & 1U) && fl_of(a, back) == Float::Down)
                    ++res_down[u(back)];
            for (int m : b.mdps) {
                if (fl_of(m, back) != Float::Down)
                    continue;
                double sd = 1e9; // in the Limbo: more than any difference
                for (const auto& [x, y] : c.pairs)
                    if (x == m || y == m)
                        sd = e_[u(m)]->score - e_[u(x == m ? y : x)]->score;
                mdp_sd[u(back)].push_back(sd);
            }
            for (const auto& [x, y] : c.pairs) {
                if (is_mdp(x) == is_mdp(y))
                    continue;
                const int m = is_mdp(x) ? x : y, r = m == x ? y : x;
                if (fl_of(r, back) == Float::Up) {
                    ++opp_up[u(back)];
                    opp_sd[u(back)].push_back(e_[u(m)]->score - e_[u(r)]->score);
                }
            }
        }
        v.push_back({res_down[0]});   // C14
        v.push_back({opp_up[0]});     // C15
        v.push_back({res_down[1]});   // C16
        v.push_back({opp_up[1]});     // C17
        v.push_back(desc(mdp_sd[0])); // C18
        v.push_back(desc(opp_sd[0])); // C19
        v.push_back(desc(mdp_sd[1])); // C20
        v.push_back(desc(opp_sd[1])); // C21
        return v;
    }

    // Every candidate of a homogeneous (sub-)bracket `pool` with n1 pairs, in the handbook's
    // order, given to `take` with the players left unpaired.
    void homogeneous(
        const std::vector<int>& pool, int n1,
        const std::function<void(const std::vector<std::pair<int, int>>&, std::uint32_t)>& take) {
        const int size = static_cast<int>(pool.size());
        std::vector<std::pair<std::vector<int>, std::vector<int>>> order{{{}, {}}};
        for (auto& x : exchanges(n1, size))
            order.push_back(x);
        for (const auto& [out1, in1] : order) {
            std::vector<int> s1, s2; // BSNs
            for (int bsn = 1; bsn <= size; ++bsn) {
                const bool leaves = std::find(out1.begin(), out1.end(), bsn) != out1.end();
                const bool enters = std::find(in1.begin(), in1.end(), bsn) != in1.end();
                ((bsn <= n1 && !leaves) || enters ? s1 : s2).push_back(bsn);
            }
            // The transpositions in their order, leaving out at once those that pair two
            // players who may not meet (no candidate at all, whatever follows).
            std::vector<std::pair<int, int>> pairs;
            std::vector<char> used(u(size + 1), 0);
            std::function<void(int)> next = [&](int i) {
                if (i == n1) {
                    std::uint32_t unpaired = 0;
                    for (int bsn = 1; bsn <= size; ++bsn)
                        if (!used[u(bsn)] && std::find(s1.begin(), s1.end(), bsn) == s1.end())
                            unpaired |= 1U << pool[u(bsn - 1)];
                    take(pairs, unpaired);
                    return;
                }
                const int a = pool[u(s1[u(i)] - 1)];
                for (int t : s2) {
                    const int b = pool[u(t - 1)];
                    if (used[u(t)] || !legal(a, b))
                        continue;
                    used[u(t)] = 1;
                    pairs.emplace_back(a, b);
                    next(i + 1);
                    pairs.pop_back();
                    used[u(t)] = 0;
                }
            };
            next(0);
        }
    }

    // The pairings of the bracket in any form, to find the parameters the handbook leaves to
    // be divined: MaxPairs, M1 and the Limbo's scores of the best candidates.
    struct Shape {
        int max_pairs = 0;
        int m1 = 0;
        std::vector<double> limbo;
        double c5 = 0;
        bool any = false;
    };
    Shape shape(const Bracket& b) {
        std::vector<int> all = b.mdps;
        all.insert(all.end(), b.residents.begin(), b.residents.end());
        Shape best;
        std::vector<double> best_key;
        std::vector<std::pair<int, int>> cur;
        std::uint32_t used = 0;
        auto is_mdp = [&](int a) {
            return std::find(b.mdps.begin(), b.mdps.end(), a) != b.mdps.end();
        };
        std::function<void(std::size_t)> go = [&](std::size_t i) {
            if (i == all.size()) {
                std::uint32_t floaters = 0;
                std::vector<double> fl, limbo;
                int m1 = 0;
                for (int a : all)
                    if (!(used >> a & 1U)) {
                        floaters |= 1U << a;
                        fl.push_back(e_[u(a)]->score);
                        if (is_mdp(a))
                            limbo.push_back(e_[u(a)]->score);
                    } else if (is_mdp(a)) {
                        ++m1;
                    }
                const std::uint32_t rest = floaters | b.below;
                if (!complete(rest))
                    return;
                std::vector<double> key{min_bye(rest),
                                        static_cast<double>(std::popcount(floaters))};
                for (double s : desc(fl))
                    key.push_back(s);
                if (!best.any || key < best_key) {
                    best = {static_cast<int>(cur.size()), m1, desc(limbo), key[0], true};
                    best_key = key;
                }
                return;
            }
            const int a = all[i];
            if (used >> a & 1U) {
                go(i + 1);
                return;
            }
            go(i + 1);
            for (std::size_t j = i + 1; j < all.size(); ++j) {
                const int c = all[j];
                if ((used >> c & 1U) || !legal(a, c) || (is_mdp(a) && is_mdp(c)))
                    continue;
                used |= (1U << a) | (1U << c);
                cur.emplace_back(a, c);
                go(i + 1);
                cur.pop_back();
                used &= ~((1U << a) | (1U << c));
            }
        };
        go(0);
        return best;
    }

    std::optional<Candidate> pair_bracket(const Bracket& b) {
        const Shape sh = shape(b);
        if (!sh.any)
            return std::nullopt;
        std::optional<Candidate> best;
        Value best_value;
        auto consider = [&](Candidate c) {
            auto v = value(b, c);
            if (v && (!best || *v < best_value)) {
                best = std::move(c);
                best_value = *v;
            }
        };
        if (b.mdps.empty()) {
            homogeneous(b.residents, sh.max_pairs, [&](const auto& pairs, std::uint32_t fl) {
                consider({pairs, fl});
            });
            return best;
        }
        // MDP sets of M1 leaving a Limbo as the best candidates do, by smallest differing BSN.
        const int m0 = static_cast<int>(b.mdps.size());
        std::vector<int> pick;
        std::function<void(int)> sets = [&](int from) {
            if (static_cast<int>(pick.size()) == sh.m1) {
                std::vector<double> limbo;
                for (int i = 0; i < m0; ++i)
                    if (std::find(pick.begin(), pick.end(), i) == pick.end())
                        limbo.push_back(e_[u(b.mdps[u(i)])]->score);
                if (desc(limbo) != sh.limbo)
                    return;
                std::uint32_t limbo_mask = 0;
                for (int i = 0; i < m0; ++i)
                    if (std::find(pick.begin(), pick.end(), i) == pick.end())
                        limbo_mask |= 1U << b.mdps[u(i)];
                for (const auto& t : arrangements(b.residents, sh.m1)) {
                    std::vector<std::pair<int, int>> pairs;
                    for (int i = 0; i < sh.m1; ++i)
                        pairs.emplace_back(b.mdps[u(pick[u(i)])], t[u(i)]);
                    std::vector<int> rem;
                    for (int r : b.residents)
                        if (std::find(t.begin(), t.end(), r) == t.end())
                            rem.push_back(r);
                    homogeneous(rem, sh.max_pairs - sh.m1, [&](const auto& more, std::uint32_t fl) {
                        auto all = pairs;
                        all.insert(all.end(), more.begin(), more.end());
                        consider({all, fl | limbo_mask});
                    });
                }
                return;
            }
            for (int i = from; i < m0; ++i) {
                pick.push_back(i);
                sets(i + 1);
                pick.pop_back();
            }
        };
        sets(0);
        return best;
    }

    const SwissRound& r_;
    std::vector<const SwissPlayer*> e_;
    int n_ = 0;
    std::vector<ColourPreference> pref_;
    std::vector<int> cd_;
    std::vector<bool> top_;
    double bye_score_ = -1; // the score of the round's bye (C5), -1 without one
    std::map<std::uint32_t, double> min_bye_;
};

inline std::optional<std::vector<SwissBoard>> swiss_round(const SwissRound& r) {
    return Reference(r).pair();
}

} // namespace ghostpost::bot::reference
