// The Discourse adapter over libcurl against the fake forum, which checks every request
// against the published OpenAPI description; and the pure reading of one post.
#include "fake_discourse.h"
#include "ghostpost/discourse/discourse.h"

using namespace ghostpost;
using namespace ghostpost::bot;
using nlohmann::json;
using test::FakeDiscourse;

namespace {

DiscourseOptions options_for(const FakeDiscourse& fake) {
    DiscourseOptions o;
    o.base_url = fake.url() + "/";
    o.username = FakeDiscourse::bot;
    o.api_key = FakeDiscourse::key;
    o.categories = {5};
    o.request_timeout = std::chrono::seconds(10);
    return o;
}

// A PNG signature and IHDR header of a `width` x `height` image: all the fake reads.
std::vector<std::uint8_t> png_of(std::uint8_t width, std::uint8_t height) {
    return {0x89, 'P', 'N', 'G', '\r',  '\n', 0x1A, '\n', 0,      0, 0, 13, 'I', 'H', 'D',
            'R',  0,   0,   0,   width, 0,    0,    0,    height, 8, 3, 0,  0,   0};
}

Reply to_topic(std::int64_t topic, const std::string& text, const std::string& key) {
    Reply r;
    r.platform = "discourse";
    r.destination = std::to_string(topic);
    r.text = text;
    r.idempotency_key = key;
    return r;
}

Reply to_user(const std::string& user_id, const std::string& text, const std::string& key) {
    Reply r = to_topic(0, text, key);
    r.to = Reply::To::User;
    r.destination = user_id;
    return r;
}

} // namespace

TEST_CASE("posts in watched categories and posts that mention the bot are read, others only "
          "move the cursor",
          "[discourse][fake]") {
    test::TempDir dir;
    FakeDiscourse fake(dir);
    fake.say("carol", "An old post from before the bot came", 0, 1);
    CurlHttpClient http;
    DiscoursePlatform discourse(http, options_for(fake));

    // The first start begins at the newest post: what came before is no command to us.
    auto posts = discourse.poll("", std::chrono::seconds(0));
    REQUIRE(posts.size() == 1);
    CHECK(posts[0].text.empty());
    CHECK(posts[0].cursor == "100");

    const auto challenge = fake.say("alice", "!new chess @bob white", 0, 5);
    fake.say("carol", "Anyone up for a walk?", 0, 1);
    const auto called = fake.say("mallory", "@GhostPost, !games", 0, 1);
    fake.say("carol", "Nice weather today", challenge["topic_id"].get<std::int64_t>() + 1);
    posts = discourse.poll("100", std::chrono::seconds(0));
    REQUIRE(posts.size() == 3);
    CHECK(posts[0].platform == "discourse");
    CHECK(posts[0].channel == std::to_string(challenge["topic_id"].get<int>()));
    CHECK(posts[0].message_id == "1");
    CHECK(posts[0].author_id == "7");
    CHECK(posts[0].author_handle == "alice");
    CHECK(posts[0].author_name == "Alice");
    CHECK(posts[0].text == "!new chess @bob white");
    REQUIRE(posts[0].mentions.size() == 1);
    CHECK(posts[0].mentions[0].handle == "bob");
    CHECK(posts[0].cursor == "101");
    CHECK_FALSE(posts[0].direct);
    CHECK(posts[1].text == "!games"); // the leading mention of the bot is taken off
    CHECK(posts[1].author_handle == "mallory");
    CHECK(posts[1].cursor == std::to_string(called["id"].get<int>()));
    CHECK(posts[2].text.empty()); // carol's chatter elsewhere: the cursor moves past it
    CHECK(posts[2].cursor == "104");
    CHECK(discourse.poll("104", std::chrono::seconds(0)).empty());

    // Where the bot was called, the topic stays bound: a move there needs no mention.
    fake.say("mallory", "e4", called["topic_id"].get<std::int64_t>());
    posts = discourse.poll("104", std::chrono::seconds(0));
    REQUIRE(posts.size() == 1);
    CHECK(posts[0].text == "e4");
    CHECK(posts[0].channel == std::to_string(called["topic_id"].get<int>()));
    CHECK(posts[0].message_id == "2");
    CHECK(fake.violations().empty());
}

TEST_CASE("after downtime the posts are read page by page back to the cursor, none skipped",
          "[discourse][fake]") {
    test::TempDir dir;
    FakeDiscourse fake(dir);
    fake.say("carol", "The first post of the forum", 0, 1);
    CurlHttpClient http;
    DiscourseOptions options = options_for(fake);
    options.max_pages = 1; // one page of 50 a poll: three polls to reach the cursor
    DiscoursePlatform discourse(http, options);
    REQUIRE(discourse.poll("", std::chrono::seconds(0)).size() == 1);

    fake.say("alice", "!games");
    for (int i = 0; i < 119; ++i)
        fake.say("carol", "Chatter number " + std::to_string(i) + " in the lounge", 0, 1);
    fake.say("bob", "!games");
    CHECK(discourse.poll("100", std::chrono::seconds(0)).empty());
    CHECK(discourse.poll("100", std::chrono::seconds(0)).empty());
    const auto posts = discourse.poll("100", std::chrono::seconds(0));
    REQUIRE(posts.size() == 2);
    CHECK(posts[0].author_handle == "alice");
    CHECK(posts[0].cursor == "101");
    CHECK(posts[1].author_handle == "bob");
    CHECK(posts[1].cursor == "221");
    CHECK(discourse.poll("221", std::chrono::seconds(0)).empty());
    CHECK(fake.violations().empty());
}

TEST_CASE("a private message is a direct post, read once both lists have been seen past it",
          "[discourse][fake]") {
    test::TempDir dir;
    FakeDiscourse fake(dir);
    fake.say("carol", "The first post of the forum", 0, 1);
    CurlHttpClient http;
    DiscoursePlatform discourse(http, options_for(fake));
    REQUIRE(discourse.poll("", std::chrono::seconds(0)).size() == 1);

    const auto pm = fake.whisper("bob", "!games");
    // Posted after the newest public post: it waits for the next poll, when no public post
    // made between the two requests can still be missing below it.
    CHECK(discourse.poll("100", std::chrono::seconds(0)).empty());
    const auto posts = discourse.poll("100", std::chrono::seconds(0));
    REQUIRE(posts.size() == 1);
    CHECK(posts[0].direct);
    CHECK(posts[0].text == "!games");
    CHECK(posts[0].author_id == "8");
    CHECK(posts[0].channel == std::to_string(pm["topic_id"].get<int>()));
    CHECK(posts[0].cursor == std::to_string(pm["id"].get<int>()));
    CHECK_FALSE(discourse.is_group(posts[0].channel));
    CHECK(discourse.is_group("1000"));
    CHECK(discourse.poll(posts[0].cursor, std::chrono::seconds(0)).empty());
    CHECK(fake.violations().empty());
}

TEST_CASE("an edited post is not read again and a deleted one is skipped", "[discourse][fake]") {
    test::TempDir dir;
    FakeDiscourse fake(dir);
    fake.say("carol", "The first post of the forum", 0, 1);
    CurlHttpClient http;
    DiscoursePlatform discourse(http, options_for(fake));
    REQUIRE(discourse.poll("", std::chrono::seconds(0)).size() == 1);

    const auto move = fake.say("alice", "e4");
    auto posts = discourse.poll("100", std::chrono::seconds(0));
    REQUIRE(posts.size() == 1);
    CHECK(posts[0].text == "e4");
    fake.control("edit", {{"id", move["id"]}, {"raw", "d4"}});
    CHECK(discourse.poll(posts[0].cursor, std::chrono::seconds(0)).empty());

    const auto gone = fake.say("alice", "!resign", move["topic_id"].get<std::int64_t>());
    fake.control("delete", {{"id", gone["id"]}});
    fake.say("alice", "!board", move["topic_id"].get<std::int64_t>());
    posts = discourse.poll(posts[0].cursor, std::chrono::seconds(0));
    REQUIRE(posts.size() == 1);
    CHECK(posts[0].text == "!board");
    CHECK(posts[0].message_id == "3");
    CHECK(fake.violations().empty());
}

TEST_CASE("a reply answers its post with a board in a code fence and an uploaded PNG",
          "[discourse][fake]") {
    test::TempDir dir;
    FakeDiscourse fake(dir);
    const auto asked = fake.say("alice", "!board png");
    CurlHttpClient http;
    DiscoursePlatform discourse(http, options_for(fake));

    Reply reply = to_topic(asked["topic_id"], "Game #3 <White> *to move* [ok]", "41.1700000000");
    reply.code = " 8  r n b\n 1  R N B";
    reply.reply_to = "1";
    reply.png = png_of(2, 3);
    const Delivery d = discourse.send(reply);
    CHECK(d.status == Delivery::Status::Sent);
    CHECK(d.detail.empty());

    const json sent = fake.sent();
    REQUIRE(sent.size() == 1);
    CHECK(sent[0]["topic_id"] == asked["topic_id"]);
    CHECK(sent[0]["reply_to_post_number"] == 1);
    CHECK(sent[0]["private"] == false);
    const json uploads = fake.control("uploads")["uploads"];
    REQUIRE(uploads.size() == 1);
    CHECK(uploads[0]["type"] == "composer");
    CHECK(uploads[0]["filename"] == "board.png");
    CHECK(uploads[0]["content_type"] == "image/png");
    const std::string sha = uploads[0]["sha1"];
    CHECK(sent[0]["raw"] == "Game #3 \\<White\\> \\*to move\\* \\[ok\\]\n\n```text\n 8  r n b\n"
                            " 1  R N B\n```\n\n![board|2x3](upload://" +
                                sha.substr(0, 27) + ".png)\n\n<!-- ghostpost 41.1700000000 -->");
    CHECK(discourse.is_group(std::to_string(asked["topic_id"].get<int>())));
    CHECK(fake.violations().empty());
}

TEST_CASE("a private reply opens one message topic per player and reuses it, after a restart "
          "too",
          "[discourse][fake]") {
    test::TempDir dir;
    FakeDiscourse fake(dir);
    CurlHttpClient http;
    {
        DiscoursePlatform discourse(http, options_for(fake));
        CHECK(
            discourse.send(to_user("8", "Game #1: your Phantom now stands on c3", "1.1")).status ==
            Delivery::Status::Sent);
        CHECK(discourse.send(to_user("8", "Game #1: peek: nothing new", "2.1")).status ==
              Delivery::Status::Sent);
    }
    DiscoursePlatform restarted(http, options_for(fake));
    CHECK(restarted.send(to_user("8", "Game #1: your Phantom was captured", "3.1")).status ==
          Delivery::Status::Sent);
    CHECK(restarted.send(to_user("7", "Game #1: your Phantom now stands on f6", "4.1")).status ==
          Delivery::Status::Sent);

    const json sent = fake.sent();
    REQUIRE(sent.size() == 4);
    for (const json& s : sent)
        CHECK(s["private"] == true);
    CHECK(sent[0]["recipients"] == json{"bob"});
    CHECK(sent[0]["post_number"] == 1);
    CHECK(sent[1]["topic_id"] == sent[0]["topic_id"]);
    CHECK(sent[1]["post_number"] == 2);
    CHECK(sent[2]["topic_id"] == sent[0]["topic_id"]); // found again after the restart
    CHECK(sent[2]["post_number"] == 3);
    CHECK(sent[3]["recipients"] == json{"alice"});
    CHECK(sent[3]["topic_id"] != sent[0]["topic_id"]);
    CHECK(fake.violations().empty());
}

TEST_CASE("a player who accepts no private messages is blocked, and reached once they do",
          "[discourse][fake]") {
    test::TempDir dir;
    FakeDiscourse fake(dir);
    fake.control("allow_pm", {{"id", 9}, {"allow", false}});
    CurlHttpClient http;
    DiscoursePlatform discourse(http, options_for(fake));
    const Delivery d = discourse.send(to_user("9", "Game #2: your Phantom stands on b3", "5.1"));
    CHECK(d.status == Delivery::Status::Blocked);
    CHECK(d.detail == "posts.json: HTTP 422: Sorry, you cannot send a personal message to carol.");
    fake.control("allow_pm", {{"id", 9}, {"allow", true}});
    CHECK(discourse.send(to_user("9", "Game #2: your Phantom stands on b3", "5.1")).status ==
          Delivery::Status::Sent);
    CHECK(fake.sent().size() == 1);
    CHECK(fake.violations().empty());
}

TEST_CASE("a refusal as identical is our own earlier attempt; other refusals are not retried",
          "[discourse][fake]") {
    test::TempDir dir;
    FakeDiscourse fake(dir);
    const auto topic = fake.say("alice", "!new chess @bob")["topic_id"].get<std::int64_t>();
    CurlHttpClient http;
    DiscoursePlatform discourse(http, options_for(fake));

    // The same reply twice (its answer was lost, say): Discourse refuses the copy.
    const Reply reply = to_topic(topic, "@bob accepts. Game #1 begins.", "7.1700000000");
    CHECK(discourse.send(reply).status == Delivery::Status::Sent);
    const Delivery again = discourse.send(reply);
    CHECK(again.status == Delivery::Status::Sent);
    CHECK(again.detail == "posts.json: HTTP 422: Body is too similar to what you recently posted");
    // Two replies with the same words are two posts: their keys differ.
    CHECK(discourse.send(to_topic(topic, "@bob accepts. Game #1 begins.", "8.1700000000")).status ==
          Delivery::Status::Sent);
    CHECK(fake.sent().size() == 2);

    fake.control("fault", {{"method", "POST"},
                           {"path", "/posts.json"},
                           {"status", 422},
                           {"count", 1},
                           {"error", "Body is too short (minimum is 20 characters)"}});
    const Delivery short_one = discourse.send(to_topic(topic, "ok", "9.1700000000"));
    CHECK(short_one.status == Delivery::Status::Failed);
    CHECK(short_one.detail == "posts.json: HTTP 422: Body is too short (minimum is 20 characters)");
    fake.control("fault", {{"method", "POST"},
                           {"path", "/posts.json"},
                           {"status", 404},
                           {"count", 1},
                           {"error", "The requested URL or resource could not be found."}});
    CHECK(discourse.send(to_topic(topic, "A reply to a topic since deleted", "10.1")).status ==
          Delivery::Status::Failed);
    fake.control("fault",
                 {{"method", "POST"}, {"path", "/posts.json"}, {"status", 502}, {"count", 1}});
    CHECK(discourse.send(to_topic(topic, "A reply during an outage", "11.1")).status ==
          Delivery::Status::Transient);
    CHECK(fake.violations().empty());
}

TEST_CASE("429 is waited out as Discourse says, without asking again before", "[discourse][fake]") {
    test::TempDir dir;
    FakeDiscourse fake(dir);
    const auto topic = fake.say("alice", "!new chess @bob")["topic_id"].get<std::int64_t>();
    CurlHttpClient http;
    auto now = std::chrono::steady_clock::now();
    DiscourseOptions options = options_for(fake);
    options.clock = [&now] { return now; };
    DiscoursePlatform discourse(http, options);

    fake.control("fault", {{"method", "POST"},
                           {"path", "/posts.json"},
                           {"status", 429},
                           {"count", 1},
                           {"wait_seconds", 7}});
    const Delivery d = discourse.send(to_topic(topic, "@alice played e4 in game #1.", "1.1"));
    CHECK(d.status == Delivery::Status::RetryAfter);
    CHECK(d.retry_after == std::chrono::seconds(7));
    const auto calls = fake.control("calls")["calls"].size();
    now += std::chrono::seconds(3);
    const Delivery early = discourse.send(to_topic(topic, "@bob played e5 in game #1.", "2.1"));
    CHECK(early.status == Delivery::Status::RetryAfter);
    CHECK(early.retry_after == std::chrono::seconds(4));
    try {
        discourse.poll("1", std::chrono::seconds(0));
        FAIL("a poll inside the wait must not reach Discourse");
    } catch (const PlatformError& e) {
        CHECK(e.kind() == PlatformError::Kind::RateLimited);
        CHECK(e.retry_after() == std::chrono::seconds(4));
    }
    CHECK(fake.control("calls")["calls"].size() == calls);
    now += std::chrono::seconds(4);
    CHECK(discourse.send(to_topic(topic, "@alice played e4 in game #1.", "1.1")).status ==
          Delivery::Status::Sent);

    // A poll's 429 the same way, from the header.
    fake.control("fault", {{"method", "GET"},
                           {"path", "/posts.json"},
                           {"status", 429},
                           {"count", 1},
                           {"wait_seconds", 2}});
    try {
        discourse.poll("1", std::chrono::seconds(0));
        FAIL("the 429 must be thrown");
    } catch (const PlatformError& e) {
        CHECK(e.kind() == PlatformError::Kind::RateLimited);
        CHECK(e.retry_after() == std::chrono::seconds(2));
    }
    CHECK(fake.violations().empty());
}

TEST_CASE("a 429 without Retry-After is read from extras.wait_seconds, and a per-user post "
          "limit is waited out",
          "[discourse][fake]") {
    test::TempDir dir;
    FakeDiscourse fake(dir);
    const auto topic = fake.say("alice", "!new chess @bob")["topic_id"].get<std::int64_t>();
    CurlHttpClient http;
    auto now = std::chrono::steady_clock::now();
    DiscourseOptions options = options_for(fake);
    options.clock = [&now] { return now; };
    DiscoursePlatform discourse(http, options);

    fake.control("fault", {{"method", "POST"},
                           {"path", "/posts.json"},
                           {"status", 429},
                           {"count", 1},
                           {"wait_seconds", 9},
                           {"no_header", true}});
    const Delivery d = discourse.send(to_topic(topic, "@alice played e4 in game #1.", "1.1"));
    CHECK(d.status == Delivery::Status::RetryAfter);
    CHECK(d.retry_after == std::chrono::seconds(9));
    CHECK(d.detail == "posts.json: HTTP 429: You\xE2\x80\x99ve performed this action too many "
                      "times. Please wait 9 seconds before trying again.");
    now += std::chrono::seconds(9);

    // Discourse's rate_limit_create_post, for an account that is not staff or TL4.
    fake.control("settings", {{"rate_limit_create_post", 30}});
    CHECK(discourse.send(to_topic(topic, "@alice played e4 in game #1.", "1.1")).status ==
          Delivery::Status::Sent);
    const Delivery next = discourse.send(to_topic(topic, "@bob played e5 in game #1.", "2.1"));
    CHECK(next.status == Delivery::Status::RetryAfter);
    CHECK(next.retry_after >= std::chrono::seconds(29));
    CHECK(next.retry_after <= std::chrono::seconds(31));
    CHECK(fake.sent().size() == 1);
    CHECK(fake.violations().empty());
}

TEST_CASE("a refused key stops polling as unauthorized and is never quoted", "[discourse][fake]") {
    test::TempDir dir;
    FakeDiscourse fake(dir);
    CurlHttpClient http;
    DiscourseOptions options = options_for(fake);
    options.api_key = "wrong-key-that-is-secret-too";
    DiscoursePlatform discourse(http, options);
    try {
        discourse.poll("", std::chrono::seconds(0));
        FAIL("a refused key must throw");
    } catch (const PlatformError& e) {
        CHECK(e.kind() == PlatformError::Kind::Unauthorized);
        CHECK(std::string(e.what()) ==
              "posts.json: HTTP 403: You are not permitted to view the requested resource. The "
              "API username or key is invalid.");
    }
    const Delivery d = discourse.send(to_topic(1000, "A reply nobody will read", "1.1"));
    CHECK(d.status == Delivery::Status::Transient);
    CHECK(d.detail.find("wrong-key") == std::string::npos);
}

TEST_CASE("the fake forum refuses a request the API description does not allow",
          "[discourse][fake]") {
    test::TempDir dir;
    FakeDiscourse fake(dir);
    CurlHttpClient http;
    HttpRequest request;
    request.url = fake.url() + "/posts.json";
    request.headers = {std::string("Api-Key: ") + FakeDiscourse::key, "Api-Username: ghostpost"};
    request.body = R"({"topic_id": 1000, "raw": "a reply long enough to post", "reply_to": 1})";
    CHECK(http.post(request).status == 400);
    request.body = R"({"topic_id": "1000", "raw": "a reply long enough to post"})";
    CHECK(http.post(request).status == 400);
    request.method = "GET";
    request.url = fake.url() + "/posts.json?since=5";
    CHECK(http.post(request).status == 400);
    request.url = fake.url() + "/private-posts.json";
    CHECK(http.post(request).status == 400);
    request.method = "POST";
    request.url = fake.url() + "/uploads.json";
    request.parts = {{"type", "composer", "", ""}, {"file", "x", "board.png", "image/png"}};
    CHECK(http.post(request).status == 400);
    CHECK(fake.violations() ==
          json{"POST /posts.json body: Additional properties are not allowed ('reply_to' was "
               "unexpected)",
               "POST /posts.json body.topic_id: '1000' is not of type 'integer'",
               "GET /posts.json: query parameter since is not described",
               "GET /private-posts.json: not in the API description",
               "POST /uploads.json body: 'upload_type' is a required property",
               "POST /uploads.json body: Additional properties are not allowed ('type' was "
               "unexpected)"});
}

TEST_CASE("a post is read without trusting its bytes", "[discourse][decode]") {
    DiscourseOptions options;
    options.username = "ghostpost";
    options.categories = {5};
    CHECK(decode_post("{", options, false).problem == "the post is not JSON");
    CHECK(decode_post("[]", options, false).problem == "the post is not an object");
    CHECK(
        decode_post(R"({"id": 5, "topic_id": 1, "post_number": "x", "user_id": 1})", options, false)
            .problem == "post_number is missing or not an integer");

    const auto read = decode_post(
        R"({"id": 12, "topic_id": 40, "post_number": 3, "user_id": 7, "username": "alice",
            "name": "Alice\nof the\u0007 Lake", "category_id": 1, "post_type": 1,
            "raw": "  @ghostpost: !new ghost @bob.smith and mail a@b.org."})",
        options, false);
    REQUIRE(read.problem.empty());
    CHECK(read.addressed);
    CHECK(read.readable);
    CHECK_FALSE(read.own);
    CHECK(read.post.text == "!new ghost @bob.smith and mail a@b.org.");
    CHECK(read.post.author_name == "Alice of the  Lake");
    REQUIRE(read.post.mentions.size() == 1);
    CHECK(read.post.mentions[0].handle == "bob.smith");

    const auto own = decode_post(R"({"id": 13, "topic_id": 40, "post_number": 4, "user_id": 10,
            "username": "GhostPost", "category_id": 5, "raw": "a board"})",
                                 options, false);
    CHECK(own.own);
    CHECK_FALSE(own.readable);
    const auto system = decode_post(R"({"id": 14, "topic_id": 40, "post_number": 5,
            "user_id": -1, "username": "system", "category_id": 5, "raw": "e4"})",
                                    options, false);
    CHECK(system.post.anonymous);
    CHECK_FALSE(system.readable);
    const auto whisper = decode_post(R"({"id": 15, "topic_id": 40, "post_number": 6,
            "user_id": 7, "username": "alice", "category_id": 5, "post_type": 4, "raw": "e4"})",
                                     options, false);
    CHECK_FALSE(whisper.readable);
}

TEST_CASE("the fake forum answers 500 rather than send a field Discourse never sends",
          "[discourse][fake]") {
    test::TempDir dir;
    FakeDiscourse fake(dir);
    CurlHttpClient http;
    HttpRequest request;
    request.method = "GET";
    request.url = fake.url() + "/posts.json";
    request.headers = {std::string("Api-Key: ") + FakeDiscourse::key,
                       std::string("Api-Username: ") + FakeDiscourse::bot};
    request.timeout = std::chrono::seconds(10);
    CHECK(http.post(request).status == 200);

    fake.control("bad_answer", {{"path", "/posts.json"}, {"field", "guild_id"}, {"value", 1}});
    const HttpResponse refused = http.post(request);
    CHECK(refused.status == 500);
    CHECK(fake.answer_violations() ==
          std::vector<std::string>{"the fake's answer to GET /posts.json: Additional properties "
                                   "are not allowed ('guild_id' was unexpected)"});
    CHECK(http.post(request).status == 200);
    CHECK(fake.violations().empty());
}

TEST_CASE("the fake forum refuses the key, goes down and comes back on its port",
          "[discourse][fake]") {
    test::TempDir dir;
    FakeDiscourse fake(dir);
    CurlHttpClient http;
    DiscoursePlatform discourse(http, options_for(fake));
    std::string cursor = discourse.poll("", std::chrono::seconds(0)).at(0).cursor;

    fake.refuse_token();
    try {
        (void)discourse.poll(cursor, std::chrono::seconds(0));
        FAIL("a refused key must not poll");
    } catch (const PlatformError& e) {
        CHECK(e.kind() == PlatformError::Kind::Unauthorized);
    }
    fake.refuse_token(false);
    CHECK(discourse.poll(cursor, std::chrono::seconds(0)).empty());

    // Posted just before the forum went away (its controls go down with it).
    fake.say("alice", "!pgn while the forum is away from its port");
    const std::string before = fake.url();
    fake.go_down();
    try {
        (void)discourse.poll(cursor, std::chrono::seconds(0));
        FAIL("an unreachable forum must not poll");
    } catch (const PlatformError& e) {
        CHECK(e.kind() == PlatformError::Kind::Transient);
    }
    fake.come_back();
    CHECK(fake.url() == before);
    const auto posts = discourse.poll(cursor, std::chrono::seconds(0));
    REQUIRE(posts.size() == 1);
    CHECK(posts[0].text == "!pgn while the forum is away from its port");
    CHECK(fake.violations().empty());
}
