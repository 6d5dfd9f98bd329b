// Reading getUpdates: who wrote (ids and usernames, never display names), the "@name"s of a
// text at their UTF-16 offsets, anonymous senders, and malformed updates that must not stop
// polling.
#include "ghostpost/log/log.h"
#include "telegram_canned_http.h"

#include <iostream>
#include <sstream>

using namespace ghostpost::bot;
using namespace ghostpost::test;
using nlohmann::json;

namespace {

json user(std::int64_t id, const std::string& first, const std::string& username = "") {
    json u = {{"id", id}, {"is_bot", false}, {"first_name", first}};
    if (!username.empty())
        u["username"] = username;
    return u;
}

json update(std::int64_t update_id, const json& from, const std::string& text,
            const json& entities = json::array()) {
    json message = {{"message_id", update_id - 400},
                    {"date", 1700000000},
                    {"chat", {{"id", -100123}, {"type", "supergroup"}}},
                    {"from", from},
                    {"text", text}};
    if (!entities.empty())
        message["entities"] = entities;
    return {{"update_id", update_id}, {"message", message}};
}

DecodedUpdate decode(const json& u) {
    return decode_update(u.dump(), "ghostpost_bot");
}

} // namespace

TEST_CASE("the author is the account's id and username; the name is for display only",
          "[telegram][identity]") {
    json from = user(77, "Alice", "alice");
    from["last_name"] = "Liddell";
    const DecodedUpdate named = decode(update(500, from, "!games"));
    CHECK(named.problem.empty());
    CHECK(named.post.author_id == "77");
    CHECK(named.post.author_handle == "alice");
    CHECK(named.post.author_name == "Alice Liddell");
    CHECK_FALSE(named.post.anonymous);
    CHECK(named.post.channel == "-100123");
    CHECK(named.post.message_id == "100");
    CHECK(named.post.cursor == "501");

    // No username: nothing "@bob" could resolve to, whatever the first name says.
    const DecodedUpdate unnamed = decode(update(501, user(666, "bob"), "!accept"));
    CHECK(unnamed.post.author_id == "666");
    CHECK(unnamed.post.author_handle.empty());
    CHECK(unnamed.post.author_name == "bob");
}

TEST_CASE("an @username is a mention found at its UTF-16 offset, past an emoji",
          "[telegram][identity]") {
    // "🎲" is two UTF-16 units and four bytes, "é" one unit and two bytes: @bob starts at
    // unit 16, byte 19.
    const DecodedUpdate d = decode(
        update(500, user(77, "Alice", "alice"), "\xF0\x9F\x8E\xB2 \xC3\xA9 !new chess @bob white",
               json::array({{{"type", "mention"}, {"offset", 16}, {"length", 4}}})));
    CHECK(d.problem.empty());
    REQUIRE(d.post.mentions.size() == 1);
    CHECK(d.post.mentions[0].handle == "bob");
    CHECK(d.post.mentions[0].user_id.empty());
    CHECK(d.post.mentions[0].name.empty());
}

TEST_CASE("a text_mention names the account by id, and mentions come in the text's order",
          "[telegram][identity]") {
    // "!mod ban Dave 🎲 @carol": Dave at unit 9, @carol at unit 17; listed out of order.
    json dave = user(99, "Dave");
    dave["last_name"] = "Null";
    const DecodedUpdate d = decode(update(
        500, user(1, "Mo", "mo"), "!mod ban Dave \xF0\x9F\x8E\xB2 @carol",
        json::array({{{"type", "mention"}, {"offset", 17}, {"length", 6}},
                     {{"type", "bold"}, {"offset", 0}, {"length", 4}},
                     {{"type", "text_mention"}, {"offset", 9}, {"length", 4}, {"user", dave}}})));
    CHECK(d.problem.empty());
    REQUIRE(d.post.mentions.size() == 2);
    CHECK(d.post.mentions[0].user_id == "99");
    CHECK(d.post.mentions[0].name == "Dave Null");
    CHECK(d.post.mentions[0].handle.empty());
    CHECK(d.post.mentions[1].handle == "carol");
    CHECK(d.post.mentions[1].user_id.empty());

    const DecodedUpdate with_handle =
        decode(update(501, user(1, "Mo", "mo"), "!accept Bob",
                      json::array({{{"type", "text_mention"},
                                    {"offset", 8},
                                    {"length", 3},
                                    {"user", user(8, "Bob", "bob")}}})));
    REQUIRE(with_handle.post.mentions.size() == 1);
    CHECK(with_handle.post.mentions[0].handle == "bob");
    CHECK(with_handle.post.mentions[0].user_id == "8");
}

TEST_CASE("an entity that is not an @handle, or cuts a character, names nobody",
          "[telegram][identity]") {
    // A "mention" over "chess" is not a handle: dropped, the post kept.
    const DecodedUpdate not_handle =
        decode(update(500, user(77, "Alice", "alice"), "!new chess @bob",
                      json::array({{{"type", "mention"}, {"offset", 5}, {"length", 5}}})));
    CHECK(not_handle.problem.empty());
    CHECK(not_handle.post.mentions.empty());
    CHECK(not_handle.post.text == "!new chess @bob");

    // Offsets inside a surrogate pair or past the end: the update is malformed.
    const DecodedUpdate split =
        decode(update(501, user(77, "Alice", "alice"), "\xF0\x9F\x8E\xB2@bob",
                      json::array({{{"type", "mention"}, {"offset", 1}, {"length", 5}}})));
    CHECK(split.problem == "message.entities[] cuts a character in two");
    CHECK(split.post.text.empty());
    CHECK(split.post.mentions.empty());
    CHECK(split.post.cursor == "502");
    const DecodedUpdate beyond =
        decode(update(502, user(77, "Alice", "alice"), "@bob",
                      json::array({{{"type", "mention"}, {"offset", 2}, {"length", 9}}})));
    CHECK(beyond.problem == "message.entities[] lies outside the text");
}

TEST_CASE("the anonymous group admin and a channel writing as the chat are anonymous",
          "[telegram][identity]") {
    json admin = update(500, user(1087968824, "Group", "GroupAnonymousBot"), "!new chess @bob");
    admin["message"]["sender_chat"] = {{"id", -100123}, {"type", "supergroup"}, {"title", "G"}};
    CHECK(decode(admin).post.anonymous);

    json channel = update(501, user(136817688, "Channel", "Channel_Bot"), "e4");
    channel["message"]["sender_chat"] = {{"id", -100999}, {"type", "channel"}, {"title", "C"}};
    CHECK(decode(channel).post.anonymous);

    // Even a sender_chat with an ordinary-looking from is no person.
    json other = update(502, user(5, "x", "x_y"), "e4");
    other["message"]["sender_chat"] = {{"id", -100999}, {"type", "channel"}, {"title", "C"}};
    CHECK(decode(other).post.anonymous);

    CHECK_FALSE(decode(update(503, user(5, "x", "x_y"), "e4")).post.anonymous);
}

TEST_CASE("names are UTF-8-checked, freed of controls and capped; odd usernames are dropped",
          "[telegram][identity]") {
    json from = user(77, std::string(300, 'A') + "\n!accept", "bob bob");
    const DecodedUpdate d = decode(update(500, from, "hi"));
    CHECK(d.post.author_name.size() <= 128);
    CHECK(d.post.author_name == std::string(125, 'A') + "\xE2\x80\xA6");
    CHECK(d.post.author_handle.empty());

    // "\u202E" reverses what follows in a reply; a newline would forge a line.
    const DecodedUpdate bidi = decode(update(501,
                                             user(78,
                                                  "evil\xE2\x80\xAE"
                                                  "eno\nx",
                                                  std::string(33, 'b')),
                                             "hi"));
    CHECK(bidi.post.author_name == "evil eno x");
    CHECK(bidi.post.author_handle.empty());
}

TEST_CASE("invalid UTF-8 in a name is replaced, and the batch is still read",
          "[telegram][identity]") {
    FakeSteady clock;
    CannedHttp http;
    TelegramPlatform telegram(http, canned_options(clock));
    // Not valid JSON text as it stands (a raw 0xFF inside a string): the adapter repairs the
    // bytes rather than refuse every update behind this one.
    http.raw(200, "{\"ok\":true,\"result\":[{\"update_id\":9,\"message\":{\"message_id\":3,"
                  "\"date\":1,\"chat\":{\"id\":-5,\"type\":\"group\"},\"from\":{\"id\":8,"
                  "\"is_bot\":false,\"first_name\":\"b\xFF"
                  "ob\",\"username\":\"bob\"},"
                  "\"text\":\"!games\"}}]}");
    const auto posts = telegram.poll("9", std::chrono::seconds(1));
    REQUIRE(posts.size() == 1);
    CHECK(posts[0].author_name == "b\xEF\xBF\xBD"
                                  "ob");
    CHECK(posts[0].author_handle == "bob");
    CHECK(posts[0].text == "!games");
}

TEST_CASE("a malformed update is logged and skipped with its cursor, never thrown",
          "[telegram][malformed]") {
    FakeSteady clock;
    CannedHttp http;
    TelegramPlatform telegram(http, canned_options(clock));
    std::ostringstream log_lines;
    log::set_sink(log_lines);
    json bad_id = update(500, user(77, "Alice", "alice"), "!new chess @bob");
    bad_id["message"]["message_id"] = "abc";
    json no_chat = update(501, user(77, "Alice", "alice"), "e4");
    no_chat["message"].erase("chat");
    json text_number = update(502, user(77, "Alice", "alice"), "e4");
    text_number["message"]["text"] = 12;
    json from_string = update(503, user(77, "Alice", "alice"), "e4");
    from_string["message"]["from"] = "alice";
    const json good = update(505, user(8, "Bob", "bob"), "!accept");
    http.answer(
        200,
        ok_updates(
            {bad_id, no_chat, text_number, from_string, {{"message", {{"message_id", 1}}}}, good}));

    const auto posts = telegram.poll("500", std::chrono::seconds(1));
    log::set_sink(std::cerr);
    std::vector<std::string> warnings;
    std::istringstream lines(log_lines.str());
    for (std::string line; std::getline(lines, line);) {
        const json entry = json::parse(line);
        CHECK(entry["level"] == "warning");
        warnings.push_back(entry["event"].get<std::string>() + " " +
                           entry["update"].get<std::string>() + ": " +
                           entry["problem"].get<std::string>());
    }
    REQUIRE(posts.size() == 6);
    for (std::size_t i = 0; i < 5; ++i) {
        CHECK(posts[i].text.empty());
        CHECK(posts[i].channel.empty());
        CHECK(posts[i].author_id.empty());
        CHECK(posts[i].message_id == "update-" + std::to_string(500 + i));
        CHECK(posts[i].cursor == std::to_string(501 + i));
    }
    CHECK(posts[5].text == "!accept");
    CHECK(posts[5].cursor == "506");
    CHECK(warnings ==
          std::vector<std::string>{
              "telegram_update_skipped update-500: message.message_id is not an integer",
              "telegram_update_skipped update-501: message.chat is missing",
              "telegram_update_skipped update-502: message.text is not a string",
              "telegram_update_skipped update-503: message.from is not an object",
              "telegram_update_skipped update-504: update.update_id is missing"});

    // The same update alone: the poll still answers, and its cursor moves past it.
    http.answer(200, ok_updates(json::array({bad_id})));
    const auto again = telegram.poll("500", std::chrono::seconds(1));
    REQUIRE(again.size() == 1);
    CHECK(again[0].cursor == "501");
}

TEST_CASE("decode_update never throws, whatever the bytes", "[telegram][malformed]") {
    const std::vector<std::string> inputs{
        "",
        "[",
        "null",
        "\"x\"",
        "{\"update_id\":1e400}",
        "{\"update_id\":18446744073709551615}",
        "{\"update_id\":9223372036854775807}",
        "{\"update_id\":-3}",
        "{\"update_id\":1,\"message\":[]}",
        "{\"update_id\":1,\"message\":{\"message_id\":1,\"chat\":{\"id\":\"x\"}}}",
        "{\"update_id\":1,\"message\":{\"message_id\":1,\"chat\":{\"id\":1},\"text\":\"a\","
        "\"entities\":[{\"type\":\"text_mention\",\"offset\":0,\"length\":1,\"user\":7}]}}",
        "{\"update_id\":1,\"message\":{\"message_id\":1,\"chat\":{\"id\":1},\"text\":\"a\","
        "\"entities\":[{\"type\":\"mention\",\"offset\":-9223372036854775808,\"length\":"
        "9223372036854775807}]}}",
        "{\"update_id\":1,\"message\":{\"text\":\"\\ud800\"}}",
        std::string("{\"update_id\":1,\"message\":{\"text\":\"\xC3\x28\"}}"),
        std::string(100000, '['),
    };
    for (const auto& input : inputs) {
        INFO(input.substr(0, 80));
        DecodedUpdate d;
        CHECK_NOTHROW(d = decode_update(input, "ghostpost_bot"));
        CHECK_FALSE(d.problem.empty());
        CHECK(d.post.text.empty());
    }
    const DecodedUpdate fine =
        decode_update("{\"update_id\":7,\"edited_message\":{}}", "ghostpost_bot");
    CHECK(fine.problem.empty());
    CHECK(fine.update_id == 7);
    CHECK(fine.post.cursor == "8");
}

TEST_CASE("a lone surrogate escaped in a name is replaced, and the update is still read",
          "[telegram][malformed]") {
    // JSON may escape half a surrogate pair; the parser refuses it, and a whole getUpdates
    // batch with one such name would be unreadable, and retried for ever.
    std::string raw = update(600, user(90, "NAME", "dora"), "!games").dump();
    raw.replace(raw.find("NAME"), 4, "a\\ud800b\\udc00c\\ud83d\\ude00");
    const DecodedUpdate d = decode_update(raw, "ghostpost_bot");
    CHECK(d.problem.empty());
    CHECK(d.post.text == "!games");
    CHECK(d.post.author_handle == "dora");
    CHECK(d.post.author_name == "a\xEF\xBF\xBD"
                                "b\xEF\xBF\xBD"
                                "c\xF0\x9F\x98\x80");
    // An escaped backslash before "u" is no escape at all.
    std::string literal = update(601, user(91, "NAME", "eve"), "!games").dump();
    literal.replace(literal.find("NAME"), 4, "x\\\\ud800");
    CHECK(decode_update(literal, "ghostpost_bot").post.author_name == "x\\ud800");
}

TEST_CASE("the author's language_code is the post's language; one that is no tag is left unsaid",
          "[telegram][language]") {
    json from = user(77, "Alice", "alice");
    from["language_code"] = "de";
    CHECK(decode(update(600, from, "e4")).post.language == "de");
    from["language_code"] = "pt-br";
    CHECK(decode(update(601, from, "e4")).post.language == "pt-br");
    from["language_code"] = "de; rm -rf";
    CHECK(decode(update(602, from, "e4")).post.language.empty());
    CHECK(decode(update(603, user(78, "Bob"), "e4")).post.language.empty());
}
