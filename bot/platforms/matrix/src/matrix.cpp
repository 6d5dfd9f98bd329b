#include "ghostpost/matrix/matrix.h"

#include "ghostpost/log/log.h"
#include "matrix_decode.h"
#include "matrix_text.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

namespace ghostpost::bot {

namespace {

using nlohmann::json;

constexpr const char* client_api = "/_matrix/client/v3";
constexpr std::size_t max_detail = 200; // a log field, a stored last_error: never a wall of text
constexpr int page_limit = 100;         // events per /messages page when filling a gap
constexpr int max_gap_pages = 20;       // a gap longer than this many pages is cut, logged

// The events the bot reads: messages, memberships (invites, direct rooms) and the encryption
// marker; lazy-loaded members so that a large room costs little.
const json& sync_filter() {
    static const json filter = {
        {"presence", {{"types", json::array()}}},
        {"account_data", {{"types", {"m.direct"}}}},
        {"room",
         {{"timeline",
           {{"types", {"m.room.message", "m.room.member", "m.room.encryption"}}, {"limit", 50}}},
          {"state",
           {{"types", {"m.room.member", "m.room.encryption"}}, {"lazy_load_members", true}}},
          {"ephemeral", {{"types", json::array()}}},
          {"account_data", {{"types", json::array()}}}}}};
    return filter;
}

// A path segment: room ids hold '!' and ':', user ids '@' and ':', all escaped.
std::string segment(const std::string& text) {
    std::string out;
    for (const char c : text) {
        const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                           (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' || c == '~';
        if (plain) {
            out += c;
        } else {
            constexpr const char* hex = "0123456789ABCDEF";
            const auto byte = static_cast<unsigned char>(c);
            out += '%';
            out += hex[byte >> 4];
            out += hex[byte & 15];
        }
    }
    return out;
}

std::chrono::seconds whole_seconds(std::chrono::milliseconds wait) {
    return std::max(std::chrono::ceil<std::chrono::seconds>(wait), std::chrono::seconds(1));
}

// Width and height from a PNG's IHDR chunk; zeros when the bytes are not a PNG.
std::pair<std::uint32_t, std::uint32_t> png_size(const std::vector<std::uint8_t>& png) {
    static constexpr std::uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    if (png.size() < 24 || !std::equal(signature, signature + 8, png.begin()))
        return {0, 0};
    const auto word = [&](std::size_t at) {
        return (std::uint32_t{png[at]} << 24) | (std::uint32_t{png[at + 1]} << 16) |
               (std::uint32_t{png[at + 2]} << 8) | std::uint32_t{png[at + 3]};
    };
    return {word(16), word(20)};
}

// Untrusted JSON read without exceptions: a missing or mistyped field is its empty value, so
// that no event, however it is shaped, makes a /sync answer unreadable.
const json& field(const json& object, const char* key) {
    static const json none;
    if (!object.is_object())
        return none;
    const auto it = object.find(key);
    return it == object.end() ? none : *it;
}
std::string text_of(const json& object, const char* key) {
    const json& value = field(object, key);
    return value.is_string() ? value.get<std::string>() : std::string();
}
bool flag_of(const json& object, const char* key) {
    const json& value = field(object, key);
    return value.is_boolean() && value.get<bool>();
}
const json& object_of(const json& object, const char* key) {
    static const json empty = json::object();
    const json& value = field(object, key);
    return value.is_object() ? value : empty;
}
const json& list_of(const json& object, const char* key) {
    static const json empty = json::array();
    const json& value = field(object, key);
    return value.is_array() ? value : empty;
}

std::string dump(const json& value) {
    return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

} // namespace

// One response, read. `api` is false for anything that is not a JSON object (a proxy's HTML
// page, a cut-off body): such answers are transient.
struct MatrixPlatform::Answer {
    long status = 0;
    bool api = false;
    json body;
    std::string errcode;
    std::string error;
    std::chrono::milliseconds retry_after{1000};

    explicit Answer(const HttpResponse& response) : status(response.status) {
        body = matrix_text::parse(response.body);
        if (body.is_discarded() || !body.is_object())
            return;
        api = true;
        if (const auto it = body.find("errcode"); it != body.end() && it->is_string())
            errcode = it->get<std::string>();
        if (const auto it = body.find("error"); it != body.end() && it->is_string())
            error = it->get<std::string>();
        if (const auto it = body.find("retry_after_ms"); it != body.end() && it->is_number()) {
            const double ms = std::clamp(it->get<double>(), 1.0, 86'400'000.0);
            retry_after = std::chrono::milliseconds(static_cast<std::int64_t>(std::ceil(ms)));
        }
    }
    bool ok() const { return api && status >= 200 && status < 300; }
    bool token_refused() const {
        return status == 401 || errcode == "M_UNKNOWN_TOKEN" || errcode == "M_MISSING_TOKEN";
    }
    std::string summary() const {
        return std::to_string(status) + (errcode.empty() ? "" : " " + errcode) +
               (error.empty() ? "" : " " + error);
    }
};

MatrixPlatform::MatrixPlatform(HttpClient& http, MatrixOptions options)
    : http_(http), options_(std::move(options)) {
    while (!options_.homeserver_url.empty() && options_.homeserver_url.back() == '/')
        options_.homeserver_url.pop_back();
    if (!options_.clock)
        options_.clock = std::chrono::steady_clock::now;
}

std::string MatrixPlatform::scrub(std::string_view text) const {
    std::string clean = matrix_text::valid_utf8(text);
    const std::string& token = options_.access_token;
    if (token.size() >= 8)
        for (auto at = clean.find(token); at != std::string::npos; at = clean.find(token, at))
            clean.replace(at, token.size(), "[redacted]");
    return matrix_text::cap(clean, max_detail);
}

std::string MatrixPlatform::user_path() const {
    return std::string(client_api) + "/user/" + segment(options_.user_id);
}

bool MatrixPlatform::is_group(const std::string& channel) const {
    for (const auto& [user, rooms] : direct_)
        if (std::find(rooms.begin(), rooms.end(), channel) != rooms.end())
            return false;
    return true;
}

MatrixPlatform::Answer MatrixPlatform::exchange(const std::string& method, const std::string& path,
                                                const std::string& body,
                                                std::chrono::milliseconds timeout,
                                                const std::string& content_type) {
    HttpRequest request;
    request.method = method;
    request.url = options_.homeserver_url + path;
    request.body = body;
    request.content_type = content_type.empty() ? "application/json" : content_type;
    request.headers.push_back("Authorization: Bearer " + options_.access_token);
    request.timeout = timeout;
    const std::string what = method + " " + path.substr(0, path.find('?'));
    try {
        Answer answer(http_.post(request));
        if (answer.token_refused()) {
            token_refused_.store(true);
            if (options_.token_refused)
                options_.token_refused();
        }
        return answer;
    } catch (const HttpError& e) {
        throw PlatformError(e.kind() == HttpError::Kind::Cancelled ? PlatformError::Kind::Cancelled
                                                                   : PlatformError::Kind::Transient,
                            scrub(what + ": " + e.what()));
    }
}

MatrixPlatform::Answer MatrixPlatform::call(const std::string& method, const std::string& path,
                                            const std::string& body) {
    using Kind = PlatformError::Kind;
    Answer answer = exchange(method, path, body, options_.request_timeout);
    if (answer.ok())
        return answer;
    const std::string what = method + " " + path.substr(0, path.find('?'));
    if (!answer.api)
        throw PlatformError(
            Kind::Transient,
            scrub(what + ": HTTP " + std::to_string(answer.status) + " without a Matrix answer"));
    const std::string message = scrub(what + ": " + answer.summary());
    if (answer.status == 429 || answer.errcode == "M_LIMIT_EXCEEDED") {
        poll_not_before_ = options_.clock() + answer.retry_after;
        throw PlatformError(Kind::RateLimited, message, answer.retry_after);
    }
    if (answer.token_refused())
        throw PlatformError(Kind::Unauthorized, message);
    throw PlatformError(Kind::Transient, message);
}

std::string MatrixPlatform::refused() const {
    if (!token_refused_.load())
        return {};
    return "the homeserver refuses the access token (M_UNKNOWN_TOKEN): log the bot in again and "
           "set GHOSTPOST_MATRIX_TOKEN or [platform.matrix] token_file";
}

std::string MatrixPlatform::whoami() {
    const Answer answer = call("GET", std::string(client_api) + "/account/whoami");
    const auto it = answer.body.find("user_id");
    if (it == answer.body.end() || !it->is_string())
        throw PlatformError(PlatformError::Kind::Transient, "whoami: no user_id in the answer");
    return matrix_text::valid_utf8(it->get<std::string>());
}

void MatrixPlatform::set_up() {
    if (set_up_)
        return;
    if (filter_id_.empty()) {
        const Answer answer = call("POST", user_path() + "/filter", dump(sync_filter()));
        const auto it = answer.body.find("filter_id");
        if (it == answer.body.end() || !it->is_string())
            throw PlatformError(PlatformError::Kind::Transient, "filter: no filter_id");
        filter_id_ = it->get<std::string>();
    }
    // The direct rooms of earlier runs: an incremental /sync only sends account data changes.
    const Answer direct =
        exchange("GET", user_path() + "/account_data/m.direct", {}, options_.request_timeout);
    if (direct.status == 404 && direct.errcode == "M_NOT_FOUND") {
        direct_.clear();
    } else if (direct.ok()) {
        direct_.clear();
        for (const auto& [user, rooms] : direct.body.items())
            if (rooms.is_array())
                for (const json& room : rooms)
                    if (room.is_string())
                        direct_[user].push_back(room.get<std::string>());
    } else {
        call("GET", user_path() + "/account_data/m.direct"); // throws the right kind
    }
    set_up_ = true;
}

void MatrixPlatform::save_direct() {
    json content = json::object();
    for (const auto& [user, rooms] : direct_)
        content[user] = rooms;
    call("PUT", user_path() + "/account_data/m.direct", dump(content));
}

void MatrixPlatform::follow_invites(const json& invites) {
    for (const auto& [room_id, room] : invites.items()) {
        // The bot's own membership event names who invited it, and whether as a direct room.
        std::string inviter;
        bool is_direct = false;
        for (const json& event : list_of(object_of(room, "invite_state"), "events")) {
            if (text_of(event, "type") != "m.room.member" ||
                text_of(event, "state_key") != options_.user_id)
                continue;
            inviter = text_of(event, "sender");
            is_direct = flag_of(object_of(event, "content"), "is_direct");
        }
        std::string server = server_of(room_id);
        if (server.empty())
            server = server_of(inviter);
        const bool allowed = options_.join_any ||
                             std::find(options_.join_servers.begin(), options_.join_servers.end(),
                                       server) != options_.join_servers.end();
        if (!allowed) {
            log::info("matrix_invite_ignored",
                      {{"platform", "matrix"}, {"room", room_id}, {"server", server}});
            continue;
        }
        const Answer answer =
            exchange("POST", std::string(client_api) + "/rooms/" + segment(room_id) + "/join", "{}",
                     options_.request_timeout);
        if (!answer.ok()) {
            if (answer.status == 429 || answer.status >= 500 || !answer.api ||
                answer.token_refused())
                call("POST", std::string(client_api) + "/rooms/" + segment(room_id) + "/join",
                     "{}"); // throws the right kind: the whole batch comes again
            log::warning(
                "matrix_join_refused",
                {{"platform", "matrix"}, {"room", room_id}, {"detail", scrub(answer.summary())}});
            continue;
        }
        log::info("matrix_room_joined",
                  {{"platform", "matrix"}, {"room", room_id}, {"direct", is_direct}});
        if (is_direct && inviter.starts_with('@')) {
            auto& rooms = direct_[inviter];
            if (std::find(rooms.begin(), rooms.end(), room_id) == rooms.end()) {
                rooms.push_back(room_id);
                save_direct();
            }
        }
    }
}

void MatrixPlatform::tell_encrypted(const std::string& room_id) {
    if (told_encrypted_.contains(room_id))
        return;
    const json content = {
        {"msgtype", "m.notice"},
        {"body", "This room is end-to-end encrypted, and I cannot read encrypted messages, so I "
                 "cannot play here. Invite me to a room without encryption to play."},
        {"m.mentions", json::object()}};
    // The transaction id names the room: a repeat after a restart is the same message.
    const Delivery d =
        put_event(room_id, matrix_text::txn_id("gp-encrypted-" + room_id), dump(content), room_id);
    if (d.status == Delivery::Status::Sent || d.status == Delivery::Status::Failed)
        told_encrypted_.insert(room_id);
    log::info("matrix_encrypted_room",
              {{"platform", "matrix"}, {"room", room_id}, {"told", d.detail.empty()}});
}

bool MatrixPlatform::resolve_short_names(Post& post, std::optional<std::vector<Mention>>& members) {
    const auto names = matrix_text::short_names_in(post.text);
    if (names.empty())
        return true;
    if (!members) {
        const Answer answer = call("GET", std::string(client_api) + "/rooms/" +
                                              segment(post.channel) + "/joined_members");
        members.emplace();
        const json joined = object_of(answer.body, "joined");
        if (joined.is_object())
            for (const auto& [user, profile] : joined.items()) {
                if (user == options_.user_id || !user.starts_with('@'))
                    continue;
                const json name = field(profile, "display_name");
                members->push_back({user.substr(1), user,
                                    name.is_string()
                                        ? matrix_text::display_name(name.get<std::string>(), 128)
                                        : std::string()});
            }
    }
    const auto lower = [](std::string text) {
        for (char& c : text)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return text;
    };
    // From the last to the first, so that each replacement leaves the earlier positions be.
    for (auto it = names.rbegin(); it != names.rend(); ++it) {
        const std::string wanted = lower(it->name);
        std::vector<const Mention*> found;
        for (const Mention& m : *members)
            if (lower(m.handle.substr(0, m.handle.find(':'))) == wanted || lower(m.name) == wanted)
                found.push_back(&m);
        if (found.size() == 1) {
            post.text.replace(it->at, it->name.size() + 1, found[0]->user_id);
            post.mentions.push_back(*found[0]);
            continue;
        }
        if (found.size() < 2 || !post.text.starts_with(options_.command_prefix))
            continue;
        std::string choices;
        for (std::size_t k = 0; k < found.size() && k < 5; ++k)
            choices += (k == 0                            ? ""
                        : k + 1 == found.size() || k == 4 ? " or "
                                                          : ", ") +
                       found[k]->user_id;
        const json content = {
            {"msgtype", "m.text"},
            {"body", "@" + it->name + " could be " + choices + ": write the full id, for example " +
                         found[0]->user_id + ". Nothing was done."},
            {"m.mentions", {{"user_ids", {post.author_id}}}},
            {"m.relates_to", {{"m.in_reply_to", {{"event_id", post.message_id}}}}}};
        // The transaction id names the post: asking again after a restart is the same message.
        put_event(post.channel, matrix_text::txn_id("gp-ask-" + post.message_id), dump(content),
                  post.channel);
        return false;
    }
    return true;
}

std::vector<Post> MatrixPlatform::poll(const std::string& cursor, std::chrono::seconds timeout) {
    log::set_thread_platform(name());
    if (const auto now = options_.clock(); now < poll_not_before_)
        throw PlatformError(PlatformError::Kind::RateLimited,
                            "sync: waiting out the homeserver's retry_after_ms",
                            std::chrono::ceil<std::chrono::milliseconds>(poll_not_before_ - now));
    set_up();
    const std::string since = idle_ && idle_->first == cursor ? idle_->second : cursor;
    const Answer answer = sync(since, timeout);
    const json& body = answer.body;
    const auto next_it = body.find("next_batch");
    if (next_it == body.end() || !next_it->is_string() || next_it->get<std::string>().empty())
        throw PlatformError(PlatformError::Kind::Transient, "sync: no next_batch in the answer");
    const std::string next = next_it->get<std::string>();

    for (const json& event : list_of(object_of(body, "account_data"), "events")) {
        if (text_of(event, "type") != "m.direct")
            continue;
        direct_.clear(); // changed by another client of the account, or by this one
        for (const auto& [user, rooms] : object_of(event, "content").items())
            for (const json& room : rooms.is_array() ? rooms : json::array())
                if (room.is_string())
                    direct_[user].push_back(room.get<std::string>());
    }
    const json& rooms = object_of(body, "rooms");
    follow_invites(object_of(rooms, "invite"));

    std::vector<Post> posts;
    for (const auto& [room_id, room] : object_of(rooms, "join").items())
        if (room.is_object())
            room_posts(room_id, room, since, posts);

    if (since.empty()) {
        // The first start: history is not replayed; "now" is recorded as the cursor.
        Post start;
        start.platform = "matrix";
        start.message_id = "first-sync:" + next;
        start.cursor = next;
        idle_.reset();
        return {start};
    }
    if (posts.empty()) {
        idle_ = std::make_pair(cursor, next);
        return {};
    }
    idle_.reset();
    for (Post& post : posts)
        post.cursor = since;
    posts.back().cursor = next;
    return posts;
}

MatrixPlatform::Answer MatrixPlatform::sync(const std::string& since,
                                            std::chrono::seconds timeout) {
    using Kind = PlatformError::Kind;
    std::string path = std::string(client_api) + "/sync?filter=" + segment(filter_id_) +
                       "&timeout=" + std::to_string(timeout.count() * 1000);
    if (!since.empty())
        path += "&since=" + segment(since);
    Answer answer = exchange(
        "GET", path, {},
        std::chrono::duration_cast<std::chrono::milliseconds>(timeout + options_.request_timeout));
    if (answer.ok())
        return answer;
    // The same mapping as any call, without sending the long poll twice.
    const std::string message = scrub("sync: " + answer.summary());
    if (!answer.api)
        throw PlatformError(Kind::Transient, scrub("sync: HTTP " + std::to_string(answer.status) +
                                                   " without a Matrix answer"));
    if (answer.status == 429 || answer.errcode == "M_LIMIT_EXCEEDED") {
        poll_not_before_ = options_.clock() + answer.retry_after;
        throw PlatformError(Kind::RateLimited, message, answer.retry_after);
    }
    throw PlatformError(answer.token_refused() ? Kind::Unauthorized : Kind::Transient, message);
}

void MatrixPlatform::room_posts(const std::string& room_id, const json& room,
                                const std::string& since, std::vector<Post>& posts) {
    std::map<std::string, std::string> names; // display names seen in this batch
    bool encrypted = false;
    const auto read_state = [&](const json& event) {
        if (!event.is_object())
            return;
        const std::string type = text_of(event, "type");
        if (type == "m.room.encryption")
            encrypted = true;
        const std::string user = text_of(event, "state_key");
        if (type != "m.room.member" || user.empty())
            return;
        const json& content = object_of(event, "content");
        if (const json& name = field(content, "displayname"); name.is_string())
            names[user] = name.get<std::string>();
        const std::string membership = text_of(content, "membership");
        if (membership != "join")
            if (auto it = joined_direct_.find(user);
                it != joined_direct_.end() && it->second == room_id)
                joined_direct_.erase(it); // left the direct room: look again next time
    };
    for (const json& event : list_of(object_of(room, "state"), "events"))
        read_state(event);
    const json& timeline = object_of(room, "timeline");
    json events = list_of(timeline, "events");
    // A gap: more happened since `since` than the timeline holds.
    const std::string prev_batch = text_of(timeline, "prev_batch");
    if (flag_of(timeline, "limited") && !since.empty() && !prev_batch.empty())
        events = with_gap_filled(room_id, prev_batch, since, std::move(events));

    std::optional<std::vector<Mention>> members; // asked once per room and poll, if needed
    for (const json& event : events) {
        read_state(event);
        DecodedEvent decoded = matrix_decode::decode_event_value(event, room_id, options_.user_id);
        if (!decoded.problem.empty())
            log::warning(
                "matrix_event_skipped",
                {{"platform", "matrix"}, {"room", room_id}, {"problem", scrub(decoded.problem)}});
        if (!decoded.post)
            continue;
        Post post = std::move(*decoded.post);
        if (const auto name = names.find(post.author_id); name != names.end())
            post.author_name = matrix_text::display_name(name->second, 128);
        post.direct = !is_group(room_id);
        if (!resolve_short_names(post, members)) {
            // Answered with the choices: only the cursor moves past it.
            post.author_id.clear();
            post.text.clear();
            post.mentions.clear();
        }
        posts.push_back(std::move(post));
    }
    if (encrypted && !since.empty())
        tell_encrypted(room_id);
}

json MatrixPlatform::with_gap_filled(const std::string& room_id, const std::string& prev_batch,
                                     const std::string& since, json events) {
    // Pages back from the timeline's start to `since`, so nothing posted meanwhile is lost.
    json earlier = json::array();
    std::string from = prev_batch;
    const json filter = {{"types", {"m.room.message", "m.room.member", "m.room.encryption"}},
                         {"lazy_load_members", true}};
    for (int page = 0; page < max_gap_pages && !from.empty(); ++page) {
        const Answer chunk = call(
            "GET", std::string(client_api) + "/rooms/" + segment(room_id) +
                       "/messages?dir=b&from=" + segment(from) + "&to=" + segment(since) +
                       "&limit=" + std::to_string(page_limit) + "&filter=" + segment(dump(filter)));
        const json got = list_of(chunk.body, "chunk");
        if (got.is_array())
            for (const json& event : got)
                earlier.push_back(event);
        const auto end = chunk.body.find("end");
        from = end != chunk.body.end() && end->is_string() && got.is_array() && !got.empty()
                   ? end->get<std::string>()
                   : std::string();
        if (page + 1 == max_gap_pages && !from.empty())
            log::warning("matrix_gap_cut",
                         {{"platform", "matrix"}, {"room", room_id}, {"pages", page + 1}});
    }
    std::reverse(earlier.begin(), earlier.end()); // oldest first, as the timeline
    log::info("matrix_gap_filled", {{"platform", "matrix"},
                                    {"room", room_id},
                                    {"events", static_cast<std::int64_t>(earlier.size())}});
    for (const json& event : events)
        earlier.push_back(event);
    return earlier;
}

Delivery MatrixPlatform::failed_delivery(const Answer& answer, const std::string& destination,
                                         const std::string& what) {
    if (!answer.api)
        return {
            Delivery::Status::Transient,
            {},
            scrub(what + ": HTTP " + std::to_string(answer.status) + " without a Matrix answer")};
    const std::string detail = scrub(what + ": " + answer.summary());
    if (answer.status == 429 || answer.errcode == "M_LIMIT_EXCEEDED") {
        const auto now = options_.clock();
        std::erase_if(not_before_, [&](const auto& entry) { return entry.second <= now; });
        not_before_[destination] = now + answer.retry_after;
        return {Delivery::Status::RetryAfter, whole_seconds(answer.retry_after), detail};
    }
    // A refused token is the operator's to fix: the replies wait rather than go lost.
    if (answer.status >= 500 || answer.token_refused())
        return {Delivery::Status::Transient, {}, detail};
    return {Delivery::Status::Failed, {}, detail};
}

Delivery MatrixPlatform::put_event(const std::string& room_id, const std::string& txn,
                                   const std::string& content, const std::string& destination) {
    const std::string path = std::string(client_api) + "/rooms/" + segment(room_id) +
                             "/send/m.room.message/" + segment(txn);
    try {
        const Answer answer = exchange("PUT", path, content, options_.request_timeout);
        if (answer.ok())
            return {Delivery::Status::Sent, {}, {}};
        return failed_delivery(answer, destination, "send");
    } catch (const PlatformError& e) {
        if (e.kind() == PlatformError::Kind::Cancelled)
            throw;
        return {Delivery::Status::Transient, {}, e.what()};
    }
}

std::pair<std::optional<std::string>, Delivery>
MatrixPlatform::direct_room(const std::string& user) {
    using Status = Delivery::Status;
    if (const auto known = joined_direct_.find(user); known != joined_direct_.end())
        return {known->second, {}};
    bool invited = false;
    for (const std::string& room : direct_[user]) {
        const Answer member = exchange("GET",
                                       std::string(client_api) + "/rooms/" + segment(room) +
                                           "/state/m.room.member/" + segment(user),
                                       {}, options_.request_timeout);
        if (!member.ok()) {
            if (member.status == 404 || member.status == 403)
                continue; // never a member, or the bot is no longer in that room
            return {std::nullopt, failed_delivery(member, user, "membership")};
        }
        const std::string membership = text_of(member.body, "membership");
        if (membership == "join") {
            joined_direct_[user] = room;
            return {room, {}};
        }
        invited = invited || membership == "invite";
    }
    if (invited)
        return {std::nullopt, {Status::Blocked, {}, "the player has not joined the direct room"}};

    // No direct room yet (or every one was left): make one and remember it in m.direct.
    const json request = {{"is_direct", true},
                          {"invite", {user}},
                          {"preset", "trusted_private_chat"},
                          {"name", "ghostpost"}};
    const Answer created = exchange("POST", std::string(client_api) + "/createRoom", dump(request),
                                    options_.request_timeout);
    if (!created.ok())
        return {std::nullopt, failed_delivery(created, user, "createRoom")};
    const std::string room = text_of(created.body, "room_id");
    if (room.empty())
        return {std::nullopt, {Status::Transient, {}, "createRoom: no room_id"}};
    direct_[user].push_back(room);
    try {
        save_direct();
    } catch (const PlatformError& e) {
        if (e.kind() == PlatformError::Kind::Cancelled)
            throw;
        log::warning("matrix_direct_not_saved",
                     {{"platform", "matrix"}, {"user", user}, {"error", e.what()}});
    }
    log::info("matrix_direct_room_created",
              {{"platform", "matrix"}, {"user", user}, {"room", room}});
    const Answer member = exchange("GET",
                                   std::string(client_api) + "/rooms/" + segment(room) +
                                       "/state/m.room.member/" + segment(user),
                                   {}, options_.request_timeout);
    if (member.ok() && text_of(member.body, "membership") == "join") {
        joined_direct_[user] = room;
        return {room, {}};
    }
    return {std::nullopt, {Status::Blocked, {}, "the player has not joined the direct room yet"}};
}

Delivery MatrixPlatform::send(const Reply& reply) {
    log::set_thread_platform(name());
    if (const auto gate = not_before_.find(reply.destination); gate != not_before_.end()) {
        if (const auto now = options_.clock(); now < gate->second)
            return {Delivery::Status::RetryAfter,
                    whole_seconds(std::chrono::ceil<std::chrono::milliseconds>(gate->second - now)),
                    "waiting out the homeserver's retry_after_ms"};
    }
    try {
        set_up();
    } catch (const PlatformError& e) {
        if (e.kind() == PlatformError::Kind::Cancelled)
            throw;
        return {Delivery::Status::Transient, {}, e.what()};
    }
    std::string room = reply.destination;
    if (reply.to == Reply::To::User) {
        try {
            auto [found, why] = direct_room(reply.destination);
            if (!found)
                return why;
            room = *found;
        } catch (const PlatformError& e) {
            if (e.kind() == PlatformError::Kind::Cancelled)
                throw;
            return {Delivery::Status::Transient, {}, e.what()};
        }
    }
    // Every attempt at this reply uses the same transaction ids: the homeserver answers a
    // repeat with the event it already made.
    const std::string key = matrix_text::txn_id(
        "gp-" + (reply.idempotency_key.empty()
                     ? std::to_string(std::hash<std::string>{}(reply.destination + reply.text))
                     : reply.idempotency_key));
    json relates;
    if (reply.to == Reply::To::Channel && reply.reply_to.starts_with('$'))
        relates = {{"m.in_reply_to", {{"event_id", reply.reply_to}}}};

    if (!reply.text.empty() || !reply.code.empty()) {
        json content = {{"msgtype", "m.text"}};
        std::string body = reply.text;
        if (!reply.code.empty())
            body += (body.empty() ? "" : "\n") + reply.code;
        content["body"] = body;
        std::vector<std::string> ids = matrix_text::user_ids_in(reply.text);
        if (!reply.code.empty() || !ids.empty()) {
            std::string html = matrix_text::html_with_pills(reply.text);
            if (!reply.code.empty())
                html += "<pre><code>" + matrix_text::escape_html(reply.code) + "</code></pre>";
            content["format"] = "org.matrix.custom.html";
            content["formatted_body"] = html;
        }
        content["m.mentions"] = ids.empty() ? json::object() : json{{"user_ids", ids}};
        if (!relates.is_null())
            content["m.relates_to"] = relates;
        const Delivery d = put_event(room, key + ".text", dump(content), reply.destination);
        if (d.status != Delivery::Status::Sent)
            return d;
        relates = nullptr;
    }
    if (!reply.png.empty()) {
        const std::string bytes(reply.png.begin(), reply.png.end());
        std::string uri;
        try {
            const Answer upload = exchange("POST", "/_matrix/media/v3/upload?filename=board.png",
                                           bytes, options_.request_timeout, "image/png");
            if (!upload.ok())
                return failed_delivery(upload, reply.destination, "upload");
            uri = text_of(upload.body, "content_uri");
        } catch (const PlatformError& e) {
            if (e.kind() == PlatformError::Kind::Cancelled)
                throw;
            return {Delivery::Status::Transient, {}, e.what()};
        }
        if (!uri.starts_with("mxc://"))
            return {Delivery::Status::Transient, {}, "upload: no content_uri in the answer"};
        const auto [width, height] = png_size(reply.png);
        json info = {{"mimetype", "image/png"}, {"size", reply.png.size()}};
        if (width > 0) {
            info["w"] = width;
            info["h"] = height;
        }
        json content = {{"msgtype", "m.image"},
                        {"body", "board.png"},
                        {"url", uri},
                        {"info", info},
                        {"m.mentions", json::object()}};
        if (!relates.is_null())
            content["m.relates_to"] = relates;
        const Delivery d = put_event(room, key + ".image", dump(content), reply.destination);
        if (d.status != Delivery::Status::Sent)
            return d;
    }
    return {Delivery::Status::Sent, {}, {}};
}

} // namespace ghostpost::bot
