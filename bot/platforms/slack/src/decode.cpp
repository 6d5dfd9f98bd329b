// Slack's Socket Mode frames, message objects and the cursor, read. Everything here is pure: the
// fuzz target links it with the platform boundary alone.
#include "ghostpost/slack/slack.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace ghostpost::bot {

namespace {

using nlohmann::json;

constexpr std::size_t max_name = 64;
constexpr std::size_t max_id = 40;
constexpr std::size_t max_cursor_entries = 500;

std::string string_of(const json& object, const char* key) {
    if (!object.is_object())
        return {};
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// A Slack id (U..., C..., D..., B..., T...): capitals and digits.
bool is_id(const std::string& text) {
    return !text.empty() && text.size() <= max_id &&
           std::all_of(text.begin(), text.end(),
                       [](char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); });
}

bool is_ts(const std::string& text) {
    const auto dot = text.find('.');
    if (text.empty() || text.size() > 32 || dot == 0 || dot == std::string::npos ||
        dot + 1 == text.size())
        return false;
    for (std::size_t i = 0; i < text.size(); ++i)
        if (i != dot && (text[i] < '0' || text[i] > '9'))
            return false;
    return true;
}

// A name as it may be shown: controls become spaces, capped at a character boundary.
std::string display_name(const std::string& text) {
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        std::size_t length = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        length = std::min(length, text.size() - i);
        std::string one = text.substr(i, length);
        if (c < 0x20 || c == 0x7F)
            one = " ";
        if (out.size() + one.size() > max_name)
            break;
        out += one;
        i += length;
    }
    return out;
}

// Slack escapes exactly these three in message text.
std::string unescape(std::string_view text) {
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        if (text.substr(i, 5) == "&amp;") {
            out += '&';
            i += 5;
        } else if (text.substr(i, 4) == "&lt;") {
            out += '<';
            i += 4;
        } else if (text.substr(i, 4) == "&gt;") {
            out += '>';
            i += 4;
        } else {
            out += text[i++];
        }
    }
    return out;
}

// "<@U1>" and "<@U1|name>" become "@U1" with the account; a leading mention of the app goes.
void read_text(const std::string& raw, const SlackIdentity& me, Post& post) {
    std::string text;
    for (std::size_t i = 0; i < raw.size();) {
        if (raw.compare(i, 2, "<@") == 0) {
            const auto close = raw.find('>', i);
            if (close != std::string::npos) {
                const std::string inside = raw.substr(i + 2, close - i - 2);
                const auto bar = inside.find('|');
                const std::string id = inside.substr(0, bar);
                if (is_id(id)) {
                    if (id == me.user_id && text.find_first_not_of(' ') == std::string::npos) {
                        // "@ghostpost !new ..." addresses the app: the command follows.
                        text.clear();
                        i = raw.find_first_not_of(' ', close + 1);
                        if (i == std::string::npos)
                            i = raw.size();
                        continue;
                    }
                    Mention m;
                    m.handle = id;
                    m.user_id = id;
                    if (bar != std::string::npos)
                        m.name = display_name(inside.substr(bar + 1));
                    text += "@" + id;
                    post.mentions.push_back(std::move(m));
                    i = close + 1;
                    continue;
                }
            }
        }
        text += raw[i++];
    }
    post.text = unescape(text);
}

// The address Slack gave for answering a slash command or a press, when it is one.
std::string response_url_of(const json& payload) {
    const std::string url = string_of(payload, "response_url");
    const bool web = url.starts_with("https://") || url.starts_with("http://");
    return web && url.size() <= 500 && url.find_first_of(" \r\n") == std::string::npos
               ? url
               : std::string();
}

Post blank(const std::string& channel, const std::string& user) {
    Post post;
    post.platform = "slack";
    post.channel = channel;
    post.author_id = user;
    post.author_handle = user;
    post.author_name = user;
    post.direct = !channel.empty() && channel.front() == 'D';
    return post;
}

SlackFrame envelope(const json& frame, const SlackIdentity& me, const std::string& prefix) {
    SlackFrame out;
    out.kind = SlackFrame::Kind::Envelope;
    out.envelope_id = string_of(frame, "envelope_id");
    if (out.envelope_id.empty() || out.envelope_id.size() > 200) {
        out.envelope_id.clear();
        out.problem = "an envelope without envelope_id";
        return out;
    }
    const std::string type = string_of(frame, "type");
    const json payload = frame.contains("payload") ? frame["payload"] : json();
    if (type == "events_api") {
        const json event =
            payload.is_object() && payload.contains("event") ? payload["event"] : json();
        const std::string kind = string_of(event, "type");
        if (kind != "message" && kind != "app_mention")
            return out;
        const std::string channel = string_of(event, "channel");
        if (!is_id(channel)) {
            out.problem = "a message event without a channel";
            return out;
        }
        const std::string channel_type = string_of(event, "channel_type");
        const bool direct = channel_type.empty() ? channel.front() == 'D' : channel_type == "im";
        SlackMessage message = decode_slack_message(event.dump(), channel, direct, me);
        out.post = std::move(message.post);
        out.problem = std::move(message.problem);
        return out;
    }
    if (type == "slash_commands") {
        const std::string user = string_of(payload, "user_id");
        const std::string channel = string_of(payload, "channel_id");
        const std::string trigger = string_of(payload, "trigger_id");
        if (!is_id(user) || !is_id(channel) || trigger.empty() || trigger.size() > 100) {
            out.problem = "a slash command without user_id, channel_id or trigger_id";
            return out;
        }
        Post post = blank(channel, user);
        post.message_id = "c" + trigger;
        if (const std::string name = string_of(payload, "user_name"); !name.empty())
            post.author_name = display_name(name);
        // "/ghostpost move e4" is what "!move e4" would have been.
        read_text(string_of(payload, "text"), me, post);
        post.text =
            prefix + post.text.substr(std::min(post.text.find_first_not_of(' '), post.text.size()));
        // Answers for the one who typed it go to its response_url, seen by them alone.
        post.private_answers = true;
        out.response_url = response_url_of(payload);
        out.post = std::move(post);
        return out;
    }
    if (type == "interactive") {
        if (string_of(payload, "type") != "block_actions")
            return out;
        const json user = payload.contains("user") ? payload["user"] : json();
        const json channel = payload.contains("channel") ? payload["channel"] : json();
        const json message = payload.contains("message") ? payload["message"] : json();
        const json actions = payload.contains("actions") ? payload["actions"] : json();
        if (!is_id(string_of(user, "id")) || !is_id(string_of(channel, "id")) ||
            !actions.is_array() || actions.empty() || !actions[0].is_object()) {
            out.problem = "a button press without user, channel or action";
            return out;
        }
        const std::string at = string_of(actions[0], "action_ts");
        const std::string value = string_of(actions[0], "value");
        if (!is_ts(at) || value.empty()) {
            out.problem = "a button press without action_ts or value";
            return out;
        }
        Post post = blank(string_of(channel, "id"), string_of(user, "id"));
        if (const std::string name = string_of(user, "name"); !name.empty())
            post.author_name = display_name(name);
        std::string thread = string_of(message, "thread_ts");
        if (!is_ts(thread))
            thread = string_of(message, "ts");
        post.message_id = "a" + at + (is_ts(thread) ? "@" + thread : std::string());
        post.text = value;
        post.button = true;
        out.response_url = response_url_of(payload);
        out.post = std::move(post);
        return out;
    }
    return out;
}

} // namespace

bool slack_ts_less(const std::string& a, const std::string& b) {
    const auto split = [](const std::string& ts) {
        const auto dot = ts.find('.');
        return std::pair{ts.substr(0, dot), dot == std::string::npos ? "" : ts.substr(dot + 1)};
    };
    const auto [as, af] = split(a);
    const auto [bs, bf] = split(b);
    if (as.size() != bs.size())
        return as.size() < bs.size();
    if (as != bs)
        return as < bs;
    return af.size() != bf.size() ? af.size() < bf.size() : af < bf;
}

std::string slack_thread_of(const std::string& message_id) {
    const auto at = message_id.find('@');
    if (at != std::string::npos)
        return is_ts(message_id.substr(at + 1)) ? message_id.substr(at + 1) : std::string();
    return is_ts(message_id) ? message_id : std::string();
}

SlackMessage decode_slack_message(std::string_view message_json, const std::string& channel,
                                  bool direct, const SlackIdentity& me) {
    SlackMessage out;
    const json message = json::parse(message_json, nullptr, false);
    if (!message.is_object()) {
        out.problem = "not a JSON object";
        return out;
    }
    // A subtype is an edit, a deletion, a join, a bot's message...: nothing to answer. A thread
    // reply also sent to the channel is a person's words all the same.
    const std::string subtype = string_of(message, "subtype");
    if (!subtype.empty() && subtype != "thread_broadcast")
        return out;
    const std::string user = string_of(message, "user");
    if (message.contains("bot_id") && !message["bot_id"].is_null())
        return out;
    if (user == me.user_id && !user.empty())
        return out;
    const std::string ts = string_of(message, "ts");
    if (!is_id(user) || !is_ts(ts) || !message.contains("text") || !message["text"].is_string()) {
        out.problem = "a message without user, ts or text";
        return out;
    }
    Post post = blank(channel, user);
    post.direct = direct;
    const std::string thread = string_of(message, "thread_ts");
    post.message_id = is_ts(thread) && thread != ts ? ts + "@" + thread : ts;
    read_text(message["text"].get<std::string>(), me, post);
    out.post = std::move(post);
    return out;
}

SlackFrame decode_slack_frame(std::string_view frame_json, const SlackIdentity& me,
                              const std::string& command_prefix) {
    const json frame = json::parse(frame_json, nullptr, false);
    SlackFrame out;
    if (!frame.is_object()) {
        out.problem = "not a JSON object";
        return out;
    }
    const std::string type = string_of(frame, "type");
    if (type == "hello") {
        out.kind = SlackFrame::Kind::Hello;
        return out;
    }
    if (type == "disconnect") {
        out.kind = SlackFrame::Kind::Disconnect;
        out.reason = string_of(frame, "reason").substr(0, 64);
        return out;
    }
    if (frame.contains("envelope_id"))
        return envelope(frame, me, command_prefix);
    return out;
}

SlackCursor parse_slack_cursor(const std::string& text) {
    SlackCursor cursor;
    const json value = json::parse(text, nullptr, false);
    if (!value.is_object())
        return cursor;
    for (const auto& [key, ts] : value.items()) {
        const auto at = key.find('@');
        const bool keyed = at == std::string::npos
                               ? is_id(key)
                               : is_id(key.substr(0, at)) && is_ts(key.substr(at + 1));
        if (keyed && ts.is_string() && is_ts(ts.get<std::string>()))
            cursor[key] = ts.get<std::string>();
    }
    return cursor;
}

std::string format_slack_cursor(const SlackCursor& cursor) {
    std::vector<std::pair<std::string, std::string>> newest(cursor.begin(), cursor.end());
    if (newest.size() > max_cursor_entries) {
        std::sort(newest.begin(), newest.end(),
                  [](const auto& a, const auto& b) { return slack_ts_less(b.second, a.second); });
        newest.resize(max_cursor_entries);
    }
    json value = json::object();
    for (const auto& [key, ts] : newest)
        value[key] = ts;
    return value.dump();
}

} // namespace ghostpost::bot
