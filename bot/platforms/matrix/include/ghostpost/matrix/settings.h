// [platform.matrix]: the bot is a regular account on a homeserver.
#pragma once

#include "ghostpost/config/config.h"

#include <chrono>
#include <string>
#include <vector>

namespace ghostpost::bot {

struct MatrixSettings {
    std::string homeserver_url;            // required; no trailing slash
    std::string user_id;                   // required: the bot's account, "@ghostpost:example.org"
    bool join_any = true;                  // auto_join = "all": every invite is followed
    std::vector<std::string> join_servers; // auto_join = [...]: invites to rooms of these servers
    std::string token;                     // secret: from GHOSTPOST_MATRIX_TOKEN or token_file
    std::chrono::seconds poll_timeout{30}; // /sync long-poll wait, 1..120
    std::chrono::seconds request_timeout{30};          // for every call that is not a long poll
    std::chrono::milliseconds per_chat_interval{1000}; // pacing: between two sends to a room
    int group_messages_per_minute = 20;                // pacing: sends to one room a minute
};

// Reads the table. Throws config::ConfigError naming the key (and line), never quoting the
// token: an unknown key, a missing or bad value, no token, or one with spaces.
MatrixSettings read_matrix_settings(const config::PlatformTable& table,
                                    const config::Environment& environment);

} // namespace ghostpost::bot
