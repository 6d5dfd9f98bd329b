// The boundary between the service and a chat platform. Adapters are thin: they turn the
// platform's updates into Posts and deliver Replies; every game decision is the service's.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ghostpost::bot {

// An "@name" in a post as the platform marked it. Identity comes from here, never from a
// display name: `user_id` when the platform names the account (a mention that links the
// account, an <@id>, a pill), otherwise only `handle`, which the platform keeps unique.
struct Mention {
    std::string handle;  // as written after '@', without it; may be empty for a text_mention
    std::string user_id; // the account's stable id; empty when the platform gave only the handle
    std::string name;    // the account's display name when the platform gave one
};

// A platform gave a channel a new id for good (a group upgraded to a larger kind): what
// the service kept under `from` now lives under `to`.
struct ChannelMove {
    std::string from;
    std::string to;
};

// One message from a platform, as the service sees it.
struct Post {
    std::string platform;          // "console", or a platform module's name
    std::string channel;           // chat, room or topic id; for a direct message, the DM channel
    std::string message_id;        // unique within (platform, channel); the dedup key
    std::string author_id;         // the platform's stable user id: who the author is
    std::string author_name;       // display name, for display only
    std::string author_handle;     // the platform's unique username without '@', empty when the
                                   // account has none; what "@name" in other posts resolves to
    bool anonymous = false;        // no person can be told apart behind it (an anonymous group
                                   // admin, a channel posting as the chat): it may not play
    std::vector<Mention> mentions; // the "@name"s of `text`, in order
    std::string text; // a channel it names reads "#<channel id>", in whatever form it was written
    bool direct = false; // a direct message to the bot
    // The language the platform says the author uses, a tag as it gives it ("de", "pt-br"), from
    // the author's account or the client they wrote with. Empty when it says nothing.
    std::string language;
    std::string cursor; // where polling resumes after this post (e.g. update_id + 1)
    // The key the cursor is stored under, in the post's transaction: the platform's name when
    // empty; a lane of its own (Platform::lane(), one shard) when the platform has several.
    std::string cursor_key;
    // A press of one of the buttons of a reply (Reply::buttons): `text` is that button's
    // command as the platform gave it back, read like anything typed and trusted no more.
    bool button = false;
    // The platform can show an answer to this post to its author alone (a slash
    // command's response URL). The service then keeps `Reply::reply_to` only on the answers
    // for the author (of a command that changes nothing: help, a question, a refusal of an
    // unknown command) and sends its answers for all without it, as for a press.
    bool private_answers = false;
    // The channel moved to a new id (a platform's notice, no person's words): the service moves
    // its games, tournaments and waiting replies along. Empty for every other post.
    std::optional<ChannelMove> moved;
};

// One line of a chat's menu of commands (the menu a platform publishes): the command's name without
// prefix, and what it does in a few words (bot::command_menu() lists ghostpost's).
struct MenuCommand {
    std::string name;
    std::string description; // in English
    // The description in the other languages its catalogs translate it to, by the catalogs'
    // names of them ("de", "pt_BR"); a platform that localizes menus maps them to its own codes.
    std::map<std::string, std::string> translations;
};

// A choice offered with a reply: a platform that has buttons shows `label` on one, and a press
// comes back as a post of the presser whose text is `command` (a command anyone could type, so
// the service checks it like any other). Platforms without buttons leave them out: the reply's
// text always says what to type.
struct Button {
    std::string label;
    std::string command;
};

// One message to send. Replies are queued in the outbox inside the post's transaction and
// delivered afterwards, at least once.
struct Reply {
    enum class To : std::uint8_t { Channel, User };
    To to = To::Channel;
    std::string platform;
    std::string destination; // channel id, or user id for To::User
    std::string text;
    std::string code;              // a monospaced block (a text board, a PGN) shown after the
                                   // text, in a code block where the platform has one; may be empty
    std::vector<std::uint8_t> png; // an image of the board, empty when none
    std::string reply_to;          // message id this answers, empty when none. When it names a
                                   // press of a button (Post::button) or a post with
                                   // Post::private_answers, the reply is an answer for its
                                   // author alone: a platform that can show it to them only
                                   // (an answer to a button press, a
                                   // response URL) does so
    // The same for every attempt to send this reply and never another's: a platform that
    // deduplicates sends (a nonce, a transaction id) derives its key from it.
    std::string idempotency_key;
    // The accounts the text names as "@handle", as the service knows them, so that a platform
    // that pings by id (an <@id>) pings exactly those players, whenever they last posted.
    // An account without a handle is named by its display name: its entry has an empty
    // handle, the user id and that name, so a platform may link the name to the account
    // (a mention that links the account) and the player is notified all the same.
    std::vector<Mention> mentions;
    // Buttons to show under the message, in order (a platform may put them in one row).
    std::vector<Button> buttons;
    // For a reply to a channel that holds games: the game it is about (the one its text names
    // as "#<id>", else the channel's newest) and what anyone may know of it, "game 12: FIDE
    // chess, alice vs bob", for a platform that names the game (an e-mail subject). 0 and
    // empty otherwise.
    std::int64_t game = 0;
    std::string topic;
    // The reply tells a game's result (mate, resignation, a draw, time, an abort): a platform
    // that keeps a game's replies in a thread shows this one in the channel too (a thread reply
    // broadcast to the channel).
    bool ends_game = false;
};

// What happened when a reply was handed to the platform.
struct Delivery {
    enum class Status : std::uint8_t {
        Sent,       // done
        RetryAfter, // rate limited: try again after `retry_after`
        Transient,  // 5xx, timeout, network: retry with backoff
        Blocked,    // the user cannot be reached privately (never opened a chat with the bot)
        Failed,     // the platform refused it for good (other 4xx)
    };
    Status status = Status::Sent;
    std::chrono::seconds retry_after{0};
    std::string detail; // for the log: redacted (no secret) and capped by the adapter
};

// How fast the outbox sender may talk to a platform.
struct Pacing {
    std::chrono::milliseconds per_chat{1000}; // between two messages to one destination
    int group_per_minute = 20;                // messages to one group in any minute
    std::chrono::seconds max_backoff{300};    // ceiling of the retry delay for failures
    std::chrono::seconds blocked_retry{30};   // a private chat not opened yet: try again after
};

// A platform call that failed, in words every platform shares. The message is for the log
// only: adapters build it without secrets (no token, no URL that carries one) and cap it.
class PlatformError : public std::runtime_error {
public:
    enum class Kind : std::uint8_t {
        Transient,    // network, timeout, 5xx, an answer that is not the API's: retry with backoff
        RateLimited,  // retry after `retry_after`, not before
        Conflict,     // another process consumes the same updates
        Unauthorized, // the credentials are refused: the operator must act
        Cancelled,    // the daemon is stopping
    };
    PlatformError(Kind kind, const std::string& message,
                  std::chrono::milliseconds retry_after = std::chrono::milliseconds(0))
        : std::runtime_error(message), kind_(kind), retry_after_(retry_after) {}
    Kind kind() const noexcept { return kind_; }
    std::chrono::milliseconds retry_after() const noexcept { return retry_after_; }

private:
    Kind kind_;
    std::chrono::milliseconds retry_after_;
};

class Platform {
public:
    virtual ~Platform() = default;
    virtual std::string name() const = 0;
    // Posts after `cursor` (empty: from the start), waiting up to `timeout` for some to arrive.
    // A malformed update is skipped (logged by the adapter), never thrown. Errors:
    // PlatformError; the poll loop backs off as its kind says.
    virtual std::vector<Post> poll(const std::string& cursor, std::chrono::seconds timeout) = 0;
    // Never throws for an answer of the platform: the outcome is a Delivery.
    // Errors: PlatformError of kind Cancelled only.
    virtual Delivery send(const Reply& reply) = 0;
    // The platform's published limits; the default suits a chat API with no stricter ones.
    virtual Pacing pacing() const { return {}; }
    // Whether a channel destination is a group (paced per minute as well as per message).
    virtual bool is_group(const std::string& channel) const {
        static_cast<void>(channel);
        return false;
    }
    // True when the platform has nothing more to give for now (the console's input ended, or
    // it stands for a restart): the poll loop returns. Chat platforms never are.
    virtual bool finished() const { return false; }
    // The key the outbox paces a destination by: the destination itself, or what the
    // platform's limits count as one chat (the topics of one group share its limits).
    virtual std::string pacing_key(const std::string& destination) const { return destination; }
    // What the moderators should hear about how the bot is set up on the platform (a bot
    // that cannot read group messages), in words for people; each is in the log already.
    // The daemon tells every moderator of the platform once per start, by direct message.
    virtual std::vector<std::string> moderator_notices() const { return {}; }
    // Why the platform refuses the bot for good (a revoked token, an intent the bot may not
    // have), in words for the operator; empty while it does not. Waiting cannot heal it: the
    // platform's lane stops, and the other platforms go on.
    virtual std::string refused() const { return {}; }
    // Why the platform is out of reach now although polls return (a connection of its own that
    // is down and being made again), in words for the operator; empty while it is fine. The
    // lane then counts as retrying in the health check.
    virtual std::string trouble() const { return {}; }

    // One platform may need several lanes (shards: a chat gateway whose one connection carries
    // only so many servers). Each lane has a key of its own for its cursor and its lease, so that
    // each is owned by one daemon at a time; the name stays the platform's (the service's
    // accounts, games and outbox know only it). The daemon sets each post's cursor_key to it.
    virtual std::string lane() const { return name(); }
    // Whether this lane delivers the platform's replies. The outbox is the platform's, not the
    // lane's: of several lanes of one platform in a daemon only one delivers, or on SQLite
    // (no claims) a reply would go out once per lane.
    virtual bool delivers() const { return true; }
    // The daemon stopped polling this lane (another daemon holds its lease now): whatever a
    // poll keeps open (a Gateway connection) is closed, so that one daemon at a time owns it.
    virtual void idle() {}
};

} // namespace ghostpost::bot
