// The operators' view of the lanes: states and counters as the lanes report them, /healthz's
// JSON and status, /metrics in the Prometheus text format (checked by Debian's promtool).
#include "ghostpost/app/monitor.h"
#include "promtool.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <unistd.h>

using namespace ghostpost::bot;
using nlohmann::json;

namespace {} // namespace

TEST_CASE("a lane's state and counters are what it reported", "[monitor]") {
    std::int64_t now = 1000;
    LaneMonitor lane("telegram", [&] { return now; });
    CHECK(lane.snapshot().state == LaneState::Starting);
    CHECK(lane.snapshot().since == 1000);
    now = 1005;
    lane.poll_failed("getUpdates: 502 Bad Gateway");
    CHECK(lane.snapshot().state == LaneState::Retrying);
    CHECK(lane.snapshot().since == 1005);
    CHECK(lane.snapshot().why == "getUpdates: 502 Bad Gateway");
    now = 1009;
    lane.poll_failed("getUpdates: 502 Bad Gateway");
    CHECK(lane.snapshot().since == 1005); // still retrying since the first failure
    now = 1010;
    lane.poll_succeeded();
    lane.post_handled(std::chrono::microseconds(800));  // 0.0008 s: the first bucket
    lane.post_handled(std::chrono::milliseconds(30));   // up to 0.05
    lane.post_handled(std::chrono::milliseconds(2000)); // past the last bound
    lane.reply_sent();
    lane.reply_retried();
    lane.reply_failed();
    const LaneSnapshot s = lane.snapshot();
    CHECK(s.state == LaneState::Polling);
    CHECK(s.since == 1010);
    CHECK(s.why.empty());
    CHECK(s.last_poll == 1010);
    CHECK(s.last_delivery == 1010);
    CHECK(s.posts_handled == 3);
    CHECK(s.poll_errors == 2);
    CHECK(s.replies_sent == 1);
    CHECK(s.replies_retried == 1);
    CHECK(s.replies_failed == 1);
    CHECK(s.handling[0] == 1);
    CHECK(s.handling[5] == 1);
    CHECK(s.handling[10] == 1);
    // Refused is final: a later success (a stray poll answered) does not hide it.
    lane.set_state(LaneState::Refused, "401 M_UNKNOWN_TOKEN");
    lane.poll_succeeded();
    CHECK(lane.snapshot().state == LaneState::Refused);
    CHECK(lane.snapshot().why == "401 M_UNKNOWN_TOKEN");
}

TEST_CASE("/healthz is 200 only when every lane polls, and names the one that does not",
          "[monitor]") {
    std::int64_t now = 5000;
    LaneMonitor telegram("telegram", [&] { return now; });
    LaneMonitor matrix("matrix", [&] { return now; });
    telegram.poll_succeeded();
    matrix.poll_succeeded();
    StoreFigures figures;
    figures.backlog["telegram"] = {3, 4990};
    now = 5030;
    HttpAnswer answer = render_health({telegram.snapshot(), matrix.snapshot()}, figures, now);
    CHECK(answer.status == 200);
    CHECK(answer.content_type == "application/json");
    json body = json::parse(answer.body);
    CHECK(body["status"] == "ok");
    CHECK(body["platforms"]["telegram"]["outbox_backlog"] == 3);
    CHECK(body["platforms"]["telegram"]["oldest_reply_age_seconds"] == 40);
    CHECK(body["platforms"]["matrix"]["outbox_backlog"] == 0);
    CHECK(body["platforms"]["matrix"]["oldest_reply_age_seconds"].is_null());

    matrix.poll_failed("GET /sync: connection refused");
    now = 5042;
    answer = render_health({telegram.snapshot(), matrix.snapshot()}, figures, now);
    CHECK(answer.status == 503);
    body = json::parse(answer.body);
    CHECK(body["status"] == "degraded");
    CHECK(body["platforms"]["telegram"]["state"] == "polling");
    CHECK(body["platforms"]["matrix"]["state"] == "retrying");
    CHECK(body["platforms"]["matrix"]["why"] == "GET /sync: connection refused");
    CHECK(body["platforms"]["matrix"]["since"] == 5030);
    CHECK(body["platforms"]["matrix"]["seconds_in_state"] == 12);
    CHECK(body["platforms"]["matrix"]["last_poll"] == 5000);

    figures.error = "database is locked";
    matrix.poll_succeeded();
    answer = render_health({telegram.snapshot(), matrix.snapshot()}, figures, now);
    CHECK(answer.status == 503);
    CHECK(json::parse(answer.body)["database"] == "database is locked");
}

TEST_CASE("/metrics is the Prometheus text format, with the exact counts", "[monitor]") {
    std::int64_t now = 7000;
    LaneMonitor telegram("telegram", [&] { return now; });
    LaneMonitor discord("discord", [&] { return now; });
    telegram.poll_succeeded();
    telegram.post_handled(std::chrono::milliseconds(3));
    telegram.post_handled(std::chrono::milliseconds(3));
    telegram.reply_sent();
    discord.poll_failed("GET /gateway/bot: 503");
    StoreFigures figures;
    figures.backlog["discord"] = {2, 6950};
    figures.games_under_way = {{"chess", 4}, {"phantom", 1}};
    now = 7010;
    const std::string text =
        render_metrics({telegram.snapshot(), discord.snapshot()}, figures, now);

    const auto has = [&](const std::string& line) {
        return text.find("\n" + line + "\n") != std::string::npos;
    };
    CHECK(has("ghostpost_platform_up{platform=\"telegram\"} 1"));
    CHECK(has("ghostpost_platform_up{platform=\"discord\"} 0"));
    CHECK(has("ghostpost_platform_state{platform=\"discord\",state=\"retrying\"} 1"));
    CHECK(has("ghostpost_platform_state{platform=\"discord\",state=\"polling\"} 0"));
    CHECK(has("ghostpost_posts_handled_total{platform=\"telegram\"} 2"));
    CHECK(has("ghostpost_replies_sent_total{platform=\"telegram\"} 1"));
    CHECK(has("ghostpost_poll_errors_total{platform=\"discord\"} 1"));
    CHECK(has("ghostpost_outbox_backlog{platform=\"discord\"} 2"));
    CHECK(has("ghostpost_outbox_oldest_age_seconds{platform=\"discord\"} 60"));
    CHECK(has("ghostpost_outbox_oldest_age_seconds{platform=\"telegram\"} 0"));
    CHECK(has("ghostpost_last_poll_age_seconds{platform=\"telegram\"} 10"));
    CHECK(has("ghostpost_post_handling_seconds_bucket{platform=\"telegram\",le=\"0.0025\"} 0"));
    CHECK(has("ghostpost_post_handling_seconds_bucket{platform=\"telegram\",le=\"0.005\"} 2"));
    CHECK(has("ghostpost_post_handling_seconds_bucket{platform=\"telegram\",le=\"+Inf\"} 2"));
    CHECK(has("ghostpost_post_handling_seconds_sum{platform=\"telegram\"} 0.006"));
    CHECK(has("ghostpost_post_handling_seconds_count{platform=\"telegram\"} 2"));
    CHECK(has("ghostpost_games_under_way{variant=\"chess\"} 4"));
    CHECK(has("ghostpost_games_under_way{variant=\"phantom\"} 1"));
    CHECK(has("ghostpost_database_up 1"));

    const auto [status, said] = ghostpost::test::promtool(text);
    INFO(said);
    CHECK(status == 0);
    // promtool can fail: a counter without _total is refused, which shows the check is real.
    const auto [bad_status, bad_said] =
        ghostpost::test::promtool("# HELP x_sent Things.\n# TYPE x_sent counter\nx_sent 1\n");
    CHECK(bad_status != 0);
}
