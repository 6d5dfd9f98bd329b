#include "gateway.h"

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
#include <mutex>
#include <optional>
#include <random>
#include <thread>

namespace ghostpost::bot::discord {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace asio = boost::asio;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;
using nlohmann::json;
using Instant = std::chrono::steady_clock::time_point;

namespace {

struct Url {
    bool tls = false;
    std::string host;
    std::string port;
    std::string target; // path and query
};

// ws://host[:port][/path][?query] or wss://...; the Gateway's version and encoding are added.
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
    url.target += url.target.find('?') == std::string::npos ? "?" : "&";
    url.target += "v=10&encoding=json";
    return url;
}

// How a connection ended, and so what the next one does.
enum class End : std::uint8_t { Resume, Identify, Fatal, Stopped };

} // namespace

std::string fatal_close_reason(int code) {
    switch (code) {
    case 4004:
        return "Discord refused the bot token (close code 4004): check GHOSTPOST_DISCORD_TOKEN "
               "or token_file";
    case 4010:
        return "Discord refused the shard (close code 4010, invalid shard): every daemon of the "
               "bot must use one shard count; see shards under [platform.discord]";
    case 4011:
        return "Discord asks for more shards (close code 4011, sharding required): set shards = 0 "
               "under [platform.discord] (as many as Discord recommends) or a larger count";
    case 4012:
        return "Discord refused the Gateway version (close code 4012)";
    case 4013:
        return "Discord refused the intents (close code 4013)";
    case 4014:
        return "Discord refused the intents the bot needs (close code 4014): enable the Message "
               "Content intent for the bot in the Discord developer portal (Bot > Privileged "
               "Gateway Intents), or set message_content = false under [platform.discord] to "
               "play by slash commands and mentions of the bot only";
    default:
        return {};
    }
}

struct Gateway::State {
    explicit State(GatewayOptions o) : options(std::move(o)) {}
    GatewayOptions options;
    std::mutex mutex;
    std::condition_variable wake;
    bool stopping = false; // under mutex
    std::thread thread;

    // The session to resume; empty session_id: identify.
    std::string session_id;
    std::string resume_url;
    std::optional<std::int64_t> seq;
    bool healthy = false; // the last connection reached READY or RESUMED
    // A session is live now: from READY or RESUMED until its connection ends. Read by the poll
    // thread, for the lane's health.
    std::atomic<bool> connected{false};
    Instant identify_allowed{}; // not before: Discord's 1 per 5 s, and session_start_limit
    int identify_remaining = 0;
    Instant identify_reset{};
    std::mt19937 random{std::random_device{}()};

    std::string scrub(std::string_view text) const {
        return options.scrub ? options.scrub(text) : std::string(text);
    }
    bool stopped() {
        const std::lock_guard lock(mutex);
        return stopping;
    }
    void run();
    End connect_once(bool resume);
};

namespace {

// One WebSocket connection from resolve to close, driven by callbacks on the io_context.
template <class Stream> class Session {
public:
    template <class... Args>
    Session(Gateway::State& state, asio::io_context& ioc, const Url& url, bool resume,
            Args&&... args)
        : state_(state), ioc_(ioc), url_(url), resume_(resume), resolver_(ioc), timer_(ioc),
          watch_(ioc), ws_(ioc, std::forward<Args>(args)...) {}

    End run() {
        watch();
        resolver_.async_resolve(url_.host, url_.port,
                                [this](beast::error_code ec, tcp::resolver::results_type found) {
                                    if (ec)
                                        return finish("resolve", ec);
                                    on_resolve(found);
                                });
        ioc_.run();
        return end_;
    }

private:
    // A stop request is looked at five times a second: the session never waits long for it.
    void watch() {
        watch_.expires_after(std::chrono::milliseconds(200));
        watch_.async_wait([this](beast::error_code ec) {
            if (ec || aborted_)
                return;
            if (state_.stopped())
                return abort(End::Stopped);
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
        ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::client));
        ws_.read_message_max(16 * 1024 * 1024);
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
            const std::string text = beast::buffers_to_string(buffer_.data());
            buffer_.consume(buffer_.size());
            try {
                on_frame(text);
            } catch (const std::exception& e) {
                // A payload of an unexpected shape is skipped, never the end of the Gateway.
                log::warning("discord_gateway_frame_skipped",
                             {{"platform", "discord"}, {"problem", state_.scrub(e.what())}});
            }
            if (!aborted_)
                read();
        });
    }

    void on_frame(const std::string& text) {
        const json frame = json::parse(text, nullptr, false);
        if (!frame.is_object() || !frame.contains("op") || !frame["op"].is_number_integer()) {
            log::warning("discord_gateway_frame_skipped",
                         {{"platform", "discord"}, {"problem", "not a Gateway payload"}});
            return;
        }
        const auto op = frame["op"].get<std::int64_t>();
        if (const auto s = frame.find("s"); s != frame.end() && s->is_number_integer())
            state_.seq = s->get<std::int64_t>();
        const json data = frame.contains("d") ? frame["d"] : json();
        switch (op) {
        case 10:
            return on_hello(data);
        case 11:
            acked_ = true;
            return;
        case 1:
            return send_heartbeat();
        case 7:
            log::info("discord_gateway_reconnect",
                      {{"platform", "discord"}, {"reason", "op 7 Reconnect"}});
            return abort(End::Resume);
        case 9: {
            const bool resumable = data.is_boolean() && data.get<bool>();
            log::info("discord_gateway_invalid_session",
                      {{"platform", "discord"}, {"resumable", resumable}});
            if (!resumable) {
                state_.session_id.clear();
                state_.seq.reset();
            }
            return abort(resumable ? End::Resume : End::Identify);
        }
        case 0:
            return on_dispatch(frame.value("t", json()).is_string() ? frame["t"].get<std::string>()
                                                                    : std::string(),
                               data);
        default:
            return;
        }
    }

    void on_hello(const json& data) {
        std::int64_t interval = 41250;
        if (data.is_object() && data.contains("heartbeat_interval") &&
            data["heartbeat_interval"].is_number_integer())
            interval = std::clamp<std::int64_t>(data["heartbeat_interval"].get<std::int64_t>(), 100,
                                                600000);
        interval_ = std::chrono::milliseconds(interval);
        // The first beat comes after a random part of the interval, so that many clients
        // reconnecting at once do not beat in step.
        std::uniform_real_distribution<double> jitter(0.0, 1.0);
        schedule_heartbeat(std::chrono::milliseconds(
            static_cast<std::int64_t>(static_cast<double>(interval) * jitter(state_.random))));
        if (resume_ && !state_.session_id.empty()) {
            send({{"op", 6},
                  {"d",
                   {{"token", state_.options.token},
                    {"session_id", state_.session_id},
                    {"seq", state_.seq ? json(*state_.seq) : json()}}}});
        } else {
            state_.session_id.clear();
            state_.seq.reset();
            state_.identify_allowed = std::chrono::steady_clock::now() + std::chrono::seconds(5);
            --state_.identify_remaining;
            json identify = {
                {"token", state_.options.token},
                {"intents", intents(state_.options.message_content)},
                {"properties",
                 {{"os", "linux"}, {"browser", "ghostpost"}, {"device", "ghostpost"}}}};
            if (state_.options.shards > 1)
                identify["shard"] = {state_.options.shard, state_.options.shards};
            send({{"op", 2}, {"d", identify}});
        }
    }

    void on_dispatch(const std::string& type, const json& data) {
        if (type == "READY") {
            const auto text = [&data](const char* key) {
                return data.is_object() && data.contains(key) && data[key].is_string()
                           ? data[key].get<std::string>()
                           : std::string();
            };
            state_.session_id = text("session_id");
            state_.resume_url = text("resume_gateway_url");
            state_.healthy = true;
            state_.connected.store(true);
            log::info(
                "discord_gateway_ready",
                {{"platform", "discord"}, {"resumed", false}, {"shard", state_.options.shard}});
            state_.options.deliver({GatewayEvent::Kind::Ready, data, {}});
        } else if (type == "RESUMED") {
            state_.healthy = true;
            state_.connected.store(true);
            log::info("discord_gateway_ready", {{"platform", "discord"}, {"resumed", true}});
        } else if (type == "MESSAGE_CREATE") {
            state_.options.deliver({GatewayEvent::Kind::Message, data, {}});
        } else if (type == "INTERACTION_CREATE") {
            state_.options.deliver({GatewayEvent::Kind::Interaction, data, {}});
        } else if (type == "GUILD_CREATE") {
            state_.options.deliver({GatewayEvent::Kind::Guild, data, {}});
        }
    }

    void schedule_heartbeat(std::chrono::milliseconds after) {
        timer_.expires_after(after);
        timer_.async_wait([this](beast::error_code ec) {
            if (ec || aborted_)
                return;
            if (!acked_) {
                // No ACK since the last beat: the connection is a zombie.
                log::warning("discord_gateway_zombie",
                             {{"platform", "discord"}, {"problem", "no heartbeat ACK"}});
                return abort(End::Resume);
            }
            send_heartbeat();
            schedule_heartbeat(interval_);
        });
    }

    void send_heartbeat() {
        acked_ = false;
        send({{"op", 1}, {"d", state_.seq ? json(*state_.seq) : json()}});
    }

    void send(const json& payload) {
        queue_.push_back(payload.dump());
        if (queue_.size() == 1)
            write_next();
    }

    void write_next() {
        ws_.text(true);
        ws_.async_write(asio::buffer(queue_.front()), [this](beast::error_code ec, std::size_t) {
            if (ec)
                return finish("write", ec);
            queue_.pop_front();
            if (!queue_.empty() && !aborted_)
                write_next();
        });
    }

    // Ends the connection without a close frame, so the session stays resumable.
    void abort(End end) {
        if (aborted_)
            return;
        aborted_ = true;
        end_ = end;
        timer_.cancel();
        watch_.cancel();
        resolver_.cancel();
        beast::error_code ignored;
        beast::get_lowest_layer(ws_).socket().shutdown(tcp::socket::shutdown_both, ignored);
        beast::get_lowest_layer(ws_).socket().close(ignored);
    }

    void finish(const char* stage, beast::error_code ec) {
        if (aborted_)
            return;
        int code = 0;
        if (ec == websocket::error::closed)
            code = ws_.reason().code;
        End end = state_.session_id.empty() ? End::Identify : End::Resume;
        if (const std::string fatal = fatal_close_reason(code); !fatal.empty()) {
            end = End::Fatal;
            state_.options.deliver({GatewayEvent::Kind::Fatal, {}, fatal});
        } else if (code == 4007 || code == 4009) {
            // A sequence Discord no longer knows, or a session that timed out: start anew.
            state_.session_id.clear();
            state_.seq.reset();
            end = End::Identify;
        }
        log::warning("discord_gateway_closed", {{"platform", "discord"},
                                                {"stage", stage},
                                                {"close_code", code},
                                                {"error", state_.scrub(ec.message())}});
        abort(end);
    }

    Gateway::State& state_;
    asio::io_context& ioc_;
    Url url_;
    bool resume_;
    tcp::resolver resolver_;
    asio::steady_timer timer_;
    asio::steady_timer watch_;
    websocket::stream<Stream> ws_;
    beast::flat_buffer buffer_;
    std::deque<std::string> queue_;
    std::chrono::milliseconds interval_{41250};
    bool acked_ = true;
    bool aborted_ = false;
    End end_ = End::Resume;
};

} // namespace

End Gateway::State::connect_once(bool resume) {
    const std::string& target = resume && !resume_url.empty() ? resume_url : options.url;
    const auto url = parse_url(target);
    if (!url) {
        options.deliver({GatewayEvent::Kind::Fatal,
                         {},
                         "the Gateway URL is not ws:// or wss://: " + scrub(target)});
        return End::Fatal;
    }
    // A context per connection: handlers still queued when it ends are dropped with it.
    asio::io_context ioc;
    if (url->tls) {
        ssl::context context(ssl::context::tls_client);
        context.set_default_verify_paths();
        context.set_verify_mode(ssl::verify_peer);
        context.set_verify_callback(ssl::host_name_verification(url->host));
        Session<beast::ssl_stream<beast::tcp_stream>> session(*this, ioc, *url, resume, context);
        return session.run();
    }
    Session<beast::tcp_stream> session(*this, ioc, *url, resume);
    return session.run();
}

void Gateway::State::run() {
    std::chrono::milliseconds backoff{1000};
    bool resume = false;
    int failed_resumes = 0; // in a row: a resume_gateway_url that keeps failing is given up
    while (!stopped()) {
        if (!resume && options.identify_slot) {
            const Instant slot = options.identify_slot();
            std::unique_lock lock(mutex);
            if (wake.wait_until(lock, slot, [this] { return stopping; }))
                return;
        }
        healthy = false;
        const End end = connect_once(resume);
        connected.store(false);
        if (end == End::Fatal || stopped())
            return;
        resume = end == End::Resume && !session_id.empty();
        failed_resumes = healthy ? 0 : failed_resumes + 1;
        if (resume && failed_resumes >= 3) {
            session_id.clear();
            seq.reset();
            resume = false;
        }
        // A connection that got its session going was fine: op 7, a dropped socket or a
        // resumable op 9 after it are reconnected from the backoff's floor.
        if (healthy)
            backoff = std::chrono::milliseconds(1000);
        std::uniform_int_distribution<std::int64_t> spread(backoff.count() / 2, backoff.count());
        auto delay = std::chrono::milliseconds(spread(random));
        if (!resume) {
            // Discord's identify budget: one per five seconds, and no more than
            // session_start_limit allows until its reset.
            const Instant now = std::chrono::steady_clock::now();
            Instant ready = identify_allowed;
            if (identify_remaining <= 0 && identify_reset > now)
                ready = std::max(ready, identify_reset);
            if (ready > now)
                delay = std::max(delay, std::chrono::ceil<std::chrono::milliseconds>(ready - now));
        }
        backoff = std::min<std::chrono::milliseconds>(backoff * 2, std::chrono::seconds(60));
        std::unique_lock lock(mutex);
        wake.wait_for(lock, delay, [this] { return stopping; });
    }
}

Gateway::Gateway(GatewayOptions options) : state_(std::make_shared<State>(std::move(options))) {
    state_->identify_remaining = state_->options.identify_remaining;
    state_->identify_reset =
        std::chrono::steady_clock::now() + state_->options.identify_reset_after;
}

Gateway::~Gateway() {
    stop();
}

void Gateway::start() {
    if (state_->thread.joinable())
        return;
    state_->thread = std::thread([state = state_] {
        try {
            state->run();
        } catch (const std::exception& e) {
            state->options.deliver({GatewayEvent::Kind::Fatal,
                                    {},
                                    "the Gateway thread failed: " + state->scrub(e.what())});
        }
    });
}

bool Gateway::connected() const {
    return state_->connected.load();
}

void Gateway::stop() {
    {
        const std::lock_guard lock(state_->mutex);
        state_->stopping = true;
    }
    state_->wake.notify_all();
    if (state_->thread.joinable())
        state_->thread.join();
}

} // namespace ghostpost::bot::discord
