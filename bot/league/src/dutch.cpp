// Swiss pairings by the FIDE (Dutch) System, Handbook C.04.3 in force from 1 February 2026.
//
// The handbook describes the pairing of a bracket as a sequence of candidates (S2
// transpositions, resident exchanges, sets of moved-down players) and takes the first perfect
// one, or else the best by the quality criteria, ties going to the candidate generated first.
// It allows any method that gives the same result. Ours: the criteria, in their order, are bit
// fields of one edge weight, so a maximum-weight matching over every player not yet paired
// finds the best value at once; the completion criterion (C4) is the top field, "every player
// paired", over the whole rest of the round. The handbook's generation order then becomes
// lower fields, settled in phases because each depends on the one before:
//
//   homogeneous bracket: the exchange (which players form S1), then the transposition of S2;
//   heterogeneous bracket: the set of MDPs paired, their opponents (the first BSNs of S2's
//   transposition), then the remainder as a homogeneous bracket.
//
// Exchanges are ordered (Article 4.3) by how many BSNs move, the difference of their sums, the
// highest BSN leaving S1 and the lowest entering it. For a given pairing the earliest exchange
// that produces it keeps each S1-S2 pair's S1 player in S1, moves the higher of each S1-S1 pair
// out and the lower of each S2-S2 pair in: so the exchange's place in the order is a sum over
// the pairs, a matching weight like any criterion.
//
// A criterion that counts failures is rewarded as successes where the number of pairs it is
// counted on is already fixed by the criteria above it (more pairs weigh more, so "fewest
// downfloaters" is "most pairs"). Where the handbook leaves room: C9 is applied in the last
// bracket, and in a bracket at or below the bye's score when it moves down exactly one player,
// the one who will have the bye (as bbpPairings does: where more float down with the bye's
// assignee, a lower bracket picks among them); and a last bracket whose only complete pairing
// makes two of its moved-down players meet is paired as one group (the handbook pairs MDPs only
// against residents; its edition before 2026 collapsed the last bracket in such a case).
#include "ghostpost/league/matching.h"
#include "ghostpost/league/pairing.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <utility>

namespace ghostpost::bot {

namespace {

Colour opposite(Colour c) {
    return c == Colour::White ? Colour::Black : c == Colour::Black ? Colour::White : Colour::None;
}

int bits_for(std::uint64_t max_total) {
    int bits = 0;
    while (max_total > 0) {
        ++bits;
        max_total >>= 1;
    }
    return std::max(bits, 1);
}

std::size_t idx(int i) {
    return static_cast<std::size_t>(i);
}

// Bit fields of a weight, declared from the most important down.
class Layout {
public:
    int field(int width) {
        widths_.push_back(width);
        return static_cast<int>(widths_.size()) - 1;
    }
    void finish() {
        offsets_.assign(widths_.size(), 0);
        int at = 0;
        for (std::size_t i = widths_.size(); i-- > 0;) {
            offsets_[i] = at;
            at += widths_[i];
        }
        if (at >= WideWeight::bits - 1)
            throw std::logic_error("swiss: the criteria need more than " +
                                   std::to_string(WideWeight::bits) + " bits");
    }
    void add(WideWeight& w, int field, std::uint64_t value) const {
        if (value != 0)
            w += WideWeight(value).shifted(offsets_[idx(field)]);
    }
    void add_wide(WideWeight& w, int field, const WideWeight& value) const {
        w += value.shifted(offsets_[idx(field)]);
    }
    void add_bit(WideWeight& w, int field, int bit) const {
        w += WideWeight(1).shifted(offsets_[idx(field)] + bit);
    }

private:
    std::vector<int> widths_;
    std::vector<int> offsets_;
};

struct Entrant {
    const SwissPlayer* p = nullptr;
    ColourPreference pref;
    int cd = 0; // colour difference
    bool topscorer = false;
    double score() const { return p->score; }
};

// What one solve of a bracket is asked: constraints met so far and the order to settle.
struct Phase {
    enum class Order : std::uint8_t { None, MdpSet, Exchange, Transposition };
    Order order = Order::None;
    std::vector<char> limbo; // MDPs kept out of the bracket's pairs
    std::vector<int> forced; // forced[a] = b: a pair already decided
    std::vector<int> pool;   // exchange/transposition: the (sub-)bracket, by BSN
    int n1 = 0;              // exchange: the size of the original S1
    std::vector<char> side;  // transposition: 1 = S1, 2 = S2 within the pool
    bool split = false;      // pairs only between S1 and S2 of the pool
};

class DutchRound {
public:
    explicit DutchRound(const SwissRound& r);
    std::optional<std::vector<SwissBoard>> pair();

private:
    struct Bracket {
        std::vector<int> members; // by rank: the MDPs first, BSN = position + 1
        int mdps = 0;
        std::vector<char> in_b, is_mdp, in_next;
        bool last = false;
        bool collapsed = false; // the last bracket paired as one homogeneous group
        bool c9 = false;        // the bye's unplayed games count here (C9)
    };

    bool legal(int a, int b) const { return legal_[idx(a * n_ + b)] != 0; }
    bool white(int a, int b) const { return white_[idx(a * n_ + b)] != 0; }
    bool gets_white(int a, int b) const; // Article 5.2, for a against b
    int level_from_top(double score) const;

    // The weights of one solve's edges: the criteria, then the generation order (solve).
    class Criteria;
    // The best mate of every remaining player under `phase`, by player rank; the bye is n_.
    std::vector<int> solve(const Bracket& br, const Phase& phase, bool* mdp_pair_below);
    // The pairs the matching made inside the bracket among `among` (all of it when empty).
    std::vector<std::pair<int, int>> bracket_pairs(const Bracket& br, const std::vector<int>& mate,
                                                   const std::vector<char>* among) const;
    bool is_bracket_edge(const Bracket& br, int a, int b) const {
        if (!br.in_b[idx(a)] || !br.in_b[idx(b)])
            return false;
        return br.collapsed || !(br.is_mdp[idx(a)] && br.is_mdp[idx(b)]);
    }
    // Pairs `pool` as a homogeneous bracket (or remainder): the exchange, then the
    // transposition. `n1`: its number of pairs when known, else -1.
    std::vector<std::pair<int, int>> homogeneous(const Bracket& br, Phase base,
                                                 const std::vector<int>& pool, int n1);
    // The pairs of one bracket; false when the last bracket must be collapsed first.
    bool pair_bracket(Bracket& br, std::vector<std::pair<int, int>>& pairs);

    const SwissRound& round_;
    int n_ = 0;
    std::vector<Entrant> e_;     // by rank: score, then pairing number
    std::vector<double> scores_; // the distinct scores, highest first
    std::vector<char> legal_, white_;
    std::vector<std::array<std::uint8_t, 4>> misses_; // per ordered pair: C10-C13 counts
    std::vector<char> paired_;
    double bye_score_ = -1; // the bye's score (C5), when the round has one
};

DutchRound::DutchRound(const SwissRound& r) : round_(r), n_(static_cast<int>(r.players.size())) {
    for (const auto& p : r.players) {
        Entrant e;
        e.p = &p;
        e.pref = colour_preference(p.colours);
        for (Colour c : p.colours)
            e.cd += static_cast<int>(c);
        // Over half the most a player could have scored before the last round (1.8).
        e.topscorer = r.round >= r.rounds && p.score * 2 > r.rounds - 1;
        e_.push_back(e);
    }
    std::stable_sort(e_.begin(), e_.end(), [](const Entrant& a, const Entrant& b) {
        return a.score() != b.score() ? a.score() > b.score() : a.p->number < b.p->number;
    });
    for (const auto& e : e_)
        if (scores_.empty() || scores_.back() != e.score())
            scores_.push_back(e.score());
    legal_.assign(idx(n_ * n_), 0);
    white_.assign(idx(n_ * n_), 0);
    misses_.assign(idx(n_ * n_), {});
    for (int a = 0; a < n_; ++a)
        for (int b = 0; b < n_; ++b) {
            if (a == b)
                continue;
            const Entrant &x = e_[idx(a)], &y = e_[idx(b)];
            const auto& met = x.p->opponents;
            const bool again = std::find(met.begin(), met.end(), y.p->player) != met.end();
            const bool clash =
                !x.topscorer && !y.topscorer && x.pref.strength == Preference::Absolute &&
                y.pref.strength == Preference::Absolute && x.pref.colour == y.pref.colour;
            legal_[idx(a * n_ + b)] = !again && !clash;
            const bool w = gets_white(a, b);
            white_[idx(a * n_ + b)] = w;
            std::array<std::uint8_t, 4> miss{};
            for (int side = 0; side < 2; ++side) {
                const Entrant& z = side == 0 ? x : y;
                const Colour got = (side == 0) == w ? Colour::White : Colour::Black;
                const int cd = z.cd + static_cast<int>(got);
                const auto& h = z.p->colours;
                const bool third =
                    h.size() >= 2 && h[h.size() - 1] == got && h[h.size() - 2] == got;
                auto missed = [&miss](std::size_t c, bool failed) {
                    miss[c] = static_cast<std::uint8_t>(miss[c] + (failed ? 1 : 0));
                };
                missed(0, cd > 2 || cd < -2);                                     // C10
                missed(1, third);                                                 // C11
                missed(2, z.pref.colour != Colour::None && got != z.pref.colour); // C12
                // C13: a player whose difference is ±1 but who had one colour twice has an
                // absolute preference, not a strong one (Article 1.7): C12 counts it, C13 not.
                missed(3, z.pref.strength == Preference::Strong && got != z.pref.colour);
            }
            misses_[idx(a * n_ + b)] = miss;
        }
    paired_.assign(idx(n_), 0);
}

bool DutchRound::gets_white(int a, int b) const {
    const Entrant &x = e_[idx(a)], &y = e_[idx(b)];
    const ColourPreference px = x.pref, py = y.pref;
    // 5.2.1: both preferences granted (a player without one takes what the other leaves).
    if (px.colour != Colour::None && py.colour != Colour::None && px.colour != py.colour)
        return px.colour == Colour::White;
    if (px.colour == Colour::None && py.colour != Colour::None)
        return py.colour == Colour::Black;
    if (py.colour == Colour::None && px.colour != Colour::None)
        return px.colour == Colour::White;
    // 5.2.2: the stronger preference; between two absolute ones, the wider difference.
    if (px.colour != Colour::None) {
        if (px.strength != py.strength)
            return (px.strength > py.strength) == (px.colour == Colour::White);
        if (px.strength == Preference::Absolute && std::abs(x.cd) != std::abs(y.cd))
            return (std::abs(x.cd) > std::abs(y.cd)) == (px.colour == Colour::White);
    }
    // 5.2.3: alternate from the latest round in which they had different colours, the
    // histories aligned on their last games (C.04.2: rounds without a game do not count).
    const auto &hx = x.p->colours, &hy = y.p->colours;
    for (std::size_t i = 1; i <= std::min(hx.size(), hy.size()); ++i) {
        const Colour cx = hx[hx.size() - i], cy = hy[hy.size() - i];
        if (cx != cy)
            return cx == Colour::Black;
    }
    // 5.2.4: the higher-ranked player's preference; 5.2.5: the initial colour by number.
    const bool a_higher = a < b;
    const Entrant& high = a_higher ? x : y;
    Colour c = high.pref.colour;
    if (c == Colour::None)
        c = high.p->number % 2 == 1 ? round_.initial_colour : opposite(round_.initial_colour);
    return a_higher == (c == Colour::White);
}

int DutchRound::level_from_top(double score) const {
    return static_cast<int>(std::find(scores_.begin(), scores_.end(), score) - scores_.begin());
}

// The bit fields of one solve's edge weights, from the most important down (C4 first: everyone
// paired), the levels they are counted at, and the edges the phase allows.
class DutchRound::Criteria {
public:
    Criteria(const DutchRound& round, const Bracket& br, const Phase& ph,
             const std::vector<int>& player_of)
        : d_(round), br_(br), ph_(ph),
          most_(static_cast<std::uint64_t>(player_of.size() + 1) / 2 + 1),
          hetero_(br.mdps > 0 && !br.collapsed) {
        find_levels(player_of);
        lay_criteria();
        lay_order();
        lay_.finish();
    }

    bool allowed(int a, int b) const {
        if (!d_.legal(a, b))
            return false;
        if (!ph_.forced.empty()) {
            const int fa = ph_.forced[idx(a)], fb = ph_.forced[idx(b)];
            if ((fa >= 0 || fb >= 0) && !(fa == b && fb == a))
                return false;
        }
        if (!d_.is_bracket_edge(br_, a, b))
            return true;
        if (!ph_.limbo.empty() && (ph_.limbo[idx(a)] || ph_.limbo[idx(b)]))
            return false;
        if (ph_.split && order_.pool_bsn[idx(a)] && order_.pool_bsn[idx(b)] &&
            ph_.side[idx(a)] == ph_.side[idx(b)])
            return false;
        return true;
    }

    // Player a's edge to the bye, when a may have it.
    std::optional<WideWeight> bye(int a) const {
        const Entrant& e = d_.e_[idx(a)];
        if (e.p->bye_ineligible || (!ph_.forced.empty() && ph_.forced[idx(a)] >= 0))
            return std::nullopt;
        WideWeight w;
        lay_.add(w, f_.card, 1);
        lay_.add(w, f_.c5, static_cast<std::uint64_t>(d_.level_from_top(e.score())));
        if (f_.c9 >= 0)
            lay_.add(w, f_.c9, static_cast<std::uint64_t>(most_unplayed_ - e.p->unplayed));
        return w;
    }

    // The weight of the pair a-b, which allowed() lets through.
    WideWeight pair(int a, int b) const {
        WideWeight w;
        lay_.add(w, f_.card, 1);
        if (d_.is_bracket_edge(br_, a, b)) {
            add_bracket(w, a, b);
            add_order(w, a, b);
        } else if (!br_.last && (br_.in_b[idx(a)] || br_.in_next[idx(a)]) &&
                   (br_.in_b[idx(b)] || br_.in_next[idx(b)]) &&
                   (br_.in_next[idx(a)] || br_.in_next[idx(b)])) {
            lay_.add(w, f_.c8, 1);
            lay_.add(w, f_.c8s[at(levels_.bn, score(a))], 1);
            lay_.add(w, f_.c8s[at(levels_.bn, score(b))], 1);
        }
        return w;
    }

private:
    // The distinct scores each criterion counts at, highest first.
    struct Levels {
        std::vector<double> b;  // of the bracket (C7)
        std::vector<double> bn; // of the bracket and the next (C8)
        std::vector<double> sd; // score differences of the MDPs to the residents (C18-C21)
    };
    struct SdFields {
        int repeat = -1;
        std::vector<int> mdp, opponent;
    };
    // The fields' indices in the layout; -1 when the solve does not count it.
    struct Fields {
        int card = -1, c5 = -1, c6 = -1, c8 = -1, c9 = -1;
        std::vector<int> c7, c8s;
        std::array<int, 4> colour{}; // C10-C13
        int c14 = -1, c15 = -1, c16 = -1, c17 = -1;
        std::array<SdFields, 2> sd; // C18-C19 (the previous round), C20-C21 (the one before)
        // The handbook's generation order, below every criterion.
        int mdpset = -1, k = -1, sum = -1, out = -1, in = -1, trans = -1;
    };
    // The phase's pool: each player's BSN in it (0: outside), and the transposition's digits.
    struct Order {
        std::vector<int> pool_bsn, s1_pos, s2_bsn;
        int pool_size = 0, s1_count = 0, digit = 0;
    };

    double score(int a) const { return d_.e_[idx(a)].score(); }
    static std::size_t at(const std::vector<double>& levels, double v) {
        return static_cast<std::size_t>(std::find(levels.begin(), levels.end(), v) -
                                        levels.begin());
    }
    bool resident(int a) const {
        return br_.in_b[idx(a)] && (!br_.is_mdp[idx(a)] || br_.collapsed);
    }
    Float floated(int a, int back) const {
        return back == 0 ? d_.e_[idx(a)].p->float_last : d_.e_[idx(a)].p->float_before;
    }

    void find_levels(const std::vector<int>& player_of) {
        const double resident_score = score(br_.members.back());
        for (int a : player_of) {
            if (br_.in_b[idx(a)])
                levels_.b.push_back(score(a));
            if (br_.in_b[idx(a)] || br_.in_next[idx(a)])
                levels_.bn.push_back(score(a));
            if (br_.is_mdp[idx(a)])
                levels_.sd.push_back(score(a) - resident_score);
            most_unplayed_ = std::max(most_unplayed_, d_.e_[idx(a)].p->unplayed);
        }
        for (auto* v : {&levels_.b, &levels_.bn, &levels_.sd}) {
            std::sort(v->begin(), v->end(), std::greater<>());
            v->erase(std::unique(v->begin(), v->end()), v->end());
        }
    }

    void lay_criteria() {
        const std::uint64_t most = most_;
        f_.card = lay_.field(bits_for(most));
        f_.c5 = lay_.field(bits_for(d_.scores_.size() * most));
        f_.c6 = lay_.field(bits_for(most));
        for (std::size_t i = 0; i < levels_.b.size(); ++i)
            f_.c7.push_back(lay_.field(bits_for(2 * most)));
        if (!br_.last) {
            f_.c8 = lay_.field(bits_for(most));
            for (std::size_t i = 0; i < levels_.bn.size(); ++i)
                f_.c8s.push_back(lay_.field(bits_for(2 * most)));
        }
        if (br_.c9)
            f_.c9 = lay_.field(bits_for(static_cast<std::uint64_t>(most_unplayed_) + 1));
        for (auto& f : f_.colour)
            f = lay_.field(bits_for(2 * most));
        f_.c14 = lay_.field(bits_for(2 * most));
        f_.c15 = lay_.field(bits_for(most));
        f_.c16 = lay_.field(bits_for(2 * most));
        f_.c17 = lay_.field(bits_for(most));
        if (hetero_)
            for (auto& sd : f_.sd) {
                sd.repeat = lay_.field(bits_for(most));
                for (std::size_t i = 0; i < levels_.sd.size(); ++i)
                    sd.mdp.push_back(lay_.field(bits_for(most)));
                for (std::size_t i = 0; i < levels_.sd.size(); ++i)
                    sd.opponent.push_back(lay_.field(bits_for(most)));
            }
    }

    void lay_order() {
        const std::size_t n = idx(d_.n_);
        order_.pool_bsn.assign(n, 0);
        order_.s1_pos.assign(n, -1);
        order_.s2_bsn.assign(n, 0);
        for (std::size_t i = 0; i < ph_.pool.size(); ++i)
            order_.pool_bsn[idx(ph_.pool[i])] = static_cast<int>(i) + 1;
        order_.pool_size = static_cast<int>(ph_.pool.size());
        if (ph_.order == Phase::Order::MdpSet) {
            f_.mdpset = lay_.field(br_.mdps);
        } else if (ph_.order == Phase::Order::Exchange) {
            f_.k = lay_.field(bits_for(most_));
            f_.sum = lay_.field(bits_for(static_cast<std::uint64_t>(order_.pool_size + 1) * most_));
            f_.out = lay_.field(ph_.n1 + bits_for(most_));
            f_.in = lay_.field(std::max(1, order_.pool_size - ph_.n1));
        } else if (ph_.order == Phase::Order::Transposition) {
            int s2_count = 0;
            for (int a : ph_.pool) {
                if (ph_.side[idx(a)] == 1)
                    order_.s1_pos[idx(a)] = order_.s1_count++;
                else
                    order_.s2_bsn[idx(a)] = ++s2_count;
            }
            order_.digit = bits_for(static_cast<std::uint64_t>(s2_count) + 1);
            f_.trans = lay_.field(std::max(1, order_.s1_count * order_.digit));
        }
    }

    // C6-C7, the colours (C10-C13), the floats (C14-C17) and the MDPs' score differences
    // (C18-C21) of a pair inside the bracket.
    void add_bracket(WideWeight& w, int a, int b) const {
        lay_.add(w, f_.c6, 1);
        lay_.add(w, f_.c7[at(levels_.b, score(a))], 1);
        lay_.add(w, f_.c7[at(levels_.b, score(b))], 1);
        const auto& miss = d_.misses_[idx(a * d_.n_ + b)];
        for (std::size_t c = 0; c < 4; ++c)
            lay_.add(w, f_.colour[c], 2U - miss[c]);
        for (int back = 0; back < 2; ++back) {
            const int f = back == 0 ? f_.c14 : f_.c16;
            lay_.add(
                w, f,
                static_cast<std::uint64_t>(resident(a) && floated(a, back) == Float::Down) +
                    static_cast<std::uint64_t>(resident(b) && floated(b, back) == Float::Down));
        }
        if (!hetero_ || br_.is_mdp[idx(a)] == br_.is_mdp[idx(b)])
            return;
        const int m = br_.is_mdp[idx(a)] ? a : b, r = m == a ? b : a;
        const double sd = score(m) - score(r);
        for (int back = 0; back < 2; ++back) {
            lay_.add(w, back == 0 ? f_.c15 : f_.c17, floated(r, back) != Float::Up);
            const auto& f = f_.sd[idx(back)];
            const bool down = floated(m, back) == Float::Down;
            const bool up = floated(r, back) == Float::Up;
            lay_.add(w, f.repeat, down);
            for (std::size_t l = 0; l < levels_.sd.size(); ++l) {
                lay_.add(w, f.mdp[l], !(down && sd == levels_.sd[l]));
                lay_.add(w, f.opponent[l], !(up && sd == levels_.sd[l]));
            }
        }
    }

    // Where the pair stands in the handbook's generation order of this phase.
    void add_order(WideWeight& w, int a, int b) const {
        if (f_.mdpset >= 0 && br_.is_mdp[idx(a)] != br_.is_mdp[idx(b)]) {
            const int m = br_.is_mdp[idx(a)] ? a : b;
            const int bsn = static_cast<int>(std::find(br_.members.begin(), br_.members.end(), m) -
                                             br_.members.begin()) +
                            1;
            lay_.add_bit(w, f_.mdpset, br_.mdps - bsn);
        }
        const int pa = order_.pool_bsn[idx(a)], pb = order_.pool_bsn[idx(b)];
        if (f_.k >= 0 && pa && pb) {
            const int low = std::min(pa, pb);
            lay_.add(w, f_.k, !(low > ph_.n1));
            lay_.add(w, f_.sum, static_cast<std::uint64_t>(order_.pool_size + 1 - low));
            // Highest BSNs leaving S1 first: the S1 players that stay weigh little.
            WideWeight out = WideWeight(1).shifted(ph_.n1);
            if (low <= ph_.n1)
                out -= WideWeight(1).shifted(low - 1);
            lay_.add_wide(w, f_.out, out);
            // Lowest BSNs entering S1 first.
            if (low > ph_.n1)
                lay_.add_bit(w, f_.in, order_.pool_size - low);
        }
        if (f_.trans >= 0 && pa && pb && ph_.side[idx(a)] + ph_.side[idx(b)] == 3) {
            const int s = ph_.side[idx(a)] == 1 ? a : b, t = s == a ? b : a;
            const int digit = order_.digit;
            const std::uint64_t d =
                (std::uint64_t{1} << digit) - 1 - static_cast<std::uint64_t>(order_.s2_bsn[idx(t)]);
            const int place = (order_.s1_count - 1 - order_.s1_pos[idx(s)]) * digit;
            for (int bit = 0; bit < digit; ++bit)
                if ((d >> bit) & 1U)
                    lay_.add_bit(w, f_.trans, place + bit);
        }
    }

    const DutchRound& d_;
    const Bracket& br_;
    const Phase& ph_;
    const std::uint64_t most_; // edges matched, at most
    const bool hetero_;
    int most_unplayed_ = 0;
    Levels levels_;
    Layout lay_;
    Fields f_;
    Order order_;
};

std::vector<int> DutchRound::solve(const Bracket& br, const Phase& ph, bool* mdp_pair_below) {
    // The vertices: every player not paired yet, and the bye when they are an odd number.
    std::vector<int> player_of;
    for (int a = 0; a < n_; ++a)
        if (!paired_[idx(a)])
            player_of.push_back(a);
    const bool odd = player_of.size() % 2 == 1;
    const int bye_vertex = static_cast<int>(player_of.size());
    const int vertices = bye_vertex + (odd ? 1 : 0);
    const Criteria criteria(*this, br, ph, player_of);
    std::vector<WeightedEdge> edges;
    for (std::size_t i = 0; i < player_of.size(); ++i) {
        const int a = player_of[i];
        if (odd)
            if (const auto w = criteria.bye(a))
                edges.push_back({static_cast<int>(i), bye_vertex, *w});
        for (std::size_t j = i + 1; j < player_of.size(); ++j)
            if (criteria.allowed(a, player_of[j]))
                edges.push_back(
                    {static_cast<int>(i), static_cast<int>(j), criteria.pair(a, player_of[j])});
    }
    const auto mate = max_weight_matching(vertices, edges);
    std::vector<int> out(idx(n_), -1);
    if (mdp_pair_below)
        *mdp_pair_below = false;
    for (std::size_t i = 0; i < player_of.size(); ++i) {
        const int m = mate.empty() ? -1 : mate[i];
        const int a = player_of[i];
        out[idx(a)] = m < 0 ? -1 : m == bye_vertex ? n_ : player_of[idx(m)];
        if (mdp_pair_below && m >= 0 && m != bye_vertex && br.is_mdp[idx(a)] &&
            br.is_mdp[idx(player_of[idx(m)])] && !br.collapsed)
            *mdp_pair_below = true;
    }
    return out;
}

std::vector<std::pair<int, int>> DutchRound::bracket_pairs(const Bracket& br,
                                                           const std::vector<int>& mate,
                                                           const std::vector<char>* among) const {
    std::vector<std::pair<int, int>> out;
    for (int a : br.members) {
        const int b = mate[idx(a)];
        if (b < 0 || b >= n_ || b < a || !is_bracket_edge(br, a, b))
            continue;
        if (among && (!(*among)[idx(a)] || !(*among)[idx(b)]))
            continue;
        out.emplace_back(a, b);
    }
    return out;
}

std::vector<std::pair<int, int>> DutchRound::homogeneous(const Bracket& br, Phase base,
                                                         const std::vector<int>& pool, int n1) {
    std::vector<char> in_pool(idx(n_), 0);
    for (int a : pool)
        in_pool[idx(a)] = 1;
    base.pool = pool;
    // MaxPairs is what the criteria allow: a guess, corrected by the first answer.
    if (n1 < 0)
        n1 = static_cast<int>(pool.size()) / 2;
    std::vector<std::pair<int, int>> pairs;
    for (int attempt = 0;; ++attempt) {
        Phase ph = base;
        ph.order = Phase::Order::Exchange;
        ph.n1 = n1;
        pairs = bracket_pairs(br, solve(br, ph, nullptr), &in_pool);
        if (static_cast<int>(pairs.size()) == n1 || attempt > 0)
            break;
        n1 = static_cast<int>(pairs.size());
    }
    n1 = static_cast<int>(pairs.size());
    if (n1 == 0)
        return pairs;
    // The exchange found: each pair's lower BSN is in S1.
    Phase ph = base;
    ph.order = Phase::Order::Transposition;
    ph.split = true;
    ph.side.assign(idx(n_), 0);
    for (int a : pool)
        ph.side[idx(a)] = 2;
    for (const auto& [a, b] : pairs)
        ph.side[idx(std::min(a, b))] = 1; // ranks follow BSNs within a pool
    auto result = bracket_pairs(br, solve(br, ph, nullptr), &in_pool);
    if (static_cast<int>(result.size()) != n1)
        throw std::logic_error("swiss: a transposition lost a pair");
    return result;
}

bool DutchRound::pair_bracket(Bracket& br, std::vector<std::pair<int, int>>& pairs) {
    pairs.clear();
    Phase base;
    base.forced.assign(idx(n_), -1);
    std::vector<int> residents;
    for (int a : br.members)
        if (!br.is_mdp[idx(a)] || br.collapsed)
            residents.push_back(a);
    if (br.mdps == 0 || br.collapsed) {
        pairs = homogeneous(br, base, residents, -1);
        return true;
    }
    // The set of MDPs to pair: the first valid set (Article 4.4).
    Phase ph = base;
    ph.order = Phase::Order::MdpSet;
    bool below = false;
    auto mate = solve(br, ph, &below);
    if (br.last && below)
        return false; // two MDPs must meet: the last bracket is paired as one group
    std::vector<int> s1;
    base.limbo.assign(idx(n_), 0);
    for (int i = 0; i < br.mdps; ++i) {
        const int m = br.members[idx(i)];
        const int r = mate[idx(m)];
        if (r >= 0 && r < n_ && is_bracket_edge(br, m, r))
            s1.push_back(m);
        else
            base.limbo[idx(m)] = 1;
    }
    if (!s1.empty()) {
        // Their opponents: the first BSNs of S2's transposition.
        ph = base;
        ph.order = Phase::Order::Transposition;
        ph.pool = br.members;
        ph.side.assign(idx(n_), 0);
        for (int a : br.members)
            ph.side[idx(a)] = br.is_mdp[idx(a)] ? (base.limbo[idx(a)] ? 0 : 1) : 2;
        ph.pool.erase(std::remove_if(ph.pool.begin(), ph.pool.end(),
                                     [&](int a) { return ph.side[idx(a)] == 0; }),
                      ph.pool.end());
        mate = solve(br, ph, nullptr);
        for (int m : s1) {
            const int r = mate[idx(m)];
            if (r < 0 || r >= n_ || br.is_mdp[idx(r)])
                throw std::logic_error("swiss: an MDP lost its opponent");
            base.forced[idx(m)] = r;
            base.forced[idx(r)] = m;
            pairs.emplace_back(std::min(m, r), std::max(m, r));
        }
    }
    // The remainder, with fresh BSNs, as a homogeneous bracket.
    std::vector<int> remainder;
    std::vector<char> in_rem(idx(n_), 0);
    for (int a : residents)
        if (base.forced[idx(a)] < 0) {
            remainder.push_back(a);
            in_rem[idx(a)] = 1;
        }
    const int n1 = static_cast<int>(bracket_pairs(br, mate, &in_rem).size());
    if (n1 > 0) {
        auto rest = homogeneous(br, base, remainder, n1);
        pairs.insert(pairs.end(), rest.begin(), rest.end());
    }
    return true;
}

std::optional<std::vector<SwissBoard>> DutchRound::pair() {
    std::vector<std::pair<int, int>> all;
    int pab = -1;
    std::vector<int> mdps;
    for (std::size_t g = 0; g < scores_.size(); ++g) {
        Bracket br;
        br.in_b.assign(idx(n_), 0);
        br.is_mdp.assign(idx(n_), 0);
        br.in_next.assign(idx(n_), 0);
        br.members = mdps;
        br.mdps = static_cast<int>(mdps.size());
        for (int a : mdps)
            br.in_b[idx(a)] = br.is_mdp[idx(a)] = 1;
        for (int a = 0; a < n_; ++a) {
            if (e_[idx(a)].score() == scores_[g]) {
                br.members.push_back(a);
                br.in_b[idx(a)] = 1;
            } else if (g + 1 < scores_.size() && e_[idx(a)].score() == scores_[g + 1]) {
                br.in_next[idx(a)] = 1;
            }
        }
        br.last = g + 1 == scores_.size();
        if (g == 0) {
            // C4 for the round as a whole: without a complete pairing there is nothing to do.
            Phase ph;
            const auto mate = solve(br, ph, nullptr);
            for (int a = 0; a < n_; ++a) {
                if (mate[idx(a)] < 0)
                    return std::nullopt;
                if (mate[idx(a)] == n_)
                    bye_score_ = e_[idx(a)].score();
            }
        }
        // C9 where this bracket decides the bye (see the top): its best pairing, by the
        // criteria above C9, leaves only the bye's assignee unpaired. The assignee may be a
        // resident of the bye's score or a player moved down from it into a lower bracket.
        br.c9 = br.last;
        if (!br.last && bye_score_ >= scores_[g]) {
            const auto mate = solve(br, Phase{}, nullptr);
            int left = 0;
            for (int a : br.members) {
                const int m = mate[idx(a)];
                left += m < 0 || m >= n_ || !is_bracket_edge(br, a, m) ? 1 : 0;
            }
            br.c9 = left == 1;
        }
        std::vector<std::pair<int, int>> pairs;
        if (!pair_bracket(br, pairs)) {
            br.collapsed = true;
            pair_bracket(br, pairs);
        }
        for (const auto& [a, b] : pairs) {
            paired_[idx(a)] = paired_[idx(b)] = 1;
            all.emplace_back(a, b);
        }
        mdps.clear();
        for (int a : br.members)
            if (!paired_[idx(a)])
                mdps.push_back(a);
    }
    if (mdps.size() > 1)
        throw std::logic_error("swiss: the last bracket left several players unpaired");
    if (mdps.size() == 1) {
        pab = mdps.front();
        if (e_[idx(pab)].p->bye_ineligible)
            throw std::logic_error("swiss: the bye went to a player who may not have it");
    }

    // Boards as C.04.2 publishes them: by the higher score, the sum of scores, the rank of the
    // higher-ranked player; the bye last.
    std::sort(all.begin(), all.end(), [&](const auto& x, const auto& y) {
        const double hx = e_[idx(x.first)].score(), hy = e_[idx(y.first)].score();
        const double sx = hx + e_[idx(x.second)].score(), sy = hy + e_[idx(y.second)].score();
        if (hx != hy)
            return hx > hy;
        if (sx != sy)
            return sx > sy;
        return x.first < y.first;
    });
    std::vector<SwissBoard> out;
    for (const auto& [a, b] : all) {
        const bool a_white = white(a, b);
        const int w = a_white ? a : b, k = a_white ? b : a;
        SwissBoard board;
        board.white = e_[idx(w)].p->player;
        board.black = e_[idx(k)].p->player;
        const double sw = e_[idx(w)].score(), sk = e_[idx(k)].score();
        board.white_float = sw > sk ? Float::Down : sw < sk ? Float::Up : Float::None;
        board.black_float = sk > sw ? Float::Down : sk < sw ? Float::Up : Float::None;
        out.push_back(board);
    }
    if (pab >= 0)
        out.push_back({e_[idx(pab)].p->player, bye, Float::Down, Float::None});
    return out;
}

} // namespace

ColourPreference colour_preference(const std::vector<Colour>& played) {
    if (played.empty())
        return {};
    int cd = 0;
    for (Colour c : played)
        cd += static_cast<int>(c);
    const Colour last = played.back();
    const bool twice = played.size() >= 2 && played[played.size() - 2] == last;
    if (cd > 1)
        return {Colour::Black, Preference::Absolute};
    if (cd < -1)
        return {Colour::White, Preference::Absolute};
    if (twice)
        return {opposite(last), Preference::Absolute};
    if (cd == 1)
        return {Colour::Black, Preference::Strong};
    if (cd == -1)
        return {Colour::White, Preference::Strong};
    return {opposite(last), Preference::Mild};
}

std::vector<SwissPlayer> swiss_players(int players,
                                       const std::vector<std::vector<SwissRoundEntry>>& rounds) {
    std::vector<SwissPlayer> out(idx(players));
    std::vector<double> score(idx(players), 0);
    std::vector<std::vector<Float>> floats(rounds.size(),
                                           std::vector<Float>(idx(players), Float::None));
    for (int p = 0; p < players; ++p) {
        out[idx(p)].player = p;
        out[idx(p)].number = p + 1;
    }
    for (std::size_t r = 0; r < rounds.size(); ++r) {
        const std::vector<double> before = score;
        std::vector<const SwissRoundEntry*> of(idx(players), nullptr);
        for (const auto& e : rounds[r]) {
            if (e.player < 0 || e.player >= players || of[idx(e.player)])
                throw std::invalid_argument("swiss: round " + std::to_string(r + 1) +
                                            " names a player twice or one out of range");
            const bool played = e.colour != Colour::None;
            if (played && (e.opponent < 0 || e.opponent >= players))
                throw std::invalid_argument("swiss: a game played without an opponent");
            of[idx(e.player)] = &e;
        }
        for (int p = 0; p < players; ++p) {
            SwissPlayer& sp = out[idx(p)];
            const SwissRoundEntry* e = of[idx(p)];
            if (!e) {
                ++sp.unplayed;
                continue;
            }
            score[idx(p)] += e->points;
            const bool played = e->colour != Colour::None;
            Float f = Float::None;
            if (played) {
                sp.colours.push_back(e->colour);
                sp.opponents.push_back(e->opponent);
                const double mine = before[idx(p)], theirs = before[idx(e->opponent)];
                f = e->floated      ? *e->floated
                    : mine > theirs ? Float::Down
                    : mine < theirs ? Float::Up
                                    : Float::None;
            } else {
                ++sp.unplayed;
                f = e->pab || e->points > 0 ? Float::Down : Float::None;
            }
            if (e->pab || (!played && e->points >= 1.0))
                sp.bye_ineligible = true;
            floats[r][idx(p)] = f;
        }
    }
    for (int p = 0; p < players; ++p) {
        out[idx(p)].score = score[idx(p)];
        if (!rounds.empty())
            out[idx(p)].float_last = floats[rounds.size() - 1][idx(p)];
        if (rounds.size() >= 2)
            out[idx(p)].float_before = floats[rounds.size() - 2][idx(p)];
    }
    return out;
}

std::optional<std::vector<SwissBoard>> swiss_round(const SwissRound& round) {
    std::vector<int> seen;
    for (const auto& p : round.players)
        seen.push_back(p.player);
    std::sort(seen.begin(), seen.end());
    if (std::adjacent_find(seen.begin(), seen.end()) != seen.end())
        throw std::invalid_argument("swiss: a player is listed twice");
    if (round.players.empty())
        return std::vector<SwissBoard>{};
    return DutchRound(round).pair();
}

} // namespace ghostpost::bot
