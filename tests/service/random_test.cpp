#include "ghostpost/service/random.h"

#include <catch2/catch.hpp>
#include <numeric>

using ghostpost::bot::SeededRandom;

namespace {

std::vector<std::uint8_t> seed_0_to_31() {
    std::vector<std::uint8_t> seed(32);
    std::iota(seed.begin(), seed.end(), std::uint8_t{0});
    return seed;
}

} // namespace

// The expected numbers were derived outside this code, with
// `openssl dgst -sha256 -mac HMAC -macopt hexkey:000102...1f` over the 8-byte counters.
TEST_CASE("The seeded stream gives the documented HMAC-SHA256 dice", "[bot][random]") {
    SeededRandom rng(seed_0_to_31());
    std::vector<std::uint32_t> dice;
    for (int i = 0; i < 6; ++i)
        dice.push_back(rng.uniform(6));
    CHECK(dice == std::vector<std::uint32_t>{3, 1, 5, 0, 2, 5});
    CHECK(rng.counter() == 6);
}

TEST_CASE("Words at or above the rejection limit are skipped", "[bot][random]") {
    // For n = 3e9 the limit is 3e9; words 1 and 2 (3291668569, 4180334099) are rejected.
    SeededRandom rng(seed_0_to_31());
    CHECK(rng.uniform(3000000000u) == 2668419513u);
    CHECK(rng.uniform(3000000000u) == 2530142706u);
    CHECK(rng.counter() == 4);
}

TEST_CASE("Two streams with the same seed agree and a copy continues where it was",
          "[bot][random]") {
    SeededRandom a(seed_0_to_31()), b(seed_0_to_31());
    a.uniform(100);
    SeededRandom c = a;
    CHECK(a.uniform(1000) == c.uniform(1000));
    b.uniform(100);
    CHECK(b.uniform(1000) == 569);
}

TEST_CASE("Seeds are fresh 32 bytes and their commitment is SHA-256", "[bot][random]") {
    auto s1 = ghostpost::bot::make_seed();
    auto s2 = ghostpost::bot::make_seed();
    CHECK(s1.size() == 32);
    CHECK(s1 != s2);
    CHECK(ghostpost::bot::sha256_hex(seed_0_to_31()) ==
          "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd");
    CHECK_THROWS_AS(SeededRandom({}), std::invalid_argument);
    SeededRandom r(seed_0_to_31());
    CHECK_THROWS_AS(r.uniform(0), std::invalid_argument);
}
