// libFuzzer target: the Matrix event decoder (decode_event) on any bytes, and on a well-formed
// text message whose body, sender and mentions come from the bytes. It must never throw, and
// what it passes on must keep the adapter's promises: valid UTF-8, a capped name, ids that are
// Matrix ids, mentions that name someone.
#include "ghostpost/matrix/matrix.h"
#include "ghostpost/service/command.h"
#include "invariant.h"

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace {

using ghostpost::bot::decode_event;
using ghostpost::bot::DecodedEvent;
using ghostpost::bot::valid_utf8;
using ghostpost::fuzz::check;

const std::string room = "!room:example.org";
const std::string bot = "@ghostpost:example.org";

void check_decoded(const DecodedEvent& d) {
    check(d.problem.size() <= 300 && valid_utf8(d.problem), "the problem is short text");
    if (!d.post)
        return;
    const auto& p = *d.post;
    check(p.platform == "matrix" && p.channel == room, "the post is of this room");
    check(p.author_id.starts_with('@') && p.author_id != bot, "a person wrote it, not the bot");
    check(p.author_id.size() <= 255 && valid_utf8(p.author_id), "the author id is an id");
    check(p.author_handle == p.author_id.substr(1), "the handle is the id without '@'");
    check(p.author_name.size() <= 128 && valid_utf8(p.author_name), "the name is capped");
    check(!p.message_id.empty() && p.message_id.size() <= 255 && valid_utf8(p.message_id),
          "the event id is the message id");
    check(p.cursor.empty(), "the decoder sets no cursor");
    check(p.mentions.size() <= 64, "mentions are capped");
    for (const auto& m : p.mentions) {
        check(m.user_id.starts_with('@') && m.user_id != bot, "a mention names someone else");
        check(m.handle == m.user_id.substr(1) && valid_utf8(m.user_id), "a mention is an id");
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    check_decoded(decode_event(bytes, room, bot));

    // A well-formed message: the first byte chooses the shape, the rest is the body and ids.
    if (size < 1)
        return 0;
    using nlohmann::json;
    const std::string rest(bytes.substr(1));
    json content = {{"msgtype", data[0] % 5 == 0 ? "m.notice" : "m.text"}, {"body", rest}};
    if (data[0] % 3 == 0)
        content["m.mentions"] = {{"user_ids", json::array({"@" + rest, rest, bot})}};
    if (data[0] % 7 == 0)
        content["m.relates_to"] = {{"m.in_reply_to", {{"event_id", "$" + rest}}}};
    const json event = {{"type", "m.room.message"},
                        {"event_id", "$e1:example.org"},
                        {"sender", data[0] % 2 == 0 ? "@" + rest : "@alice:example.org"},
                        {"origin_server_ts", 0},
                        {"content", content}};
    check_decoded(
        decode_event(event.dump(-1, ' ', false, json::error_handler_t::replace), room, bot));
    return 0;
}
