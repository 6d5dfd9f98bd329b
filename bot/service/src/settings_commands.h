// What a player asks about or sets for themselves: !rules, !help, !settings and !channel
// (service_settings.cpp, service_digest.cpp). Private to the service.
#pragma once

#include "handler.h"
#include "replies.h"

#include <string>
#include <vector>

namespace ghostpost::bot {

void cmd_rules(PostParts& run, const Args& args);
void cmd_help(PostParts& run, const Args& args);
void cmd_settings(PostParts& run, const Args& args);
void cmd_channel(PostParts& run, const Args& args);
// "digest=..." of !settings: applies the value to `digest`; false when it cannot be read.
bool digest_setting(PostParts& run, const std::string& value,
                    std::optional<storage::DigestRecord>& digest);

} // namespace ghostpost::bot
