// The Telegram adapter over libcurl against the fake Bot API server, which checks every call
// against the published API description.
#include "fake_telegram.h"
#include "ghostpost/telegram/telegram.h"

#include <future>

using namespace ghostpost;
using namespace ghostpost::bot;
using test::FakeTelegram;
using Clock = std::chrono::steady_clock;

namespace {

TelegramOptions options_for(const FakeTelegram& fake) {
    TelegramOptions o;
    o.api_url = fake.url();
    o.token = FakeTelegram::token;
    o.request_timeout = std::chrono::seconds(10);
    return o;
}

} // namespace

TEST_CASE("a long poll waits for its timeout, returns early for a post, and honours the offset",
          "[telegram][fake]") {
    test::TempDir dir;
    FakeTelegram fake(dir);
    CurlHttpClient http;
    TelegramPlatform telegram(http, options_for(fake));

    auto start = Clock::now();
    CHECK(telegram.poll("", std::chrono::seconds(1)).empty());
    CHECK(Clock::now() - start >= std::chrono::milliseconds(900));

    auto later = std::async(std::launch::async, [&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        fake.say(-1001, 7, "alice", "/new@ghostpost_bot chess @bob");
    });
    start = Clock::now();
    const auto posts = telegram.poll("", std::chrono::seconds(10));
    later.get();
    CHECK(Clock::now() - start < std::chrono::seconds(5));
    REQUIRE(posts.size() == 1);
    CHECK(posts[0].text == "/new chess @bob"); // the bot's name came from getMe
    CHECK(posts[0].channel == "-1001");
    CHECK(posts[0].author_handle == "alice");
    CHECK(posts[0].author_name == "alice"); // the fake server's first name is the username
    CHECK(posts[0].cursor == "101");

    // The same cursor gives the same update again; the next one confirms it.
    CHECK(telegram.poll("", std::chrono::seconds(0)).size() == 1);
    CHECK(telegram.poll(posts[0].cursor, std::chrono::seconds(0)).empty());
    CHECK(telegram.poll("", std::chrono::seconds(0)).empty());
    CHECK(fake.violations().empty());
}

TEST_CASE("text and photo replies are accepted by the API description", "[telegram][fake]") {
    test::TempDir dir;
    FakeTelegram fake(dir);
    CurlHttpClient http;
    TelegramPlatform telegram(http, options_for(fake));
    const auto asked = fake.say(-1001, 7, "alice", "!board");

    Reply text;
    text.destination = "-1001";
    text.text = "Board <#3> & \"more\"";
    text.reply_to = std::to_string(asked["message_id"].get<int>());
    CHECK(telegram.send(text).status == Delivery::Status::Sent);

    Reply photo = text;
    photo.png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n', 0, 0, 0, 13};
    CHECK(telegram.send(photo).status == Delivery::Status::Sent);

    CHECK(fake.violations().empty());
    const auto sent = fake.sent();
    REQUIRE(sent.size() == 2);
    CHECK(sent[0]["method"] == "sendMessage");
    CHECK(sent[0]["text"] == "Board <#3> & \"more\"");
    CHECK(sent[0]["reply_to"] == asked["message_id"]);
    CHECK(sent[1]["method"] == "sendPhoto");
    CHECK(sent[1]["photo_is_png"] == true);
    CHECK(sent[1]["photo_bytes"] == 12);
    CHECK(sent[1]["photo_content_type"] == "image/png");
    CHECK(sent[1]["text"] == "Board <#3> & \"more\"");
    CHECK(sent[1]["reply_to"] == asked["message_id"]);
}

TEST_CASE("the fake server refuses a call that does not match the API description",
          "[telegram][fake]") {
    test::TempDir dir;
    FakeTelegram fake(dir);
    CurlHttpClient http;
    HttpRequest request;
    request.url = fake.url() + "/bot" + FakeTelegram::token + "/sendMessage";
    request.body = R"({"chat_id": -5, "text": 12, "reply_to": 3})";
    CHECK(http.post(request).status == 400);
    request.url = fake.url() + "/bot" + FakeTelegram::token + "/sendMesage";
    request.body = R"({"chat_id": -5, "text": "x"})";
    CHECK(http.post(request).status == 400);
    CHECK(fake.violations() == nlohmann::json{"sendMessage.text: 12 is none of ['String']",
                                              "sendMessage.reply_to: no such parameter",
                                              "sendMesage: no such method"});
}

TEST_CASE("the fake server's failures become the right deliveries", "[telegram][fake]") {
    test::TempDir dir;
    FakeTelegram fake(dir);
    CurlHttpClient http;
    TelegramPlatform telegram(http, options_for(fake));
    Reply to_group;
    to_group.destination = "-1001";
    to_group.text = "hello";
    Reply to_user = to_group;
    to_user.to = Reply::To::User;
    to_user.destination = "88";

    CHECK(telegram.send(to_user).status == Delivery::Status::Blocked);
    fake.control("start", {{"user_id", 88}});
    CHECK(telegram.send(to_user).status == Delivery::Status::Sent);

    fake.control("fault", {{"method", "sendMessage"},
                           {"status", 429},
                           {"retry_after", 3},
                           {"count", 1},
                           {"description", "Too Many Requests: retry after 3"}});
    const Delivery limited = telegram.send(to_group);
    CHECK(limited.status == Delivery::Status::RetryAfter);
    CHECK(limited.retry_after == std::chrono::seconds(3));
    // Before the 3 s are over the adapter answers for Telegram, without a call.
    CHECK(telegram.send(to_group).status == Delivery::Status::RetryAfter);
    std::this_thread::sleep_for(std::chrono::milliseconds(3000));

    fake.control("fault", {{"method", "sendMessage"}, {"status", 502}, {"count", 1}});
    CHECK(telegram.send(to_group).status == Delivery::Status::Transient);
    CHECK(telegram.send(to_group).status == Delivery::Status::Sent);
    CHECK(fake.violations().empty());
}

TEST_CASE("a second poller gets 409 and the adapter reports a conflict", "[telegram][fake]") {
    test::TempDir dir;
    FakeTelegram fake(dir);
    CurlHttpClient first_http;
    CurlHttpClient second_http;
    TelegramPlatform first(first_http, options_for(fake));
    TelegramPlatform second(second_http, options_for(fake));
    (void)first.bot_username();
    auto waiting = std::async(std::launch::async, [&] {
        try {
            (void)first.poll("", std::chrono::seconds(5));
        } catch (const PlatformError& e) {
            return e.kind() == PlatformError::Kind::Conflict ? 409 : 1;
        }
        return 0;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    (void)second.poll("", std::chrono::seconds(0));
    CHECK(waiting.get() == 409);
}

TEST_CASE("cancelling the HTTP client ends a long poll at once", "[telegram][fake]") {
    test::TempDir dir;
    FakeTelegram fake(dir);
    CurlHttpClient http;
    TelegramPlatform telegram(http, options_for(fake));
    (void)telegram.bot_username();
    auto canceller = std::async(std::launch::async, [&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        http.cancel();
    });
    const auto start = Clock::now();
    try {
        (void)telegram.poll("", std::chrono::seconds(30));
        FAIL("the poll was not cancelled");
    } catch (const PlatformError& e) {
        CHECK(e.kind() == PlatformError::Kind::Cancelled);
    }
    canceller.get();
    CHECK(Clock::now() - start < std::chrono::seconds(2));
}

TEST_CASE("the fake server is as strict as Telegram with topics, keyboards, presses and menus",
          "[telegram][fake]") {
    test::TempDir dir;
    FakeTelegram fake(dir);
    CurlHttpClient http;
    const auto call = [&](const std::string& method, const nlohmann::json& body) {
        HttpRequest request;
        request.url = fake.url() + "/bot" + FakeTelegram::token + "/" + method;
        request.body = body.dump();
        const HttpResponse response = http.post(request);
        return std::make_pair(response.status, nlohmann::json::parse(response.body));
    };
    // A topic exists once someone wrote in it.
    CHECK(call("sendMessage", {{"chat_id", -1001}, {"message_thread_id", 5}, {"text", "x"}})
              .second["description"] == "Bad Request: message thread not found");
    fake.control("message", {{"chat_id", -1001},
                             {"from_id", 7},
                             {"username", "alice"},
                             {"text", "hi"},
                             {"thread_id", 5}});
    const auto sent = call(
        "sendMessage",
        {{"chat_id", -1001},
         {"message_thread_id", 5},
         {"text", "x"},
         {"reply_markup", {{"inline_keyboard", {{{{"text", "Go"}, {"callback_data", "!go"}}}}}}}});
    REQUIRE(sent.first == 200);
    CHECK(sent.second["result"]["is_topic_message"] == true);

    // A press is answered once, and not with more than 200 characters.
    const auto pressed = fake.control("press", {{"chat_id", -1001},
                                                {"message_id", sent.second["result"]["message_id"]},
                                                {"from_id", 8},
                                                {"username", "bob"},
                                                {"label", "Go"}});
    CHECK(pressed["data"] == "!go");
    const std::string query = pressed["callback_query_id"];
    CHECK(
        call("answerCallbackQuery", {{"callback_query_id", query}, {"text", std::string(201, 'x')}})
            .first == 400);
    CHECK(call("answerCallbackQuery", {{"callback_query_id", query}, {"text", "ok"}}).first == 200);
    CHECK(call("answerCallbackQuery", {{"callback_query_id", query}}).second["description"] ==
          "Bad Request: query is too old and response timeout expired or query ID is invalid");

    CHECK(
        call("sendMessage", {{"chat_id", -1001},
                             {"text", "x"},
                             {"reply_markup",
                              {{"inline_keyboard",
                                {{{{"text", "Long"}, {"callback_data", std::string(65, 'x')}}}}}}}})
            .first == 400);
    CHECK(call("setMyCommands", {{"commands", {{{"command", "Move"}, {"description", "x"}}}}})
              .first == 400);
    CHECK(call("setMyCommands", {{"commands", {{{"command", "move"}, {"description", "Play"}}}}})
              .first == 200);
    CHECK(fake.control("commands")["commands"] ==
          nlohmann::json{{{"command", "move"}, {"description", "Play"}}});
    // A menu per language, under a two-letter ISO 639-1 code only.
    CHECK(call("setMyCommands", {{"commands", {{{"command", "move"}, {"description", "Ziehen"}}}},
                                 {"language_code", "de"}})
              .first == 200);
    CHECK(call("setMyCommands", {{"commands", {{{"command", "move"}, {"description", "Jogar"}}}},
                                 {"language_code", "pt-BR"}})
              .first == 400);
    CHECK(fake.control("commands")["menus"] ==
          nlohmann::json{{"de", {{{"command", "move"}, {"description", "Ziehen"}}}}});
    CHECK(fake.control("commands")["commands"] ==
          nlohmann::json{{{"command", "move"}, {"description", "Play"}}});

    // After an upgrade the old id is refused with the new one.
    fake.control("migrate", {{"chat_id", -1002}, {"new_chat_id", -1009}, {"from_id", 7}});
    const auto refused = call("sendMessage", {{"chat_id", -1002}, {"text", "x"}});
    CHECK(refused.first == 400);
    CHECK(refused.second["parameters"]["migrate_to_chat_id"] == -1009);

    CHECK(fake.violations() ==
          nlohmann::json{"answerCallbackQuery: text longer than 200 characters",
                         "sendMessage: callback_data of 65 bytes (Telegram takes 1-64)",
                         "setMyCommands: bad command name 'Move'",
                         "setMyCommands: language_code 'pt-BR' is not a two-letter ISO 639-1 "
                         "code"});
}

TEST_CASE("the fake Bot API server answers 500 rather than send a field Telegram never sends",
          "[telegram][fake]") {
    test::TempDir dir;
    FakeTelegram fake(dir);
    CurlHttpClient http;
    HttpRequest request;
    request.url = fake.url() + "/bot" + FakeTelegram::token + "/getMe";
    request.timeout = std::chrono::seconds(10);
    CHECK(http.post(request).status == 200);

    fake.control("bad_answer", {{"method", "getMe"}, {"field", "guild_id"}, {"value", "1"}});
    const HttpResponse refused = http.post(request);
    CHECK(refused.status == 500);
    CHECK(
        fake.answer_violations() ==
        std::vector<std::string>{"the fake's answer to getMe.result.guild_id: no such parameter"});
    CHECK(http.post(request).status == 200); // only the next answer carried it
    CHECK(fake.answer_violations().empty());
}

TEST_CASE("the fake Bot API server refuses the token, goes down and comes back on its port",
          "[telegram][fake]") {
    test::TempDir dir;
    FakeTelegram fake(dir);
    CurlHttpClient http;
    TelegramPlatform telegram(http, options_for(fake));
    CHECK(telegram.poll("", std::chrono::seconds(0)).empty());

    fake.refuse_token();
    try {
        (void)telegram.poll("", std::chrono::seconds(0));
        FAIL("a refused token must not poll");
    } catch (const PlatformError& e) {
        CHECK(e.kind() == PlatformError::Kind::Unauthorized);
    }
    fake.refuse_token(false);
    CHECK(telegram.poll("", std::chrono::seconds(0)).empty());

    const std::string before = fake.url();
    fake.go_down();
    try {
        (void)telegram.poll("", std::chrono::seconds(0));
        FAIL("an unreachable server must not poll");
    } catch (const PlatformError& e) {
        CHECK(e.kind() == PlatformError::Kind::Transient);
    }
    fake.come_back();
    CHECK(fake.url() == before);
    fake.say(-1001, 7, "alice", "/pgn");
    const auto posts = telegram.poll("", std::chrono::seconds(5));
    REQUIRE(posts.size() == 1);
    CHECK(posts[0].text == "/pgn");
    CHECK(fake.violations().empty());
}
