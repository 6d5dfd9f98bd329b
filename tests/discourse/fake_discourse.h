// The fake Discourse forum (fake_discourse.py) on a free loopback port, driven through its
// /control/ endpoints. The child process and temporary directory helpers are the Telegram
// tests'.
#pragma once

#include "../telegram/fake_telegram.h"

namespace ghostpost::test {

class FakeDiscourse {
public:
    static constexpr const char* key = "d1sc0urse-FAKE-api-key-0123456789abcdef";
    static constexpr const char* bot = "ghostpost";

    explicit FakeDiscourse(const TempDir& dir)
        : out_(dir.path() / "fake.out"),
          child_({GHOSTPOST_PYTHON, GHOSTPOST_FAKE_DISCOURSE, "--spec", GHOSTPOST_DISCOURSE_SPEC,
                  "--key", key, "--username", bot, "--port", "0", "--lifetime", "600"},
                 out_, dir.path() / "fake.err") {
        const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (port_ == 0 && std::chrono::steady_clock::now() < end) {
            const std::string text = read_file(out_);
            if (text.starts_with("PORT ") && text.find('\n') != std::string::npos)
                port_ = std::stoi(text.substr(5));
            else
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        REQUIRE(port_ != 0);
    }

    std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

    nlohmann::json control(const std::string& command,
                           const nlohmann::json& args = nlohmann::json::object()) {
        bot::HttpRequest request;
        request.url = url() + "/control/" + command;
        request.body = args.dump();
        request.timeout = std::chrono::seconds(10);
        const auto response = http_.post(request);
        REQUIRE(response.status == 200);
        return nlohmann::json::parse(response.body);
    }

    // A post by `username`: in topic `topic` when given, else the first post of a new topic
    // in `category`. Returns {id, topic_id, post_number}.
    nlohmann::json say(const std::string& username, const std::string& raw,
                       std::int64_t topic = 0, std::int64_t category = 5) {
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

    nlohmann::json sent() { return control("sent")["sent"]; }
    nlohmann::json violations() { return control("violations")["violations"]; }

private:
    std::filesystem::path out_;
    Child child_;
    int port_ = 0;
    bot::CurlHttpClient http_;
};

} // namespace ghostpost::test
