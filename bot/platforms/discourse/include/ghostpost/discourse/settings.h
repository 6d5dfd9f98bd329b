// [platform.discourse]: a forum read by polling its REST API.
#pragma once

#include "ghostpost/config/config.h"

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace ghostpost::bot {

struct DiscourseSettings {
    std::string base_url;                  // "https://forum.example.org", no trailing slash
    std::string username;                  // the bot's account (Api-Username)
    std::string api_key;                   // secret: from GHOSTPOST_DISCOURSE_API_KEY or key_file
    std::vector<std::int64_t> categories;  // ids read in full; empty: mentions and PMs only
    std::chrono::seconds poll_interval{5}; // between two polls that found nothing, 1..300
    std::chrono::seconds request_timeout{15};           // for every request, 1..300
    std::chrono::milliseconds per_topic_interval{1000}; // pacing: between two posts to a topic
};

// Reads the table. Throws config::ConfigError naming the key (and line), never quoting the
// key: an unknown key, a missing or bad value, or no API key.
DiscourseSettings read_discourse_settings(const config::PlatformTable& table,
                                          const config::Environment& environment);

} // namespace ghostpost::bot
