#include "ghostpost/render/cache.h"

#include <algorithm>

namespace ghostpost::render {

std::size_t PngKeyHash::operator()(const PngKey& k) const noexcept {
    std::size_t h = std::hash<std::int64_t>{}(k.game);
    const auto mixin = [&h](std::size_t v) {
        h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    };
    mixin(std::hash<std::int64_t>{}(k.version));
    mixin(static_cast<std::size_t>(k.audience) * 2 + (k.flipped ? 1 : 0));
    mixin(std::hash<std::uint32_t>{}(k.style));
    return h;
}

PngCache::PngCache(std::size_t capacity) : capacity_(std::max<std::size_t>(1, capacity)) {}

SharedPng PngCache::find(const PngKey& key) {
    std::lock_guard lock(mutex_);
    auto it = index_.find(key);
    if (it == index_.end()) {
        ++misses_;
        return nullptr;
    }
    ++hits_;
    order_.splice(order_.begin(), order_, it->second);
    return it->second->second;
}

void PngCache::insert(const PngKey& key, SharedPng png) {
    std::lock_guard lock(mutex_);
    if (auto it = index_.find(key); it != index_.end()) {
        it->second->second = std::move(png);
        order_.splice(order_.begin(), order_, it->second);
        return;
    }
    order_.emplace_front(key, std::move(png));
    index_.emplace(key, order_.begin());
    while (order_.size() > capacity_) {
        index_.erase(order_.back().first);
        order_.pop_back();
    }
}

SharedPng PngCache::get_or_render(const PngKey& key, const std::function<PngBytes()>& render) {
    if (SharedPng found = find(key))
        return found;
    auto png = std::make_shared<const PngBytes>(render());
    insert(key, png);
    return png;
}

void PngCache::forget_game(std::int64_t game) {
    std::lock_guard lock(mutex_);
    for (auto it = order_.begin(); it != order_.end();) {
        if (it->first.game == game) {
            index_.erase(it->first);
            it = order_.erase(it);
        } else {
            ++it;
        }
    }
}

std::size_t PngCache::size() const {
    std::lock_guard lock(mutex_);
    return order_.size();
}

std::uint64_t PngCache::hits() const {
    std::lock_guard lock(mutex_);
    return hits_;
}

std::uint64_t PngCache::misses() const {
    std::lock_guard lock(mutex_);
    return misses_;
}

} // namespace ghostpost::render
