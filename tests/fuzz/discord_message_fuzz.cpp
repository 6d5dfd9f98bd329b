// libFuzzer target: the Discord message decoder (decode_message), the slash command reader
// (decode_interaction) on any bytes, and the cursor reader. None may throw; what the decoder passes
// on keeps the adapter's promises: ids of digits, "<@id>" read only from the mentions array, names
// without control characters.
#include "ghostpost/discord/discord.h"
#include "invariant.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

namespace {

using ghostpost::fuzz::check;

bool digits(const std::string& id) {
    return !id.empty() && id.size() <= 20 &&
           std::all_of(id.begin(), id.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool plain(const std::string& name) {
    return name.size() <= 64 && std::none_of(name.begin(), name.end(), [](char c) {
               return static_cast<unsigned char>(c) < 0x20 || c == 0x7F;
           });
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    const auto decoded = ghostpost::bot::decode_message(bytes, "900000000000000001");
    if (decoded.post) {
        const auto& post = *decoded.post;
        check(decoded.problem.empty(), "a post has no problem");
        check(post.platform == "discord", "the platform is discord");
        check(digits(post.message_id) && digits(post.channel) && digits(post.author_id),
              "ids are snowflakes");
        check(post.author_id != "900000000000000001", "the bot's own messages are dropped");
        check(plain(post.author_name) && plain(post.author_handle), "names are plain and capped");
        for (const auto& m : post.mentions)
            check(digits(m.user_id) && !m.handle.empty() && plain(m.handle) && plain(m.name),
                  "a mention names an account");
    }
    const auto command = ghostpost::bot::decode_interaction(bytes, "900000000000000001");
    if (command.post) {
        const auto& post = *command.post;
        check(command.problem.empty() && post.message_id == command.id && !command.token.empty(),
              "a command is its interaction");
        check(digits(post.channel) && digits(post.author_id), "ids are snowflakes");
        check(post.text.starts_with("!") &&
                  std::none_of(post.text.begin(), post.text.end(),
                               [](char c) { return c == '\n' || c == '\r'; }),
              "a command is one line of a !command");
        for (const auto& m : post.mentions)
            check(digits(m.user_id) && !m.handle.empty(), "a user option names an account");
    }
    const auto cursor = ghostpost::bot::parse_discord_cursor(bytes);
    for (const auto& [channel, id] : cursor)
        check(digits(channel) && digits(id), "the cursor holds snowflakes only");
    const auto again =
        ghostpost::bot::parse_discord_cursor(ghostpost::bot::format_discord_cursor(cursor));
    check(again.size() == std::min<std::size_t>(cursor.size(), 500), "the cursor reads back");
    return 0;
}
