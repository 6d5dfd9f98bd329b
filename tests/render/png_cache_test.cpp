// The PNG cache: least recently used goes first, a hit renders nothing, a takeback forgets.
#include "ghostpost/render/cache.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace ghostpost::render;

namespace {

SharedPng bytes(std::uint8_t v) {
    return std::make_shared<const PngBytes>(PngBytes{v});
}

} // namespace

TEST_CASE("A repeated request is served from the cache without rendering again",
          "[render][cache]") {
    PngCache cache(4);
    int renders = 0;
    const PngKey key{12, 7, Audience::Public, false, 0};
    auto render = [&] {
        ++renders;
        return PngBytes{1, 2, 3};
    };
    SharedPng first = cache.get_or_render(key, render);
    SharedPng second = cache.get_or_render(key, render);
    CHECK(renders == 1);
    CHECK(first.get() == second.get());
    CHECK(*second == PngBytes{1, 2, 3});
    CHECK(cache.hits() == 1);
    CHECK(cache.misses() == 1);
}

TEST_CASE("Keys differing in version, audience, orientation or style name different images",
          "[render][cache]") {
    PngCache cache(16);
    const PngKey base{1, 3, Audience::Public, false, 0};
    PngKey version = base, audience = base, flipped = base, style = base;
    version.version = 4;
    audience.audience = Audience::White;
    flipped.flipped = true;
    style.style = 640;
    cache.insert(base, bytes(0));
    CHECK(cache.find(version) == nullptr);
    CHECK(cache.find(audience) == nullptr);
    CHECK(cache.find(flipped) == nullptr);
    CHECK(cache.find(style) == nullptr);
    REQUIRE(cache.find(base) != nullptr);
    CHECK(cache.find(base)->front() == 0);
}

TEST_CASE("The least recently used image is dropped when the cache is full", "[render][cache]") {
    PngCache cache(2);
    const PngKey a{1, 1}, b{1, 2}, c{1, 3};
    cache.insert(a, bytes(1));
    cache.insert(b, bytes(2));
    CHECK(cache.find(a) != nullptr); // a is now the most recent
    cache.insert(c, bytes(3));
    CHECK(cache.size() == 2);
    CHECK(cache.find(b) == nullptr);
    CHECK(cache.find(a) != nullptr);
    CHECK(cache.find(c) != nullptr);
}

TEST_CASE("Forgetting a game drops its images and keeps the others", "[render][cache]") {
    PngCache cache(8);
    cache.insert({5, 1}, bytes(1));
    cache.insert({5, 2, Audience::Black}, bytes(2));
    cache.insert({6, 1}, bytes(3));
    cache.forget_game(5);
    CHECK(cache.size() == 1);
    CHECK(cache.find({5, 1}) == nullptr);
    CHECK(cache.find({6, 1})->front() == 3);
}

TEST_CASE("A render that throws stores nothing", "[render][cache]") {
    PngCache cache(2);
    CHECK_THROWS_AS(
        cache.get_or_render({1, 1}, []() -> PngBytes { throw std::runtime_error("x"); }),
        std::runtime_error);
    CHECK(cache.size() == 0);
}

TEST_CASE("Threads sharing the cache all get the image and it stays within capacity",
          "[render][cache]") {
    PngCache cache(8);
    std::atomic<int> wrong{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&cache, &wrong, t] {
            for (int i = 0; i < 200; ++i) {
                const PngKey key{i % 12, i % 3};
                const auto expect = static_cast<std::uint8_t>(i % 12 * 3 + i % 3);
                SharedPng png = cache.get_or_render(key, [&] { return PngBytes{expect}; });
                if (png->front() != expect)
                    ++wrong;
                if (t == 0 && i % 50 == 0)
                    cache.forget_game(i % 12);
            }
        });
    for (auto& th : threads)
        th.join();
    CHECK(wrong == 0);
    CHECK(cache.size() <= 8);
}
