// The Matrix adapter against the fake homeserver: receiving, gaps, sending, direct rooms,
// media, rate limits and a refused token. Every test ends with the fake's violations empty:
// each request the adapter made is one the client-server API description allows.
#include "fake_matrix.h"
#include "ghostpost/matrix/matrix.h"

using namespace ghostpost;
using bot::Delivery;
using bot::MatrixPlatform;
using bot::PlatformError;
using bot::Post;
using bot::Reply;
using nlohmann::json;
using test::FakeMatrix;

namespace {

const std::string alice = "@alice:fake.test";
const std::string bob = "@bob:other.test";

bot::MatrixOptions options_for(const FakeMatrix& fake) {
    bot::MatrixOptions options;
    options.homeserver_url = fake.url();
    options.access_token = FakeMatrix::token;
    options.user_id = FakeMatrix::bot;
    options.request_timeout = std::chrono::seconds(10);
    return options;
}

// Polls as the daemon does: from the cursor of the last post, until `want` posts came.
struct Poller {
    MatrixPlatform& platform;
    std::string cursor;
    std::vector<Post> poll(std::chrono::seconds timeout = std::chrono::seconds(0)) {
        auto posts = platform.poll(cursor, timeout);
        if (!posts.empty())
            cursor = posts.back().cursor;
        return posts;
    }
    // The first start, then every poll until the bot has joined `room`.
    void join(FakeMatrix& fake, const std::string& room) {
        for (int i = 0; i < 10 && fake.membership(room, FakeMatrix::bot) != "join"; ++i)
            poll();
        REQUIRE(fake.membership(room, FakeMatrix::bot) == "join");
        REQUIRE(poll().empty()); // the join itself and the room's state: no post
    }
};

Reply to_room(const std::string& room, const std::string& text, const std::string& key) {
    Reply r;
    r.platform = "matrix";
    r.destination = room;
    r.text = text;
    r.idempotency_key = key;
    return r;
}

} // namespace

TEST_CASE("the first sync reads no history, invites are joined, and messages become posts",
          "[matrix]") {
    test::TempDir dir;
    FakeMatrix fake(dir);
    const std::string room = fake.create_room(alice, {bob});
    fake.say(room, alice, "!new chess @bob white"); // before the bot was there: history
    bot::CurlHttpClient http;
    MatrixPlatform platform(http, options_for(fake));
    Poller poller{platform, ""};

    const auto first = poller.poll();
    REQUIRE(first.size() == 1); // "now" recorded as the cursor, nothing else
    CHECK(first[0].author_id.empty());
    CHECK(first[0].text.empty());
    CHECK(first[0].message_id == "first-sync:" + first[0].cursor);
    CHECK(fake.membership(room, FakeMatrix::bot) == "join");
    CHECK(poller.poll().empty());

    const std::string e1 = fake.say(room, alice, "!new chess @bob:other.test white");
    const std::string e2 =
        fake.say(room, bob, "!accept", {{"m.mentions", {{"user_ids", json::array({alice})}}}});
    const auto posts = poller.poll();
    REQUIRE(posts.size() == 2);
    CHECK(posts[0].platform == "matrix");
    CHECK(posts[0].channel == room);
    CHECK(posts[0].message_id == e1);
    CHECK(posts[0].author_id == alice);
    CHECK(posts[0].author_handle == "alice:fake.test");
    CHECK(posts[0].author_name == "alice");
    CHECK(posts[0].text == "!new chess @bob:other.test white");
    CHECK_FALSE(posts[0].direct);
    REQUIRE(posts[0].mentions.size() == 1);
    CHECK(posts[0].mentions[0].user_id == bob);
    CHECK(posts[0].mentions[0].handle == "bob:other.test");
    CHECK(posts[1].message_id == e2);
    REQUIRE(posts[1].mentions.size() == 1);
    CHECK(posts[1].mentions[0].user_id == alice);
    // A crash after the first post reads the batch again: its cursor is where the batch began.
    CHECK(posts[1].cursor != posts[0].cursor);
    const auto again = platform.poll(posts[0].cursor, std::chrono::seconds(0));
    REQUIRE(again.size() == 2);
    CHECK(again[0].message_id == e1);
    CHECK(again[1].message_id == e2);
    CHECK(platform.poll(posts[1].cursor, std::chrono::seconds(0)).empty());
    CHECK(fake.violations().empty());
}

TEST_CASE(
    "the bot's own messages, edits, notices and emotes are no posts, and a reply's quote is cut",
    "[matrix]") {
    test::TempDir dir;
    FakeMatrix fake(dir);
    bot::CurlHttpClient http;
    MatrixPlatform platform(http, options_for(fake));
    const std::string room = fake.create_room(alice, {});
    Poller poller{platform, ""};
    poller.join(fake, room);

    const std::string move = fake.say(room, alice, "e4");
    fake.say(room, FakeMatrix::bot, "a message of the bot");
    fake.say(room, alice, "* e5",
             {{"m.new_content", {{"msgtype", "m.text"}, {"body", "e5"}}},
              {"m.relates_to", {{"rel_type", "m.replace"}, {"event_id", move}}}});
    fake.say(room, alice, "another bot's notice", {{"msgtype", "m.notice"}});
    fake.say(room, alice, "waves", {{"msgtype", "m.emote"}});
    const std::string reply =
        fake.say(room, alice, "> <@bob:other.test> e5?\n> really\n\nNf3",
                 {{"m.relates_to", {{"m.in_reply_to", {{"event_id", move}}}}}});
    const auto posts = poller.poll();
    REQUIRE(posts.size() == 2);
    CHECK(posts[0].message_id == move);
    CHECK(posts[0].text == "e4");
    CHECK(posts[1].message_id == reply);
    CHECK(posts[1].text == "Nf3");
    CHECK(fake.violations().empty());
}

TEST_CASE("a limited timeline is filled from /messages back to the stored cursor", "[matrix]") {
    test::TempDir dir;
    FakeMatrix fake(dir);
    bot::CurlHttpClient http;
    MatrixPlatform platform(http, options_for(fake));
    const std::string room = fake.create_room(alice, {});
    Poller poller{platform, ""};
    poller.join(fake, room);

    fake.control("timeline_limit", {{"limit", 3}});
    std::vector<std::string> ids;
    for (int i = 0; i < 130; ++i) // more than one page of /messages
        ids.push_back(fake.say(room, alice, "post " + std::to_string(i)));
    const auto posts = poller.poll();
    REQUIRE(posts.size() == ids.size());
    for (std::size_t i = 0; i < ids.size(); ++i) {
        CHECK(posts[i].message_id == ids[i]);
        CHECK(posts[i].text == "post " + std::to_string(i));
    }
    int pages = 0;
    const json calls = fake.control("calls")["calls"];
    for (const json& call : calls)
        if (call[1].get<std::string>().ends_with("/messages"))
            ++pages;
    CHECK(pages == 2);
    CHECK(fake.violations().empty());
}

TEST_CASE("replies go out once per idempotency key, boards in <pre><code>, with relations and "
          "mentions",
          "[matrix]") {
    test::TempDir dir;
    FakeMatrix fake(dir);
    bot::CurlHttpClient http;
    MatrixPlatform platform(http, options_for(fake));
    const std::string room = fake.create_room(alice, {bob});
    Poller poller{platform, ""};
    poller.join(fake, room);
    const std::string asked = fake.say(room, alice, "!board");

    Reply r = to_room(room, "@alice:fake.test (White) played e4 <check> & more.", "17.1700000000");
    r.code = " 8  r  n  b\n 1  R <N> B";
    r.reply_to = asked;
    CHECK(platform.send(r).status == Delivery::Status::Sent);
    CHECK(platform.send(r).status == Delivery::Status::Sent); // a retry: the same transaction
    Reply plain = to_room(room, "Nothing to see.", "18.1700000001");
    CHECK(platform.send(plain).status == Delivery::Status::Sent);

    const json sent = fake.sent();
    REQUIRE(sent.size() == 2);
    CHECK(sent[0]["txn"] == "gp-17.1700000000.text");
    const json& content = sent[0]["content"];
    CHECK(content["msgtype"] == "m.text");
    CHECK(content["body"] ==
          "@alice:fake.test (White) played e4 <check> & more.\n 8  r  n  b\n 1  R <N> B");
    CHECK(content["format"] == "org.matrix.custom.html");
    CHECK(content["formatted_body"] ==
          "<a href=\"https://matrix.to/#/@alice:fake.test\">@alice:fake.test</a> (White) played "
          "e4 &lt;check&gt; &amp; more.<pre><code> 8  r  n  b\n 1  R &lt;N&gt; B</code></pre>");
    CHECK(content["m.mentions"] == json({{"user_ids", {alice}}}));
    CHECK(content["m.relates_to"] == json({{"m.in_reply_to", {{"event_id", asked}}}}));
    CHECK(
        sent[1]["content"] ==
        json({{"msgtype", "m.text"}, {"body", "Nothing to see."}, {"m.mentions", json::object()}}));
    CHECK(fake.violations().empty());
}

TEST_CASE("a PNG board is uploaded, then sent as m.image with its size", "[matrix]") {
    test::TempDir dir;
    FakeMatrix fake(dir);
    bot::CurlHttpClient http;
    MatrixPlatform platform(http, options_for(fake));
    const std::string room = fake.create_room(alice, {});
    Poller poller{platform, ""};
    poller.join(fake, room);

    Reply r = to_room(room, "Game #1:", "5.100");
    // The signature and IHDR of a 480 x 320 image, then a little of anything.
    r.png = {0x89, 'P', 'N', 'G',  '\r', '\n', 0x1A, '\n', 0,    0, 0, 13, 'I', 'H', 'D',
             'R',  0,   0,   0x01, 0xE0, 0,    0,    0x01, 0x40, 8, 3, 0,  0,   0};
    CHECK(platform.send(r).status == Delivery::Status::Sent);
    const json sent = fake.sent();
    REQUIRE(sent.size() == 2);
    CHECK(sent[0]["content"]["body"] == "Game #1:");
    const json& image = sent[1]["content"];
    CHECK(image["msgtype"] == "m.image");
    CHECK(image["body"] == "board.png");
    CHECK(image["url"] == "mxc://fake.test/m1");
    CHECK(image["info"] == json({{"mimetype", "image/png"}, {"size", 29}, {"w", 480}, {"h", 320}}));
    const json media = fake.control("media")["media"];
    CHECK(media["m1"]["content_type"] == "image/png");
    CHECK(media["m1"]["png"] == true);
    CHECK(media["m1"]["filename"] == "board.png");
    CHECK(fake.violations().empty());
}

TEST_CASE("a private reply goes to a direct room made once, and waits while the player stays out",
          "[matrix]") {
    test::TempDir dir;
    FakeMatrix fake(dir);
    bot::CurlHttpClient http;
    MatrixPlatform platform(http, options_for(fake));
    Poller poller{platform, ""};
    poller.poll();

    Reply secret;
    secret.to = Reply::To::User;
    secret.platform = "matrix";
    secret.destination = bob;
    secret.text = "Game #1: your Phantom now stands on c3";
    secret.idempotency_key = "9.1";
    const Delivery first = platform.send(secret);
    CHECK(first.status == Delivery::Status::Blocked);
    const json direct = fake.control("account_data")["account_data"]["m.direct"];
    REQUIRE(direct[bob].size() == 1);
    const std::string dm = direct[bob][0];
    CHECK(fake.membership(dm, bob) == "invite");
    CHECK(platform.send(secret).status == Delivery::Status::Blocked); // the same room, no other
    CHECK(fake.control("account_data")["account_data"]["m.direct"][bob].size() == 1);
    CHECK(fake.sent().empty());

    fake.control("join", {{"room_id", dm}, {"user", bob}});
    CHECK(platform.send(secret).status == Delivery::Status::Sent);
    secret.idempotency_key = "10.1";
    secret.text = "Another secret";
    CHECK(platform.send(secret).status == Delivery::Status::Sent);
    const json sent = fake.sent();
    REQUIRE(sent.size() == 2);
    CHECK(sent[0]["room_id"] == dm);
    CHECK(sent[0]["content"]["body"] == "Game #1: your Phantom now stands on c3");
    CHECK(sent[1]["room_id"] == dm);

    // A restarted adapter finds the room again in m.direct, and its posts are direct.
    MatrixPlatform again(http, options_for(fake));
    secret.idempotency_key = "11.1";
    CHECK(again.send(secret).status == Delivery::Status::Sent);
    CHECK(fake.sent()[2]["room_id"] == dm);
    const std::string asked = fake.say(dm, bob, "!games");
    const auto posts = Poller{again, poller.cursor}.poll();
    REQUIRE(posts.size() == 1);
    CHECK(posts[0].message_id == asked);
    CHECK(posts[0].direct);
    CHECK_FALSE(again.is_group(dm));
    CHECK(fake.violations().empty());
}

TEST_CASE("a player's invitation to a direct room is joined and the room counts as direct",
          "[matrix]") {
    test::TempDir dir;
    FakeMatrix fake(dir);
    bot::CurlHttpClient http;
    MatrixPlatform platform(http, options_for(fake));
    Poller poller{platform, ""};
    poller.poll();
    const std::string dm =
        fake.control("create_room", {{"creator", alice}, {"is_direct", true}})["room_id"];
    poller.join(fake, dm);
    CHECK(fake.control("account_data")["account_data"]["m.direct"] == json({{alice, {dm}}}));
    fake.say(dm, alice, "!games");
    const auto posts = poller.poll();
    REQUIRE(posts.size() == 1);
    CHECK(posts[0].direct);

    Reply r;
    r.to = Reply::To::User;
    r.destination = alice;
    r.text = "Your games";
    r.idempotency_key = "1.1";
    CHECK(platform.send(r).status == Delivery::Status::Sent);
    CHECK(fake.sent()[0]["room_id"] == dm);
    CHECK(fake.violations().empty());
}

TEST_CASE("429 M_LIMIT_EXCEEDED is waited out as retry_after_ms says", "[matrix]") {
    test::TempDir dir;
    FakeMatrix fake(dir);
    bot::CurlHttpClient http;
    auto now = std::chrono::steady_clock::now();
    auto options = options_for(fake);
    options.clock = [&now] { return now; };
    MatrixPlatform platform(http, options);
    const std::string room = fake.create_room(alice, {});
    Poller poller{platform, ""};
    poller.join(fake, room);

    fake.control("fault", {{"path", "/sync$"},
                           {"status", 429},
                           {"errcode", "M_LIMIT_EXCEEDED"},
                           {"retry_after_ms", 2500},
                           {"count", 1}});
    try {
        poller.poll();
        FAIL("no error");
    } catch (const PlatformError& e) {
        CHECK(e.kind() == PlatformError::Kind::RateLimited);
        CHECK(e.retry_after() == std::chrono::milliseconds(2500));
        CHECK(std::string(e.what()) == "sync: 429 M_LIMIT_EXCEEDED scripted failure");
    }
    now += std::chrono::milliseconds(1000);
    try {
        poller.poll(); // too early: refused without asking the homeserver
        FAIL("no error");
    } catch (const PlatformError& e) {
        CHECK(e.kind() == PlatformError::Kind::RateLimited);
        CHECK(e.retry_after() == std::chrono::milliseconds(1500));
    }
    now += std::chrono::milliseconds(1500);
    CHECK(poller.poll().empty());

    fake.control("fault", {{"path", "/send/"},
                           {"status", 429},
                           {"errcode", "M_LIMIT_EXCEEDED"},
                           {"retry_after_ms", 1200},
                           {"count", 1}});
    const Reply r = to_room(room, "e4", "3.3");
    const Delivery limited = platform.send(r);
    CHECK(limited.status == Delivery::Status::RetryAfter);
    CHECK(limited.retry_after == std::chrono::seconds(2));
    CHECK(limited.detail == "send: 429 M_LIMIT_EXCEEDED scripted failure");
    CHECK(platform.send(r).status == Delivery::Status::RetryAfter); // not before its time
    now += std::chrono::milliseconds(1200);
    CHECK(platform.send(r).status == Delivery::Status::Sent);
    CHECK(fake.sent().size() == 1);

    fake.control("fault", {{"path", "/send/"}, {"status", 502}, {"count", 1}});
    CHECK(platform.send(to_room(room, "e5", "4.4")).status == Delivery::Status::Transient);
    fake.control("fault",
                 {{"path", "/send/"}, {"status", 403}, {"errcode", "M_FORBIDDEN"}, {"count", 1}});
    CHECK(platform.send(to_room(room, "e6", "5.5")).status == Delivery::Status::Failed);
    CHECK(fake.violations().empty());
}

TEST_CASE("M_UNKNOWN_TOKEN is Unauthorized and tells the daemon, without the token in a word",
          "[matrix]") {
    test::TempDir dir;
    FakeMatrix fake(dir);
    bot::CurlHttpClient http;
    auto options = options_for(fake);
    int refused = 0;
    options.token_refused = [&refused] { ++refused; };
    MatrixPlatform platform(http, options);
    Poller poller{platform, ""};
    poller.poll();
    fake.control("revoke");
    try {
        poller.poll();
        FAIL("no error");
    } catch (const PlatformError& e) {
        CHECK(e.kind() == PlatformError::Kind::Unauthorized);
        CHECK(std::string(e.what()) == "sync: 401 M_UNKNOWN_TOKEN Invalid access token passed.");
    }
    CHECK(refused == 1);
    const Delivery d = platform.send(to_room("!r1:fake.test", "e4", "1.1"));
    CHECK(d.status == Delivery::Status::Transient); // the reply waits for a new token
    CHECK(d.detail.find(FakeMatrix::token) == std::string::npos);
    CHECK(refused == 2);
    CHECK(fake.violations().empty());
}

TEST_CASE("an encrypted room is told once in plain words and its traffic ignored", "[matrix]") {
    test::TempDir dir;
    FakeMatrix fake(dir);
    bot::CurlHttpClient http;
    MatrixPlatform platform(http, options_for(fake));
    Poller poller{platform, ""};
    poller.poll();
    const std::string room = fake.create_room(alice, {}, true);
    poller.join(fake, room);
    fake.say(room, alice, "hello?"); // as if a client sent it in clear
    poller.poll();
    const json sent = fake.sent();
    REQUIRE(sent.size() == 1);
    CHECK(sent[0]["room_id"] == room);
    CHECK(sent[0]["content"]["msgtype"] == "m.notice");
    CHECK(sent[0]["content"]["body"] ==
          "This room is end-to-end encrypted, and I cannot read encrypted messages, so I cannot "
          "play here. Invite me to a room without encryption to play.");

    // A room that turns encryption on later is told then, once.
    const std::string later = fake.create_room(alice, {});
    poller.join(fake, later);
    fake.control("encrypt", {{"room_id", later}, {"sender", alice}});
    poller.poll();
    poller.poll();
    CHECK(fake.sent().size() == 2);
    CHECK(fake.violations().empty());
}

TEST_CASE("auto_join with server names follows only their invites", "[matrix]") {
    test::TempDir dir;
    FakeMatrix fake(dir);
    bot::CurlHttpClient http;
    auto options = options_for(fake);
    options.join_any = false;
    options.join_servers = {"elsewhere.test"};
    MatrixPlatform platform(http, options);
    const std::string room = fake.create_room(alice, {});
    Poller poller{platform, ""};
    poller.poll();
    poller.poll();
    CHECK(fake.membership(room, FakeMatrix::bot) == "invite");
    CHECK(fake.violations().empty());
}

TEST_CASE("decode_event never throws and reads only text messages from people", "[matrix]") {
    const std::string room = "!r:x";
    for (const std::string garbage :
         {"", "null", "[]", "{\"type\":\"m.room.message\"}", "{\"content\":5}",
          "{\"type\":\"m.room.message\",\"sender\":\"@a:x\",\"event_id\":\"$1\",\"content\":"
          "{\"msgtype\":\"m.text\",\"body\":7}}",
          "{\"type\":\"m.room.message\",\"sender\":\"@a:x\",\"event_id\":\"$1\",\"content\":"
          "{\"msgtype\":\"m.text\",\"body\":\"\\ud800 e4\",\"m.mentions\":{\"user_ids\":[1]}}}",
          "\xff\xfe{"}) {
        const auto decoded = bot::decode_event(garbage, room, FakeMatrix::bot);
        if (decoded.post) {
            CHECK(decoded.post->text == "\xEF\xBF\xBD e4");
            CHECK(decoded.post->mentions.empty());
        }
    }
    const auto ok =
        bot::decode_event(R"({"type":"m.room.message","sender":"@a:x","event_id":"$1","content":)"
                          R"({"msgtype":"m.text","body":"!new chess @b:y. Go"}})",
                          room, FakeMatrix::bot);
    REQUIRE(ok.post);
    REQUIRE(ok.post->mentions.size() == 1);
    CHECK(ok.post->mentions[0].user_id == "@b:y");
    CHECK(bot::server_of("!abc:example.org") == "example.org");
}

TEST_CASE("the fake homeserver refuses what the API description does not allow", "[matrix]") {
    test::TempDir dir;
    FakeMatrix fake(dir);
    bot::CurlHttpClient http;
    const auto request = [&](const std::string& method, const std::string& path,
                             const std::string& body) {
        bot::HttpRequest r;
        r.method = method;
        r.url = fake.url() + path;
        r.body = body;
        r.headers.push_back(std::string("Authorization: Bearer ") + FakeMatrix::token);
        return http.post(r);
    };
    const std::string room = fake.create_room(alice, {});
    CHECK(request("POST", "/_matrix/client/v3/rooms/" + room + "/join", "{}").status == 200);
    const auto misspelt =
        request("PUT", "/_matrix/client/v3/rooms/" + room + "/send/m.room.message/t1",
                R"({"msgtype":"m.text","body":"x","formated_body":"<b>x</b>"})");
    CHECK(misspelt.status == 400);
    CHECK(json::parse(misspelt.body)["errcode"] == "M_BAD_JSON");
    CHECK(request("POST", "/_matrix/client/v3/user/%40ghostpost%3Afake.test/filter",
                  R"({"room":{"timeline":{"limitt":5}}})")
              .status == 400);
    CHECK(request("GET", "/_matrix/client/v3/sync?timeout=0&sincee=s1", "").status == 400);
    CHECK(request("GET", "/_matrix/client/v3/rooms/" + room + "/messages", "").status == 400);
    CHECK(fake.violations() ==
          json::array({"content: Additional properties are not allowed ('formated_body' was "
                       "unexpected)",
                       "body.room.timeline: Additional properties are not allowed ('limitt' was "
                       "unexpected)",
                       "query.sincee: no such parameter", "query.dir: required but missing"}));
}

TEST_CASE("a short @name resolves through the room's members and an ambiguous one is asked about",
          "[matrix]") {
    test::TempDir dir;
    FakeMatrix fake(dir);
    bot::CurlHttpClient http;
    MatrixPlatform platform(http, options_for(fake));
    const std::string other_alice = "@alice:other.test";
    const std::string room = fake.create_room(alice, {bob, other_alice});
    Poller poller{platform, ""};
    poller.join(fake, room);

    const std::string unique = fake.say(room, alice, "!new chess @Bob white");
    const std::string ambiguous = fake.say(room, bob, "!new chess @alice");
    const std::string chatter = fake.say(room, bob, "hi @alice, @nobody.");
    const auto posts = poller.poll();
    REQUIRE(posts.size() == 3);
    CHECK(posts[0].message_id == unique);
    CHECK(posts[0].text == "!new chess @bob:other.test white");
    REQUIRE(posts[0].mentions.size() == 1);
    CHECK(posts[0].mentions[0].user_id == bob);
    CHECK(posts[0].mentions[0].handle == "bob:other.test");
    // Asked about, not run: only the cursor moves past it.
    CHECK(posts[1].message_id == ambiguous);
    CHECK(posts[1].author_id.empty());
    CHECK(posts[1].text.empty());
    // Chatter is never answered: its names stay as they were written.
    CHECK(posts[2].message_id == chatter);
    CHECK(posts[2].text == "hi @alice, @nobody.");
    const json sent = fake.sent();
    REQUIRE(sent.size() == 1);
    CHECK(sent[0]["content"]["body"] ==
          "@alice could be @alice:fake.test or @alice:other.test: write the full id, for "
          "example @alice:fake.test. Nothing was done.");
    CHECK(sent[0]["content"]["m.relates_to"] ==
          json({{"m.in_reply_to", {{"event_id", ambiguous}}}}));
    CHECK(fake.violations().empty());
}

TEST_CASE("malformed events are skipped and never block the room", "[matrix]") {
    test::TempDir dir;
    FakeMatrix fake(dir);
    bot::CurlHttpClient http;
    MatrixPlatform platform(http, options_for(fake));
    const std::string room = fake.create_room(alice, {});
    Poller poller{platform, ""};
    poller.join(fake, room);

    for (const json& event :
         {json{{"type", 5}, {"sender", alice}, {"content", "x"}},
          json{{"type", "m.room.member"}, {"state_key", 7}, {"content", {{"membership", 1}}}},
          json{{"type", "m.room.member"}, {"state_key", alice}, {"content", "join"}},
          json{{"type", "m.room.message"}, {"sender", 3}, {"content", {{"body", "e4"}}}},
          json{{"type", "m.room.message"},
               {"sender", alice},
               {"content", {{"msgtype", "m.text"}, {"body", {{"not", "text"}}}}}},
          json{{"type", "m.room.message"},
               {"sender", alice},
               {"content",
                {{"msgtype", "m.text"},
                 {"body", "e4"},
                 {"m.relates_to", "x"},
                 {"m.mentions", {{"user_ids", "@x:y"}}}}}}})
        fake.control("raw_event", {{"room_id", room}, {"event", event}});
    const std::string fine = fake.say(room, alice, "e5");
    const auto posts = poller.poll();
    REQUIRE(posts.size() == 2);
    CHECK(posts[0].text == "e4"); // odd relations and mentions are only left out
    CHECK(posts[0].mentions.empty());
    CHECK(posts[1].message_id == fine);
    // The fake knows these events break the description; every request was a good one.
    const json violations = fake.violations();
    CHECK_FALSE(violations.empty());
    for (const json& v : violations)
        CHECK(v.get<std::string>().starts_with(
            "the fake's answer to GET /_matrix/client/v3/sync.rooms.join."));
}

TEST_CASE("the fake homeserver answers 500 rather than send a field no homeserver sends",
          "[matrix][fake]") {
    test::TempDir dir;
    FakeMatrix fake(dir);
    bot::CurlHttpClient http;
    bot::HttpRequest request;
    request.method = "GET";
    request.url = fake.url() + "/_matrix/client/v3/account/whoami";
    request.headers.push_back(std::string("Authorization: Bearer ") + FakeMatrix::token);
    request.timeout = std::chrono::seconds(10);
    CHECK(http.post(request).status == 200);

    fake.control("bad_answer", {{"path", "/account/whoami"}, {"field", "guild_id"}, {"value", 1}});
    const bot::HttpResponse refused = http.post(request);
    CHECK(refused.status == 500);
    CHECK(json::parse(refused.body) ==
          json{{"errcode", "M_UNKNOWN"}, {"error", "Internal server error"}});
    CHECK(fake.answer_violations() ==
          std::vector<std::string>{
              "the fake's answer to GET /_matrix/client/v3/account/whoami: Additional "
              "properties are not allowed ('guild_id' was unexpected)"});
    CHECK(http.post(request).status == 200);
    CHECK(fake.violations().empty());
}

TEST_CASE("the fake homeserver refuses the token, goes down and comes back on its port",
          "[matrix][fake]") {
    test::TempDir dir;
    FakeMatrix fake(dir);
    const std::string room = fake.create_room(alice, {bob});
    bot::CurlHttpClient http;
    MatrixPlatform platform(http, options_for(fake));
    Poller poller{platform, ""};
    poller.join(fake, room);

    fake.refuse_token();
    try {
        poller.poll();
        FAIL("a refused token must not sync");
    } catch (const PlatformError& e) {
        CHECK(e.kind() == PlatformError::Kind::Unauthorized);
        CHECK(std::string(e.what()) == "sync: 401 M_UNKNOWN_TOKEN Invalid access token passed.");
    }
    fake.refuse_token(false);
    CHECK(poller.poll().empty());

    // Posted just before the homeserver went away (its controls go down with it).
    const std::string event = fake.say(room, alice, "!pgn");
    const std::string before = fake.url();
    fake.go_down();
    try {
        poller.poll();
        FAIL("an unreachable homeserver must not sync");
    } catch (const PlatformError& e) {
        CHECK(e.kind() == PlatformError::Kind::Transient);
    }
    fake.come_back();
    CHECK(fake.url() == before);
    const auto posts = poller.poll();
    REQUIRE(posts.size() == 1);
    CHECK(posts[0].message_id == event);
    CHECK(posts[0].text == "!pgn");
    CHECK(fake.violations().empty());
}
