// The boundary between the service and a chat platform. Adapters are thin: they turn the
// platform's updates into Posts and deliver Replies; every game decision is the service's.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ghostpost::bot {

// One message from a platform, as the service sees it.
struct Post {
    std::string platform;    // "console", "telegram", ...
    std::string channel;     // chat, room or topic id; for a direct message, the DM channel
    std::string message_id;  // unique within (platform, channel); the dedup key
    std::string author_id;   // the platform's stable user id
    std::string author_name; // display name or handle, for replies ("@alice")
    std::string text;
    bool direct = false;     // a direct message to the bot
    std::string cursor;      // where polling resumes after this post (e.g. update_id + 1)
};

// One message to send. Replies are queued in the outbox inside the post's transaction and
// delivered afterwards, at least once.
struct Reply {
    enum class To : std::uint8_t { Channel, User };
    To to = To::Channel;
    std::string platform;
    std::string destination;       // channel id, or user id for To::User
    std::string text;
    std::string code;              // a monospaced block (a text board, a PGN) shown after the
                                   // text, in a code block where the platform has one; may be empty
    std::vector<std::uint8_t> png; // an image of the board, empty when none
    std::string reply_to;          // message id this answers, empty when none
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
    std::string detail; // for the log; never contains a secret
};

class Platform {
public:
    virtual ~Platform() = default;
    virtual std::string name() const = 0;
    // Posts after `cursor` (empty: from the start), waiting up to `timeout` for some to arrive.
    // Network failures throw; the poll loop backs off and retries.
    virtual std::vector<Post> poll(const std::string& cursor, std::chrono::seconds timeout) = 0;
    virtual Delivery send(const Reply& reply) = 0;
};

} // namespace ghostpost::bot
