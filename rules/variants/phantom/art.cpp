#include "art.h"

namespace ghostpost::rules::phantom {
namespace {

// A theatre mask with eye holes, cut out with the even-odd rule so the square shows through,
// and a dashed outline: a silhouette no chess piece has.
Drawing make_phantom() {
    Drawing d;
    d.new_path()
        .move_to(0, -0.40)
        .curve_to(0.26, -0.40, 0.36, -0.24, 0.34, -0.06)
        .curve_to(0.32, 0.16, 0.16, 0.40, 0, 0.42)
        .curve_to(-0.16, 0.40, -0.32, 0.16, -0.34, -0.06)
        .curve_to(-0.36, -0.24, -0.26, -0.40, 0, -0.40)
        .close_path();
    for (double side : {-1.0, 1.0}) {
        d.move_to(side * 0.04, -0.12)
            .curve_to(side * 0.10, -0.22, side * 0.22, -0.22, side * 0.25, -0.12)
            .curve_to(side * 0.20, -0.04, side * 0.08, -0.04, side * 0.04, -0.12)
            .close_path();
    }
    // A mouth slit, turned down.
    d.move_to(-0.14, 0.20)
        .curve_to(-0.06, 0.12, 0.06, 0.12, 0.14, 0.20)
        .curve_to(0.06, 0.16, -0.06, 0.16, -0.14, 0.20)
        .close_path();
    d.even_odd().source(Drawing::body()).fill_preserve().winding();
    d.source(Drawing::ink()).line_width(0.055).dash(0.08, 0.05).stroke().no_dash();
    return d;
}

} // namespace

const Drawing& phantom_art() {
    static const Drawing d = make_phantom();
    return d;
}

} // namespace ghostpost::rules::phantom
