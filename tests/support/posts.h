// Posts as the tests write them: a console channel's line, with its cursor.
#pragma once

#include "ghostpost/platform/platform.h"

#include <chrono>
#include <string>
#include <utility>
#include <vector>

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

// A platform that gives its posts in one poll, then is finished; replies go nowhere, unpaced.
class OnePollPlatform final : public bot::Platform {
public:
    explicit OnePollPlatform(std::vector<bot::Post> posts) : posts_(std::move(posts)) {}
    std::string name() const override { return "console"; }
    std::vector<bot::Post> poll(const std::string&, std::chrono::seconds) override {
        polled_ = true;
        return posts_;
    }
    bot::Delivery send(const bot::Reply&) override { return {}; }
    bot::Pacing pacing() const override {
        bot::Pacing unpaced;
        unpaced.per_chat = std::chrono::milliseconds(0);
        return unpaced;
    }
    bool finished() const override { return polled_; }

private:
    std::vector<bot::Post> posts_;
    bool polled_ = false;
};

} // namespace ghostpost::testing
