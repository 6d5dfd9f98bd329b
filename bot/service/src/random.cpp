#include "ghostpost/service/random.h"

#include <array>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <stdexcept>

namespace ghostpost::bot {

SeededRandom::SeededRandom(std::vector<std::uint8_t> seed) : seed_(std::move(seed)) {
    if (seed_.empty())
        throw std::invalid_argument("a random stream needs a non-empty seed");
}

std::uint32_t SeededRandom::next_word() {
    std::array<unsigned char, 8> message{};
    for (int i = 0; i < 8; ++i)
        message[static_cast<std::size_t>(i)] = static_cast<unsigned char>(counter_ >> (56 - 8 * i));
    std::array<unsigned char, EVP_MAX_MD_SIZE> mac{};
    unsigned int length = 0;
    if (HMAC(EVP_sha256(), seed_.data(), static_cast<int>(seed_.size()), message.data(),
             message.size(), mac.data(), &length) == nullptr)
        throw std::runtime_error("HMAC-SHA256 failed");
    ++counter_;
    return (std::uint32_t{mac[0]} << 24) | (std::uint32_t{mac[1]} << 16) |
           (std::uint32_t{mac[2]} << 8) | std::uint32_t{mac[3]};
}

std::uint32_t SeededRandom::uniform(std::uint32_t n) {
    if (n == 0)
        throw std::invalid_argument("uniform(0) has no possible value");
    const std::uint64_t span = std::uint64_t{1} << 32;
    const std::uint64_t limit = span - span % n;
    for (;;) {
        std::uint32_t word = next_word();
        if (word < limit)
            return word % n;
    }
}

std::string dice_derivation() {
    return "How each die comes from the seed: the game reads a stream of blocks, block i (i = 0, "
           "1, 2, ... over the whole game) being HMAC-SHA256 with the 32 bytes of the seed as "
           "the key and i written as 8 bytes, big-endian, as the message. A block's word is its "
           "first 4 bytes read as an unsigned big-endian 32-bit number. A die takes the next "
           "block's word: a word of 4294967292 (2^32 - 4, the largest multiple of 6 not above "
           "2^32) or more is rejected, and the die takes the word of the block after it; "
           "otherwise the face is the word modulo 6, plus 1. Nothing else reads the stream, and "
           "dice are read in the order the record lists them: in each round of a combat the "
           "attacker's dice, then the defender's, each left to right.";
}

std::vector<std::uint8_t> make_seed() {
    std::vector<std::uint8_t> seed(32);
    if (RAND_bytes(seed.data(), static_cast<int>(seed.size())) != 1)
        throw std::runtime_error("OpenSSL could not provide random bytes for a game seed");
    return seed;
}

std::string to_hex(const std::vector<std::uint8_t>& bytes) {
    static const char digits[] = "0123456789abcdef";
    std::string out;
    for (std::uint8_t b : bytes) {
        out += digits[b >> 4];
        out += digits[b & 15];
    }
    return out;
}

std::string sha256_hex(const std::vector<std::uint8_t>& bytes) {
    std::vector<std::uint8_t> digest(SHA256_DIGEST_LENGTH);
    SHA256(bytes.data(), bytes.size(), digest.data());
    return to_hex(digest);
}

} // namespace ghostpost::bot
