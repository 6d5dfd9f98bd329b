// libFuzzer target: the Telegram update decoder (decode_update) on any bytes, on a well-formed
// message whose text and entity come from the bytes, so that the UTF-16 offsets are exercised
// as well as the JSON, and on a button press in a forum topic whose data and topic come from the
// bytes. It must never throw, and what it passes on must keep the adapter's promises: valid
// UTF-8, capped names, handles of [A-Za-z0-9_], a cursor after the id, channels that are a chat
// id or "<chat id>/<topic id>".
#include "ghostpost/service/command.h"
#include "ghostpost/telegram/telegram.h"
#include "invariant.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace {

using ghostpost::bot::decode_update;
using ghostpost::bot::DecodedUpdate;
using ghostpost::bot::valid_utf8;

using ghostpost::fuzz::check;

bool handle_or_empty(const std::string& handle) {
    return handle.size() <= 32 && std::all_of(handle.begin(), handle.end(), [](char c) {
               return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '_';
           });
}

bool name_ok(const std::string& name) {
    return name.size() <= 128 && valid_utf8(name) &&
           std::none_of(name.begin(), name.end(),
                        [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7F; });
}

bool integer_or_empty(const std::string& id) {
    return id.size() <= 20 &&
           (id.empty() || id == "0" || (id.find_first_not_of("-0123456789") == std::string::npos));
}

// A chat id, or a chat id and a positive topic id: "-100123/42".
bool channel_or_empty(const std::string& channel) {
    const auto slash = channel.find('/');
    if (slash == std::string::npos)
        return integer_or_empty(channel);
    const std::string topic = channel.substr(slash + 1);
    return slash > 0 && integer_or_empty(channel.substr(0, slash)) && !topic.empty() &&
           topic[0] != '0' && topic.find_first_not_of("0123456789") == std::string::npos;
}

void check_decoded(const DecodedUpdate& d) {
    check(d.post.platform == "telegram", "the platform is telegram");
    if (d.update_id) {
        check(*d.update_id >= 0, "an update id is not negative");
        check(d.post.cursor == std::to_string(*d.update_id + 1), "the cursor follows the id");
    } else {
        check(d.post.cursor.empty(), "no id, no cursor");
    }
    if (!d.problem.empty()) {
        check(d.problem.size() <= 200 && valid_utf8(d.problem), "the problem is short text");
        check(d.post.text.empty() && d.post.mentions.empty() && d.post.channel.empty() &&
                  d.post.author_id.empty(),
              "a malformed update passes nothing on");
    }
    check(valid_utf8(d.post.text), "the text is valid UTF-8");
    check(name_ok(d.post.author_name), "the author's name is capped, valid and plain");
    check(handle_or_empty(d.post.author_handle), "the author's handle is a username");
    check(channel_or_empty(d.post.channel), "the channel is a chat, or a chat and a topic");
    if (d.post.moved) {
        check(d.post.text.empty(), "a move is nobody's words");
        check(!d.post.moved->from.empty() && integer_or_empty(d.post.moved->from) &&
                  !d.post.moved->to.empty() && integer_or_empty(d.post.moved->to),
              "a move is from one chat id to another");
    }
    if (d.post.button) {
        check(d.post.message_id == "callback:" + d.callback_id, "a press is its query's post");
        check(!d.post.channel.empty() && !d.post.author_id.empty(),
              "a press has a place and a presser");
    }
    check(d.callback_id.size() <= 64 &&
              d.callback_id.find_first_not_of(
                  "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-") ==
                  std::string::npos,
          "a query id goes back to Telegram as it came");
    check(integer_or_empty(d.post.author_id), "the author id is an integer");
    check(d.post.mentions.size() <= 64, "mentions are capped");
    if (d.post.text.empty())
        check(d.post.mentions.empty(), "no text, no mentions");
    for (const auto& m : d.post.mentions) {
        check(handle_or_empty(m.handle), "a mention's handle is a username");
        check(name_ok(m.name), "a mention's name is capped, valid and plain");
        check(integer_or_empty(m.user_id), "a mention's user id is an integer");
        check(!m.handle.empty() || !m.user_id.empty(), "a mention names someone");
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    check_decoded(decode_update(bytes, "ghostpost_bot"));

    // A well-formed message: 4 bytes choose the entity, the rest is the text and a name.
    if (size < 4)
        return 0;
    using nlohmann::json;
    const std::string rest(bytes.substr(4));
    const json entity = {{"type", data[2] % 2 == 0 ? "mention" : "text_mention"},
                         {"offset", data[0] % 64},
                         {"length", data[1] % 64},
                         {"user", {{"id", data[3]}, {"is_bot", false}, {"first_name", rest}}}};
    const json update = {
        {"update_id", 1},
        {"message",
         {{"message_id", 2},
          {"date", 0},
          {"chat", {{"id", -100}, {"type", "supergroup"}}},
          {"from", {{"id", 3}, {"is_bot", false}, {"first_name", rest}, {"username", rest}}},
          {"text", rest},
          {"entities", json::array({entity})}}}};
    const std::string text = update.dump(-1, ' ', false, json::error_handler_t::replace);
    const DecodedUpdate d = decode_update(text, "ghostpost_bot");
    check_decoded(d);
    check(d.update_id == 1, "a well-formed update keeps its id");

    // A press under the bot's message in a topic: the data is the rest, the topic a byte.
    const json press = {{"update_id", 5},
                        {"callback_query",
                         {{"id", "77"},
                          {"from", {{"id", 8}, {"is_bot", false}, {"first_name", rest}}},
                          {"chat_instance", "1"},
                          {"data", rest},
                          {"message",
                           {{"message_id", 2},
                            {"date", 0},
                            {"chat", {{"id", -100}, {"type", "supergroup"}, {"is_forum", true}}},
                            {"message_thread_id", static_cast<int>(data[0]) - 8},
                            {"is_topic_message", data[1] % 2 == 0},
                            {"text", "board"}}}}}};
    const DecodedUpdate p =
        decode_update(press.dump(-1, ' ', false, json::error_handler_t::replace), "ghostpost_bot");
    check_decoded(p);
    check(p.callback_id == "77", "every press is answerable");
    return 0;
}
