// What a chat client offers besides text (service_chat.cpp): a press of a button checked, and a
// channel that moves to a new id. Private to the service.
#pragma once

#include "ghostpost/service/command.h"
#include "handler.h"
#include "replies.h"

#include <string>
#include <vector>

namespace ghostpost::bot {

// Runs a post that says the channel moved to a new id: everything kept under the old id
// follows it, and the new channel is told which games and tournaments did.
void move_channel(PostParts& run, const ChannelMove& move);
// True, after answering, when a press of a button asks for something no button of ours offers:
// only answers to challenges, draw offers and resignations come from buttons.
bool refuse_foreign_button(PostParts& run, const std::optional<Command>& c);

} // namespace ghostpost::bot
