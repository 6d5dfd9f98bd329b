// Cutting a reply into the pieces a platform's message limit allows, counted in characters
// (UTF-8 code points), as the platforms count them.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ghostpost::bot {

inline std::size_t characters(std::string_view text) {
    return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

// The byte length of the longest prefix of `text` with at most `limit` characters.
inline std::size_t prefix_bytes(std::string_view text, std::size_t limit) {
    std::size_t count = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
            if (count == limit)
                return i;
            ++count;
        }
    }
    return text.size();
}

// Pieces of at most `limit` characters, cut at line breaks where possible, else at a space,
// else at a character boundary; the line break or space at a cut is dropped.
inline std::vector<std::string> split_message(std::string_view rest, std::size_t limit) {
    std::vector<std::string> pieces;
    while (!rest.empty()) {
        if (characters(rest) <= limit) {
            pieces.emplace_back(rest);
            break;
        }
        const std::size_t fit = prefix_bytes(rest, limit);
        const std::string_view head = rest.substr(0, fit + 1); // a separator right after counts
        std::size_t cut = head.rfind('\n');
        if (cut == std::string_view::npos || cut == 0)
            cut = head.rfind(' ');
        if (cut == std::string_view::npos || cut == 0) {
            pieces.emplace_back(rest.substr(0, fit));
            rest.remove_prefix(fit);
        } else {
            pieces.emplace_back(rest.substr(0, cut));
            rest.remove_prefix(cut + 1);
        }
    }
    return pieces;
}

} // namespace ghostpost::bot
