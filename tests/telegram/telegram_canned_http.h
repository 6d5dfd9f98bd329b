// Test helpers for the Telegram adapter: canned HTTP answers and a clock the test moves.
#pragma once

#include "ghostpost/telegram/telegram.h"

#include <catch2/catch.hpp>
#include <deque>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ghostpost::test {

inline const std::string canned_token = "4242:SECRET_token-value";

// Answers requests in order; status -1 is a timeout, -2 a cancellation.
class CannedHttp final : public bot::HttpClient {
public:
    bot::HttpResponse post(const bot::HttpRequest& request) override {
        requests.push_back(request);
        REQUIRE_FALSE(answers.empty());
        bot::HttpResponse response = answers.front();
        answers.pop_front();
        if (response.status == -1)
            throw bot::HttpError(bot::HttpError::Kind::Timeout, "timed out");
        if (response.status == -2)
            throw bot::HttpError(bot::HttpError::Kind::Cancelled, "cancelled: shutting down");
        return response;
    }
    void answer(long status, const nlohmann::json& body) {
        answers.push_back({status, body.dump()});
    }
    void raw(long status, std::string body) { answers.push_back({status, std::move(body)}); }
    std::deque<bot::HttpResponse> answers;
    std::vector<bot::HttpRequest> requests;
};

// A steady clock that moves only when the test says so.
struct FakeSteady {
    std::chrono::steady_clock::time_point now{std::chrono::hours(1)};
};

inline bot::TelegramOptions canned_options(FakeSteady& clock) {
    bot::TelegramOptions o;
    o.api_url = "http://127.0.0.1:9/";
    o.token = canned_token;
    o.bot_username = "ghostpost_bot";
    o.clock = [&clock] { return clock.now; };
    return o;
}

inline nlohmann::json ok_updates(const nlohmann::json& updates) {
    return {{"ok", true}, {"result", updates}};
}

} // namespace ghostpost::test
