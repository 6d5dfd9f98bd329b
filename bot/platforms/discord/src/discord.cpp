#include "ghostpost/discord/discord.h"

#include "gateway.h"
#include "ghostpost/i18n/catalogs.h"
#include "ghostpost/log/log.h"
#include "ghostpost/platform/message_pieces.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

namespace ghostpost::bot {

namespace discord {

// What the adapters of one bot's shards share in one daemon: the bot's limits are the bot's,
// and a reply may be delivered by another shard's adapter than the one its post came through.
struct Shared {
    using Instant = std::chrono::steady_clock::time_point;
    std::mutex mutex; // guards all of it; taken after a DiscordPlatform's own mutex_, never before
    std::deque<Instant> recent_calls; // the last second's calls: 50 a second at most
    Instant global_not_before{};
    // Identify buckets (shard % max_concurrency): when each may identify next.
    int max_concurrency = 1;
    std::map<int, Instant> identify_next;
    std::map<std::string, std::string> dm_channels; // user id -> DM channel id
    std::set<std::string> direct_channels;          // DM channel ids
    std::set<std::string> guild_channels;           // guild channel ids read
    std::map<std::string, std::string> handle_ids;  // username -> user id, as seen in posts
    // Interactions deferred and not yet answered (their tokens are valid for 15 minutes).
    struct Deferred {
        std::string token;
        std::string channel;
        std::string user;
        bool direct = false;
        Instant at{};
    };
    std::map<std::string, Deferred> deferred; // interaction id ->
    std::string application_id;               // from READY, whichever shard had it
};

} // namespace discord

namespace {

using nlohmann::json;

constexpr std::size_t max_content = 2000; // characters (the API description says 4000: wrong)
constexpr std::size_t max_detail = 200;
constexpr int max_calls_per_second = 50;
constexpr std::size_t invalid_budget = 10000; // 401, 403 and 429 in ten minutes
constexpr std::size_t invalid_reserve = 8000; // where the adapter stops spending it
constexpr std::size_t max_known_handles = 10000;
// The channels whose kind (a guild's or a DM) a daemon keeps knowing, and those whose newest
// message of the bot's it keeps until a cursor has it.
constexpr std::size_t max_known_channels = 100000;
constexpr std::size_t max_own_channels = 10000;
// A deferred interaction no reply answered within this loses its "thinking" message; its token
// is good for 15 minutes.
constexpr auto unanswered_after = std::chrono::seconds(30);
constexpr auto token_lifetime = std::chrono::minutes(14);

std::string code_block(std::string_view code) {
    return "```\n" + std::string(code) + "\n```";
}

// The messages one reply becomes: the text and the code block together when they fit,
// otherwise the text in pieces, then the code in blocks of whole lines.
std::vector<std::string> format(const std::string& text, const std::string& code) {
    std::vector<std::string> out;
    if (code.empty())
        return split_message(text, max_content);
    const std::string block = code_block(code);
    if ((text.empty() ? 0 : characters(text) + 1) + characters(block) <= max_content) {
        out.push_back(text.empty() ? block : text + "\n" + block);
        return out;
    }
    out = split_message(text, max_content);
    for (const auto& piece : split_message(code, max_content - 8))
        out.push_back(code_block(piece));
    return out;
}

// A nonce of at most 25 characters, the same for every attempt at one piece of one reply.
std::string nonce_of(const std::string& key, std::size_t piece) {
    std::uint64_t hash = 1469598103934665603ULL; // FNV-1a
    for (const char c : key) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 1099511628211ULL;
    }
    static constexpr char digits[] = "0123456789abcdef";
    std::string text;
    for (int shift = 60; shift >= 0; shift -= 4)
        text += digits[(hash >> shift) & 0xF];
    return text + "." + std::to_string(piece);
}

bool is_snowflake(const std::string& text) {
    return !text.empty() && text.size() <= 20 &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A message the bot wrote (a MESSAGE_CREATE's "d"), as its channel and id.
std::optional<std::pair<std::string, std::string>> own_message(const json& data,
                                                               const std::string& bot) {
    if (bot.empty() || !data.is_object() || !data.contains("author") ||
        !data["author"].is_object() || data["author"].value("id", json()) != json(bot) ||
        !data.contains("channel_id") || !data["channel_id"].is_string() || !data.contains("id") ||
        !data["id"].is_string())
        return std::nullopt;
    std::string channel = data["channel_id"].get<std::string>(), id = data["id"].get<std::string>();
    if (!is_snowflake(channel) || !is_snowflake(id))
        return std::nullopt;
    return std::make_pair(std::move(channel), std::move(id));
}

std::chrono::milliseconds seconds_to_ms(double seconds) {
    seconds = std::clamp(seconds, 0.0, 86400.0);
    return std::chrono::milliseconds(static_cast<std::int64_t>(std::ceil(seconds * 1000.0)));
}

std::chrono::seconds whole_seconds(std::chrono::milliseconds wait) {
    return std::max(std::chrono::ceil<std::chrono::seconds>(wait), std::chrono::seconds(1));
}

// "@name" to "<@id>" for every name the service named with its account (`named`) or the
// adapter saw in a post, so that exactly those players are pinged; returns the ids.
std::vector<std::string> ping(std::string& text, const std::map<std::string, std::string>& ids,
                              const std::vector<Mention>& named) {
    std::vector<std::string> users;
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        if (text[i] == '@' &&
            (i == 0 || text[i - 1] == ' ' || text[i - 1] == '\n' || text[i - 1] == '(')) {
            std::size_t end = i + 1;
            while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) != 0 ||
                                         text[end] == '_' || text[end] == '.'))
                ++end;
            while (end > i + 1 && text[end - 1] == '.')
                --end; // a full stop ends the sentence, not the name
            const std::string name = text.substr(i + 1, end - i - 1);
            std::string id;
            for (const Mention& m : named)
                if (m.handle == name && is_snowflake(m.user_id))
                    id = m.user_id;
            if (const auto it = ids.find(name); id.empty() && it != ids.end())
                id = it->second;
            if (!id.empty()) {
                out += "<@" + id + ">";
                if (std::find(users.begin(), users.end(), id) == users.end() && users.size() < 100)
                    users.push_back(id);
                i = end;
                continue;
            }
        }
        out += text[i];
        ++i;
    }
    text = std::move(out);
    return users;
}

// The message as the request's body: JSON, or with a board image the multipart form Discord
// takes for files (payload_json and files[0]).
void set_body(HttpRequest& request, json body, const std::vector<std::uint8_t>* png) {
    if (png == nullptr) {
        request.body = body.dump(-1, ' ', false, json::error_handler_t::replace);
        return;
    }
    body["attachments"] = json::array({{{"id", "0"}, {"filename", "board.png"}}});
    request.parts.push_back({"payload_json",
                             body.dump(-1, ' ', false, json::error_handler_t::replace), "",
                             "application/json"});
    request.parts.push_back(
        {"files[0]", std::string(png->begin(), png->end()), "board.png", "image/png"});
}

// The users a message's "<@id>"s name, at most 100: the only ones it may ping.
std::vector<std::string> mentioned(const std::string& content) {
    std::vector<std::string> users;
    for (std::size_t at = content.find("<@"); at != std::string::npos;
         at = content.find("<@", at + 2)) {
        const auto close = content.find('>', at);
        if (close == std::string::npos)
            break;
        const std::string id = content.substr(at + 2, close - at - 2);
        if (is_snowflake(id) && std::find(users.begin(), users.end(), id) == users.end() &&
            users.size() < 100)
            users.push_back(id);
    }
    return users;
}

} // namespace

// One REST answer. `api` is false when the body is not Discord's JSON (a proxy's page).
struct DiscordPlatform::Response {
    long status = 0;
    bool api = false;
    json body;
    int code = 0;        // Discord's JSON error code, 0 when none
    std::string message; // as Discord wrote it: scrub before use
    std::chrono::milliseconds retry_after{0};
    bool global = false;

    Response(const HttpResponse& response) : status(response.status) {
        body = json::parse(response.body, nullptr, false);
        api = !body.is_discarded() && (body.is_object() || body.is_array());
        if (!body.is_object())
            return;
        if (const auto it = body.find("code"); it != body.end() && it->is_number_integer())
            code = static_cast<int>(std::clamp<std::int64_t>(it->get<std::int64_t>(), 0, 999999));
        if (const auto it = body.find("message"); it != body.end() && it->is_string())
            message = it->get<std::string>();
        if (const auto it = body.find("retry_after"); it != body.end() && it->is_number())
            retry_after = seconds_to_ms(it->get<double>());
        if (const auto it = body.find("global"); it != body.end() && it->is_boolean())
            global = it->get<bool>();
    }
    bool ok() const { return status >= 200 && status < 300; }
};

DiscordPlatform::DiscordPlatform(HttpClient& http, DiscordOptions options)
    : http_(http), options_(std::move(options)) {
    init();
}

DiscordPlatform::DiscordPlatform(std::unique_ptr<HttpClient> http, DiscordOptions options)
    : own_http_(std::move(http)), http_(*own_http_), options_(std::move(options)) {
    init();
}

void DiscordPlatform::init() {
    while (!options_.api_url.empty() && options_.api_url.back() == '/')
        options_.api_url.pop_back();
    if (!options_.clock)
        options_.clock = std::chrono::steady_clock::now;
    if (!options_.cancelled)
        options_.cancelled = [] { return false; };
    shared_ = options_.shared ? options_.shared : std::make_shared<discord::Shared>();
    log::add_secret(options_.token);
}

std::string DiscordPlatform::lane() const {
    if (options_.shards <= 1)
        return name();
    return name() + "/shard/" + std::to_string(options_.shard) + "/" +
           std::to_string(options_.shards);
}

void DiscordPlatform::idle() {
    if (!gateway_)
        return;
    gateway_->stop();
    gateway_.reset();
    unconfirmed_.clear();
    const std::lock_guard lock(mutex_);
    // What came on the connection is the new owner's now: it catches up from the stored cursor.
    events_.clear();
}

DiscordPlatform::~DiscordPlatform() {
    if (gateway_)
        gateway_->stop();
}

std::string DiscordPlatform::scrub(std::string_view text) const {
    std::string clean = log::redact(text);
    if (options_.token.size() >= 8)
        for (auto at = clean.find(options_.token); at != std::string::npos;
             at = clean.find(options_.token, at))
            clean.replace(at, options_.token.size(), "[redacted]");
    if (clean.size() > max_detail) {
        std::size_t cut = max_detail;
        while (cut > 0 && (static_cast<unsigned char>(clean[cut]) & 0xC0) == 0x80)
            --cut;
        clean = clean.substr(0, cut) + "…";
    }
    return clean;
}

bool DiscordPlatform::is_group(const std::string& channel) const {
    const std::lock_guard lock(shared_->mutex);
    return !shared_->direct_channels.contains(channel);
}

bool DiscordPlatform::finished() const {
    const std::lock_guard lock(mutex_);
    return !fatal_.empty();
}

std::string DiscordPlatform::fatal_error() const {
    const std::lock_guard lock(mutex_);
    return fatal_;
}

std::string DiscordPlatform::bucket_key(const std::string& route) const {
    const auto it = route_buckets_.find(route);
    return it == route_buckets_.end() ? route : it->second;
}

// The id a route's limits are kept apart by (Discord's "major parameter"): the channel, guild or
// webhook the path names; empty for routes without one.
std::string DiscordPlatform::major_parameter(const std::string& route) {
    for (const std::string_view prefix : {"/channels/", "/guilds/", "/webhooks/"}) {
        const auto at = route.find(prefix);
        if (at == std::string::npos)
            continue;
        const auto begin = at + prefix.size();
        return route.substr(begin, route.find('/', begin) - begin);
    }
    return {};
}

std::chrono::milliseconds DiscordPlatform::wait_for(const std::string& route) {
    const Instant now = options_.clock();
    Instant until;
    {
        const std::lock_guard lock(shared_->mutex);
        until = shared_->global_not_before;
    }
    if (const auto it = not_before_.find(route); it != not_before_.end())
        until = std::max(until, it->second);
    if (const auto it = buckets_.find(bucket_key(route));
        it != buckets_.end() && it->second.remaining <= 0)
        until = std::max(until, it->second.reset);
    if (until <= now)
        return std::chrono::milliseconds(0);
    return std::chrono::ceil<std::chrono::milliseconds>(until - now);
}

DiscordPlatform::Response DiscordPlatform::call(const std::string& method, const std::string& route,
                                                const std::string& path, HttpRequest request) {
    // Never more than 50 calls in any second (Discord's global limit for a bot), whichever
    // shard makes them: a call over the limit takes the first free slot and waits for it.
    Instant now = options_.clock();
    Instant slot = now;
    {
        const std::lock_guard lock(shared_->mutex);
        auto& recent = shared_->recent_calls;
        while (!recent.empty() && now - recent.front() >= std::chrono::seconds(1))
            recent.pop_front();
        if (recent.size() >= static_cast<std::size_t>(max_calls_per_second)) {
            slot = std::max(now, recent.front() + std::chrono::seconds(1));
            recent.pop_front();
        }
        recent.push_back(slot);
    }
    if (slot > now) {
        std::this_thread::sleep_for(slot - now);
        now = options_.clock();
    }
    // With other daemons on the database, the limit is the bot's across all of them: a slot of
    // the shared one too. Four calls may go early; the spacing keeps any second within 50.
    if (options_.shared_limit)
        if (const auto wait = options_.shared_limit("discord", max_calls_per_second, 4);
            wait.count() > 0) {
            std::this_thread::sleep_for(wait);
            now = options_.clock();
        }

    request.url = options_.api_url + path;
    request.method = method;
    request.headers.push_back("Authorization: Bot " + options_.token);
    request.timeout = options_.request_timeout;
    const HttpResponse raw = http_.post(request);
    Response response(raw);
    now = options_.clock();
    const auto header = [&raw](const char* name) {
        const auto it = raw.headers.find(name);
        return it == raw.headers.end() ? std::string() : it->second;
    };
    const auto number = [](const std::string& text) {
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        return end != text.c_str() && std::isfinite(value) ? value : 0.0;
    };
    if (const std::string remaining = header("x-ratelimit-remaining"); !remaining.empty()) {
        // Routes whose answers name the same bucket share its count, per major parameter.
        if (const std::string hash = header("x-ratelimit-bucket"); !hash.empty())
            route_buckets_[route] = hash + " " + major_parameter(route);
        Bucket& bucket = buckets_[bucket_key(route)];
        bucket.name = header("x-ratelimit-bucket");
        bucket.remaining = static_cast<int>(number(remaining));
        bucket.reset = now + seconds_to_ms(number(header("x-ratelimit-reset-after")));
    }
    const std::string scope = header("x-ratelimit-scope");
    if (response.status == 429) {
        auto wait = response.retry_after;
        if (wait.count() == 0)
            wait = seconds_to_ms(std::max(number(header("retry-after")), 1.0));
        response.retry_after = wait;
        if (response.global || header("x-ratelimit-global") == "true" || scope == "global") {
            const std::lock_guard lock(shared_->mutex);
            shared_->global_not_before = now + wait;
        } else
            not_before_[route] = now + wait;
    }
    // Discord bans an IP for a while after 10,000 of these in ten minutes; a shared 429 (the
    // resource's limit, not ours) does not count.
    if (response.status == 401 || response.status == 403 ||
        (response.status == 429 && scope != "shared"))
        invalid_calls_.push_back(now);
    while (!invalid_calls_.empty() && now - invalid_calls_.front() > std::chrono::minutes(10))
        invalid_calls_.pop_front();
    if (invalid_calls_.size() == invalid_reserve)
        log::warning("discord_invalid_requests",
                     {{"platform", "discord"},
                      {"count", static_cast<std::int64_t>(invalid_calls_.size())},
                      {"limit", static_cast<std::int64_t>(invalid_budget)}});
    return response;
}

void DiscordPlatform::on_event(discord::GatewayEvent event) {
    {
        const std::lock_guard lock(mutex_);
        if (event.kind == discord::GatewayEvent::Kind::Fatal) {
            if (fatal_.empty())
                fatal_ = event.problem;
        } else {
            events_.push_back(std::move(event));
        }
    }
    arrived_.notify_all();
}

void DiscordPlatform::refuse(const std::string& why) {
    {
        const std::lock_guard lock(mutex_);
        if (fatal_.empty())
            fatal_ = why;
    }
    arrived_.notify_all();
}

bool DiscordPlatform::direct_channel(const std::string& channel) {
    using Kind = PlatformError::Kind;
    {
        const std::lock_guard lock(shared_->mutex);
        if (shared_->direct_channels.contains(channel))
            return true;
        if (shared_->guild_channels.contains(channel))
            return false;
    }
    const std::string route = "GET /channels/" + channel;
    if (const auto wait = wait_for(route); wait.count() > 0)
        throw PlatformError(Kind::RateLimited, "catching up: waiting out a rate limit", wait);
    Response answer(HttpResponse{});
    try {
        answer = call("GET", route, "/channels/" + channel, HttpRequest{});
    } catch (const HttpError& e) {
        throw PlatformError(e.kind() == HttpError::Kind::Cancelled ? Kind::Cancelled
                                                                   : Kind::Transient,
                            scrub(std::string("reading channel ") + channel + ": " + e.what()));
    }
    const std::string detail =
        scrub("reading channel " + channel + ": HTTP " + std::to_string(answer.status) + " " +
              std::to_string(answer.code) + " " + answer.message);
    if (answer.status == 429)
        throw PlatformError(Kind::RateLimited, detail, answer.retry_after);
    if (answer.status == 401)
        throw PlatformError(Kind::Unauthorized, detail);
    if (!answer.ok() || !answer.body.is_object() || !answer.body.contains("type") ||
        !answer.body["type"].is_number_integer())
        throw PlatformError(Kind::Transient, detail);
    // 1: a DM, 3: a group DM; every other kind belongs to a guild.
    const auto type = answer.body["type"].get<std::int64_t>();
    const bool direct = type == 1 || type == 3;
    const std::lock_guard lock(shared_->mutex);
    (direct ? shared_->direct_channels : shared_->guild_channels).insert(channel);
    return direct;
}

DiscordPlatform::Response DiscordPlatform::gateway_bot() {
    using Kind = PlatformError::Kind;
    Response answer(HttpResponse{});
    try {
        answer = call("GET", "GET /gateway/bot", "/gateway/bot", HttpRequest{});
    } catch (const HttpError& e) {
        throw PlatformError(e.kind() == HttpError::Kind::Cancelled ? Kind::Cancelled
                                                                   : Kind::Transient,
                            scrub(std::string("GET /gateway/bot: ") + e.what()));
    }
    const std::string detail =
        scrub("GET /gateway/bot: HTTP " + std::to_string(answer.status) + " " + answer.message);
    if (answer.status == 401) {
        // A refused token does not heal by asking again: the lane stops and says so.
        refuse("Discord refused the bot token (HTTP 401 from GET /gateway/bot): check "
               "GHOSTPOST_DISCORD_TOKEN or token_file");
        answer.body = json();
        return answer;
    }
    if (answer.status == 429)
        throw PlatformError(Kind::RateLimited, detail, answer.retry_after);
    if (!answer.ok() || !answer.body.is_object() || !answer.body.contains("url") ||
        !answer.body["url"].is_string())
        throw PlatformError(Kind::Transient, detail);
    const json limit = answer.body.value("session_start_limit", json::object());
    if (limit.is_object() && limit.contains("max_concurrency") &&
        limit["max_concurrency"].is_number_integer()) {
        const std::lock_guard lock(shared_->mutex);
        shared_->max_concurrency = static_cast<int>(std::clamp<std::int64_t>(
            limit["max_concurrency"].get<std::int64_t>(), 1, max_discord_shards));
    }
    return answer;
}

int DiscordPlatform::recommended_shards() {
    const json found = gateway_bot().body;
    if (finished())
        throw PlatformError(PlatformError::Kind::Unauthorized, fatal_error());
    if (!found.contains("shards") || !found["shards"].is_number_integer())
        throw PlatformError(PlatformError::Kind::Transient,
                            "GET /gateway/bot: an answer without the number of shards");
    return static_cast<int>(
        std::clamp<std::int64_t>(found["shards"].get<std::int64_t>(), 1, max_discord_shards));
}

void DiscordPlatform::start_gateway() {
    discord::GatewayOptions gateway;
    gateway.token = options_.token;
    gateway.url = options_.gateway_url;
    gateway.message_content = options_.message_content;
    if (!options_.message_content)
        log::info("discord_without_message_content",
                  {{"platform", "discord"},
                   {"note", "message_content = false: ghostpost reads slash commands, direct "
                            "messages and messages that mention it; other messages reach it "
                            "without their text"}});
    gateway.scrub = [this](std::string_view text) { return scrub(text); };
    gateway.deliver = [this](discord::GatewayEvent event) { on_event(std::move(event)); };
    gateway.shard = options_.shard;
    gateway.shards = options_.shards;
    // Discord's identify buckets: the shards with one shard % max_concurrency identify one at a
    // time, five seconds apart; shards of other buckets at the same time.
    gateway.identify_slot = [shared = shared_, shard = options_.shard] {
        const std::lock_guard lock(shared->mutex);
        const auto now = std::chrono::steady_clock::now();
        auto& next = shared->identify_next[shard % std::max(shared->max_concurrency, 1)];
        const auto slot = std::max(now, next);
        next = slot + std::chrono::seconds(5);
        return slot;
    };
    if (gateway.url.empty()) {
        const json found = gateway_bot().body;
        if (finished())
            return;
        gateway.url = found["url"].get<std::string>();
        const json limit = found.value("session_start_limit", json::object());
        if (limit.is_object()) {
            if (limit.contains("remaining") && limit["remaining"].is_number_integer())
                gateway.identify_remaining = limit["remaining"].get<int>();
            if (limit.contains("reset_after") && limit["reset_after"].is_number_integer())
                gateway.identify_reset_after =
                    std::chrono::milliseconds(limit["reset_after"].get<std::int64_t>());
        }
    }
    log::info("discord_gateway_connecting", {{"platform", "discord"},
                                             {"url", scrub(gateway.url)},
                                             {"shard", options_.shard},
                                             {"shards", options_.shards}});
    gateway_ = std::make_unique<discord::Gateway>(std::move(gateway));
    gateway_->start();
}

std::vector<Post> DiscordPlatform::catch_up(DiscordCursor& cursor) {
    using Kind = PlatformError::Kind;
    std::vector<Post> posts;
    std::string bot;
    {
        const std::lock_guard lock(mutex_);
        bot = bot_user_id_;
    }
    for (const auto& [channel, last] : DiscordCursor(cursor)) {
        if (!is_snowflake(channel))
            continue; // the bot's own newest message of a channel: not a channel
        std::string after = last;
        std::vector<Post> found;
        for (;;) {
            const std::string route = "GET /channels/" + channel + "/messages";
            if (const auto wait = wait_for(route); wait.count() > 0)
                throw PlatformError(Kind::RateLimited, "catching up: waiting out a rate limit",
                                    wait);
            Response answer(HttpResponse{});
            try {
                answer = call("GET", route,
                              "/channels/" + channel + "/messages?after=" + after + "&limit=100",
                              HttpRequest{});
            } catch (const HttpError& e) {
                throw PlatformError(e.kind() == HttpError::Kind::Cancelled ? Kind::Cancelled
                                                                           : Kind::Transient,
                                    scrub(std::string("catching up: ") + e.what()));
            }
            const std::string detail =
                scrub("catching up channel " + channel + ": HTTP " + std::to_string(answer.status) +
                      " " + std::to_string(answer.code) + " " + answer.message);
            if (answer.status == 429)
                throw PlatformError(Kind::RateLimited, detail, answer.retry_after);
            if (answer.status == 401) {
                refuse("Discord refused the bot token (HTTP 401 while catching up): check "
                       "GHOSTPOST_DISCORD_TOKEN or token_file");
                return {};
            }
            if (answer.status == 403 || answer.status == 404) {
                // The bot left the channel or it is gone: nothing there to catch up.
                log::warning("discord_catch_up_skipped",
                             {{"platform", "discord"}, {"channel", channel}, {"error", detail}});
                break;
            }
            if (!answer.ok() || !answer.body.is_array())
                throw PlatformError(Kind::Transient, detail);
            std::string newest = after;
            for (const json& message : answer.body) {
                const std::string id =
                    message.is_object() && message.contains("id") && message["id"].is_string()
                        ? message["id"].get<std::string>()
                        : std::string();
                if (is_snowflake(id) && snowflake_less(newest, id))
                    newest = id;
                DecodedMessage decoded = decode_message(message.dump(), bot);
                if (!decoded.problem.empty())
                    log::warning("discord_message_skipped", {{"platform", "discord"},
                                                             {"channel", channel},
                                                             {"problem", scrub(decoded.problem)}});
                if (decoded.post && snowflake_less(last, decoded.post->message_id))
                    found.push_back(std::move(*decoded.post));
            }
            if (answer.body.size() < 100 || newest == after)
                break;
            after = newest;
        }
        std::sort(found.begin(), found.end(), [](const Post& a, const Post& b) {
            return snowflake_less(a.message_id, b.message_id);
        });
        // A listed message has no guild_id (only the Gateway's MESSAGE_CREATE has one), so
        // whether these are direct messages is the channel's to say.
        if (!found.empty()) {
            const bool direct = direct_channel(channel);
            for (Post& post : found)
                post.direct = direct;
        }
        if (!found.empty())
            log::info("discord_caught_up", {{"platform", "discord"},
                                            {"channel", channel},
                                            {"messages", static_cast<std::int64_t>(found.size())}});
        for (Post& post : found)
            posts.push_back(std::move(post));
    }
    return posts;
}

std::string DiscordPlatform::trouble() const {
    if (!gateway_ || gateway_->connected() || finished()) {
        gateway_down_since_.reset();
        return {};
    }
    const auto now = std::chrono::steady_clock::now();
    if (!gateway_down_since_)
        gateway_down_since_ = now;
    // A moment without a session is a reconnect as Discord asks for them (op 7): not worth a
    // red light.
    if (now - *gateway_down_since_ < std::chrono::seconds(3))
        return {};
    return "the Gateway has no live session: reconnecting";
}

std::vector<Post> DiscordPlatform::poll(const std::string& cursor, std::chrono::seconds timeout) {
    log::set_thread_platform(name());
    using Kind = PlatformError::Kind;
    if (finished())
        return {};
    if (!gateway_)
        start_gateway();
    if (finished())
        return {};

    DiscordCursor running = parse_discord_cursor(cursor);
    // The posts of the last poll that `cursor` does not count as handled (the database was too
    // busy for one, and the daemon stopped the batch there) come again first: the Gateway will
    // not send them again.
    std::vector<Post> again;
    for (Post& post : unconfirmed_)
        if (const auto it = running.find(post.channel);
            it == running.end() || snowflake_less(it->second, post.message_id))
            again.push_back(std::move(post));
    unconfirmed_.clear();
    // The bot's own newest message of each channel, under a key of its own: a fresh session does
    // not read a channel whose newest message is the bot's reply. Kept until a committed cursor
    // has it.
    for (auto it = own_newest_.begin(); it != own_newest_.end();) {
        std::string& last = running[own_key(it->first)];
        if (!last.empty() && !snowflake_less(last, it->second)) {
            it = own_newest_.erase(it);
            continue;
        }
        last = it->second;
        ++it;
    }

    const Instant deadline = std::chrono::steady_clock::now() + timeout;
    {
        std::unique_lock lock(mutex_);
        while (again.empty() && events_.empty() && fatal_.empty()) {
            if (options_.cancelled())
                throw PlatformError(Kind::Cancelled, "the daemon is stopping");
            const Instant now = std::chrono::steady_clock::now();
            if (now >= deadline)
                break;
            arrived_.wait_for(lock, std::min<std::chrono::steady_clock::duration>(
                                        deadline - now, std::chrono::milliseconds(200)));
        }
    }

    std::vector<Post> posts;
    std::set<std::string> caught; // "channel/id" of the posts caught up in this batch
    const auto add = [&](Post post) {
        const std::string key = post.channel + "/" + post.message_id;
        if (caught.contains(key))
            return; // the Gateway delivered it too
        std::string& last = running[post.channel];
        if (last.empty() || snowflake_less(last, post.message_id))
            last = post.message_id;
        post.cursor = format_discord_cursor(running);
        {
            const std::lock_guard lock(shared_->mutex);
            auto& handles = shared_->handle_ids;
            if (handles.size() < max_known_handles) {
                if (!post.author_handle.empty())
                    handles[post.author_handle] = post.author_id;
                for (const Mention& m : post.mentions)
                    if (!m.handle.empty())
                        handles[m.handle] = m.user_id;
            }
            if (post.direct) {
                shared_->direct_channels.insert(post.channel);
                shared_->dm_channels[post.author_id] = post.channel;
            } else {
                shared_->guild_channels.insert(post.channel);
            }
        }
        posts.push_back(std::move(post));
    };
    for (Post& post : again)
        add(std::move(post));
    // What a fresh session reads: each post added once, marked as caught up so that the
    // Gateway's copy is skipped. False once the platform finished.
    const auto read_missed = [&](const DiscordCursor& from) {
        DiscordCursor reading = from;
        for (Post& post : catch_up(reading)) {
            std::string key = post.channel + "/" + post.message_id;
            add(std::move(post));
            caught.insert(std::move(key));
        }
        return !finished();
    };
    for (;;) {
        // The known channels no GUILD_CREATE of the session named (direct messages, a guild
        // still unavailable) are read once every guild came, before a direct message that
        // follows, or 30 s after READY.
        if (rest_pending_) {
            bool due = awaited_guilds_.empty() || std::chrono::steady_clock::now() >= rest_due_;
            {
                const std::lock_guard lock(mutex_);
                const bool direct_next =
                    !events_.empty() &&
                    events_.front().kind == discord::GatewayEvent::Kind::Message &&
                    events_.front().data.is_object() && !events_.front().data.contains("guild_id");
                due = due || direct_next;
            }
            if (due) {
                if (!posts.empty() && !rest_.empty())
                    break; // read at the next poll
                if (!read_missed(rest_)) {
                    unconfirmed_ = posts;
                    return posts;
                }
                rest_.clear();
                rest_pending_ = false;
            }
        }
        discord::GatewayEvent event;
        {
            const std::lock_guard lock(mutex_);
            if (events_.empty())
                break;
            if (events_.front().kind == discord::GatewayEvent::Kind::Ready) {
                if (!posts.empty())
                    break; // a new session: caught up at the next poll, from its cursor
                const json& data = events_.front().data;
                const json user = data.is_object() && data.contains("user") ? data["user"] : json();
                if (user.is_object() && user.contains("id") && user["id"].is_string())
                    bot_user_id_ = user["id"].get<std::string>();
                const json app =
                    data.is_object() && data.contains("application") ? data["application"] : json();
                if (app.is_object() && app.contains("id") && app["id"].is_string()) {
                    application_id_ = app["id"].get<std::string>();
                    const std::lock_guard shared_lock(shared_->mutex);
                    shared_->application_id = application_id_;
                }
                event.kind = discord::GatewayEvent::Kind::Ready;
            } else if (events_.front().kind == discord::GatewayEvent::Kind::Guild) {
                // It stays queued until what it names is caught up.
                event.kind = discord::GatewayEvent::Kind::Guild;
                event.data = events_.front().data;
            } else {
                event = std::move(events_.front());
                events_.pop_front();
            }
        }
        if (event.kind == discord::GatewayEvent::Kind::Message) {
            std::string bot;
            {
                const std::lock_guard lock(mutex_);
                bot = bot_user_id_;
            }
            if (const auto own = own_message(event.data, bot)) {
                std::string& last = running[own_key(own->first)];
                if (last.empty() || snowflake_less(last, own->second))
                    last = own->second;
                if (own_newest_.size() < max_own_channels || own_newest_.contains(own->first))
                    own_newest_[own->first] = last;
                continue;
            }
            DecodedMessage decoded = decode_message(event.data.dump(), bot);
            if (!decoded.problem.empty())
                log::warning("discord_message_skipped",
                             {{"platform", "discord"}, {"problem", scrub(decoded.problem)}});
            if (decoded.post)
                add(std::move(*decoded.post));
            continue;
        }
        if (event.kind == discord::GatewayEvent::Kind::Interaction) {
            std::string bot;
            {
                const std::lock_guard lock(mutex_);
                bot = bot_user_id_;
            }
            DecodedInteraction decoded =
                decode_interaction(event.data.dump(), bot, options_.variant_commands);
            if (!decoded.problem.empty())
                log::warning("discord_interaction_skipped",
                             {{"platform", "discord"}, {"problem", scrub(decoded.problem)}});
            if (decoded.post) {
                defer(decoded, *decoded.post);
                add(std::move(*decoded.post));
            }
            continue;
        }
        if (event.kind == discord::GatewayEvent::Kind::Guild) {
            // A guild of the fresh session: Discord names each of its channels' newest message,
            // so only a channel with posts newer than the handled ones is read, from the cursor
            // as the session began (a guild's messages come after its GUILD_CREATE).
            const std::string guild =
                event.data.is_object() && event.data.contains("id") && event.data["id"].is_string()
                    ? event.data["id"].get<std::string>()
                    : std::string();
            DiscordCursor unread;
            if (awaited_guilds_.contains(guild))
                unread = unread_channels(event.data, session_start_);
            if (awaited_guilds_.contains(guild) && event.data.contains("channels") &&
                event.data["channels"].is_array()) {
                // Its channels are a guild's: a post caught up there needs no GET to say so.
                const std::lock_guard lock(shared_->mutex);
                for (const json& c : event.data["channels"])
                    if (c.is_object() && c.contains("id") && c["id"].is_string() &&
                        shared_->guild_channels.size() < max_known_channels)
                        shared_->guild_channels.insert(c["id"].get<std::string>());
            }
            if (!unread.empty() && !posts.empty())
                break; // read at the next poll, from the cursor this batch ends with
            if (!read_missed(unread)) {
                unconfirmed_ = posts;
                return posts;
            }
            if (awaited_guilds_.erase(guild) > 0 && event.data.contains("channels") &&
                event.data["channels"].is_array())
                for (const json& c : event.data["channels"])
                    if (c.is_object() && c.contains("id") && c["id"].is_string())
                        rest_.erase(c["id"].get<std::string>());
            const std::lock_guard lock(mutex_);
            events_.pop_front();
            continue;
        }
        // A fresh session: the Gateway did not replay what was posted while no session was
        // open. The guilds READY lists come next, each naming its channels' newest messages:
        // what they name is read as they come, the other known channels once they are all in.
        // Without guilds, each known channel is read now from its last handled message. The
        // event stays queued until that succeeded.
        session_start_ = running;
        std::set<std::string> guilds;
        {
            const std::lock_guard lock(mutex_);
            const json& data = events_.front().data;
            if (data.is_object() && data.contains("guilds") && data["guilds"].is_array())
                for (const json& g : data["guilds"])
                    if (g.is_object() && g.contains("id") && g["id"].is_string())
                        guilds.insert(g["id"].get<std::string>());
        }
        if (guilds.empty()) {
            if (!read_missed(running)) {
                unconfirmed_ = posts;
                return posts;
            }
            rest_.clear();
            rest_pending_ = false;
        } else {
            rest_ = running;
            rest_pending_ = true;
            rest_due_ = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        }
        awaited_guilds_ = std::move(guilds);
        {
            const std::lock_guard lock(mutex_);
            events_.pop_front();
        }
        // Shard 0 registers the commands for all.
        if (options_.shard == 0 && !commands_registered_ && !application_id_.empty())
            commands_registered_ = register_commands();
    }
    sweep_interactions();
    unconfirmed_ = posts;
    return posts;
}

bool DiscordPlatform::register_commands() {
    // The table's descriptions in each language its catalogs translate them to.
    const auto translate = [](std::string_view source) {
        std::map<std::string, std::string> out;
        const i18n::Catalogs& catalogs = i18n::catalogs();
        for (const std::string& language : i18n::shipped_languages())
            if (catalogs.translation(language, source) != nullptr)
                out[language] = catalogs.render(i18n::tr(source), language);
        return out;
    };
    const std::string commands =
        slash_commands(options_.variants, options_.variant_commands, translate);
    std::vector<std::string> paths;
    if (options_.guild_ids.empty())
        paths.push_back("/applications/" + application_id_ + "/commands");
    for (const std::string& guild : options_.guild_ids)
        paths.push_back("/applications/" + application_id_ + "/guilds/" + guild + "/commands");
    bool all = true;
    for (const std::string& path : paths) {
        const std::string route = "PUT " + path;
        if (wait_for(route).count() > 0) {
            all = false; // at the next READY
            continue;
        }
        HttpRequest request;
        request.body = commands;
        try {
            const Response answer = call("PUT", route, path, request);
            if (answer.ok()) {
                log::info("discord_commands_registered",
                          {{"platform", "discord"}, {"where", scrub(path)}});
                continue;
            }
            log::warning("discord_commands_refused",
                         {{"platform", "discord"},
                          {"where", scrub(path)},
                          {"error", scrub("HTTP " + std::to_string(answer.status) + " " +
                                          std::to_string(answer.code) + " " + answer.message)}});
        } catch (const HttpError& e) {
            if (e.kind() == HttpError::Kind::Cancelled)
                throw PlatformError(PlatformError::Kind::Cancelled, "the daemon is stopping");
            log::warning(
                "discord_commands_refused",
                {{"platform", "discord"}, {"where", scrub(path)}, {"error", scrub(e.what())}});
        }
        all = false;
    }
    return all;
}

void DiscordPlatform::defer(const DecodedInteraction& interaction, const Post& post) {
    // The route carries no token: it names nothing secret in a log line.
    const std::string route = "POST /interactions/" + interaction.id + "/callback";
    HttpRequest request;
    request.body = json{{"type", 5}}.dump(); // DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
    std::string problem;
    try {
        const Response answer = call(
            "POST", route,
            "/interactions/" + interaction.id + "/" + interaction.token + "/callback", request);
        if (answer.ok()) {
            const std::lock_guard lock(shared_->mutex);
            shared_->deferred[interaction.id] = {interaction.token, post.channel, post.author_id,
                                                 post.direct, options_.clock()};
            return;
        }
        problem = "HTTP " + std::to_string(answer.status) + " " + std::to_string(answer.code) +
                  " " + answer.message;
    } catch (const HttpError& e) {
        if (e.kind() == HttpError::Kind::Cancelled)
            throw PlatformError(PlatformError::Kind::Cancelled, "the daemon is stopping");
        problem = e.what();
    }
    // Too late or refused: the command is still handled, and answered as a message.
    log::warning(
        "discord_interaction_not_deferred",
        {{"platform", "discord"}, {"interaction", interaction.id}, {"error", scrub(problem)}});
}

void DiscordPlatform::sweep_interactions() {
    const Instant now = options_.clock();
    std::vector<std::string> tokens; // of the "thinking" messages to delete
    std::string application;
    {
        const std::lock_guard lock(shared_->mutex);
        application = shared_->application_id;
        for (auto it = shared_->deferred.begin(); it != shared_->deferred.end();) {
            if (now - it->second.at < unanswered_after) {
                ++it;
                continue;
            }
            // Its reply went elsewhere (by direct message) or is late: the "thinking" message
            // goes, and a late reply is posted as a message of its own.
            if (now - it->second.at < token_lifetime)
                tokens.push_back(it->second.token);
            it = shared_->deferred.erase(it);
        }
    }
    for (const std::string& token : tokens) {
        const std::string route = "DELETE /webhooks/" + application + "/@original";
        if (wait_for(route).count() > 0)
            continue;
        HttpRequest request;
        request.body.clear();
        try {
            call("DELETE", route, "/webhooks/" + application + "/" + token + "/messages/@original",
                 request);
        } catch (const HttpError& e) {
            if (e.kind() == HttpError::Kind::Cancelled)
                throw PlatformError(PlatformError::Kind::Cancelled, "the daemon is stopping");
        }
    }
}

std::optional<std::string> DiscordPlatform::answering(const Reply& reply) {
    const std::lock_guard lock(shared_->mutex);
    for (const auto& [id, d] : shared_->deferred) {
        if (reply.to == Reply::To::Channel && reply.reply_to == id &&
            reply.destination == d.channel)
            return id;
        if (reply.to == Reply::To::User && d.direct && reply.destination == d.user)
            return id;
    }
    return std::nullopt;
}

Delivery DiscordPlatform::edit_original(const std::string& interaction, const std::string& content,
                                        const Reply& reply, bool with_png) {
    discord::Shared::Deferred d;
    std::string application;
    {
        const std::lock_guard lock(shared_->mutex);
        d = shared_->deferred.at(interaction);
        application = shared_->application_id;
    }
    const std::string route = "PATCH /webhooks/" + application + "/@original";
    if (const auto wait = wait_for(route); wait.count() > 0)
        return {Delivery::Status::RetryAfter, whole_seconds(wait),
                "waiting out Discord's rate limit"};
    json body = json::object();
    body["content"] = content;
    body["allowed_mentions"] = {{"parse", json::array()}, {"users", mentioned(content)}};
    HttpRequest request;
    request.method = "PATCH";
    set_body(request, body, with_png ? &reply.png : nullptr);
    std::optional<Response> answer;
    try {
        answer.emplace(call("PATCH", route,
                            "/webhooks/" + application + "/" + d.token + "/messages/@original",
                            request));
    } catch (const HttpError& e) {
        if (e.kind() == HttpError::Kind::Cancelled)
            throw PlatformError(PlatformError::Kind::Cancelled, "the daemon is stopping");
        return {Delivery::Status::Transient, {}, scrub(route + ": " + e.what())};
    }
    if (answer->ok())
        return {Delivery::Status::Sent, {}, {}};
    const std::string detail = scrub(route + ": HTTP " + std::to_string(answer->status) + " " +
                                     std::to_string(answer->code) + " " + answer->message);
    if (answer->status == 429)
        return {Delivery::Status::RetryAfter, whole_seconds(answer->retry_after), detail};
    if (answer->status >= 500 || !answer->api)
        return {Delivery::Status::Transient, {}, detail};
    return {Delivery::Status::Failed, {}, detail}; // the token expired or the response is gone
}

void DiscordPlatform::forget(const std::string& interaction) {
    const std::lock_guard lock(shared_->mutex);
    shared_->deferred.erase(interaction);
}

Delivery DiscordPlatform::send(const Reply& reply) {
    log::set_thread_platform(name());
    if (const auto interaction = answering(reply)) {
        // The reply's first message replaces the command's "thinking"; the rest follow in its
        // channel as messages of their own.
        std::string channel;
        std::string text = reply.text;
        {
            const std::lock_guard lock(shared_->mutex);
            channel = shared_->deferred.at(*interaction).channel;
            ping(text, shared_->handle_ids, reply.mentions);
        }
        std::vector<std::string> pieces = format(text, reply.code);
        if (pieces.empty())
            pieces.emplace_back();
        const Delivery first = edit_original(*interaction, pieces[0], reply, !reply.png.empty());
        if (first.status == Delivery::Status::Failed) {
            log::warning(
                "discord_interaction_gone",
                {{"platform", "discord"}, {"interaction", *interaction}, {"error", first.detail}});
            forget(*interaction); // answered as a message instead, below
        } else if (first.status != Delivery::Status::Sent) {
            return first;
        } else {
            forget(*interaction);
            for (std::size_t i = 1; i < pieces.size(); ++i) {
                const Delivery d = send_one(channel, pieces[i], reply, i, false, false);
                if (d.status != Delivery::Status::Sent)
                    return d;
            }
            return {Delivery::Status::Sent, {}, {}};
        }
    }
    std::string channel = reply.destination;
    if (reply.to == Reply::To::User) {
        std::optional<std::string> known;
        {
            const std::lock_guard lock(shared_->mutex);
            if (const auto it = shared_->dm_channels.find(reply.destination);
                it != shared_->dm_channels.end())
                known = it->second;
        }
        if (known) {
            channel = *known;
        } else {
            if (!is_snowflake(reply.destination))
                return {Delivery::Status::Failed, {}, "not a Discord user id"};
            const std::string route = "POST /users/@me/channels";
            if (const auto wait = wait_for(route); wait.count() > 0)
                return {Delivery::Status::RetryAfter, whole_seconds(wait),
                        "waiting out Discord's rate limit"};
            HttpRequest request;
            request.body = json{{"recipient_id", reply.destination}}.dump();
            Response answer(HttpResponse{});
            try {
                answer = call("POST", route, "/users/@me/channels", request);
            } catch (const HttpError& e) {
                if (e.kind() == HttpError::Kind::Cancelled)
                    throw PlatformError(PlatformError::Kind::Cancelled, "the daemon is stopping");
                return {Delivery::Status::Transient, {}, scrub(e.what())};
            }
            if (!answer.ok() || !answer.body.is_object() || !answer.body.contains("id") ||
                !answer.body["id"].is_string()) {
                const std::string detail =
                    scrub("POST /users/@me/channels: HTTP " + std::to_string(answer.status) + " " +
                          std::to_string(answer.code) + " " + answer.message);
                if (answer.status == 429)
                    return {Delivery::Status::RetryAfter, whole_seconds(answer.retry_after),
                            detail};
                if (answer.code == 50007)
                    return {Delivery::Status::Blocked, {}, detail};
                if (answer.status >= 500 || answer.status == 401 || !answer.api || answer.ok())
                    return {Delivery::Status::Transient, {}, detail};
                return {Delivery::Status::Failed, {}, detail};
            }
            channel = answer.body["id"].get<std::string>();
            const std::lock_guard lock(shared_->mutex);
            shared_->dm_channels[reply.destination] = channel;
            shared_->direct_channels.insert(channel);
        }
    }
    if (!is_snowflake(channel))
        return {Delivery::Status::Failed, {}, "not a Discord channel id"};
    std::string text = reply.text;
    {
        const std::lock_guard lock(shared_->mutex);
        ping(text, shared_->handle_ids, reply.mentions);
    }
    std::vector<std::string> pieces = format(text, reply.code);
    const bool has_png = !reply.png.empty();
    if (pieces.empty())
        pieces.emplace_back();
    // In order; the first failure ends the reply and the outbox retries all of it. The nonce
    // makes Discord drop the pieces that went out already.
    for (std::size_t i = 0; i < pieces.size(); ++i) {
        const Delivery d = send_one(channel, pieces[i], reply, i, i == 0, has_png && i == 0);
        if (d.status != Delivery::Status::Sent)
            return d;
    }
    return {Delivery::Status::Sent, {}, {}};
}

Delivery DiscordPlatform::send_one(const std::string& channel, const std::string& content,
                                   const Reply& reply, std::size_t piece, bool first,
                                   bool with_png) {
    const std::string route = "POST /channels/" + channel + "/messages";
    if (const auto wait = wait_for(route); wait.count() > 0)
        return {Delivery::Status::RetryAfter, whole_seconds(wait),
                "waiting out Discord's rate limit"};
    if (invalid_calls_.size() >= invalid_reserve)
        return {Delivery::Status::RetryAfter, std::chrono::seconds(60),
                "holding back: many refused requests in ten minutes"};
    json body = json::object();
    if (!content.empty())
        body["content"] = content;
    // Only the players the reply names are pinged; never @everyone or a role from echoed text.
    body["allowed_mentions"] = {{"parse", json::array()}, {"users", mentioned(content)}};
    if (first && reply.to == Reply::To::Channel && is_snowflake(reply.reply_to)) {
        body["message_reference"] = {{"message_id", reply.reply_to}, {"fail_if_not_exists", false}};
        body["allowed_mentions"]["replied_user"] = true;
    }
    if (!reply.idempotency_key.empty()) {
        body["nonce"] = nonce_of(reply.idempotency_key, piece);
        body["enforce_nonce"] = true;
    }
    HttpRequest request;
    set_body(request, body, with_png ? &reply.png : nullptr);
    std::optional<Response> answer;
    try {
        answer.emplace(call("POST", route, "/channels/" + channel + "/messages", request));
    } catch (const HttpError& e) {
        if (e.kind() == HttpError::Kind::Cancelled)
            throw PlatformError(PlatformError::Kind::Cancelled, "the daemon is stopping");
        return {Delivery::Status::Transient, {}, scrub(route + ": " + e.what())};
    }
    if (answer->ok())
        return {Delivery::Status::Sent, {}, {}};
    const std::string detail = scrub(route + ": HTTP " + std::to_string(answer->status) + " " +
                                     std::to_string(answer->code) + " " + answer->message);
    if (answer->status == 429)
        return {Delivery::Status::RetryAfter, whole_seconds(answer->retry_after), detail};
    if (answer->status >= 500 || answer->status == 401 || !answer->api)
        return {Delivery::Status::Transient, {}, detail};
    // 50007: the user does not take direct messages from the server's members.
    if (answer->code == 50007 && reply.to == Reply::To::User)
        return {Delivery::Status::Blocked, {}, detail};
    return {Delivery::Status::Failed, {}, detail};
}

} // namespace ghostpost::bot
