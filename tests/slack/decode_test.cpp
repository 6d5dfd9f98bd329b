// Slack's Socket Mode frames and message objects read, and the cursor: pure functions.
#include "ghostpost/slack/slack.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace ghostpost::bot;
using nlohmann::json;

namespace {

const SlackIdentity me{"UGHOSTBOT1", "BGHOSTBOT1"};

std::string event_frame(const json& event) {
    return json{{"envelope_id", "e-1"},
                {"type", "events_api"},
                {"payload", {{"type", "event_callback"}, {"event", event}}}}
        .dump();
}

} // namespace

TEST_CASE("a message event is a post; bots, the app itself and edits are not", "[slack][decode]") {
    const json message = {{"type", "message"},    {"channel", "CGAMES0001"},
                          {"user", "UALICE0001"}, {"text", "<@UGHOSTBOT1> !move e4 &lt;3"},
                          {"ts", "1700000001.5"}, {"channel_type", "channel"}};
    const SlackFrame frame = decode_slack_frame(event_frame(message), me, "!");
    CHECK(frame.kind == SlackFrame::Kind::Envelope);
    CHECK(frame.envelope_id == "e-1");
    REQUIRE(frame.post);
    CHECK(frame.post->text == "!move e4 <3");
    CHECK(frame.post->message_id == "1700000001.5");
    CHECK_FALSE(frame.post->direct);

    json own = message;
    own["user"] = "UGHOSTBOT1";
    CHECK_FALSE(decode_slack_frame(event_frame(own), me, "!").post);
    json bot = message;
    bot["bot_id"] = "BOTHER0001";
    CHECK_FALSE(decode_slack_frame(event_frame(bot), me, "!").post);
    json edit = message;
    edit["subtype"] = "message_changed";
    CHECK_FALSE(decode_slack_frame(event_frame(edit), me, "!").post);
    json deleted = message;
    deleted["subtype"] = "message_deleted";
    CHECK_FALSE(decode_slack_frame(event_frame(deleted), me, "!").post);
    json im = message;
    im["channel"] = "DALICE0001";
    im["channel_type"] = "im";
    im["thread_ts"] = "1700000000.1";
    const SlackFrame direct = decode_slack_frame(event_frame(im), me, "!");
    REQUIRE(direct.post);
    CHECK(direct.post->direct);
    CHECK(direct.post->message_id == "1700000001.5@1700000000.1");
}

TEST_CASE("malformed frames are skipped with a reason, never thrown", "[slack][decode]") {
    CHECK(decode_slack_frame("not json", me, "!").problem == "not a JSON object");
    CHECK(decode_slack_frame(R"({"envelope_id":7})", me, "!").problem ==
          "an envelope without envelope_id");
    const json no_ts = {
        {"type", "message"}, {"channel", "CGAMES0001"}, {"user", "UALICE0001"}, {"text", "hi"}};
    CHECK(decode_slack_frame(event_frame(no_ts), me, "!").problem ==
          "a message without user, ts or text");
    CHECK(decode_slack_frame(R"({"type":"disconnect","reason":"link_disabled"})", me, "!").reason ==
          "link_disabled");
    CHECK(decode_slack_frame(R"({"type":"hello"})", me, "!").kind == SlackFrame::Kind::Hello);
}

TEST_CASE("ts order, threads of message ids, and the cursor", "[slack][decode]") {
    CHECK(slack_ts_less("999999999.999999", "1700000000.000001"));
    CHECK(slack_ts_less("1700000000.000001", "1700000000.000002"));
    CHECK_FALSE(slack_ts_less("1700000000.000002", "1700000000.000002"));
    CHECK(slack_thread_of("1700000001.000002") == "1700000001.000002");
    CHECK(slack_thread_of("1700000001.000002@1700000000.000001") == "1700000000.000001");
    CHECK(slack_thread_of("ctrigger.1") == "");
    const SlackCursor cursor{{"CGAMES0001", "1700000001.000002"},
                             {"CGAMES0001@1700000000.000001", "1700000003.000004"}};
    CHECK(parse_slack_cursor(format_slack_cursor(cursor)) == cursor);
    CHECK(parse_slack_cursor(R"({"bad key":"1.2","CGAMES0001":"x","C2":"1.5"})") ==
          SlackCursor{{"C2", "1.5"}});
}
