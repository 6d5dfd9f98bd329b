// The platform of the benchmarks that run the production loop: it hands out the posts after the
// cursor, 50 at a time, as a platform does (a post the loop could not handle, say because
// another daemon's transaction conflicted with it, comes again), accepts every reply at once and
// paces nothing. Post ids, and so cursors, count from 1.
#pragma once

#include "ghostpost/platform/platform.h"

#include <chrono>
#include <cstddef>
#include <deque>
#include <string>
#include <utility>
#include <vector>

namespace ghostpost::bench {

class FeedPlatform final : public bot::Platform {
public:
    FeedPlatform(std::string name, std::deque<bot::Post> posts)
        : name_(std::move(name)), posts_(std::move(posts)) {}
    std::string name() const override { return name_; }
    std::vector<bot::Post> poll(const std::string& cursor, std::chrono::seconds) override {
        const std::size_t from = cursor.empty() ? 0 : std::stoul(cursor);
        std::vector<bot::Post> out;
        for (std::size_t i = from; i < posts_.size() && out.size() < 50; ++i)
            out.push_back(posts_[i]);
        if (out.empty())
            finished_ = true; // the outbox was delivered just before this poll
        return out;
    }
    bot::Delivery send(const bot::Reply&) override {
        ++sent;
        return {};
    }
    bot::Pacing pacing() const override {
        bot::Pacing unpaced;
        unpaced.per_chat = std::chrono::milliseconds(0);
        unpaced.group_per_minute = 1 << 30;
        return unpaced;
    }
    bool finished() const override { return finished_; }
    int sent = 0;

private:
    std::string name_;
    std::deque<bot::Post> posts_;
    bool finished_ = false;
};

} // namespace ghostpost::bench
