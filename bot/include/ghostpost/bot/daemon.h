// `ghostpost run`: the long-running daemon. One thread polls the platform, hands each post to
// the service (one transaction each) and delivers the outbox between polls; a second thread
// only waits for SIGTERM/SIGINT and cancels whatever HTTP call is in flight.
#pragma once

#include "ghostpost/bot/platform.h"
#include "ghostpost/bot/service.h"
#include "ghostpost/storage/store.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <random>
#include <string>

namespace CLI {
class App;
}

namespace ghostpost::bot {

// Registers `run --config FILE`. Exit status: 0 after a graceful stop, 2 for a bad
// configuration (the message names the key and the line), 1 when the daemon cannot run.
void add_run_command(CLI::App& app, int& exit_status);

// A stop request that sleeping loops can wait on; request_stop() is safe from any thread.
class StopToken {
public:
    void request_stop();
    bool stop_requested() const { return stopped_.load(); }
    // Sleeps up to `duration`; returns false at once when a stop is requested.
    bool sleep_for(std::chrono::milliseconds duration);

private:
    std::atomic<bool> stopped_{false};
    std::mutex mutex_;
    std::condition_variable wake_;
};

// Telegram's published limits, with room to spare.
struct Pacing {
    std::chrono::milliseconds per_chat{1000}; // between two messages to one chat
    int group_per_minute = 20;                // messages to one group in any minute
    std::chrono::seconds max_backoff{300};    // ceiling of the retry delay for failures
    std::chrono::seconds blocked_retry{30};   // a private chat not opened yet: try again after
};

using SteadyNow = std::function<std::chrono::steady_clock::time_point()>;

// Delivers the outbox of one platform: order per destination, pacing, retries.
class OutboxSender {
public:
    OutboxSender(storage::Store& store, Platform& platform, Pacing pacing, Clock clock,
                 SteadyNow steady = std::chrono::steady_clock::now);

    // Sends every due entry the pacing allows now. Returns how many were sent. Errors: the
    // store's exceptions; HttpError::Cancelled (shutting down) from the platform.
    int send_due();
    // True when entries wait (for pacing or a retry), so the poll loop should not wait long.
    bool pending();

private:
    bool may_send(const std::string& destination, bool group,
                  std::chrono::steady_clock::time_point now) const;
    void record_send(const std::string& destination, bool group,
                     std::chrono::steady_clock::time_point now);
    std::int64_t backoff_seconds(int attempts);

    storage::Store& store_;
    Platform& platform_;
    Pacing pacing_;
    Clock clock_;
    SteadyNow steady_;
    std::map<std::string, std::deque<std::chrono::steady_clock::time_point>> sent_at_;
    std::mt19937 jitter_{std::random_device{}()};
};

struct DaemonOptions {
    std::chrono::seconds poll_timeout{50};
    Pacing pacing;
    // How many times in a row one post may fail (an exception while handling it) before it is
    // set aside with Service::give_up, so that a post our code cannot handle does not hold up
    // every post behind it.
    int post_attempts = 5;
    // How often the poll loop runs the service's time-driven job (Service::tick).
    std::chrono::seconds tick_interval{30};
};

// The poll loop: until `stop`, poll, handle each post, deliver the outbox. Network and API
// failures are logged and retried with backoff; 409 (another instance polls the same bot)
// is logged as such and backed off. Errors: none escape but std::bad_alloc and the like.
void run_daemon(storage::Store& store, Service& service, Platform& platform,
                const DaemonOptions& options, StopToken& stop, Clock clock = system_clock_seconds);

} // namespace ghostpost::bot
