// DiscordPlatform against the fake Discord: the Gateway's handshake, resumes and refusals,
// catching up after a fresh session, and every kind of send, each request checked against the
// API description.
#include "fake_discord.h"
#include "ghostpost/discord/discord.h"

#include <algorithm>

using namespace ghostpost;
using discord_test::FakeDiscord;
using discord_test::options_for;
using discord_test::poll_for;
using nlohmann::json;

namespace {

const json alice = FakeDiscord::user("100000000000000007", "alice");
const json bob = FakeDiscord::user("100000000000000008", "bob");
const std::string channel = "300000000000000001";

} // namespace

TEST_CASE("a guild message becomes a post: the author's id, mentions from the mentions array",
          "[discord]") {
    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    bot::CurlHttpClient http;
    bot::DiscordPlatform platform(http, options_for(fake));
    std::string cursor;
    CHECK(platform.poll(cursor, std::chrono::seconds(1)).empty()); // connects, READY

    const json said =
        fake.say(channel, alice, "!new chess <@100000000000000008> white", json::array({bob}));
    const auto posts = poll_for(platform, cursor, 1);
    REQUIRE(posts.size() == 1);
    const bot::Post& post = posts[0];
    CHECK(post.platform == "discord");
    CHECK(post.channel == channel);
    CHECK(post.message_id == said["id"]);
    CHECK(post.author_id == "100000000000000007");
    CHECK(post.author_handle == "alice");
    CHECK(post.text == "!new chess @bob white");
    CHECK_FALSE(post.direct);
    REQUIRE(post.mentions.size() == 1);
    CHECK(post.mentions[0].user_id == "100000000000000008");
    CHECK(post.mentions[0].handle == "bob");
    CHECK(post.cursor == json{{channel, said["id"]}}.dump());
    const json stats = fake.stats();
    CHECK(stats["identifies"] == 1);
    CHECK(stats["resumes"] == 0);
    CHECK(fake.violations().empty());
}

TEST_CASE("a reply quotes the post, pings only the players it names, and has a nonce",
          "[discord]") {
    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    bot::CurlHttpClient http;
    bot::DiscordPlatform platform(http, options_for(fake));
    std::string cursor;
    platform.poll(cursor, std::chrono::seconds(1));
    const json said =
        fake.say(channel, alice, "!new chess <@100000000000000008> @everyone", json::array({bob}));
    REQUIRE(poll_for(platform, cursor, 1).size() == 1);

    bot::Reply reply;
    reply.destination = channel;
    reply.text = "@alice challenges @bob, and @everyone watches.";
    reply.code = "8 r n b q k b n r\n  a b c d e f g h";
    reply.reply_to = said["id"];
    reply.idempotency_key = "17:1700000000";
    CHECK(platform.send(reply).status == bot::Delivery::Status::Sent);
    CHECK(platform.send(reply).status == bot::Delivery::Status::Sent); // a retry: the nonce

    const json sent = fake.sent();
    REQUIRE(sent.size() == 1); // enforce_nonce: Discord posted it once
    CHECK(sent[0]["channel_id"] == channel);
    CHECK(sent[0]["content"] ==
          "<@100000000000000007> challenges <@100000000000000008>, and @everyone watches.\n"
          "```\n8 r n b q k b n r\n  a b c d e f g h\n```");
    CHECK(sent[0]["allowed_mentions"] ==
          json{{"parse", json::array()},
               {"users", {"100000000000000007", "100000000000000008"}},
               {"replied_user", true}});
    CHECK(sent[0]["message_reference"] ==
          json{{"message_id", said["id"]}, {"fail_if_not_exists", false}});
    CHECK(sent[0]["nonce"].get<std::string>().size() <= 25);
    CHECK(fake.violations().empty());
}

TEST_CASE("a reply pings the accounts the service names, though they never posted since start",
          "[discord]") {
    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    bot::CurlHttpClient http;
    bot::DiscordPlatform platform(http, options_for(fake));
    std::string cursor;
    platform.poll(cursor, std::chrono::seconds(1));
    // Someone else talks in the channel: alice and bob post nothing while this runs.
    fake.say(channel, FakeDiscord::user("100000000000000009", "dave"), "nice game");
    REQUIRE(poll_for(platform, cursor, 1).size() == 1);

    bot::Reply reply;
    reply.destination = channel;
    reply.text = "@alice (White) played e4 in game #1. @bob (Black) must move. @carol watches.";
    reply.mentions = {{"alice", "100000000000000007", "alice"},
                      {"bob", "100000000000000008", "Bob"},
                      {"carol", "not-an-id", "Carol"}};
    CHECK(platform.send(reply).status == bot::Delivery::Status::Sent);
    const json sent = fake.sent();
    REQUIRE(sent.size() == 1);
    CHECK(sent[0]["content"] == "<@100000000000000007> (White) played e4 in game #1. "
                                "<@100000000000000008> (Black) must move. @carol watches.");
    CHECK(sent[0]["allowed_mentions"] ==
          json{{"parse", json::array()}, {"users", {"100000000000000007", "100000000000000008"}}});
    CHECK(fake.violations().empty());
}

TEST_CASE("a long reply goes as several messages of at most 2000 characters, cut at lines",
          "[discord]") {
    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    bot::CurlHttpClient http;
    bot::DiscordPlatform platform(http, options_for(fake));
    fake.say(channel, alice, "hello"); // the channel exists
    bot::Reply reply;
    reply.destination = channel;
    std::string line(99, 'x');
    for (int i = 0; i < 30; ++i)
        reply.text += line + "\n"; // 3000 characters
    reply.text.pop_back();
    reply.code = std::string(1500, 'c');
    reply.idempotency_key = "18:1700000000";
    CHECK(platform.send(reply).status == bot::Delivery::Status::Sent);
    const json sent = fake.sent();
    REQUIRE(sent.size() == 3);
    std::string first;
    for (int i = 0; i < 20; ++i)
        first += line + (i < 19 ? "\n" : "");
    CHECK(sent[0]["content"] == first); // 20 lines: 1999 characters
    CHECK(sent[1]["content"].get<std::string>().size() == 999);
    CHECK(sent[2]["content"] == "```\n" + std::string(1500, 'c') + "\n```");
    CHECK(sent[0]["nonce"] != sent[1]["nonce"]);
    CHECK(fake.violations().empty());
}

TEST_CASE("a PNG board goes as the first file of a multipart body with payload_json", "[discord]") {
    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    bot::CurlHttpClient http;
    bot::DiscordPlatform platform(http, options_for(fake));
    fake.say(channel, alice, "hello");
    bot::Reply reply;
    reply.destination = channel;
    reply.text = "Game #1 after 1. e4";
    reply.png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 0};
    reply.idempotency_key = "19:1700000000";
    CHECK(platform.send(reply).status == bot::Delivery::Status::Sent);
    const json sent = fake.sent();
    REQUIRE(sent.size() == 1);
    CHECK(sent[0]["content"] == "Game #1 after 1. e4");
    CHECK(sent[0]["file"] == "board.png");
    CHECK(fake.violations().empty());
}

TEST_CASE("a private reply opens the DM channel, and a user who takes no DMs is Blocked (50007)",
          "[discord]") {
    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    bot::CurlHttpClient http;
    bot::DiscordPlatform platform(http, options_for(fake));
    bot::Reply reply;
    reply.to = bot::Reply::To::User;
    reply.destination = "100000000000000007";
    reply.text = "Your Phantom peeks: e5 is empty.";
    reply.idempotency_key = "20:1700000000";
    CHECK(platform.send(reply).status == bot::Delivery::Status::Sent);
    json sent = fake.sent();
    REQUIRE(sent.size() == 1);
    CHECK(sent[0]["dm_user"] == "100000000000000007");
    CHECK(sent[0]["content"] == "Your Phantom peeks: e5 is empty.");
    CHECK(sent[0]["message_reference"].is_null());

    fake.control("block_dm", {{"user_id", "100000000000000008"}});
    reply.destination = "100000000000000008";
    const bot::Delivery refused = platform.send(reply);
    CHECK(refused.status == bot::Delivery::Status::Blocked);
    CHECK(refused.detail.find("50007") != std::string::npos);
    CHECK(fake.sent().size() == 1);
    CHECK(fake.violations().empty());
}

TEST_CASE("429s: a route's limit and the global one are waited out before calling again",
          "[discord]") {
    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    bot::CurlHttpClient http;
    bot::DiscordPlatform platform(http, options_for(fake));
    fake.say(channel, alice, "hello");
    fake.control("settings", {{"bucket_limit", 2}, {"bucket_window_ms", 1500}});
    bot::Reply reply;
    reply.destination = channel;
    reply.text = "one";
    reply.idempotency_key = "a";
    CHECK(platform.send(reply).status == bot::Delivery::Status::Sent);
    reply.idempotency_key = "b";
    CHECK(platform.send(reply).status == bot::Delivery::Status::Sent);
    // The bucket said Remaining 0: the third waits without a call.
    reply.idempotency_key = "c";
    const auto requests = fake.stats()["requests"].get<int>();
    const bot::Delivery held = platform.send(reply);
    CHECK(held.status == bot::Delivery::Status::RetryAfter);
    CHECK(held.retry_after == std::chrono::seconds(2));
    CHECK(fake.stats()["requests"] == requests);
    std::this_thread::sleep_for(std::chrono::milliseconds(1600));
    CHECK(platform.send(reply).status == bot::Delivery::Status::Sent);

    fake.control("settings", {{"global_429", 1}, {"bucket_limit", 100}});
    reply.idempotency_key = "d";
    const bot::Delivery global = platform.send(reply);
    CHECK(global.status == bot::Delivery::Status::RetryAfter);
    CHECK(global.retry_after == std::chrono::seconds(2)); // retry_after 1.5 s, rounded up
    CHECK(fake.stats()["rate_limited"] == 1);
    CHECK(fake.sent().size() == 3);
    CHECK(fake.violations().empty());
}

TEST_CASE("with other daemons on the database each REST call first takes a slot of the bot's "
          "shared limit, and waits what it says",
          "[discord]") {
    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    bot::CurlHttpClient http;
    bot::DiscordOptions options = options_for(fake);
    std::vector<std::string> asked;
    options.shared_limit = [&asked](const std::string& key, int per_second, int burst) {
        asked.push_back(key + " " + std::to_string(per_second) + " " + std::to_string(burst));
        return std::chrono::milliseconds(asked.size() == 1 ? 300 : 0);
    };
    bot::DiscordPlatform platform(http, options);
    std::string cursor;
    platform.poll(cursor, std::chrono::seconds(1)); // GET /gateway/bot
    fake.say(channel, alice, "!board");
    REQUIRE(poll_for(platform, cursor, 1).size() == 1);
    const std::size_t before = asked.size();
    CHECK(before >= 1);
    bot::Reply reply;
    reply.destination = channel;
    reply.text = "hello";
    reply.idempotency_key = "1:1";
    const auto start = std::chrono::steady_clock::now();
    CHECK(platform.send(reply).status == bot::Delivery::Status::Sent);
    reply.idempotency_key = "2:1";
    CHECK(platform.send(reply).status == bot::Delivery::Status::Sent);
    // One slot per call, each of Discord's 50 a second with four early.
    CHECK(asked.size() == before + 2);
    CHECK(asked.back() == "discord 50 4");
    CHECK(fake.sent().size() == 2);
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
    CHECK(fake.violations().empty());
}

TEST_CASE("routes that Discord puts in one bucket share its count", "[discord]") {
    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    const json seen = fake.say(channel, alice, "handled before the restart");
    fake.say(channel, bob, "posted while no session was open");
    fake.control("settings",
                 {{"bucket_limit", 3}, {"bucket_window_ms", 60000}, {"shared_bucket", true}});
    bot::CurlHttpClient http;
    bot::DiscordPlatform platform(http, options_for(fake));
    std::string cursor = json{{channel, seen["id"]}}.dump();
    const auto poll = [&] { // the cursor carried forward as the daemon does
        for (const bot::Post& post : platform.poll(cursor, std::chrono::seconds(1)))
            cursor = post.cursor;
    };
    // The catch-up after IDENTIFY reads the channel (1 of 3), a reply is posted there (2 of 3):
    // both answers name the same bucket. After a non-resumable op 9 the catch-up reads it
    // again (3 of 3, Remaining 0), so the next reply waits without a call. (A catch-up reads a
    // channel whose GUILD_CREATE names a message newer than the cursor's and the bot's own.)
    REQUIRE(discord_test::eventually(
        [&] {
            poll();
            return fake.stats()["requests"].get<int>() >= 2; // commands, then the catch-up
        },
        std::chrono::seconds(10)));
    bot::Reply reply;
    reply.destination = channel;
    reply.text = "one";
    reply.idempotency_key = "shared-1";
    REQUIRE(platform.send(reply).status == bot::Delivery::Status::Sent);
    fake.control("invalid_session", {{"resumable", false}});
    // Posted while no session is open (the next IDENTIFY waits its turn): the second session's
    // GUILD_CREATE names it, so the catch-up reads the channel again.
    fake.say(channel, bob, "posted between the sessions");
    REQUIRE(discord_test::eventually(
        [&] {
            poll();
            return fake.stats()["identifies"] == 2;
        },
        std::chrono::seconds(15)));
    // The guild's GUILD_CREATE follows READY: the poll that reads it reads the channel again.
    REQUIRE(discord_test::eventually(
        [&] {
            poll();
            return fake.stats()["message_reads"] == 2;
        },
        std::chrono::seconds(15)));
    const auto requests = fake.stats()["requests"].get<int>();
    reply.text = "two";
    reply.idempotency_key = "shared-2";
    const bot::Delivery held = platform.send(reply);
    CHECK(held.status == bot::Delivery::Status::RetryAfter);
    CHECK(fake.stats()["requests"] == requests);
    CHECK(fake.stats()["rate_limited"] == 0);
    CHECK(fake.sent().size() == 1);
    CHECK(fake.violations().empty());
}

TEST_CASE("the Gateway resumes after a drop, op 7 and a resumable op 9, losing nothing",
          "[discord]") {
    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    fake.control("settings", {{"heartbeat_interval", 300}});
    bot::CurlHttpClient http;
    bot::DiscordPlatform platform(http, options_for(fake));
    std::string cursor;
    platform.poll(cursor, std::chrono::seconds(1));
    fake.say(channel, alice, "one");
    REQUIRE(poll_for(platform, cursor, 1).size() == 1);

    fake.control("drop");
    fake.say(channel, alice, "two"); // posted while the connection is down: replayed on RESUME
    auto posts = poll_for(platform, cursor, 1);
    REQUIRE(posts.size() == 1);
    CHECK(posts[0].text == "two");
    CHECK(discord_test::eventually([&] { return fake.stats()["live"] == 1; },
                                   std::chrono::seconds(5)));

    fake.control("reconnect");
    REQUIRE(discord_test::eventually([&] { return fake.stats()["resumes"] == 2; },
                                     std::chrono::seconds(10)));
    fake.control("invalid_session", {{"resumable", true}});
    REQUIRE(discord_test::eventually([&] { return fake.stats()["resumes"] == 3; },
                                     std::chrono::seconds(10)));
    fake.say(channel, alice, "three");
    posts = poll_for(platform, cursor, 1);
    REQUIRE(posts.size() == 1);
    CHECK(posts[0].text == "three");
    // The resumed connection beats too (every 300 ms, the first after a random part of it).
    CHECK(discord_test::eventually([&] { return fake.stats()["heartbeats"].get<int>() >= 2; },
                                   std::chrono::seconds(5)));
    CHECK(fake.stats()["identifies"] == 1);
    CHECK(fake.violations().empty());
}

TEST_CASE("a zombie connection (no heartbeat ACK) is closed and resumed", "[discord]") {
    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    fake.control("settings", {{"heartbeat_interval", 200}, {"acking", false}});
    bot::CurlHttpClient http;
    bot::DiscordPlatform platform(http, options_for(fake));
    std::string cursor;
    platform.poll(cursor, std::chrono::seconds(1));
    REQUIRE(discord_test::eventually([&] { return fake.stats()["resumes"].get<int>() >= 1; },
                                     std::chrono::seconds(10)));
    fake.control("settings", {{"acking", true}});
    CHECK(fake.stats()["identifies"] == 1);
    CHECK(fake.violations().empty());
}

TEST_CASE("after a fresh IDENTIFY each channel whose GUILD_CREATE names posts newer than the "
          "handled ones is caught up, oldest first",
          "[discord]") {
    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    const json seen = fake.say(channel, alice, "handled before the restart");
    const std::string other = "300000000000000002";
    const json other_seen = fake.say(other, bob, "handled too");
    fake.say(channel, bob, "e4");
    fake.say(other, alice, "d4");
    fake.say(channel, alice, "e5");
    fake.say("300000000000000003", alice, "a channel the cursor does not know");

    bot::CurlHttpClient http;
    bot::DiscordPlatform platform(http, options_for(fake));
    std::string cursor = json{{channel, seen["id"]}, {other, other_seen["id"]}}.dump();
    // The guild's GUILD_CREATE names the three channels' newest messages: the two of the cursor
    // are read from their entries, the third, unknown, because its newest is newer than those.
    const auto posts = poll_for(platform, cursor, 4);
    REQUIRE(posts.size() == 4);
    CHECK(posts[0].channel == channel);
    CHECK(posts[0].text == "e4");
    CHECK(posts[1].channel == channel);
    CHECK(posts[1].text == "e5");
    CHECK(posts[2].channel == other);
    CHECK(posts[2].text == "d4");
    CHECK(posts[3].channel == "300000000000000003");
    CHECK(posts[3].text == "a channel the cursor does not know");
    CHECK(bot::parse_discord_cursor(posts[2].cursor) ==
          bot::DiscordCursor{{channel, posts[1].message_id}, {other, posts[2].message_id}});
    CHECK(bot::parse_discord_cursor(posts[3].cursor).size() == 3);
    // Each channel with something new was read once (a page of messages each).
    CHECK(fake.stats()["message_reads"] == 3);
    // The bot's reply becomes the channel's newest message: seen on the Gateway, it counts as
    // read, so the next fresh session has no reason to read the channel.
    bot::Reply reply;
    reply.destination = channel;
    reply.text = "noted";
    reply.idempotency_key = "fresh-1";
    REQUIRE(platform.send(reply).status == bot::Delivery::Status::Sent);
    CHECK(platform.poll(cursor, std::chrono::seconds(2)).empty()); // its MESSAGE_CREATE
    // A non-resumable op 9: a fresh session again, and a catch-up that finds nothing new.
    fake.control("invalid_session", {{"resumable", false}});
    REQUIRE(discord_test::eventually([&] { return fake.stats()["identifies"] == 2; },
                                     std::chrono::seconds(15)));
    fake.say(other, bob, "after");
    const auto more = poll_for(platform, cursor, 1);
    REQUIRE(more.size() == 1);
    CHECK(more[0].text == "after");
    // The second session's GUILD_CREATE named nothing newer than the cursor and the bot's own
    // reply: nothing was read.
    CHECK(fake.stats()["message_reads"] == 3);
    CHECK(fake.violations().empty());
}

TEST_CASE("close codes 4004 and 4014 stop the platform with the operator's explanation",
          "[discord]") {
    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    SECTION("4014: the Message Content intent is not enabled") {
        fake.control("settings", {{"close_on_identify", 4014}});
        bot::CurlHttpClient http;
        bot::DiscordPlatform platform(http, options_for(fake));
        REQUIRE(discord_test::eventually(
            [&] {
                platform.poll("", std::chrono::seconds(1));
                return platform.finished();
            },
            std::chrono::seconds(10)));
        CHECK(platform.fatal_error().find("enable the Message Content intent") !=
              std::string::npos);
    }
    SECTION("4004: the token is refused") {
        bot::CurlHttpClient http;
        bot::DiscordPlatform platform(http, options_for(fake));
        platform.poll("", std::chrono::seconds(1));
        fake.control("close", {{"code", 4004}});
        REQUIRE(discord_test::eventually(
            [&] {
                platform.poll("", std::chrono::seconds(1));
                return platform.finished();
            },
            std::chrono::seconds(10)));
        CHECK(platform.fatal_error() == "Discord refused the bot token (close code 4004): check "
                                        "GHOSTPOST_DISCORD_TOKEN or token_file");
    }
    CHECK(fake.violations().empty());
}

TEST_CASE("a token refused by GET /gateway/bot finishes the platform with what to do",
          "[discord]") {
    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    bot::CurlHttpClient http;
    auto options = options_for(fake);
    options.token = "WRONG.token.value-of-the-test";
    bot::DiscordPlatform platform(http, options);
    CHECK(platform.poll("", std::chrono::seconds(1)).empty());
    CHECK(platform.finished());
    CHECK(platform.fatal_error() == "Discord refused the bot token (HTTP 401 from GET "
                                    "/gateway/bot): check GHOSTPOST_DISCORD_TOKEN or token_file");
    // Refused for good: no second try at the next poll.
    const auto requests = fake.stats()["requests"];
    CHECK(platform.poll("", std::chrono::seconds(0)).empty());
    CHECK(fake.stats()["requests"] == requests);
    CHECK(fake.violations().empty());
}

TEST_CASE("a token refused while the bot runs closes the Gateway with 4004 and finishes it",
          "[discord]") {
    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    bot::CurlHttpClient http;
    bot::DiscordPlatform platform(http, options_for(fake));
    CHECK(platform.poll("", std::chrono::seconds(1)).empty());
    CHECK_FALSE(platform.finished());
    fake.refuse_token();
    REQUIRE(discord_test::eventually(
        [&] {
            platform.poll("", std::chrono::seconds(1));
            return platform.finished();
        },
        std::chrono::seconds(10)));
    CHECK(platform.fatal_error() == "Discord refused the bot token (close code 4004): check "
                                    "GHOSTPOST_DISCORD_TOKEN or token_file");
    CHECK(fake.violations().empty());
}

TEST_CASE("the fake Discord lists messages without guild_id, and answers 500 rather than send "
          "a field Discord never sends",
          "[discord][fake]") {
    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    const json said = fake.say(channel, alice, "!pgn");
    CHECK(said["guild_id"] == "800000000000000001"); // MESSAGE_CREATE carries it
    bot::CurlHttpClient http;
    bot::HttpRequest request;
    request.method = "GET";
    request.url = fake.api_url() + "/channels/" + channel + "/messages?limit=10";
    request.headers.push_back(std::string("Authorization: Bot ") + FakeDiscord::token);
    request.timeout = std::chrono::seconds(10);
    const bot::HttpResponse listed = http.post(request);
    REQUIRE(listed.status == 200);
    const json messages = json::parse(listed.body);
    REQUIRE(messages.size() == 1);
    CHECK(messages[0]["id"] == said["id"]);
    CHECK_FALSE(messages[0].contains("guild_id"));
    CHECK_FALSE(messages[0].contains("member"));

    fake.control("bad_answer", {{"route", "GET /channels/{channel_id}/messages"},
                                {"field", "guild_id"},
                                {"value", "800000000000000001"}});
    CHECK(http.post(request).status == 500);
    CHECK(fake.answer_violations() ==
          std::vector<std::string>{
              "the fake's answer to GET /channels/{channel_id}/messages: /0 must NOT have "
              "additional properties {\"additionalProperty\":\"guild_id\"}"});
    CHECK(http.post(request).status == 200);
    CHECK(fake.violations().empty());
}

TEST_CASE("posts caught up after a restart are direct only in a DM channel, read from the "
          "channel once",
          "[discord]") {
    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    const json seen = fake.say(channel, alice, "handled before the restart");
    const json dm_seen = fake.dm(bob, "handled too");
    const std::string dm_channel = dm_seen["channel_id"];
    fake.say(channel, alice, "e4");
    fake.say(channel, bob, "e5");
    fake.dm(bob, "!games");

    bot::CurlHttpClient http;
    bot::DiscordPlatform platform(http, options_for(fake));
    std::string cursor = json{{channel, seen["id"]}, {dm_channel, dm_seen["id"]}}.dump();
    const auto posts = poll_for(platform, cursor, 3);
    REQUIRE(posts.size() == 3);
    std::vector<std::pair<std::string, bool>> read;
    for (const bot::Post& post : posts)
        read.emplace_back(post.text, post.direct);
    std::sort(read.begin(), read.end());
    CHECK(read == std::vector<std::pair<std::string, bool>>{
                      {"!games", true}, {"e4", false}, {"e5", false}});
    CHECK(platform.is_group(channel));
    CHECK_FALSE(platform.is_group(dm_channel));
    // The guild channel's kind its GUILD_CREATE said; the DM channel's was read once.
    CHECK(fake.stats()["channel_reads"] == 1);

    // A fresh session later reads nothing twice: the kinds of channel are known.
    fake.say(channel, alice, "e6");
    fake.control("invalid_session", {{"resumable", false}});
    const auto more = poll_for(platform, cursor, 1);
    REQUIRE(more.size() == 1);
    CHECK(more[0].text == "e6");
    CHECK_FALSE(more[0].direct);
    CHECK(fake.stats()["channel_reads"] == 1);
    CHECK(fake.violations().empty());
}

TEST_CASE("the fake Discord goes down and comes back on its port; the session resumes",
          "[discord][fake]") {
    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    bot::CurlHttpClient http;
    bot::DiscordPlatform platform(http, options_for(fake));
    std::string cursor;
    CHECK(platform.poll(cursor, std::chrono::seconds(1)).empty());

    const std::string before = fake.url();
    fake.go_down();
    CHECK(platform.poll(cursor, std::chrono::seconds(1)).empty()); // the Gateway retries alone
    fake.come_back();
    CHECK(fake.url() == before);
    REQUIRE(discord_test::eventually([&] { return fake.stats()["live"] == 1; },
                                     std::chrono::seconds(20)));
    fake.say(channel, alice, "!pgn");
    const auto posts = poll_for(platform, cursor, 1);
    REQUIRE(posts.size() == 1);
    CHECK(posts[0].text == "!pgn");
    // A new connection, resumed or identified afresh: the Gateway's own choice after an outage.
    CHECK(fake.stats()["connections"].get<int>() >= 2);
    CHECK(fake.violations().empty());
}
