// The Matrix client-server API as a Platform: /sync long polling in, room messages out, direct
// rooms for what one player may see. Thin by design: HTTP and JSON mapping only.
#pragma once

#include "ghostpost/http/http.h"
#include "ghostpost/platform/platform.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ghostpost::bot {

struct MatrixOptions {
    std::string homeserver_url; // "https://matrix.example.org", no trailing slash
    std::string access_token;   // sent in the Authorization header only, never in a URL
    std::string user_id;        // the bot's account, "@ghostpost:example.org"
    // Invites followed: every one (`join_any`), or those to rooms of the listed server names.
    bool join_any = true;
    std::vector<std::string> join_servers;
    std::chrono::seconds request_timeout{30};
    // What starts a command ("!"): a command that names an ambiguous "@name" is answered with
    // the choices instead of being run.
    std::string command_prefix = "!";
    Pacing pacing;
    // When a 429's retry_after_ms ends; a test's fake clock in place of the steady clock.
    std::function<std::chrono::steady_clock::time_point()> clock = std::chrono::steady_clock::now;
    // Called when the homeserver refuses the token (M_UNKNOWN_TOKEN): the operator must act,
    // so the daemon stops rather than retry forever.
    std::function<void()> token_refused;
};

// One timeline event, read. `post` is set for a text message that a person sent to a room
// (not the bot's own, not an edit, not a notice); `problem` says why an event that looked like
// a message was skipped, for the log.
struct DecodedEvent {
    std::optional<Post> post;
    std::string problem;
};

// Reads one client event of room `room_id` as /sync or /messages return it. Mentions come from
// `m.mentions` and from full user ids written in the body; a rich reply's quoted fallback is
// cut from the text. Pure; never throws, whatever the JSON holds.
DecodedEvent decode_event(std::string_view event_json, const std::string& room_id,
                          const std::string& own_user_id);

// The room (or user) id's server name: "!abc:example.org" -> "example.org"; empty when none.
std::string server_of(std::string_view id);

class MatrixPlatform final : public Platform {
public:
    // `http` must outlive the platform.
    MatrixPlatform(HttpClient& http, MatrixOptions options);

    std::string name() const override { return "matrix"; }

    // /sync from the token `cursor` (empty: the first start, which reads no history and only
    // records where "now" is). Joins the invites that auto_join allows, says once in plain words
    // that an encrypted room is not supported, fills a limited timeline back to `cursor` with
    // /rooms/{roomId}/messages. Each post's cursor is the token its batch started from, the
    // last one's the batch's next_batch, so a crash mid-batch reads the batch again and the
    // service's record of handled event ids drops what was done.
    // Errors: PlatformError: Unauthorized (M_UNKNOWN_TOKEN, 401), RateLimited (429, also when
    // called again before retry_after_ms ran out), Cancelled, Transient (the rest).
    std::vector<Post> poll(const std::string& cursor, std::chrono::seconds timeout) override;

    // PUT .../send/m.room.message/{txnId}, the txnId derived from the reply's idempotency key,
    // so a retry is deduplicated by the homeserver. A PNG is uploaded first and follows the
    // text as m.image. To::User goes to the player's direct room, created and recorded in
    // m.direct when there is none; Blocked while the player has not joined it.
    // Errors: PlatformError of kind Cancelled only.
    Delivery send(const Reply& reply) override;

    Pacing pacing() const override { return options_.pacing; }
    // Every room is a group except the direct rooms.
    bool is_group(const std::string& channel) const override;

    // The account the token belongs to (GET /account/whoami). Errors: as poll().
    std::string whoami();

    // Set once the homeserver refused the token (401, M_UNKNOWN_TOKEN, M_MISSING_TOKEN) on any
    // call, a send included: the operator must log the bot in again.
    std::string refused() const override;

private:
    using Instant = std::chrono::steady_clock::time_point;
    struct Answer; // one response, read (defined with the JSON code)
    // One request; throws PlatformError only for what never reached an answer (timeout,
    // network, cancellation). Errors: PlatformError Transient or Cancelled.
    Answer exchange(const std::string& method, const std::string& path, const std::string& body,
                    std::chrono::milliseconds timeout, const std::string& content_type = {});
    // A request whose failure fails the poll. Errors: as poll().
    Answer call(const std::string& method, const std::string& path, const std::string& body = {});
    // The long poll (GET /sync) answered with 200. Errors: as poll().
    Answer sync(const std::string& since, std::chrono::seconds timeout);
    // The posts of one joined room of a /sync answer, appended to `posts`.
    void room_posts(const std::string& room_id, const nlohmann::json& room,
                    const std::string& since, std::vector<Post>& posts);
    // `events` after those of the gap between `since` and the timeline's start (`prev_batch`),
    // paged back with /messages. Errors: as poll().
    nlohmann::json with_gap_filled(const std::string& room_id, const std::string& prev_batch,
                                   const std::string& since, nlohmann::json events);
    void set_up();      // the filter and the m.direct map, once
    void save_direct(); // PUT m.direct. Errors: as poll().
    // Joins the invites of a /sync answer that auto_join allows. Errors: as poll().
    void follow_invites(const nlohmann::json& invites);
    void tell_encrypted(const std::string& room_id);
    // "@name" written without a server, resolved through the room's joined members: one match
    // and the text names the full id, with a mention; several and nothing is guessed: a command
    // is answered with the choices and returns false (not to be run). Errors: as poll().
    bool resolve_short_names(Post& post, std::optional<std::vector<Mention>>& members);
    // The direct room where `user` has joined; nullopt with a Delivery saying why not.
    std::pair<std::optional<std::string>, Delivery> direct_room(const std::string& user);
    Delivery put_event(const std::string& room_id, const std::string& txn,
                       const std::string& content, const std::string& destination);
    Delivery failed_delivery(const Answer& answer, const std::string& destination,
                             const std::string& what);
    // `text` without the token, valid UTF-8, capped for a log line.
    std::string scrub(std::string_view text) const;
    std::string user_path() const;

    HttpClient& http_;
    MatrixOptions options_;
    bool set_up_ = false;
    std::string filter_id_;
    std::map<std::string, std::vector<std::string>> direct_; // m.direct: user -> rooms
    std::map<std::string, std::string> joined_direct_;       // user -> a room they joined
    std::set<std::string> told_encrypted_;
    // The last poll that gave no post: from which token, to which; the next poll from the same
    // stored cursor goes on from there, so an idle bot writes nothing to the database.
    std::optional<std::pair<std::string, std::string>> idle_;
    Instant poll_not_before_{};
    std::map<std::string, Instant> not_before_; // per destination, after a 429 on a send
    std::atomic<bool> token_refused_{false};
};

} // namespace ghostpost::bot
