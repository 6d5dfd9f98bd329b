// The Telegram adapter against canned HTTP answers: what it sends, how it reads updates, and
// how each answer becomes a Delivery.
#include "ghostpost/telegram/telegram.h"

#include <catch2/catch.hpp>
#include <deque>
#include <nlohmann/json.hpp>

using namespace ghostpost::bot;
using nlohmann::json;

namespace {

const std::string token = "4242:SECRET_token-value";

class CannedHttp final : public HttpClient {
public:
    HttpResponse post(const HttpRequest& request) override {
        requests.push_back(request);
        REQUIRE_FALSE(answers.empty());
        HttpResponse response = answers.front();
        answers.pop_front();
        if (response.status == -1) {
            throw HttpError(HttpError::Kind::Timeout, "timed out");
        }
        return response;
    }
    void answer(long status, const json& body) { answers.push_back({status, body.dump()}); }
    std::deque<HttpResponse> answers;
    std::vector<HttpRequest> requests;
};

// Moved by hand, so that a 429's retry_after does not hold a test up.
std::chrono::steady_clock::time_point adapter_now{std::chrono::hours(1)};

TelegramOptions options() {
    TelegramOptions o;
    o.api_url = "http://127.0.0.1:9/";
    o.token = token;
    o.bot_username = "ghostpost_bot";
    o.clock = [] { return adapter_now; };
    return o;
}

json message_update(std::int64_t update_id, std::int64_t chat, const std::string& type,
                    std::int64_t message_id, const std::string& text) {
    return {
        {"update_id", update_id},
        {"message",
         {{"message_id", message_id},
          {"date", 1700000000},
          {"chat", {{"id", chat}, {"type", type}}},
          {"from", {{"id", 77}, {"is_bot", false}, {"first_name", "Alice"}, {"username", "alice"}}},
          {"text", text}}}};
}

} // namespace

TEST_CASE("getUpdates is a long poll from the cursor for messages and button presses only",
          "[telegram]") {
    CannedHttp http;
    TelegramPlatform telegram(http, options());
    http.answer(200, {{"ok", true}, {"result", json::array()}});
    CHECK(telegram.poll("1001", std::chrono::seconds(50)).empty());
    REQUIRE(http.requests.size() == 1);
    CHECK(http.requests[0].url == "http://127.0.0.1:9/bot" + token + "/getUpdates");
    CHECK(http.requests[0].content_type == "application/json");
    CHECK(json::parse(http.requests[0].body) ==
          json{{"offset", 1001},
               {"timeout", 50},
               {"allowed_updates", {"message", "callback_query"}}});
    CHECK(http.requests[0].timeout == std::chrono::seconds(65));
}

TEST_CASE("updates become posts with their cursor, author and chat kind", "[telegram]") {
    CannedHttp http;
    TelegramPlatform telegram(http, options());
    http.answer(200, {{"ok", true},
                      {"result",
                       {message_update(500, -100123, "supergroup", 31, "/move@GhostPost_Bot e4"),
                        message_update(7, 77, "private", 2, "e4"),
                        {{"update_id", 8}, {"edited_message", json::object()}},
                        message_update(9, -100123, "group", 32, "/new@other_bot chess")}}});
    const auto posts = telegram.poll("", std::chrono::seconds(1));
    REQUIRE(posts.size() == 4);
    CHECK(json::parse(http.requests[0].body).contains("offset") == false);

    CHECK(posts[0].platform == "telegram");
    CHECK(posts[0].channel == "-100123");
    CHECK(posts[0].message_id == "31");
    CHECK(posts[0].author_id == "77");
    CHECK(posts[0].author_handle == "alice");
    CHECK(posts[0].author_name == "Alice"); // for display only
    CHECK(posts[0].text == "/move e4");
    CHECK_FALSE(posts[0].direct);
    CHECK(posts[0].cursor == "501");

    // Telegram may jump ids downwards after a quiet week: the order is Telegram's, unfiltered.
    CHECK(posts[1].direct);
    CHECK(posts[1].channel == "77");
    CHECK(posts[1].cursor == "8");

    CHECK(posts[2].text.empty());
    CHECK(posts[2].message_id == "update-8");
    CHECK(posts[2].cursor == "9");

    CHECK(posts[3].text.empty()); // addressed to another bot
    CHECK(posts[3].cursor == "10");
}

TEST_CASE("the bot's username is asked with getMe once when not configured", "[telegram]") {
    CannedHttp http;
    auto o = options();
    o.bot_username.clear();
    TelegramPlatform telegram(http, o);
    http.answer(
        200,
        {{"ok", true},
         {"result",
          {{"id", 4242}, {"is_bot", true}, {"first_name", "G"}, {"username", "ghostpost_bot"}}}});
    http.answer(
        200, {{"ok", true}, {"result", {message_update(1, 5, "group", 3, "/new@ghostpost_bot")}}});
    http.answer(200, {{"ok", true}, {"result", json::array()}});
    CHECK(telegram.poll("", std::chrono::seconds(1)).at(0).text == "/new");
    CHECK(telegram.poll("2", std::chrono::seconds(1)).empty());
    REQUIRE(http.requests.size() == 3);
    CHECK(http.requests[0].url.ends_with("/getMe"));
    CHECK(http.requests[2].url.ends_with("/getUpdates"));
}

TEST_CASE("a poll error names the method and the code, never the token", "[telegram]") {
    CannedHttp http;
    TelegramPlatform telegram(http, options());
    http.answer(409, {{"ok", false},
                      {"error_code", 409},
                      {"description", "Conflict: terminated by other getUpdates request"}});
    try {
        (void)telegram.poll("", std::chrono::seconds(1));
        FAIL("no exception");
    } catch (const PlatformError& e) {
        CHECK(e.kind() == PlatformError::Kind::Conflict);
        CHECK(std::string(e.what()) ==
              "getUpdates: 409 Conflict: terminated by other getUpdates request");
    }
    http.answers.push_back({502, "<html>Bad Gateway</html>"});
    CHECK_THROWS_WITH(telegram.poll("", std::chrono::seconds(1)),
                      "getUpdates: HTTP 502 without a Bot API answer");
}

TEST_CASE("a text reply is a JSON sendMessage replying to the post", "[telegram]") {
    CannedHttp http;
    TelegramPlatform telegram(http, options());
    http.answer(200, {{"ok", true}, {"result", {{"message_id", 40}}}});
    Reply reply;
    reply.destination = "-100123";
    reply.text = "Illegal move \"Ke9\" <no such square> & more";
    reply.reply_to = "31";
    const Delivery delivery = telegram.send(reply);
    CHECK(delivery.status == Delivery::Status::Sent);
    REQUIRE(http.requests.size() == 1);
    CHECK(http.requests[0].url.ends_with("/sendMessage"));
    CHECK(json::parse(http.requests[0].body) ==
          json{{"chat_id", -100123},
               {"text", "Illegal move \"Ke9\" <no such square> & more"},
               {"reply_parameters", {{"message_id", 31}, {"allow_sending_without_reply", true}}}});
}

TEST_CASE("a PNG reply is a multipart sendPhoto with a caption", "[telegram]") {
    CannedHttp http;
    TelegramPlatform telegram(http, options());
    http.answer(200, {{"ok", true}, {"result", {{"message_id", 41}}}});
    Reply reply;
    reply.to = Reply::To::User;
    reply.destination = "77";
    reply.text = "Your view";
    reply.png = {0x89, 'P', 'N', 'G'};
    reply.reply_to = "31"; // a channel message: not a reply in the private chat
    CHECK(telegram.send(reply).status == Delivery::Status::Sent);
    const HttpRequest& request = http.requests.at(0);
    CHECK(request.url.ends_with("/sendPhoto"));
    REQUIRE(request.parts.size() == 3);
    CHECK(request.parts[0].name == "chat_id");
    CHECK(request.parts[0].content == "77");
    CHECK(request.parts[1].name == "photo");
    CHECK(request.parts[1].filename == "board.png");
    CHECK(request.parts[1].content_type == "image/png");
    CHECK(request.parts[1].content == std::string("\x89PNG"));
    CHECK(request.parts[2].name == "caption");
    CHECK(request.parts[2].content == "Your view");
}

TEST_CASE("a reply longer than a message goes as several, split at line breaks", "[telegram]") {
    CannedHttp http;
    TelegramPlatform telegram(http, options());
    for (int i = 0; i < 3; ++i) {
        http.answer(200, {{"ok", true}, {"result", {{"message_id", 50 + i}}}});
    }
    // 700 numbered lines: about 9 KB, so three messages.
    std::string history;
    for (int i = 0; i < 700; ++i) {
        history += (i ? "\n" : "") + std::to_string(i + 1) + ". Nf3 Nf6";
    }
    Reply reply;
    reply.destination = "-100123";
    reply.text = history;
    reply.reply_to = "31";
    CHECK(telegram.send(reply).status == Delivery::Status::Sent);
    REQUIRE(http.requests.size() == 3);
    std::string joined;
    for (std::size_t i = 0; i < http.requests.size(); ++i) {
        const json body = json::parse(http.requests[i].body);
        const std::string text = body["text"].get<std::string>();
        CHECK(text.size() <= 4096);
        CHECK_FALSE(text.ends_with("\n"));
        CHECK(text.ends_with(" Nf3 Nf6")); // every cut falls between two lines
        // Only the first piece answers the post.
        CHECK(body.contains("reply_parameters") == (i == 0));
        joined += (i ? "\n" : "") + text;
    }
    CHECK(joined == history);
}

TEST_CASE("a long code block is split into whole-line blocks and stops at the first failure",
          "[telegram]") {
    CannedHttp http;
    TelegramPlatform telegram(http, options());
    http.answer(200, {{"ok", true}, {"result", {{"message_id", 60}}}});
    http.answer(429, {{"ok", false},
                      {"error_code", 429},
                      {"description", "Too Many Requests"},
                      {"parameters", {{"retry_after", 7}}}});
    std::string pgn;
    for (int i = 0; i < 400; ++i) {
        pgn += "[Note \"<" + std::to_string(i) + "> & more\"]\n";
    }
    Reply reply;
    reply.destination = "-100123";
    reply.text = "The game in PGN:";
    reply.code = pgn;
    const Delivery delivery = telegram.send(reply);
    CHECK(delivery.status == Delivery::Status::RetryAfter);
    CHECK(delivery.retry_after == std::chrono::seconds(7));
    REQUIRE(http.requests.size() == 2); // the text, then the first block failed: no more
    CHECK(json::parse(http.requests[0].body)["text"] == "The game in PGN:");
    const json second = json::parse(http.requests[1].body);
    const std::string block = second["text"].get<std::string>();
    CHECK(second["parse_mode"] == "HTML");
    CHECK(block.size() <= 4096);
    CHECK(block.starts_with("<pre>[Note \"&lt;0&gt; &amp; more\"]\n"));
    CHECK(block.ends_with("more\"]</pre>"));
}

TEST_CASE("a caption too long for a photo sends the image alone and the words after it",
          "[telegram]") {
    CannedHttp http;
    TelegramPlatform telegram(http, options());
    http.answer(200, {{"ok", true}, {"result", {{"message_id", 70}}}});
    http.answer(200, {{"ok", true}, {"result", {{"message_id", 71}}}});
    Reply reply;
    reply.destination = "-100123";
    reply.text = std::string(1500, 'x');
    reply.png = {0x89, 'P', 'N', 'G'};
    reply.reply_to = "31";
    CHECK(telegram.send(reply).status == Delivery::Status::Sent);
    REQUIRE(http.requests.size() == 2);
    CHECK(http.requests[0].url.ends_with("/sendPhoto"));
    for (const auto& part : http.requests[0].parts) {
        CHECK(part.name != "caption");
    }
    CHECK(http.requests[1].url.ends_with("/sendMessage"));
    const json body = json::parse(http.requests[1].body);
    CHECK(body["text"] == std::string(1500, 'x'));
    CHECK_FALSE(body.contains("reply_parameters")); // the photo answered the post
}

TEST_CASE("answers from Telegram become deliveries", "[telegram]") {
    CannedHttp http;
    TelegramPlatform telegram(http, options());
    Reply to_user;
    to_user.to = Reply::To::User;
    to_user.destination = "77";
    to_user.text = "psst";
    Reply to_group = to_user;
    to_group.to = Reply::To::Channel;
    to_group.destination = "-5";

    http.answer(429, {{"ok", false},
                      {"error_code", 429},
                      {"description", "Too Many Requests: retry after 7"},
                      {"parameters", {{"retry_after", 7}}}});
    const Delivery limited = telegram.send(to_group);
    CHECK(limited.status == Delivery::Status::RetryAfter);
    CHECK(limited.retry_after == std::chrono::seconds(7));
    CHECK(limited.detail == "sendMessage: 429 Too Many Requests: retry after 7");
    adapter_now += std::chrono::seconds(7);

    http.answer(403, {{"ok", false},
                      {"error_code", 403},
                      {"description", "Forbidden: bot can't initiate conversation with a user"}});
    CHECK(telegram.send(to_user).status == Delivery::Status::Blocked);

    http.answer(403, {{"ok", false},
                      {"error_code", 403},
                      {"description", "Forbidden: bot was kicked from the group chat"}});
    CHECK(telegram.send(to_group).status == Delivery::Status::Failed);

    http.answer(500,
                {{"ok", false}, {"error_code", 500}, {"description", "Internal Server Error"}});
    CHECK(telegram.send(to_group).status == Delivery::Status::Transient);

    http.answers.push_back({-1, ""});
    const Delivery timed_out = telegram.send(to_group);
    CHECK(timed_out.status == Delivery::Status::Transient);
    CHECK(timed_out.detail == "sendMessage: timed out");

    http.answer(
        400,
        {{"ok", false}, {"error_code", 400}, {"description", "Bad Request: message is too long"}});
    const Delivery refused = telegram.send(to_group);
    CHECK(refused.status == Delivery::Status::Failed);
    CHECK(refused.detail == "sendMessage: 400 Bad Request: message is too long");
}

TEST_CASE("commands addressed to a bot are kept only for this bot", "[telegram]") {
    CHECK(strip_bot_address("/move@ghostpost_bot Nf3", "ghostpost_bot") == "/move Nf3");
    CHECK(strip_bot_address("/board@GHOSTPOST_BOT", "ghostpost_bot") == "/board");
    CHECK(strip_bot_address("/move@other_bot Nf3", "ghostpost_bot") == std::nullopt);
    CHECK(strip_bot_address("/move Nf3 @bob", "ghostpost_bot") == "/move Nf3 @bob");
    CHECK(strip_bot_address("e4 mail@x.org", "ghostpost_bot") == "e4 mail@x.org");
}

TEST_CASE("HTML escaping covers the three characters Telegram parses", "[telegram]") {
    CHECK(escape_html("a<b & c>d \"q\"") == "a&lt;b &amp; c&gt;d \"q\"");
}
