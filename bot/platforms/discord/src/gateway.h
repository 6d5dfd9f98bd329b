// The Discord Gateway connection (API v10, JSON encoding), private to the adapter. It runs on a
// thread of its own: HELLO, heartbeats, IDENTIFY or RESUME, and the events the adapter wants
// handed to a callback. Boost.Beast speaks the WebSocket protocol (wss:// through OpenSSL).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

namespace ghostpost::bot::discord {

// GUILDS | GUILD_MESSAGES | DIRECT_MESSAGES, and MESSAGE_CONTENT (privileged) when asked.
constexpr std::int64_t intents(bool message_content) {
    return (1 << 0) | (1 << 9) | (1 << 12) | (message_content ? (1 << 15) : 0);
}

struct GatewayEvent {
    enum class Kind : std::uint8_t {
        Ready,   // a fresh session began (IDENTIFY, not RESUME): what was posted before is missed
        Message, // a MESSAGE_CREATE; `data` is its "d"
        Interaction, // an INTERACTION_CREATE (a slash command); `data` is its "d"
        Guild,       // a GUILD_CREATE (after READY, one per guild of the shard); `data` its "d"
        Fatal, // the Gateway refused the bot for good (close 4004, 4010-4014): `problem` says why
    };
    Kind kind = Kind::Message;
    nlohmann::json data;
    std::string problem;
};

struct GatewayOptions {
    std::string url; // ws:// or wss://, as GET /gateway/bot gives it; "?v=10&encoding=json" added
    std::string token;
    bool message_content = true; // ask for the Message Content intent
    // How many IDENTIFYs are left and when the count starts again (session_start_limit).
    int identify_remaining = 1000;
    std::chrono::milliseconds identify_reset_after{0};
    // IDENTIFY's "shard": [shard, shards]; left out for one shard of one.
    int shard = 0;
    int shards = 1;
    // The moment this shard may identify, reserved by the call (Discord's buckets of
    // max_concurrency shards); unset: at once.
    std::function<std::chrono::steady_clock::time_point()> identify_slot;
    std::function<void(GatewayEvent)> deliver; // called on the gateway thread
    // The log's redaction of the token; used for every line the gateway writes.
    std::function<std::string(std::string_view)> scrub;
};

class Gateway {
public:
    explicit Gateway(GatewayOptions options);
    ~Gateway(); // stops and joins
    Gateway(const Gateway&) = delete;
    Gateway& operator=(const Gateway&) = delete;

    void start();
    // Ends the connection at once (no close frame: the session stays resumable) and joins.
    void stop();
    // Whether a session is live now (READY or RESUMED, and its connection not ended since).
    bool connected() const;

    struct State; // shared with the gateway thread

private:
    std::shared_ptr<State> state_;
};

// Close codes after which reconnecting cannot help: the operator must act.
// Returns the operator's explanation, or empty for a code that allows reconnecting.
std::string fatal_close_reason(int code);

} // namespace ghostpost::bot::discord
