// The pages over HTTP on loopback: headers, 304 on a matching ETag, gzip when asked, 404s, and
// a download's name.
#include "ghostpost/web/server.h"
#include "ghostpost/web/site.h"
#include "web_support.h"

#include <arpa/inet.h>
#include <catch2/catch.hpp>
#include <chrono>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace ghostpost;
using ghostpost::test::WebDb;
using rules::Seat;

namespace {

struct Served {
    WebDb db;
    std::int64_t id = db.new_game("chess", 1);
    web::Site site{web::SiteSettings{db.path()}};
    web::WebServer server{site, web::ServerSettings{"127.0.0.1", 0, 2, 8, 2}};
    Served() {
        db.log(id, 1, Seat::White, "e4");
        server.start();
    }
    httplib::Client client() { return httplib::Client("127.0.0.1", server.port()); }
};

} // namespace

TEST_CASE("Every answer carries the security headers; a game page an ETag", "[web][http]") {
    Served s;
    auto c = s.client();
    for (const std::string path : {"/game/1", "/nope", "/static/game.js"}) {
        INFO(path);
        auto res = c.Get(path.c_str());
        REQUIRE(res);
        CHECK(res->get_header_value("Content-Security-Policy") ==
              "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
              "base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
        CHECK(res->get_header_value("X-Content-Type-Options") == "nosniff");
        CHECK(res->get_header_value("Referrer-Policy") == "no-referrer");
    }
    auto page = c.Get("/game/1");
    REQUIRE(page);
    CHECK(page->status == 200);
    CHECK(page->get_header_value("Content-Type") == "text/html; charset=utf-8");
    CHECK(page->get_header_value("ETag") == s.site.get("/game/1").etag);
    auto missing = c.Get("/game/2");
    REQUIRE(missing);
    CHECK(missing->status == 404);
    CHECK(missing->body.find("There is no game #2.") != std::string::npos);
    auto script = c.Get("/static/game.js");
    REQUIRE(script);
    CHECK(script->get_header_value("Content-Type") == "text/javascript; charset=utf-8");
}

TEST_CASE("A reload with the page's ETag gets 304 until the game changes", "[web][http]") {
    Served s;
    auto c = s.client();
    auto first = c.Get("/game/1");
    REQUIRE(first);
    const std::string etag = first->get_header_value("ETag");
    auto again = c.Get("/game/1", {{"If-None-Match", etag}});
    REQUIRE(again);
    CHECK(again->status == 304);
    CHECK(again->body.empty());
    s.db.log(s.id, 2, Seat::Black, "c5");
    auto changed = c.Get("/game/1", {{"If-None-Match", etag}});
    REQUIRE(changed);
    CHECK(changed->status == 200);
    CHECK(changed->get_header_value("ETag") != etag);
    CHECK(changed->body.find("data-square=\"c5\" data-piece=\"p\"") != std::string::npos);
}

TEST_CASE("A client that asks for gzip gets the same page compressed", "[web][http]") {
    Served s;
    auto c = s.client();
    auto plain = c.Get("/game/1");
    REQUIRE(plain);
    CHECK(plain->get_header_value("Content-Encoding") == "");
    c.set_decompress(false);
    auto raw = c.Get("/game/1", {{"Accept-Encoding", "gzip"}});
    REQUIRE(raw);
    CHECK(raw->get_header_value("Content-Encoding") == "gzip");
    REQUIRE(raw->body.size() > 2);
    CHECK(static_cast<unsigned char>(raw->body[0]) == 0x1f);
    CHECK(static_cast<unsigned char>(raw->body[1]) == 0x8b);
    CHECK(raw->body.size() < plain->body.size() / 2);
    c.set_decompress(true);
    auto unpacked = c.Get("/game/1", {{"Accept-Encoding", "gzip"}});
    REQUIRE(unpacked);
    CHECK(unpacked->body == plain->body);
}

TEST_CASE("The PGN comes as a download named after the game", "[web][http]") {
    Served s;
    auto c = s.client();
    auto res = c.Get("/game/1/pgn");
    REQUIRE(res);
    CHECK(res->status == 200);
    CHECK(res->get_header_value("Content-Disposition") ==
          "attachment; filename=\"ghostpost-game-1.pgn\"");
    CHECK(res->body.find("\n\n1. e4 *\n") != std::string::npos);
}

TEST_CASE("A listen address is host:port", "[web]") {
    const auto s = web::parse_listen("127.0.0.1:8080");
    CHECK(s.host == "127.0.0.1");
    CHECK(s.port == 8080);
    CHECK(web::parse_listen("[::1]:80").host == "::1");
    CHECK(web::parse_listen("127.0.0.1:0").port == 0); // any free port
    for (const std::string bad : {"8080", ":80", "host:", "host:x", "host:65536", "host:123456"}) {
        INFO(bad);
        CHECK_THROWS_AS(web::parse_listen(bad), std::invalid_argument);
    }
}

namespace {

// A TCP connection to the server that sends nothing until asked: a slow client.
class RawConnection {
public:
    explicit RawConnection(int port) {
        fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
        REQUIRE(fd_ >= 0);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(static_cast<std::uint16_t>(port));
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        REQUIRE(::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    }
    ~RawConnection() { ::close(fd_); }
    // Sends a GET of `path` and returns the status line of the answer.
    std::string get(const std::string& path) {
        const std::string request = "GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n";
        REQUIRE(::send(fd_, request.data(), request.size(), 0) ==
                static_cast<ssize_t>(request.size()));
        std::string answer;
        char buf[512];
        while (answer.find("\r\n") == std::string::npos) {
            const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
            if (n <= 0)
                break;
            answer.append(buf, static_cast<std::size_t>(n));
        }
        return answer.substr(0, answer.find("\r\n"));
    }

private:
    int fd_ = -1;
};

} // namespace

TEST_CASE("Connections past the cap are answered 503 while slow clients hold the worker",
          "[web][http]") {
    WebDb db;
    web::Site site{web::SiteSettings{db.path()}};
    // One worker, one connection may wait for it, reads time out after 2 s.
    web::WebServer server{site, web::ServerSettings{"127.0.0.1", 0, 1, 1, 2}};
    server.start();
    RawConnection holding(server.port()); // the worker waits for its request
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    RawConnection waiting(server.port()); // waits for the worker
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    RawConnection shed(server.port());
    CHECK(shed.get("/") == "HTTP/1.1 503 Service Unavailable");
    // The slow client's read times out; the one waiting is then served.
    CHECK(waiting.get("/") == "HTTP/1.1 200 OK");
}

TEST_CASE("A game page is served over HTTP from a PostgreSQL database, and follows its moves",
          "[web][http][postgres]") {
    WebDb db(ghostpost::testing::Backend::Postgres);
    const std::int64_t id = db.new_game("chess", 1);
    db.log(id, 1, Seat::White, "e4");
    web::Site site{db.site()};
    web::WebServer server{site, web::ServerSettings{"127.0.0.1", 0, 2, 8, 2}};
    server.start();
    httplib::Client c("127.0.0.1", server.port());
    auto page = c.Get("/game/1");
    REQUIRE(page);
    CHECK(page->status == 200);
    CHECK(page->body.find("data-square=\"e4\" data-piece=\"P\"") != std::string::npos);
    CHECK(page->body.find("ply 1 of 1") != std::string::npos);
    const std::string etag = page->get_header_value("ETag");
    db.log(id, 2, Seat::Black, "c5"); // a daemon's move, committed meanwhile
    auto changed = c.Get("/game/1", {{"If-None-Match", etag}});
    REQUIRE(changed);
    CHECK(changed->status == 200);
    CHECK(changed->body.find("data-square=\"c5\" data-piece=\"p\"") != std::string::npos);
    auto index = c.Get("/");
    REQUIRE(index);
    CHECK(index->body.find("<a href=\"/game/1\">#1</a>") != std::string::npos);
    auto missing = c.Get("/game/2");
    REQUIRE(missing);
    CHECK(missing->status == 404);
}
