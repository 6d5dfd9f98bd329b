#include "ghostpost/web/server.h"

#include "ghostpost/i18n/catalogs.h"

#include <algorithm>
#include <array>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/basic_parser.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/status.hpp>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <list>
#include <map>
#include <optional>
#include <stdexcept>
#include <sys/resource.h>
#include <thread>
#include <utility>
#include <vector>
#include <zlib.h>

namespace ghostpost::web {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

// connect-src: a game page fetches itself again to follow the game live (game.js).
const char* const security_policy = "default-src 'none'; script-src 'self'; style-src 'self'; "
                                    "img-src 'self' data:; connect-src 'self'; base-uri 'none'; "
                                    "form-action 'none'; frame-ancestors 'none'";

// A request head as far as the pages need it. Beast's own request_parser keeps every field;
// this one keeps only the few the answer depends on and counts the lines, which Beast does not
// limit by itself (its header_limit counts bytes only).
class RequestHead final : public http::basic_parser<true> {
public:
    RequestHead(std::size_t max_bytes, std::size_t max_lines) : max_lines_(max_lines) {
        header_limit(static_cast<std::uint32_t>(std::min<std::size_t>(max_bytes, UINT32_MAX)));
        body_limit(0); // every page is a GET; a request with a body is refused
    }
    http::verb method = http::verb::unknown;
    std::string target;
    std::string if_none_match;
    std::string accept_encoding;
    std::string accept_language;
    std::string cookie;

private:
    void on_request_impl(http::verb m, beast::string_view, beast::string_view t, int,
                         beast::error_code&) override {
        method = m;
        target.assign(t.data(), t.size());
    }
    void on_response_impl(int, beast::string_view, int, beast::error_code& ec) override {
        ec = http::error::bad_status; // a request parser is never given a status line
    }
    void on_field_impl(http::field name, beast::string_view, beast::string_view value,
                       beast::error_code& ec) override {
        if (++lines_ > max_lines_) {
            ec = http::error::header_limit;
            return;
        }
        if (name == http::field::if_none_match)
            if_none_match.assign(value.data(), value.size());
        else if (name == http::field::accept_encoding)
            accept_encoding.assign(value.data(), value.size());
        else if (name == http::field::accept_language)
            accept_language.assign(value.data(), value.size());
        else if (name == http::field::cookie)
            cookie.assign(value.data(), value.size());
    }
    void on_header_impl(beast::error_code&) override {}
    void on_body_init_impl(const boost::optional<std::uint64_t>&, beast::error_code&) override {}
    std::size_t on_body_impl(beast::string_view body, beast::error_code&) override {
        return body.size();
    }
    void on_chunk_header_impl(std::uint64_t, beast::string_view, beast::error_code&) override {}
    std::size_t on_chunk_body_impl(std::uint64_t, beast::string_view body,
                                   beast::error_code&) override {
        return body.size();
    }
    void on_finish_impl(beast::error_code&) override {}

    std::size_t max_lines_;
    std::size_t lines_ = 0;
};

// What a worker needs to answer a request, copied off the parser.
struct Request {
    bool head_only = false; // HEAD
    bool keep_alive = true;
    std::string target;
    std::string if_none_match;
    std::string accept_encoding;
    std::string accept_language;
    std::string cookie;
};

struct Answer {
    int status = 200;
    std::string content_type;
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;
};

Answer text_answer(int status, std::string text) {
    return Answer{status, "text/plain; charset=utf-8", std::move(text), {}};
}

// The bytes on the wire: status line, the security headers, the answer's own, and the body
// unless the request was HEAD.
std::string serialize(const Answer& a, bool head_only, bool keep_alive) {
    const auto reason = http::obsolete_reason(static_cast<http::status>(a.status));
    std::string out = "HTTP/1.1 " + std::to_string(a.status) + " ";
    out.append(reason.data(), reason.size());
    out += "\r\nContent-Security-Policy: ";
    out += security_policy;
    out += "\r\nX-Content-Type-Options: nosniff\r\nReferrer-Policy: no-referrer\r\n"
           "X-Frame-Options: DENY\r\n";
    if (!a.content_type.empty())
        out += "Content-Type: " + a.content_type + "\r\n";
    out += "Content-Length: " + std::to_string(a.body.size()) + "\r\n";
    for (const auto& [name, value] : a.headers)
        out += name + ": " + value + "\r\n";
    if (!keep_alive)
        out += "Connection: close\r\n";
    out += "\r\n";
    if (!head_only)
        out += a.body;
    return out;
}

int hex_digit(char c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// %XX decoded (a malformed escape is kept as it is); in a query, '+' is a space.
std::string decode(std::string_view s, bool query) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size() && hex_digit(s[i + 1]) >= 0 &&
            hex_digit(s[i + 2]) >= 0) {
            out += static_cast<char>(hex_digit(s[i + 1]) * 16 + hex_digit(s[i + 2]));
            i += 2;
        } else if (query && s[i] == '+') {
            out += ' ';
        } else {
            out += s[i];
        }
    }
    return out;
}

Query parse_query(std::string_view q) {
    Query query;
    while (!q.empty()) {
        const std::size_t amp = std::min(q.find('&'), q.size());
        const std::string_view pair = q.substr(0, amp);
        if (!pair.empty()) {
            const std::size_t eq = std::min(pair.find('='), pair.size());
            const std::string_view value = eq < pair.size() ? pair.substr(eq + 1) : "";
            query.emplace(decode(pair.substr(0, eq), true), decode(value, true)); // the first wins
        }
        q.remove_prefix(std::min(amp + 1, q.size()));
    }
    return query;
}

// The value of cookie `name` in a Cookie header ("a=1; lang=de"), "" when it has none.
std::string cookie_value(std::string_view header, std::string_view name) {
    while (!header.empty()) {
        const std::size_t end = std::min(header.find(';'), header.size());
        std::string_view pair = header.substr(0, end);
        header.remove_prefix(std::min(end + 1, header.size()));
        while (!pair.empty() && pair.front() == ' ')
            pair.remove_prefix(1);
        if (pair.size() > name.size() && pair.substr(0, name.size()) == name &&
            pair[name.size()] == '=')
            return std::string(pair.substr(name.size() + 1));
    }
    return {};
}

// The page's language: a switch's ?lang= (kept in a cookie for the next pages), else the
// cookie, else the browser's Accept-Language. `remember` is set when the cookie is to be set.
std::string page_language(const Query& query, const Request& request, bool& remember) {
    const auto usable = [](std::string_view tag) -> std::optional<std::string> {
        auto language = i18n::supported_language(tag);
        if (!language || *language == i18n::pseudo_language)
            return std::nullopt;
        return language;
    };
    remember = false;
    if (const auto asked = query.find("lang"); asked != query.end())
        if (auto language = usable(asked->second)) {
            remember = true;
            return *language;
        }
    if (auto language = usable(cookie_value(request.cookie, "lang")))
        return *language;
    return i18n::negotiated_language(request.accept_language);
}

bool compressible(const std::string& content_type) {
    return content_type.rfind("text/", 0) == 0 || content_type.rfind("image/svg+xml", 0) == 0 ||
           content_type.rfind("application/javascript", 0) == 0 ||
           content_type.rfind("application/json", 0) == 0 ||
           content_type.rfind("application/xml", 0) == 0;
}

bool accepts_gzip(std::string value) {
    std::transform(value.begin(), value.end(), value.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return value.find("gzip") != std::string::npos;
}

std::optional<std::string> gzip(const std::string& body) {
    z_stream z{};
    // 15 + 16: a gzip wrapper rather than zlib's own
    if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return std::nullopt;
    std::string out(deflateBound(&z, static_cast<uLong>(body.size())), '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(body.data()));
    z.avail_in = static_cast<uInt>(body.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    const int rc = deflate(&z, Z_FINISH);
    out.resize(z.total_out);
    deflateEnd(&z);
    if (rc != Z_STREAM_END)
        return std::nullopt;
    return out;
}

class Connection;

// The listener, the open connections and the workers. Everything but the workers' page making
// runs on the one I/O thread, so the connection list needs no lock.
class Server {
public:
    Server(Site* site, const ServerSettings& settings);
    ~Server() { stop(); }

    void route(std::string path, std::function<Response()> handler) {
        if (io_thread_.joinable())
            throw std::logic_error("web: a route is added before start()");
        if (path.empty() || path.front() != '/')
            throw std::logic_error("web: a route's path starts with '/'");
        routes_[std::move(path)] = std::move(handler);
    }
    int port() const { return port_; }
    void start();
    void stop();

    // For Connection, on the I/O thread.
    const ServerSettings& settings() const { return settings_; }
    std::list<Connection*>::iterator enlist(Connection* c) { return open_.insert(open_.end(), c); }
    void waiting_again(std::list<Connection*>::iterator place) {
        open_.splice(open_.end(), open_, place); // the list stays ordered by time of waiting
    }
    void unlist(std::list<Connection*>::iterator place) { open_.erase(place); }
    void dispatch(std::shared_ptr<Connection> c, Request request);

private:
    void accept();
    bool close_longest_waiting();
    Answer answer(const Request& request) const;

    Site* site_;
    ServerSettings settings_;
    std::map<std::string, std::function<Response()>, std::less<>> routes_;
    std::list<Connection*> open_; // oldest wait first
    int in_flight_ = 0;           // requests with the workers, waiting or being made
    int port_ = 0;
    bool stopped_ = false;
    asio::io_context io_;
    tcp::acceptor acceptor_{io_};
    asio::steady_timer accept_pause_{io_};
    asio::thread_pool workers_;
    std::thread io_thread_;
};

class Connection : public std::enable_shared_from_this<Connection> {
public:
    Connection(Server& server, tcp::socket socket)
        : server_(server), stream_(std::move(socket)),
          buffer_(server.settings().max_header_bytes + 8 * 1024), place_(server.enlist(this)) {}
    ~Connection() { forget(); }

    void read_head() {
        waiting_ = true;
        head_.emplace(server_.settings().max_header_bytes, server_.settings().max_header_lines);
        // One deadline for the whole head, not per read: a client that trickles a byte at a
        // time is cut as surely as one that sends nothing.
        stream_.expires_after(std::chrono::seconds(server_.settings().timeout_seconds));
        http::async_read_header(
            stream_, buffer_, *head_,
            [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_head(ec); });
    }

    bool waiting() const { return waiting_; }

    // Closes the socket at once; pending operations end with an error and drop the connection.
    void close() {
        forget();
        beast::error_code ignored;
        stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
        stream_.socket().close(ignored);
    }

    void write(std::string bytes, bool keep_alive) {
        if (!listed_)
            return; // closed meanwhile (the server stopping)
        bytes_ = std::move(bytes);
        stream_.expires_after(std::chrono::seconds(server_.settings().timeout_seconds));
        asio::async_write(
            stream_, asio::buffer(bytes_),
            [self = shared_from_this(), keep_alive](beast::error_code ec, std::size_t) {
                self->bytes_.clear();
                self->bytes_.shrink_to_fit();
                if (!ec && self->lingering_)
                    return self->linger();
                if (ec || !keep_alive)
                    return self->finish();
                self->server_.waiting_again(self->place_);
                self->read_head();
            });
    }

private:
    void on_head(beast::error_code ec) {
        waiting_ = false;
        if (ec == http::error::header_limit || ec == http::error::buffer_overflow)
            return refuse(431,
                          "The request's header is too large: at most " +
                              std::to_string(server_.settings().max_header_bytes) + " bytes in " +
                              std::to_string(server_.settings().max_header_lines) + " lines.\n");
        if (ec == http::error::body_limit)
            return refuse(413, "A request here carries no body.\n");
        if (ec == http::error::end_of_stream || ec == asio::error::eof ||
            ec == beast::error::timeout || ec == asio::error::operation_aborted ||
            ec == asio::error::connection_reset)
            return finish(); // gone, idle too long, too slow, or closed to make room
        if (ec)
            return refuse(400, "The request is not valid HTTP/1.1.\n");
        if (!head_->is_done()) // a chunked body
            return refuse(413, "A request here carries no body.\n");
        if (head_->method != http::verb::get && head_->method != http::verb::head) {
            Answer a = text_answer(405, "Only GET and HEAD are served here.\n");
            a.headers.emplace_back("Allow", "GET, HEAD");
            return write(serialize(a, false, head_->keep_alive()), head_->keep_alive());
        }
        Request r;
        r.head_only = head_->method == http::verb::head;
        r.keep_alive = head_->keep_alive();
        r.target = std::move(head_->target);
        r.if_none_match = std::move(head_->if_none_match);
        r.accept_encoding = std::move(head_->accept_encoding);
        r.accept_language = std::move(head_->accept_language);
        r.cookie = std::move(head_->cookie);
        head_.reset();
        server_.dispatch(shared_from_this(), std::move(r));
    }

    // Answers and closes: what is left of the request is not read.
    void refuse(int status, std::string text) {
        head_.reset();
        buffer_.clear();
        buffer_.shrink_to_fit();
        write(serialize(text_answer(status, std::move(text)), false, false), false);
        lingering_ = true;
    }

    // After a refusal: closing with the rest of the request unread would send a reset, which
    // can overtake the answer; so the rest is read and dropped for a short while first.
    void linger() {
        beast::error_code ignored;
        stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
        stream_.expires_after(std::chrono::seconds(1));
        drop_rest();
    }
    void drop_rest() {
        stream_.async_read_some(asio::buffer(drop_),
                                [self = shared_from_this()](beast::error_code ec, std::size_t n) {
                                    self->dropped_ += n;
                                    if (ec || self->dropped_ > 1024 * 1024)
                                        return self->finish();
                                    self->drop_rest();
                                });
    }

    void finish() {
        if (!listed_)
            return;
        forget();
        beast::error_code ignored;
        stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
        stream_.socket().close(ignored);
    }

    void forget() {
        if (listed_)
            server_.unlist(place_);
        listed_ = false;
    }

    Server& server_;
    beast::tcp_stream stream_;
    beast::flat_buffer buffer_;
    std::optional<RequestHead> head_;
    std::string bytes_; // the answer being written
    std::list<Connection*>::iterator place_;
    bool listed_ = true;
    bool waiting_ = true; // for a request head: may be closed to make room for a new one
    bool lingering_ = false;
    std::size_t dropped_ = 0;
    std::array<char, 4096> drop_{};
};

Server::Server(Site* site, const ServerSettings& settings)
    : site_(site), settings_(settings),
      workers_(static_cast<std::size_t>(std::max(1, settings.threads))) {
    settings_.max_connections = std::max(1, settings_.max_connections);
    settings_.timeout_seconds = std::max(1, settings_.timeout_seconds);
    // Each connection is a file: raise the soft limit so the cap, not the limit, decides.
    rlimit files{};
    const auto wanted = static_cast<rlim_t>(settings_.max_connections) + 256;
    if (::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < wanted) {
        files.rlim_cur = std::min(wanted, files.rlim_max);
        ::setrlimit(RLIMIT_NOFILE, &files);
    }
    try {
        beast::error_code ec;
        asio::ip::address address = asio::ip::make_address(settings_.host, ec);
        if (ec) {
            tcp::resolver resolver(io_);
            address = resolver.resolve(settings_.host, "")->endpoint().address();
        }
        const tcp::endpoint endpoint(address, static_cast<std::uint16_t>(settings_.port));
        acceptor_.open(endpoint.protocol());
        // SO_REUSEADDR for a quick restart; not SO_REUSEPORT, which would let a second server
        // share the port unnoticed.
        acceptor_.set_option(tcp::acceptor::reuse_address(true));
        acceptor_.bind(endpoint);
        acceptor_.listen(asio::socket_base::max_listen_connections);
        port_ = acceptor_.local_endpoint().port();
    } catch (const std::exception& e) {
        throw std::runtime_error("web: cannot listen on " + settings_.host + ":" +
                                 std::to_string(settings_.port) + ": " + e.what());
    }
}

void Server::start() {
    if (io_thread_.joinable() || stopped_)
        return;
    accept();
    io_thread_ = std::thread([this] {
        // A handler that throws (out of memory) costs its connection, not the server.
        for (;;) {
            try {
                io_.run();
                return;
            } catch (const std::exception&) {
            }
        }
    });
}

void Server::stop() {
    if (stopped_)
        return;
    stopped_ = true;
    if (io_thread_.joinable()) {
        asio::post(io_, [this] {
            beast::error_code ignored;
            acceptor_.close(ignored);
            accept_pause_.cancel();
            while (!open_.empty())
                open_.front()->close();
            io_.stop();
        });
        io_thread_.join();
    }
    // Pages being made finish; their answers go to a stopped io_context and are dropped with it.
    workers_.join();
    beast::error_code ignored;
    acceptor_.close(ignored);
}

void Server::accept() {
    acceptor_.async_accept([this](beast::error_code ec, tcp::socket socket) {
        if (ec == asio::error::operation_aborted || !acceptor_.is_open())
            return;
        if (ec) {
            // Out of files (or memory): make room, and pause so the loop does not spin.
            if (ec == asio::error::no_descriptors || ec.value() == ENFILE ||
                ec == asio::error::no_buffer_space || ec == asio::error::no_memory)
                close_longest_waiting();
            accept_pause_.expires_after(std::chrono::milliseconds(20));
            accept_pause_.async_wait([this](beast::error_code e) {
                if (!e)
                    accept();
            });
            return;
        }
        if (static_cast<int>(open_.size()) >= settings_.max_connections &&
            !close_longest_waiting()) {
            beast::error_code ignored;
            socket.close(ignored); // every connection is being answered: refuse this one
        } else {
            beast::error_code ignored;
            // Else each answer's body would wait for the client's delayed ACK.
            socket.set_option(tcp::no_delay(true), ignored);
            std::make_shared<Connection>(*this, std::move(socket))->read_head();
        }
        accept();
    });
}

bool Server::close_longest_waiting() {
    for (Connection* c : open_)
        if (c->waiting()) {
            c->close();
            return true;
        }
    return false;
}

void Server::dispatch(std::shared_ptr<Connection> c, Request request) {
    const int capacity = std::max(1, settings_.threads) + std::max(0, settings_.max_waiting);
    if (in_flight_ >= capacity) {
        Answer busy = text_answer(503, "Too many requests; try again shortly.\n");
        busy.headers.emplace_back("Retry-After", "1");
        return c->write(serialize(busy, request.head_only, request.keep_alive), request.keep_alive);
    }
    ++in_flight_;
    asio::post(workers_, [this, c = std::move(c), request = std::move(request)]() mutable {
        std::string bytes = serialize(answer(request), request.head_only, request.keep_alive);
        asio::post(io_, [this, c = std::move(c), bytes = std::move(bytes),
                         keep_alive = request.keep_alive]() mutable {
            --in_flight_;
            c->write(std::move(bytes), keep_alive);
        });
    });
}

Answer Server::answer(const Request& request) const {
    const std::size_t mark = std::min(request.target.find('?'), request.target.size());
    const std::string path = decode(std::string_view(request.target).substr(0, mark), false);
    Answer a;
    try {
        if (const auto route = routes_.find(path); route != routes_.end()) {
            Response r = route->second();
            a = Answer{r.status, std::move(r.content_type), std::move(r.body), {}};
        } else if (site_ == nullptr) {
            a = text_answer(404, "Not found.\n");
        } else {
            const Query query = parse_query(mark < request.target.size()
                                                ? std::string_view(request.target).substr(mark + 1)
                                                : std::string_view());
            bool remember = false;
            const std::string language = page_language(query, request, remember);
            Page page = site_->get(path, query, language);
            const bool is_html = page.content_type.rfind("text/html", 0) == 0;
            a = Answer{page.status, std::move(page.content_type), std::move(page.body), {}};
            if (remember)
                a.headers.emplace_back(
                    "Set-Cookie", "lang=" + language + "; Path=/; Max-Age=31536000; SameSite=Lax");
            // A page is in its reader's language: a cache keeps one copy per language asked.
            if (is_html || path.ends_with("board.svg"))
                a.headers.emplace_back("Vary", "Accept-Language, Cookie");
            if (!page.etag.empty()) {
                a.headers.emplace_back("ETag", page.etag);
                a.headers.emplace_back("Cache-Control", "no-cache"); // keep, but ask each time
                if (page.status == 200 && request.if_none_match == page.etag) {
                    a.status = 304;
                    a.content_type.clear();
                    a.body.clear();
                    return a;
                }
            }
            if (!page.filename.empty())
                a.headers.emplace_back("Content-Disposition",
                                       "attachment; filename=\"" + page.filename + "\"");
        }
    } catch (const std::exception&) {
        return text_answer(500, "Something went wrong on our side; try again later.\n");
    }
    if (!a.body.empty() && compressible(a.content_type)) {
        a.headers.emplace_back("Vary", "Accept-Encoding");
        if (accepts_gzip(request.accept_encoding))
            if (auto packed = gzip(a.body)) {
                a.body = std::move(*packed);
                a.headers.emplace_back("Content-Encoding", "gzip");
            }
    }
    return a;
}

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
    Server server;
    Impl(Site* site, const ServerSettings& settings) : server(site, settings) {}
};

WebServer::WebServer(Site& site, const ServerSettings& settings)
    : impl_(std::make_unique<Impl>(&site, settings)) {}

WebServer::WebServer(const ServerSettings& settings)
    : impl_(std::make_unique<Impl>(nullptr, settings)) {}

WebServer::~WebServer() = default;

void WebServer::route(std::string path, std::function<Response()> handler) {
    impl_->server.route(std::move(path), std::move(handler));
}

int WebServer::port() const {
    return impl_->server.port();
}

void WebServer::start() {
    impl_->server.start();
}

void WebServer::stop() {
    impl_->server.stop();
}

} // namespace ghostpost::web
