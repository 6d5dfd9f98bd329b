// One player, several platforms: !link, !invite and !join (service_link.cpp). Private to the
// service.
#pragma once

#include "handler.h"

#include <string>
#include <vector>

namespace ghostpost::bot {

void cmd_link(PostParts& run, const Args& args);
void cmd_invite(PostParts& run, const Args& args);
void cmd_join(PostParts& run, const Args& args);

} // namespace ghostpost::bot
