// The Socket Mode connection, private to the adapter. It runs on a thread of its own: it
// acknowledges every envelope the moment it arrives (Slack wants that within 3 s, and the
// catch-up after a restart covers an envelope acknowledged but not handled), hands every frame
// to a callback, and connects again whenever a connection ends. Each connection needs a fresh
// URL from apps.connections.open, which the poll thread asks for (needs_url(), give_url()), so
// that every Web API call stays on the lane's one HTTP client.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace ghostpost::bot::slack {

struct SocketOptions {
    // Called on the socket thread with each frame's text, and with an empty string when a
    // connection said hello (a new connection: what was posted before it is caught up).
    std::function<void(std::string)> deliver;
    // The log's redaction of the tokens; used for every line the socket writes.
    std::function<std::string(std::string_view)> scrub;
};

class SocketMode {
public:
    explicit SocketMode(SocketOptions options);
    ~SocketMode(); // stops and joins
    SocketMode(const SocketMode&) = delete;
    SocketMode& operator=(const SocketMode&) = delete;

    void start();
    void stop();
    // Whether a connection is open and said hello.
    bool connected() const;
    // Whether the socket waits for a URL to connect to.
    bool needs_url() const;
    // The URL of the next connection (ws:// or wss://), used once.
    void give_url(std::string url);

    struct State; // shared with the socket thread

private:
    std::shared_ptr<State> state_;
};

} // namespace ghostpost::bot::slack
