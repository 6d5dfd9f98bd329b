#include "ghostpost/slack/slack.h"

#include "ghostpost/log/log.h"
#include "ghostpost/platform/message_pieces.h"
#include "socket_mode.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

namespace ghostpost::bot {

namespace {

using nlohmann::json;
using Fields = std::vector<std::pair<std::string, std::string>>;

// Slack cuts a message's text at 40,000 characters and advises 4,000; a section block of Block
// Kit holds 3,000.
constexpr std::size_t max_text = 4000;
constexpr std::size_t max_section = 3000;
constexpr std::size_t max_detail = 200;
constexpr std::size_t max_recent = 2000;
constexpr int max_pages = 10;

std::string code_block(std::string_view code) {
    return "```\n" + std::string(code) + "\n```";
}

// The messages one reply becomes: the text and the code block together when they fit,
// otherwise the text in pieces, then the code in blocks of whole lines.
std::vector<std::string> format(const std::string& text, const std::string& code,
                                std::size_t limit) {
    if (code.empty())
        return split_message(text, limit);
    const std::string block = code_block(code);
    if ((text.empty() ? 0 : characters(text) + 1) + characters(block) <= limit)
        return {text.empty() ? block : text + "\n" + block};
    std::vector<std::string> out = split_message(text, limit);
    for (const auto& piece : split_message(code, limit - 8))
        out.push_back(code_block(piece));
    return out;
}

// The three characters Slack reads as markup in message text.
std::string escape(std::string_view text) {
    std::string out;
    for (const char c : text) {
        if (c == '&')
            out += "&amp;";
        else if (c == '<')
            out += "&lt;";
        else if (c == '>')
            out += "&gt;";
        else
            out += c;
    }
    return out;
}

bool id_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0;
}

std::string upper(std::string text) {
    for (char& c : text)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return text;
}

// "@U1" (or "@u1") to "<@U1>" for the accounts the service named (Reply::mentions) only, so
// that exactly the players concerned are notified.
std::string ping(const std::string& text, const std::vector<Mention>& named) {
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        if (text[i] == '@' && (i == 0 || !id_char(text[i - 1]))) {
            std::size_t end = i + 1;
            while (end < text.size() && id_char(text[end]))
                ++end;
            // The service may write a handle in lower case: a Slack id is in capitals.
            const std::string id = upper(text.substr(i + 1, end - i - 1));
            const bool concerned = std::any_of(named.begin(), named.end(), [&](const Mention& m) {
                return !id.empty() && m.user_id == id;
            });
            if (concerned) {
                out += "<@" + id + ">";
                i = end;
                continue;
            }
        }
        out += text[i++];
    }
    return out;
}

std::string form(const Fields& fields) {
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string out;
    for (const auto& [name, value] : fields) {
        if (!out.empty())
            out += '&';
        for (const std::string* part : {&name, &value}) {
            for (const char ch : *part) {
                const auto c = static_cast<unsigned char>(ch);
                if (std::isalnum(c) != 0 || c == '-' || c == '_' || c == '.' || c == '~') {
                    out += ch;
                } else {
                    out += '%';
                    out += hex[c >> 4];
                    out += hex[c & 0xF];
                }
            }
            if (part == &name)
                out += '=';
        }
    }
    return out;
}

// Block Kit for a message with buttons: its text in a section, the buttons in one row. A
// resignation asks to be confirmed, since it ends the game at once.
std::string blocks(const std::string& text, const std::vector<Button>& buttons) {
    json elements = json::array();
    for (std::size_t i = 0; i < buttons.size() && i < 25; ++i) {
        const Button& b = buttons[i];
        json button = {{"type", "button"},
                       {"action_id", "ghostpost_" + std::to_string(i)},
                       {"text", {{"type", "plain_text"}, {"text", b.label.substr(0, 75)}}},
                       {"value", b.command.substr(0, 2000)}};
        if (b.command.find("resign") != std::string::npos)
            button["confirm"] = {
                {"title", {{"type", "plain_text"}, {"text", "Resign?"}}},
                {"text", {{"type", "plain_text"}, {"text", "This ends the game."}}},
                {"confirm", {{"type", "plain_text"}, {"text", "Resign"}}},
                {"deny", {{"type", "plain_text"}, {"text", "Play on"}}}};
        elements.push_back(std::move(button));
    }
    json all = json::array();
    if (!text.empty())
        all.push_back({{"type", "section"}, {"text", {{"type", "mrkdwn"}, {"text", text}}}});
    all.push_back({{"type", "actions"}, {"elements", elements}});
    return all.dump(-1, ' ', false, json::error_handler_t::replace);
}

bool refusal(const std::string& error) {
    return error == "invalid_auth" || error == "token_revoked" || error == "not_authed" ||
           error == "account_inactive" || error == "token_expired";
}

// A Delivery's detail when a call got no answer (so whether it took effect is unknown).
constexpr const char* unanswered = "chat.postMessage (no answer): ";

// What marks each message of a reply sent in several (Slack's message metadata): the reply's
// idempotency key and the piece's number, so that a later attempt finds what an earlier one
// posted before it was cut short.
constexpr const char* piece_event = "ghostpost_reply_piece";

std::string piece_metadata(const std::string& key, std::size_t piece, std::size_t pieces) {
    return json{{"event_type", piece_event},
                {"event_payload", {{"key", key}, {"piece", piece}, {"pieces", pieces}}}}
        .dump();
}

std::chrono::seconds whole_seconds(std::chrono::milliseconds wait) {
    return std::max(std::chrono::ceil<std::chrono::seconds>(wait), std::chrono::seconds(1));
}

} // namespace

// One Web API answer. `api` is false when the body is not Slack's JSON (a proxy's page).
struct SlackPlatform::Answer {
    long status = 0;
    bool api = false;
    bool ok = false;
    json body;
    std::string error; // Slack's error code: scrub before use
    std::chrono::milliseconds retry_after{0};

    explicit Answer(const HttpResponse& response) : status(response.status) {
        body = json::parse(response.body, nullptr, false);
        api = body.is_object() && body.contains("ok") && body["ok"].is_boolean();
        if (api) {
            ok = status == 200 && body["ok"].get<bool>();
            if (const auto it = body.find("error"); it != body.end() && it->is_string())
                error = it->get<std::string>().substr(0, 64);
        }
        if (status == 429) {
            // Retry-After is whole seconds; honoured to the second, at least one.
            double seconds = 1;
            if (const auto it = response.headers.find("retry-after"); it != response.headers.end())
                seconds = std::clamp(std::strtod(it->second.c_str(), nullptr), 1.0, 3600.0);
            retry_after = std::chrono::milliseconds(static_cast<std::int64_t>(seconds * 1000));
            if (error.empty())
                error = "ratelimited";
        }
    }
    std::string summary() const {
        return "HTTP " + std::to_string(status) + (error.empty() ? "" : " " + error);
    }
};

SlackPlatform::SlackPlatform(HttpClient& http, SlackOptions options)
    : http_(http), options_(std::move(options)) {
    while (!options_.api_url.empty() && options_.api_url.back() == '/')
        options_.api_url.pop_back();
    if (!options_.clock)
        options_.clock = std::chrono::steady_clock::now;
    if (!options_.cancelled)
        options_.cancelled = [] { return false; };
    log::add_secret(options_.bot_token);
    log::add_secret(options_.app_token);
}

SlackPlatform::~SlackPlatform() {
    if (socket_)
        socket_->stop();
}

std::string SlackPlatform::scrub(std::string_view text) const {
    std::string clean = log::redact(text);
    for (const std::string* token : {&options_.bot_token, &options_.app_token})
        if (token->size() >= 8)
            for (auto at = clean.find(*token); at != std::string::npos; at = clean.find(*token, at))
                clean.replace(at, token->size(), "[redacted]");
    if (clean.size() > max_detail) {
        std::size_t cut = max_detail;
        while (cut > 0 && (static_cast<unsigned char>(clean[cut]) & 0xC0) == 0x80)
            --cut;
        clean = clean.substr(0, cut) + "…";
    }
    return clean;
}

bool SlackPlatform::is_group(const std::string& channel) const {
    return channel.empty() || channel.front() != 'D';
}

bool SlackPlatform::finished() const {
    const std::lock_guard lock(mutex_);
    return !fatal_.empty();
}

std::string SlackPlatform::refused() const {
    const std::lock_guard lock(mutex_);
    return fatal_;
}

void SlackPlatform::refuse(const std::string& why) {
    {
        const std::lock_guard lock(mutex_);
        if (fatal_.empty())
            fatal_ = why;
    }
    log::error("slack_refused", {{"platform", "slack"}, {"why", scrub(why)}});
    arrived_.notify_all();
}

std::string SlackPlatform::trouble() const {
    if (!socket_ || socket_->connected() || finished()) {
        socket_down_since_.reset();
        return {};
    }
    const auto now = std::chrono::steady_clock::now();
    if (!socket_down_since_)
        socket_down_since_ = now;
    // A refresh Slack asks for takes a moment: not worth a red light.
    if (now - *socket_down_since_ < std::chrono::seconds(5))
        return {};
    return "Socket Mode has no open connection: reconnecting";
}

SlackPlatform::Answer SlackPlatform::call(const std::string& method, const Fields& fields, bool get,
                                          bool app_token) {
    HttpRequest request;
    request.url = options_.api_url + "/" + method;
    if (get) {
        request.method = "GET";
        if (!fields.empty())
            request.url += "?" + form(fields);
    } else {
        request.content_type = "application/x-www-form-urlencoded";
        request.body = form(fields);
    }
    request.headers.push_back("Authorization: Bearer " +
                              (app_token ? options_.app_token : options_.bot_token));
    request.timeout = options_.request_timeout;
    return Answer(http_.post(request));
}

std::string SlackPlatform::identify() {
    using Kind = PlatformError::Kind;
    std::optional<Answer> answer;
    try {
        answer.emplace(call("auth.test", {}, true));
    } catch (const HttpError& e) {
        throw PlatformError(e.kind() == HttpError::Kind::Cancelled ? Kind::Cancelled
                                                                   : Kind::Transient,
                            scrub(std::string("auth.test: ") + e.what()));
    }
    const std::string detail = scrub("auth.test: " + answer->summary());
    if (answer->status == 429)
        throw PlatformError(Kind::RateLimited, detail, answer->retry_after);
    if (refusal(answer->error))
        throw PlatformError(Kind::Unauthorized,
                            scrub("Slack refused the bot token (" + answer->error +
                                  " from auth.test): check GHOSTPOST_SLACK_BOT_TOKEN or "
                                  "bot_token_file"));
    if (!answer->ok)
        throw PlatformError(Kind::Transient, detail);
    const json& body = answer->body;
    me_.user_id = body.value("user_id", "");
    me_.bot_id = body.value("bot_id", "");
    const std::string name = body.value("user", "");
    log::info("slack_identified", {{"platform", "slack"}, {"user", me_.user_id}});
    return name.empty() ? "ghostpost" : name;
}

void SlackPlatform::open_connection() {
    using Kind = PlatformError::Kind;
    std::optional<Answer> answer;
    try {
        answer.emplace(call("apps.connections.open", {}, false, true));
    } catch (const HttpError& e) {
        throw PlatformError(e.kind() == HttpError::Kind::Cancelled ? Kind::Cancelled
                                                                   : Kind::Transient,
                            scrub(std::string("apps.connections.open: ") + e.what()));
    }
    const std::string detail = scrub("apps.connections.open: " + answer->summary());
    if (answer->status == 429)
        throw PlatformError(Kind::RateLimited, detail, answer->retry_after);
    if (refusal(answer->error)) {
        refuse("Slack refused the app-level token (" + answer->error +
               " from apps.connections.open): check GHOSTPOST_SLACK_APP_TOKEN or app_token_file, "
               "and that Socket Mode is on for the app");
        return;
    }
    if (!answer->ok || !answer->body.contains("url") || !answer->body["url"].is_string())
        throw PlatformError(Kind::Transient, detail);
    socket_->give_url(answer->body["url"].get<std::string>());
}

std::vector<Post> SlackPlatform::read_since(const std::string& channel, const std::string& thread,
                                            const std::string& oldest) {
    using Kind = PlatformError::Kind;
    const std::string method = thread.empty() ? "conversations.history" : "conversations.replies";
    std::vector<Post> found;
    std::string latest; // history pages backwards from the newest; replies forwards
    std::string after = oldest;
    // Reading methods are limited per method (Tier 3): a 429's Retry-After holds for all reads.
    if (const auto it = not_before_.find(method); it != not_before_.end()) {
        const Instant now = options_.clock();
        if (it->second > now)
            throw PlatformError(Kind::RateLimited, "catching up: waiting out " + method + "'s 429",
                                std::chrono::ceil<std::chrono::milliseconds>(it->second - now));
        not_before_.erase(it);
    }
    for (int page = 0; page < max_pages; ++page) {
        Fields fields{{"channel", channel}};
        if (!thread.empty())
            fields.emplace_back("ts", thread);
        fields.emplace_back("oldest", after);
        if (!latest.empty())
            fields.emplace_back("latest", latest);
        fields.emplace_back("limit", "100");
        std::optional<Answer> answer;
        try {
            answer.emplace(call(method, fields, true));
        } catch (const HttpError& e) {
            throw PlatformError(e.kind() == HttpError::Kind::Cancelled ? Kind::Cancelled
                                                                       : Kind::Transient,
                                scrub("catching up: " + method + ": " + e.what()));
        }
        const std::string detail =
            scrub("catching up " + channel + ": " + method + ": " + answer->summary());
        if (answer->status == 429) {
            not_before_[method] = options_.clock() + answer->retry_after;
            throw PlatformError(Kind::RateLimited, detail, answer->retry_after);
        }
        if (refusal(answer->error)) {
            refuse("Slack refused the bot token (" + answer->error +
                   " while catching up): check GHOSTPOST_SLACK_BOT_TOKEN or bot_token_file");
            return {};
        }
        if (answer->api && !answer->ok) {
            // The app left the channel, or it or the thread is gone: nothing to catch up there.
            log::warning("slack_catch_up_skipped",
                         {{"platform", "slack"}, {"channel", channel}, {"error", detail}});
            break;
        }
        if (!answer->ok || !answer->body.contains("messages") ||
            !answer->body["messages"].is_array())
            throw PlatformError(Kind::Transient, detail);
        const json& messages = answer->body["messages"];
        std::string lowest;
        std::string highest;
        for (const json& message : messages) {
            const std::string ts = message.is_object() ? message.value("ts", "") : "";
            if (ts.empty())
                continue;
            if (lowest.empty() || slack_ts_less(ts, lowest))
                lowest = ts;
            if (highest.empty() || slack_ts_less(highest, ts))
                highest = ts;
            if (!slack_ts_less(oldest, ts))
                continue; // the thread's parent, which replies always lists, or one handled
            // A listed message is the channel's own: a history entry that started a thread is
            // not a reply, and a reply's thread is the one asked for.
            json copy = message;
            if (!thread.empty())
                copy["thread_ts"] = thread;
            else if (copy.contains("thread_ts") && copy["thread_ts"] != copy["ts"])
                continue; // a reply also shown in the channel: read with its thread
            SlackMessage decoded =
                decode_slack_message(copy.dump(), channel, !is_group(channel), me_);
            if (!decoded.problem.empty())
                log::warning("slack_message_skipped", {{"platform", "slack"},
                                                       {"channel", channel},
                                                       {"problem", scrub(decoded.problem)}});
            if (decoded.post)
                found.push_back(std::move(*decoded.post));
        }
        const bool more = answer->body.value("has_more", false);
        if (!more || messages.empty())
            break;
        if (thread.empty())
            latest = lowest;
        else
            after = highest;
    }
    std::sort(found.begin(), found.end(), [](const Post& a, const Post& b) {
        return slack_ts_less(a.message_id.substr(0, a.message_id.find('@')),
                             b.message_id.substr(0, b.message_id.find('@')));
    });
    found.erase(
        std::unique(found.begin(), found.end(),
                    [](const Post& a, const Post& b) { return a.message_id == b.message_id; }),
        found.end());
    return found;
}

SlackPlatform::CatchUp SlackPlatform::catch_up(const SlackCursor& cursor) {
    CatchUp out;
    for (const auto& [key, last] : cursor) {
        if (caught_keys_.contains(key))
            continue;
        const auto at = key.find('@');
        const std::string channel = key.substr(0, at);
        const std::string thread = at == std::string::npos ? "" : key.substr(at + 1);
        std::vector<Post> found;
        try {
            found = read_since(channel, thread, last);
        } catch (const PlatformError& e) {
            if (e.kind() == PlatformError::Kind::Cancelled || out.posts.empty())
                throw;
            log::info("slack_catch_up_paused", {{"platform", "slack"}, {"error", e.what()}});
            return out;
        }
        if (finished())
            return {};
        caught_keys_.insert(key);
        if (!found.empty())
            log::info("slack_caught_up", {{"platform", "slack"},
                                          {"channel", channel},
                                          {"messages", static_cast<std::int64_t>(found.size())}});
        for (Post& post : found)
            out.posts.push_back(std::move(post));
    }
    out.done = true;
    return out;
}

std::vector<Post> SlackPlatform::poll(const std::string& cursor, std::chrono::seconds timeout) {
    log::set_thread_platform(name());
    if (finished())
        return {};
    if (!socket_)
        start_socket();
    wait_for_frames(timeout);
    SlackCursor running = parse_slack_cursor(cursor);
    std::vector<Post> posts;
    for (;;) {
        std::string frame;
        {
            const std::lock_guard lock(mutex_);
            if (frames_.empty() || !fatal_.empty())
                break;
            if (frames_.front().empty() && !posts.empty())
                break; // a new connection: caught up at the next poll, from its cursor
            frame = frames_.front();
        }
        if (frame.empty()) {
            // Socket Mode replays nothing: what was posted while no connection was open is read
            // from the channels. The marker stays queued until that succeeded.
            CatchUp caught = catch_up(running);
            for (Post& post : caught.posts)
                take(std::move(post), running, posts);
            if (!caught.done)
                break; // the rest at the next poll
            caught_keys_.clear();
            const std::lock_guard lock(mutex_);
            frames_.pop_front();
            continue;
        }
        {
            const std::lock_guard lock(mutex_);
            frames_.pop_front();
        }
        read_frame(frame, running, posts);
    }
    return posts;
}

void SlackPlatform::start_socket() {
    slack::SocketOptions socket;
    socket.scrub = [this](std::string_view text) { return scrub(text); };
    socket.deliver = [this](std::string frame) {
        {
            const std::lock_guard lock(mutex_);
            frames_.push_back(std::move(frame));
        }
        arrived_.notify_all();
    };
    socket_ = std::make_unique<slack::SocketMode>(std::move(socket));
    socket_->start();
}

void SlackPlatform::wait_for_frames(std::chrono::seconds timeout) {
    const Instant deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        if (options_.cancelled())
            throw PlatformError(PlatformError::Kind::Cancelled, "the daemon is stopping");
        if (socket_->needs_url())
            open_connection();
        std::unique_lock lock(mutex_);
        if (!frames_.empty() || !fatal_.empty())
            return;
        const Instant now = std::chrono::steady_clock::now();
        if (now >= deadline)
            return;
        arrived_.wait_for(lock, std::min<std::chrono::steady_clock::duration>(
                                    deadline - now, std::chrono::milliseconds(200)));
    }
}

void SlackPlatform::read_frame(const std::string& frame, SlackCursor& running,
                               std::vector<Post>& posts) {
    SlackFrame decoded = decode_slack_frame(frame, me_, options_.command_prefix);
    if (!decoded.problem.empty())
        log::warning("slack_event_skipped",
                     {{"platform", "slack"}, {"problem", scrub(decoded.problem)}});
    if (decoded.kind == SlackFrame::Kind::Disconnect && decoded.reason == "link_disabled")
        refuse("Slack turned Socket Mode off for the app (link_disabled): turn it on again "
               "under the app's Socket Mode settings");
    if (decoded.post && !decoded.response_url.empty()) {
        if (responders_.size() >= max_recent)
            responders_.clear();
        // Slack takes five answers there within thirty minutes of the command.
        responders_[decoded.post->message_id] = {decoded.response_url, 5,
                                                 options_.clock() + std::chrono::minutes(30)};
    }
    if (decoded.post)
        take(std::move(*decoded.post), running, posts);
}

void SlackPlatform::take(Post post, SlackCursor& running, std::vector<Post>& posts) {
    const std::string key = post.channel + "/" + post.message_id;
    if (recent_.contains(key))
        return; // app_mention and message both tell of one message; a caught-up one too
    recent_.insert(key);
    recent_order_.push_back(key);
    if (recent_order_.size() > max_recent) {
        recent_.erase(recent_order_.front());
        recent_order_.pop_front();
    }
    const bool message = post.message_id.empty() ||
                         std::isdigit(static_cast<unsigned char>(post.message_id.front())) != 0;
    if (message) {
        const auto at = post.message_id.find('@');
        const std::string ts = post.message_id.substr(0, at);
        const std::string where = at == std::string::npos
                                      ? post.channel
                                      : post.channel + "@" + post.message_id.substr(at + 1);
        std::string& last = running[where];
        if (last.empty() || slack_ts_less(last, ts))
            last = ts;
        // Every message of a channel may start a game's thread: its replies are caught up from
        // it on.
        if (at == std::string::npos && !post.direct)
            running.try_emplace(post.channel + "@" + ts, ts);
    }
    post.cursor = format_slack_cursor(running);
    if (!post.direct) {
        if (user_threads_.size() >= max_recent)
            user_threads_.clear();
        const std::string author = post.channel + "/" + post.author_id;
        if (const std::string thread = slack_thread_of(post.message_id);
            post.message_id.find('@') != std::string::npos && !thread.empty())
            user_threads_[author] = thread;
        else
            user_threads_.erase(author);
    }
    if (post.direct && !post.channel.empty())
        dm_channels_[post.author_id] = post.channel;
    posts.push_back(std::move(post));
}

Delivery SlackPlatform::failed(const Answer& answer, const std::string& what, bool to_user) {
    const std::string detail = scrub(what + ": " + answer.summary());
    if (answer.status == 429)
        return {Delivery::Status::RetryAfter, whole_seconds(answer.retry_after), detail};
    // A refused token is the operator's to fix: the lane stops and the replies wait.
    if (refusal(answer.error)) {
        refuse("Slack refused the bot token (" + answer.error + " from " + what +
               "): check GHOSTPOST_SLACK_BOT_TOKEN or bot_token_file");
        return {Delivery::Status::Transient, {}, detail};
    }
    if (!answer.api || answer.status >= 500 || answer.error == "internal_error" ||
        answer.error == "fatal_error" || answer.error == "request_timeout" ||
        answer.error == "service_unavailable")
        return {Delivery::Status::Transient, {}, detail};
    // A user the app may not see or write to: the service tells them to open their DMs.
    if (to_user && (answer.error == "user_not_visible" || answer.error == "cannot_dm_bot"))
        return {Delivery::Status::Blocked, {}, detail};
    return {Delivery::Status::Failed, {}, detail}; // not_in_channel, channel_not_found, ...
}

Delivery SlackPlatform::post_message(const std::string& channel, const std::string& text,
                                     const std::string& thread, const std::vector<Button>& buttons,
                                     const std::string& metadata, bool broadcast) {
    const std::string route = "chat.postMessage " + channel;
    if (const auto it = not_before_.find(route); it != not_before_.end()) {
        const Instant now = options_.clock();
        if (it->second > now)
            return {Delivery::Status::RetryAfter,
                    whole_seconds(std::chrono::ceil<std::chrono::milliseconds>(it->second - now)),
                    "waiting out Slack's rate limit"};
        not_before_.erase(it);
    }
    Fields fields{{"channel", channel}, {"text", text}, {"mrkdwn", "true"}};
    if (!thread.empty())
        fields.emplace_back("thread_ts", thread);
    if (!thread.empty() && broadcast)
        fields.emplace_back("reply_broadcast", "true");
    if (!buttons.empty())
        fields.emplace_back("blocks", blocks(text, buttons));
    if (!metadata.empty())
        fields.emplace_back("metadata", metadata);
    std::optional<Answer> answer;
    try {
        answer.emplace(call("chat.postMessage", fields));
    } catch (const HttpError& e) {
        if (e.kind() == HttpError::Kind::Cancelled)
            throw PlatformError(PlatformError::Kind::Cancelled, "the daemon is stopping");
        // No answer: the message may be posted or not. Marked so that the next attempt looks.
        return {Delivery::Status::Transient, {}, scrub(std::string(unanswered) + e.what())};
    }
    if (answer->ok)
        return {Delivery::Status::Sent, {}, {}};
    if (answer->status == 429)
        not_before_[route] = options_.clock() + answer->retry_after;
    return failed(*answer, "chat.postMessage", false);
}

Delivery SlackPlatform::upload_png(const std::string& channel, const std::string& thread,
                                   const std::string& comment,
                                   const std::vector<std::uint8_t>& png) {
    const auto transient = [this](const std::string& what, const HttpError& e) -> Delivery {
        if (e.kind() == HttpError::Kind::Cancelled)
            throw PlatformError(PlatformError::Kind::Cancelled, "the daemon is stopping");
        return {Delivery::Status::Transient, {}, scrub(what + ": " + e.what())};
    };
    std::optional<Answer> ticket;
    try {
        ticket.emplace(call("files.getUploadURLExternal",
                            {{"filename", "board.png"}, {"length", std::to_string(png.size())}}));
    } catch (const HttpError& e) {
        return transient("files.getUploadURLExternal", e);
    }
    if (!ticket->ok)
        return failed(*ticket, "files.getUploadURLExternal", false);
    const std::string url = ticket->body.value("upload_url", "");
    const std::string file = ticket->body.value("file_id", "");
    if (url.empty() || file.empty())
        return {Delivery::Status::Transient, {}, "files.getUploadURLExternal: no upload_url"};
    // The upload URL is signed for this one file: it gets the bytes and never a token.
    HttpRequest upload;
    upload.url = url;
    upload.content_type = "image/png";
    upload.body.assign(png.begin(), png.end());
    upload.timeout = options_.request_timeout;
    try {
        const HttpResponse answer = http_.post(upload);
        if (answer.status != 200)
            return {Delivery::Status::Transient,
                    {},
                    "the upload URL answered HTTP " + std::to_string(answer.status)};
    } catch (const HttpError& e) {
        return transient("uploading the board", e);
    }
    Fields fields{{"files", json::array({{{"id", file}, {"title", "board"}}}).dump()},
                  {"channel_id", channel}};
    if (!thread.empty())
        fields.emplace_back("thread_ts", thread);
    if (!comment.empty())
        fields.emplace_back("initial_comment", comment);
    std::optional<Answer> done;
    try {
        done.emplace(call("files.completeUploadExternal", fields));
    } catch (const HttpError& e) {
        return transient("files.completeUploadExternal", e);
    }
    if (!done->ok)
        return failed(*done, "files.completeUploadExternal", false);
    return {Delivery::Status::Sent, {}, {}};
}

std::optional<Delivery> SlackPlatform::respond(Responder& responder,
                                               const std::vector<std::string>& pieces,
                                               const std::vector<Button>& buttons) {
    for (std::size_t i = 0; i < pieces.size(); ++i) {
        json body = {
            {"response_type", "ephemeral"}, {"replace_original", false}, {"text", pieces[i]}};
        if (i + 1 == pieces.size() && !buttons.empty())
            body["blocks"] = json::parse(blocks(pieces[i], buttons));
        // The address is the credential: no token goes with it.
        HttpRequest request;
        request.url = responder.url;
        request.content_type = "application/json";
        request.body = body.dump(-1, ' ', false, json::error_handler_t::replace);
        request.timeout = options_.request_timeout;
        HttpResponse answer;
        try {
            answer = http_.post(request);
        } catch (const HttpError& e) {
            if (e.kind() == HttpError::Kind::Cancelled)
                throw PlatformError(PlatformError::Kind::Cancelled, "the daemon is stopping");
            return Delivery{
                Delivery::Status::Transient, {}, scrub(std::string("response_url: ") + e.what())};
        }
        --responder.uses_left;
        if (answer.status == 429)
            return Delivery{Delivery::Status::RetryAfter, std::chrono::seconds(1),
                            "response_url: HTTP 429"};
        if (answer.status >= 500)
            return Delivery{Delivery::Status::Transient,
                            {},
                            "response_url: HTTP " + std::to_string(answer.status)};
        if (answer.status < 200 || answer.status >= 300) {
            // Used up or expired: the reply goes to the channel (at once, or when the outbox
            // tries again if part of it went already).
            log::info(
                "slack_response_url_closed",
                {{"platform", "slack"}, {"status", static_cast<std::int64_t>(answer.status)}});
            responder.uses_left = 0;
            if (i == 0)
                return std::nullopt;
            return Delivery{Delivery::Status::Transient, {}, "response_url closed midway"};
        }
    }
    return Delivery{Delivery::Status::Sent, {}, {}};
}

std::set<std::size_t> SlackPlatform::posted_pieces(const std::string& channel,
                                                   const std::string& thread,
                                                   const std::string& key,
                                                   std::optional<Delivery>& trouble) {
    const std::string method = thread.empty() ? "conversations.history" : "conversations.replies";
    std::set<std::size_t> found;
    if (const auto it = not_before_.find(method); it != not_before_.end()) {
        const Instant now = options_.clock();
        if (it->second > now) {
            trouble = Delivery{
                Delivery::Status::RetryAfter,
                whole_seconds(std::chrono::ceil<std::chrono::milliseconds>(it->second - now)),
                "waiting out " + method + "'s 429"};
            return {};
        }
        not_before_.erase(it);
    }
    // A thread is read from its start; a channel from its newest messages back, two pages
    // (an attempt cut short is recent: the outbox retries within minutes).
    std::string latest;
    std::string after;
    const int pages = thread.empty() ? 2 : max_pages;
    for (int page = 0; page < pages; ++page) {
        Fields fields{{"channel", channel}};
        if (!thread.empty())
            fields.emplace_back("ts", thread);
        if (!after.empty())
            fields.emplace_back("oldest", after);
        if (!latest.empty())
            fields.emplace_back("latest", latest);
        fields.emplace_back("limit", "100");
        fields.emplace_back("include_all_metadata", "true");
        std::optional<Answer> answer;
        try {
            answer.emplace(call(method, fields, true));
        } catch (const HttpError& e) {
            if (e.kind() == HttpError::Kind::Cancelled)
                throw PlatformError(PlatformError::Kind::Cancelled, "the daemon is stopping");
            trouble = Delivery{Delivery::Status::Transient, {}, scrub(method + ": " + e.what())};
            return {};
        }
        if (!answer->ok) {
            if (answer->status == 429)
                not_before_[method] = options_.clock() + answer->retry_after;
            // The channel or thread is gone or closed to the app: sending says so better.
            if (answer->api && answer->status != 429 && !refusal(answer->error) &&
                answer->status < 500)
                return found;
            trouble = failed(*answer, method, false);
            return {};
        }
        const json messages = answer->body.value("messages", json::array());
        if (!messages.is_array())
            break;
        std::string lowest;
        std::string highest;
        for (const json& message : messages) {
            if (!message.is_object())
                continue;
            const std::string ts = message.value("ts", "");
            if (!ts.empty() && (lowest.empty() || slack_ts_less(ts, lowest)))
                lowest = ts;
            if (!ts.empty() && (highest.empty() || slack_ts_less(highest, ts)))
                highest = ts;
            const bool mine = (!me_.user_id.empty() && message.value("user", "") == me_.user_id) ||
                              (!me_.bot_id.empty() && message.value("bot_id", "") == me_.bot_id);
            const auto meta = message.find("metadata");
            if (!mine || meta == message.end() || !meta->is_object() ||
                meta->value("event_type", "") != piece_event)
                continue;
            const auto payload = meta->find("event_payload");
            if (payload == meta->end() || !payload->is_object() || payload->value("key", "") != key)
                continue;
            const auto piece = payload->find("piece");
            if (piece != payload->end() && piece->is_number_unsigned())
                found.insert(piece->get<std::size_t>());
        }
        if (!answer->body.value("has_more", false) || messages.empty())
            break;
        if (thread.empty())
            latest = lowest;
        else
            after = highest;
    }
    return found;
}

Delivery SlackPlatform::send(const Reply& reply) {
    log::set_thread_platform(name());
    if (finished())
        return {Delivery::Status::Transient, {}, "Slack refused the bot: waiting for the operator"};
    std::string channel = reply.destination;
    const bool to_user = reply.to == Reply::To::User;
    if (to_user) {
        if (const auto known = dm_channels_.find(reply.destination); known != dm_channels_.end()) {
            channel = known->second;
        } else {
            std::optional<Answer> answer;
            try {
                answer.emplace(call("conversations.open", {{"users", reply.destination}}));
            } catch (const HttpError& e) {
                if (e.kind() == HttpError::Kind::Cancelled)
                    throw PlatformError(PlatformError::Kind::Cancelled, "the daemon is stopping");
                return {Delivery::Status::Transient, {}, scrub(e.what())};
            }
            const json& body = answer->body;
            if (!answer->ok || !body.contains("channel") || !body["channel"].is_object() ||
                !body["channel"].contains("id") || !body["channel"]["id"].is_string()) {
                if (answer->ok)
                    return {Delivery::Status::Transient, {}, "conversations.open: no channel id"};
                return failed(*answer, "conversations.open", true);
            }
            channel = body["channel"]["id"].get<std::string>();
            dm_channels_[reply.destination] = channel;
        }
    }
    // Only a channel's replies go into threads: a DM reads as one conversation.
    std::string thread =
        !to_user && is_group(channel) ? slack_thread_of(reply.reply_to) : std::string();
    if (!to_user && is_group(channel) && reply.reply_to.empty() && !reply.mentions.empty())
        if (const auto it = user_threads_.find(channel + "/" + reply.mentions[0].user_id);
            it != user_threads_.end())
            thread = it->second;
    const std::string text = ping(escape(reply.text), reply.mentions);
    std::vector<std::string> pieces =
        format(text, escape(reply.code), reply.buttons.empty() ? max_text : max_section);
    if (pieces.empty())
        pieces.emplace_back();
    // An answer for the author of a slash command or a press alone (Reply::reply_to) is shown
    // to them alone while Slack takes answers at its response_url; an image cannot go there.
    if (!to_user && reply.png.empty())
        if (const auto it = responders_.find(reply.reply_to); it != responders_.end()) {
            Responder& responder = it->second;
            const bool open = options_.clock() < responder.until &&
                              responder.uses_left >= static_cast<int>(pieces.size());
            if (open)
                if (const auto d = respond(responder, pieces, reply.buttons))
                    return *d;
            if (responder.uses_left <= 0 || options_.clock() >= responder.until)
                responders_.erase(it);
        }
    // In order; the first failure ends the reply and the outbox tries again. Slack has no
    // idempotency key for chat.postMessage, so a reply of several messages marks each with its
    // key and number (metadata): another attempt sends only the pieces not posted yet, which it
    // knows when this process sent them, and otherwise (after a restart, or a call that got no
    // answer) reads from the channel or thread.
    const bool several = pieces.size() > 1 && !reply.idempotency_key.empty();
    std::set<std::size_t> posted;
    if (several) {
        if (const auto known = pieces_sent_.find(reply.idempotency_key);
            known != pieces_sent_.end()) {
            posted = known->second;
        } else {
            std::optional<Delivery> trouble;
            posted = posted_pieces(channel, thread, reply.idempotency_key, trouble);
            if (trouble)
                return *trouble;
            if (!posted.empty())
                log::info("slack_reply_resumed",
                          {{"platform", "slack"},
                           {"channel", channel},
                           {"posted", static_cast<std::int64_t>(posted.size())},
                           {"pieces", static_cast<std::int64_t>(pieces.size())}});
        }
        if (pieces_sent_.size() >= max_recent)
            pieces_sent_.clear();
        pieces_sent_[reply.idempotency_key] = posted;
    }
    // A game's result goes to the channel as well as its thread (reply_broadcast): by its first
    // message, which says how the game ended, and which is then no image's comment, since a
    // shared file cannot be broadcast.
    const bool broadcast = reply.ends_game && !thread.empty();
    // The first message is the image's comment, unless it carries buttons, which a file's
    // comment cannot.
    const bool comment =
        !reply.png.empty() && !broadcast && (reply.buttons.empty() || pieces.size() > 1);
    const std::size_t first = comment ? 1 : 0;
    // The image's comment bears no metadata: a later piece found posted shows it went up.
    if (!reply.png.empty() && !(several && !posted.empty())) {
        const Delivery d = upload_png(channel, thread, comment ? pieces[0] : "", reply.png);
        if (d.status != Delivery::Status::Sent)
            return d;
    }
    for (std::size_t i = first; i < pieces.size(); ++i) {
        if (posted.contains(i + 1))
            continue;
        const bool last = i + 1 == pieces.size();
        const Delivery d = post_message(
            channel, pieces[i], thread, last ? reply.buttons : std::vector<Button>{},
            several ? piece_metadata(reply.idempotency_key, i + 1, pieces.size()) : std::string(),
            broadcast && i == 0);
        if (d.status != Delivery::Status::Sent) {
            if (several && d.detail.starts_with(unanswered))
                pieces_sent_.erase(reply.idempotency_key); // unknown: look again next time
            return d;
        }
        if (several)
            pieces_sent_[reply.idempotency_key].insert(i + 1);
    }
    if (several)
        pieces_sent_.erase(reply.idempotency_key);
    return {Delivery::Status::Sent, {}, {}};
}

} // namespace ghostpost::bot
