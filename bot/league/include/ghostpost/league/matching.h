// Maximum-weight matching in general graphs, with weights wide enough to pack a list of
// criteria of falling priority into one number: the Swiss pairings (dutch.cpp) ask one
// matching to settle a whole list of FIDE criteria at once.
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <vector>

namespace ghostpost::bot {

// A signed integer of 1024 bits in two's complement. Only what the matching needs: sums,
// differences, comparison, halving, and building a value from bit fields.
class WideWeight {
public:
    static constexpr int bits = 1024;

    constexpr WideWeight() = default;
    explicit WideWeight(std::uint64_t value) { limb_[0] = value; }

    WideWeight& operator+=(const WideWeight& other);
    WideWeight& operator-=(const WideWeight& other);
    friend WideWeight operator+(WideWeight a, const WideWeight& b) { return a += b; }
    friend WideWeight operator-(WideWeight a, const WideWeight& b) { return a -= b; }
    friend bool operator==(const WideWeight&, const WideWeight&) = default;
    friend std::strong_ordering operator<=>(const WideWeight& a, const WideWeight& b);

    // The value times 2^n. Errors: std::logic_error when a set bit would leave the number.
    WideWeight shifted(int n) const;
    // The value divided by two, rounded down.
    WideWeight halved() const;
    bool negative() const { return (limb_.back() >> 63) != 0; }
    // Bits [offset, offset + width) as a number; width at most 64.
    std::uint64_t field(int offset, int width) const;
    // The position of the highest set bit plus one; 0 for zero. Only for values >= 0.
    int bit_length() const;

private:
    std::array<std::uint64_t, bits / 64> limb_{};
};

struct WeightedEdge {
    int a = 0;
    int b = 0;
    WideWeight weight; // > 0
};

// A matching of greatest total weight over `vertices` vertices (Edmonds' blossom algorithm
// with Galil's O(n^3) bookkeeping). Returns mate[v]: the vertex matched to v, or -1. Not the
// greatest cardinality unless the weights make it so (a large enough share per edge).
// Errors: std::logic_error for an edge out of range, a loop, or a weight <= 0.
std::vector<int> max_weight_matching(int vertices, const std::vector<WeightedEdge>& edges);

} // namespace ghostpost::bot
