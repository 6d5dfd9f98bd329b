// Text as posts bring it: what both sides of the platform boundary check of it.
#pragma once

#include <string_view>

namespace ghostpost::bot {

// Whether `text` is well-formed UTF-8 (no overlong forms, surrogates or code points past
// U+10FFFF).
bool valid_utf8(std::string_view text);

} // namespace ghostpost::bot
