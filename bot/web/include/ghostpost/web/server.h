// Serves a Site, and any extra routes, over HTTP on threads of its own, so that no client, slow
// or hostile, holds up the bot or another reader. One thread does all the socket I/O
// asynchronously (Boost.Beast over Asio), so an idle or trickling connection costs a buffer and
// no thread; pages are made on a few worker threads. Limits: a request head of at most 64 KB and
// 100 header lines (past either: 431 and the connection closed), no request body (413), the
// whole head within the timeout (a slow client is cut), keep-alive connections closed when idle
// for as long, a cap on open connections (past it the one that has waited longest for its
// request is closed to make room), and a cap on requests waiting for a worker (past it: 503).
// Range is ignored: every page is answered whole (200).
// Every answer carries the security headers (a Content-Security-Policy without inline script,
// nosniff, no referrer); pages carry an ETag and a matching If-None-Match gets 304; a client
// that asks for gzip gets it.
#pragma once

#include "ghostpost/web/site.h"

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

namespace ghostpost::web {

struct ServerSettings {
    std::string host = "127.0.0.1";
    int port = 8080;            // 0: any free port (see WebServer::port)
    int threads = 8;            // workers making pages; the socket I/O has one thread of its own
    int max_waiting = 64;       // requests waiting for a worker before new ones get 503
    int timeout_seconds = 5;    // for a whole request head, for writing an answer, and the
                                // keep-alive idle time
    int max_connections = 1024; // open at once (the file limit is raised to fit)
    std::size_t max_header_bytes = 64 * 1024; // request line and fields together
    std::size_t max_header_lines = 100;
};

// "127.0.0.1:8080" or "[::1]:8080" into host and port (port 0: any free one). Errors:
// std::invalid_argument naming what is wrong.
ServerSettings parse_listen(const std::string& listen);

// What an extra route answers (WebServer::route): no ETag, gzip when the client asks for it.
struct Response {
    int status = 200;
    std::string content_type = "text/plain; charset=utf-8";
    std::string body;
};

class WebServer {
public:
    // Binds at once. Errors: std::runtime_error when the address cannot be bound.
    WebServer(Site& site, const ServerSettings& settings);
    // A server of extra routes only (route()); every other path is 404. Errors: as above.
    explicit WebServer(const ServerSettings& settings);
    // Stops and joins.
    ~WebServer();
    WebServer(const WebServer&) = delete;
    WebServer& operator=(const WebServer&) = delete;

    // Answers GET and HEAD of exactly `path` (no query string) with `handler`, before the Site's
    // pages; the handler runs on a worker thread, and an exception from it is a 500. Call before
    // start(). Errors: std::logic_error after start(), or for a path not starting with '/'.
    void route(std::string path, std::function<Response()> handler);

    int port() const;
    // Serves on threads of its own until stop().
    void start();
    void stop();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace ghostpost::web
