#include "ghostpost/discourse/discourse.h"

#include "discourse_text.h"
#include "ghostpost/log/log.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <thread>

namespace ghostpost::bot {

namespace {

using discourse_text::cap;
using discourse_text::lower;
using nlohmann::json;

constexpr std::size_t max_detail = 200; // a log field, a stored last_error
constexpr std::size_t max_raw = 30000;  // Discourse's max_post_length is 32,000 by default
constexpr int private_message_type = 6; // notification_type of a post in a PM topic

std::optional<std::int64_t> to_integer(std::string_view text) {
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

void replace_all(std::string& text, const std::string& what, std::string_view with) {
    if (what.empty())
        return;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + with.size()))
        text.replace(at, what.size(), with);
}

// Markdown that shows `text` as written: the characters that would start emphasis, code, links,
// HTML or a heading are escaped. '_' is left alone: inside a word (a username) it is no
// emphasis, and an escaped one would break the @mention it belongs to.
std::string escape_markdown(std::string_view text) {
    std::string out;
    out.reserve(text.size() + 16);
    bool line_start = true;
    for (const char c : text) {
        if (c == '\\' || c == '*' || c == '`' || c == '[' || c == ']' || c == '<' || c == '>' ||
            c == '~' || c == '|' || (line_start && (c == '#' || c == '-' || c == '+' || c == '=')))
            out += '\\';
        out += c;
        line_start = c == '\n';
    }
    return out;
}

// A code fence longer than any run of backticks in `code`, so the block cannot be closed early.
std::string fence_for(std::string_view code) {
    std::size_t longest = 0, run = 0;
    for (const char c : code) {
        run = c == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    return std::string(std::max<std::size_t>(3, longest + 1), '`');
}

// Discourse's wait, in order of preference: the Retry-After header, extras.wait_seconds, one
// second; kept between one second and a day.
std::chrono::milliseconds wait_of(const HttpResponse& response, const json& body) {
    double seconds = 1;
    if (const auto header = response.headers.find("retry-after");
        header != response.headers.end()) {
        if (const auto value = to_integer(header->second))
            seconds = static_cast<double>(*value);
    } else if (body.is_object() && body.contains("extras") && body["extras"].is_object()) {
        const json& extras = body["extras"];
        if (const auto wait = extras.find("wait_seconds");
            wait != extras.end() && wait->is_number())
            seconds = wait->get<double>();
    }
    seconds = std::clamp(seconds, 1.0, 86400.0);
    return std::chrono::milliseconds(static_cast<std::int64_t>(std::ceil(seconds * 1000.0)));
}

// The integer or text member `key` of `object`, or `fallback` when it is absent or of another
// type: what Discourse sends is read, never trusted to throw.
std::int64_t integer_at(const json& object, const char* key, std::int64_t fallback = 0) {
    if (!object.is_object())
        return fallback;
    const auto it = object.find(key);
    return it != object.end() && it->is_number_integer() ? it->get<std::int64_t>() : fallback;
}

std::string text_at(const json& object, const char* key) {
    if (!object.is_object())
        return {};
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::chrono::seconds whole_seconds(std::chrono::milliseconds wait) {
    return std::max(std::chrono::ceil<std::chrono::seconds>(wait), std::chrono::seconds(1));
}

} // namespace

// Discourse's answer to one request: its status, the JSON body when it is JSON, the words of
// its "errors" array, and the wait of a 429.
struct DiscoursePlatform::Answer {
    long status = 0;
    json body;
    std::string errors;
    std::chrono::milliseconds wait{0};

    explicit Answer(const HttpResponse& response) : status(response.status) {
        body = json::parse(response.body, nullptr, false);
        if (body.is_object()) {
            if (const auto it = body.find("errors"); it != body.end() && it->is_array()) {
                for (const json& e : *it)
                    if (e.is_string())
                        errors += (errors.empty() ? "" : "; ") + e.get<std::string>();
            }
        } else {
            body = json();
        }
        if (status == 429)
            wait = wait_of(response, body);
    }
    bool ok() const { return status == 200 && body.is_object(); }
    std::string describe() const {
        return "HTTP " + std::to_string(status) +
               (errors.empty() ? (body.is_object() ? "" : " without a JSON answer")
                               : ": " + errors);
    }
};

DiscoursePlatform::DiscoursePlatform(HttpClient& http, DiscourseOptions options)
    : http_(http), options_(std::move(options)) {
    while (!options_.base_url.empty() && options_.base_url.back() == '/')
        options_.base_url.pop_back();
    if (!options_.clock)
        options_.clock = std::chrono::steady_clock::now;
}

bool DiscoursePlatform::is_group(const std::string& channel) const {
    const auto id = to_integer(channel);
    return !id || !pm_topic_ids_.contains(*id);
}

std::string DiscoursePlatform::scrub(std::string_view text) const {
    std::string clean(text);
    if (options_.api_key.size() >= 8)
        replace_all(clean, options_.api_key, "[redacted]");
    return cap(clean, max_detail);
}

bool DiscoursePlatform::wait(std::chrono::milliseconds duration) {
    if (options_.sleep)
        return options_.sleep(duration);
    std::this_thread::sleep_for(duration);
    return true;
}

DiscoursePlatform::Answer DiscoursePlatform::call(HttpRequest request, const std::string& what) {
    request.headers.push_back("Api-Key: " + options_.api_key);
    request.headers.push_back("Api-Username: " + options_.username);
    request.headers.push_back("Accept: application/json");
    request.timeout = options_.request_timeout;
    try {
        Answer answer(http_.post(request));
        if (answer.status == 429)
            not_before_ = options_.clock() + answer.wait;
        return answer;
    } catch (const HttpError& e) {
        throw PlatformError(e.kind() == HttpError::Kind::Cancelled ? PlatformError::Kind::Cancelled
                                                                   : PlatformError::Kind::Transient,
                            scrub(what + ": " + e.what()));
    }
}

DiscoursePlatform::Answer DiscoursePlatform::get(const std::string& path, const std::string& what) {
    using Kind = PlatformError::Kind;
    if (const auto now = options_.clock(); now < not_before_)
        throw PlatformError(Kind::RateLimited, what + ": waiting out Discourse's rate limit",
                            std::chrono::ceil<std::chrono::milliseconds>(not_before_ - now));
    HttpRequest request;
    request.method = "GET";
    request.url = options_.base_url + path;
    Answer answer = call(std::move(request), what);
    if (answer.ok())
        return answer;
    const std::string message = scrub(what + ": " + answer.describe());
    switch (answer.status) {
    case 429:
        throw PlatformError(Kind::RateLimited, message, answer.wait);
    case 401:
    case 403: // Discourse's answer to an unknown key or a username the key may not act as
        throw PlatformError(Kind::Unauthorized, message);
    default:
        throw PlatformError(Kind::Transient, message);
    }
}

void DiscoursePlatform::remember(const DecodedPost& post) {
    if (!post.post.author_handle.empty() && !post.own)
        usernames_[post.post.author_id] = post.post.author_handle;
    if (post.post.direct) {
        pm_topic_ids_.insert(post.topic_id);
        if (!post.own)
            pm_topics_[post.post.author_id] = post.topic_id;
    } else if (post.own || (post.readable && post.addressed)) {
        // A game stays bound to its topic: where the bot was called or spoke, it keeps reading.
        bound_topics_.insert(post.topic_id);
    }
}

std::optional<DecodedPost> DiscoursePlatform::fetch_private(std::int64_t post_id) {
    try {
        Answer answer = get("/posts/" + std::to_string(post_id) + ".json", "posts/{id}");
        DecodedPost decoded = discourse_text::decode_value(answer.body, options_, true);
        if (!decoded.problem.empty()) {
            log::warning("discourse_post_skipped", {{"platform", "discourse"},
                                                    {"post", post_id},
                                                    {"problem", scrub(decoded.problem)}});
            return std::nullopt;
        }
        return decoded;
    } catch (const PlatformError& e) {
        // A post deleted since its notification: nothing to read.
        if (e.kind() == PlatformError::Kind::Transient &&
            std::string_view(e.what()).find("HTTP 404") != std::string_view::npos)
            return std::nullopt;
        throw;
    }
}

std::vector<Post> DiscoursePlatform::poll(const std::string& cursor, std::chrono::seconds timeout) {
    log::set_thread_platform(name());
    const std::optional<std::int64_t> after = to_integer(cursor);
    std::map<std::int64_t, DecodedPost> found; // by post id, so in id order
    std::int64_t newest_public = 0;
    bool after_catch_up = false;
    if (!read_public(after, found, newest_public, after_catch_up)) {
        log::info("discourse_catching_up",
                  {{"platform", "discourse"}, {"cursor", *after}, {"before", catch_up_->before}});
        return {}; // asked again at once by the daemon: the next pages
    }
    const std::int64_t newest_private = read_private(after, found);

    // The two lists were read one after the other: a post may have been made between them.
    // Every post up to the newest public one read first is complete in both; so is every post
    // up to the newest private one of the previous poll. Later ones wait for the next poll.
    // After a catch-up, public posts newer than its first page are not read yet: the horizon
    // stays at that page's newest.
    const std::int64_t horizon =
        after_catch_up ? newest_public : std::max(newest_public, pm_horizon_);
    pm_horizon_ = std::max(pm_horizon_, newest_private);
    std::vector<Post> posts;
    if (!after) {
        // First start: from now on. The cursor begins at the newest post seen (0 on a forum
        // without posts, so that the first post ever made is read).
        const std::int64_t start = std::max(horizon, newest_private);
        Post mark;
        mark.platform = "discourse";
        mark.message_id = "start-" + std::to_string(start);
        mark.cursor = std::to_string(start);
        posts.push_back(std::move(mark));
        return posts;
    }
    std::int64_t skipped = 0; // the highest id passed over without a Post of its own
    for (auto& [id, decoded] : found) {
        if (id > horizon)
            break;
        remember(decoded);
        const bool for_service =
            decoded.readable && (decoded.addressed || bound_topics_.contains(decoded.topic_id));
        if (for_service) {
            posts.push_back(std::move(decoded.post));
            skipped = 0;
        } else {
            skipped = id;
        }
    }
    if (skipped > 0) {
        // One empty post moves the cursor past what the service need not see.
        Post mark;
        mark.platform = "discourse";
        mark.message_id = "skip-" + std::to_string(skipped);
        mark.cursor = std::to_string(skipped);
        posts.push_back(std::move(mark));
    }
    if (posts.empty() && timeout.count() > 0 &&
        !wait(std::chrono::duration_cast<std::chrono::milliseconds>(timeout)))
        throw PlatformError(PlatformError::Kind::Cancelled, "stopping");
    return posts;
}

bool DiscoursePlatform::read_public(std::optional<std::int64_t> after,
                                    std::map<std::int64_t, DecodedPost>& found,
                                    std::int64_t& newest_public, bool& after_catch_up) {
    // Public posts, newest first, 50 a page; more pages only after downtime. A catch-up longer
    // than max_pages goes on in the next polls from where it stopped, and nothing is passed on
    // before it has reached the cursor: no post below the newest may be skipped.
    if (catch_up_ && (!after || catch_up_->after != *after))
        catch_up_.reset(); // the cursor moved on (another start): begin again
    bool caught_up = true;
    for (int page = 0; page < std::max(1, options_.max_pages); ++page) {
        const std::optional<std::int64_t> before =
            catch_up_ ? std::optional<std::int64_t>(catch_up_->before) : std::nullopt;
        Answer answer = get(
            before ? "/posts.json?before=" + std::to_string(*before) : "/posts.json", "posts.json");
        const auto latest = answer.body.find("latest_posts");
        if (latest == answer.body.end() || !latest->is_array())
            throw PlatformError(PlatformError::Kind::Transient, "posts.json: no latest_posts");
        std::int64_t lowest = 0;
        for (const json& item : *latest) {
            DecodedPost decoded = discourse_text::decode_value(item, options_, false);
            if (!decoded.id) {
                log::warning("discourse_post_skipped",
                             {{"platform", "discourse"}, {"problem", scrub(decoded.problem)}});
                continue;
            }
            const std::int64_t id = *decoded.id;
            newest_public = std::max(newest_public, id);
            lowest = lowest == 0 ? id : std::min(lowest, id);
            if (after && id > *after)
                (catch_up_ ? catch_up_->posts : found).emplace(id, std::move(decoded));
        }
        caught_up = !after || lowest == 0 || lowest <= *after + 1;
        if (caught_up)
            break;
        if (!catch_up_) {
            catch_up_.emplace();
            catch_up_->after = *after;
            catch_up_->newest = newest_public;
            catch_up_->posts = std::move(found);
            found.clear();
        }
        catch_up_->before = lowest;
    }
    if (!caught_up)
        return false;
    if (catch_up_) {
        // Complete from the cursor up to the newest post of the first page; newer posts come
        // in the next poll.
        found = std::move(catch_up_->posts);
        newest_public = catch_up_->newest;
        catch_up_.reset();
        after_catch_up = true;
    }
    return true;
}

std::int64_t DiscoursePlatform::read_private(std::optional<std::int64_t> after,
                                             std::map<std::int64_t, DecodedPost>& found) {
    // Each new post in a PM topic of the bot is a notification; the post itself is one more
    // request.
    std::int64_t newest_private = 0;
    Answer answer = get("/notifications.json", "notifications.json");
    const auto list = answer.body.find("notifications");
    if (list == answer.body.end() || !list->is_array())
        throw PlatformError(PlatformError::Kind::Transient, "notifications.json: no notifications");
    for (const json& n : *list) {
        if (!n.is_object() || integer_at(n, "notification_type") != private_message_type)
            continue;
        const auto data = n.find("data");
        if (data == n.end() || !data->is_object())
            continue;
        const auto original = data->find("original_post_id");
        if (original == data->end() || !original->is_number_integer())
            continue;
        const std::int64_t id = original->get<std::int64_t>();
        newest_private = std::max(newest_private, id);
        if (after && id > *after && !found.contains(id))
            if (auto decoded = fetch_private(id))
                found.emplace(id, std::move(*decoded));
    }
    return newest_private;
}

std::string DiscoursePlatform::markdown(const Reply& reply, const std::string& image_markdown) {
    std::string raw = escape_markdown(cap(reply.text, max_raw));
    if (!reply.code.empty()) {
        const std::string code = cap(reply.code, max_raw);
        const std::string fence = fence_for(code);
        raw += (raw.empty() ? "" : "\n\n") + fence + "text\n" + code +
               (code.ends_with('\n') ? "" : "\n") + fence;
    }
    if (!image_markdown.empty())
        raw += (raw.empty() ? "" : "\n\n") + image_markdown;
    return raw;
}

Delivery DiscoursePlatform::deliver(HttpRequest request, const std::string& what, bool new_private,
                                    Answer* answer_out) {
    Answer answer = call(std::move(request), what);
    const std::string detail = scrub(what + ": " + answer.describe());
    if (answer.ok()) {
        if (answer_out != nullptr)
            *answer_out = std::move(answer);
        return {Delivery::Status::Sent, {}, {}};
    }
    if (answer.status == 429)
        return {Delivery::Status::RetryAfter, whole_seconds(answer.wait), detail};
    if (answer.status >= 500 || answer.status == 401 || answer.status == 403 ||
        answer.body.is_null())
        // A refused key is the operator's to fix: keep the replies until it is.
        return {Delivery::Status::Transient, {}, detail};
    if (answer.status == 422) {
        const std::string words = lower(answer.errors);
        // Our posts carry a key of their own, so "identical" or "too similar" can only mean
        // that an earlier attempt of this very reply got through.
        if (words.find("similar") != std::string::npos ||
            words.find("identical") != std::string::npos)
            return {Delivery::Status::Sent, {}, detail};
        if (new_private && words.find("too short") == std::string::npos)
            return {Delivery::Status::Blocked, {}, detail};
    }
    return {Delivery::Status::Failed, {}, detail};
}

std::string DiscoursePlatform::username_of(const std::string& user_id) {
    if (const auto it = usernames_.find(user_id); it != usernames_.end())
        return it->second;
    const auto id = to_integer(user_id);
    if (!id)
        return {};
    Answer answer = get("/admin/users/" + std::to_string(*id) + ".json", "admin/users/{id}");
    const std::string name = text_at(answer.body, "username");
    if (!name.empty())
        usernames_[user_id] = name;
    return name;
}

std::optional<std::int64_t> DiscoursePlatform::pm_topic_of(const std::string& user_id) {
    if (const auto it = pm_topics_.find(user_id); it != pm_topics_.end())
        return it->second;
    // After a restart: the bot's private messages name their participants; a topic of the bot
    // and this player alone is theirs.
    Answer answer =
        get("/topics/private-messages/" + options_.username + ".json", "topics/private-messages");
    const json& list = answer.body;
    if (list.contains("users") && list["users"].is_array())
        for (const json& user : list["users"])
            if (user.is_object() && user.contains("id") && user["id"].is_number_integer() &&
                user.contains("username") && user["username"].is_string())
                usernames_.emplace(std::to_string(user["id"].get<std::int64_t>()),
                                   user["username"].get<std::string>());
    if (list.contains("topic_list") && list["topic_list"].is_object() &&
        list["topic_list"].contains("topics") && list["topic_list"]["topics"].is_array()) {
        for (const json& topic : list["topic_list"]["topics"]) {
            if (!topic.is_object() || integer_at(topic, "allowed_user_count") != 2 ||
                !topic.contains("id") || !topic["id"].is_number_integer() ||
                !topic.contains("participants") || !topic["participants"].is_array())
                continue;
            const std::int64_t topic_id = topic["id"].get<std::int64_t>();
            for (const json& p : topic["participants"]) {
                if (!p.is_object() || !p.contains("user_id") || !p["user_id"].is_number_integer())
                    continue;
                const std::string who = std::to_string(p["user_id"].get<std::int64_t>());
                if (usernames_.contains(who) && lower(usernames_[who]) == lower(options_.username))
                    continue;
                pm_topic_ids_.insert(topic_id);
                pm_topics_.emplace(who, topic_id); // the list is newest first: keep the first
            }
        }
    }
    if (const auto it = pm_topics_.find(user_id); it != pm_topics_.end())
        return it->second;
    return std::nullopt;
}

Delivery DiscoursePlatform::send(const Reply& reply) {
    log::set_thread_platform(name());
    if (const auto now = options_.clock(); now < not_before_)
        return {Delivery::Status::RetryAfter,
                whole_seconds(std::chrono::ceil<std::chrono::milliseconds>(not_before_ - now)),
                "waiting out Discourse's rate limit"};
    try {
        std::string image;
        if (!reply.png.empty()) {
            HttpRequest upload;
            upload.url = options_.base_url + "/uploads.json";
            upload.parts.push_back({"upload_type", "composer", "", ""});
            upload.parts.push_back({"synchronous", "true", "", ""});
            upload.parts.push_back({"file", std::string(reply.png.begin(), reply.png.end()),
                                    "board.png", "image/png"});
            Answer uploaded(HttpResponse{});
            const Delivery d = deliver(std::move(upload), "uploads.json", false, &uploaded);
            if (d.status != Delivery::Status::Sent)
                return d;
            std::string url = text_at(uploaded.body, "short_url");
            if (url.empty())
                url = text_at(uploaded.body, "url");
            if (url.empty())
                return {Delivery::Status::Transient, {}, "uploads.json: no url in the answer"};
            const auto width = integer_at(uploaded.body, "width");
            const auto height = integer_at(uploaded.body, "height");
            image = "![board|" + std::to_string(width) + "x" + std::to_string(height) + "](" + url +
                    ")";
        }
        // The key makes every post unlike any other, and the same for every attempt.
        const std::string raw =
            markdown(reply, image) + "\n\n<!-- ghostpost " +
            (reply.idempotency_key.empty() ? std::string("-") : reply.idempotency_key) + " -->";
        json body = {{"raw", raw}};
        bool new_private = false;
        std::optional<std::int64_t> topic;
        if (reply.to == Reply::To::User) {
            topic = pm_topic_of(reply.destination);
            if (!topic) {
                const std::string username = username_of(reply.destination);
                if (username.empty())
                    return {Delivery::Status::Failed, {}, "no such Discourse user"};
                new_private = true;
                body["title"] = "Private game messages for @" + username;
                body["archetype"] = "private_message";
                body["target_recipients"] = username;
            }
        } else {
            topic = to_integer(reply.destination);
            if (!topic)
                return {Delivery::Status::Failed, {}, "the channel is not a topic id"};
            if (const auto number = to_integer(reply.reply_to))
                body["reply_to_post_number"] = *number;
        }
        if (topic)
            body["topic_id"] = *topic;
        HttpRequest request;
        request.url = options_.base_url + "/posts.json";
        request.body = body.dump(-1, ' ', false, json::error_handler_t::replace);
        Answer created(HttpResponse{});
        const Delivery d = deliver(std::move(request), "posts.json", new_private, &created);
        if (d.status == Delivery::Status::Sent && created.body.is_object()) {
            const std::int64_t topic_id = integer_at(created.body, "topic_id");
            if (reply.to == Reply::To::User && topic_id > 0) {
                pm_topics_[reply.destination] = topic_id;
                pm_topic_ids_.insert(topic_id);
            } else if (topic_id > 0) {
                bound_topics_.insert(topic_id);
            }
        }
        if (d.status == Delivery::Status::Failed && reply.to == Reply::To::User && topic &&
            d.detail.find("HTTP 404") != std::string::npos) {
            // The player's private message topic is gone: the next attempt starts a new one.
            pm_topics_.erase(reply.destination);
            return {Delivery::Status::Transient, {}, d.detail};
        }
        return d;
    } catch (const PlatformError& e) {
        if (e.kind() == PlatformError::Kind::Cancelled)
            throw;
        if (e.kind() == PlatformError::Kind::RateLimited)
            return {Delivery::Status::RetryAfter,
                    whole_seconds(
                        std::chrono::duration_cast<std::chrono::milliseconds>(e.retry_after())),
                    e.what()};
        return {Delivery::Status::Transient, {}, e.what()};
    }
}

} // namespace ghostpost::bot
