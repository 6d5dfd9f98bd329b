// A small thread-safe LRU of rendered PNG boards, so a repeated `!board png` costs a lookup.
// An image is named by (game, version, audience, orientation, style): everything a board image
// depends on. The version must change whenever the game's position or what its audience may see
// changes; the service uses the game's stored revision, which every change of the game bumps,
// in this process or another.
#pragma once

#include "ghostpost/render/png.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace ghostpost::render {

// Who the image was made for: the public channel or one seat (a private view).
enum class Audience : std::uint8_t { Public, White, Black };

struct PngKey {
    std::int64_t game = 0;
    std::int64_t version = 0;
    Audience audience = Audience::Public;
    bool flipped = false;
    std::uint32_t style = 0; // the caller's fingerprint of the other PngOptions (width...)
    bool operator==(const PngKey&) const = default;
};

struct PngKeyHash {
    std::size_t operator()(const PngKey& k) const noexcept;
};

using SharedPng = std::shared_ptr<const PngBytes>;

class PngCache {
public:
    // Keeps at most `capacity` images (at least 1); the least recently used goes first.
    explicit PngCache(std::size_t capacity = 128);

    // The cached image, or nullptr.
    SharedPng find(const PngKey& key);
    // Stores `png` under `key`, replacing what was there.
    void insert(const PngKey& key, SharedPng png);
    // The cached image, or renders, stores and returns it. `render` runs outside the lock, so
    // two threads asking at once may both render; the result is the same. Errors: whatever
    // `render` throws (nothing is stored then).
    SharedPng get_or_render(const PngKey& key, const std::function<PngBytes()>& render);
    // Drops every image of the game (after a takeback, or when the game is deleted).
    void forget_game(std::int64_t game);

    std::size_t size() const;
    std::uint64_t hits() const;
    std::uint64_t misses() const;

private:
    using Entry = std::pair<PngKey, SharedPng>;
    mutable std::mutex mutex_;
    std::size_t capacity_;
    std::list<Entry> order_; // most recently used first
    std::unordered_map<PngKey, std::list<Entry>::iterator, PngKeyHash> index_;
    std::uint64_t hits_ = 0;
    std::uint64_t misses_ = 0;
};

} // namespace ghostpost::render
