#include "ghostpost/app/daemon.h"

#include "ghostpost/log/log.h"
#include "ghostpost/service/command.h"
#include "ghostpost/service/engine_player.h"
#include "ghostpost/storage/error.h"

#include <algorithm>
#include <set>
#include <thread>
#include <utility>

namespace ghostpost::bot {

namespace {

// A reply the platform refused for good gets one notice in the same place, so the player
// learns something went missing; the notice itself is never reported again. Our own words:
// the platform's description stays in the log.
constexpr std::string_view failure_notice =
    "A reply could not be delivered here; the operators can find why in the log.";

// What the outbox keeps of a platform's word on a failed delivery: secrets cut out, and short,
// whatever the platform sent (its description may echo a URL, or run to 100 KB).
std::string kept_detail(const std::string& text) {
    return shorten(log::redact(text), 200);
}

// Whether an exception while handling a post may pass if the post is tried again: the
// database was busy, another daemon changed the same rows, or the database was out of reach.
bool busy(const std::exception& e) {
    const auto* error = dynamic_cast<const storage::StorageError*>(&e);
    return error != nullptr && error->transient();
}

// A database out of reach is waited for as long as it takes: setting the post aside would
// need the database too, and the post is not at fault.
bool unreachable(const std::exception& e) {
    const auto* error = dynamic_cast<const storage::StorageError*>(&e);
    return error != nullptr && error->kind() == storage::StorageError::Kind::Io;
}

// Runs a short transaction of the sender or the loop again while another daemon's changes
// conflict with it (never with SQLite).
template <class F> void retrying(F work) {
    for (int attempt = 1;; ++attempt) {
        try {
            work();
            return;
        } catch (const storage::StorageError& e) {
            if (e.kind() != storage::StorageError::Kind::Conflict || attempt >= 8)
                throw;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5 * attempt));
    }
}

std::chrono::milliseconds jittered(std::chrono::milliseconds base, std::mt19937& random) {
    std::uniform_real_distribution<double> factor(0.5, 1.5);
    return std::chrono::milliseconds(
        static_cast<std::int64_t>(static_cast<double>(base.count()) * factor(random)));
}

} // namespace

void StopToken::request_stop() {
    {
        const std::lock_guard lock(mutex_);
        stopped_.store(true);
    }
    wake_.notify_all();
}

bool StopToken::sleep_for(std::chrono::milliseconds duration) {
    std::unique_lock lock(mutex_);
    return !wake_.wait_for(lock, duration, [this] { return stopped_.load(); });
}

OutboxSender::OutboxSender(storage::Store& store, Platform& platform, Clock clock, SteadyNow steady,
                           SenderClaim claim, LaneMonitor* monitor)
    : store_(store), platform_(platform), pacing_(platform.pacing()), clock_(std::move(clock)),
      steady_(std::move(steady)), claim_(std::move(claim)), monitor_(monitor) {}

bool OutboxSender::may_send(const std::string& destination, bool group,
                            std::chrono::steady_clock::time_point now) const {
    const auto it = sent_at_.find(platform_.pacing_key(destination));
    if (it == sent_at_.end() || it->second.empty()) {
        return true;
    }
    if (now - it->second.back() < pacing_.per_chat) {
        return false;
    }
    if (group) {
        const auto window_start = now - std::chrono::minutes(1);
        const auto recent = std::count_if(it->second.begin(), it->second.end(),
                                          [&](auto at) { return at > window_start; });
        return recent < pacing_.group_per_minute;
    }
    return true;
}

void OutboxSender::record_send(const std::string& destination, bool,
                               std::chrono::steady_clock::time_point now) {
    auto& times = sent_at_[platform_.pacing_key(destination)];
    times.push_back(now);
    while (!times.empty() && now - times.front() > std::chrono::minutes(1)) {
        times.pop_front();
    }
}

std::int64_t OutboxSender::backoff_seconds(int attempts) {
    // 1, 2, 4... seconds, capped, each jittered so that many failed replies do not all
    // return to a recovering server in the same second.
    const int exponent = std::clamp(attempts, 0, 16);
    const auto base =
        std::min<std::int64_t>(std::int64_t{1} << exponent, pacing_.max_backoff.count());
    const auto delay = jittered(std::chrono::seconds(base), jitter_);
    return std::max<std::int64_t>(1,
                                  std::chrono::duration_cast<std::chrono::seconds>(delay).count());
}

bool OutboxSender::pending() {
    return store_.pending_count(platform_.name()) > 0;
}

int OutboxSender::send_due() {
    const std::int64_t now = clock_();
    const auto entries =
        store_.claim_due(platform_.name(), now, 50, claim_.holder, now + claim_.duration.count());
    std::vector<std::int64_t> untouched; // claimed but held back: free for any sender again
    std::set<std::string> held; // destinations whose older entry did not go out in this batch
    int sent = 0;
    for (const storage::OutboxEntry& entry : entries) {
        const std::string& destination = entry.message.destination;
        if (held.contains(destination)) {
            untouched.push_back(entry.id);
            continue;
        }
        const bool group = !entry.message.to_user && platform_.is_group(destination);
        const auto steady_now = steady_();
        if (!may_send(destination, group, steady_now)) {
            held.insert(destination);
            untouched.push_back(entry.id);
            continue;
        }
        record_send(destination, group, steady_now);
        const Delivery delivery = platform_.send(Service::to_reply(entry, &store_));
        if (monitor_ != nullptr) {
            if (delivery.status == Delivery::Status::Sent)
                monitor_->reply_sent();
            else if (delivery.status == Delivery::Status::Failed)
                monitor_->reply_failed();
            else
                monitor_->reply_retried();
        }
        if (delivery.status == Delivery::Status::Sent)
            ++sent;
        if (!settle(entry, delivery, now))
            held.insert(destination);
    }
    if (!untouched.empty())
        store_.unclaim(untouched, claim_.holder);
    return sent;
}

bool OutboxSender::settle(const storage::OutboxEntry& entry, const Delivery& delivery,
                          std::int64_t now) {
    const std::string detail = kept_detail(delivery.detail);
    const log::Field id{"outbox_id", entry.id};
    const log::Field where{"destination", entry.message.destination};
    const log::Field lane{"platform", platform_.name()};
    switch (delivery.status) {
    case Delivery::Status::Sent:
        // Marked at once: a crash after this repeats no reply, and one before it repeats only
        // this one. Marking a batch at its end would send the whole batch again. The mark
        // waits for no fsync of its own (a post's commit must, one per post): a killed daemon
        // keeps it, and a power cut that loses it sends this one reply once more.
        retrying([&] { store_.relaxed_transaction([&] { store_.mark_sent(entry.id, now); }); });
        log::debug("reply_sent", {lane, id, where, {"attempts", entry.attempts + 1}});
        return true;
    case Delivery::Status::RetryAfter:
        // Due again only once the whole wait has passed: `now` is a whole second already
        // begun, so one more second is added rather than retry a fraction too early.
        store_.reschedule(
            entry.id, now + 1 + std::max<std::int64_t>(0, delivery.retry_after.count()), detail);
        log::warning(
            "reply_rate_limited",
            {lane, id, where, {"retry_after", delivery.retry_after.count()}, {"detail", detail}});
        return false;
    case Delivery::Status::Transient: {
        const auto delay = backoff_seconds(entry.attempts);
        store_.reschedule(entry.id, now + delay, detail);
        log::warning("reply_retry", {lane,
                                     id,
                                     where,
                                     {"attempts", entry.attempts + 1},
                                     {"retry_in", delay},
                                     {"detail", detail}});
        return false;
    }
    case Delivery::Status::Blocked:
        wait_for_private_chat(entry, detail, now);
        log::warning("private_chat_not_open",
                     {lane, id, {"user", entry.message.destination}, {"detail", detail}});
        return false;
    case Delivery::Status::Failed:
        log::error("reply_failed", {lane, id, where, {"detail", detail}});
        give_up(entry, detail, now);
        return true;
    }
    return true;
}

void OutboxSender::wait_for_private_chat(const storage::OutboxEntry& entry,
                                         const std::string& detail, std::int64_t now) {
    // Hidden information waits for the private chat; it never goes to the channel. The first
    // refusal posts the service's notice in the game's channel, once: later private messages
    // to this player queue behind this one and are not tried.
    store_.transaction([&] {
        store_.reschedule(entry.id, now + pacing_.blocked_retry.count(), detail);
        if (entry.attempts == 0 && !entry.message.blocked_notice.empty() &&
            !entry.message.notice_channel.empty()) {
            storage::OutgoingMessage notice;
            notice.platform = entry.message.platform;
            notice.destination = entry.message.notice_channel;
            notice.text = entry.message.blocked_notice;
            notice.named = entry.message.named;
            store_.enqueue(notice, now);
        }
    });
}

void OutboxSender::give_up(const storage::OutboxEntry& entry, const std::string& detail,
                           std::int64_t now) {
    store_.transaction([&] {
        store_.give_up(entry.id, detail);
        if (entry.message.text != failure_notice) {
            storage::OutgoingMessage notice;
            notice.platform = entry.message.platform;
            notice.to_user = entry.message.to_user;
            notice.destination = entry.message.destination;
            notice.reply_to = entry.message.reply_to;
            notice.text = std::string(failure_notice);
            store_.enqueue(notice, now);
        }
    });
}

namespace {

void log_handled(const log::Field& lane, const Post& post, HandleStatus status,
                 std::chrono::duration<double> took) {
    log::info("post_handled", {lane,
                               {"channel", post.channel},
                               {"message_id", post.message_id},
                               {"duplicate", status == HandleStatus::Duplicate},
                               {"ms", static_cast<std::int64_t>(took.count() * 1000)}});
}

void log_failed(const log::Field& lane, const Post& post, const std::string& error) {
    log::error(
        "post_failed",
        {lane, {"channel", post.channel}, {"message_id", post.message_id}, {"error", error}});
}

void log_set_aside(const log::Field& lane, const Post& post) {
    log::error("post_set_aside",
               {lane, {"channel", post.channel}, {"message_id", post.message_id}});
}

// The posts of one poll as one group commit (Service::handle_grouped). True when the group
// committed (every post handled or set aside, and logged); false when it failed as a whole
// (nothing of it kept), for the caller to handle the posts one by one.
bool handle_group(storage::Store& store, Service& service, const std::vector<Post>& posts,
                  StopToken& stop, const log::Field& lane, LaneMonitor* monitor,
                  DaemonReport& report) {
    struct Outcome {
        const Post* post;
        HandleStatus status;
        std::chrono::duration<double> took;
        std::string failure; // empty: handled
    };
    std::vector<Outcome> outcomes;
    try {
        service.handle_grouped([&] {
            outcomes.clear();
            for (const Post& post : posts) {
                if (stop.stop_requested())
                    break; // the rest comes again after the restart, from the stored cursor
                const auto started = std::chrono::steady_clock::now();
                Outcome o{&post, HandleStatus::Handled, {}, {}};
                try {
                    o.status = service.handle(post);
                    if (o.status == HandleStatus::Duplicate && !post.cursor.empty())
                        store.transaction([&] { store.set_cursor(cursor_key(post), post.cursor); });
                } catch (const std::exception& e) {
                    if (busy(e))
                        throw; // the database is not ours alone now: one by one, with waits
                    o.failure = e.what();
                    service.give_up(post); // a failure of this ends the group
                }
                o.took = std::chrono::steady_clock::now() - started;
                outcomes.push_back(std::move(o));
            }
        });
    } catch (const std::exception& e) {
        log::warning(
            "group_failed",
            {lane, {"posts", static_cast<std::int64_t>(posts.size())}, {"error", e.what()}});
        return false;
    }
    for (const Outcome& o : outcomes) {
        if (!o.failure.empty()) {
            log_failed(lane, *o.post, o.failure);
            ++report.posts_failed;
            log_set_aside(lane, *o.post);
            continue;
        }
        if (monitor != nullptr)
            monitor->post_handled(o.took);
        log_handled(lane, *o.post, o.status, o.took);
    }
    return true;
}

// One platform's poll loop (run_daemon): each round renews the lease, lets the engine think,
// runs the time-driven job when due, delivers what is due, and, for the daemon that polls,
// reads the next posts and handles them.
class PollLoop {
public:
    PollLoop(storage::Store& store, Service& service, Platform& platform,
             const DaemonOptions& options, StopToken& stop, Clock clock)
        : store_(store), service_(service), platform_(platform), options_(options), stop_(stop),
          clock_(clock), monitor_(options.monitor),
          sender_(store, platform, clock, std::chrono::steady_clock::now,
                  {options.holder, options.claim}, options.monitor),
          name_(platform.name()), lane_{"platform", name_}, lane_key_(platform.lane()),
          lease_("cursor:" + lane_key_), polling_(!store.shared()) {}

    DaemonReport run() {
        start();
        while (!stop_.stop_requested() && !platform_.finished()) {
            if (monitor_ != nullptr)
                monitor_->beat();
            if (store_.shared())
                renew_lease();
            // Of a platform's lanes, the one that delivers plays the engine's seats, once.
            if (engine_ && polling_ && platform_.delivers())
                step_engine();
            run_jobs_when_due();
            bool waiting_replies = false;
            if (const Step s = deliver(waiting_replies); s != Step::Go) {
                if (s == Step::Stop)
                    break;
                continue;
            }
            if (refused_now() || stop_.stop_requested())
                break;
            if (!polling_) {
                // Looked at again each second: the lease and the claims of a daemon that died
                // are free the moment its database session ends, and one of the others takes
                // them.
                stop_.sleep_for(std::chrono::seconds(1));
                continue;
            }
            std::vector<Post> posts;
            if (const Step s = poll(waiting_replies, posts); s != Step::Go) {
                if (s == Step::Stop)
                    break;
                continue;
            }
            if (refused_now())
                break; // the posts of this poll come again from the stored cursor
            handle(posts);
        }
        finish();
        return report_;
    }

private:
    enum class Step { Go, Again, Stop }; // on with the round, the next round, out of the loop

    // The time-driven job once at start-up (downtime is charged to nobody), the platform's
    // notices to the moderators, and the engine.
    void start() {
        log::info("daemon_started", {{"platform", name_}});
        if (options_.time_driven_jobs) {
            try {
                if (const int told = service_.start_up(); told > 0)
                    log::info("downtime_forgiven", {lane_, {"games", told}});
            } catch (const std::exception& e) {
                log::error("start_up_failed", {lane_, {"error", e.what()}});
                ++report_.jobs_failed;
            }
        }
        // What the platform found wrong with how the bot is set up goes to the moderators too.
        if (const auto notices = platform_.moderator_notices(); !notices.empty()) {
            try {
                service_.tell_moderators(name_, notices);
            } catch (const std::exception& e) {
                log::error("moderator_notice_failed", {lane_, {"error", e.what()}});
            }
        }
        if (options_.engine)
            engine_.emplace(options_.engine_synchronous,
                            EngineQueueOptions{.workers = options_.engine_threads});
    }

    // Of several daemons on one database, the one holding this lease polls the platform (and
    // plays the engine's seats there); the others deliver replies and run the time-driven job
    // with it, and one of them takes over within a second or two when it dies (its database
    // session ends), or within the lease's time when it hangs. A platform of several lanes
    // (the shards of a chat gateway) has a lease and a cursor per lane.
    void renew_lease() {
        const std::int64_t now = clock_();
        bool held = polling_;
        try {
            held = store_.hold_lease(lease_, options_.holder, now, now + options_.lease.count());
        } catch (const std::exception& e) {
            log::warning("lease_failed", {{"platform", name_}, {"error", e.what()}});
            held = false; // unsure: another may have it, so this one does not poll
        }
        if (held != polling_)
            log::info(held ? "lease_taken" : "lease_lost",
                      {{"platform", name_}, {"lane", lane_key_}, {"holder", options_.holder}});
        if (polling_ && !held)
            platform_.idle(); // the daemon that took the lease owns the connection now
        polling_ = held;
    }

    // The engine's finished thoughts enter as posts; new decisions start thinking.
    void step_engine() {
        try {
            engine_->step(service_, name_);
        } catch (const std::exception& e) {
            log::error("engine_failed", {lane_, {"error", e.what()}});
        }
        for (const auto& failure : engine_->take_failures())
            log::error("engine_post_failed", {lane_, {"error", failure}});
        if (engine_->thinking())
            log::debug("engine_thinking", {{"platform", name_}});
    }

    // Every tick_interval between polls; a failure is logged and tried again next time.
    void run_jobs_when_due() {
        const std::int64_t now = clock_();
        if (!options_.time_driven_jobs ||
            (last_tick_ && now - *last_tick_ < options_.tick_interval.count()))
            return;
        last_tick_ = now;
        try {
            service_.tick();
        } catch (const std::exception& e) {
            log::error("tick_failed", {lane_, {"error", e.what()}});
            ++report_.jobs_failed;
        }
    }

    Step deliver(bool& waiting_replies) {
        try {
            if (platform_.delivers()) {
                sender_.send_due();
                waiting_replies = sender_.pending();
            }
        } catch (const PlatformError& e) {
            if (e.kind() == PlatformError::Kind::Cancelled)
                return Step::Stop;
            log::error("outbox_failed", {lane_, {"error", e.what()}});
        } catch (const std::exception& e) {
            log::error("outbox_failed", {lane_, {"error", e.what()}});
            back_off(std::chrono::milliseconds(0));
            return Step::Again;
        }
        return Step::Go;
    }

    // Waiting replies need the loop back soon; otherwise the long poll may take its time,
    // short enough to renew a lease before it runs out.
    Step poll(bool waiting_replies, std::vector<Post>& posts) {
        auto timeout = waiting_replies || (engine_ && engine_->thinking()) ? std::chrono::seconds(1)
                                                                           : options_.poll_timeout;
        if (store_.shared())
            timeout = std::min(timeout, std::max<std::chrono::seconds>(std::chrono::seconds(1),
                                                                       options_.lease / 3));
        try {
            posts = platform_.poll(store_.cursor(lane_key_).value_or(""), timeout);
            failure_delay_ = std::chrono::milliseconds(1000);
            if (monitor_ != nullptr) {
                if (const std::string trouble = platform_.trouble(); trouble.empty())
                    monitor_->poll_succeeded();
                else
                    monitor_->set_state(LaneState::Retrying, trouble);
            }
            return Step::Go;
        } catch (const PlatformError& e) {
            return poll_failed(e);
        } catch (const std::exception& e) {
            if (monitor_ != nullptr)
                monitor_->poll_failed(e.what());
            log::error("poll_failed", {lane_, {"error", e.what()}});
            back_off(std::chrono::milliseconds(0));
            return Step::Again;
        }
    }

    Step poll_failed(const PlatformError& e) {
        if (e.kind() != PlatformError::Kind::Cancelled && monitor_ != nullptr)
            monitor_->poll_failed(e.what());
        switch (e.kind()) {
        case PlatformError::Kind::Cancelled:
            break;
        case PlatformError::Kind::Conflict:
            log::error("poll_conflict",
                       {lane_,
                        {"error", e.what()},
                        {"hint", "another process is reading this bot's updates; stop it or "
                                 "use another bot account"}});
            back_off(std::chrono::seconds(5));
            return Step::Again;
        case PlatformError::Kind::Unauthorized: {
            const std::string why = platform_.refused();
            refused(why.empty() ? std::string(e.what()) : why);
            break;
        }
        case PlatformError::Kind::RateLimited:
        case PlatformError::Kind::Transient:
            log::warning("poll_failed", {lane_, {"error", e.what()}});
            back_off(e.retry_after());
            return Step::Again;
        }
        return Step::Stop; // cancelled or refused
    }

    void handle(std::vector<Post>& posts) {
        // A lane's own cursor is not the platform's (one shard of it): each post's goes under
        // the lane's key, in the post's own transaction.
        if (lane_key_ != name_)
            for (Post& post : posts)
                post.cursor_key = lane_key_;
        // Group commit: the posts of one poll share one transaction, each in a savepoint: one
        // commit and one flush to disk for all of them. A post that fails rolls back alone and
        // is set aside as below; anything that ends the group (a busy database, a conflict
        // with another daemon's transaction, a failed commit) leaves nothing, and the posts go
        // again one by one, each with its own retries.
        if (options_.group_commit && (!store_.shared() || options_.group_on_shared) &&
            posts.size() > 1 &&
            handle_group(store_, service_, posts, stop_, lane_, monitor_, report_))
            return;
        for (const Post& post : posts) {
            if (stop_.stop_requested() || !handle_one(post))
                break; // the rest comes again from the stored cursor
        }
    }

    // False when the posts behind this one must wait for the next poll.
    bool handle_one(const Post& post) {
        try {
            const auto started = std::chrono::steady_clock::now();
            const HandleStatus status = service_.handle(post);
            const std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;
            if (monitor_ != nullptr)
                monitor_->post_handled(took);
            if (status == HandleStatus::Duplicate && !post.cursor.empty()) {
                // The platform repeated a post: still confirm it, or it comes back forever.
                retrying([&] {
                    store_.transaction([&] { store_.set_cursor(cursor_key(post), post.cursor); });
                });
            }
            log_handled(lane_, post, status, took);
            busy_post_.clear();
            busy_tries_ = 0;
            return true;
        } catch (const std::exception& e) {
            return handle_failed(post, e);
        }
    }

    // Nothing of the post was kept. A busy database may pass: the post is polled again from
    // the stored cursor. Anything else is a bug of ours that trying again would only repeat:
    // the post is answered once and set aside, and the posts behind it go on.
    bool handle_failed(const Post& post, const std::exception& e) {
        const std::string key = post.channel + "/" + post.message_id;
        if (busy(e)) {
            busy_tries_ = key == busy_post_ ? busy_tries_ + 1 : 1;
            busy_post_ = key;
            log::warning("post_busy", {lane_,
                                       {"channel", post.channel},
                                       {"message_id", post.message_id},
                                       {"attempt", busy_tries_},
                                       {"error", e.what()}});
            if (busy_tries_ < options_.busy_attempts || unreachable(e)) {
                back_off(std::chrono::milliseconds(0));
                return false;
            }
        }
        log_failed(lane_, post, e.what());
        ++report_.posts_failed;
        busy_post_.clear();
        busy_tries_ = 0;
        try {
            service_.give_up(post);
            log_set_aside(lane_, post);
            return true;
        } catch (const std::exception& again) {
            log::error("post_set_aside_failed", {lane_, {"error", again.what()}});
            back_off(std::chrono::milliseconds(0));
            return false;
        }
    }

    void finish() {
        refused_now(); // the platform finished because of it
        if (store_.shared() && polling_) {
            // Another daemon need not wait for the lease to run out; what this one kept open
            // goes first, so that the next owner never overlaps it.
            platform_.idle();
            try {
                store_.release_lease(lease_, options_.holder);
            } catch (const std::exception& e) {
                log::warning("lease_failed", {{"platform", name_}, {"error", e.what()}});
            }
        }
        if (monitor_ != nullptr && report_.refused.empty())
            monitor_->set_state(LaneState::Stopped);
        log::info("daemon_stopped", {lane_});
    }

    // A refusal of the bot's credentials ends this lane only: waiting cannot heal it.
    void refused(const std::string& why) {
        report_.refused = why;
        if (monitor_ != nullptr)
            monitor_->set_state(LaneState::Refused, why);
    }
    bool refused_now() {
        if (!report_.refused.empty())
            return true;
        const std::string why = platform_.refused();
        if (!why.empty())
            refused(why);
        return !why.empty();
    }

    void back_off(std::chrono::milliseconds at_least) {
        const auto delay = std::max(jittered(failure_delay_, random_), at_least);
        failure_delay_ =
            std::min<std::chrono::milliseconds>(failure_delay_ * 2, std::chrono::seconds(60));
        stop_.sleep_for(delay);
    }

    storage::Store& store_;
    Service& service_;
    Platform& platform_;
    const DaemonOptions& options_;
    StopToken& stop_;
    Clock clock_;
    LaneMonitor* const monitor_;
    OutboxSender sender_;
    const std::string name_;
    const log::Field lane_;
    const std::string lane_key_;
    const std::string lease_;
    bool polling_;
    DaemonReport report_;
    std::optional<EnginePlayer> engine_;
    std::optional<std::int64_t> last_tick_;
    std::mt19937 random_{std::random_device{}()};
    std::chrono::milliseconds failure_delay_{1000};
    std::string busy_post_; // the post the database was last too busy for, and how many times
    int busy_tries_ = 0;
};

} // namespace

DaemonReport run_daemon(storage::Store& store, Service& service, Platform& platform,
                        const DaemonOptions& options, StopToken& stop, Clock clock) {
    return PollLoop(store, service, platform, options, stop, std::move(clock)).run();
}

} // namespace ghostpost::bot
