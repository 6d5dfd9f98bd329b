// The fake Bot API server (fake_telegram.py) on a free loopback port.
#pragma once

#include "../support/fake_server.h"

namespace ghostpost::test {

class FakeTelegram : public FakeServer {
public:
    static constexpr const char* token = "4242:FAKE-secret_token_value";

    // The fake exits after `lifetime` seconds however it is used.
    explicit FakeTelegram(const TempDir& dir, int lifetime = 600)
        : FakeServer(dir, "fake",
                     {GHOSTPOST_PYTHON, GHOSTPOST_FAKE_TELEGRAM, "--spec", GHOSTPOST_TELEGRAM_SPEC,
                      "--token", token, "--lifetime", std::to_string(lifetime)}) {}

    // Posts a message as a user; a positive chat id is that user's private chat.
    nlohmann::json say(std::int64_t chat_id, std::int64_t from_id, const std::string& username,
                       const std::string& text) {
        return control(
            "message",
            {{"chat_id", chat_id}, {"from_id", from_id}, {"username", username}, {"text", text}});
    }
};

} // namespace ghostpost::test
