// The HTTP server under hostile clients on loopback (issue 33): header floods, range floods,
// bodies on GET, and a thousand idle or trickling sockets, while a normal reader must still get
// its page within a second and the process's memory stays bounded.
#include "ghostpost/web/server.h"
#include "ghostpost/web/site.h"
#include "web_support.h"

#include <arpa/inet.h>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace ghostpost;
using namespace std::chrono_literals;
using ghostpost::test::WebDb;
using rules::Seat;

namespace {

// The process's resident memory in KB.
long rss_kb() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmRSS:", 0) == 0)
            return std::stol(line.substr(6));
    return -1;
}

// A raw TCP connection that sends exactly what it is told, and gives up reading after 3 s.
class Socket {
public:
    explicit Socket(int port) {
        fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
        REQUIRE(fd_ >= 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(static_cast<std::uint16_t>(port));
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        REQUIRE(::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
        timeval limit{3, 0};
        ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
    }
    ~Socket() {
        if (fd_ >= 0)
            ::close(fd_);
    }
    Socket(Socket&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
    Socket& operator=(Socket&&) = delete;

    // False once the server has closed or reset the connection.
    bool send(const std::string& bytes) {
        std::size_t sent = 0;
        while (sent < bytes.size()) {
            const ssize_t n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
            if (n <= 0)
                return false;
            sent += static_cast<std::size_t>(n);
        }
        return true;
    }
    // Everything until the server closes, 3 s pass in silence, or `enough` bytes have come.
    std::string read_all(std::size_t enough = SIZE_MAX) {
        std::string answer;
        char buf[16384];
        while (answer.size() < enough) {
            const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
            if (n <= 0)
                break;
            answer.append(buf, static_cast<std::size_t>(n));
        }
        return answer;
    }
    // One whole answer (head and Content-Length body) on a kept-alive connection.
    std::string read_answer() {
        std::string answer;
        char buf[16384];
        for (;;) {
            const std::size_t end = answer.find("\r\n\r\n");
            if (end != std::string::npos) {
                const std::size_t at = answer.find("Content-Length: ");
                const std::size_t length =
                    at < end ? std::stoul(answer.substr(at + 16, answer.find("\r\n", at) - at - 16))
                             : 0;
                if (answer.size() >= end + 4 + length)
                    return answer;
            }
            const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
            if (n <= 0)
                return answer;
            answer.append(buf, static_cast<std::size_t>(n));
        }
    }
    // Whether the server closed the connection (read returns 0 or a reset) within 3 s.
    bool closed_by_server() {
        char buf[4096];
        for (;;) {
            const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
            if (n == 0 || (n < 0 && errno == ECONNRESET))
                return true;
            if (n < 0)
                return false; // timed out: still open
        }
    }

private:
    int fd_ = -1;
};

std::string status_line(const std::string& answer) {
    return answer.substr(0, answer.find("\r\n"));
}

std::string header(const std::string& answer, const std::string& name) {
    const std::size_t end = answer.find("\r\n\r\n");
    const std::size_t at = answer.find("\r\n" + name + ": ");
    if (at == std::string::npos || at > end)
        return "";
    const std::size_t from = at + name.size() + 4;
    return answer.substr(from, answer.find("\r\n", from) - from);
}

std::string body(const std::string& answer) {
    const std::size_t end = answer.find("\r\n\r\n");
    return end == std::string::npos ? "" : answer.substr(end + 4);
}

// `count` lines of `X-<n>: y`.
std::string header_lines(std::size_t count) {
    std::string lines;
    for (std::size_t i = 0; i < count; ++i)
        lines += "X-" + std::to_string(i) + ": y\r\n";
    return lines;
}

// A normal reader: a fresh connection, GET /, the whole answer; returns its status line and
// how long it took.
std::pair<std::string, std::chrono::milliseconds> timed_get(int port, const std::string& path) {
    const auto start = std::chrono::steady_clock::now();
    Socket s(port);
    s.send("GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    const std::string answer = s.read_all();
    return {status_line(answer), std::chrono::duration_cast<std::chrono::milliseconds>(
                                     std::chrono::steady_clock::now() - start)};
}

// Room for a few thousand sockets, both ends of each in this process.
void raise_file_limit(rlim_t wanted) {
    rlimit files{};
    REQUIRE(::getrlimit(RLIMIT_NOFILE, &files) == 0);
    if (files.rlim_cur < wanted) {
        files.rlim_cur = std::min(wanted, files.rlim_max);
        REQUIRE(::setrlimit(RLIMIT_NOFILE, &files) == 0);
    }
    REQUIRE(files.rlim_cur >= wanted);
}

struct Served {
    WebDb db;
    std::int64_t id = db.new_game("chess", 1);
    web::Site site{web::SiteSettings{db.path()}};
    web::WebServer server;
    explicit Served(web::ServerSettings settings = web::ServerSettings{"127.0.0.1", 0})
        : server(site, settings) {
        db.log(id, 1, Seat::White, "e4");
        server.start();
    }
    int port() const { return server.port(); }
};

} // namespace

TEST_CASE("A request of more than 100 header lines is answered 431 and closed; 100 are served",
          "[web][http][hostile]") {
    Served s;
    Socket hundred(s.port());
    hundred.send("GET / HTTP/1.1\r\nHost: x\r\n" + header_lines(99) + "\r\n");
    CHECK(status_line(hundred.read_answer()) == "HTTP/1.1 200 OK");

    Socket over(s.port());
    over.send("GET / HTTP/1.1\r\nHost: x\r\n" + header_lines(100) + "\r\n");
    const std::string answer = over.read_answer();
    CHECK(status_line(answer) == "HTTP/1.1 431 Request Header Fields Too Large");
    CHECK(header(answer, "Connection") == "close");
    CHECK(body(answer) == "The request's header is too large: at most 65536 bytes in 100 lines.\n");
    CHECK(over.closed_by_server());
}

TEST_CASE("Limits set lower than the defaults are obeyed: 10 header lines, 2 KB of head",
          "[web][http][hostile]") {
    web::ServerSettings settings{"127.0.0.1", 0};
    settings.max_header_lines = 10;
    settings.max_header_bytes = 2048;
    Served s(settings);
    Socket ten(s.port());
    ten.send("GET / HTTP/1.1\r\nHost: x\r\n" + header_lines(9) + "\r\n");
    CHECK(status_line(ten.read_answer()) == "HTTP/1.1 200 OK");

    Socket eleven(s.port());
    eleven.send("GET / HTTP/1.1\r\nHost: x\r\n" + header_lines(10) + "\r\n");
    const std::string answer = eleven.read_answer();
    CHECK(status_line(answer) == "HTTP/1.1 431 Request Header Fields Too Large");
    CHECK(body(answer) == "The request's header is too large: at most 2048 bytes in 10 lines.\n");
    CHECK(eleven.closed_by_server());

    Socket big(s.port());
    big.send("GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(3000, 'a') + "\r\n\r\n");
    CHECK(status_line(big.read_answer()) == "HTTP/1.1 431 Request Header Fields Too Large");
}

TEST_CASE("A request head over 64 KB is answered 431 and closed", "[web][http][hostile]") {
    Served s;
    Socket big(s.port());
    // 17 lines of 4 KB: few lines, but 68 KB.
    std::string fields;
    for (int i = 0; i < 17; ++i)
        fields += "X-" + std::to_string(i) + ": " + std::string(4096, 'y') + "\r\n";
    big.send("GET / HTTP/1.1\r\nHost: x\r\n" + fields + "\r\n");
    CHECK(status_line(big.read_answer()) == "HTTP/1.1 431 Request Header Fields Too Large");
    CHECK(big.closed_by_server());
}

TEST_CASE("20 MB of header lines are cut at 64 KB: 431, and the memory stays put",
          "[web][http][hostile]") {
    Served s;
    CHECK(status_line(timed_get(s.port(), "/").first) == "HTTP/1.1 200 OK"); // warm
    const long before = rss_kb();
    std::vector<std::thread> floods;
    std::atomic<int> refused{0};
    for (int c = 0; c < 4; ++c)
        floods.emplace_back([&] {
            Socket flood(s.port());
            std::string request = "GET / HTTP/1.1\r\nHost: x\r\n";
            std::size_t sent = 0, n = 0;
            // The server stops reading at 64 KB; a send fails once it has closed.
            while (sent < 20'000'000) {
                while (request.size() < 64 * 1024)
                    request += "X-" + std::to_string(n++) + ": y\r\n";
                if (!flood.send(request))
                    break;
                sent += request.size();
                request.clear();
            }
            if (status_line(flood.read_answer()) == "HTTP/1.1 431 Request Header Fields Too Large")
                ++refused;
        });
    for (auto& t : floods)
        t.join();
    const long after = rss_kb();
    INFO("RSS before " << before << " KB, after " << after << " KB");
    CHECK(refused == 4);
    CHECK(after - before < 32 * 1024); // 20 MB held per flood would be 80 MB
    CHECK(status_line(timed_get(s.port(), "/").first) == "HTTP/1.1 200 OK");
}

TEST_CASE("A page asked with 2,600 ranges is answered whole, 200, one copy",
          "[web][http][hostile]") {
    Served s;
    const std::string page = s.site.get("/game/1").body;
    std::string ranges = "bytes=0-";
    for (int i = 1; i < 2600; ++i)
        ranges += ",0-";
    Socket c(s.port());
    c.send("GET /game/1 HTTP/1.1\r\nHost: x\r\nRange: " + ranges + "\r\n\r\n");
    const std::string answer = c.read_answer();
    CHECK(status_line(answer) == "HTTP/1.1 200 OK");
    CHECK(header(answer, "Content-Type") == "text/html; charset=utf-8");
    CHECK(header(answer, "Content-Range").empty());
    CHECK(header(answer, "Content-Length") == std::to_string(page.size()));
    CHECK(body(answer) == page);
    // One range is ignored too: the pages are small, and a part of one is no use to anyone.
    Socket one(s.port());
    one.send("GET /game/1 HTTP/1.1\r\nHost: x\r\nRange: bytes=0-9\r\n\r\n");
    const std::string whole = one.read_answer();
    CHECK(status_line(whole) == "HTTP/1.1 200 OK");
    CHECK(body(whole) == page);
}

TEST_CASE("A GET that carries a body is refused 413 and closed", "[web][http][hostile]") {
    Served s;
    Socket sized(s.port());
    sized.send("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello");
    CHECK(status_line(sized.read_answer()) == "HTTP/1.1 413 Payload Too Large");
    CHECK(sized.closed_by_server());
    Socket chunked(s.port());
    chunked.send(
        "GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n");
    CHECK(status_line(chunked.read_answer()) == "HTTP/1.1 413 Payload Too Large");
    CHECK(chunked.closed_by_server());
}

TEST_CASE("A client that trickles its request head is cut when the time for it runs out",
          "[web][http][hostile]") {
    web::ServerSettings settings{"127.0.0.1", 0};
    settings.timeout_seconds = 1;
    Served s(settings);
    Socket slow(s.port());
    REQUIRE(slow.send("GET / HTTP/1.1\r\n"));
    const auto start = std::chrono::steady_clock::now();
    // A line every 300 ms keeps every single read short, but not the whole head.
    bool cut = false;
    for (int i = 0; i < 10 && !cut; ++i) {
        std::this_thread::sleep_for(300ms);
        cut = !slow.send("X-" + std::to_string(i) + ": y\r\n");
    }
    CHECK((cut || slow.closed_by_server()));
    CHECK(std::chrono::steady_clock::now() - start < 2500ms);
}

TEST_CASE("1,000 idle and trickling connections do not delay a normal page beyond 1 s",
          "[web][http][hostile]") {
    raise_file_limit(4096);
    Served s;
    CHECK(timed_get(s.port(), "/game/1").first == "HTTP/1.1 200 OK"); // the page rendered once
    const long before = rss_kb();
    std::vector<Socket> hostile;
    hostile.reserve(1000);
    for (int i = 0; i < 1000; ++i) {
        hostile.emplace_back(s.port());
        if (i % 2 == 1) // half begin a request and never end it
            hostile.back().send("GET / HTTP/1.1\r\nHost: x\r\n");
    }
    std::this_thread::sleep_for(300ms); // all accepted: they are open, not queued in the kernel
    std::atomic<bool> done{false};
    std::thread trickle([&] {
        for (int line = 0; !done; ++line) {
            for (std::size_t i = 1; i < hostile.size(); i += 2)
                hostile[i].send("X-" + std::to_string(line) + ": y\r\n");
            std::this_thread::sleep_for(200ms);
        }
    });
    std::chrono::milliseconds slowest{0};
    int served = 0;
    for (int i = 0; i < 20; ++i) {
        const auto [status, took] = timed_get(s.port(), i % 2 ? "/" : "/game/1");
        served += status == "HTTP/1.1 200 OK";
        slowest = std::max(slowest, took);
    }
    done = true;
    trickle.join();
    const long after = rss_kb();
    INFO("slowest " << slowest.count() << " ms; RSS before " << before << " KB, after " << after
                    << " KB");
    CHECK(served == 20);
    CHECK(slowest < 1000ms);
    CHECK(after - before < 64 * 1024);
}

TEST_CASE("Past the connection cap, the connection that waited longest is closed to make room",
          "[web][http][hostile]") {
    raise_file_limit(4096);
    web::ServerSettings settings{"127.0.0.1", 0};
    settings.max_connections = 100;
    Served s(settings);
    std::vector<Socket> idle;
    for (int i = 0; i < 300; ++i)
        idle.emplace_back(s.port());
    std::this_thread::sleep_for(200ms); // all accepted, the first 200 closed to make room
    CHECK(idle.front().closed_by_server());
    const auto [status, took] = timed_get(s.port(), "/");
    CHECK(status == "HTTP/1.1 200 OK");
    CHECK(took < 1000ms);
}

TEST_CASE("Requests past the workers and their queue are answered 503; slow clients hold none",
          "[web][http]") {
    // One worker, one request may wait for it.
    web::ServerSettings settings{"127.0.0.1", 0, 1, 1, 5};
    web::WebServer server(settings);
    std::atomic<bool> release{false};
    std::atomic<int> entered{0};
    server.route("/slow", [&] {
        ++entered;
        while (!release)
            std::this_thread::sleep_for(5ms);
        return web::Response{200, "text/plain; charset=utf-8", "done\n"};
    });
    server.start();
    Socket idle(server.port()); // holds no worker
    Socket first(server.port());
    first.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n");
    while (entered == 0)
        std::this_thread::sleep_for(5ms);
    Socket second(server.port());
    second.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n"); // waits for the worker
    std::this_thread::sleep_for(100ms);
    Socket third(server.port());
    third.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n");
    const std::string busy = third.read_answer();
    CHECK(status_line(busy) == "HTTP/1.1 503 Service Unavailable");
    CHECK(header(busy, "Retry-After") == "1");
    release = true;
    CHECK(body(first.read_answer()) == "done\n");
    CHECK(body(second.read_answer()) == "done\n");
}
