// [platform.discord]: the Gateway in, REST out.
#pragma once

#include "ghostpost/config/config.h"

#include <chrono>
#include <string>
#include <vector>

namespace ghostpost::bot {

struct DiscordSettings {
    std::string api_url = "https://discord.com/api/v10"; // no trailing slash
    std::string gateway_url;                  // ws:// or wss://; empty: asked with GET /gateway/bot
    std::vector<std::string> guild_ids;       // guilds for slash commands; empty: global
    bool message_content = true;              // ask for the privileged Message Content intent
    std::string token;                        // secret: from GHOSTPOST_DISCORD_TOKEN or token_file
    std::chrono::seconds poll_timeout{30};    // how long one poll waits for the Gateway, 1..50
    std::chrono::seconds request_timeout{15}; // for every REST call
    std::chrono::milliseconds per_chat_interval{1000}; // pacing: between two sends to a channel
    int group_messages_per_minute = 50;                // pacing: sends to one channel a minute
    // Gateway shards: 1..4096, or 0 for as many as GET /gateway/bot recommends. Every daemon of
    // the bot must count the same.
    int shards = 1;
};

// Reads the table. Throws config::ConfigError naming the key (and line), never quoting the
// token: an unknown key, a bad value, no token, or one not shaped like a bot token.
DiscordSettings read_discord_settings(const config::PlatformTable& table,
                                      const config::Environment& environment);

} // namespace ghostpost::bot
