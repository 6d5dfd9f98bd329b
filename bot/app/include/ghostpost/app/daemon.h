// `ghostpost run`: the long-running daemon. One thread polls the platform, hands each post to
// the service (one transaction each) and delivers the outbox between polls; a second thread
// only waits for SIGTERM/SIGINT and cancels whatever HTTP call is in flight.
#pragma once

#include "ghostpost/app/monitor.h"
#include "ghostpost/platform/platform.h"
#include "ghostpost/service/service.h"
#include "ghostpost/storage/store.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <iosfwd>
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

using SteadyNow = std::function<std::chrono::steady_clock::time_point()>;

// Who is sending: several daemons on one database claim the entries they deliver (Store::
// claim_due) for `duration`, after which a dead sender's entries go to another.
struct SenderClaim {
    std::string holder = "ghostpost";
    std::chrono::seconds duration{120};
};

// Delivers the outbox of one platform: order per destination, pacing, retries. Each reply is
// marked sent as soon as the platform took it, so a crash repeats at most the one reply that
// was in flight (delivery is at least once, never many times).
class OutboxSender {
public:
    // Paces as `platform.pacing()` says; counts what it does in `monitor` when given.
    OutboxSender(storage::Store& store, Platform& platform, Clock clock,
                 SteadyNow steady = std::chrono::steady_clock::now, SenderClaim claim = {},
                 LaneMonitor* monitor = nullptr);

    // Sends every due entry the pacing allows now. Returns how many were sent. A retry_after
    // is honoured to the second: the entry is not due again before now + retry_after, rounded
    // up. Errors: the store's exceptions; PlatformError::Cancelled (shutting down).
    int send_due();
    // True when entries wait (for pacing or a retry), so the poll loop should not wait long.
    bool pending();

private:
    bool may_send(const std::string& destination, bool group,
                  std::chrono::steady_clock::time_point now) const;
    void record_send(const std::string& destination, bool group,
                     std::chrono::steady_clock::time_point now);
    std::int64_t backoff_seconds(int attempts);
    // Records what became of `entry`'s delivery; false when the entries behind it to the same
    // destination must wait (a rate limit, a transient failure, a private chat not open).
    bool settle(const storage::OutboxEntry& entry, const Delivery& delivery, std::int64_t now);
    void wait_for_private_chat(const storage::OutboxEntry& entry, const std::string& detail,
                               std::int64_t now);
    void give_up(const storage::OutboxEntry& entry, const std::string& detail, std::int64_t now);

    storage::Store& store_;
    Platform& platform_;
    Pacing pacing_;
    Clock clock_;
    SteadyNow steady_;
    SenderClaim claim_;
    LaneMonitor* monitor_;
    std::map<std::string, std::deque<std::chrono::steady_clock::time_point>> sent_at_;
    std::mt19937 jitter_{std::random_device{}()};
};

struct DaemonOptions {
    std::chrono::seconds poll_timeout{50};
    // How often the poll loop runs the service's time-driven job (Service::tick); 0: after
    // every poll (the console, where time moves only when a line says so).
    std::chrono::seconds tick_interval{30};
    // How many times in a row a post may fail because the database was busy before it is
    // set aside like a post that cannot be handled.
    int busy_attempts = 5;
    // The posts of one poll in one transaction, each in a savepoint (Store::group), on a
    // database no other daemon shares: one flush to disk serves them all. Off: a transaction
    // and a flush per post.
    bool group_commit = true;
    // Group commit also on a database several daemons share (PostgreSQL). Off by default: there
    // a conflict with another daemon's transaction fails the whole group, whose posts are then
    // handled again one by one, and under load the crash test's replies came later with it
    // than without (issue #34's note). The benchmark and the tests turn it on.
    bool group_on_shared = false;
    // Whether this loop runs the time-driven job (Service::start_up and tick). In a daemon
    // with several platforms, one loop does, for every platform's games.
    bool time_driven_jobs = true;
    // Whether this loop plays the engine's seats in its platform's games (engine_player.h),
    // and whether it thinks on the loop's own thread (the console: replies in a fixed order).
    bool engine = true;
    bool engine_synchronous = false;
    // How many of the engine's thoughts run at once ([bot] engine_threads); 0: half the cores.
    std::size_t engine_threads = 0;
    // Several daemons on one database (a shared store): this daemon's name among them, how
    // long its lease on polling the platform lasts unless renewed (it is renewed before every
    // poll, and a poll waits at most a third of it), and how long it holds outbox entries it
    // is delivering. Another daemon takes over within `lease` of this one's death.
    std::string holder = "ghostpost";
    std::chrono::seconds lease{30};
    std::chrono::seconds claim{120};
    // Where the loop reports its state and counts (the daemon's /healthz and /metrics).
    LaneMonitor* monitor = nullptr;
};

// What a run of the loop met, for the caller's exit status.
struct DaemonReport {
    int posts_failed = 0; // posts set aside because handling them threw (a bug of ours)
    int jobs_failed = 0;  // time-driven jobs that threw
    // Why the platform refused the bot's credentials for good, when that ended the loop.
    std::string refused;
};

// The poll loop: until `stop`, the platform is finished or it refuses the bot's credentials
// (DaemonReport::refused), run the time-driven job, deliver the outbox, poll, handle each post. A
// post whose handling throws is a bug of ours, never a stall: it is answered once ("nothing was
// applied"), logged with its id, and the loop goes on (a busy database is retried first). Platform
// failures are backed off as their kind says. Errors: none escape but std::bad_alloc and the like.
DaemonReport run_daemon(storage::Store& store, Service& service, Platform& platform,
                        const DaemonOptions& options, StopToken& stop,
                        Clock clock = system_clock_seconds);

// The console platform through the production loop: reads posts from `in` until its end and
// prints the replies on `out`, with a clock that the console's "~" lines move on. A post that
// fails is answered and set aside like anywhere else (and logged). Returns 0, or 1 when some
// post or time-driven job failed.
int run_console(storage::Store& store, const ServiceSettings& settings, std::istream& in,
                std::ostream& out, Clock clock = system_clock_seconds,
                const std::string& image_dir = {});

} // namespace ghostpost::bot
