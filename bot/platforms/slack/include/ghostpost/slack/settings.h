// [platform.slack]: Socket Mode in, the Web API out.
#pragma once

#include "ghostpost/config/config.h"

#include <chrono>
#include <string>

namespace ghostpost::bot {

struct SlackSettings {
    std::string api_url = "https://slack.com/api"; // no trailing slash
    // Secrets: the bot token (xoxb-) from GHOSTPOST_SLACK_BOT_TOKEN or bot_token_file speaks the
    // Web API; the app-level token (xapp-, scope connections:write) from GHOSTPOST_SLACK_APP_TOKEN
    // or app_token_file opens Socket Mode.
    std::string bot_token;
    std::string app_token;
    std::chrono::seconds poll_timeout{30};    // how long one poll waits for Socket Mode, 1..50
    std::chrono::seconds request_timeout{15}; // for every Web API call
    // pacing: Slack allows chat.postMessage about one message a second per channel
    std::chrono::milliseconds per_chat_interval{1000};
    int group_messages_per_minute = 50;
};

// Reads the table. Throws config::ConfigError naming the key (and line), never quoting a token:
// an unknown key, a bad value, a missing token, or one not shaped like its kind.
SlackSettings read_slack_settings(const config::PlatformTable& table,
                                  const config::Environment& environment);

} // namespace ghostpost::bot
