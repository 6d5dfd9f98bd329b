#include "ghostpost/discord/settings.h"

#include "ghostpost/config/table_reader.h"
#include "ghostpost/discord/discord.h"

#include <algorithm>
#include <cctype>

namespace ghostpost::bot {

DiscordSettings read_discord_settings(const config::PlatformTable& table,
                                      const config::Environment& environment) {
    const config::TableReader reader(table,
                                     {"api_url", "gateway_url", "guild_ids", "token_file",
                                      "poll_timeout", "request_timeout", "per_chat_interval_ms",
                                      "group_messages_per_minute", "message_content", "shards"});
    DiscordSettings discord;
    if (const auto on = reader.boolean("message_content"))
        discord.message_content = *on;
    if (auto url = config::read_http_url(reader, "api_url"))
        discord.api_url = *url;
    if (auto url = reader.string("gateway_url")) {
        if (!url->starts_with("ws://") && !url->starts_with("wss://"))
            reader.fail_at(reader.node("gateway_url"), "gateway_url",
                           "must start with ws:// or wss://");
        discord.gateway_url = *url;
    }
    if (auto ids = reader.strings("guild_ids")) {
        for (const std::string& id : *ids)
            if (id.empty() || id.size() > 20 ||
                !std::all_of(id.begin(), id.end(), [](char c) { return c >= '0' && c <= '9'; }))
                reader.fail_at(reader.node("guild_ids"), "guild_ids",
                               "must be Discord ids (digits only)");
        discord.guild_ids = *ids;
    }
    if (const auto shards = reader.integer("shards")) {
        if (*shards < 0 || *shards > max_discord_shards)
            reader.fail_at(reader.node("shards"), "shards",
                           "must be between 1 and " + std::to_string(max_discord_shards) +
                               ", or 0 for as many as Discord recommends");
        discord.shards = static_cast<int>(*shards);
    }
    config::read_seconds(reader, "poll_timeout", 1, 50, discord.poll_timeout);
    config::read_seconds(reader, "request_timeout", 1, 300, discord.request_timeout);
    config::read_pacing(reader, discord.per_chat_interval, discord.group_messages_per_minute);
    const config::Secret token = config::read_secret(reader, environment, "GHOSTPOST_DISCORD_TOKEN",
                                                     "token_file", "token", false);
    discord.token = token.value;
    // A bot token is three dot-separated base64url parts; whitespace or a "Bot " prefix
    // would only fail later, less clearly.
    const bool shaped =
        discord.token.size() >= 20 &&
        std::count(discord.token.begin(), discord.token.end(), '.') == 2 &&
        std::all_of(discord.token.begin(), discord.token.end(), [](unsigned char c) {
            return std::isalnum(c) != 0 || c == '_' || c == '-' || c == '.';
        });
    if (!shaped)
        reader.fail_unplaced("token_file",
                             "the token in " + token.origin +
                                 " is not a Discord bot token (three parts joined by dots, from "
                                 "the developer portal's Bot page)");
    return discord;
}

} // namespace ghostpost::bot
