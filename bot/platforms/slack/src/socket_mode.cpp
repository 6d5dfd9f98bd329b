#include "socket_mode.h"

#include "ghostpost/bot/log.h"

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
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

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

    std::string scrub(std::string_view text) const {
        return options.scrub ? options.scrub(text) : std::string(text);
    }
    bool stopped() const {
        const std::lock_guard lock(mutex);
        return stopping;
    }
    void run();
    // One connection; true when it said hello.
    bool connect_once(const std::string& target);
};

namespace {

template <class Stream> class Session {
public:
    template <class... Args>
    Session(SocketMode::State& state, asio::io_context& ioc, const Url& url, Args&&... args)
        : state_(state), ioc_(ioc), url_(url), resolver_(ioc), watch_(ioc),
          ws_(ioc, std::forward<Args>(args)...) {}

    bool run() {
        watch();
        resolver_.async_resolve(url_.host, url_.port,
                                [this](beast::error_code ec, tcp::resolver::results_type found) {
                                    if (ec)
                                        return finish("resolve", ec);
                                    on_resolve(found);
                                });
        ioc_.run();
        return hello_;
    }

private:
    // A stop request is looked at five times a second.
    void watch() {
        watch_.expires_after(std::chrono::milliseconds(200));
        watch_.async_wait([this](beast::error_code ec) {
            if (ec || ended_)
                return;
            if (state_.stopped())
                return end();
            watch();
        });
    }

    void on_resolve(const tcp::resolver::results_type& found) {
        beast::get_lowest_layer(ws_).expires_after(std::chrono::seconds(10));
        beast::get_lowest_layer(ws_).async_connect(
            found, [this](beast::error_code ec, const tcp::endpoint&) {
                if (ec)
                    return finish("connect", ec);
                if constexpr (std::is_same_v<Stream, beast::ssl_stream<beast::tcp_stream>>) {
                    // SNI: SSL_set_tlsext_host_name spelt out, as its macro casts the C way.
                    SSL_ctrl(ws_.next_layer().native_handle(), SSL_CTRL_SET_TLSEXT_HOSTNAME,
                             TLSEXT_NAMETYPE_host_name, const_cast<char*>(url_.host.c_str()));
                    ws_.next_layer().async_handshake(ssl::stream_base::client,
                                                     [this](beast::error_code e) {
                                                         if (e)
                                                             return finish("tls", e);
                                                         on_transport();
                                                     });
                } else {
                    on_transport();
                }
            });
    }

    void on_transport() {
        beast::get_lowest_layer(ws_).expires_never();
        // Slack pings the client; Beast answers pings itself, and a dead peer ends the read.
        auto timeouts = websocket::stream_base::timeout::suggested(beast::role_type::client);
        timeouts.idle_timeout = std::chrono::seconds(60);
        timeouts.keep_alive_pings = true;
        ws_.set_option(timeouts);
        ws_.read_message_max(4 * 1024 * 1024);
        ws_.async_handshake(url_.host, url_.target, [this](beast::error_code ec) {
            if (ec)
                return finish("handshake", ec);
            read();
        });
    }

    void read() {
        ws_.async_read(buffer_, [this](beast::error_code ec, std::size_t) {
            if (ec)
                return finish("read", ec);
            std::string text = beast::buffers_to_string(buffer_.data());
            buffer_.consume(buffer_.size());
            on_frame(std::move(text));
            if (!ended_)
                read();
        });
    }

    void on_frame(std::string text) {
        const json frame = json::parse(text, nullptr, false);
        if (!frame.is_object())
            return state_.options.deliver(std::move(text)); // the decoder says what was wrong
        const auto id = frame.find("envelope_id");
        if (id != frame.end() && id->is_string())
            send(json{{"envelope_id", *id}}.dump());
        const auto type = frame.find("type");
        const bool hello = type != frame.end() && *type == "hello";
        const bool disconnect = type != frame.end() && *type == "disconnect";
        if (hello) {
            hello_ = true;
            state_.connected.store(true);
            log::info("slack_socket_hello", {{"platform", "slack"}});
            state_.options.deliver(std::string());
        }
        state_.options.deliver(std::move(text));
        if (disconnect) {
            // Slack closes this connection soon: a new one is asked for at once.
            log::info("slack_socket_disconnect", {{"platform", "slack"}});
            end();
        }
    }

    void send(std::string payload) {
        queue_.push_back(std::move(payload));
        if (queue_.size() == 1)
            write_next();
    }

    void write_next() {
        ws_.text(true);
        ws_.async_write(asio::buffer(queue_.front()), [this](beast::error_code ec, std::size_t) {
            if (ec)
                return finish("write", ec);
            queue_.pop_front();
            if (!queue_.empty() && !ended_)
                write_next();
        });
    }

    void end() {
        if (ended_)
            return;
        ended_ = true;
        watch_.cancel();
        resolver_.cancel();
        beast::error_code ignored;
        beast::get_lowest_layer(ws_).socket().shutdown(tcp::socket::shutdown_both, ignored);
        beast::get_lowest_layer(ws_).socket().close(ignored);
        // The WebSocket's own ping timer would keep the context running for its interval.
        ioc_.stop();
    }

    void finish(const char* stage, beast::error_code ec) {
        if (ended_)
            return;
        log::warning(
            "slack_socket_closed",
            {{"platform", "slack"}, {"stage", stage}, {"error", state_.scrub(ec.message())}});
        end();
    }

    SocketMode::State& state_;
    asio::io_context& ioc_;
    Url url_;
    tcp::resolver resolver_;
    asio::steady_timer watch_;
    websocket::stream<Stream> ws_;
    beast::flat_buffer buffer_;
    std::deque<std::string> queue_;
    bool hello_ = false;
    bool ended_ = false;
};

} // namespace

bool SocketMode::State::connect_once(const std::string& target) {
    const auto parsed = parse_url(target);
    if (!parsed) {
        log::warning("slack_socket_url",
                     {{"platform", "slack"}, {"problem", "not ws:// or wss://: " + scrub(target)}});
        return false;
    }
    // A context per connection: handlers still queued when it ends are dropped with it.
    asio::io_context ioc;
    if (parsed->tls) {
        ssl::context context(ssl::context::tls_client);
        context.set_default_verify_paths();
        context.set_verify_mode(ssl::verify_peer);
        context.set_verify_callback(ssl::host_name_verification(parsed->host));
        Session<beast::ssl_stream<beast::tcp_stream>> session(*this, ioc, *parsed, context);
        return session.run();
    }
    Session<beast::tcp_stream> session(*this, ioc, *parsed);
    return session.run();
}

void SocketMode::State::run() {
    std::chrono::milliseconds backoff{1000};
    while (!stopped()) {
        std::string target;
        {
            std::unique_lock lock(mutex);
            wants_url = url.empty();
            wake.wait(lock, [this] { return stopping || !url.empty(); });
            if (stopping)
                return;
            target = std::move(url);
            url.clear();
            wants_url = false;
        }
        const bool healthy = connect_once(target);
        connected.store(false);
        if (healthy) {
            backoff = std::chrono::milliseconds(1000);
            continue; // a connection that worked is replaced at once (refresh, a drop)
        }
        std::unique_lock lock(mutex);
        wake.wait_for(lock, backoff, [this] { return stopping; });
        backoff = std::min<std::chrono::milliseconds>(backoff * 2, std::chrono::seconds(60));
    }
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
