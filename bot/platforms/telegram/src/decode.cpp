// Reading one getUpdates update into a Post: identity, mentions, and the checks that keep a
// hostile or broken update from reaching the service as anything but an empty post.
#include "telegram_text.h"

#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

namespace ghostpost::bot {

namespace telegram_text {

namespace {

constexpr std::string_view replacement = "\xEF\xBF\xBD"; // U+FFFD

} // namespace

std::string valid_utf8(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    std::size_t i = 0;
    while (i < text.size()) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x80) {
            out += static_cast<char>(c);
            ++i;
            continue;
        }
        std::size_t length = 0;
        std::uint32_t point = 0, least = 0;
        if ((c & 0xE0) == 0xC0) {
            length = 2, point = c & 0x1Fu, least = 0x80;
        } else if ((c & 0xF0) == 0xE0) {
            length = 3, point = c & 0x0Fu, least = 0x800;
        } else if ((c & 0xF8) == 0xF0) {
            length = 4, point = c & 0x07u, least = 0x10000;
        } else {
            out += replacement; // a stray continuation byte or 0xF8..0xFF
            ++i;
            continue;
        }
        std::size_t k = 1;
        for (; k < length && i + k < text.size(); ++k) {
            const auto d = static_cast<unsigned char>(text[i + k]);
            if ((d & 0xC0) != 0x80)
                break;
            point = (point << 6) | (d & 0x3Fu);
        }
        if (k < length) { // truncated: the bytes read so far are one bad character
            out += replacement;
            i += k;
            continue;
        }
        if (point < least || point > 0x10FFFF || (point >= 0xD800 && point <= 0xDFFF)) {
            out += replacement; // overlong, surrogate or beyond Unicode
            i += length;
            continue;
        }
        out.append(text.substr(i, length));
        i += length;
    }
    return out;
}

namespace {

// The value of four hex digits at `at`, or nullopt.
std::optional<std::uint32_t> hex4(std::string_view s, std::size_t at) {
    if (at + 4 > s.size())
        return std::nullopt;
    std::uint32_t value = 0;
    for (std::size_t k = at; k < at + 4; ++k) {
        const char c = s[k];
        const int digit = c >= '0' && c <= '9'   ? c - '0'
                          : c >= 'a' && c <= 'f' ? c - 'a' + 10
                          : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                 : -1;
        if (digit < 0)
            return std::nullopt;
        value = value * 16 + static_cast<std::uint32_t>(digit);
    }
    return value;
}

} // namespace

std::string readable_json(std::string_view json_text) {
    std::string text = valid_utf8(json_text);
    std::string out;
    out.reserve(text.size());
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (!in_string) {
            in_string = c == '"';
            out += c;
            continue;
        }
        if (c == '"') {
            in_string = false;
            out += c;
            continue;
        }
        if (c != '\\' || i + 1 >= text.size()) {
            out += c;
            continue;
        }
        if (text[i + 1] != 'u') { // any other escape, the escaped backslash included
            out += text.substr(i, 2);
            ++i;
            continue;
        }
        const auto unit = hex4(text, i + 2);
        if (unit && *unit >= 0xD800 && *unit <= 0xDBFF) {
            const auto low = i + 7 < text.size() && text[i + 6] == '\\' && text[i + 7] == 'u'
                                 ? hex4(text, i + 8)
                                 : std::nullopt;
            if (low && *low >= 0xDC00 && *low <= 0xDFFF) {
                out += text.substr(i, 12); // a whole pair
                i += 11;
                continue;
            }
        }
        if (unit && *unit >= 0xD800 && *unit <= 0xDFFF) {
            out += "\\uFFFD";
            i += 5;
            continue;
        }
        out += c;
    }
    return out;
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
    for (std::size_t i = 0; i < name.size(); ++i) {
        const auto c = static_cast<unsigned char>(name[i]);
        if (c < 0x20 || c == 0x7F) {
            name[i] = ' ';
        } else if (c == 0xE2 && i + 2 < name.size()) {
            // U+200E/F marks, U+202A..E embeddings and overrides, U+2066..9 isolates: they
            // would turn the rest of a reply around.
            const auto b = static_cast<unsigned char>(name[i + 1]);
            const auto d = static_cast<unsigned char>(name[i + 2]);
            if ((b == 0x80 && (d == 0x8E || d == 0x8F || (d >= 0xAA && d <= 0xAE))) ||
                (b == 0x81 && d >= 0xA6 && d <= 0xA9)) {
                name.replace(i, 3, " ");
            }
        }
    }
    return cap(name, limit);
}

} // namespace telegram_text

namespace {

using nlohmann::json;
using telegram_text::callback_prefix;
using telegram_text::cap;
using telegram_text::display_name;
using telegram_text::topic_separator;

constexpr std::size_t max_name_bytes = 128;          // Telegram allows 64 + 64 characters
constexpr std::size_t max_handle = 32;               // Telegram usernames: up to 32 of [A-Za-z0-9_]
constexpr std::size_t max_mentions = 64;             // more in one post is not a command
constexpr std::int64_t anonymous_admin = 1087968824; // @GroupAnonymousBot: every anonymous admin
constexpr std::int64_t channel_bot = 136817688;      // @Channel_Bot: a channel posting as a chat
constexpr std::int64_t telegram_service = 777000;    // forwards from a linked channel

// What makes one update unreadable; caught where the update is decoded.
struct Malformed {
    std::string why;
};

// The member `key` of `object`, or nullptr when absent or null.
const json* member(const json& object, const char* key) {
    const auto it = object.find(key);
    return it == object.end() || it->is_null() ? nullptr : &*it;
}

std::int64_t integer(const json& object, const char* key, const std::string& where) {
    const json* value = member(object, key);
    if (value == nullptr)
        throw Malformed{where + "." + key + " is missing"};
    if (value->is_number_unsigned() &&
        value->get<std::uint64_t>() >
            static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        throw Malformed{where + "." + key + " is out of range"};
    if (!value->is_number_integer())
        throw Malformed{where + "." + key + " is not an integer"};
    return value->get<std::int64_t>();
}

const json* object(const json& parent, const char* key, const std::string& where) {
    const json* value = member(parent, key);
    if (value != nullptr && !value->is_object())
        throw Malformed{where + "." + key + " is not an object"};
    return value;
}

const std::string* text_member(const json& parent, const char* key, const std::string& where) {
    const json* value = member(parent, key);
    if (value == nullptr)
        return nullptr;
    if (!value->is_string())
        throw Malformed{where + "." + key + " is not a string"};
    return value->get_ptr<const std::string*>();
}

std::string lower(std::string text) {
    for (char& c : text)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return text;
}

// A Telegram username as the service may match it: 1 to 32 of [A-Za-z0-9_].
bool valid_handle(std::string_view handle) {
    return !handle.empty() && handle.size() <= max_handle &&
           std::all_of(handle.begin(), handle.end(), [](char c) {
               return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '_';
           });
}

// A User object's first and last name, for display only.
std::string user_name(const json& user, const std::string& where) {
    std::string name;
    if (const std::string* first = text_member(user, "first_name", where))
        name = *first;
    if (const std::string* last = text_member(user, "last_name", where))
        name += (name.empty() ? "" : " ") + *last;
    return display_name(name, max_name_bytes);
}

std::string user_handle(const json& user, const std::string& where) {
    const std::string* username = text_member(user, "username", where);
    return username != nullptr && valid_handle(*username) ? *username : std::string();
}

// Byte offset of every UTF-16 position of `text`; npos between the halves of a surrogate pair.
// Telegram counts entity offsets and lengths in UTF-16 code units.
std::vector<std::size_t> utf16_positions(std::string_view text) {
    std::vector<std::size_t> at;
    at.reserve(text.size() + 1);
    std::size_t i = 0;
    while (i < text.size()) {
        const auto c = static_cast<unsigned char>(text[i]);
        const std::size_t length = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
        at.push_back(i);
        if (length == 4)
            at.push_back(std::string::npos); // the low surrogate
        i = std::min(text.size(), i + length);
    }
    at.push_back(text.size());
    return at;
}

// The `mention` and `text_mention` entities of a text, in the order of the text.
std::vector<Mention> read_mentions(const json& entities, const std::string& text) {
    if (!entities.is_array())
        throw Malformed{"message.entities is not an array"};
    std::vector<std::size_t> at;
    std::vector<std::pair<std::int64_t, Mention>> found;
    for (const json& entity : entities) {
        const std::string where = "message.entities[]";
        if (!entity.is_object())
            throw Malformed{where + " is not an object"};
        const std::string* type = text_member(entity, "type", where);
        if (type == nullptr)
            throw Malformed{where + ".type is missing"};
        const std::int64_t offset = integer(entity, "offset", where);
        const std::int64_t length = integer(entity, "length", where);
        if (*type != "mention" && *type != "text_mention")
            continue;
        if (at.empty())
            at = utf16_positions(text);
        const auto units = static_cast<std::int64_t>(at.size() - 1);
        if (offset < 0 || length < 0 || offset > units || length > units - offset)
            throw Malformed{where + " lies outside the text"};
        const std::size_t begin = at[static_cast<std::size_t>(offset)];
        const std::size_t end = at[static_cast<std::size_t>(offset + length)];
        if (begin == std::string::npos || end == std::string::npos)
            throw Malformed{where + " cuts a character in two"};
        const std::string_view covered = std::string_view(text).substr(begin, end - begin);
        Mention mention;
        if (*type == "mention") {
            // "@name" as typed: only a well-formed handle names an account.
            if (!covered.starts_with('@') || !valid_handle(covered.substr(1)))
                continue;
            mention.handle = std::string(covered.substr(1));
        } else {
            const json* user = object(entity, "user", where);
            if (user == nullptr)
                throw Malformed{where + ".user is missing"};
            mention.user_id = std::to_string(integer(*user, "id", where + ".user"));
            mention.name = user_name(*user, where + ".user");
            mention.handle = user_handle(*user, where + ".user");
        }
        if (found.size() < max_mentions)
            found.emplace_back(offset, std::move(mention));
    }
    std::stable_sort(found.begin(), found.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<Mention> mentions;
    for (auto& [offset, mention] : found)
        mentions.push_back(std::move(mention));
    return mentions;
}

// The channel of a message: its chat, or the forum topic of the chat it was written in. Only a
// topic message (is_topic_message) names a topic: in other supergroups message_thread_id is
// merely the thread of a chain of replies, which is no place of its own.
std::string channel_of(const json& message, const json& chat, const std::string& where) {
    std::string channel = std::to_string(integer(chat, "id", where + ".chat"));
    const json* topic = member(message, "is_topic_message");
    if (topic != nullptr && topic->is_boolean() && topic->get<bool>()) {
        const std::int64_t thread = integer(message, "message_thread_id", where);
        if (thread <= 0)
            throw Malformed{where + ".message_thread_id is out of range"};
        channel += std::string(topic_separator) + std::to_string(thread);
    }
    return channel;
}

// The author of a message or a button press, from its User object.
void read_author(const json& from, const std::string& where, Post& post) {
    const std::int64_t id = integer(from, "id", where);
    post.author_id = std::to_string(id);
    post.author_name = user_name(from, where);
    post.author_handle = user_handle(from, where);
    post.anonymous = id == anonymous_admin || id == channel_bot || id == telegram_service;
    // The user's interface language, an IETF tag: one that is no tag is left unsaid.
    if (const std::string* code = text_member(from, "language_code", where);
        code != nullptr && !code->empty() && code->size() <= 35 &&
        std::all_of(code->begin(), code->end(), [](char c) {
            return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                   c == '-' || c == '_';
        }))
        post.language = *code;
}

// Fills `post` from a Message object; throws Malformed and leaves `post` alone on a bad one.
void read_message(const json& message, const std::string& bot, Post& post) {
    if (!message.is_object())
        throw Malformed{"message is not an object"};
    Post read = post;
    const std::int64_t message_id = integer(message, "message_id", "message");
    const json* chat = object(message, "chat", "message");
    if (chat == nullptr)
        throw Malformed{"message.chat is missing"};
    read.channel = channel_of(message, *chat, "message");
    read.message_id = std::to_string(message_id);
    const std::string* type = text_member(*chat, "type", "message.chat");
    read.direct = type != nullptr && *type == "private";

    // Without `from` (a channel's own post) nobody can be told apart: anonymous.
    read.anonymous = true;
    if (const json* from = object(message, "from", "message"))
        read_author(*from, "message.from", read);
    // An anonymous admin or a channel writing as itself: `from` is a shared placeholder.
    if (object(message, "sender_chat", "message") != nullptr)
        read.anonymous = true;

    // A group upgraded to a supergroup has a new id for good. Telegram says so twice, in the
    // old chat (migrate_to_chat_id) and in the new one (migrate_from_chat_id); either moves
    // everything, and the second finds nothing left to move. Nobody wrote it: no text.
    const std::string chat_id = std::to_string(integer(*chat, "id", "message.chat"));
    if (member(message, "migrate_to_chat_id") != nullptr) {
        read.moved =
            ChannelMove{chat_id, std::to_string(integer(message, "migrate_to_chat_id", "message"))};
        post = std::move(read);
        return;
    }
    if (member(message, "migrate_from_chat_id") != nullptr) {
        read.moved = ChannelMove{
            std::to_string(integer(message, "migrate_from_chat_id", "message")), chat_id};
        post = std::move(read);
        return;
    }

    if (const std::string* text = text_member(message, "text", "message")) {
        const std::string checked = telegram_text::valid_utf8(*text);
        if (const json* entities = member(message, "entities"))
            read.mentions = read_mentions(*entities, checked);
        // A command for another bot in the same group is none of ours: chatter.
        read.text = strip_bot_address(checked, bot).value_or(std::string());
        if (read.text.empty())
            read.mentions.clear();
    }
    post = std::move(read);
}

// A callback query id as Telegram writes them (a decimal number in practice): it goes back in
// answerCallbackQuery and into the post's id, so nothing else is taken.
bool valid_callback_id(const std::string& id) {
    return !id.empty() && id.size() <= 64 && std::all_of(id.begin(), id.end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
               c == '_' || c == '-';
    });
}

// Fills `post` from a CallbackQuery (a press of one of our buttons): the presser is the author,
// the channel is the message the button sits under, the text is the button's data. A press
// under a message we cannot place (an inline message, or none) stays an empty post: it is
// answered, and moves the cursor, and nothing else.
void read_callback(const json& query, const std::string& bot, DecodedUpdate& out) {
    if (!query.is_object())
        throw Malformed{"callback_query is not an object"};
    const std::string* id = text_member(query, "id", "callback_query");
    if (id == nullptr || !valid_callback_id(*id))
        throw Malformed{"callback_query.id is missing or malformed"};
    out.callback_id = *id;
    const json* message = object(query, "message", "callback_query");
    const json* from = object(query, "from", "callback_query");
    if (message == nullptr || from == nullptr)
        return;
    const json* chat = object(*message, "chat", "callback_query.message");
    if (chat == nullptr)
        throw Malformed{"callback_query.message.chat is missing"};
    Post read = out.post;
    read.channel = channel_of(*message, *chat, "callback_query.message");
    read.message_id = std::string(callback_prefix) + *id;
    const std::string* type = text_member(*chat, "type", "callback_query.message.chat");
    read.direct = type != nullptr && *type == "private";
    read_author(*from, "callback_query.from", read);
    read.button = true;
    if (const std::string* data = text_member(query, "data", "callback_query"))
        read.text = strip_bot_address(telegram_text::valid_utf8(*data), bot).value_or("");
    out.post = std::move(read);
}

} // namespace

namespace telegram_text {

DecodedUpdate decode_update_value(const json& update, const std::string& bot_username) {
    DecodedUpdate out;
    out.post.platform = "telegram";
    try {
        if (!update.is_object())
            throw Malformed{"the update is not an object"};
        const std::int64_t id = integer(update, "update_id", "update");
        if (id < 0 || id == std::numeric_limits<std::int64_t>::max())
            throw Malformed{"update.update_id is out of range"};
        out.update_id = id;
        out.post.cursor = std::to_string(id + 1);
        // Updates we did not ask for still carry the cursor forward, as chatter.
        out.post.message_id = "update-" + std::to_string(id);
        if (const json* message = member(update, "message")) {
            read_message(*message, bot_username, out.post);
        } else if (const json* query = member(update, "callback_query")) {
            read_callback(*query, bot_username, out);
        } else if (member(update, "edited_message") != nullptr ||
                   member(update, "edited_channel_post") != nullptr) {
            // A move or a command counts as first sent: an edit afterwards neither plays the
            // new text nor takes the old one back, so it is read as nothing at all.
            out.ignored = "an edited message";
        }
    } catch (const Malformed& malformed) {
        out.problem = cap(malformed.why, 200);
    } catch (const std::exception& e) {
        out.problem = cap(telegram_text::valid_utf8(e.what()), 200);
    }
    return out;
}

} // namespace telegram_text

std::optional<std::string> strip_bot_address(const std::string& text, const std::string& bot) {
    if (!text.starts_with('/')) {
        return text;
    }
    const std::size_t word_end = std::min(text.find_first_of(" \t\n"), text.size());
    const std::size_t at = text.find('@');
    if (at == std::string::npos || at > word_end) {
        return text;
    }
    const std::string addressee = text.substr(at + 1, word_end - at - 1);
    if (bot.empty() || lower(addressee) != lower(bot)) {
        return std::nullopt;
    }
    return text.substr(0, at) + text.substr(word_end);
}

DecodedUpdate decode_update(std::string_view update_json, const std::string& bot_username) {
    try {
        const json update = json::parse(telegram_text::readable_json(update_json), nullptr, false);
        if (update.is_discarded()) {
            DecodedUpdate out;
            out.post.platform = "telegram";
            out.problem = "the update is not JSON";
            return out;
        }
        return telegram_text::decode_update_value(update, bot_username);
    } catch (...) {
        // Out of memory, or a nesting deep enough to exhaust the parser: still not a throw.
        DecodedUpdate out;
        out.problem = "the update could not be read";
        return out;
    }
}

} // namespace ghostpost::bot
