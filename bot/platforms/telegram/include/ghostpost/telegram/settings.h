// [platform.telegram] (or [telegram], the form older configurations used): the Bot API's
// address, the bot's token and its pacing.
#pragma once

#include "ghostpost/config/config.h"

#include <chrono>
#include <string>

namespace ghostpost::bot {

struct TelegramSettings {
    std::string api_url = "https://api.telegram.org"; // no trailing slash
    std::string token;                        // secret: from GHOSTPOST_TELEGRAM_TOKEN or token_file
    std::string bot_username;                 // optional; asked with getMe when empty
    std::chrono::seconds poll_timeout{50};    // long-poll wait, 1..50
    std::chrono::seconds request_timeout{15}; // for every call that is not a long poll
    std::chrono::milliseconds per_chat_interval{1000}; // pacing: between two sends to a chat
    int group_messages_per_minute = 20;                // pacing: sends to one group a minute
};

// Reads the table. Throws config::ConfigError naming the key (and line), never quoting the
// token: an unknown key, a bad value, no token, or one not of the form <bot id>:<secret>.
TelegramSettings read_telegram_settings(const config::PlatformTable& table,
                                        const config::Environment& environment);

} // namespace ghostpost::bot
