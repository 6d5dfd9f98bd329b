// The words drawn with a board (whose move it is, check, a variant's notes) in a reader's
// language, for the renderers (render::TextStyle::say, PngOptions::say, SvgOptions::say).
#pragma once

#include "ghostpost/render/say.h"

#include <string>

namespace ghostpost::bot {

// Each phrase of the board written from the catalogs in `language`; empty (English) for "en".
render::Say board_words(const std::string& language);

} // namespace ghostpost::bot
