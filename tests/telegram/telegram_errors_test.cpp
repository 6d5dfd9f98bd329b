// How the adapter reports Telegram's failures: neutral PlatformErrors from poll, Deliveries
// from send, never the token, never a wall of text, retry_after honoured to the second.
#include "telegram_canned_http.h"

using namespace ghostpost::bot;
using namespace ghostpost::test;
using nlohmann::json;
using namespace std::chrono_literals;

namespace {

Reply to_chat(const std::string& destination) {
    Reply reply;
    reply.destination = destination;
    reply.text = "Game #1: e4";
    return reply;
}

// The PlatformError a poll throws; fails the test when it throws nothing.
PlatformError poll_error(TelegramPlatform& telegram) {
    try {
        (void)telegram.poll("10", 1s);
    } catch (const PlatformError& e) {
        return e;
    }
    FAIL("the poll did not throw");
    return PlatformError(PlatformError::Kind::Transient, "");
}

json refusal(int code, const std::string& description) {
    return {{"ok", false}, {"error_code", code}, {"description", description}};
}

} // namespace

TEST_CASE("a 400 that echoes the URL never carries the token into a delivery or an error",
          "[telegram][errors]") {
    FakeSteady clock;
    CannedHttp http;
    TelegramPlatform telegram(http, canned_options(clock));
    const std::string echo = "Bad Request: can't parse http://127.0.0.1:9/bot" + canned_token +
                             "/sendMessage (bot4242%3ASECRET_token-value; SECRET_token-value)";
    http.answer(400, refusal(400, echo));
    const Delivery refused = telegram.send(to_chat("-5"));
    CHECK(refused.status == Delivery::Status::Failed);
    CHECK(refused.detail == "sendMessage: 400 Bad Request: can't parse http://127.0.0.1:9/bot"
                            "[redacted]/sendMessage (bot[redacted]; [redacted])");

    http.answer(400, refusal(400, echo));
    const PlatformError e = poll_error(telegram);
    CHECK(e.kind() == PlatformError::Kind::Transient);
    CHECK(std::string(e.what()).find("SECRET") == std::string::npos);
    CHECK(std::string(e.what()).starts_with("getUpdates: 400 Bad Request: can't parse "));
}

TEST_CASE("a 100 KB description is capped in the delivery and in the error", "[telegram][errors]") {
    FakeSteady clock;
    CannedHttp http;
    TelegramPlatform telegram(http, canned_options(clock));
    const std::string wall = "Bad Request: " + std::string(100 * 1024, 'w');
    http.answer(400, refusal(400, wall));
    const Delivery refused = telegram.send(to_chat("-5"));
    CHECK(refused.status == Delivery::Status::Failed);
    CHECK(refused.detail.size() <= 200);
    CHECK(refused.detail.starts_with("sendMessage: 400 Bad Request: www"));
    CHECK(refused.detail.ends_with("w\xE2\x80\xA6"));

    http.answer(500, refusal(500, wall));
    CHECK(std::string(poll_error(telegram).what()).size() <= 200);
}

TEST_CASE("a non-JSON 429 or 404 and a truncated 200 are retried like a 5xx",
          "[telegram][errors]") {
    FakeSteady clock;
    CannedHttp http;
    TelegramPlatform telegram(http, canned_options(clock));
    http.raw(429, "<html><body>Too Many Requests</body></html>");
    http.raw(404, "Not Found");
    http.raw(200, "{\"ok\":true,\"result\":{\"message_id\":4");
    http.raw(502, "");
    for (const char* status : {"429", "404", "200", "502"}) {
        const Delivery d = telegram.send(to_chat("-5"));
        CHECK(d.status == Delivery::Status::Transient);
        CHECK(d.detail == std::string("sendMessage: HTTP ") + status + " without a Bot API answer");
    }
    for (const char* body : {"<html>429</html>", "Not Found", "{\"ok\":true,\"result\":[{\"upd"}) {
        http.raw(std::string(body).starts_with("{") ? 200 : 429, body);
        const PlatformError e = poll_error(telegram);
        CHECK(e.kind() == PlatformError::Kind::Transient);
    }
}

TEST_CASE("a 7 s retry_after is never retried before 7 s, on a fake clock", "[telegram][errors]") {
    FakeSteady clock;
    CannedHttp http;
    TelegramPlatform telegram(http, canned_options(clock));
    http.answer(429, {{"ok", false},
                      {"error_code", 429},
                      {"description", "Too Many Requests: retry after 7"},
                      {"parameters", {{"retry_after", 7}}}});
    const Delivery limited = telegram.send(to_chat("-5"));
    CHECK(limited.status == Delivery::Status::RetryAfter);
    CHECK(limited.retry_after == 7s);
    CHECK(http.requests.size() == 1);

    // The outbox counts whole seconds and may come back 0.7 s early: no call, one more second.
    clock.now += 6300ms;
    const Delivery early = telegram.send(to_chat("-5"));
    CHECK(early.status == Delivery::Status::RetryAfter);
    CHECK(early.retry_after == 1s);
    CHECK(http.requests.size() == 1);

    // Another chat is not held up.
    http.answer(200, {{"ok", true}, {"result", {{"message_id", 1}}}});
    CHECK(telegram.send(to_chat("-6")).status == Delivery::Status::Sent);
    CHECK(http.requests.size() == 2);

    clock.now += 699ms;
    CHECK(telegram.send(to_chat("-5")).retry_after == 1s);
    CHECK(http.requests.size() == 2);
    clock.now += 1ms;
    http.answer(200, {{"ok", true}, {"result", {{"message_id", 2}}}});
    CHECK(telegram.send(to_chat("-5")).status == Delivery::Status::Sent);
    CHECK(http.requests.size() == 3);
}

TEST_CASE("a 429 on getUpdates holds polling for exactly its retry_after", "[telegram][errors]") {
    FakeSteady clock;
    CannedHttp http;
    TelegramPlatform telegram(http, canned_options(clock));
    http.answer(429, {{"ok", false},
                      {"error_code", 429},
                      {"description", "Too Many Requests: retry after 7"},
                      {"parameters", {{"retry_after", 7}}}});
    const PlatformError limited = poll_error(telegram);
    CHECK(limited.kind() == PlatformError::Kind::RateLimited);
    CHECK(limited.retry_after() == 7000ms);
    CHECK(std::string(limited.what()) == "getUpdates: 429 Too Many Requests: retry after 7");

    clock.now += 6300ms;
    const PlatformError early = poll_error(telegram);
    CHECK(early.kind() == PlatformError::Kind::RateLimited);
    CHECK(early.retry_after() == 700ms);
    CHECK(http.requests.size() == 1);

    clock.now += 700ms;
    http.answer(200, ok_updates(json::array()));
    CHECK(telegram.poll("10", 1s).empty());
    CHECK(http.requests.size() == 2);
}

TEST_CASE("poll failures are platform errors of the right kind", "[telegram][errors]") {
    FakeSteady clock;
    CannedHttp http;
    TelegramPlatform telegram(http, canned_options(clock));
    const auto kind_of = [&](long status, const json& body) {
        http.answer(status, body);
        return poll_error(telegram).kind();
    };
    using Kind = PlatformError::Kind;
    CHECK(kind_of(409, refusal(409, "Conflict: terminated by other getUpdates request")) ==
          Kind::Conflict);
    CHECK(kind_of(401, refusal(401, "Unauthorized")) == Kind::Unauthorized);
    CHECK(kind_of(404, refusal(404, "Not Found")) == Kind::Unauthorized);
    CHECK(kind_of(502, refusal(502, "Bad Gateway")) == Kind::Transient);
    CHECK(kind_of(200, {{"ok", true}, {"result", {{"not", "an array"}}}}) == Kind::Transient);
    CHECK(kind_of(200, {{"ok", "yes"}}) == Kind::Transient);
    CHECK(kind_of(500, {{"ok", false}, {"error_code", "x"}, {"description", 5}}) ==
          Kind::Transient);
    http.raw(-1, "");
    const PlatformError timeout = poll_error(telegram);
    CHECK(timeout.kind() == Kind::Transient);
    CHECK(std::string(timeout.what()) == "getUpdates: timed out");
    http.raw(-2, "");
    CHECK(poll_error(telegram).kind() == Kind::Cancelled);

    // getMe is one of the bot's methods too: a refused token is the operator's to fix.
    auto unnamed = canned_options(clock);
    unnamed.bot_username.clear();
    TelegramPlatform fresh(http, unnamed);
    http.answer(401, refusal(401, "Unauthorized"));
    CHECK(poll_error(fresh).kind() == Kind::Unauthorized);
}

TEST_CASE("send maps every answer to a delivery and only cancellation throws",
          "[telegram][errors]") {
    FakeSteady clock;
    CannedHttp http;
    TelegramPlatform telegram(http, canned_options(clock));
    http.answer(401, refusal(401, "Unauthorized"));
    CHECK(telegram.send(to_chat("-5")).status == Delivery::Status::Transient);
    http.answer(200, {{"ok", false}, {"error_code", json::array()}});
    CHECK(telegram.send(to_chat("-5")).status == Delivery::Status::Failed);
    http.raw(-2, "");
    try {
        (void)telegram.send(to_chat("-5"));
        FAIL("no exception");
    } catch (const PlatformError& e) {
        CHECK(e.kind() == PlatformError::Kind::Cancelled);
    }
}

TEST_CASE("Telegram's pacing and its groups", "[telegram]") {
    FakeSteady clock;
    CannedHttp http;
    TelegramPlatform telegram(http, canned_options(clock));
    CHECK(telegram.pacing().per_chat == 1000ms);
    CHECK(telegram.pacing().group_per_minute == 20);
    CHECK(telegram.is_group("-100123"));
    CHECK(telegram.is_group("-5"));
    CHECK(telegram.is_group("@ghostpost_news"));
    CHECK_FALSE(telegram.is_group("77"));
}
