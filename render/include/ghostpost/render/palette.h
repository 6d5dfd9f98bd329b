// Palette reduction for PNG boards. A board is a few dozen flat colours (squares, piece fills,
// ink) plus the antialiased edges between them: about 1,700 distinct colours at 480 px, most of
// them covering a handful of pixels. An 8-bit indexed image of it looks the same and is a third
// of the bytes to compress, if the palette keeps the flat colours exactly and does not lose a
// small detail of a colour of its own (a gold star, a red glow) to the many edge colours.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ghostpost::render {

struct IndexedImage {
    int width = 0, height = 0;
    std::vector<std::uint32_t> palette; // 0x00RRGGBB, at most 256, in the order described below
    std::vector<std::uint8_t> pixels;   // width * height palette indices, rows top first
};

// Reduces 32-bit 0x??RRGGBB pixels (the top byte ignored; `stride` in pixels) to at most 256
// colours. An image with 256 distinct colours or fewer comes back exactly, its palette most
// frequent colour first (ties to the smaller value). Otherwise the palette is the 128 most
// frequent colours in that order, then, one at a time, the colour whose pixels the palette
// serves worst (pixel count times squared RGB distance to the nearest kept colour; ties to the
// more frequent, then the smaller value); every pixel takes the kept colour nearest to it (ties
// to the earlier palette entry). Deterministic: the same pixels always give the same image.
IndexedImage reduce_to_palette(const std::uint32_t* pixels, int width, int height,
                               std::ptrdiff_t stride);

} // namespace ghostpost::render
