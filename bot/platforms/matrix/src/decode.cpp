// Reading one Matrix client event as a Post.
#include "ghostpost/matrix/matrix.h"
#include "matrix_decode.h"
#include "matrix_text.h"

namespace ghostpost::bot {

namespace {

using nlohmann::json;

constexpr std::size_t max_name_bytes = 128;
constexpr std::size_t max_mentions = 64;  // more in one post is not a command
constexpr std::size_t max_id_bytes = 255; // the spec's limit for user, room and event ids

const json* member(const json& object, const char* key) {
    if (!object.is_object())
        return nullptr;
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

std::string string_at(const json& object, const char* key) {
    const json* value = member(object, key);
    return value != nullptr && value->is_string() ? value->get<std::string>() : std::string();
}

} // namespace

std::string server_of(std::string_view id) {
    const auto colon = id.find(':');
    return colon == std::string_view::npos ? std::string() : std::string(id.substr(colon + 1));
}

namespace matrix_decode {

DecodedEvent decode_event_value(const json& event, const std::string& room_id,
                                const std::string& own_user_id) {
    DecodedEvent out;
    if (!event.is_object()) {
        out.problem = "an event that is not an object";
        return out;
    }
    if (string_at(event, "type") != "m.room.message")
        return out;
    const std::string sender = string_at(event, "sender");
    const std::string event_id = string_at(event, "event_id");
    if (sender == own_user_id)
        return out; // the bot's own message, echoed back
    if (sender.empty() || !sender.starts_with('@') || sender.size() > max_id_bytes ||
        event_id.empty() || event_id.size() > max_id_bytes) {
        out.problem = "a message without a usable sender or event id";
        return out;
    }
    const json* content = member(event, "content");
    if (content == nullptr || !content->is_object())
        return out; // redacted
    if (string_at(*content, "msgtype") != "m.text")
        return out; // notices (other bots), emotes, images, files
    const json* relates = member(*content, "m.relates_to");
    if (relates != nullptr && string_at(*relates, "rel_type") == "m.replace")
        return out; // an edit: a move is never changed after the fact
    const json* body = member(*content, "body");
    if (body == nullptr || !body->is_string()) {
        out.problem = "a text message without a body";
        return out;
    }

    Post post;
    post.platform = "matrix";
    post.channel = room_id;
    post.message_id = matrix_text::valid_utf8(event_id);
    post.author_id = matrix_text::valid_utf8(sender);
    post.author_handle = post.author_id.substr(1);
    post.author_name =
        matrix_text::display_name(sender.substr(1, sender.find(':') - 1), max_name_bytes);
    std::string text = body->get<std::string>();
    if (relates != nullptr && member(*relates, "m.in_reply_to") != nullptr)
        text = matrix_text::without_reply_fallback(text);
    post.text = std::move(text); // the service itself refuses text that is not UTF-8

    // Pills first (the client knew whom it meant), then full ids typed in the body.
    std::vector<std::string> ids;
    if (const json* mentions = member(*content, "m.mentions")) {
        if (const json* users = member(*mentions, "user_ids"); users && users->is_array())
            for (const json& id : *users)
                if (id.is_string() && id.get<std::string>().starts_with('@'))
                    ids.push_back(id.get<std::string>());
    }
    for (auto& id : matrix_text::user_ids_in(post.text))
        ids.push_back(std::move(id));
    for (const std::string& id : ids) {
        if (post.mentions.size() >= max_mentions || id.size() > max_id_bytes)
            break;
        const std::string clean = matrix_text::valid_utf8(id);
        const bool seen = std::any_of(post.mentions.begin(), post.mentions.end(),
                                      [&](const Mention& m) { return m.user_id == clean; });
        if (!seen && clean != own_user_id)
            post.mentions.push_back({clean.substr(1), clean, ""});
    }
    out.post = std::move(post);
    return out;
}

} // namespace matrix_decode

DecodedEvent decode_event(std::string_view event_json, const std::string& room_id,
                          const std::string& own_user_id) {
    try {
        return matrix_decode::decode_event_value(matrix_text::parse(event_json), room_id,
                                                 own_user_id);
    } catch (const std::exception& e) {
        DecodedEvent out;
        out.problem = std::string("unreadable event: ") + e.what();
        return out;
    }
}

} // namespace ghostpost::bot
