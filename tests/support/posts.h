// Posts as the tests write them: a console channel's line, with its cursor.
#pragma once

#include "ghostpost/platform/platform.h"

#include <string>

namespace ghostpost::testing {

// Post `id` of `user` (their id, name and handle alike) in channel "lobby" of the console,
// its cursor its id.
inline bot::Post lobby_post(const std::string& id, const std::string& user,
                            const std::string& text) {
    bot::Post p;
    p.platform = "console";
    p.channel = "lobby";
    p.message_id = id;
    p.author_id = p.author_name = p.author_handle = user;
    p.text = text;
    p.cursor = id;
    return p;
}

} // namespace ghostpost::testing
