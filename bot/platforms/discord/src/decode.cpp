// Discord's message objects and the cursor, read. Everything here is pure.
#include "ghostpost/discord/discord.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace ghostpost::bot {

namespace {

using nlohmann::json;

constexpr std::size_t max_name = 64;
constexpr std::size_t max_cursor_channels = 500;
constexpr std::string_view own_mark = "bot:"; // a cursor key: the bot's own newest message

bool is_snowflake(const json& value) {
    if (!value.is_string())
        return false;
    const auto& text = value.get_ref<const std::string&>();
    return !text.empty() && text.size() <= 20 && (text == "0" || text.front() != '0') &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string string_of(const json& object, const char* key) {
    if (!object.is_object())
        return {};
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// A name as it may be shown: controls and direction overrides become spaces, capped at a
// character boundary (the JSON parser already refused invalid UTF-8).
std::string display_name(const std::string& text) {
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        std::size_t length = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        length = std::min(length, text.size() - i);
        std::string one = text.substr(i, length);
        if (c < 0x20 || c == 0x7F)
            one = " ";
        // U+202A..U+202E and U+2066..U+2069: text direction controls
        if (one.size() == 3 && one[0] == '\xE2' &&
            ((one[1] == '\x80' && one[2] >= '\xAA' && one[2] <= '\xAE') ||
             (one[1] == '\x81' && one[2] >= '\xA6' && one[2] <= '\xA9')))
            one = " ";
        if (out.size() + one.size() > max_name)
            break;
        out += one;
        i += length;
    }
    return out;
}

} // namespace

bool snowflake_less(const std::string& a, const std::string& b) {
    return a.size() != b.size() ? a.size() < b.size() : a < b;
}

DecodedMessage decode_message(std::string_view message_json, const std::string& bot_user_id) {
    const json message = json::parse(message_json, nullptr, false);
    DecodedMessage out;
    if (!message.is_object()) {
        out.problem = "not a JSON object";
        return out;
    }
    const json& author = message.contains("author") ? message["author"] : json();
    if (!is_snowflake(message.value("id", json())) ||
        !is_snowflake(message.value("channel_id", json())) || !author.is_object() ||
        !is_snowflake(author.value("id", json())) || !message.contains("content") ||
        !message["content"].is_string()) {
        out.problem = "a message without id, channel_id, author.id or content";
        return out;
    }
    const auto type = message.value("type", json(0));
    if (!type.is_number_integer() ||
        (type.get<std::int64_t>() != 0 && type.get<std::int64_t>() != 19))
        return out; // a join, a pin, a thread start...: nothing to answer
    if (author.value("bot", json(false)) == json(true) || author["id"] == bot_user_id)
        return out; // our own replies and other bots' messages
    if (author.value("system", json(false)) == json(true))
        return out;

    Post post;
    post.platform = "discord";
    post.message_id = message["id"].get<std::string>();
    post.channel = message["channel_id"].get<std::string>();
    post.author_id = author["id"].get<std::string>();
    post.author_handle = display_name(string_of(author, "username"));
    std::string name = string_of(message.value("member", json()), "nick");
    if (name.empty())
        name = string_of(author, "global_name");
    if (name.empty())
        name = post.author_handle;
    post.author_name = display_name(name);
    post.direct = !message.contains("guild_id") || !message["guild_id"].is_string();

    // The accounts "<@id>" and "<@!id>" stand for, from the mentions array only.
    std::map<std::string, Mention> known;
    if (const auto it = message.find("mentions"); it != message.end() && it->is_array()) {
        for (const json& user : *it) {
            if (!user.is_object() || !is_snowflake(user.value("id", json())))
                continue;
            Mention m;
            m.user_id = user["id"].get<std::string>();
            m.handle = display_name(string_of(user, "username"));
            std::string shown = string_of(user.value("member", json()), "nick");
            if (shown.empty())
                shown = string_of(user, "global_name");
            m.name = display_name(shown.empty() ? m.handle : shown);
            known.emplace(m.user_id, std::move(m));
        }
    }
    const std::string& content = message["content"].get_ref<const std::string&>();
    std::string text;
    for (std::size_t i = 0; i < content.size();) {
        if (content.compare(i, 2, "<@") == 0) {
            std::size_t start = i + 2;
            if (start < content.size() && content[start] == '!')
                ++start;
            const auto close = content.find('>', start);
            if (close != std::string::npos && close > start && close - start <= 20) {
                const std::string id = content.substr(start, close - start);
                if (const auto m = known.find(id); m != known.end()) {
                    if (id == bot_user_id && text.find_first_not_of(" ") == std::string::npos) {
                        // "@ghostpost !new ..." addresses the bot: the command follows.
                        text.clear();
                        i = content.find_first_not_of(' ', close + 1);
                        if (i == std::string::npos)
                            i = content.size();
                        continue;
                    }
                    if (!m->second.handle.empty()) {
                        text += "@" + m->second.handle;
                        post.mentions.push_back(m->second);
                        i = close + 1;
                        continue;
                    }
                }
            }
        }
        text += content[i];
        ++i;
    }
    post.text = channel_mentions_as_ids(text);
    out.post = std::move(post);
    return out;
}

std::string channel_mentions_as_ids(std::string_view text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text.compare(i, 2, "<#") == 0) {
            const auto close = text.find('>', i + 2);
            if (close != std::string_view::npos &&
                is_snowflake(json(std::string(text.substr(i + 2, close - i - 2))))) {
                out += '#';
                out += text.substr(i + 2, close - i - 2);
                i = close;
                continue;
            }
        }
        out += text[i];
    }
    return out;
}

DiscordCursor parse_discord_cursor(const std::string& text) {
    DiscordCursor cursor;
    const json value = json::parse(text, nullptr, false);
    if (!value.is_object())
        return cursor;
    for (const auto& [key, id] : value.items()) {
        const bool own = key.starts_with(own_mark);
        if (is_snowflake(json(own ? key.substr(own_mark.size()) : key)) && is_snowflake(id))
            cursor[key] = id.get<std::string>();
    }
    return cursor;
}

std::string own_key(const std::string& channel) {
    return std::string(own_mark) + channel;
}

std::string format_discord_cursor(const DiscordCursor& cursor) {
    std::vector<std::pair<std::string, std::string>> newest;
    for (const auto& [key, id] : cursor)
        if (!key.starts_with(own_mark))
            newest.emplace_back(key, id);
    if (newest.size() > max_cursor_channels) {
        std::sort(newest.begin(), newest.end(),
                  [](const auto& a, const auto& b) { return snowflake_less(b.second, a.second); });
        newest.resize(max_cursor_channels);
    }
    json value = json::object();
    for (const auto& [channel, id] : newest) {
        value[channel] = id;
        if (const auto own = cursor.find(own_key(channel)); own != cursor.end())
            value[own->first] = own->second;
    }
    return value.dump();
}

DiscordCursor unread_channels(const json& guild, const DiscordCursor& cursor) {
    DiscordCursor out;
    if (cursor.empty() || !guild.is_object() || !guild.contains("channels") ||
        !guild["channels"].is_array())
        return out;
    std::string newest; // of the handled posts: the bot's own messages say nothing of them
    for (const auto& [key, id] : cursor)
        if (!key.starts_with(own_mark) && (newest.empty() || snowflake_less(newest, id)))
            newest = id;
    if (newest.empty())
        return out;
    // A snowflake's bits above the 22nd are milliseconds: ten seconds before the newest.
    constexpr std::uint64_t margin = std::uint64_t{10000} << 22;
    const std::uint64_t value = std::stoull(newest);
    const std::string floor = std::to_string(value > margin ? value - margin : 0);
    for (const json& channel : guild["channels"]) {
        if (!channel.is_object() || !is_snowflake(channel.value("id", json())) ||
            !is_snowflake(channel.value("last_message_id", json())))
            continue;
        const std::string id = channel["id"].get<std::string>();
        const auto known = cursor.find(id);
        const std::string& from = known != cursor.end() ? known->second : floor;
        // Nothing new when the newest is the bot's own last message there (every post before
        // it was handled, or the cursor would not have it).
        const auto own = cursor.find(own_key(id));
        const std::string& seen =
            own != cursor.end() && snowflake_less(from, own->second) ? own->second : from;
        if (snowflake_less(seen, channel["last_message_id"].get<std::string>()))
            out[id] = from;
    }
    return out;
}

} // namespace ghostpost::bot
