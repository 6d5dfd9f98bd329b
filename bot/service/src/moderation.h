// Moderators: !mod, bans, and the audit log of what moderators and organisers did
// (service_mod.cpp). Private to the service.
#pragma once

#include "handler.h"
#include "replies.h"

#include <string>
#include <vector>

namespace ghostpost::bot {

void cmd_mod(PostParts& run, const Args& args);
// True when the author is banned, on this platform or on any account linked to theirs; the
// post then gets no reply at all.
bool refuse_banned(PostContext& ctx);
// Writes a moderator's (or organiser's) action to the audit log, in the post's transaction.
void mod_log(PostContext& ctx, const std::string& action);
// Says `text` in the game's channels, and where the command was posted when that is elsewhere.
void announce(PostContext& ctx, Replies& out, const storage::GameRecord& g, const Text& text);

} // namespace ghostpost::bot
