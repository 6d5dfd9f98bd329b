// The fake Slack (fake_slack.mjs: the Web API and Socket Mode) on a free loopback port, driven
// through its /control/ endpoints.
#pragma once

#include "../support/fake_server.h"
#include "ghostpost/slack/slack.h"

namespace ghostpost::slack_test {

using test::Child;
using test::read_file;
using test::TempDir;

template <typename Predicate> bool eventually(Predicate done, std::chrono::milliseconds limit) {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < end) {
        if (done())
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return done();
}

class FakeSlack : public test::FakeServer {
public:
    static constexpr const char* bot_token = "xoxb-1111111111-2222222222-FAKEbotTOKENvalue";
    static constexpr const char* app_token = "xapp-1-AFAKEAPP01-3333333333-fakeapptokenvalue";
    static constexpr const char* bot_user = "UGHOSTBOT1";

    explicit FakeSlack(const TempDir& dir)
        : FakeServer(dir, "fake",
                     {GHOSTPOST_NODE, GHOSTPOST_FAKE_SLACK, "--spec", GHOSTPOST_SLACK_SPEC,
                      "--bot-token", bot_token, "--app-token", app_token, "--lifetime", "600"}) {}

    std::string api_url() const { return url() + "/api"; }

    // A person posts in a channel (in `thread` when given); returns the message's ts.
    std::string say(const std::string& channel, const std::string& user, const std::string& text,
                    const std::string& thread = {}) {
        nlohmann::json args = {{"channel", channel}, {"user", user}, {"text", text}};
        if (!thread.empty())
            args["thread_ts"] = thread;
        return control("say", args)["ts"].get<std::string>();
    }
    // A person writes to the app in their DM.
    std::string dm(const std::string& user, const std::string& text) {
        return control("say", {{"dm", true}, {"user", user}, {"text", text}})["ts"]
            .get<std::string>();
    }

    nlohmann::json stats() { return control("stats"); }
};

// The adapter's options for the fake: its address and tokens, a short request timeout.
inline bot::SlackOptions options_for(const FakeSlack& fake) {
    bot::SlackOptions options;
    options.api_url = fake.api_url();
    options.bot_token = FakeSlack::bot_token;
    options.app_token = FakeSlack::app_token;
    options.request_timeout = std::chrono::seconds(5);
    return options;
}

// Polls until `count` posts came (or 10 s passed), carrying the cursor forward like the daemon.
inline std::vector<bot::Post> poll_for(bot::SlackPlatform& platform, std::string& cursor,
                                       std::size_t count,
                                       std::chrono::seconds limit = std::chrono::seconds(10)) {
    std::vector<bot::Post> posts;
    const auto end = std::chrono::steady_clock::now() + limit;
    while (posts.size() < count && std::chrono::steady_clock::now() < end) {
        for (auto& post : platform.poll(cursor, std::chrono::seconds(1))) {
            cursor = post.cursor;
            posts.push_back(std::move(post));
        }
    }
    return posts;
}

} // namespace ghostpost::slack_test
