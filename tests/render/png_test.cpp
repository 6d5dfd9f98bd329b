// PNG boards: golden images per variant feature, compared by decoded pixels (see
// tests/data/golden/README.md for the tolerance and how to regenerate them), and the exact
// pixels, captions and errors the renderer promises.
#include "ghostpost/render/png.h"
#include "ghostpost/rules/registry_for_tests.h"
#include "ghostpost/variants/pieces.h"
#include "png_samples.h"

#include <cairo.h>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>

using namespace ghostpost;
using rules::Seat;
using rules::Square;

namespace {

const std::string golden_dir = std::string(GHOSTPOST_TEST_DATA) + "/golden/";

struct SurfaceDeleter {
    void operator()(cairo_surface_t* s) const { cairo_surface_destroy(s); }
};
using Image = std::unique_ptr<cairo_surface_t, SurfaceDeleter>;

struct Reader {
    const render::PngBytes* bytes;
    std::size_t pos = 0;
};

cairo_status_t read_bytes(void* closure, unsigned char* data, unsigned int length) {
    auto* r = static_cast<Reader*>(closure);
    if (r->pos + length > r->bytes->size())
        return CAIRO_STATUS_READ_ERROR;
    std::memcpy(data, r->bytes->data() + r->pos, length);
    r->pos += length;
    return CAIRO_STATUS_SUCCESS;
}

Image decode(const render::PngBytes& png) {
    Reader r{&png};
    Image img(cairo_image_surface_create_from_png_stream(read_bytes, &r));
    if (cairo_surface_status(img.get()) != CAIRO_STATUS_SUCCESS)
        throw std::runtime_error("not a PNG");
    return img;
}

render::PngBytes read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_file(const std::string& path, const render::PngBytes& png) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(png.data()), static_cast<std::streamsize>(png.size()));
}

// The pixel at (x, y) as 0xRRGGBB.
std::uint32_t pixel(cairo_surface_t* img, int x, int y) {
    const unsigned char* row = cairo_image_surface_get_data(img) +
                               static_cast<std::ptrdiff_t>(y) * cairo_image_surface_get_stride(img);
    std::uint32_t v;
    std::memcpy(&v, row + 4 * x, 4);
    return v & 0xFFFFFFu;
}

int channel_distance(std::uint32_t a, std::uint32_t b) {
    int worst = 0;
    for (int shift : {0, 8, 16}) {
        const int d = static_cast<int>((a >> shift) & 0xFF) - static_cast<int>((b >> shift) & 0xFF);
        worst = std::max(worst, std::abs(d));
    }
    return worst;
}

// Pixels (of both images' size) farther apart than the channel tolerance; -1 when the sizes
// differ.
long count_differing(cairo_surface_t* a, cairo_surface_t* b, int tolerance) {
    const int w = cairo_image_surface_get_width(a), h = cairo_image_surface_get_height(a);
    if (w != cairo_image_surface_get_width(b) || h != cairo_image_surface_get_height(b))
        return -1;
    long n = 0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            if (channel_distance(pixel(a, x, y), pixel(b, x, y)) > tolerance)
                ++n;
    return n;
}

bool update_golden() {
    const char* v = std::getenv("GHOSTPOST_UPDATE_GOLDEN");
    return v != nullptr && std::string(v) == "1";
}

// The pixel at the centre of a square's top-left quarter (clear of any piece) of a board
// rendered with the default options at 480 px.
std::uint32_t square_pixel(cairo_surface_t* img, int column, int row) {
    const int left = 24 + 2, top = 32 + 12, square = 55; // make_layout for 480 px, 8 files
    return pixel(img, left + column * square + 8, top + row * square + 8);
}

} // namespace

TEST_CASE("Every sample board matches its golden image within the written-down tolerance",
          "[render][png][golden]") {
    for (const auto& sample : test::png_samples()) {
        SECTION(sample.name) {
            const render::PngBytes png = render::render_png(sample.board, sample.options);
            const std::string path = golden_dir + sample.name + ".png";
            if (update_golden()) {
                write_file(path, png);
                WARN("rewrote " << path);
                continue;
            }
            const render::PngBytes golden = read_file(path);
            REQUIRE_FALSE(golden.empty());
            Image want = decode(golden);
            Image got = decode(png);
            const long total = long{cairo_image_surface_get_width(want.get())} *
                               cairo_image_surface_get_height(want.get());
            const long differing = count_differing(got.get(), want.get(), 16);
            if (differing != 0)
                write_file(sample.name + ".actual.png", png); // for a look at what changed
            INFO(sample.name << ": " << differing << " of " << total << " pixels differ");
            CHECK(differing >= 0);
            CHECK(differing * 1000 <= total);
        }
    }
}

TEST_CASE("A public view of a Phantom position is pixel-identical to the position without "
          "Phantoms",
          "[render][png][variant:phantom]") {
    // The true board: both Phantoms entered (White's on d4, Black's on f5).
    rules::BoardView truth = test::board_from_placement(
        "phantom", 8, 8, "rnbqkbnr/pppp1ppp/8/4pf2/3F4/4P3/PPPP1PPP/RNBQKBNR");
    truth.move_number = 3;
    // What the rules let the channel see: the same board with every Phantom left out.
    rules::BoardView shown = truth;
    for (auto& cell : shown.cells)
        std::erase_if(cell.figures, [](const rules::Figure& f) {
            return f.piece.kind == rules::pieces::phantom;
        });
    rules::BoardView without = test::board_from_placement(
        "phantom", 8, 8, "rnbqkbnr/pppp1ppp/8/4p3/8/4P3/PPPP1PPP/RNBQKBNR");
    without.move_number = 3;

    const render::PngBytes public_png = render::render_png(shown);
    CHECK(public_png == render::render_png(without));
    // The private board does show them, so the comparison above can fail.
    Image with = decode(render::render_png(truth));
    Image plain = decode(public_png);
    CHECK(count_differing(with.get(), plain.get(), 0) > 100);
}

TEST_CASE("The last move is highlighted and the board turns for the second seat", "[render][png]") {
    rules::BoardView b("chess", 8, 8);
    b.deciding = {Seat::White};
    b.last_from = Square(0, 0); // a1, a dark square
    const std::uint32_t dark = 0x7D8FA6, highlighted_dark = 0xBEB06F, light = 0xE7E2D4;

    Image normal = decode(render::render_png(b));
    CHECK(channel_distance(square_pixel(normal.get(), 0, 7), highlighted_dark) <= 2); // a1
    CHECK(channel_distance(square_pixel(normal.get(), 0, 0), light) <= 2);            // a8
    CHECK(channel_distance(square_pixel(normal.get(), 7, 0), dark) <= 2);             // h8
    CHECK(channel_distance(square_pixel(normal.get(), 7, 7), light) <= 2);            // h1

    render::PngOptions flipped;
    flipped.flip = true;
    Image turned = decode(render::render_png(b, flipped));
    CHECK(channel_distance(square_pixel(turned.get(), 7, 0), highlighted_dark) <= 2); // a1
    CHECK(channel_distance(square_pixel(turned.get(), 0, 0), light) <= 2);            // h1
    CHECK(channel_distance(square_pixel(turned.get(), 0, 7), dark) <= 2);             // h8
}

TEST_CASE("Gnostic square tints run in even steps from light to dark", "[render][png]") {
    rules::BoardView b("gnostic", 8, 8);
    const rules::Tint tints[] = {rules::Tint::Light100, rules::Tint::Light75, rules::Tint::Neutral,
                                 rules::Tint::Dark75, rules::Tint::Dark100};
    for (int f = 0; f < 5; ++f)
        b.at(Square(f, 7)).tint = tints[f];
    Image img = decode(render::render_png(b));
    const std::uint32_t want[] = {0xE7E2D4, 0xCCCDC8, 0xB2B8BD, 0x97A4B1, 0x7D8FA6};
    for (int f = 0; f < 5; ++f) {
        INFO("file " << f);
        CHECK(channel_distance(square_pixel(img.get(), f, 0), want[f]) <= 2);
    }
}

TEST_CASE("The caption names the game, the move and who must decide, or how it ended",
          "[render][png]") {
    rules::BoardView b("chess", 8, 8);
    b.move_number = 12;
    b.deciding = {Seat::Black};
    render::PngOptions o;
    CHECK(render::png_caption(b, o) == "move 12 \u00b7 Black to move");
    o.game_label = "Game 7";
    CHECK(render::png_caption(b, o) == "Game 7 \u00b7 move 12 \u00b7 Black to move");
    b.deciding = {Seat::White, Seat::Black};
    CHECK(render::png_caption(b, o) == "Game 7 \u00b7 move 12 \u00b7 White and Black to decide");
    b.deciding.clear();
    CHECK(render::png_caption(b, o) == "Game 7 \u00b7 move 12 \u00b7 game over");
    o.deciding = "Black chooses the dice";
    CHECK(render::png_caption(b, o) == "Game 7 \u00b7 move 12 \u00b7 Black chooses the dice");
    // A game that ended without the rules ending it (a resignation) still has someone to move.
    b.deciding = {Seat::White};
    o.ended = "Black wins, 0-1 (resignation)";
    CHECK(render::png_caption(b, o) ==
          "Game 7 \u00b7 move 12 \u00b7 Black wins, 0-1 (resignation)");
}

TEST_CASE("Boards the renderer cannot draw are refused with invalid_argument", "[render][png]") {
    rules::BoardView too_wide("chess", 11, 8);
    CHECK_THROWS_AS(render::render_png(too_wide), std::invalid_argument);
    rules::BoardView broken("chess", 8, 8);
    broken.cells.pop_back();
    CHECK_THROWS_AS(render::render_png(broken), std::invalid_argument);
    render::PngOptions tiny;
    tiny.width_px = 100;
    CHECK_THROWS_AS(render::render_png(rules::BoardView("chess", 8, 8), tiny),
                    std::invalid_argument);
}

TEST_CASE("A 480 px board is 480 px wide and a valid PNG", "[render][png]") {
    const auto boards = test::png_samples();
    Image eight = decode(render::render_png(boards.front().board));
    CHECK(cairo_image_surface_get_width(eight.get()) == 480);
    CHECK(cairo_image_surface_get_height(eight.get()) == 32 + 12 + 8 * 55 + 24);
}

namespace {

// A variant of the test's own whose queen is drawn as its VariantInfo says: a red square filling
// the piece's box. The renderer knows nothing of it.
const rules::Drawing& red_box() {
    static const rules::Drawing d = [] {
        rules::Drawing art;
        art.new_path()
            .move_to(-0.5, -0.5)
            .line_to(0.5, -0.5)
            .line_to(0.5, 0.5)
            .line_to(-0.5, 0.5)
            .close_path()
            .source(rules::Drawing::fixed(1, 0, 0, 1))
            .fill();
        return art;
    }();
    return d;
}

class PaintedVariant final : public rules::Variant {
public:
    const rules::VariantInfo& info() const override {
        static const rules::VariantInfo i{
            .name = "painted-for-test",
            .title = "Painted",
            .art = {{.kind = rules::PieceKind::Queen, .art = &red_box()}}};
        return i;
    }
    rules::Result<std::unique_ptr<rules::Game>> start(const rules::Options&,
                                                      std::string_view) const override {
        return rules::make_error(rules::ErrorKind::BadSetup, "a variant for drawing only");
    }
};

} // namespace

TEST_CASE("A piece is drawn as its variant's own drawing describes it", "[render][png]") {
    static const PaintedVariant painted;
    rules::set_test_variant(&painted);
    rules::BoardView b("painted-for-test", 8, 8);
    b.deciding = {Seat::White};
    b.at(Square(3, 4)).figures.push_back({rules::Piece{rules::PieceKind::Queen, Seat::White}});
    const int left = 24 + 2, top = 32 + 12, square = 55; // as square_pixel
    const int cx = left + 3 * square + square / 2, cy = top + 3 * square + square / 2; // d5
    Image drawn = decode(render::render_png(b));
    CHECK(channel_distance(pixel(drawn.get(), cx, cy), 0xFF0000) <= 2);
    // The same queen in chess is its figurine, white at that point.
    b.variant = "chess";
    Image chess = decode(render::render_png(b));
    CHECK(channel_distance(pixel(chess.get(), cx, cy), 0xFF0000) > 100);
    rules::set_test_variant(nullptr);
}
