// libFuzzer target: the Slack Socket Mode frame decoder (decode_slack_frame: events, slash
// commands, button presses), the message decoder of the catch-up, and the cursor reader, on any
// bytes. None may throw; what they pass on keeps the adapter's promises: Slack ids of capitals
// and digits, message ids the reply's thread can be read from, the app's own messages dropped,
// names without control characters.
#include "ghostpost/slack/slack.h"
#include "invariant.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

namespace {

using ghostpost::fuzz::check;

const ghostpost::bot::SlackIdentity me{"UGHOSTBOT1", "BGHOSTBOT1"};

bool slack_id(const std::string& id) {
    return !id.empty() && id.size() <= 40 && std::all_of(id.begin(), id.end(), [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    });
}

bool ts(const std::string& text) {
    const auto dot = text.find('.');
    return dot != std::string::npos && dot > 0 && dot + 1 < text.size() &&
           std::all_of(text.begin(), text.end(),
                       [](char c) { return c == '.' || (c >= '0' && c <= '9'); });
}

bool plain(const std::string& name) {
    return name.size() <= 64 && std::none_of(name.begin(), name.end(), [](char c) {
               return static_cast<unsigned char>(c) < 0x20 || c == 0x7F;
           });
}

void check_post(const ghostpost::bot::Post& post) {
    check(post.platform == "slack", "the platform is slack");
    check(slack_id(post.channel) && slack_id(post.author_id), "ids are Slack ids");
    check(post.author_id != me.user_id, "the app's own messages are dropped");
    check(plain(post.author_name), "names are plain and capped");
    const std::string& id = post.message_id;
    const std::string own = id.substr(0, id.find('@'));
    check(ts(own) || (own.size() > 1 && (own.front() == 'c' || own.front() == 'a')),
          "a message id is a ts, a command's trigger or a press's action");
    if (id.find('@') != std::string::npos)
        check(ghostpost::bot::slack_thread_of(id) == id.substr(id.find('@') + 1),
              "a message id names its thread");
    for (const auto& m : post.mentions)
        check(slack_id(m.user_id) && m.handle == m.user_id && plain(m.name),
              "a mention names an account");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    const auto frame = ghostpost::bot::decode_slack_frame(bytes, me, "!");
    if (frame.post) {
        check(frame.problem.empty(), "a post has no problem");
        check(frame.kind == ghostpost::bot::SlackFrame::Kind::Envelope, "a post has an envelope");
        check(!frame.envelope_id.empty(), "an envelope is acknowledged by its id");
        check_post(*frame.post);
    }
    check(frame.reason.size() <= 64, "a disconnect's reason is capped");
    const auto message = ghostpost::bot::decode_slack_message(bytes, "CGAMES0001", false, me);
    if (message.post) {
        check(message.problem.empty(), "a post has no problem");
        check_post(*message.post);
    }
    const auto cursor = ghostpost::bot::parse_slack_cursor(bytes);
    for (const auto& [key, last] : cursor)
        check(slack_id(key.substr(0, key.find('@'))) && ts(last), "the cursor holds ids and ts");
    const auto again =
        ghostpost::bot::parse_slack_cursor(ghostpost::bot::format_slack_cursor(cursor));
    check(again.size() == std::min<std::size_t>(cursor.size(), 500), "the cursor reads back");
    return 0;
}
