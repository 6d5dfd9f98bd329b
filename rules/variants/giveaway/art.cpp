// Ghostarelay's pieces, each with a silhouette that differs from every chess piece: a sheet
// ghost, an antenna, a horned helmet.
#include "art.h"

#include <numbers>

namespace ghostpost::rules::giveaway {
namespace {

constexpr double pi = std::numbers::pi;

// The sheet ghost: a domed head, straight sides and a scalloped hem, two eyes and a mouth.
Drawing make_ghost(bool crowned) {
    Drawing d;
    if (crowned)
        d.translate(0, 0.05); // room for the crown above the head
    d.new_path().arc(0, -0.10, 0.28, pi, 2 * pi).curve_to(0.28, 0.10, 0.31, 0.26, 0.34, 0.40);
    // Three scallops from right to left.
    const double xs[] = {0.34, 0.1133, -0.1133, -0.34};
    for (int i = 0; i < 3; ++i) {
        const double a = xs[i], b = xs[i + 1], m = (a + b) / 2;
        d.curve_to(a - 0.02, 0.30, m + 0.03, 0.28, m, 0.32);
        d.curve_to(m - 0.03, 0.36, b + 0.02, 0.46, b, 0.40);
    }
    d.curve_to(-0.31, 0.26, -0.28, 0.10, -0.28, -0.10).close_path();
    d.fill_and_outline(Drawing::body(), Drawing::ink(), 0.04);
    // The face.
    d.source(Drawing::ink());
    for (double ex : {-0.10, 0.10})
        d.save().translate(ex, -0.11).scale(0.055, 0.085).arc(0, 0, 1, 0, 2 * pi).restore().fill();
    d.save().translate(0, 0.05).scale(0.05, 0.065).arc(0, 0, 1, 0, 2 * pi).restore().fill();
    if (!crowned)
        return d;
    d.new_path()
        .move_to(-0.17, -0.33)
        .line_to(-0.21, -0.52)
        .line_to(-0.09, -0.42)
        .line_to(0.00, -0.56)
        .line_to(0.09, -0.42)
        .line_to(0.21, -0.52)
        .line_to(0.17, -0.33)
        .close_path()
        .round_join()
        .fill_and_outline(Drawing::accent(), Drawing::ink(), 0.03);
    return d;
}

// A line drawn twice, wide in ink and narrow in body colour, so it reads as an outlined bar.
void outlined_stroke(Drawing& d, double width) {
    d.round_cap().source(Drawing::ink()).line_width(width + 0.05).stroke_preserve();
    d.source(Drawing::body()).line_width(width).stroke();
}

// The Relay: a mast on a foot with a ball on top, sending waves both ways.
Drawing make_relay() {
    Drawing d;
    d.scale(1.1, 1.1);
    d.new_path()
        .move_to(-0.30, 0.42)
        .line_to(0.30, 0.42)
        .line_to(0.22, 0.30)
        .line_to(0.06, 0.26)
        .line_to(0.035, -0.10)
        .line_to(-0.035, -0.10)
        .line_to(-0.06, 0.26)
        .line_to(-0.22, 0.30)
        .close_path()
        .round_join()
        .fill_and_outline(Drawing::body(), Drawing::ink(), 0.04);
    for (double r : {0.21, 0.34}) {
        d.new_path().arc(0, -0.18, r, -0.75, 0.75);
        outlined_stroke(d, 0.045);
        d.new_path().arc(0, -0.18, r, pi - 0.75, pi + 0.75);
        outlined_stroke(d, 0.045);
    }
    d.new_path().arc(0, -0.18, 0.095, 0, 2 * pi);
    d.fill_and_outline(Drawing::body(), Drawing::ink(), 0.04);
    return d;
}

// The Warlord: a horned helmet with a nose guard on a plinth.
Drawing make_warlord() {
    Drawing d;
    d.scale(1.12, 1.12);
    const Paint horn = Drawing::fixed(0.95, 0.92, 0.82, 1);
    d.round_join();
    for (double side : {-1.0, 1.0}) {
        d.new_path()
            .move_to(side * 0.20, -0.02)
            .curve_to(side * 0.40, -0.06, side * 0.44, -0.20, side * 0.40, -0.44)
            .curve_to(side * 0.33, -0.26, side * 0.28, -0.20, side * 0.16, -0.18)
            .close_path()
            .fill_and_outline(horn, Drawing::ink(), 0.035);
    }
    d.new_path().arc(0, 0.02, 0.25, pi, 2 * pi).close_path();
    d.fill_and_outline(Drawing::body(), Drawing::ink(), 0.04);
    // Brim, nose guard and plinth as one outline.
    d.new_path()
        .move_to(-0.30, 0.02)
        .line_to(0.30, 0.02)
        .line_to(0.30, 0.11)
        .line_to(0.05, 0.11)
        .line_to(0.05, 0.30)
        .line_to(0.28, 0.32)
        .line_to(0.30, 0.42)
        .line_to(-0.30, 0.42)
        .line_to(-0.28, 0.32)
        .line_to(-0.05, 0.30)
        .line_to(-0.05, 0.11)
        .line_to(-0.30, 0.11)
        .close_path()
        .fill_and_outline(Drawing::body(), Drawing::ink(), 0.04);
    // Rivets on the brim.
    d.source(Drawing::ink());
    for (double rx : {-0.20, -0.12, 0.12, 0.20})
        d.new_path().arc(rx, 0.065, 0.022, 0, 2 * pi).fill();
    return d;
}

} // namespace

const Drawing& ghost_art(bool crowned) {
    static const Drawing plain = make_ghost(false);
    static const Drawing with_crown = make_ghost(true);
    return crowned ? with_crown : plain;
}

const Drawing& relay_art() {
    static const Drawing d = make_relay();
    return d;
}

const Drawing& warlord_art() {
    static const Drawing d = make_warlord();
    return d;
}

} // namespace ghostpost::rules::giveaway
