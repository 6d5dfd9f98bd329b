// The per-game random stream. Anyone holding a game's seed can re-derive every roll:
//
//   block(i) = HMAC-SHA256(key = seed, message = i as 8 bytes, big-endian), i = 0, 1, 2, ...
//   word(i)  = the first 4 bytes of block(i), read as an unsigned big-endian 32-bit number
//
// uniform(n) takes words in order and returns word % n for the first word below
// limit = 2^32 - (2^32 mod n), discarding (and so consuming) words at or above it: rejection
// sampling, so every number in [0, n) is exactly equally likely. Each call continues where the
// previous one stopped; a replay from the first action with the same seed gets the same numbers.
//
// The seed is 32 bytes from OpenSSL's RAND_bytes, made when a game is created and stored with
// it. Publishing sha256(seed) at the start and the seed at the end lets players verify the dice.
#pragma once

#include "ghostpost/rules/game.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ghostpost::bot {

class SeededRandom final : public rules::RandomSource {
public:
    // Errors: std::invalid_argument when the seed is empty.
    explicit SeededRandom(std::vector<std::uint8_t> seed);
    // Errors: std::invalid_argument when n is 0.
    std::uint32_t uniform(std::uint32_t n) override;
    // Words consumed so far (the next block index).
    std::uint64_t counter() const { return counter_; }

private:
    std::uint32_t next_word();
    std::vector<std::uint8_t> seed_;
    std::uint64_t counter_ = 0;
};

// How a die's face comes from the seed, in words an outsider can follow without our source
// (the game's page states it; tests/service/random_test.cpp follows it with OpenSSL alone).
std::string dice_derivation();

// 32 fresh secret bytes. Errors: std::runtime_error when OpenSSL cannot provide them.
std::vector<std::uint8_t> make_seed();
// Lower-case hex of the SHA-256 of `bytes` (the public commitment to a seed).
std::string sha256_hex(const std::vector<std::uint8_t>& bytes);
std::string to_hex(const std::vector<std::uint8_t>& bytes);

} // namespace ghostpost::bot
