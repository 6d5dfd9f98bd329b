#include "ghostpost/render/palette.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <utility>

// keep() below is the palette's inner loop; GCC builds it twice on x86-64, once for AVX2 (eight
// 32-bit lanes) and once for the baseline, and the loader picks what the processor has.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define PALETTE_WIDE_VECTORS __attribute__((target_clones("avx2", "default")))
#else
#define PALETTE_WIDE_VECTORS
#endif

namespace ghostpost::render {

namespace {

constexpr std::uint32_t rgb_mask = 0x00FFFFFF;
constexpr std::uint32_t no_colour = 0xFFFFFFFF; // never a masked pixel
// How many of the 256 palette entries go to the most frequent colours before the rest go to the
// worst served ones. Half and half: with only frequent colours a board's small gold star
// turned grey (296 pixels off by more than the golden tolerance); with this, none.
constexpr std::size_t frequent_kept = 128;

// An open-addressing table from colour to its pixel count, then to its palette index. Boards
// reach a few thousand colours, so it starts at 4,096 slots and doubles when half full.
class ColourTable {
public:
    ColourTable() { resize(12); }

    // Adds `count` pixels of `colour` and returns the colour's slot, which stays the colour's
    // until the table grows.
    std::size_t add(std::uint32_t colour, std::uint32_t count) {
        std::size_t s = slot(colour);
        if (keys_[s] == no_colour) {
            keys_[s] = colour;
            ++used_;
            if (used_ * 2 > keys_.size()) {
                counts_[s] = count;
                resize(bits_ + 1);
                ++growths_;
                return slot(colour);
            }
        }
        counts_[s] += count;
        return s;
    }

    int growths() const { return growths_; }

    // The colour's slot; the colour must be in the table when asked after counting.
    std::size_t slot(std::uint32_t colour) const {
        std::size_t s = (colour * 0x9E3779B1u) >> (32 - bits_);
        while (keys_[s] != colour && keys_[s] != no_colour)
            s = (s + 1) & (keys_.size() - 1);
        return s;
    }

    std::size_t size() const { return keys_.size(); }
    std::uint32_t key(std::size_t s) const { return keys_[s]; }
    std::uint32_t count(std::size_t s) const { return counts_[s]; }
    std::uint8_t& index(std::size_t s) { return index_[s]; }

private:
    void resize(int bits) {
        std::vector<std::uint32_t> keys = std::move(keys_), counts = std::move(counts_);
        bits_ = bits;
        keys_.assign(std::size_t{1} << bits, no_colour);
        counts_.assign(keys_.size(), 0);
        index_.assign(keys_.size(), 0);
        for (std::size_t i = 0; i < keys.size(); ++i)
            if (keys[i] != no_colour) {
                const std::size_t s = slot(keys[i]);
                keys_[s] = keys[i];
                counts_[s] = counts[i];
            }
    }

    int bits_ = 0, growths_ = 0;
    std::size_t used_ = 0;
    std::vector<std::uint32_t> keys_, counts_;
    std::vector<std::uint8_t> index_;
};

int channel(std::uint32_t c, int shift) {
    return static_cast<int>((c >> shift) & 0xFF);
}

// The colours of an image and, for each, the nearest colour kept so far: its palette index and
// squared distance, kept up to date as colours join the palette.
class Selection {
public:
    // `ranked`: colours as ranked numbers (see below), the first `frequent` of them to be kept
    // first.
    Selection(const std::vector<std::uint64_t>& ranked, std::size_t frequent)
        : frequent_(frequent) {
        for (const std::uint64_t entry : ranked) {
            const auto colour = static_cast<std::uint32_t>(entry);
            colours_.push_back(colour);
            r_.push_back(static_cast<std::int16_t>(channel(colour, 16)));
            g_.push_back(static_cast<std::int16_t>(channel(colour, 8)));
            b_.push_back(static_cast<std::int16_t>(channel(colour, 0)));
            count_.push_back(static_cast<std::int32_t>(~static_cast<std::uint32_t>(entry >> 32)));
        }
        distance_.assign(colours_.size(), std::numeric_limits<std::int32_t>::max());
        nearest_.assign(colours_.size(), 0);
    }

    std::size_t size() const { return colours_.size(); }
    std::uint32_t colour(std::size_t i) const { return colours_[i]; }
    std::uint8_t nearest(std::size_t i) const { return static_cast<std::uint8_t>(nearest_[i]); }

    // Puts colour `k` in the palette at `index`. The frequent colours all join the palette
    // first, so only the others need their nearest colour brought up to date.
    PALETTE_WIDE_VECTORS void keep(std::size_t k, std::uint8_t index) {
        if (k < frequent_) {
            nearest_[k] = index;
            distance_[k] = 0;
        }
        const std::int16_t kr = r_[k], kg = g_[k], kb = b_[k];
        const std::int32_t at = index;
        const std::size_t n = colours_.size();
        for (std::size_t i = frequent_; i < n; ++i) {
            const auto dr = static_cast<std::int16_t>(r_[i] - kr),
                       dg = static_cast<std::int16_t>(g_[i] - kg),
                       db = static_cast<std::int16_t>(b_[i] - kb);
            const std::int32_t d = dr * dr + dg * dg + db * db;
            const bool closer = d < distance_[i];
            distance_[i] = closer ? d : distance_[i];
            nearest_[i] = closer ? at : nearest_[i];
        }
    }

    // The pixels of colour `i` times the squared distance to their nearest kept colour.
    std::int64_t cost(std::size_t i) const { return std::int64_t{count_[i]} * distance_[i]; }

private:
    std::size_t frequent_;
    std::vector<std::uint32_t> colours_;
    // Channels as 16-bit numbers: their differences square with 16-bit vector multiplies, which
    // every x86-64 has; 32-bit ones need SSE4.1 (measured: 0.1 ms a board faster).
    std::vector<std::int16_t> r_, g_, b_;
    std::vector<std::int32_t> count_, distance_;
    std::vector<std::int32_t> nearest_; // as wide as the distances, so keep() runs in vectors
};

struct Run {
    std::uint32_t colour;
    std::uint32_t length;
};

// The image as runs of equal colours, row after row as if the rows were one line: most of a
// board is flat, so there are some tens of thousands of runs for a quarter of a million pixels.
std::vector<Run> runs_of(const std::uint32_t* pixels, int width, int height,
                         std::ptrdiff_t stride) {
    std::vector<Run> runs;
    runs.reserve(16 * 1024);
    Run run{pixels[0] & rgb_mask, 0};
    for (int y = 0; y < height; ++y) {
        const std::uint32_t* row = pixels + y * stride;
        int x = 0;
        while (x < width) {
            // Four pixels at a time while all four continue the run.
            const std::uint64_t pair = std::uint64_t{run.colour} * 0x100000001u;
            constexpr std::uint64_t pair_mask = 0x00FFFFFF00FFFFFFu;
            while (x + 4 <= width) {
                std::uint64_t four[2];
                std::memcpy(four, row + x, sizeof four);
                if (((four[0] & pair_mask) ^ pair) | ((four[1] & pair_mask) ^ pair))
                    break;
                x += 4;
                run.length += 4;
            }
            for (; x < width; ++x) {
                const std::uint32_t c = row[x] & rgb_mask;
                if (c != run.colour) {
                    runs.push_back(run);
                    run = {c, 1};
                    ++x;
                    break;
                }
                ++run.length;
            }
        }
    }
    runs.push_back(run);
    return runs;
}

} // namespace

IndexedImage reduce_to_palette(const std::uint32_t* pixels, int width, int height,
                               std::ptrdiff_t stride) {
    if (width <= 0 || height <= 0 || stride < width)
        throw std::invalid_argument("reduce_to_palette: the image has no pixels");
    const std::vector<Run> runs = runs_of(pixels, width, height, stride);
    ColourTable table;
    std::vector<std::uint32_t> run_slots(runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i)
        run_slots[i] = static_cast<std::uint32_t>(table.add(runs[i].colour, runs[i].length));
    if (table.growths() > 0)
        for (std::size_t i = 0; i < runs.size(); ++i)
            run_slots[i] = static_cast<std::uint32_t>(table.slot(runs[i].colour));

    // The colours by pixel count, most first, ties to the smaller value, as one number each.
    std::vector<std::uint64_t> ranked;
    for (std::size_t s = 0; s < table.size(); ++s)
        if (table.key(s) != no_colour)
            ranked.push_back(std::uint64_t{~table.count(s)} << 32 | table.key(s));
    const std::size_t frequent = ranked.size() <= 256 ? ranked.size() : frequent_kept;
    std::nth_element(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(frequent) - 1,
                     ranked.end());
    std::sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(frequent));

    // The most frequent colours are the flat ones and the commonest edges; the rest of the
    // palette goes, one colour at a time, to whichever colour the palette serves worst, so that
    // a small detail of its own colour (a gold star, a red glow) keeps it.
    Selection selection(ranked, frequent);
    IndexedImage out;
    out.width = width;
    out.height = height;
    for (std::size_t i = 0; i < frequent; ++i) {
        out.palette.push_back(selection.colour(i));
        selection.keep(i, static_cast<std::uint8_t>(i));
    }
    // The worst served colour: the highest cost, ties to the more frequent, then to the smaller
    // value. A cost only falls as colours are kept, so the heap holds bounds and the top is
    // checked before it is taken.
    using Candidate = std::pair<std::int64_t, std::size_t>; // cost, then where the colour is
    auto less_urgent = [&](const Candidate& a, const Candidate& b) {
        return a.first != b.first ? a.first < b.first : ranked[a.second] > ranked[b.second];
    };
    std::vector<Candidate> heap;
    for (std::size_t i = frequent; i < selection.size(); ++i)
        heap.emplace_back(selection.cost(i), i);
    std::make_heap(heap.begin(), heap.end(), less_urgent);
    while (out.palette.size() < 256 && !heap.empty()) {
        std::pop_heap(heap.begin(), heap.end(), less_urgent);
        Candidate top = heap.back();
        heap.pop_back();
        const std::int64_t now = selection.cost(top.second);
        if (now != top.first) {
            heap.emplace_back(now, top.second);
            std::push_heap(heap.begin(), heap.end(), less_urgent);
            continue;
        }
        selection.keep(top.second, static_cast<std::uint8_t>(out.palette.size()));
        out.palette.push_back(selection.colour(top.second));
    }
    for (std::size_t i = 0; i < selection.size(); ++i)
        table.index(table.slot(selection.colour(i))) = selection.nearest(i);

    out.pixels.resize(static_cast<std::size_t>(width) * static_cast<std::size_t>(height));
    std::uint8_t* to = out.pixels.data();
    for (std::size_t i = 0; i < runs.size(); ++i) {
        std::memset(to, table.index(run_slots[i]), runs[i].length);
        to += runs[i].length;
    }
    return out;
}

} // namespace ghostpost::render
