// Maximum-weight matching by Edmonds' blossom algorithm, in the primal-dual form of Galil
// ("Efficient algorithms for finding maximum matching in graphs", ACM Computing Surveys 1986):
// stages that each grow alternating trees from the single vertices until an augmenting path
// is found, with blossoms shrunk and expanded as the dual variables move. Vertex duals, surpluses
// and deltas are kept doubled, so integer weights keep every quantity an integer.
#include "ghostpost/league/matching.h"

#include <algorithm>
#include <cstddef>
#include <stdexcept>

namespace ghostpost::bot {

WideWeight& WideWeight::operator+=(const WideWeight& other) {
    std::uint64_t carry = 0;
    for (std::size_t i = 0; i < limb_.size(); ++i) {
        const std::uint64_t a = limb_[i], b = other.limb_[i];
        const std::uint64_t sum = a + b;
        const std::uint64_t out = sum + carry;
        carry = (sum < a || out < sum) ? 1 : 0;
        limb_[i] = out;
    }
    return *this;
}

WideWeight& WideWeight::operator-=(const WideWeight& other) {
    std::uint64_t borrow = 0;
    for (std::size_t i = 0; i < limb_.size(); ++i) {
        const std::uint64_t a = limb_[i], b = other.limb_[i];
        const std::uint64_t diff = a - b;
        const std::uint64_t out = diff - borrow;
        borrow = (a < b || diff < borrow) ? 1 : 0;
        limb_[i] = out;
    }
    return *this;
}

std::strong_ordering operator<=>(const WideWeight& a, const WideWeight& b) {
    if (a.negative() != b.negative())
        return a.negative() ? std::strong_ordering::less : std::strong_ordering::greater;
    for (std::size_t i = a.limb_.size(); i-- > 0;)
        if (a.limb_[i] != b.limb_[i])
            return a.limb_[i] < b.limb_[i] ? std::strong_ordering::less
                                           : std::strong_ordering::greater;
    return std::strong_ordering::equal;
}

WideWeight WideWeight::shifted(int n) const {
    if (n < 0 || (n > 0 && bit_length() + n > bits - 1))
        throw std::logic_error("matching: a weight does not fit in " + std::to_string(bits) +
                               " bits");
    WideWeight out;
    const auto whole = static_cast<std::size_t>(n / 64);
    const int part = n % 64;
    for (std::size_t i = limb_.size(); i-- > whole;) {
        std::uint64_t v = limb_[i - whole] << part;
        if (part != 0 && i - whole > 0)
            v |= limb_[i - whole - 1] >> (64 - part);
        out.limb_[i] = v;
    }
    return out;
}

WideWeight WideWeight::halved() const {
    WideWeight out;
    for (std::size_t i = 0; i < limb_.size(); ++i) {
        std::uint64_t v = limb_[i] >> 1;
        if (i + 1 < limb_.size())
            v |= limb_[i + 1] << 63;
        else
            v |= limb_[i] & (std::uint64_t{1} << 63); // keeps the sign
        out.limb_[i] = v;
    }
    return out;
}

std::uint64_t WideWeight::field(int offset, int width) const {
    std::uint64_t out = 0;
    for (int b = 0; b < width; ++b) {
        const int bit = offset + b;
        if (bit >= bits)
            break;
        const auto limb = static_cast<std::size_t>(bit / 64);
        if ((limb_[limb] >> (bit % 64)) & 1U)
            out |= std::uint64_t{1} << b;
    }
    return out;
}

int WideWeight::bit_length() const {
    for (std::size_t i = limb_.size(); i-- > 0;)
        if (limb_[i] != 0) {
            int top = 63;
            while (((limb_[i] >> top) & 1U) == 0)
                --top;
            return static_cast<int>(i) * 64 + top + 1;
        }
    return 0;
}

namespace {

// A vector indexed by int, as every index in the algorithm is.
template <class T> class Vec {
public:
    Vec() = default;
    Vec(int n, const T& value) : v_(static_cast<std::size_t>(n), value) {}
    T& operator[](int i) { return v_[static_cast<std::size_t>(i)]; }
    const T& operator[](int i) const { return v_[static_cast<std::size_t>(i)]; }
    int size() const { return static_cast<int>(v_.size()); }
    void push_back(const T& value) { v_.push_back(value); }
    T pop() {
        T out = v_.back();
        v_.pop_back();
        return out;
    }
    bool empty() const { return v_.empty(); }
    void clear() { v_.clear(); }
    void assign(int n, const T& value) { v_.assign(static_cast<std::size_t>(n), value); }
    auto begin() { return v_.begin(); }
    auto end() { return v_.end(); }
    auto begin() const { return v_.begin(); }
    auto end() const { return v_.end(); }
    int index_of(const T& value) const {
        return static_cast<int>(std::find(v_.begin(), v_.end(), value) - v_.begin());
    }
    // The element at i taken round the list, so that -1 is the last.
    T& wrap(int i) {
        const int n = size();
        return (*this)[((i % n) + n) % n];
    }

private:
    std::vector<T> v_;
};

// Labels of top-level blossoms: free, S (outer) and T (inner). Breadcrumb marks a blossom
// scanBlossom passed on its way to the root.
constexpr int free_label = 0, s_label = 1, t_label = 2, breadcrumb = 5;

class Matcher {
public:
    Matcher(int n, const std::vector<WeightedEdge>& edges) : n_(n) {
        for (const auto& e : edges) {
            if (e.a < 0 || e.b < 0 || e.a >= n || e.b >= n || e.a == e.b)
                throw std::logic_error("matching: bad edge");
            if (!(WideWeight{} < e.weight))
                throw std::logic_error("matching: weights must be positive");
            ei_.push_back(e.a);
            ej_.push_back(e.b);
            ew2_.push_back(e.weight + e.weight);
        }
        m_ = ei_.size();
        WideWeight top;
        for (const auto& e : edges)
            top = std::max(top, e.weight);
        endpoint_.assign(2 * m_, 0);
        neighbend_.assign(n, Vec<int>{});
        for (int k = 0; k < m_; ++k) {
            endpoint_[2 * k] = ei_[k];
            endpoint_[2 * k + 1] = ej_[k];
            neighbend_[ei_[k]].push_back(2 * k + 1);
            neighbend_[ej_[k]].push_back(2 * k);
        }
        mate_.assign(n, -1);
        label_.assign(2 * n, 0);
        labelend_.assign(2 * n, -1);
        inblossom_.assign(n, 0);
        for (int v = 0; v < n; ++v)
            inblossom_[v] = v;
        blossomparent_.assign(2 * n, -1);
        blossomchilds_.assign(2 * n, Vec<int>{});
        blossombase_.assign(2 * n, -1);
        for (int v = 0; v < n; ++v)
            blossombase_[v] = v;
        blossomendps_.assign(2 * n, Vec<int>{});
        bestedge_.assign(2 * n, -1);
        blossombestedges_.assign(2 * n, Vec<int>{});
        has_bestedges_.assign(2 * n, 0);
        for (int b = 2 * n - 1; b >= n; --b)
            unused_.push_back(b);
        dualvar_.assign(2 * n, WideWeight{});
        for (int v = 0; v < n; ++v)
            dualvar_[v] = top;
        allowedge_.assign(m_, 0);
    }

    std::vector<int> run();

private:
    // The surplus of edge k, doubled: u_i + u_j - 2 w_k plus the duals of blossoms containing it
    // are zero for the edges an optimum may use.
    WideWeight surplus(int k) const { return dualvar_[ei_[k]] + dualvar_[ej_[k]] - ew2_[k]; }

    void leaves(int b, Vec<int>& out) const {
        if (b < n_) {
            out.push_back(b);
            return;
        }
        for (int t : blossomchilds_[b])
            leaves(t, out);
    }
    Vec<int> leaves(int b) const {
        Vec<int> out;
        leaves(b, out);
        return out;
    }

    void assign_label(int w, int t, int p);
    int scan_blossom(int v, int w);
    void add_blossom(int base, int k);
    void expand_blossom(int b, bool endstage);
    void augment_blossom(int b, int v);
    void augment_matching(int k);

    int n_;
    int m_ = 0;
    Vec<int> ei_, ej_;
    Vec<WideWeight> ew2_;     // each weight doubled
    Vec<int> endpoint_;       // endpoint_[2k], endpoint_[2k+1]: the vertices of edge k
    Vec<Vec<int>> neighbend_; // per vertex, the remote endpoints of its edges
    Vec<int> mate_;           // per vertex, the remote endpoint of its matched edge, or -1
    Vec<int> label_;          // per vertex and blossom
    Vec<int> labelend_;       // the endpoint through which the label came, or -1
    Vec<int> inblossom_;      // per vertex, its top-level blossom
    Vec<int> blossomparent_;
    Vec<Vec<int>> blossomchilds_; // sub-blossoms round the cycle, the base's first
    Vec<int> blossombase_;
    Vec<Vec<int>> blossomendps_; // endpoints joining consecutive sub-blossoms
    Vec<int> bestedge_;          // the least-surplus edge to another S-blossom, or -1
    Vec<Vec<int>> blossombestedges_;
    Vec<char> has_bestedges_;
    Vec<int> unused_;
    Vec<WideWeight> dualvar_;
    Vec<char> allowedge_;
    Vec<int> queue_;
};

void Matcher::assign_label(int w, int t, int p) {
    const int b = inblossom_[w];
    label_[w] = label_[b] = t;
    labelend_[w] = labelend_[b] = p;
    bestedge_[w] = bestedge_[b] = -1;
    if (t == s_label) {
        for (int v : leaves(b))
            queue_.push_back(v);
    } else if (t == t_label) {
        // The base of a T-blossom is matched: its mate becomes an S-vertex.
        const int base = blossombase_[b];
        assign_label(endpoint_[mate_[base]], s_label, mate_[base] ^ 1);
    }
}

int Matcher::scan_blossom(int v, int w) {
    // Walks up both trees at once, leaving breadcrumbs, until a marked blossom (the new
    // blossom's base) or both roots (an augmenting path) are found.
    Vec<int> path;
    int base = -1;
    while (v != -1 || w != -1) {
        int b = inblossom_[v];
        if (label_[b] & 4) {
            base = blossombase_[b];
            break;
        }
        path.push_back(b);
        label_[b] = breadcrumb;
        if (labelend_[b] == -1) {
            v = -1;
        } else {
            v = endpoint_[labelend_[b]];
            b = inblossom_[v];
            v = endpoint_[labelend_[b]];
        }
        if (w != -1)
            std::swap(v, w);
    }
    for (int b : path)
        label_[b] = s_label;
    return base;
}

void Matcher::add_blossom(int base, int k) {
    int v = ei_[k], w = ej_[k];
    const int bb = inblossom_[base];
    int bv = inblossom_[v], bw = inblossom_[w];
    const int b = unused_.pop();
    blossombase_[b] = base;
    blossomparent_[b] = -1;
    blossomparent_[bb] = b;
    Vec<int> path, endps;
    while (bv != bb) {
        blossomparent_[bv] = b;
        path.push_back(bv);
        endps.push_back(labelend_[bv]);
        v = endpoint_[labelend_[bv]];
        bv = inblossom_[v];
    }
    path.push_back(bb);
    std::reverse(path.begin(), path.end());
    std::reverse(endps.begin(), endps.end());
    endps.push_back(2 * k);
    while (bw != bb) {
        blossomparent_[bw] = b;
        path.push_back(bw);
        endps.push_back(labelend_[bw] ^ 1);
        w = endpoint_[labelend_[bw]];
        bw = inblossom_[w];
    }
    blossomchilds_[b] = path;
    blossomendps_[b] = endps;
    label_[b] = s_label;
    labelend_[b] = labelend_[bb];
    dualvar_[b] = WideWeight{};
    for (int leaf : leaves(b)) {
        if (label_[inblossom_[leaf]] == t_label)
            queue_.push_back(leaf); // a former T-vertex is now an S-vertex
        inblossom_[leaf] = b;
    }
    // The least-surplus edges from the new blossom to each neighbouring S-blossom.
    Vec<int> bestedgeto(2 * n_, -1);
    for (int sub : path) {
        Vec<Vec<int>> lists;
        if (!has_bestedges_[sub]) {
            for (int leaf : leaves(sub)) {
                Vec<int> list;
                for (int p : neighbend_[leaf])
                    list.push_back(p / 2);
                lists.push_back(list);
            }
        } else {
            lists.push_back(blossombestedges_[sub]);
        }
        for (const auto& list : lists)
            for (int kk : list) {
                int i = ei_[kk], j = ej_[kk];
                if (inblossom_[j] == b)
                    std::swap(i, j);
                const int bj = inblossom_[j];
                if (bj != b && label_[bj] == s_label &&
                    (bestedgeto[bj] == -1 || surplus(kk) < surplus(bestedgeto[bj])))
                    bestedgeto[bj] = kk;
            }
        blossombestedges_[sub].clear();
        has_bestedges_[sub] = 0;
        bestedge_[sub] = -1;
    }
    Vec<int> best;
    for (int kk : bestedgeto)
        if (kk != -1)
            best.push_back(kk);
    blossombestedges_[b] = best;
    has_bestedges_[b] = 1;
    bestedge_[b] = -1;
    for (int kk : best)
        if (bestedge_[b] == -1 || surplus(kk) < surplus(bestedge_[b]))
            bestedge_[b] = kk;
}

void Matcher::expand_blossom(int b, bool endstage) {
    for (int s : blossomchilds_[b]) {
        blossomparent_[s] = -1;
        if (s < n_)
            inblossom_[s] = s;
        else if (endstage && dualvar_[s] == WideWeight{})
            expand_blossom(s, endstage);
        else
            for (int leaf : leaves(s))
                inblossom_[leaf] = s;
    }
    if (!endstage && label_[b] == t_label) {
        // Relabel the sub-blossoms from the one through which the blossom got its label to
        // the base, so that the alternating tree stays whole.
        auto& childs = blossomchilds_[b];
        auto& endps = blossomendps_[b];
        const int entrychild = inblossom_[endpoint_[labelend_[b] ^ 1]];
        int j = childs.index_of(entrychild);
        int jstep = 0, endptrick = 0;
        if (j & 1) {
            j -= childs.size(); // odd: go forward and wrap
            jstep = 1;
            endptrick = 0;
        } else {
            jstep = -1; // even: go backward
            endptrick = 1;
        }
        int p = labelend_[b];
        while (j != 0) {
            label_[endpoint_[p ^ 1]] = 0;
            label_[endpoint_[endps.wrap(j - endptrick) ^ endptrick ^ 1]] = 0;
            assign_label(endpoint_[p ^ 1], t_label, p);
            allowedge_[endps.wrap(j - endptrick) / 2] = 1;
            j += jstep;
            p = endps.wrap(j - endptrick) ^ endptrick;
            allowedge_[p / 2] = 1;
            j += jstep;
        }
        const int bv = childs.wrap(j);
        label_[endpoint_[p ^ 1]] = label_[bv] = t_label;
        labelend_[endpoint_[p ^ 1]] = labelend_[bv] = p;
        bestedge_[bv] = -1;
        j += jstep;
        while (childs.wrap(j) != entrychild) {
            const int sub = childs.wrap(j);
            if (label_[sub] == s_label) {
                j += jstep;
                continue;
            }
            int reached = -1;
            for (int leaf : leaves(sub))
                if (label_[leaf] != 0) {
                    reached = leaf;
                    break;
                }
            if (reached != -1) {
                label_[reached] = 0;
                label_[endpoint_[mate_[blossombase_[sub]]]] = 0;
                assign_label(reached, t_label, labelend_[reached]);
            }
            j += jstep;
        }
    }
    label_[b] = labelend_[b] = -1;
    blossomchilds_[b].clear();
    blossomendps_[b].clear();
    blossombase_[b] = -1;
    blossombestedges_[b].clear();
    has_bestedges_[b] = 0;
    bestedge_[b] = -1;
    unused_.push_back(b);
}

void Matcher::augment_blossom(int b, int v) {
    // Swaps matched and unmatched edges round the blossom so that v becomes its base.
    int t = v;
    while (blossomparent_[t] != b)
        t = blossomparent_[t];
    if (t >= n_)
        augment_blossom(t, v);
    auto& childs = blossomchilds_[b];
    auto& endps = blossomendps_[b];
    const int i = childs.index_of(t);
    int j = i;
    int jstep = 0, endptrick = 0;
    if (i & 1) {
        j -= childs.size();
        jstep = 1;
        endptrick = 0;
    } else {
        jstep = -1;
        endptrick = 1;
    }
    while (j != 0) {
        j += jstep;
        t = childs.wrap(j);
        const int p = endps.wrap(j - endptrick) ^ endptrick;
        if (t >= n_)
            augment_blossom(t, endpoint_[p]);
        j += jstep;
        t = childs.wrap(j);
        if (t >= n_)
            augment_blossom(t, endpoint_[p ^ 1]);
        mate_[endpoint_[p]] = p ^ 1;
        mate_[endpoint_[p ^ 1]] = p;
    }
    Vec<int> rotated_childs, rotated_endps;
    for (int x = 0; x < childs.size(); ++x) {
        rotated_childs.push_back(childs.wrap(i + x));
        rotated_endps.push_back(endps.wrap(i + x));
    }
    childs = rotated_childs;
    endps = rotated_endps;
    blossombase_[b] = blossombase_[childs[0]];
}

void Matcher::augment_matching(int k) {
    const int v = ei_[k], w = ej_[k];
    for (auto [s, p] : {std::pair{v, 2 * k + 1}, std::pair{w, 2 * k}}) {
        // Matches s to p, then walks back to the tree's root swapping edges.
        while (true) {
            const int bs = inblossom_[s];
            if (bs >= n_)
                augment_blossom(bs, s);
            mate_[s] = p;
            if (labelend_[bs] == -1)
                break;
            const int t = endpoint_[labelend_[bs]];
            const int bt = inblossom_[t];
            s = endpoint_[labelend_[bt]];
            const int j = endpoint_[labelend_[bt] ^ 1];
            if (bt >= n_)
                augment_blossom(bt, j);
            mate_[j] = labelend_[bt];
            p = labelend_[bt] ^ 1;
        }
    }
}

std::vector<int> Matcher::run() {
    for (int stage = 0; stage < n_; ++stage) {
        label_.assign(2 * n_, 0);
        bestedge_.assign(2 * n_, -1);
        for (int b = n_; b < 2 * n_; ++b) {
            blossombestedges_[b].clear();
            has_bestedges_[b] = 0;
        }
        allowedge_.assign(m_, 0);
        queue_.clear();
        for (int v = 0; v < n_; ++v)
            if (mate_[v] == -1 && label_[inblossom_[v]] == 0)
                assign_label(v, s_label, -1);
        bool augmented = false;
        while (true) {
            while (!queue_.empty() && !augmented) {
                const int v = queue_.pop();
                for (int p : neighbend_[v]) {
                    const int k = p / 2;
                    const int w = endpoint_[p];
                    if (inblossom_[v] == inblossom_[w])
                        continue;
                    WideWeight ksurplus;
                    if (!allowedge_[k]) {
                        ksurplus = surplus(k);
                        if (!(WideWeight{} < ksurplus))
                            allowedge_[k] = 1;
                    }
                    if (allowedge_[k]) {
                        if (label_[inblossom_[w]] == free_label) {
                            assign_label(w, t_label, p ^ 1);
                        } else if (label_[inblossom_[w]] == s_label) {
                            const int base = scan_blossom(v, w);
                            if (base >= 0) {
                                add_blossom(base, k);
                            } else {
                                augment_matching(k);
                                augmented = true;
                                break;
                            }
                        } else if (label_[w] == 0) {
                            // w is inside a T-blossom but not reached yet: note it for the
                            // relabelling when that blossom is expanded.
                            label_[w] = t_label;
                            labelend_[w] = p ^ 1;
                        }
                    } else if (label_[inblossom_[w]] == s_label) {
                        const int b = inblossom_[v];
                        if (bestedge_[b] == -1 || ksurplus < surplus(bestedge_[b]))
                            bestedge_[b] = k;
                    } else if (label_[w] == 0) {
                        if (bestedge_[w] == -1 || ksurplus < surplus(bestedge_[w]))
                            bestedge_[w] = k;
                    }
                }
            }
            if (augmented)
                break;

            // No augmenting path yet: move the duals by the largest delta that keeps them
            // feasible, which makes a new edge tight or a blossom's dual zero.
            int deltatype = 1;
            WideWeight delta = dualvar_[0];
            for (int v = 1; v < n_; ++v)
                delta = std::min(delta, dualvar_[v]);
            int deltaedge = -1, deltablossom = -1;
            for (int v = 0; v < n_; ++v)
                if (label_[inblossom_[v]] == free_label && bestedge_[v] != -1) {
                    const WideWeight d = surplus(bestedge_[v]);
                    if (d < delta) {
                        delta = d;
                        deltatype = 2;
                        deltaedge = bestedge_[v];
                    }
                }
            for (int b = 0; b < 2 * n_; ++b)
                if (blossomparent_[b] == -1 && label_[b] == s_label && bestedge_[b] != -1) {
                    const WideWeight d = surplus(bestedge_[b]).halved();
                    if (d < delta) {
                        delta = d;
                        deltatype = 3;
                        deltaedge = bestedge_[b];
                    }
                }
            for (int b = n_; b < 2 * n_; ++b)
                if (blossombase_[b] >= 0 && blossomparent_[b] == -1 && label_[b] == t_label &&
                    dualvar_[b] < delta) {
                    delta = dualvar_[b];
                    deltatype = 4;
                    deltablossom = b;
                }
            for (int v = 0; v < n_; ++v) {
                if (label_[inblossom_[v]] == s_label)
                    dualvar_[v] -= delta;
                else if (label_[inblossom_[v]] == t_label)
                    dualvar_[v] += delta;
            }
            for (int b = n_; b < 2 * n_; ++b)
                if (blossombase_[b] >= 0 && blossomparent_[b] == -1) {
                    if (label_[b] == s_label)
                        dualvar_[b] += delta;
                    else if (label_[b] == t_label)
                        dualvar_[b] -= delta;
                }
            if (deltatype == 1)
                break; // a vertex dual reached zero: no better matching exists
            if (deltatype == 2) {
                allowedge_[deltaedge] = 1;
                int i = ei_[deltaedge];
                if (label_[inblossom_[i]] == free_label)
                    i = ej_[deltaedge];
                queue_.push_back(i);
            } else if (deltatype == 3) {
                allowedge_[deltaedge] = 1;
                queue_.push_back(ei_[deltaedge]);
            } else {
                expand_blossom(deltablossom, false);
            }
        }
        if (!augmented)
            break;
        for (int b = n_; b < 2 * n_; ++b)
            if (blossomparent_[b] == -1 && blossombase_[b] >= 0 && label_[b] == s_label &&
                dualvar_[b] == WideWeight{})
                expand_blossom(b, true);
    }
    std::vector<int> out(static_cast<std::size_t>(n_), -1);
    for (int v = 0; v < n_; ++v)
        if (mate_[v] >= 0)
            out[static_cast<std::size_t>(v)] = endpoint_[mate_[v]];
    return out;
}

} // namespace

std::vector<int> max_weight_matching(int vertices, const std::vector<WeightedEdge>& edges) {
    if (vertices <= 0)
        return {};
    if (edges.empty())
        return std::vector<int>(static_cast<std::size_t>(vertices), -1);
    return Matcher(vertices, edges).run();
}

} // namespace ghostpost::bot
