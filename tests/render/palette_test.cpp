// Palette reduction: exact up to 256 colours; above, the most frequent colours and then the worst
// served are kept, and every other colour is sent to its nearest kept one.
#include "ghostpost/render/palette.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <stdexcept>
#include <vector>

using ghostpost::render::IndexedImage;
using ghostpost::render::reduce_to_palette;

namespace {

std::uint32_t colour_at(const IndexedImage& image, std::size_t i) {
    return image.palette.at(image.pixels.at(i));
}

} // namespace

TEST_CASE("An image of 256 colours or fewer comes back exactly, most frequent colour first",
          "[render][palette]") {
    // 3 rows of 100: a grey ramp of 200 colours once each, then 100 pixels of one blue.
    std::vector<std::uint32_t> pixels;
    for (std::uint32_t i = 0; i < 200; ++i)
        pixels.push_back(i * 0x010101);
    pixels.insert(pixels.end(), 100, 0x2040C0);
    const IndexedImage image = reduce_to_palette(pixels.data(), 100, 3, 100);
    REQUIRE(image.width == 100);
    REQUIRE(image.height == 3);
    REQUIRE(image.palette.size() == 201);
    CHECK(image.palette[0] == 0x2040C0);
    CHECK(image.palette[1] == 0x000000); // the ramp's ties go to the smaller value
    CHECK(image.palette[200] == 0xC7C7C7);
    REQUIRE(image.pixels.size() == 300);
    for (std::size_t i = 0; i < pixels.size(); ++i)
        REQUIRE(colour_at(image, i) == pixels[i]);
}

TEST_CASE("Above 256 colours the 128 commonest stay, then the worst served, and each pixel "
          "takes its nearest kept colour",
          "[render][palette]") {
    // 300 colours (i mod 256, 50 * (i div 256), 0): the first 128 three pixels each, the rest
    // one each; then two pixels of a blue far from all of them, which the greedy half of the
    // palette must keep however rare it is.
    std::vector<std::uint32_t> pixels;
    auto ramp = [](std::uint32_t i) { return (i % 256) << 16 | (50 * (i / 256)) << 8; };
    for (std::uint32_t i = 0; i < 300; ++i)
        pixels.insert(pixels.end(), i < 128 ? 3 : 1, ramp(i));
    pixels.insert(pixels.end(), 2, 0x30B0E0);
    REQUIRE(pixels.size() == 18 * 31);
    const IndexedImage image = reduce_to_palette(pixels.data(), 18, 31, 18);
    REQUIRE(image.palette.size() == 256);
    for (std::uint32_t i = 0; i < 128; ++i)
        REQUIRE(image.palette[i] == ramp(i));
    CHECK(std::count(image.palette.begin(), image.palette.end(), 0x30B0E0u) == 1);
    auto distance = [](std::uint32_t a, std::uint32_t b) {
        int d = 0;
        for (int shift : {0, 8, 16}) {
            const int c =
                static_cast<int>((a >> shift) & 0xFF) - static_cast<int>((b >> shift) & 0xFF);
            d += c * c;
        }
        return d;
    };
    int exact = 0;
    for (std::size_t i = 0; i < pixels.size(); ++i) {
        int best = distance(pixels[i], image.palette[0]);
        for (const std::uint32_t kept : image.palette)
            best = std::min(best, distance(pixels[i], kept));
        REQUIRE(distance(pixels[i], colour_at(image, i)) == best);
        exact += colour_at(image, i) == pixels[i];
    }
    // 128 colours of three pixels, the blue's two, and 127 more colours of one pixel each.
    CHECK(exact == 128 * 3 + 2 + 127);
}

TEST_CASE("Palette reduction ignores the unused top byte and reads rows by the stride",
          "[render][palette]") {
    // Two rows of three pixels in rows of five; the padding pixels are never read.
    const std::vector<std::uint32_t> pixels = {0xFF112233, 0x00112233, 0x7F445566, 0xDEAD, 0xBEEF,
                                               0x00445566, 0xFF112233, 0x00112233, 0xF00D, 0xCAFE};
    const IndexedImage image = reduce_to_palette(pixels.data(), 3, 2, 5);
    REQUIRE(image.palette == std::vector<std::uint32_t>{0x112233, 0x445566});
    CHECK(image.pixels == std::vector<std::uint8_t>{0, 0, 1, 1, 0, 0});
}

TEST_CASE("Palette reduction refuses an image without pixels", "[render][palette]") {
    const std::uint32_t pixel = 0;
    CHECK_THROWS_AS(reduce_to_palette(&pixel, 0, 1, 1), std::invalid_argument);
    CHECK_THROWS_AS(reduce_to_palette(&pixel, 1, 1, 0), std::invalid_argument);
}
