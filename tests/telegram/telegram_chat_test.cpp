// Telegram beyond plain text, against canned answers: forum topics, buttons and their presses,
// a group's upgrade to a supergroup, edited messages, text mentions of players without a
// username, the privacy flag of getMe and the menu of commands.
#include "../storage/temp_path.h"
#include "ghostpost/app/daemon.h"
#include "ghostpost/log/log.h"
#include "ghostpost/service/service.h"
#include "telegram_canned_http.h"

#include <iostream>
#include <sstream>

using namespace ghostpost;
using namespace ghostpost::bot;
using namespace ghostpost::test;
using nlohmann::json;
using namespace std::chrono_literals;

namespace {

json user(std::int64_t id, const std::string& first, const std::string& username = "") {
    json u = {{"id", id}, {"is_bot", false}, {"first_name", first}};
    if (!username.empty())
        u["username"] = username;
    return u;
}

json topic_message(std::int64_t message_id, std::int64_t thread, const std::string& text) {
    return {{"message_id", message_id},
            {"date", 1700000000},
            {"chat", {{"id", -100123}, {"type", "supergroup"}, {"is_forum", true}}},
            {"message_thread_id", thread},
            {"is_topic_message", true},
            {"from", user(77, "Alice", "alice")},
            {"text", text}};
}

json press(const std::string& id, const json& message, const std::string& data) {
    return {{"id", id},
            {"from", user(88, "Bob", "bob")},
            {"message", message},
            {"chat_instance", "-4242"},
            {"data", data}};
}

DecodedUpdate decode(const json& update) {
    return decode_update(update.dump(), "ghostpost_bot");
}

json ok(const json& result = true) {
    return {{"ok", true}, {"result", result}};
}

json refusal(int code, const std::string& description) {
    return {{"ok", false}, {"error_code", code}, {"description", description}};
}

// A log sink for one test, given back to standard error at the end.
struct CapturedLog {
    CapturedLog() { log::set_sink(lines); }
    ~CapturedLog() { log::set_sink(std::cerr); }
    std::ostringstream lines;
};

} // namespace

TEST_CASE("a message in a forum topic is in the channel <chat>/<topic>; a reply thread is not",
          "[telegram][topics]") {
    const DecodedUpdate in_topic =
        decode({{"update_id", 10}, {"message", topic_message(5, 42, "e4")}});
    CHECK(in_topic.problem.empty());
    CHECK(in_topic.post.channel == "-100123/42");
    CHECK(in_topic.post.message_id == "5");
    CHECK(in_topic.post.text == "e4");

    // In a supergroup without topics, message_thread_id is the thread of a chain of replies.
    json reply = topic_message(6, 42, "e4");
    reply.erase("is_topic_message");
    CHECK(decode({{"update_id", 11}, {"message", reply}}).post.channel == "-100123");

    json broken = topic_message(7, 0, "e4");
    const DecodedUpdate bad = decode({{"update_id", 12}, {"message", broken}});
    CHECK(bad.problem == "message.message_thread_id is out of range");
    CHECK(bad.post.text.empty());
    CHECK(bad.post.cursor == "13");
}

TEST_CASE("a press of a button is a post of the presser, in the topic of the message it is under",
          "[telegram][buttons]") {
    const DecodedUpdate pressed =
        decode({{"update_id", 20},
                {"callback_query", press("9001", topic_message(5, 42, "x"), "!accept 3")}});
    CHECK(pressed.problem.empty());
    CHECK(pressed.callback_id == "9001");
    CHECK(pressed.post.button);
    CHECK(pressed.post.channel == "-100123/42");
    CHECK(pressed.post.message_id == "callback:9001");
    CHECK(pressed.post.author_id == "88"); // the presser, not the message's author
    CHECK(pressed.post.author_handle == "bob");
    CHECK(pressed.post.text == "!accept 3");
    CHECK_FALSE(pressed.post.direct);
    CHECK(pressed.post.cursor == "21");

    // The data is read like typed text: a command for this bot loses its address, one for
    // another bot is nothing.
    CHECK(decode({{"update_id", 21},
                  {"callback_query",
                   press("9002", topic_message(5, 42, "x"), "/accept@GhostPost_bot 3")}})
              .post.text == "/accept 3");
    CHECK(decode(
              {{"update_id", 22},
               {"callback_query", press("9003", topic_message(5, 42, "x"), "/accept@other_bot 3")}})
              .post.text.empty());

    // A press under a message we cannot place is only answered.
    json inline_press = press("9004", json(), "!accept 3");
    inline_press.erase("message");
    inline_press["inline_message_id"] = "AAE";
    const DecodedUpdate unplaced = decode({{"update_id", 23}, {"callback_query", inline_press}});
    CHECK(unplaced.problem.empty());
    CHECK(unplaced.callback_id == "9004");
    CHECK(unplaced.post.author_id.empty());
    CHECK(unplaced.post.text.empty());
    CHECK_FALSE(unplaced.post.button);

    // A query id that could not go back to Telegram as it came is no press at all.
    const DecodedUpdate odd =
        decode({{"update_id", 24},
                {"callback_query", press("90 05", topic_message(5, 42, "x"), "!accept 3")}});
    CHECK(odd.problem == "callback_query.id is missing or malformed");
    CHECK(odd.callback_id.empty());
    CHECK(odd.post.text.empty());
}

TEST_CASE("a group's upgrade to a supergroup is a post saying the channel moved, read from either "
          "notice",
          "[telegram][migration]") {
    const json from = user(77, "Alice", "alice");
    json notice = {{"message_id", 9},
                   {"date", 1700000000},
                   {"chat", {{"id", -123}, {"type", "group"}}},
                   {"from", from},
                   {"migrate_to_chat_id", -100999}};
    const DecodedUpdate old_side = decode({{"update_id", 30}, {"message", notice}});
    REQUIRE(old_side.post.moved);
    CHECK(old_side.post.moved->from == "-123");
    CHECK(old_side.post.moved->to == "-100999");
    CHECK(old_side.post.channel == "-123");
    CHECK(old_side.post.text.empty());

    notice = {{"message_id", 1},
              {"date", 1700000000},
              {"chat", {{"id", -100999}, {"type", "supergroup"}}},
              {"from", from},
              {"migrate_from_chat_id", -123}};
    const DecodedUpdate new_side = decode({{"update_id", 31}, {"message", notice}});
    REQUIRE(new_side.post.moved);
    CHECK(new_side.post.moved->from == "-123");
    CHECK(new_side.post.moved->to == "-100999");
    CHECK(new_side.post.channel == "-100999");

    const DecodedUpdate plain =
        decode({{"update_id", 32}, {"message", topic_message(5, 42, "e4")}});
    CHECK_FALSE(plain.post.moved);
}

TEST_CASE("an edited message is ignored: the move counts as first sent", "[telegram]") {
    json edited = topic_message(5, 42, "d4");
    edited["edit_date"] = 1700000100;
    const DecodedUpdate read = decode({{"update_id", 40}, {"edited_message", edited}});
    CHECK(read.problem.empty());
    CHECK(read.ignored == "an edited message");
    CHECK(read.post.text.empty());
    CHECK(read.post.author_id.empty()); // nobody to answer: the service only moves the cursor
    CHECK(read.post.message_id == "update-40");
    CHECK(read.post.cursor == "41");
    CHECK(decode({{"update_id", 41}, {"edited_channel_post", edited}}).ignored ==
          "an edited message");
}

TEST_CASE("a reply to a forum topic is sent there, as text and as a photo", "[telegram][topics]") {
    FakeSteady clock;
    CannedHttp http;
    TelegramPlatform telegram(http, canned_options(clock));
    CHECK(telegram.pacing_key("-100123/42") == "-100123"); // one chat's limits for all its topics
    CHECK(telegram.pacing_key("-100123") == "-100123");
    CHECK(telegram.is_group("-100123/42"));

    http.answer(200, ok({{"message_id", 40}}));
    Reply reply;
    reply.destination = "-100123/42";
    reply.text = "Game #1: e4";
    reply.reply_to = "31";
    CHECK(telegram.send(reply).status == Delivery::Status::Sent);
    CHECK(json::parse(http.requests.at(0).body) ==
          json{{"chat_id", -100123},
               {"message_thread_id", 42},
               {"text", "Game #1: e4"},
               {"reply_parameters", {{"message_id", 31}, {"allow_sending_without_reply", true}}}});

    http.answer(200, ok({{"message_id", 41}}));
    reply.png = {0x89, 'P', 'N', 'G'};
    reply.reply_to.clear();
    CHECK(telegram.send(reply).status == Delivery::Status::Sent);
    const HttpRequest& photo = http.requests.at(1);
    CHECK(photo.url.ends_with("/sendPhoto"));
    REQUIRE(photo.parts.size() == 4);
    CHECK(photo.parts[0].content == "-100123");
    CHECK(photo.parts[1].name == "message_thread_id");
    CHECK(photo.parts[1].content == "42");
}

TEST_CASE("buttons are an inline keyboard under the last message, a command over 64 bytes left out",
          "[telegram][buttons]") {
    FakeSteady clock;
    CannedHttp http;
    TelegramPlatform telegram(http, canned_options(clock));
    CapturedLog log;
    Reply reply;
    reply.destination = "-100123";
    reply.text = "@alice challenges @bob to FIDE chess, game #3.";
    reply.buttons = {{"Accept", "!accept 3"},
                     {"Decline", "!decline 3"},
                     {"Too long", "!accept " + std::string(60, '3')}};
    http.answer(200, ok({{"message_id", 40}}));
    CHECK(telegram.send(reply).status == Delivery::Status::Sent);
    const json body = json::parse(http.requests.at(0).body);
    CHECK(body["reply_markup"] ==
          json{{"inline_keyboard",
                {{{{"text", "Accept"}, {"callback_data", "!accept 3"}},
                  {{"text", "Decline"}, {"callback_data", "!decline 3"}}}}}});
    CHECK(log.lines.str().find("\"event\":\"telegram_button_dropped\"") != std::string::npos);

    // Two messages: the keyboard goes under the second.
    reply.text.clear();
    for (int i = 0; i < 700; ++i)
        reply.text += std::to_string(i + 1) + ". Nf3 Nf6\n";
    reply.buttons.pop_back();
    for (int i = 0; i < 3; ++i)
        http.answer(200, ok({{"message_id", 50 + i}}));
    CHECK(telegram.send(reply).status == Delivery::Status::Sent);
    REQUIRE(http.requests.size() == 4);
    CHECK_FALSE(json::parse(http.requests[1].body).contains("reply_markup"));
    CHECK_FALSE(json::parse(http.requests[2].body).contains("reply_markup"));
    CHECK(json::parse(http.requests[3].body)["reply_markup"]["inline_keyboard"][0].size() == 2);

    // A board with a caption: the keyboard goes with the photo.
    reply.text = "Game #3";
    reply.png = {0x89, 'P', 'N', 'G'};
    http.answer(200, ok({{"message_id", 60}}));
    CHECK(telegram.send(reply).status == Delivery::Status::Sent);
    const HttpRequest& photo = http.requests.at(4);
    const auto markup = std::find_if(photo.parts.begin(), photo.parts.end(),
                                     [](const auto& p) { return p.name == "reply_markup"; });
    REQUIRE(markup != photo.parts.end());
    CHECK(json::parse(markup->content)["inline_keyboard"][0][0]["callback_data"] == "!accept 3");
}

TEST_CASE("the answer to a press is shown to the presser alone; a reply with buttons answers it "
          "without words and goes to the chat",
          "[telegram][buttons]") {
    FakeSteady clock;
    CannedHttp http;
    TelegramPlatform telegram(http, canned_options(clock));
    Reply refusal_reply;
    refusal_reply.destination = "-100123/42";
    refusal_reply.text = "Game #3 is not an open challenge.";
    refusal_reply.reply_to = "callback:9001";
    http.answer(200, ok());
    CHECK(telegram.send(refusal_reply).status == Delivery::Status::Sent);
    REQUIRE(http.requests.size() == 1);
    CHECK(http.requests[0].url.ends_with("/answerCallbackQuery"));
    CHECK(json::parse(http.requests[0].body) ==
          json{{"callback_query_id", "9001"}, {"text", "Game #3 is not an open challenge."}});

    Reply question;
    question.destination = "-100123/42";
    question.text = "@bob: resign game #3? It cannot be undone.";
    question.reply_to = "callback:9002";
    question.buttons = {{"Yes, resign", "!resign 3"}, {"No, play on", "!resign 3 no"}};
    http.answer(200, ok());
    http.answer(200, ok({{"message_id", 70}}));
    CHECK(telegram.send(question).status == Delivery::Status::Sent);
    REQUIRE(http.requests.size() == 3);
    CHECK(json::parse(http.requests[1].body) == json{{"callback_query_id", "9002"}});
    const json body = json::parse(http.requests[2].body);
    CHECK(http.requests[2].url.ends_with("/sendMessage"));
    CHECK(body["message_thread_id"] == 42);
    CHECK(body["text"] == "@bob: resign game #3? It cannot be undone.");
    CHECK_FALSE(body.contains("reply_parameters")); // a press is no message to reply to
    CHECK(body["reply_markup"]["inline_keyboard"][0][1]["callback_data"] == "!resign 3 no");
}

TEST_CASE("an answer to a press too old to answer goes to the chat; a 429 is tried again",
          "[telegram][buttons]") {
    FakeSteady clock;
    CannedHttp http;
    TelegramPlatform telegram(http, canned_options(clock));
    Reply answer;
    answer.destination = "-100123/42";
    answer.text = "Challenge #3 is not addressed to you.";
    answer.reply_to = "callback:9001";
    http.answer(400, refusal(400, "Bad Request: query is too old and response timeout expired or "
                                  "query ID is invalid"));
    http.answer(200, ok({{"message_id", 71}}));
    CHECK(telegram.send(answer).status == Delivery::Status::Sent);
    REQUIRE(http.requests.size() == 2);
    CHECK(json::parse(http.requests[1].body) ==
          json{{"chat_id", -100123},
               {"message_thread_id", 42},
               {"text", "Challenge #3 is not addressed to you."}});

    http.answer(429, {{"ok", false},
                      {"error_code", 429},
                      {"description", "Too Many Requests: retry after 3"},
                      {"parameters", {{"retry_after", 3}}}});
    answer.reply_to = "callback:9002";
    const Delivery later = telegram.send(answer);
    CHECK(later.status == Delivery::Status::RetryAfter);
    CHECK(later.retry_after == 3s);
    CHECK(http.requests.size() == 3); // nothing went to the chat
}

TEST_CASE("a press no reply answered is answered without words, and while one waits polls are "
          "short",
          "[telegram][buttons]") {
    FakeSteady clock;
    CannedHttp http;
    TelegramPlatform telegram(http, canned_options(clock));
    http.answer(200, ok(json::array({{{"update_id", 50},
                                      {"callback_query", press("9009", topic_message(5, 42, "x"),
                                                               "!accept@other_bot 3")}}})));
    REQUIRE(telegram.poll("50", 50s).size() == 1);
    CHECK(json::parse(http.requests[0].body)["timeout"] == 50);

    clock.now += 1s; // too soon: a reply may still come
    http.answer(200, ok(json::array()));
    CHECK(telegram.poll("51", 50s).empty());
    REQUIRE(http.requests.size() == 2);
    CHECK(http.requests[1].url.ends_with("/getUpdates"));
    CHECK(json::parse(http.requests[1].body)["timeout"] == 1);

    clock.now += 2s;
    http.answer(200, ok());
    http.answer(200, ok(json::array()));
    CHECK(telegram.poll("51", 50s).empty());
    REQUIRE(http.requests.size() == 4);
    CHECK(http.requests[2].url.ends_with("/answerCallbackQuery"));
    CHECK(json::parse(http.requests[2].body) == json{{"callback_query_id", "9009"}});
    CHECK(json::parse(http.requests[3].body)["timeout"] == 50);
}

TEST_CASE("a player without a username is named with a text_mention, in text and in HTML",
          "[telegram][identity]") {
    FakeSteady clock;
    CannedHttp http;
    TelegramPlatform telegram(http, canned_options(clock));
    Reply reply;
    reply.destination = "-100123";
    // "Zoë Ann" is 7 UTF-16 units; the emoji before the second is two.
    reply.text = "Zoë Ann accepts. \xF0\x9F\x91\xBB Zoë Ann (Black) vs @alice; Zoë Annabel is "
                 "someone else.";
    reply.mentions = {{"alice", "77", "Alice"}, {"", "555", "Zoë Ann"}};
    http.answer(200, ok({{"message_id", 40}}));
    CHECK(telegram.send(reply).status == Delivery::Status::Sent);
    const json body = json::parse(http.requests.at(0).body);
    const json zoe = {{"id", 555}, {"is_bot", false}, {"first_name", "Zoë Ann"}};
    CHECK(body["entities"] ==
          json{{{"type", "text_mention"}, {"offset", 0}, {"length", 7}, {"user", zoe}},
               {{"type", "text_mention"}, {"offset", 20}, {"length", 7}, {"user", zoe}}});
    CHECK_FALSE(body.contains("parse_mode"));

    // With a board the message is HTML: the name is a link to the account.
    reply.text = "Zoë Ann played e5 in game #1. <Zoë Ann> & co";
    reply.code = " 8  r  n  b";
    http.answer(200, ok({{"message_id", 41}}));
    CHECK(telegram.send(reply).status == Delivery::Status::Sent);
    const json html = json::parse(http.requests.at(1).body);
    CHECK(html["parse_mode"] == "HTML");
    CHECK(html["text"] == "<a href=\"tg://user?id=555\">Zoë Ann</a> played e5 in game #1. "
                          "&lt;<a href=\"tg://user?id=555\">Zoë Ann</a>&gt; &amp; co\n"
                          "<pre> 8  r  n  b</pre>");
    CHECK_FALSE(html.contains("entities"));
}

TEST_CASE("a group that became a supergroup is written to at its new id, at once and from then on",
          "[telegram][migration]") {
    FakeSteady clock;
    CannedHttp http;
    TelegramPlatform telegram(http, canned_options(clock));
    CapturedLog log;
    Reply reply;
    reply.destination = "-123";
    reply.text = "Game #1: e4";
    reply.buttons = {{"Resign", "!resign 1 ?"}};
    http.answer(400, {{"ok", false},
                      {"error_code", 400},
                      {"description", "Bad Request: group chat was upgraded to a supergroup chat"},
                      {"parameters", {{"migrate_to_chat_id", -100999}}}});
    http.answer(200, ok({{"message_id", 1}}));
    CHECK(telegram.send(reply).status == Delivery::Status::Sent);
    REQUIRE(http.requests.size() == 2);
    CHECK(json::parse(http.requests[0].body)["chat_id"] == -123);
    const json moved = json::parse(http.requests[1].body);
    CHECK(moved["chat_id"] == -100999);
    CHECK(moved["reply_markup"]["inline_keyboard"][0][0]["callback_data"] == "!resign 1 ?");
    CHECK(log.lines.str().find("\"event\":\"telegram_chat_moved\"") != std::string::npos);

    http.answer(200, ok({{"message_id", 2}}));
    CHECK(telegram.send(reply).status == Delivery::Status::Sent);
    REQUIRE(http.requests.size() == 3);
    CHECK(json::parse(http.requests[2].body)["chat_id"] == -100999);

    // A 400 without a new id is a refusal like any other.
    reply.destination = "-456";
    http.answer(400, refusal(400, "Bad Request: chat not found"));
    CHECK(telegram.send(reply).status == Delivery::Status::Failed);
    CHECK(http.requests.size() == 4);
}

TEST_CASE("a notice of the upgrade read by poll sends the replies after it to the new id",
          "[telegram][migration]") {
    FakeSteady clock;
    CannedHttp http;
    TelegramPlatform telegram(http, canned_options(clock));
    const json notice = {{"message_id", 9},
                         {"date", 1700000000},
                         {"chat", {{"id", -123}, {"type", "group"}}},
                         {"from", user(77, "Alice", "alice")},
                         {"migrate_to_chat_id", -100999}};
    http.answer(200, ok(json::array({{{"update_id", 60}, {"message", notice}}})));
    const auto posts = telegram.poll("60", 1s);
    REQUIRE(posts.size() == 1);
    REQUIRE(posts[0].moved);
    Reply reply;
    reply.destination = "-123";
    reply.text = "Game #1: e4";
    http.answer(200, ok({{"message_id", 3}}));
    CHECK(telegram.send(reply).status == Delivery::Status::Sent);
    CHECK(json::parse(http.requests.at(1).body)["chat_id"] == -100999);
}

TEST_CASE("getMe in privacy mode warns in the log and has a notice for the moderators",
          "[telegram][privacy]") {
    FakeSteady clock;
    CannedHttp http;
    TelegramPlatform telegram(http, canned_options(clock));
    CapturedLog log;
    http.answer(200, ok({{"id", 4242},
                         {"is_bot", true},
                         {"first_name", "G"},
                         {"username", "ghostpost_bot"},
                         {"can_read_all_group_messages", false}}));
    CHECK(telegram.identify() == "ghostpost_bot");
    CHECK(http.requests.at(0).url.ends_with("/getMe")); // asked although the name was configured
    const auto notices = telegram.moderator_notices();
    REQUIRE(notices.size() == 1);
    CHECK(notices[0].starts_with("Telegram's privacy mode is on for me (@ghostpost_bot): in groups "
                                 "I see only commands"));
    CHECK(notices[0].find("/setprivacy") != std::string::npos);
    CHECK(notices[0].find("/move e4 (or /move@ghostpost_bot e4)") != std::string::npos);
    const std::string line = log.lines.str();
    CHECK(line.find("\"event\":\"telegram_privacy_mode\"") != std::string::npos);
    CHECK(line.find("\"level\":\"warning\"") != std::string::npos);

    // Privacy off: nothing to say.
    http.answer(200, ok({{"id", 4242},
                         {"is_bot", true},
                         {"first_name", "G"},
                         {"username", "ghostpost_bot"},
                         {"can_read_all_group_messages", true}}));
    telegram.identify();
    CHECK(telegram.moderator_notices().empty());
}

TEST_CASE("setMyCommands lists the service's commands; names Telegram refuses are left out",
          "[telegram][menu]") {
    FakeSteady clock;
    CannedHttp http;
    auto options = canned_options(clock);
    options.commands = command_menu();
    const std::size_t listed = options.commands.size();
    options.commands.push_back({"Tourney Join", "not a command name Telegram takes"});
    options.commands.push_back({"long", std::string(300, 'x')});
    TelegramPlatform telegram(http, options);
    CapturedLog log;
    for (int i = 0; i < 7; ++i)
        http.answer(200, ok());
    CHECK(telegram.publish_commands());
    REQUIRE(http.requests.size() == 7);
    const json body = json::parse(http.requests.at(0).body);
    CHECK(http.requests[0].url.ends_with("/setMyCommands"));
    CHECK_FALSE(body.contains("language_code")); // everyone's menu
    REQUIRE(body["commands"].size() == listed + 1);
    CHECK(body["commands"][0] == json{{"command", "new"}, {"description", "Challenge someone"}});
    CHECK(body["commands"].back()["command"] == "long");
    CHECK(body["commands"].back()["description"].get<std::string>().size() <= 256);
    CHECK(log.lines.str().find("\"event\":\"telegram_commands_set\"") != std::string::npos);
    // Then one menu per language the descriptions are translated to, under Telegram's
    // two-letter codes, with the same commands in the same order.
    std::vector<std::string> codes;
    for (std::size_t i = 1; i < 7; ++i) {
        const json menu = json::parse(http.requests[i].body);
        codes.push_back(menu.value("language_code", ""));
        REQUIRE(menu["commands"].size() == listed + 1);
        for (std::size_t k = 0; k < listed + 1; ++k)
            CHECK(menu["commands"][k]["command"] == body["commands"][k]["command"]);
        CHECK(menu["commands"][0]["description"] != "Challenge someone");
        if (codes.back() == "de")
            CHECK(menu["commands"][4] ==
                  json{{"command", "move"}, {"description", "Einen Zug spielen"}});
        if (codes.back() == "ru")
            CHECK(menu["commands"][4] == json{{"command", "move"}, {"description", "Сделать ход"}});
    }
    CHECK(codes == std::vector<std::string>{"de", "es", "fr", "pt", "ru", "zh"});

    // A refusal is logged, never thrown: the last menu Telegram has stays.
    http.answer(404, refusal(404, "Not Found"));
    CHECK_FALSE(telegram.publish_commands());
    CHECK(log.lines.str().find("\"event\":\"telegram_commands_not_set\"") != std::string::npos);
}

TEST_CASE("the topics of one group share its pacing in the outbox", "[telegram][topics][outbox]") {
    FakeSteady clock;
    CannedHttp http;
    TelegramPlatform telegram(http, canned_options(clock));
    testing::TempPath path;
    auto store = storage::open_sqlite_store(path.str());
    std::int64_t now = 1'700'000'000;
    std::chrono::steady_clock::time_point steady{std::chrono::hours(1)};
    OutboxSender sender(
        *store, telegram, [&] { return now; }, [&] { return steady; });
    for (const char* topic : {"-100123/1", "-100123/2", "-100777/1"}) {
        storage::OutgoingMessage m;
        m.platform = "telegram";
        m.destination = topic;
        m.text = "hello";
        store->enqueue(m, now);
    }
    for (int i = 0; i < 3; ++i)
        http.answer(200, ok({{"message_id", 1 + i}}));
    CHECK(sender.send_due() == 2); // one per chat within a second
    steady += 1s;
    CHECK(sender.send_due() == 1);
    REQUIRE(http.requests.size() == 3);
    CHECK(json::parse(http.requests[0].body)["message_thread_id"] == 1);
    CHECK(json::parse(http.requests[1].body)["chat_id"] == -100777);
    CHECK(json::parse(http.requests[2].body)["message_thread_id"] == 2);
}
