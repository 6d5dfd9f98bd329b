// Slack as a Platform: events come in over Socket Mode (a WebSocket on a thread of its own, so
// the daemon needs no public address), replies go out through the Web API. Thin by design:
// JSON and HTTP mapping only.
#pragma once

#include "ghostpost/http/http.h"
#include "ghostpost/platform/platform.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace ghostpost::bot {

namespace slack {
class SocketMode;
} // namespace slack

struct SlackOptions {
    std::string api_url = "https://slack.com/api";
    std::string bot_token;            // xoxb-: the Web API
    std::string app_token;            // xapp-: apps.connections.open only
    std::string command_prefix = "!"; // what "/ghostpost move e4" becomes: "!move e4"
    std::chrono::seconds request_timeout{15};
    // chat.postMessage allows about one message a second per channel, with short bursts.
    Pacing pacing{std::chrono::milliseconds(1000), 50, std::chrono::seconds(300),
                  std::chrono::seconds(30)};
    // True once the daemon is stopping: a poll waiting for Socket Mode returns at once.
    std::function<bool()> cancelled = [] { return false; };
    // The clock of rate limits; a test's fake clock in place of the steady clock.
    std::function<std::chrono::steady_clock::time_point()> clock = std::chrono::steady_clock::now;
};

// Who the app is in the workspace (auth.test with the bot token): its own messages are not posts.
struct SlackIdentity {
    std::string user_id; // the bot user, U...
    std::string bot_id;  // B...
};

// A post's message id is the message's ts; a reply in a thread carries its thread's ts after an
// '@' ("1700000001.000200@1700000000.000100"), so that an answer goes into the same thread even
// after a restart. A slash command or a button press has no ts of its own: "c<trigger id>" and
// "a<action ts>@<thread>".
// The thread a reply to `message_id` goes into: the thread it was in, else the message itself
// when it is a ts (its answers start a thread), else none.
std::string slack_thread_of(const std::string& message_id);

// One Socket Mode frame, read. Pure; never throws.
struct SlackFrame {
    enum class Kind : std::uint8_t { Hello, Disconnect, Envelope, Other };
    Kind kind = Kind::Other;
    std::string envelope_id;  // for an envelope: what its acknowledgement names
    std::string reason;       // of a disconnect: refresh_requested, link_disabled, warning...
    std::optional<Post> post; // what an envelope means for the service, if anything
    // Of a slash command or a press: where an answer for its author alone goes (Slack's
    // response_url; it is a credential, never logged). Empty when none.
    std::string response_url;
    std::string problem; // why a malformed frame was skipped; empty otherwise
};
SlackFrame decode_slack_frame(std::string_view frame_json, const SlackIdentity& me,
                              const std::string& command_prefix);

// One message object of a channel (an event's, or one of conversations.history/replies): Slack's
// "<@U...>" mentions become "@U..." (a Slack user id is the account's handle here: display names
// are not unique), a leading mention of the app is dropped, &amp; &lt; &gt; read back. Edits,
// deletions, joins, bots' messages and the app's own give no post. `direct`: a DM channel.
struct SlackMessage {
    std::optional<Post> post;
    std::string problem;
};
SlackMessage decode_slack_message(std::string_view message_json, const std::string& channel,
                                  bool direct, const SlackIdentity& me);

// Whether ts `a` is older than ts `b` ("seconds.micros", both as Slack writes them).
bool slack_ts_less(const std::string& a, const std::string& b);

// The cursor of the Slack platform, as a JSON object: for each channel the last handled ts of its
// own messages ("C1": ts) and of each thread's replies ("C1@thread ts": ts). The newest 500 kept.
using SlackCursor = std::map<std::string, std::string>;
SlackCursor parse_slack_cursor(const std::string& text);
std::string format_slack_cursor(const SlackCursor& cursor);

class SlackPlatform final : public Platform {
public:
    // `http` must outlive the platform. Socket Mode starts on the first poll.
    SlackPlatform(HttpClient& http, SlackOptions options);
    ~SlackPlatform() override;
    SlackPlatform(const SlackPlatform&) = delete;
    SlackPlatform& operator=(const SlackPlatform&) = delete;

    // auth.test with the bot token: the bot user's name, and its ids for the decoder.
    // Errors: PlatformError: Unauthorized (invalid_auth, token_revoked, ...), RateLimited,
    // Cancelled, Transient.
    std::string identify();

    std::string name() const override { return "slack"; }

    // The events Socket Mode delivered, waiting up to `timeout` for one; a new socket URL from
    // apps.connections.open whenever the socket needs one. After each new connection every
    // channel and thread of the cursor is first caught up (conversations.history and
    // conversations.replies from its last handled ts), since Socket Mode replays nothing.
    // A refused token returns no posts and makes finished() true.
    // Errors: PlatformError: RateLimited, Cancelled, Transient.
    std::vector<Post> poll(const std::string& cursor, std::chrono::seconds timeout) override;

    // chat.postMessage (for a user, the DM from conversations.open first): mrkdwn text with
    // Slack's three characters escaped, the code in a code block, a reply in the thread of the
    // post it answers, longer replies in several messages, buttons as Block Kit; a PNG is
    // uploaded with the first message as its comment. A user the app may not message is Blocked.
    // Never throws for an answer from Slack. Errors: PlatformError of kind Cancelled only.
    Delivery send(const Reply& reply) override;

    Pacing pacing() const override { return options_.pacing; }
    // Every channel but a DM (D...) is paced as a group.
    bool is_group(const std::string& channel) const override;
    bool finished() const override;
    std::string refused() const override;
    std::string trouble() const override;

private:
    using Instant = std::chrono::steady_clock::time_point;
    struct Answer; // one Web API answer, read
    // One Web API method with the bot token (or the app token), form-encoded `fields`; GET puts
    // them in the query. Errors: HttpError.
    Answer call(const std::string& method,
                const std::vector<std::pair<std::string, std::string>>& fields, bool get = false,
                bool app_token = false);
    void refuse(const std::string& why);
    std::string scrub(std::string_view text) const;
    // Gives the socket a fresh URL when it asks for one. Errors: as poll's.
    void open_connection();
    // The posts of every channel and thread of `cursor` that this catch-up has not read yet;
    // `done` once all are read. A rate limit or an outage midway keeps what was read (the rest
    // is read at the next poll), so that a long catch-up under Slack's per-method limits
    // advances. Errors: as poll's, when nothing was read.
    struct CatchUp {
        std::vector<Post> posts;
        bool done = false;
    };
    CatchUp catch_up(const SlackCursor& cursor);
    void start_socket(); // the Socket Mode connection's thread, once
    // Until a frame or a fatal error arrives, or `timeout` passed. Errors: PlatformError
    // Cancelled.
    void wait_for_frames(std::chrono::seconds timeout);
    // One Socket Mode frame read: its post, if any, taken into `posts`.
    void read_frame(const std::string& frame, SlackCursor& running, std::vector<Post>& posts);
    // `post` into `posts`, unless it was seen already, with the cursor `running` moved past it.
    void take(Post post, SlackCursor& running, std::vector<Post>& posts);
    // The messages of `channel` (thread: of that thread) after `oldest`, oldest first.
    // Errors: as poll's.
    std::vector<Post> read_since(const std::string& channel, const std::string& thread,
                                 const std::string& oldest);
    // `metadata`: Slack's message metadata as JSON, empty for none. `broadcast`: a reply in
    // `thread` shown in the channel too.
    Delivery post_message(const std::string& channel, const std::string& text,
                          const std::string& thread, const std::vector<Button>& buttons,
                          const std::string& metadata, bool broadcast);
    // The numbers of the pieces of reply `key` that the app posted in `channel` (`thread`)
    // already, by their metadata. Sets `trouble` when the look-up failed (a 429, an outage).
    std::set<std::size_t> posted_pieces(const std::string& channel, const std::string& thread,
                                        const std::string& key, std::optional<Delivery>& trouble);
    // The board image by the upload flow that replaced files.upload: an upload URL, the bytes,
    // then the file shared into the channel (and thread) with `comment` as its message.
    Delivery upload_png(const std::string& channel, const std::string& thread,
                        const std::string& comment, const std::vector<std::uint8_t>& png);
    Delivery failed(const Answer& answer, const std::string& what, bool to_user);

    HttpClient& http_;
    SlackOptions options_;
    SlackIdentity me_;
    std::unique_ptr<slack::SocketMode> socket_;
    mutable std::optional<Instant> socket_down_since_;

    mutable std::mutex mutex_; // guards what the socket thread touches
    std::condition_variable arrived_;
    std::deque<std::string> frames_; // "\x01" for a new connection (catch up), else a frame
    std::string fatal_;

    std::map<std::string, Instant> not_before_; // per method (and channel): a 429's Retry-After
    std::map<std::string, std::string> dm_channels_; // user id -> DM channel id
    // "channel/user" -> the thread of that user's latest post in the channel, when it was in
    // one: where a reply that answers no post but names that player goes (the outbox's "open
    // your DMs" notice, a clock's verdict), so that a game's replies stay in its thread.
    std::map<std::string, std::string> user_threads_;
    std::set<std::string> recent_; // "channel/ts" handled lately (app_mention)
    std::deque<std::string> recent_order_;
    std::set<std::string> caught_keys_; // cursor keys read by the catch-up under way
    // A reply of several messages under way: the numbers of its pieces known to be posted,
    // by idempotency key. Absent: unknown (a restart, a call without answer), so looked up.
    std::map<std::string, std::set<std::size_t>> pieces_sent_;
    // Post id of a slash command or a press -> its response_url, while Slack takes answers
    // there (five, within thirty minutes). Not kept over a restart: answers then go to the
    // channel.
    struct Responder {
        std::string url;
        int uses_left = 5;
        Instant until;
    };
    std::map<std::string, Responder> responders_;
    // The reply for its author alone through `responder`; nullopt when the address no longer
    // takes it (the reply then goes to the channel).
    std::optional<Delivery> respond(Responder& responder, const std::vector<std::string>& pieces,
                                    const std::vector<Button>& buttons);
};

} // namespace ghostpost::bot
