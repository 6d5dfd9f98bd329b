// Text helpers private to the Matrix adapter: what it does to every string from outside
// before the service, a log or the database sees it, and how it writes a message's HTML.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace ghostpost::bot::matrix_text {

// `text` with every invalid UTF-8 sequence replaced by U+FFFD.
std::string valid_utf8(std::string_view text);

// A JSON document as the parser takes it: valid UTF-8, and a "\uD800"-style escape of a lone
// surrogate (JSON allows it, the parser does not) written as "\uFFFD", so that one such
// message cannot make a whole /sync answer unreadable and so block the bot for good.
std::string readable_json(std::string_view json_text);

// Parses what the homeserver sent; a discarded value when it is not JSON.
nlohmann::json parse(std::string_view json_text);

// Valid UTF-8 `text` cut to at most `limit` bytes at a character boundary, "…" ending a cut.
std::string cap(std::string_view text, std::size_t limit);

// A display name as it may be shown: controls and direction overrides made spaces, capped.
std::string display_name(std::string_view text, std::size_t limit);

// & < > " as HTML entities.
std::string escape_html(std::string_view text);

// The full user ids ("@alice:example.org") written in `text`, in order, without repeats. A
// server name never ends with a dot, so one that ends a sentence is left out.
std::vector<std::string> user_ids_in(std::string_view text);

// A short "@name" written in `text`: where it starts (the '@') and the name without '@'.
struct ShortName {
    std::size_t at;
    std::string name;
};
// The "@name"s of `text` that are not full user ids, in order.
std::vector<ShortName> short_names_in(std::string_view text);

// `text` as HTML: escaped, line breaks as <br>, each full user id a pill (a matrix.to link).
std::string html_with_pills(std::string_view text);

// Characters a transaction id may hold in a URL path as they are; the others become '_'.
std::string txn_id(std::string_view key);

// A rich reply's body without its quoted fallback (the leading "> " lines and the blank line
// after them).
std::string without_reply_fallback(std::string_view body);

} // namespace ghostpost::bot::matrix_text
