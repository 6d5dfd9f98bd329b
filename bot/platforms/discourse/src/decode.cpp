// Reading one Discourse post object into a Post: identity from user_id and username, "@name"s
// from the raw Markdown, and the checks that keep a broken post from reaching the service.
#include "discourse_text.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace ghostpost::bot {

namespace discourse_text {

bool name_character(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c == '.';
}

std::string lower(std::string text) {
    for (char& c : text)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return text;
}

std::string cap(std::string_view text, std::size_t limit) {
    if (text.size() <= limit)
        return std::string(text);
    std::size_t cut = limit;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        --cut;
    return std::string(text.substr(0, cut));
}

std::string display_name(std::string_view text) {
    std::string name(text);
    for (char& c : name)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F)
            c = ' ';
    return cap(name, 128);
}

std::vector<std::string> mentioned(std::string_view raw) {
    std::vector<std::string> names;
    for (std::size_t at = raw.find('@'); at != std::string_view::npos; at = raw.find('@', at + 1)) {
        // "a@b.c" is an address, "@@x" no mention: Discourse wants a boundary before the '@'.
        if (at > 0 && (name_character(raw[at - 1]) || raw[at - 1] == '@'))
            continue;
        std::size_t end = at + 1;
        while (end < raw.size() && name_character(raw[end]))
            ++end;
        std::string_view name = raw.substr(at + 1, end - at - 1);
        while (!name.empty() && (name.back() == '.' || name.back() == '-'))
            name.remove_suffix(1); // a sentence's full stop is not part of the name
        if (!name.empty() && name.size() <= 60 && names.size() < 64)
            names.emplace_back(name);
    }
    return names;
}

} // namespace discourse_text

namespace {

using nlohmann::json;

struct Malformed {
    std::string why;
};

std::int64_t integer(const json& object, const char* key) {
    const auto it = object.find(key);
    if (it == object.end() || !it->is_number_integer())
        throw Malformed{std::string(key) + " is missing or not an integer"};
    return it->get<std::int64_t>();
}

std::optional<std::int64_t> optional_integer(const json& object, const char* key) {
    const auto it = object.find(key);
    if (it == object.end() || !it->is_number_integer())
        return std::nullopt;
    return it->get<std::int64_t>();
}

std::string text(const json& object, const char* key) {
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool flag(const json& object, const char* key) {
    const auto it = object.find(key);
    return it != object.end() && it->is_boolean() && it->get<bool>();
}

// The text after a leading "@bot" (and the spaces after it), or the whole text.
std::string addressed_text(const std::string& raw, const std::string& bot) {
    std::size_t start = 0;
    while (start < raw.size() && (raw[start] == ' ' || raw[start] == '\n' || raw[start] == '\r'))
        ++start;
    if (raw.compare(start, 1, "@") != 0 || raw.size() < start + 1 + bot.size())
        return raw;
    const std::string word = raw.substr(start + 1, bot.size());
    const std::size_t after = start + 1 + bot.size();
    if (discourse_text::lower(word) != discourse_text::lower(bot) ||
        (after < raw.size() && discourse_text::name_character(raw[after])))
        return raw;
    std::size_t rest = after;
    while (rest < raw.size() && (raw[rest] == ' ' || raw[rest] == ',' || raw[rest] == ':' ||
                                 raw[rest] == '\n' || raw[rest] == '\r'))
        ++rest;
    return raw.substr(rest);
}

} // namespace

namespace discourse_text {

DecodedPost decode_value(const json& value, const DiscourseOptions& options, bool direct) {
    DecodedPost out;
    out.post.platform = "discourse";
    try {
        if (!value.is_object())
            throw Malformed{"the post is not an object"};
        const std::int64_t id = integer(value, "id");
        if (id <= 0)
            throw Malformed{"id is not positive"};
        out.topic_id = integer(value, "topic_id");
        const std::int64_t number = integer(value, "post_number");
        const std::int64_t user_id = integer(value, "user_id");
        const std::string username = text(value, "username");
        std::string raw = text(value, "raw");
        Post& post = out.post;
        post.channel = std::to_string(out.topic_id);
        post.message_id = std::to_string(number);
        post.cursor = std::to_string(id);
        post.author_id = std::to_string(user_id);
        post.author_handle = username;
        const std::string name = text(value, "name");
        post.author_name = display_name(name.empty() ? username : name);
        // Discourse's own accounts (system, the helper bot) have ids below 1: no person.
        post.anonymous = user_id <= 0;
        post.direct = direct;
        out.own = lower(username) == lower(options.username);
        const auto post_type = optional_integer(value, "post_type");
        out.readable = !out.own && !post.anonymous && post_type.value_or(1) == 1 &&
                       !flag(value, "hidden") && !flag(value, "user_deleted") &&
                       !(value.contains("deleted_at") && !value["deleted_at"].is_null());
        const std::vector<std::string> names = mentioned(raw);
        const bool mentions_bot =
            std::any_of(names.begin(), names.end(),
                        [&](const std::string& n) { return lower(n) == lower(options.username); });
        const auto category = optional_integer(value, "category_id");
        out.addressed =
            direct || mentions_bot || (category && options.categories.contains(*category));
        post.text = addressed_text(raw, options.username);
        for (const std::string& handle : mentioned(post.text))
            post.mentions.push_back({handle, "", ""});
        out.id = id;
    } catch (const Malformed& malformed) {
        out.problem = cap(malformed.why, 200);
    } catch (const std::exception& e) {
        out.problem = cap(e.what(), 200);
    }
    return out;
}

} // namespace discourse_text

DecodedPost decode_post(std::string_view post_json, const DiscourseOptions& options, bool direct) {
    try {
        const json value = json::parse(post_json, nullptr, false);
        if (value.is_discarded()) {
            DecodedPost out;
            out.post.platform = "discourse";
            out.problem = "the post is not JSON";
            return out;
        }
        return discourse_text::decode_value(value, options, direct);
    } catch (...) {
        DecodedPost out;
        out.post.platform = "discourse";
        out.problem = "the post could not be read";
        return out;
    }
}

} // namespace ghostpost::bot
