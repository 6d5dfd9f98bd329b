// What an operator sees of a running daemon: each platform lane's state (starting, polling,
// retrying since when and why, refused), its last good poll and delivery, its counters, and
// what the database holds (the outbox backlog, the games under way). /healthz answers it as
// JSON, /metrics in the Prometheus text format. Lanes report from their own threads; the web
// server reads from its own.
#pragma once

#include "ghostpost/service/service.h"

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ghostpost::bot {

enum class LaneState : std::uint8_t {
    Starting, // the start-up check has not passed yet
    Polling,  // the last poll (or start-up check) succeeded
    Retrying, // the platform is out of reach or failing: retried with backoff
    Refused,  // the platform refuses the bot's credentials: the lane stopped, the operator acts
    Stopped,  // the daemon is stopping
};
std::string_view to_string(LaneState state);

// Upper bounds, in seconds, of the post handling time histogram's buckets (then +Inf).
inline constexpr std::array<double, 10> handling_buckets{0.001, 0.0025, 0.005, 0.01, 0.025,
                                                         0.05,  0.1,    0.25,  0.5,  1.0};

struct LaneSnapshot {
    std::string platform;
    LaneState state = LaneState::Starting;
    std::int64_t since = 0;                    // when the lane entered `state` (Unix seconds)
    std::string why;                           // why it is retrying or refused, for people
    std::optional<std::int64_t> last_poll;     // the last successful poll
    std::optional<std::int64_t> last_delivery; // the last reply the platform took
    std::uint64_t posts_handled = 0;
    std::uint64_t replies_sent = 0;
    std::uint64_t replies_retried = 0; // rate limited, transient or blocked: tried again later
    std::uint64_t replies_failed = 0;  // refused for good
    std::uint64_t poll_errors = 0;
    std::array<std::uint64_t, handling_buckets.size() + 1> handling{}; // per bucket, not summed
    double handling_seconds = 0;
};

// One lane's reports; every member function is thread-safe.
class LaneMonitor {
public:
    LaneMonitor(std::string platform, Clock clock);

    void set_state(LaneState state, std::string why = {});
    void poll_succeeded();
    void poll_failed(const std::string& why);
    void post_handled(std::chrono::duration<double> took);
    void reply_sent();
    void reply_retried();
    void reply_failed();
    LaneSnapshot snapshot() const;
    // The lane's loop went round once more: the watchdog counts a lane alive while it beats.
    void beat() { last_beat_.store(std::chrono::steady_clock::now().time_since_epoch().count()); }
    std::chrono::steady_clock::time_point last_beat() const {
        return std::chrono::steady_clock::time_point(
            std::chrono::steady_clock::duration(last_beat_.load()));
    }

private:
    mutable std::mutex mutex_;
    Clock clock_;
    LaneSnapshot now_;
    std::atomic<std::chrono::steady_clock::rep> last_beat_{
        std::chrono::steady_clock::now().time_since_epoch().count()};
};

// What the database says, read when /healthz or /metrics is asked.
struct StoreFigures {
    struct Backlog {
        int pending = 0;
        std::optional<std::int64_t> oldest_created_at;
    };
    std::map<std::string, Backlog> backlog;     // by platform
    std::map<std::string, int> games_under_way; // by variant
    std::string error;                          // the database could not be read: why
};

struct HttpAnswer {
    int status = 200;
    std::string content_type;
    std::string body;
};

// Every lane of the daemon, and the reader of the database's figures.
class Monitor {
public:
    explicit Monitor(Clock clock = system_clock_seconds);
    // A lane of its own for `platform`; the reference lives as long as the monitor.
    LaneMonitor& add_lane(const std::string& platform);
    std::vector<LaneSnapshot> lanes() const;
    // Reads the figures from the database; called once per /healthz or /metrics.
    void set_figures(std::function<StoreFigures()> read);

    // 200 when every lane polls, 503 otherwise; JSON with every lane and its backlog.
    HttpAnswer health() const;
    // The Prometheus text exposition format, version 0.0.4.
    HttpAnswer metrics() const;

private:
    StoreFigures figures() const;
    Clock clock_;
    mutable std::mutex mutex_;
    std::vector<std::unique_ptr<LaneMonitor>> lanes_;
    std::function<StoreFigures()> read_figures_;
};

// The JSON and text bodies themselves, for tests and for the two answers above.
HttpAnswer render_health(const std::vector<LaneSnapshot>& lanes, const StoreFigures& figures,
                         std::int64_t now);
std::string render_metrics(const std::vector<LaneSnapshot>& lanes, const StoreFigures& figures,
                           std::int64_t now);

} // namespace ghostpost::bot
