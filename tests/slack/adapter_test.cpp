// SlackPlatform against the fake Slack: sending through the Web API (threads, DMs, a user the
// app may not write to, rate limits, refusals, buttons) and receiving through Socket Mode
// (envelopes acknowledged in time, refreshes and drops, catching up), each Web API request
// checked against Slack's API description.
#include "fake_slack.h"
#include "ghostpost/slack/slack.h"

using namespace ghostpost;
using nlohmann::json;
using slack_test::FakeSlack;
using slack_test::options_for;
using slack_test::poll_for;

namespace {

const std::string games = "CGAMES0001";
const std::string alice = "UALICE0001";
const std::string bob = "UBOBBY0002";

bot::Reply to_channel(const std::string& channel, const std::string& text,
                      const std::string& reply_to = {}) {
    bot::Reply reply;
    reply.platform = "slack";
    reply.destination = channel;
    reply.text = text;
    reply.reply_to = reply_to;
    return reply;
}

} // namespace

TEST_CASE("auth.test names the bot, and a reply goes into the thread of the post it answers",
          "[slack]") {
    slack_test::TempDir dir;
    FakeSlack fake(dir);
    bot::CurlHttpClient http;
    bot::SlackPlatform platform(http, options_for(fake));
    CHECK(platform.identify() == "ghostpost");

    const std::string challenge = fake.say(games, alice, "!new chess <@UBOBBY0002>");
    bot::Reply reply =
        to_channel(games, "@UALICE0001 challenges @UBOBBY0002 & <everyone>", challenge);
    reply.code = "8 r n b q k b n r\n  a b c d e f g h";
    reply.mentions = {{"UALICE0001", "UALICE0001", "alice"}};
    CHECK(platform.send(reply).status == bot::Delivery::Status::Sent);
    // A move posted in that thread is answered in the same thread, not in a new one.
    const std::string move = fake.say(games, bob, "!accept", challenge);
    CHECK(platform.send(to_channel(games, "Game 1 begins.", move + "@" + challenge)).status ==
          bot::Delivery::Status::Sent);
    CHECK(platform.send(to_channel(games, "A notice for the channel.")).status ==
          bot::Delivery::Status::Sent);

    const json sent = fake.sent();
    REQUIRE(sent.size() == 3);
    // Only the player the service named is pinged; Slack's three markup characters escaped.
    CHECK(sent[0]["text"] == "<@UALICE0001> challenges @UBOBBY0002 &amp; &lt;everyone&gt;\n"
                             "```\n8 r n b q k b n r\n  a b c d e f g h\n```");
    CHECK(sent[0]["mrkdwn"] == "true");
    CHECK(sent[0]["thread_ts"] == challenge);
    CHECK(sent[1]["thread_ts"] == challenge);
    CHECK(sent[2]["thread_ts"].is_null());
    CHECK(fake.violations().empty());
}

TEST_CASE("a DM goes through conversations.open; a user the app may not write to is Blocked",
          "[slack]") {
    slack_test::TempDir dir;
    FakeSlack fake(dir);
    bot::CurlHttpClient http;
    bot::SlackPlatform platform(http, options_for(fake));
    platform.identify();

    bot::Reply peek;
    peek.to = bot::Reply::To::User;
    peek.destination = alice;
    peek.text = "Your view of game 1:";
    peek.code = "8 . . . . k . . .";
    peek.reply_to = "1700000001.000001"; // a DM is one conversation: no thread
    CHECK(platform.send(peek).status == bot::Delivery::Status::Sent);

    fake.control("close_dms", {{"user", bob}});
    peek.destination = bob;
    const bot::Delivery blocked = platform.send(peek);
    CHECK(blocked.status == bot::Delivery::Status::Blocked);
    CHECK(blocked.detail == "conversations.open: HTTP 200 user_not_visible");
    fake.control("open_dms", {{"user", bob}});
    CHECK(platform.send(peek).status == bot::Delivery::Status::Sent); // the message waited

    const json sent = fake.sent();
    REQUIRE(sent.size() == 2);
    CHECK(sent[0]["channel"] == "DALICE0001");
    CHECK(sent[0]["thread_ts"].is_null());
    CHECK(sent[1]["channel"] == "DBOBBY0002");
    CHECK(platform.is_group(games));
    CHECK_FALSE(platform.is_group("DALICE0001"));
    CHECK(fake.violations().empty());
}

TEST_CASE("a 429 is honoured to the second of its Retry-After", "[slack]") {
    slack_test::TempDir dir;
    FakeSlack fake(dir);
    bot::CurlHttpClient http;
    bot::SlackPlatform platform(http, options_for(fake));
    platform.identify();
    fake.say(games, alice, "!help"); // the channel exists
    fake.control("rate_limit", {{"method", "chat.postMessage"}, {"retry_after", 2}});
    const bot::Reply reply = to_channel(games, "e4");
    const bot::Delivery limited = platform.send(reply);
    CHECK(limited.status == bot::Delivery::Status::RetryAfter);
    CHECK(limited.retry_after == std::chrono::seconds(2));
    CHECK(limited.detail == "chat.postMessage: HTTP 429 ratelimited");
    // Asked again at once, the adapter waits without calling (the fake counts a call before
    // Retry-After ran out as a violation).
    const bot::Delivery waiting = platform.send(reply);
    CHECK(waiting.status == bot::Delivery::Status::RetryAfter);
    CHECK(waiting.retry_after <= std::chrono::seconds(2));
    std::this_thread::sleep_for(std::chrono::milliseconds(2100));
    CHECK(platform.send(reply).status == bot::Delivery::Status::Sent);
    CHECK(fake.stats()["rate_limited"] == 1);
    CHECK(fake.sent().size() == 1);
    CHECK(fake.violations().empty());
}

TEST_CASE("Slack's errors map to the neutral deliveries; a revoked token stops the lane",
          "[slack]") {
    slack_test::TempDir dir;
    FakeSlack fake(dir);
    bot::CurlHttpClient http;
    bot::SlackPlatform platform(http, options_for(fake));
    platform.identify();
    const bot::Delivery unknown = platform.send(to_channel("CNOWHERE01", "hello"));
    CHECK(unknown.status == bot::Delivery::Status::Failed);
    CHECK(unknown.detail == "chat.postMessage: HTTP 200 channel_not_found");
    fake.say("CLEFTBEHIND", alice, "!help");
    fake.control("leave", {{"channel", "CLEFTBEHIND"}});
    CHECK(platform.send(to_channel("CLEFTBEHIND", "hello")).status ==
          bot::Delivery::Status::Failed);
    CHECK_FALSE(platform.finished());

    fake.control("refuse_token", {{"refuse", true}, {"error", "token_revoked"}});
    const bot::Delivery revoked = platform.send(to_channel(games, "hello"));
    CHECK(revoked.status == bot::Delivery::Status::Transient); // the reply waits for the operator
    CHECK(platform.finished());
    CHECK(platform.refused() == "Slack refused the bot token (token_revoked from "
                                "chat.postMessage): check GHOSTPOST_SLACK_BOT_TOKEN or "
                                "bot_token_file");
    CHECK(revoked.detail.find("xoxb") == std::string::npos);
    CHECK(fake.violations().empty());
}

TEST_CASE("a refused bot token at start is Unauthorized", "[slack]") {
    slack_test::TempDir dir;
    FakeSlack fake(dir);
    fake.control("refuse_token", {{"refuse", true}, {"error", "invalid_auth"}});
    bot::CurlHttpClient http;
    bot::SlackPlatform platform(http, options_for(fake));
    try {
        platform.identify();
        FAIL("identify() accepted a refused token");
    } catch (const bot::PlatformError& e) {
        CHECK(e.kind() == bot::PlatformError::Kind::Unauthorized);
        CHECK(std::string(e.what()) == "Slack refused the bot token (invalid_auth from "
                                       "auth.test): check GHOSTPOST_SLACK_BOT_TOKEN or "
                                       "bot_token_file");
    }
}

TEST_CASE("buttons go out as Block Kit, and resigning asks to be confirmed", "[slack]") {
    slack_test::TempDir dir;
    FakeSlack fake(dir);
    bot::CurlHttpClient http;
    bot::SlackPlatform platform(http, options_for(fake));
    platform.identify();
    fake.say(games, alice, "!new chess <@UBOBBY0002>");
    bot::Reply reply = to_channel(games, "@UBOBBY0002, accept the challenge?");
    reply.buttons = {{"Accept", "!accept 1"}, {"Decline", "!decline 1"}, {"Resign", "!resign 1"}};
    CHECK(platform.send(reply).status == bot::Delivery::Status::Sent);
    const json sent = fake.sent();
    REQUIRE(sent.size() == 1);
    const json blocks = sent[0]["blocks"];
    REQUIRE(blocks.size() == 2);
    CHECK(blocks[0]["text"]["text"] == "@UBOBBY0002, accept the challenge?");
    const json buttons = blocks[1]["elements"];
    REQUIRE(buttons.size() == 3);
    CHECK(buttons[0]["value"] == "!accept 1");
    CHECK(buttons[1]["text"]["text"] == "Decline");
    CHECK_FALSE(buttons[0].contains("confirm"));
    CHECK(buttons[2]["confirm"]["confirm"]["text"] == "Resign");
    CHECK(fake.violations().empty());
}

TEST_CASE("Socket Mode: messages, DMs and mentions become posts, each envelope acknowledged",
          "[slack]") {
    slack_test::TempDir dir;
    FakeSlack fake(dir);
    bot::CurlHttpClient http;
    bot::SlackPlatform platform(http, options_for(fake));
    platform.identify();
    std::string cursor;
    CHECK(slack_test::eventually(
        [&] {
            platform.poll(cursor, std::chrono::seconds(1));
            return fake.stats()["live"] == 1;
        },
        std::chrono::seconds(10)));

    const std::string first = fake.say(games, alice, "!new chess <@UBOBBY0002|bob> &amp; more");
    const std::string mention = fake.say(games, bob, "<@UGHOSTBOT1> !help");
    fake.control(
        "say",
        {{"channel", games}, {"user", alice}, {"text", "edited"}, {"subtype", "message_changed"}});
    const std::string reply = fake.say(games, bob, "!accept", first);
    const std::string direct = fake.dm(alice, "!peek 1");
    const auto posts = poll_for(platform, cursor, 4);
    REQUIRE(posts.size() == 4);
    CHECK(posts[0].platform == "slack");
    CHECK(posts[0].channel == games);
    CHECK(posts[0].message_id == first);
    CHECK(posts[0].author_id == alice);
    CHECK(posts[0].text == "!new chess @UBOBBY0002 & more");
    REQUIRE(posts[0].mentions.size() == 1);
    CHECK(posts[0].mentions[0].user_id == bob);
    CHECK(posts[0].mentions[0].name == "bob");
    CHECK_FALSE(posts[0].direct);
    // The message and its app_mention are one post, without the mention of the app.
    CHECK(posts[1].message_id == mention);
    CHECK(posts[1].text == "!help");
    CHECK(posts[2].message_id == reply + "@" + first);
    CHECK(posts[3].channel == "DALICE0001");
    CHECK(posts[3].direct);
    CHECK(posts[3].text == "!peek 1");
    // The cursor holds each channel's and each thread's last ts.
    CHECK(bot::parse_slack_cursor(posts[3].cursor) ==
          bot::SlackCursor{{games, mention},
                           {games + "@" + first, reply},
                           {games + "@" + mention, mention},
                           {"DALICE0001", direct}});
    CHECK(platform.poll(cursor, std::chrono::seconds(1)).empty()); // the edit was no post
    const json stats = fake.stats();
    CHECK(stats["acks"] == 6); // five messages and one app_mention, all acknowledged
    CHECK(stats["late_acks"] == 0);
    CHECK(stats["unacked"] == 0);
    CHECK(fake.violations().empty());
}

TEST_CASE("Socket Mode: a refresh and a dropped socket are reconnected, and what was posted "
          "meanwhile is caught up once",
          "[slack]") {
    slack_test::TempDir dir;
    FakeSlack fake(dir);
    bot::CurlHttpClient http;
    bot::SlackPlatform platform(http, options_for(fake));
    platform.identify();
    std::string cursor;
    const auto connected = [&] {
        return slack_test::eventually(
            [&] {
                for (auto& post : platform.poll(cursor, std::chrono::seconds(1)))
                    cursor = post.cursor;
                return fake.stats()["live"] == 1;
            },
            std::chrono::seconds(10));
    };
    REQUIRE(connected());
    const std::string challenge = fake.say(games, alice, "!new chess");
    REQUIRE(poll_for(platform, cursor, 1).size() == 1);

    fake.control("disconnect", {{"reason", "refresh_requested"}});
    // A new URL and a new connection, asked for by the poll.
    CHECK(slack_test::eventually(
        [&] {
            for (auto& post : platform.poll(cursor, std::chrono::seconds(1)))
                cursor = post.cursor;
            const json stats = fake.stats();
            return stats["opens"] == 2 && stats["hellos"] == 2 && stats["live"] == 1;
        },
        std::chrono::seconds(10)));

    fake.control("drop");
    // Posted while no socket is open: Socket Mode never delivers these.
    const json stats_before = fake.stats();
    const std::string top = fake.say(games, bob, "!help");
    const std::string in_thread = fake.say(games, bob, "!accept", challenge);
    const auto posts = poll_for(platform, cursor, 2);
    REQUIRE(posts.size() == 2);
    CHECK(posts[0].message_id == top);
    CHECK(posts[1].message_id == in_thread + "@" + challenge);
    CHECK(poll_for(platform, cursor, 1, std::chrono::seconds(2)).empty()); // once only
    CHECK(fake.stats()["history_reads"].get<int>() > stats_before["history_reads"].get<int>());
    CHECK(fake.violations().empty());
}

TEST_CASE("a slash command and a button press become posts of their user", "[slack]") {
    slack_test::TempDir dir;
    FakeSlack fake(dir);
    bot::CurlHttpClient http;
    bot::SlackPlatform platform(http, options_for(fake));
    platform.identify();
    std::string cursor;
    REQUIRE(slack_test::eventually(
        [&] {
            platform.poll(cursor, std::chrono::seconds(1));
            return fake.stats()["live"] == 1;
        },
        std::chrono::seconds(10)));
    fake.control("slash", {{"channel", games}, {"user", alice}, {"text", "move e4"}});
    const std::string challenge = fake.say(games, alice, "!new chess");
    fake.control(
        "press",
        {{"channel", games}, {"user", bob}, {"message_ts", challenge}, {"value", "!accept 1"}});
    const auto posts = poll_for(platform, cursor, 3);
    REQUIRE(posts.size() == 3);
    CHECK(posts[0].text == "!move e4");
    CHECK(posts[0].author_id == alice);
    CHECK(posts[0].message_id.starts_with("c"));
    CHECK(posts[2].text == "!accept 1");
    CHECK(posts[2].button);
    CHECK(posts[2].author_id == bob);
    // Its answer goes into the thread of the message whose button was pressed.
    CHECK(bot::slack_thread_of(posts[2].message_id) == challenge);
    CHECK(fake.stats()["late_acks"] == 0);
    CHECK(fake.violations().empty());
}

TEST_CASE("link_disabled ends the lane with the operator's explanation", "[slack]") {
    slack_test::TempDir dir;
    FakeSlack fake(dir);
    bot::CurlHttpClient http;
    bot::SlackPlatform platform(http, options_for(fake));
    platform.identify();
    std::string cursor;
    REQUIRE(slack_test::eventually(
        [&] {
            platform.poll(cursor, std::chrono::seconds(1));
            return fake.stats()["live"] == 1;
        },
        std::chrono::seconds(10)));
    fake.control("disconnect", {{"reason", "link_disabled"}});
    CHECK(slack_test::eventually(
        [&] {
            platform.poll(cursor, std::chrono::seconds(1));
            return platform.finished();
        },
        std::chrono::seconds(10)));
    CHECK(platform.refused() == "Slack turned Socket Mode off for the app (link_disabled): turn "
                                "it on again under the app's Socket Mode settings");
}

TEST_CASE("a PNG board goes up by the upload flow, into the thread, with the text as its comment",
          "[slack]") {
    slack_test::TempDir dir;
    FakeSlack fake(dir);
    bot::CurlHttpClient http;
    bot::SlackPlatform platform(http, options_for(fake));
    platform.identify();
    const std::string post = fake.say(games, alice, "!board png");
    bot::Reply reply = to_channel(games, "Game 1: White to move.", post);
    reply.png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13};
    CHECK(platform.send(reply).status == bot::Delivery::Status::Sent);
    const json sent = fake.sent();
    REQUIRE(sent.size() == 1);
    CHECK(sent[0]["channel"] == games);
    CHECK(sent[0]["thread_ts"] == post);
    CHECK(sent[0]["text"] == "Game 1: White to move.");
    REQUIRE(sent[0]["files"].size() == 1);
    CHECK(sent[0]["files"][0]["png"] == "89504e470d0a1a0a");
    CHECK(fake.stats()["uploads"] == 1);
    CHECK(fake.violations().empty());
}

TEST_CASE("a catch-up that meets a 429 keeps what it read and goes on after Retry-After",
          "[slack]") {
    slack_test::TempDir dir;
    FakeSlack fake(dir);
    bot::CurlHttpClient http;
    bot::SlackPlatform platform(http, options_for(fake));
    platform.identify();
    std::string cursor;
    REQUIRE(slack_test::eventually(
        [&] {
            platform.poll(cursor, std::chrono::seconds(1));
            return fake.stats()["live"] == 1;
        },
        std::chrono::seconds(10)));
    const std::string challenge = fake.say(games, alice, "!new chess");
    REQUIRE(poll_for(platform, cursor, 1).size() == 1);
    fake.control("drop");
    const std::string top = fake.say(games, bob, "!help");
    const std::string reply = fake.say(games, bob, "!accept", challenge);
    fake.control("rate_limit", {{"method", "conversations.replies"}, {"retry_after", 1}});

    std::vector<bot::Post> posts;
    std::vector<std::chrono::milliseconds> waits;
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(15);
    while (posts.size() < 2 && std::chrono::steady_clock::now() < end) {
        try {
            for (auto& post : platform.poll(cursor, std::chrono::seconds(1))) {
                cursor = post.cursor;
                posts.push_back(std::move(post));
            }
        } catch (const bot::PlatformError& e) {
            REQUIRE(e.kind() == bot::PlatformError::Kind::RateLimited);
            waits.push_back(e.retry_after());
            std::this_thread::sleep_for(e.retry_after());
        }
    }
    REQUIRE(posts.size() == 2);
    CHECK(posts[0].message_id == top); // read before the 429, and kept
    CHECK(posts[1].message_id == reply + "@" + challenge);
    CHECK(waits.size() == 1); // the thread's 429 once, waited out, never called early
    CHECK(poll_for(platform, cursor, 1, std::chrono::seconds(2)).empty());
    CHECK(fake.stats()["rate_limited"] == 1);
    CHECK(fake.violations().empty());
}

TEST_CASE("Socket Mode: a refresh opens the new connection before the old one closes, and what "
          "comes on either is handled once, with no catch-up",
          "[slack]") {
    slack_test::TempDir dir;
    FakeSlack fake(dir);
    bot::CurlHttpClient http;
    bot::SlackPlatform platform(http, options_for(fake));
    platform.identify();
    std::string cursor;
    std::vector<bot::Post> posts;
    const auto polling_until = [&](auto done) {
        return slack_test::eventually(
            [&] {
                for (auto& post : platform.poll(cursor, std::chrono::seconds(1))) {
                    cursor = post.cursor;
                    posts.push_back(std::move(post));
                }
                return done();
            },
            std::chrono::seconds(10));
    };
    REQUIRE(polling_until([&] { return fake.stats()["live"] == 1; }));
    const std::string challenge = fake.say(games, alice, "!new chess");
    // Counted from here once the challenge's envelope is acknowledged too: its ack may follow
    // the post on a busy machine.
    REQUIRE(polling_until([&] { return posts.size() == 1 && fake.stats()["acks"] == 1; }));
    const json before = fake.stats();

    // The new connection's hello comes late: both connections are open meanwhile.
    fake.control("disconnect", {{"reason", "refresh_requested"}, {"hold_hello_ms", 1500}});
    REQUIRE(polling_until([&] { return fake.stats()["live"] == 2; }));
    const std::string on_old = fake.control(
        "say", {{"channel", games}, {"user", bob}, {"text", "!help"}, {"via", "old"}})["ts"];
    const std::string on_both = fake.control("say", {{"channel", games},
                                                     {"user", alice},
                                                     {"text", "!accept"},
                                                     {"thread_ts", challenge},
                                                     {"via", "both"}})["ts"];
    // The new one said hello, and the old one was closed after it.
    REQUIRE(polling_until([&] {
        const json stats = fake.stats();
        return stats["hellos"] == before["hellos"].get<int>() + 1 && stats["live"] == 1;
    }));
    const std::string on_new = fake.control(
        "say", {{"channel", games}, {"user", bob}, {"text", "!board"}, {"via", "new"}})["ts"];
    REQUIRE(polling_until([&] { return posts.size() >= 4; }));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    CHECK(platform.poll(cursor, std::chrono::seconds(1)).empty()); // each once
    REQUIRE(posts.size() == 4);
    CHECK(posts[1].message_id == on_old);
    CHECK(posts[2].message_id == on_both + "@" + challenge);
    CHECK(posts[3].message_id == on_new);

    const json stats = fake.stats();
    CHECK(stats["opens"] == before["opens"].get<int>() + 1);
    CHECK(stats["zero_open"] == before["zero_open"]);         // never without an open connection
    CHECK(stats["history_reads"] == before["history_reads"]); // nothing to catch up
    CHECK(stats["replies_reads"] == before["replies_reads"]);
    CHECK(stats["acks"] == before["acks"].get<int>() + 4); // "both" came twice, acked on each
    CHECK(stats["late_acks"] == 0);
    CHECK(stats["unacked"] == 0);
    CHECK(fake.violations().empty());
}

TEST_CASE("a reply of several messages cut short is finished after a restart: each piece once, "
          "in order, whether the cut piece was posted or not",
          "[slack]") {
    for (const bool cut_piece_posted : {false, true}) {
        slack_test::TempDir dir;
        FakeSlack fake(dir);
        bot::CurlHttpClient http;
        const std::string thread = fake.say(games, alice, "!pgn 1");
        // Three messages: Slack advises at most 4,000 characters in one.
        const std::string a(3000, 'a'), b(3000, 'b'), c(3000, 'c');
        bot::Reply reply = to_channel(games, a + "\n" + b + "\n" + c, thread);
        reply.idempotency_key = "41.1700000000";

        fake.control("stall",
                     {{"method", "chat.postMessage"}, {"after", 1}, {"store", cut_piece_posted}});
        {
            auto options = options_for(fake);
            options.request_timeout = std::chrono::seconds(1);
            bot::SlackPlatform before(http, options);
            before.identify();
            // The second message gets no answer: the daemon is gone before it would come.
            CHECK(before.send(reply).status == bot::Delivery::Status::Transient);
        }
        REQUIRE(fake.stats()["stalled"] == 1);
        const int reads = fake.stats()["replies_reads"].get<int>();

        bot::SlackPlatform after(http, options_for(fake)); // the daemon started again
        after.identify();
        CHECK(after.send(reply).status == bot::Delivery::Status::Sent);
        const json sent = fake.sent();
        REQUIRE(sent.size() == 3);
        CHECK(sent[0]["text"] == a);
        CHECK(sent[1]["text"] == b);
        CHECK(sent[2]["text"] == c);
        for (std::size_t i = 0; i < sent.size(); ++i) {
            CHECK(sent[i]["thread_ts"] == thread);
            CHECK(sent[i]["metadata"] ==
                  json{{"event_type", "ghostpost_reply_piece"},
                       {"event_payload",
                        {{"key", "41.1700000000"}, {"piece", i + 1}, {"pieces", 3}}}});
        }
        // One look at the thread told what was posted already.
        CHECK(fake.stats()["replies_reads"] == reads + 1);
        CHECK(fake.violations().empty());
    }
}

TEST_CASE("an answer for the one who typed a slash command goes to its response_url as an "
          "ephemeral message: five at most, none after it expired, the rest in the channel",
          "[slack]") {
    slack_test::TempDir dir;
    FakeSlack fake(dir);
    bot::CurlHttpClient http;
    bot::SlackPlatform platform(http, options_for(fake));
    platform.identify();
    std::string cursor;
    REQUIRE(slack_test::eventually(
        [&] {
            platform.poll(cursor, std::chrono::seconds(1));
            return fake.stats()["live"] == 1;
        },
        std::chrono::seconds(10)));
    fake.control("slash", {{"channel", games}, {"user", alice}, {"text", "help"}});
    const auto posts = poll_for(platform, cursor, 1);
    REQUIRE(posts.size() == 1);
    CHECK(posts[0].private_answers);
    const std::string command = posts[0].message_id;

    // For alice alone; an answer for all (no reply_to) stays in the channel.
    CHECK(platform.send(to_channel(games, "Commands: <all of them>", command)).status ==
          bot::Delivery::Status::Sent);
    CHECK(platform.send(to_channel(games, "For everyone.")).status == bot::Delivery::Status::Sent);
    json responses = fake.control("responses")["responses"];
    REQUIRE(responses.size() == 1);
    CHECK(responses[0]["response_type"] == "ephemeral");
    CHECK(responses[0]["text"] == "Commands: &lt;all of them&gt;");
    CHECK(responses[0]["user"] == alice);
    REQUIRE(fake.sent().size() == 1);
    CHECK(fake.sent()[0]["text"] == "For everyone.");

    // Slack takes five answers there: the sixth goes to the channel, and the URL is not tried.
    for (int i = 2; i <= 6; ++i)
        CHECK(platform.send(to_channel(games, "Answer " + std::to_string(i), command)).status ==
              bot::Delivery::Status::Sent);
    CHECK(fake.control("responses")["responses"].size() == 5);
    REQUIRE(fake.sent().size() == 2);
    CHECK(fake.sent()[1]["text"] == "Answer 6");

    // Thirty minutes later the address answers 404: the answer goes to the channel instead.
    fake.control("slash", {{"channel", games}, {"user", bob}, {"text", "board 1"}});
    const auto later = poll_for(platform, cursor, 1);
    REQUIRE(later.size() == 1);
    fake.control("expire_responses");
    CHECK(platform.send(to_channel(games, "Game #1: the board.", later[0].message_id)).status ==
          bot::Delivery::Status::Sent);
    CHECK(fake.stats()["responses_refused"] == 1);
    REQUIRE(fake.sent().size() == 3);
    CHECK(fake.sent()[2]["text"] == "Game #1: the board.");
    CHECK(fake.violations().empty());
}
