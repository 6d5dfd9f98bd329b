// libFuzzer target: the Discourse post decoder (decode_post) on any bytes, and on a well-formed
// post whose raw text, name and username come from the bytes, so that the mention reader and
// the leading "@bot" are exercised as well as the JSON. It must never throw, and what it passes
// on must keep the adapter's promises: valid UTF-8, capped plain names, handles of Discourse's
// characters, and the post id as the cursor.
#include "ghostpost/discourse/discourse.h"
#include "ghostpost/service/command.h"
#include "invariant.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace {

using ghostpost::bot::decode_post;
using ghostpost::bot::DecodedPost;
using ghostpost::bot::DiscourseOptions;
using ghostpost::bot::valid_utf8;
using ghostpost::fuzz::check;

bool handle_ok(const std::string& handle) {
    return !handle.empty() && handle.size() <= 60 &&
           std::all_of(handle.begin(), handle.end(), [](char c) {
               return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '_' || c == '-' || c == '.';
           });
}

void check_decoded(const DecodedPost& d) {
    check(d.post.platform == "discourse", "the platform is discourse");
    if (!d.problem.empty()) {
        check(!d.id, "a malformed post has no id");
        check(d.problem.size() <= 200 && valid_utf8(d.problem), "the problem is short text");
        check(d.post.text.empty() && d.post.mentions.empty() && d.post.cursor.empty(),
              "a malformed post passes nothing on");
        return;
    }
    check(d.id && *d.id > 0, "a read post has a positive id");
    check(d.post.cursor == std::to_string(*d.id), "the cursor is the post id");
    check(d.post.channel == std::to_string(d.topic_id), "the channel is the topic");
    check(valid_utf8(d.post.text), "the text is valid UTF-8");
    check(d.post.author_name.size() <= 128 && valid_utf8(d.post.author_name) &&
              std::none_of(d.post.author_name.begin(), d.post.author_name.end(),
                           [](char c) { return static_cast<unsigned char>(c) < 0x20; }),
          "the author's name is capped, valid and plain");
    check(d.post.mentions.size() <= 64, "mentions are capped");
    for (const auto& m : d.post.mentions)
        check(handle_ok(m.handle), "a mention is a username", m.handle);
    check(!(d.own && d.readable), "the bot's own posts are never read");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    DiscourseOptions options;
    options.username = "ghostpost";
    options.categories = {5};
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    check_decoded(decode_post(bytes, options, false));

    // A well-formed post: 2 bytes choose the category and the author, the rest is the text.
    if (size < 2)
        return 0;
    using nlohmann::json;
    const std::string rest(bytes.substr(2));
    const json post = {{"id", 100 + data[0]},
                       {"topic_id", 7},
                       {"post_number", 3},
                       {"user_id", static_cast<int>(data[1]) - 2},
                       {"username", data[1] % 2 == 0 ? std::string("ghostpost") : rest},
                       {"name", rest},
                       {"category_id", data[0] % 8},
                       {"raw", rest}};
    const DecodedPost d =
        decode_post(post.dump(-1, ' ', false, json::error_handler_t::replace), options, false);
    check_decoded(d);
    check(d.id == 100 + data[0], "a well-formed post keeps its id");
    return 0;
}
