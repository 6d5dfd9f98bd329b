// The fake Discourse forum (fake_discourse.py) on a free loopback port, driven through its
// /control/ endpoints.
#pragma once

#include "../support/fake_server.h"

namespace ghostpost::test {

class FakeDiscourse : public FakeServer {
public:
    static constexpr const char* key = "d1sc0urse-FAKE-api-key-0123456789abcdef";
    static constexpr const char* bot = "ghostpost";

    explicit FakeDiscourse(const TempDir& dir)
        : FakeServer(dir, "fake",
                     {GHOSTPOST_PYTHON, GHOSTPOST_FAKE_DISCOURSE, "--spec",
                      GHOSTPOST_DISCOURSE_SPEC, "--key", key, "--username", bot, "--lifetime",
                      "600"}) {}

    // A post by `username`: in topic `topic` when given, else the first post of a new topic
    // in `category`. Returns {id, topic_id, post_number}.
    nlohmann::json say(const std::string& username, const std::string& raw, std::int64_t topic = 0,
                       std::int64_t category = 5) {
        nlohmann::json args = {{"username", username}, {"raw", raw}};
        if (topic != 0)
            args["topic_id"] = topic;
        else
            args["category_id"] = category;
        return control("post", args);
    }

    // A private message from `username` to the bot: a new PM topic, or one more post in `topic`.
    nlohmann::json whisper(const std::string& username, const std::string& raw,
                           std::int64_t topic = 0) {
        nlohmann::json args = {{"username", username}, {"raw", raw}, {"private", true}};
        if (topic != 0)
            args["topic_id"] = topic;
        return control("post", args);
    }
};

} // namespace ghostpost::test
