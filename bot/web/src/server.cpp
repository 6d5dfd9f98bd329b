#include "ghostpost/web/server.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <httplib.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

namespace ghostpost::web {

namespace {

// Set on the thread that answers connections past the cap: every request it reads gets 503.
thread_local bool shedding = false;

// httplib hands each accepted connection to a task queue. This one has a fixed number of
// workers and a cap on the connections waiting for them; past the cap a connection goes to a
// single shedding thread that answers "busy" (its reads time out like any other), so a flood
// of slow clients costs a bounded number of threads and the bot none.
class BoundedQueue final : public httplib::TaskQueue {
public:
    BoundedQueue(int workers, std::size_t max_waiting) : max_waiting_(max_waiting) {
        for (int i = 0; i < workers; ++i)
            threads_.emplace_back([this] { work(jobs_, false); });
        threads_.emplace_back([this] { work(shed_, true); });
    }
    void enqueue(std::function<void()> fn) override {
        {
            std::lock_guard lock(mutex_);
            (jobs_.size() < max_waiting_ ? jobs_ : shed_).push_back(std::move(fn));
        }
        cond_.notify_all();
    }
    void shutdown() override {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        cond_.notify_all();
        for (auto& t : threads_)
            t.join();
    }

private:
    void work(std::deque<std::function<void()>>& queue, bool shed) {
        shedding = shed;
        for (;;) {
            std::function<void()> fn;
            {
                std::unique_lock lock(mutex_);
                cond_.wait(lock, [&] { return stopping_ || !queue.empty(); });
                if (queue.empty())
                    return; // stopping, and nothing left to close
                fn = std::move(queue.front());
                queue.pop_front();
            }
            fn(); // serves the connection and closes it
        }
    }
    std::size_t max_waiting_;
    std::mutex mutex_;
    std::condition_variable cond_;
    std::deque<std::function<void()>> jobs_, shed_;
    std::vector<std::thread> threads_;
    bool stopping_ = false;
};

const char* const security_policy = "default-src 'none'; script-src 'self'; style-src 'self'; "
                                    "img-src 'self' data:; base-uri 'none'; form-action 'none'; "
                                    "frame-ancestors 'none'";

} // namespace

ServerSettings parse_listen(const std::string& listen) {
    const std::size_t colon = listen.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == listen.size())
        throw std::invalid_argument("must be host:port, e.g. \"127.0.0.1:8080\"");
    ServerSettings s;
    s.host = listen.substr(0, colon);
    if (s.host.size() > 2 && s.host.front() == '[' && s.host.back() == ']')
        s.host = s.host.substr(1, s.host.size() - 2);
    const std::string port = listen.substr(colon + 1);
    if (port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos)
        throw std::invalid_argument("the port must be a number from 0 to 65535");
    s.port = std::stoi(port);
    if (s.port > 65535) // 0: any free port
        throw std::invalid_argument("the port must be a number from 0 to 65535");
    return s;
}

struct WebServer::Impl {
    Site& site;
    ServerSettings settings;
    httplib::Server server;
    int port = 0;
    std::thread thread;

    Impl(Site& s, const ServerSettings& st) : site(s), settings(st) {}
};

WebServer::WebServer(Site& site, const ServerSettings& settings)
    : impl_(std::make_unique<Impl>(site, settings)) {
    httplib::Server& server = impl_->server;
    const int workers = std::max(1, settings.threads);
    const auto waiting = static_cast<std::size_t>(std::max(1, settings.max_waiting));
    server.new_task_queue = [workers, waiting] { return new BoundedQueue(workers, waiting); };
    server.set_read_timeout(settings.timeout_seconds, 0);
    server.set_write_timeout(settings.timeout_seconds, 0);
    server.set_keep_alive_timeout(settings.timeout_seconds);
    server.set_keep_alive_max_count(1000);
    server.set_payload_max_length(4096); // every page is a GET; nothing to upload
    // The listening socket's options, which Linux passes on to every accepted connection:
    // TCP_NODELAY, or each answer's body (a write after the headers) would wait for the
    // client's delayed ACK, 40 ms a request; SO_REUSEADDR for a quick restart, but not
    // httplib's default SO_REUSEPORT, which would let a second server share the port unnoticed.
    server.set_socket_options([](socket_t sock) {
        int yes = 1;
        ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
        ::setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
    });
    server.set_default_headers({{"Content-Security-Policy", security_policy},
                                {"X-Content-Type-Options", "nosniff"},
                                {"Referrer-Policy", "no-referrer"},
                                {"X-Frame-Options", "DENY"}});
    server.set_pre_routing_handler([](const httplib::Request&, httplib::Response& res) {
        if (!shedding)
            return httplib::Server::HandlerResponse::Unhandled;
        res.status = 503;
        res.set_header("Retry-After", "5");
        res.set_header("Connection", "close");
        res.set_content("Too many connections; try again shortly.\n", "text/plain; charset=utf-8");
        return httplib::Server::HandlerResponse::Handled;
    });
    Site* s = &site;
    const auto handler = [s](const httplib::Request& req, httplib::Response& res) {
        Query query;
        for (const auto& [k, v] : req.params)
            query.emplace(k, v); // the first of a repeated parameter
        Page page;
        try {
            page = s->get(req.path, query);
        } catch (const std::exception&) {
            res.status = 500;
            res.set_content("Something went wrong on our side; try again later.\n",
                            "text/plain; charset=utf-8");
            return;
        }
        res.status = page.status;
        if (!page.etag.empty()) {
            res.set_header("ETag", page.etag);
            res.set_header("Cache-Control", "no-cache"); // keep it, but ask again each time
            if (page.status == 200 && req.get_header_value("If-None-Match") == page.etag) {
                res.status = 304;
                return;
            }
        }
        if (!page.filename.empty())
            res.set_header("Content-Disposition", "attachment; filename=\"" + page.filename + "\"");
        res.set_content(std::move(page.body), page.content_type.c_str());
    };
    server.Get(R"(/.*)", handler);
    // Anything but GET and HEAD: 405 from httplib's own routing, with the headers above.
    impl_->port = settings.port == 0
                      ? server.bind_to_any_port(settings.host)
                      : (server.bind_to_port(settings.host, settings.port) ? settings.port : -1);
    if (impl_->port <= 0)
        throw std::runtime_error("web: cannot listen on " + settings.host + ":" +
                                 std::to_string(settings.port));
}

WebServer::~WebServer() {
    stop();
}

int WebServer::port() const {
    return impl_->port;
}

void WebServer::start() {
    if (impl_->thread.joinable())
        return;
    impl_->thread = std::thread([this] { impl_->server.listen_after_bind(); });
    // The socket listens already; wait for the accept loop, so a stop() right after start()
    // cannot come before it and leave it running.
    while (!impl_->server.is_running())
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

void WebServer::stop() {
    impl_->server.stop();
    if (impl_->thread.joinable())
        impl_->thread.join();
}

} // namespace ghostpost::web
