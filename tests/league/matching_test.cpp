#include "ghostpost/league/matching.h"

#include <catch2/catch.hpp>
#include <functional>
#include <map>
#include <random>

using namespace ghostpost::bot;

namespace {

// The best total weight over every matching, by trying them all.
WideWeight brute_force(int n, const std::vector<WeightedEdge>& edges) {
    std::map<std::pair<int, int>, WideWeight> w;
    for (const auto& e : edges)
        w[{std::min(e.a, e.b), std::max(e.a, e.b)}] = e.weight;
    std::vector<bool> used(static_cast<std::size_t>(n), false);
    std::function<WideWeight(int)> best = [&](int v) -> WideWeight {
        while (v < n && used[static_cast<std::size_t>(v)])
            ++v;
        if (v >= n)
            return WideWeight{};
        used[static_cast<std::size_t>(v)] = true;
        WideWeight top = best(v + 1); // v stays single
        for (int u = v + 1; u < n; ++u) {
            auto it = w.find({v, u});
            if (it == w.end() || used[static_cast<std::size_t>(u)])
                continue;
            used[static_cast<std::size_t>(u)] = true;
            top = std::max(top, it->second + best(v + 1));
            used[static_cast<std::size_t>(u)] = false;
        }
        used[static_cast<std::size_t>(v)] = false;
        return top;
    };
    return best(0);
}

WideWeight total(const std::vector<int>& mate, const std::vector<WeightedEdge>& edges) {
    WideWeight sum;
    for (const auto& e : edges)
        if (mate[static_cast<std::size_t>(e.a)] == e.b)
            sum += e.weight;
    return sum;
}

} // namespace

TEST_CASE("Wide weights add, subtract, shift and compare like integers", "[matching]") {
    const WideWeight one(1);
    const WideWeight big = one.shifted(700) + WideWeight(5);
    CHECK(big.bit_length() == 701);
    CHECK((big - one.shifted(700)) == WideWeight(5));
    CHECK(one.shifted(700) < big);
    CHECK((WideWeight(3) - WideWeight(5)).negative());
    CHECK((WideWeight(3) - WideWeight(5)) < WideWeight{});
    CHECK(big.halved() == one.shifted(699) + WideWeight(2));
    CHECK((WideWeight(6) - WideWeight(9)).halved() == WideWeight{} - WideWeight(2));
    CHECK(WideWeight(0xF0).field(4, 4) == 0xF);
    CHECK(one.shifted(130).field(128, 8) == 4);
    CHECK_THROWS_AS(one.shifted(1023), std::logic_error);
}

TEST_CASE("A matching of greatest weight prefers two light edges to one heavy one when they "
          "weigh more",
          "[matching]") {
    // A path a-b-c-d: the middle edge weighs 5, the outer ones 3 each.
    std::vector<WeightedEdge> edges{
        {0, 1, WideWeight(3)}, {1, 2, WideWeight(5)}, {2, 3, WideWeight(3)}};
    CHECK(max_weight_matching(4, edges) == std::vector<int>{1, 0, 3, 2});
    edges[1].weight = WideWeight(7);
    CHECK(max_weight_matching(4, edges) == std::vector<int>{-1, 2, 1, -1});
}

TEST_CASE("An odd cycle is shrunk into a blossom and the matching still finds the best edge out",
          "[matching]") {
    // A triangle 0-1-2 with a tail 2-3 and 3-4: the best uses 0-1, 2-3 or 0-1 and 3-4.
    std::vector<WeightedEdge> edges{{0, 1, WideWeight(8)},
                                    {1, 2, WideWeight(9)},
                                    {0, 2, WideWeight(10)},
                                    {2, 3, WideWeight(7)},
                                    {3, 4, WideWeight(2)}};
    const auto mate = max_weight_matching(5, edges);
    CHECK(total(mate, edges) == WideWeight(15));
    CHECK(mate == std::vector<int>{1, 0, 3, 2, -1});
}

TEST_CASE("Random graphs: the matching's weight equals the best found by trying every matching",
          "[matching]") {
    std::mt19937 rng(20260201);
    for (int trial = 0; trial < 400; ++trial) {
        const int n = 2 + static_cast<int>(rng() % 9);
        const bool wide = trial % 2 == 1;
        std::vector<WeightedEdge> edges;
        for (int a = 0; a < n; ++a)
            for (int b = a + 1; b < n; ++b) {
                if (rng() % 100 >= 60)
                    continue;
                // Wide weights: a high field of few values over a low field, as the pairings
                // pack their criteria.
                WideWeight w(1 + rng() % 20);
                if (wide)
                    w = WideWeight(1 + rng() % 3).shifted(300) +
                        WideWeight(rng() % 1000).shifted(40) + WideWeight(1 + rng() % 7);
                edges.push_back({a, b, w});
            }
        const auto mate = max_weight_matching(n, edges);
        INFO("trial " << trial << ", " << n << " vertices, " << edges.size() << " edges");
        for (int v = 0; v < n; ++v) {
            const int m = mate[static_cast<std::size_t>(v)];
            if (m >= 0)
                REQUIRE(mate[static_cast<std::size_t>(m)] == v);
        }
        for (int v = 0; v < n; ++v) {
            const int m = mate[static_cast<std::size_t>(v)];
            if (m < 0)
                continue;
            bool is_edge = false;
            for (const auto& e : edges)
                is_edge |= (e.a == v && e.b == m) || (e.a == m && e.b == v);
            REQUIRE(is_edge);
        }
        CHECK(total(mate, edges) == brute_force(n, edges));
    }
}

TEST_CASE("A matching refuses loops and weights that are not positive", "[matching]") {
    CHECK_THROWS_AS(max_weight_matching(3, {{1, 1, WideWeight(1)}}), std::logic_error);
    CHECK_THROWS_AS(max_weight_matching(3, {{0, 1, WideWeight{}}}), std::logic_error);
    CHECK_THROWS_AS(max_weight_matching(3, {{0, 3, WideWeight(1)}}), std::logic_error);
    CHECK(max_weight_matching(3, {}) == std::vector<int>{-1, -1, -1});
}
