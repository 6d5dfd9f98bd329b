#include "ghostpost/app/monitor.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

namespace ghostpost::bot {

namespace {

// A label value as the text format wants it: backslash, quote and newline escaped.
std::string label(std::string_view value) {
    std::string out;
    for (const char c : value) {
        if (c == '\\' || c == '"')
            out += '\\';
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        out += c;
    }
    return out;
}

std::string number(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", value);
    // "%.17g" writes 0.0025 as 0.0025000000000000001; the shortest form that reads back the
    // same is what people expect in a le label.
    for (int precision = 1; precision <= 17; ++precision) {
        char shorter[32];
        std::snprintf(shorter, sizeof shorter, "%.*g", precision, value);
        if (std::strtod(shorter, nullptr) == value)
            return shorter;
    }
    return text;
}

void family(std::ostringstream& out, std::string_view name, std::string_view type,
            std::string_view help) {
    out << "# HELP " << name << ' ' << help << "\n# TYPE " << name << ' ' << type << '\n';
}

} // namespace

std::string_view to_string(LaneState state) {
    switch (state) {
    case LaneState::Starting:
        return "starting";
    case LaneState::Polling:
        return "polling";
    case LaneState::Retrying:
        return "retrying";
    case LaneState::Refused:
        return "refused";
    case LaneState::Stopped:
        return "stopped";
    }
    return "unknown";
}

LaneMonitor::LaneMonitor(std::string platform, Clock clock) : clock_(std::move(clock)) {
    now_.platform = std::move(platform);
    now_.since = clock_();
}

void LaneMonitor::set_state(LaneState state, std::string why) {
    const std::int64_t at = clock_();
    const std::lock_guard lock(mutex_);
    // A refused lane stays refused: only the operator's restart ends it.
    if (now_.state == LaneState::Refused && state != LaneState::Refused)
        return;
    if (now_.state != state)
        now_.since = at;
    now_.state = state;
    now_.why = state == LaneState::Polling ? std::string() : std::move(why);
}

void LaneMonitor::poll_succeeded() {
    const std::int64_t at = clock_();
    {
        const std::lock_guard lock(mutex_);
        now_.last_poll = at;
    }
    set_state(LaneState::Polling);
}

void LaneMonitor::poll_failed(const std::string& why) {
    {
        const std::lock_guard lock(mutex_);
        ++now_.poll_errors;
    }
    set_state(LaneState::Retrying, why);
}

void LaneMonitor::post_handled(std::chrono::duration<double> took) {
    const double seconds = took.count();
    const std::lock_guard lock(mutex_);
    ++now_.posts_handled;
    now_.handling_seconds += seconds;
    const auto bucket = std::lower_bound(handling_buckets.begin(), handling_buckets.end(), seconds);
    ++now_.handling[static_cast<std::size_t>(bucket - handling_buckets.begin())];
}

void LaneMonitor::reply_sent() {
    const std::int64_t at = clock_();
    const std::lock_guard lock(mutex_);
    ++now_.replies_sent;
    now_.last_delivery = at;
}

void LaneMonitor::reply_retried() {
    const std::lock_guard lock(mutex_);
    ++now_.replies_retried;
}

void LaneMonitor::reply_failed() {
    const std::lock_guard lock(mutex_);
    ++now_.replies_failed;
}

LaneSnapshot LaneMonitor::snapshot() const {
    const std::lock_guard lock(mutex_);
    return now_;
}

Monitor::Monitor(Clock clock) : clock_(std::move(clock)) {}

LaneMonitor& Monitor::add_lane(const std::string& platform) {
    const std::lock_guard lock(mutex_);
    lanes_.push_back(std::make_unique<LaneMonitor>(platform, clock_));
    return *lanes_.back();
}

std::vector<LaneSnapshot> Monitor::lanes() const {
    const std::lock_guard lock(mutex_);
    std::vector<LaneSnapshot> out;
    for (const auto& lane : lanes_)
        out.push_back(lane->snapshot());
    return out;
}

void Monitor::set_figures(std::function<StoreFigures()> read) {
    const std::lock_guard lock(mutex_);
    read_figures_ = std::move(read);
}

StoreFigures Monitor::figures() const {
    std::function<StoreFigures()> read;
    {
        const std::lock_guard lock(mutex_);
        read = read_figures_;
    }
    if (!read)
        return {};
    try {
        return read();
    } catch (const std::exception& e) {
        StoreFigures none;
        none.error = e.what();
        return none;
    }
}

HttpAnswer Monitor::health() const {
    return render_health(lanes(), figures(), clock_());
}

HttpAnswer Monitor::metrics() const {
    return {200, "text/plain; version=0.0.4; charset=utf-8",
            render_metrics(lanes(), figures(), clock_())};
}

HttpAnswer render_health(const std::vector<LaneSnapshot>& lanes, const StoreFigures& figures,
                         std::int64_t now) {
    using nlohmann::json;
    json platforms = json::object();
    bool healthy = !lanes.empty() && figures.error.empty();
    for (const LaneSnapshot& lane : lanes) {
        json entry = {{"state", to_string(lane.state)},
                      {"since", lane.since},
                      {"seconds_in_state", std::max<std::int64_t>(0, now - lane.since)}};
        if (!lane.why.empty())
            entry["why"] = lane.why;
        entry["last_poll"] = lane.last_poll ? json(*lane.last_poll) : json(nullptr);
        entry["last_delivery"] = lane.last_delivery ? json(*lane.last_delivery) : json(nullptr);
        const auto backlog = figures.backlog.find(lane.platform);
        const int pending = backlog == figures.backlog.end() ? 0 : backlog->second.pending;
        entry["outbox_backlog"] = pending;
        entry["oldest_reply_age_seconds"] =
            backlog != figures.backlog.end() && backlog->second.oldest_created_at
                ? json(std::max<std::int64_t>(0, now - *backlog->second.oldest_created_at))
                : json(nullptr);
        platforms[lane.platform] = std::move(entry);
        if (lane.state != LaneState::Polling)
            healthy = false;
    }
    json body = {{"status", healthy ? "ok" : "degraded"},
                 {"database", figures.error.empty() ? std::string("ok") : figures.error},
                 {"platforms", std::move(platforms)}};
    return {healthy ? 200 : 503, "application/json", body.dump() + "\n"};
}

std::string render_metrics(const std::vector<LaneSnapshot>& lanes, const StoreFigures& figures,
                           std::int64_t now) {
    std::ostringstream out;
    const auto per_lane = [&](std::string_view name, std::string_view type, std::string_view help,
                              auto value) {
        family(out, name, type, help);
        for (const LaneSnapshot& lane : lanes)
            out << name << "{platform=\"" << label(lane.platform) << "\"} " << value(lane) << '\n';
    };
    per_lane("ghostpost_platform_up", "gauge", "1 when the platform lane polls, 0 otherwise.",
             [](const LaneSnapshot& l) { return l.state == LaneState::Polling ? 1 : 0; });
    family(out, "ghostpost_platform_state", "gauge",
           "The platform lane's state: 1 for the state it is in, 0 for the others.");
    for (const LaneSnapshot& lane : lanes)
        for (const LaneState state : {LaneState::Starting, LaneState::Polling, LaneState::Retrying,
                                      LaneState::Refused, LaneState::Stopped})
            out << "ghostpost_platform_state{platform=\"" << label(lane.platform) << "\",state=\""
                << to_string(state) << "\"} " << (lane.state == state ? 1 : 0) << '\n';
    per_lane("ghostpost_posts_handled_total", "counter", "Posts handled, duplicates included.",
             [](const LaneSnapshot& l) { return l.posts_handled; });
    per_lane("ghostpost_replies_sent_total", "counter", "Replies the platform took.",
             [](const LaneSnapshot& l) { return l.replies_sent; });
    per_lane("ghostpost_replies_retried_total", "counter",
             "Replies put back for a later try (rate limited, failing, private chat not open).",
             [](const LaneSnapshot& l) { return l.replies_retried; });
    per_lane("ghostpost_replies_failed_total", "counter", "Replies the platform refused for good.",
             [](const LaneSnapshot& l) { return l.replies_failed; });
    per_lane("ghostpost_poll_errors_total", "counter", "Polls that failed.",
             [](const LaneSnapshot& l) { return l.poll_errors; });
    per_lane("ghostpost_last_poll_age_seconds", "gauge",
             "Seconds since the last successful poll (since the start when none).",
             [now](const LaneSnapshot& l) {
                 return std::max<std::int64_t>(0, now - l.last_poll.value_or(l.since));
             });
    per_lane("ghostpost_outbox_backlog", "gauge", "Replies waiting in the outbox.",
             [&figures](const LaneSnapshot& l) {
                 const auto it = figures.backlog.find(l.platform);
                 return it == figures.backlog.end() ? 0 : it->second.pending;
             });
    per_lane("ghostpost_outbox_oldest_age_seconds", "gauge",
             "Age of the oldest reply waiting in the outbox (0 when none waits).",
             [&figures, now](const LaneSnapshot& l) {
                 const auto it = figures.backlog.find(l.platform);
                 if (it == figures.backlog.end() || !it->second.oldest_created_at)
                     return std::int64_t{0};
                 return std::max<std::int64_t>(0, now - *it->second.oldest_created_at);
             });
    family(out, "ghostpost_post_handling_seconds", "histogram",
           "Time to handle one post, its transaction included.");
    for (const LaneSnapshot& lane : lanes) {
        const std::string platform = label(lane.platform);
        std::uint64_t cumulative = 0;
        for (std::size_t i = 0; i < handling_buckets.size(); ++i) {
            cumulative += lane.handling[i];
            out << "ghostpost_post_handling_seconds_bucket{platform=\"" << platform << "\",le=\""
                << number(handling_buckets[i]) << "\"} " << cumulative << '\n';
        }
        cumulative += lane.handling.back();
        out << "ghostpost_post_handling_seconds_bucket{platform=\"" << platform
            << "\",le=\"+Inf\"} " << cumulative << '\n';
        out << "ghostpost_post_handling_seconds_sum{platform=\"" << platform << "\"} "
            << number(lane.handling_seconds) << '\n';
        out << "ghostpost_post_handling_seconds_count{platform=\"" << platform << "\"} "
            << cumulative << '\n';
    }
    family(out, "ghostpost_games_under_way", "gauge", "Games under way, by variant.");
    for (const auto& [variant, count] : figures.games_under_way)
        out << "ghostpost_games_under_way{variant=\"" << label(variant) << "\"} " << count << '\n';
    family(out, "ghostpost_database_up", "gauge", "1 when the database answered, 0 otherwise.");
    out << "ghostpost_database_up " << (figures.error.empty() ? 1 : 0) << '\n';
    return out.str();
}

} // namespace ghostpost::bot
