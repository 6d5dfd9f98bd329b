#include "ghostpost/bot/random.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <array>
#include <stdexcept>

namespace ghostpost::bot {

SeededRandom::SeededRandom(std::vector<std::uint8_t> seed) : seed_(std::move(seed)) {
    if (seed_.empty())
        throw std::invalid_argument("a random stream needs a non-empty seed");
}

std::uint32_t SeededRandom::next_word() {
    std::array<unsigned char, 8> message{};
    for (int i = 0; i < 8; ++i)
        message[static_cast<std::size_t>(i)] =
            static_cast<unsigned char>(counter_ >> (56 - 8 * i));
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
