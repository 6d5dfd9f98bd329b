#include "socket_mode.h"

#include "ghostpost/log/log.h"

#include <algorithm>
#include <atomic>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <thread>
#include <vector>

namespace ghostpost::bot::slack {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace asio = boost::asio;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;
using nlohmann::json;

namespace {

struct Url {
    bool tls = false;
    std::string host;
    std::string port;
    std::string target; // path and query
};

std::optional<Url> parse_url(const std::string& text) {
    Url url;
    std::string rest;
    if (text.starts_with("wss://")) {
        url.tls = true;
        rest = text.substr(6);
    } else if (text.starts_with("ws://")) {
        rest = text.substr(5);
    } else {
        return std::nullopt;
    }
    const auto slash = rest.find_first_of("/?");
    std::string authority = rest.substr(0, slash);
    url.target = slash == std::string::npos ? "/" : rest.substr(slash);
    if (url.target.starts_with("?"))
        url.target = "/" + url.target;
    const auto colon = authority.rfind(':');
    if (colon != std::string::npos && authority.find(']', colon) == std::string::npos) {
        url.port = authority.substr(colon + 1);
        authority.resize(colon);
    } else {
        url.port = url.tls ? "443" : "80";
    }
    url.host = authority;
    if (url.host.empty())
        return std::nullopt;
    return url;
}

} // namespace

// One connection as the socket thread sees it. A connection that Slack asked to refresh
// (disconnect) stays open, reading and acknowledging, until its successor said hello.
class Link {
public:
    enum class Phase : std::uint8_t { Connecting, Live, Retiring, Ended };
    virtual ~Link() = default;
    virtual void start() = 0;
    // Closes the connection: with a close frame when nothing else is being written.
    virtual void close() = 0;
    // Ends it at once (the daemon stops).
    virtual void end() = 0;
    Phase phase = Phase::Connecting;
    bool said_hello = false;
};

struct SocketMode::State {
    explicit State(SocketOptions o) : options(std::move(o)) {}
    SocketOptions options;
    mutable std::mutex mutex;
    std::condition_variable wake;
    bool stopping = false; // under mutex
    std::string url;       // under mutex: the next connection's, empty while none
    bool wants_url = true; // under mutex
    std::atomic<bool> connected{false};
    std::thread thread;

    // The rest belongs to the socket thread.
    asio::io_context* ioc = nullptr;
    std::vector<std::shared_ptr<Link>> links;
    // No connection was open at some moment since the last hello (or none ever was): what was
    // posted meanwhile is caught up after the next hello. A refresh that overlaps leaves none.
    bool gap = true;
    std::chrono::milliseconds backoff{1000};
    std::chrono::steady_clock::time_point retry_at{};
    std::set<std::string> seen; // envelope ids delivered lately
    std::deque<std::string> seen_order;

    std::string scrub(std::string_view text) const {
        return options.scrub ? options.scrub(text) : std::string(text);
    }
    bool stopped() const {
        const std::lock_guard lock(mutex);
        return stopping;
    }
    void run();
    // Looks at the connections: starts one for a URL given, says whether a URL is wanted.
    void review();
    void open(const std::string& target);
    void on_hello(Link& link);
    void on_end(Link& link);
    // False for an envelope already delivered (the same one on the old and the new connection).
    bool first_time(const std::string& envelope_id);
};

namespace {

constexpr std::size_t max_seen = 500;

template <class Stream>
class Session final : public Link, public std::enable_shared_from_this<Session<Stream>> {
public:
    // `keep`: what the stream's arguments refer to (a TLS context), kept as long as it.
    template <class... Args>
    Session(SocketMode::State& state, asio::io_context& ioc, const Url& url,
            std::shared_ptr<void> keep, Args&&... args)
        : state_(state), url_(url), keep_(std::move(keep)), resolver_(ioc),
          ws_(ioc, std::forward<Args>(args)...) {}

    void start() override {
        resolver_.async_resolve(url_.host, url_.port,
                                [self = this->shared_from_this()](
                                    beast::error_code ec, tcp::resolver::results_type found) {
                                    if (ec)
                                        return self->finish("resolve", ec);
                                    self->on_resolve(found);
                                });
    }

    void close() override {
        if (ended_ || closing_)
            return;
        closing_ = true;
        if (!queue_.empty() || !handshaken_)
            return end();
        ws_.async_close(websocket::close_code::normal,
                        [self = this->shared_from_this()](beast::error_code) { self->end(); });
    }

    void end() override {
        if (ended_)
            return;
        ended_ = true;
        resolver_.cancel();
        beast::error_code ignored;
        beast::get_lowest_layer(ws_).socket().shutdown(tcp::socket::shutdown_both, ignored);
        beast::get_lowest_layer(ws_).socket().close(ignored);
        state_.on_end(*this);
    }

private:
    void on_resolve(const tcp::resolver::results_type& found) {
        if (ended_)
            return;
        beast::get_lowest_layer(ws_).expires_after(std::chrono::seconds(10));
        beast::get_lowest_layer(ws_).async_connect(
            found, [self = this->shared_from_this()](beast::error_code ec, const tcp::endpoint&) {
                if (ec)
                    return self->finish("connect", ec);
                self->on_connect();
            });
    }

    void on_connect() {
        if constexpr (std::is_same_v<Stream, beast::ssl_stream<beast::tcp_stream>>) {
            // SNI: SSL_set_tlsext_host_name spelt out, as its macro casts the C way.
            SSL_ctrl(ws_.next_layer().native_handle(), SSL_CTRL_SET_TLSEXT_HOSTNAME,
                     TLSEXT_NAMETYPE_host_name, const_cast<char*>(url_.host.c_str()));
            ws_.next_layer().async_handshake(
                ssl::stream_base::client, [self = this->shared_from_this()](beast::error_code e) {
                    if (e)
                        return self->finish("tls", e);
                    self->on_transport();
                });
        } else {
            on_transport();
        }
    }

    void on_transport() {
        beast::get_lowest_layer(ws_).expires_never();
        // Slack pings the client; Beast answers pings itself, and a dead peer ends the read.
        auto timeouts = websocket::stream_base::timeout::suggested(beast::role_type::client);
        timeouts.idle_timeout = std::chrono::seconds(60);
        timeouts.keep_alive_pings = true;
        ws_.set_option(timeouts);
        ws_.read_message_max(4 * 1024 * 1024);
        ws_.async_handshake(url_.host, url_.target,
                            [self = this->shared_from_this()](beast::error_code ec) {
                                if (ec)
                                    return self->finish("handshake", ec);
                                self->handshaken_ = true;
                                self->read();
                            });
    }

    void read() {
        ws_.async_read(buffer_,
                       [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
                           if (ec)
                               return self->finish("read", ec);
                           std::string text = beast::buffers_to_string(self->buffer_.data());
                           self->buffer_.consume(self->buffer_.size());
                           self->on_frame(std::move(text));
                           if (!self->ended_ && !self->closing_)
                               self->read();
                       });
    }

    void on_frame(std::string text) {
        const json frame = json::parse(text, nullptr, false);
        if (!frame.is_object())
            return state_.options.deliver(std::move(text)); // the decoder says what was wrong
        const auto id = frame.find("envelope_id");
        // Acknowledged on the connection it came by, whichever that is.
        if (id != frame.end() && id->is_string()) {
            send(json{{"envelope_id", *id}}.dump());
            if (!state_.first_time(id->get<std::string>()))
                return;
        }
        const auto type = frame.find("type");
        const bool hello = type != frame.end() && *type == "hello";
        const bool disconnect = type != frame.end() && *type == "disconnect";
        if (hello) {
            said_hello = true;
            phase = Phase::Live;
            log::info("slack_socket_hello", {{"platform", "slack"}});
            state_.on_hello(*this);
        }
        state_.options.deliver(std::move(text));
        if (disconnect && phase != Phase::Retiring) {
            // Slack closes this connection soon: a new one is opened at once, and this one
            // reads on until the new one said hello.
            log::info("slack_socket_disconnect", {{"platform", "slack"}});
            phase = Phase::Retiring;
            state_.review();
        }
    }

    void send(std::string payload) {
        queue_.push_back(std::move(payload));
        if (queue_.size() == 1)
            write_next();
    }

    void write_next() {
        ws_.text(true);
        ws_.async_write(asio::buffer(queue_.front()),
                        [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
                            if (ec)
                                return self->finish("write", ec);
                            self->queue_.pop_front();
                            if (!self->queue_.empty() && !self->ended_)
                                self->write_next();
                        });
    }

    void finish(const char* stage, beast::error_code ec) {
        if (ended_)
            return;
        if (!closing_)
            log::warning(
                "slack_socket_closed",
                {{"platform", "slack"}, {"stage", stage}, {"error", state_.scrub(ec.message())}});
        end();
    }

    SocketMode::State& state_;
    Url url_;
    std::shared_ptr<void> keep_;
    tcp::resolver resolver_;
    websocket::stream<Stream> ws_;
    beast::flat_buffer buffer_;
    std::deque<std::string> queue_;
    bool handshaken_ = false;
    bool closing_ = false;
    bool ended_ = false;
};

} // namespace

bool SocketMode::State::first_time(const std::string& envelope_id) {
    if (!seen.insert(envelope_id).second)
        return false;
    seen_order.push_back(envelope_id);
    if (seen_order.size() > max_seen) {
        seen.erase(seen_order.front());
        seen_order.pop_front();
    }
    return true;
}

void SocketMode::State::open(const std::string& target) {
    const auto parsed = parse_url(target);
    if (!parsed) {
        log::warning("slack_socket_url",
                     {{"platform", "slack"}, {"problem", "not ws:// or wss://: " + scrub(target)}});
        retry_at = std::chrono::steady_clock::now() + backoff;
        backoff = std::min<std::chrono::milliseconds>(backoff * 2, std::chrono::seconds(60));
        return;
    }
    std::shared_ptr<Link> link;
    if (parsed->tls) {
        // Each connection keeps its own context: it verifies the one host it talks to.
        auto context = std::make_shared<ssl::context>(ssl::context::tls_client);
        context->set_default_verify_paths();
        context->set_verify_mode(ssl::verify_peer);
        context->set_verify_callback(ssl::host_name_verification(parsed->host));
        link = std::make_shared<Session<beast::ssl_stream<beast::tcp_stream>>>(*this, *ioc, *parsed,
                                                                               context, *context);
    } else {
        link = std::make_shared<Session<beast::tcp_stream>>(*this, *ioc, *parsed, nullptr);
    }
    links.push_back(link);
    link->start();
}

void SocketMode::State::on_hello(Link& link) {
    connected.store(true);
    backoff = std::chrono::milliseconds(1000);
    if (gap)
        options.deliver(std::string()); // a new connection after none: catch up
    gap = false;
    // The connections this one replaces close now that it receives.
    const auto all = links; // closing one may change the list
    for (const auto& other : all)
        if (other.get() != &link && other->phase != Link::Phase::Ended)
            other->close();
}

void SocketMode::State::on_end(Link& link) {
    const bool healthy = link.said_hello;
    link.phase = Link::Phase::Ended;
    // Handlers of the ended connection may still be queued: it is dropped from the list
    // after this call returns, never inside one of its own handlers' callers.
    asio::post(*ioc, [this] {
        std::erase_if(links, [](const auto& l) { return l->phase == Link::Phase::Ended; });
    });
    const bool any_open = std::any_of(links.begin(), links.end(), [](const auto& l) {
        return l->said_hello && l->phase != Link::Phase::Ended;
    });
    if (!any_open) {
        connected.store(false);
        gap = true;
    }
    if (!healthy) {
        retry_at = std::chrono::steady_clock::now() + backoff;
        backoff = std::min<std::chrono::milliseconds>(backoff * 2, std::chrono::seconds(60));
    }
    review();
}

void SocketMode::State::review() {
    // A connection that is coming up or receiving (and not retiring) needs no successor.
    const bool current = std::any_of(links.begin(), links.end(), [](const auto& l) {
        return l->phase == Link::Phase::Connecting || l->phase == Link::Phase::Live;
    });
    std::string target;
    {
        const std::lock_guard lock(mutex);
        if (stopping) {
            wants_url = false;
            return;
        }
        if (!current && !url.empty()) {
            target = std::move(url);
            url.clear();
        }
        wants_url = !current && target.empty() && url.empty() &&
                    std::chrono::steady_clock::now() >= retry_at;
    }
    if (!target.empty())
        open(target);
}

void SocketMode::State::run() {
    asio::io_context context;
    ioc = &context;
    asio::steady_timer tick(context);
    // A stop request and a URL given are looked at five times a second.
    std::function<void()> look = [&] {
        if (stopped()) {
            const auto all = links;
            for (const auto& link : all)
                link->end();
            links.clear();
            // The WebSocket's own ping timers would keep the context running for their interval.
            context.stop();
            return;
        }
        review();
        tick.expires_after(std::chrono::milliseconds(200));
        tick.async_wait([&](beast::error_code ec) {
            if (!ec)
                look();
        });
    };
    look();
    context.run();
    links.clear();
    ioc = nullptr;
}

SocketMode::SocketMode(SocketOptions options)
    : state_(std::make_shared<State>(std::move(options))) {}

SocketMode::~SocketMode() {
    stop();
}

void SocketMode::start() {
    if (state_->thread.joinable())
        return;
    state_->thread = std::thread([state = state_] {
        try {
            state->run();
        } catch (const std::exception& e) {
            log::error("slack_socket_failed",
                       {{"platform", "slack"}, {"error", state->scrub(e.what())}});
        }
    });
}

void SocketMode::stop() {
    {
        const std::lock_guard lock(state_->mutex);
        state_->stopping = true;
    }
    state_->wake.notify_all();
    if (state_->thread.joinable())
        state_->thread.join();
}

bool SocketMode::connected() const {
    return state_->connected.load();
}

bool SocketMode::needs_url() const {
    const std::lock_guard lock(state_->mutex);
    return state_->wants_url && state_->url.empty() && !state_->stopping;
}

void SocketMode::give_url(std::string url) {
    {
        const std::lock_guard lock(state_->mutex);
        state_->url = std::move(url);
    }
    state_->wake.notify_all();
}

} // namespace ghostpost::bot::slack
