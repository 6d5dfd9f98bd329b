// PNG board benchmark: the median time to render and encode a board at 480 px, and the file
// size, for an 8x8 and a 10x10 board. Targets (issue #16): at most 1.5 ms of CPU and 40 KB. Run
// a Release build: `render_bench [runs]`.
#include "ghostpost/render/cache.h"
#include "ghostpost/render/png.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

using namespace ghostpost;

namespace {

// A FEN-like placement, top rank first, "10" for a full empty rank.
rules::BoardView board(const char* variant, int size, const std::string& placement) {
    rules::BoardView b(variant, size, size);
    int file = 0, rank = size - 1;
    for (std::size_t i = 0; i < placement.size(); ++i) {
        const char c = placement[i];
        if (c == '/') {
            file = 0;
            --rank;
        } else if (c >= '1' && c <= '9') {
            file += c == '1' && i + 1 < placement.size() && placement[i + 1] == '0' ? (++i, 10)
                                                                                    : c - '0';
        } else {
            const bool white = c >= 'A' && c <= 'Z';
            rules::Figure f;
            f.piece = {rules::piece_from_letter(white ? c : static_cast<char>(c - 32)),
                       white ? rules::Seat::White : rules::Seat::Black};
            b.at(rules::Square(file++, rank)).figures.push_back(f);
        }
    }
    b.deciding = {rules::Seat::White};
    b.last_from = rules::Square(4, 1);
    b.last_to = rules::Square(4, 3);
    return b;
}

double cpu_ms() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

void measure(const char* name, const rules::BoardView& b, int runs) {
    render::PngOptions o;
    o.game_label = "Game 1";
    const auto cold_start = std::chrono::steady_clock::now();
    std::size_t bytes = render::render_png(b, o).size(); // also fills the piece sprite cache
    const double cold =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - cold_start)
            .count();
    std::vector<double> wall, cpu;
    for (int i = 0; i < runs; ++i) {
        const double c0 = cpu_ms();
        const auto w0 = std::chrono::steady_clock::now();
        bytes = render::render_png(b, o).size();
        wall.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - w0)
                .count());
        cpu.push_back(cpu_ms() - c0);
    }
    std::printf("%-22s %5.2f ms median wall, %5.2f ms median cpu, %6.1f KB, first render %.1f ms\n",
                name, median(wall), median(cpu), static_cast<double>(bytes) / 1024.0, cold);
}

} // namespace

int main(int argc, char** argv) {
    const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 200;
    std::printf("PNG boards at 480 px, %d runs each\n", runs);
    measure("8x8 chess start", board("chess", 8, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"),
            runs);
    measure("8x8 chess middlegame",
            board("chess", 8, "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R"), runs);
    measure(
        "10x10 ghostarelay start",
        board("ghostarelay", 10, "rnbxqkgbnr/pppppppppp/10/10/10/10/4P5/10/PPPP1PPPPP/RNBXQKGBNR"),
        runs);

    render::PngCache cache(64);
    const auto b = board("chess", 8, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
    const render::PngKey key{1, 0};
    cache.get_or_render(key, [&] { return render::render_png(b); });
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 10000; ++i)
        cache.get_or_render(key, [&] { return render::render_png(b); });
    std::printf(
        "cached repeat: %.0f ns per request\n",
        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() /
            10000);
    return 0;
}
