#include "ghostpost/service/command.h"

#include <cctype>
#include <cstdint>
#include <optional>

namespace ghostpost::bot {

namespace {

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

std::vector<std::string> split_words(std::string_view text) {
    std::vector<std::string> words;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && is_space(text[i]))
            ++i;
        std::size_t start = i;
        while (i < text.size() && !is_space(text[i]))
            ++i;
        if (i > start)
            words.emplace_back(text.substr(start, i - start));
    }
    return words;
}

} // namespace

std::optional<Command> parse_command(std::string_view text,
                                     const std::vector<std::string>& prefixes) {
    std::size_t start = 0;
    while (start < text.size() && is_space(text[start]))
        ++start;
    text.remove_prefix(start);
    for (const auto& prefix : prefixes) {
        if (prefix.empty() || !text.starts_with(prefix) || text.size() <= prefix.size() ||
            !std::isalpha(static_cast<unsigned char>(text[prefix.size()])))
            continue;
        auto words = split_words(text.substr(prefix.size()));
        Command c;
        std::string head = words.front();
        auto at = head.find('@');
        if (at != std::string::npos) {
            c.addressee = head.substr(at + 1);
            head.resize(at);
        }
        for (char& ch : head)
            ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        c.name = head;
        c.args.assign(words.begin() + 1, words.end());
        return c;
    }
    return std::nullopt;
}

std::string shorten(std::string_view text, std::size_t max_chars) {
    std::size_t chars = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80)
            continue;
        if (chars == max_chars)
            return std::string(text.substr(0, i)) + "...";
        ++chars;
    }
    return std::string(text);
}

namespace {

constexpr std::string_view replacement = "\xEF\xBF\xBD"; // U+FFFD

// The code point at `i` (moving `i` past it); nullopt, with `i` past one byte, for bytes that
// are no UTF-8.
std::optional<std::uint32_t> next_code_point(std::string_view text, std::size_t& i) {
    const auto lead = static_cast<unsigned char>(text[i]);
    const int extra = lead < 0x80             ? 0
                      : (lead & 0xE0) == 0xC0 ? 1
                      : (lead & 0xF0) == 0xE0 ? 2
                      : (lead & 0xF8) == 0xF0 ? 3
                                              : -1;
    if (extra < 0 || i + static_cast<std::size_t>(extra) >= text.size()) {
        ++i;
        return std::nullopt;
    }
    std::uint32_t code = extra == 0 ? lead : lead & (0x3Fu >> extra);
    for (int k = 1; k <= extra; ++k) {
        const auto cc = static_cast<unsigned char>(text[i + static_cast<std::size_t>(k)]);
        if ((cc & 0xC0) != 0x80) {
            ++i;
            return std::nullopt;
        }
        code = (code << 6) | (cc & 0x3Fu);
    }
    static constexpr std::uint32_t smallest[] = {0, 0x80, 0x800, 0x10000};
    if (code < smallest[extra] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
        ++i;
        return std::nullopt;
    }
    i += static_cast<std::size_t>(extra) + 1;
    return code;
}

bool is_control(std::uint32_t c) {
    return (c < 0x20 && c != '\n' && c != '\t') || (c >= 0x7F && c <= 0x9F) || c == 0x2028 ||
           c == 0x2029;
}

bool is_bidi_control(std::uint32_t c) {
    return c == 0x061C || c == 0x200E || c == 0x200F || (c >= 0x202A && c <= 0x202E) ||
           (c >= 0x2066 && c <= 0x2069);
}

bool is_invisible(std::uint32_t c) {
    return c == 0x00AD || c == 0x034F || c == 0x180E || (c >= 0x200B && c <= 0x200D) ||
           (c >= 0x2060 && c <= 0x2064) || c == 0xFEFF;
}

enum class Keep : std::uint8_t { Text, Name };

std::string made_harmless(std::string_view text, Keep keep) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t from = i;
        const auto code = next_code_point(text, i);
        if (!code) {
            out += replacement;
            continue;
        }
        if (is_control(*code) || (keep == Keep::Name && (*code == '\n' || *code == '\t')))
            continue;
        if (is_bidi_control(*code) || (keep == Keep::Name && is_invisible(*code))) {
            if (keep == Keep::Name)
                out += replacement;
            continue;
        }
        out += text.substr(from, i - from);
    }
    return out;
}

} // namespace

std::string harmless_text(std::string_view text) {
    return made_harmless(text, Keep::Text);
}

std::string harmless_name(std::string_view name) {
    return made_harmless(name, Keep::Name);
}

} // namespace ghostpost::bot
