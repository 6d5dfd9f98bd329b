// The pages over HTTP on loopback: headers, 304 on a matching ETag, gzip when asked, 404s, and
// a download's name.
#include "ghostpost/web/server.h"
#include "ghostpost/web/site.h"
#include "served.h"
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
using ghostpost::test::Served;
using ghostpost::test::WebDb;
using rules::Seat;

TEST_CASE("Every answer carries the security headers; a game page an ETag", "[web][http]") {
    Served s;
    auto c = s.client();
    for (const std::string path : {"/game/1", "/nope", "/static/game.js"}) {
        INFO(path);
        auto res = c.Get(path.c_str());
        REQUIRE(res);
        CHECK(res->get_header_value("Content-Security-Policy") ==
              "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
              "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
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

// Sends `request` on a fresh connection and returns the whole answer (the server closes).
std::string exchange(int port, const std::string& request) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(fd >= 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    timeval limit{3, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
    REQUIRE(::send(fd, request.data(), request.size(), MSG_NOSIGNAL) ==
            static_cast<ssize_t>(request.size()));
    std::string answer;
    char buf[4096];
    for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;)
        answer.append(buf, static_cast<std::size_t>(n));
    ::close(fd);
    return answer;
}

} // namespace

TEST_CASE("Extra routes are answered on the pages' listener, before the pages", "[web][http]") {
    WebDb db;
    web::Site site{web::SiteSettings{db.path()}};
    web::WebServer server{site, web::ServerSettings{"127.0.0.1", 0, 2, 8, 2}};
    server.route("/healthz", [] {
        return web::Response{200, "application/json", "{\"ok\":true}"};
    });
    server.route("/metrics", [] {
        return web::Response{503, "text/plain; version=0.0.4", "ghostpost_up 0\n"};
    });
    server.route("/broken", []() -> web::Response { throw std::runtime_error("no"); });
    server.start();
    CHECK_THROWS_AS(server.route("/late", [] { return web::Response{}; }), std::logic_error);
    httplib::Client c("127.0.0.1", server.port());
    auto health = c.Get("/healthz");
    REQUIRE(health);
    CHECK(health->status == 200);
    CHECK(health->body == "{\"ok\":true}");
    CHECK(health->get_header_value("Content-Type") == "application/json");
    CHECK(health->get_header_value("X-Content-Type-Options") == "nosniff");
    auto metrics = c.Get("/metrics");
    REQUIRE(metrics);
    CHECK(metrics->status == 503);
    CHECK(metrics->body == "ghostpost_up 0\n");
    auto broken = c.Get("/broken");
    REQUIRE(broken);
    CHECK(broken->status == 500);
    CHECK(broken->body == "Something went wrong on our side; try again later.\n");
    auto page = c.Get("/");
    REQUIRE(page);
    CHECK(page->status == 200);
    CHECK(page->get_header_value("Content-Type") == "text/html; charset=utf-8");
}

TEST_CASE("A server of routes only answers them and 404 elsewhere", "[web][http]") {
    web::WebServer server{web::ServerSettings{"127.0.0.1", 0, 1, 8, 2}};
    int asked = 0;
    server.route("/metrics", [&] {
        ++asked;
        return web::Response{200, "text/plain; version=0.0.4", "ghostpost_posts_total 7\n"};
    });
    CHECK_THROWS_AS(server.route("metrics", [] { return web::Response{}; }), std::logic_error);
    server.start();
    const std::string metrics =
        exchange(server.port(), "GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    CHECK(metrics.substr(0, metrics.find("\r\n")) == "HTTP/1.1 200 OK");
    CHECK(metrics.find("\r\nContent-Type: text/plain; version=0.0.4\r\n") != std::string::npos);
    CHECK(metrics.substr(metrics.find("\r\n\r\n") + 4) == "ghostpost_posts_total 7\n");
    // HEAD: the same head, no body.
    const std::string head =
        exchange(server.port(), "HEAD /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    CHECK(head.find("\r\nContent-Length: 24\r\n") != std::string::npos);
    CHECK(head.substr(head.find("\r\n\r\n") + 4).empty());
    const std::string other =
        exchange(server.port(), "GET /game/1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    CHECK(other.substr(0, other.find("\r\n")) == "HTTP/1.1 404 Not Found");
    CHECK(other.substr(other.find("\r\n\r\n") + 4) == "Not found.\n");
    const std::string post =
        exchange(server.port(), "POST /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    CHECK(post.substr(0, post.find("\r\n")) == "HTTP/1.1 405 Method Not Allowed");
    CHECK(post.find("\r\nAllow: GET, HEAD\r\n") != std::string::npos);
    CHECK(asked == 2);
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
