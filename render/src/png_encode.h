// PNG encoding tuned for boards: cairo's own writer uses zlib's default level and adaptive
// filters, which costs ~7 ms for a 480 px board; flat squares compress nearly as well with a
// fast level and no filter (see the benchmark figures in the README).
#pragma once

#include "ghostpost/render/png.h"

#include <cairo.h>

namespace ghostpost::render::detail {

// Encodes an image surface in CAIRO_FORMAT_RGB24 as an 8-bit indexed PNG (see palette.h). Errors:
// std::invalid_argument for another format; std::runtime_error when libpng fails.
PngBytes encode_png(cairo_surface_t* rgb24);

} // namespace ghostpost::render::detail
