// Palette reduction for PNG boards. A board is a few dozen flat colours (squares, piece fills,
// ink) plus the antialiased edges between them: about 1,700 distinct colours at 480 px, most of
// them covering a handful of pixels. Keeping the 256 most frequent colours exactly and sending
// every other colour to its nearest kept one gives an 8-bit indexed image that looks the same
// and is a third of the bytes to compress.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ghostpost::render {

struct IndexedImage {
    int width = 0, height = 0;
    std::vector<std::uint32_t> palette; // 0x00RRGGBB, at most 256 entries, most frequent first
    std::vector<std::uint8_t> pixels;   // width * height palette indices, rows top first
};

// Reduces 32-bit 0x??RRGGBB pixels (the top byte ignored; `stride` in pixels) to at most 256
// colours. An image with 256 distinct colours or fewer comes back exactly. Otherwise the 256
// most frequent colours (ties to the smaller value) are kept exactly and every other pixel takes
// the kept colour nearest to it in squared RGB distance (ties to the more frequent colour).
// Deterministic: the same pixels always give the same palette and indices.
IndexedImage reduce_to_palette(const std::uint32_t* pixels, int width, int height,
                               std::ptrdiff_t stride);

} // namespace ghostpost::render
