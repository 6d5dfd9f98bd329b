// The Socket Mode connection, private to the adapter. It runs on a thread of its own: it
// acknowledges every envelope the moment it arrives, on the connection it came by (Slack wants
// that within 3 s, and the catch-up after a restart covers an envelope acknowledged but not
// handled), hands every frame to a callback once (an envelope that came on two connections
// too), and connects again whenever a connection ends. A disconnect (refresh_requested) opens
// the new connection first: the old one reads on until the new one said hello, so no moment
// is without a connection. Each connection needs a fresh URL from apps.connections.open, which
// the poll thread asks for (needs_url(), give_url()), so that every Web API call stays on the
// lane's one HTTP client.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace ghostpost::bot::slack {

struct SocketOptions {
    // Called on the socket thread with each frame's text, and with an empty string when a
    // connection said hello after a moment without one (what was posted meanwhile is caught
    // up); a connection that replaced one still open has nothing to catch up.
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
    // Whether a connection is open and said hello (a retiring one counts: it still receives).
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
