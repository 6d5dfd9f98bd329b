// The pages over HTTP on loopback: headers, 304 on a matching ETag, gzip when asked, 404s, and
// a download's name.
#include "ghostpost/web/server.h"
#include "ghostpost/web/site.h"
#include "web_support.h"

#include <catch2/catch.hpp>
#include <httplib.h>

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
