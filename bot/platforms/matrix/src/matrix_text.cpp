#include "matrix_text.h"

#include <algorithm>
#include <cstdint>
#include <optional>

namespace ghostpost::bot::matrix_text {

namespace {

constexpr std::string_view replacement = "\xEF\xBF\xBD"; // U+FFFD

// The length of the well-formed UTF-8 character at the start of `s`, or 0 when it is not one
// (a stray or missing continuation byte, an overlong form, a surrogate, beyond U+10FFFF).
std::size_t character_length(std::string_view s) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char lead = byte(0);
    if (lead < 0x80)
        return 1;
    std::size_t length = lead >= 0xF0 && lead <= 0xF4 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 0;
    if (lead > 0xF4 || length == 0 || s.size() < length)
        return 0;
    for (std::size_t k = 1; k < length; ++k)
        if ((byte(k) & 0xC0) != 0x80)
            return 0;
    // The second byte's range decides overlong forms, surrogates and the top of Unicode.
    const unsigned char second = byte(1);
    if ((lead == 0xE0 && second < 0xA0) || (lead == 0xED && second > 0x9F) ||
        (lead == 0xF0 && second < 0x90) || (lead == 0xF4 && second > 0x8F))
        return 0;
    return length;
}

int hex_digit(char c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// The code unit of a "\uXXXX" escape starting at `at`, or nullopt.
std::optional<unsigned> escape_at(std::string_view s, std::size_t at) {
    if (at + 6 > s.size() || s[at] != '\\' || s[at + 1] != 'u')
        return std::nullopt;
    unsigned value = 0;
    for (std::size_t k = at + 2; k < at + 6; ++k) {
        const int digit = hex_digit(s[k]);
        if (digit < 0)
            return std::nullopt;
        value = value * 16 + static_cast<unsigned>(digit);
    }
    return value;
}

bool localpart_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == '=' || c == '-' || c == '/' || c == '+';
}

bool server_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '-' || c == ':' || c == '[' || c == ']';
}

// The full user id starting at `at` (an '@'), or an empty view.
std::string_view user_id_at(std::string_view text, std::size_t at) {
    if (at > 0 && (localpart_char(text[at - 1]) || text[at - 1] == '@'))
        return {};
    std::size_t k = at + 1;
    while (k < text.size() && localpart_char(text[k]))
        ++k;
    if (k == at + 1 || k >= text.size() || text[k] != ':')
        return {};
    const std::size_t server = ++k;
    while (k < text.size() && server_char(text[k]))
        ++k;
    while (k > server && (text[k - 1] == '.' || text[k - 1] == ':'))
        --k; // a sentence's full stop, a clause's colon
    if (k == server || k - at > 255)
        return {};
    return text.substr(at, k - at);
}

} // namespace

std::string valid_utf8(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    while (!text.empty()) {
        const std::size_t length = character_length(text);
        if (length == 0) {
            out += replacement;
            text.remove_prefix(1);
        } else {
            out.append(text.substr(0, length));
            text.remove_prefix(length);
        }
    }
    return out;
}

std::string readable_json(std::string_view json_text) {
    const std::string text = valid_utf8(json_text);
    std::string out;
    out.reserve(text.size());
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '"') {
            in_string = !in_string;
        } else if (in_string && c == '\\' && i + 1 < text.size()) {
            const auto unit = escape_at(text, i);
            if (!unit || *unit < 0xD800 || *unit > 0xDFFF) {
                out.append(text, i, 2); // any other escape, an escaped backslash included
                ++i;
                continue;
            }
            const auto low = escape_at(text, i + 6);
            if (*unit <= 0xDBFF && low && *low >= 0xDC00 && *low <= 0xDFFF) {
                out.append(text, i, 12); // a whole surrogate pair
                i += 11;
            } else {
                out += "\\uFFFD";
                i += 5;
            }
            continue;
        }
        out += c;
    }
    return out;
}

nlohmann::json parse(std::string_view json_text) {
    return nlohmann::json::parse(readable_json(json_text), nullptr, false);
}

std::string cap(std::string_view text, std::size_t limit) {
    if (text.size() <= limit)
        return std::string(text);
    constexpr std::string_view ellipsis = "\xE2\x80\xA6";
    std::size_t cut = limit > ellipsis.size() ? limit - ellipsis.size() : 0;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        --cut;
    return std::string(text.substr(0, cut)) + std::string(ellipsis);
}

std::string display_name(std::string_view text, std::size_t limit) {
    std::string name = valid_utf8(text);
    std::string out;
    out.reserve(name.size());
    for (std::size_t i = 0; i < name.size(); ++i) {
        const auto c = static_cast<unsigned char>(name[i]);
        if (c < 0x20 || c == 0x7F) {
            out += ' ';
            continue;
        }
        if (c == 0xE2 && i + 2 < name.size()) {
            // Marks, embeddings, overrides and isolates (U+200E/F, U+202A..E, U+2066..9)
            // would turn the rest of a reply around.
            const auto b = static_cast<unsigned char>(name[i + 1]);
            const auto d = static_cast<unsigned char>(name[i + 2]);
            if ((b == 0x80 && (d == 0x8E || d == 0x8F || (d >= 0xAA && d <= 0xAE))) ||
                (b == 0x81 && d >= 0xA6 && d <= 0xA9)) {
                out += ' ';
                i += 2;
                continue;
            }
        }
        out += name[i];
    }
    return cap(out, limit);
}

std::string escape_html(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

std::vector<std::string> user_ids_in(std::string_view text) {
    std::vector<std::string> ids;
    for (std::size_t at = text.find('@'); at != std::string_view::npos;
         at = text.find('@', at + 1)) {
        const std::string_view id = user_id_at(text, at);
        if (!id.empty() && std::find(ids.begin(), ids.end(), id) == ids.end())
            ids.emplace_back(id);
    }
    return ids;
}

std::vector<ShortName> short_names_in(std::string_view text) {
    std::vector<ShortName> names;
    for (std::size_t at = text.find('@'); at != std::string_view::npos;
         at = text.find('@', at + 1)) {
        if (at > 0 && (localpart_char(text[at - 1]) || text[at - 1] == '@'))
            continue;
        std::size_t end = at + 1;
        while (end < text.size() && localpart_char(text[end]))
            ++end;
        while (end > at + 1 && text[end - 1] == '.')
            --end; // a sentence's full stop
        if (end == at + 1 || end - at > 64 || !user_id_at(text, at).empty())
            continue;
        names.push_back({at, std::string(text.substr(at + 1, end - at - 1))});
    }
    return names;
}

std::string html_with_pills(std::string_view text) {
    std::string out;
    std::size_t done = 0;
    for (std::size_t at = text.find('@'); at != std::string_view::npos;
         at = text.find('@', at + 1)) {
        const std::string_view id = user_id_at(text, at);
        if (id.empty())
            continue;
        out += escape_html(text.substr(done, at - done));
        const std::string escaped = escape_html(id);
        out += "<a href=\"https://matrix.to/#/" + escaped + "\">" + escaped + "</a>";
        done = at + id.size();
        at = done - 1;
    }
    out += escape_html(text.substr(done));
    std::string html;
    for (const char c : out) {
        if (c == '\n')
            html += "<br>";
        else
            html += c;
    }
    return html;
}

std::string txn_id(std::string_view key) {
    std::string id;
    for (const char c : key) {
        const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                           (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_';
        id += plain ? c : '_';
    }
    return id;
}

std::string without_reply_fallback(std::string_view body) {
    std::size_t at = 0;
    bool quoted = false;
    while (at < body.size() && body.substr(at).starts_with("> ")) {
        quoted = true;
        const std::size_t end = body.find('\n', at);
        at = end == std::string_view::npos ? body.size() : end + 1;
    }
    if (!quoted)
        return std::string(body);
    if (at < body.size() && body[at] == '\n')
        ++at; // the blank line after the quote
    return std::string(body.substr(at));
}

} // namespace ghostpost::bot::matrix_text
