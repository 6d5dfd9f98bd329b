// Serves a Site over HTTP (cpp-httplib) on threads of its own, so a slow reader never holds up
// the bot: reads and writes time out, idle keep-alive connections are closed, and connections
// past the cap are answered 503 by one thread of their own instead of queueing for a worker.
// Every answer carries the security headers (a Content-Security-Policy without inline script,
// nosniff, no referrer); pages carry an ETag and a matching If-None-Match gets 304; a client
// that asks for gzip gets it.
#pragma once

#include "ghostpost/web/site.h"

#include <memory>
#include <string>

namespace ghostpost::web {

struct ServerSettings {
    std::string host = "127.0.0.1";
    int port = 8080;         // 0: any free port (see WebServer::port)
    int threads = 8;         // workers, each serving one connection at a time
    int max_waiting = 64;    // connections waiting for a worker before new ones get 503
    int timeout_seconds = 5; // read and write timeouts, and the keep-alive idle time
};

// "127.0.0.1:8080" or "[::1]:8080" into host and port (port 0: any free one). Errors: std::invalid_argument naming
// what is wrong.
ServerSettings parse_listen(const std::string& listen);

class WebServer {
public:
    // Binds at once. Errors: std::runtime_error when the address cannot be bound.
    WebServer(Site& site, const ServerSettings& settings);
    // Stops and joins.
    ~WebServer();
    WebServer(const WebServer&) = delete;
    WebServer& operator=(const WebServer&) = delete;

    int port() const;
    // Serves on a thread of its own until stop().
    void start();
    void stop();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace ghostpost::web
