// The pages in the reader's language: Accept-Language, the switch (?lang= kept in a cookie),
// caches told that a page varies by them, and every language's pages free of English words.
#include "ghostpost/i18n/catalogs.h"
#include "ghostpost/web/server.h"
#include "ghostpost/web/site.h"
#include "served.h"
#include "web_support.h"

#include <catch2/catch.hpp>
#include <httplib.h>
#include <string>

using namespace ghostpost;
using ghostpost::test::Served;
using ghostpost::test::WebDb;
using rules::Seat;

namespace {

bool has(const std::string& page, const std::string& text) {
    return page.find(text) != std::string::npos;
}

} // namespace

TEST_CASE("A browser that asks for German gets the pages in German", "[web][http][i18n]") {
    Served s;
    auto c = s.client();
    auto page = c.Get("/game/1", {{"Accept-Language", "de-DE,de;q=0.9,en;q=0.8"}});
    REQUIRE(page);
    CHECK(page->status == 200);
    CHECK(has(page->body, "<html lang=\"de\">"));
    CHECK(has(page->body, "<h1>Partie #1 · FIDE-Schach</h1>"));
    CHECK(has(page->body, "<h2>Züge</h2>"));
    CHECK(has(page->body, "<th>Weiß</th>"));
    CHECK(has(page->body, "PGN herunterladen"));
    CHECK_FALSE(has(page->body, "<h2>Moves</h2>"));
    CHECK_FALSE(has(page->body, "Download PGN"));
    // The notation and the names stay as they are.
    CHECK(has(page->body, ">e4</a>"));
    CHECK(has(page->body, ">Alice</a>"));
    CHECK(page->get_header_value("Vary") == "Accept-Language, Cookie");

    auto index = c.Get("/", {{"Accept-Language", "de"}});
    REQUIRE(index);
    CHECK(has(index->body, "<h1>Laufende Partien</h1>"));
    auto missing = c.Get("/game/7", {{"Accept-Language", "de"}});
    REQUIRE(missing);
    CHECK(missing->status == 404);
    CHECK(has(missing->body, "Es gibt keine Partie #7."));

    // Without a preference, or with one for a language not shipped: English.
    auto plain = c.Get("/game/1");
    REQUIRE(plain);
    CHECK(has(plain->body, "<html lang=\"en\">"));
    CHECK(has(plain->body, "<h2>Moves</h2>"));
    auto other = c.Get("/game/1", {{"Accept-Language", "it-IT, it;q=0.9, *;q=0.5"}});
    REQUIRE(other);
    CHECK(other->body == plain->body);
}

TEST_CASE("A German page's ETag is not the English page's", "[web][http][i18n]") {
    Served s;
    auto c = s.client();
    auto german = c.Get("/game/1", {{"Accept-Language", "de"}});
    REQUIRE(german);
    const std::string etag = german->get_header_value("ETag");
    auto again = c.Get("/game/1", {{"Accept-Language", "de"}, {"If-None-Match", etag}});
    REQUIRE(again);
    CHECK(again->status == 304);
    CHECK(again->get_header_value("Vary") == "Accept-Language, Cookie");
    auto english = c.Get("/game/1", {{"If-None-Match", etag}});
    REQUIRE(english);
    CHECK(english->status == 200);
    CHECK(has(english->body, "<h2>Moves</h2>"));
}

TEST_CASE("The switch picks a language, and a cookie keeps it over the browser's",
          "[web][http][i18n]") {
    Served s;
    auto c = s.client();
    auto page = c.Get("/game/1", {{"Accept-Language", "de"}});
    REQUIRE(page);
    // Each language is offered, named in itself; the page's own is not a link.
    CHECK(has(page->body, "<strong lang=\"de\">Deutsch</strong>"));
    CHECK(has(page->body, "<a lang=\"fr\" hreflang=\"fr\" href=\"?lang=fr\">Français</a>"));
    CHECK(has(page->body, "<a lang=\"zh-CN\" hreflang=\"zh-CN\" href=\"?lang=zh_CN\">"));
    CHECK(has(page->body, "<a lang=\"en\" hreflang=\"en\" href=\"?lang=en\">English</a>"));

    auto french = c.Get("/game/1?lang=fr", {{"Accept-Language", "de"}});
    REQUIRE(french);
    CHECK(has(french->body, "<html lang=\"fr\">"));
    const std::string cookie = french->get_header_value("Set-Cookie");
    CHECK(cookie == "lang=fr; Path=/; Max-Age=31536000; SameSite=Lax");
    auto next = c.Get("/", {{"Accept-Language", "de"}, {"Cookie", "theme=dark; lang=fr"}});
    REQUIRE(next);
    CHECK(has(next->body, "<html lang=\"fr\">"));
    CHECK(next->get_header_value("Set-Cookie").empty());

    // English chosen over a German browser; a language not offered is no choice.
    auto english = c.Get("/?lang=en", {{"Accept-Language", "de"}});
    REQUIRE(english);
    CHECK(has(english->body, "<html lang=\"en\">"));
    CHECK(english->get_header_value("Set-Cookie") ==
          "lang=en; Path=/; Max-Age=31536000; SameSite=Lax");
    for (const std::string bad : {"xx", "qps", "%3Cscript%3E", ""}) {
        INFO(bad);
        auto refused = c.Get(("/?lang=" + bad).c_str(), {{"Accept-Language", "de"}});
        REQUIRE(refused);
        CHECK(has(refused->body, "<html lang=\"de\">"));
        CHECK(refused->get_header_value("Set-Cookie").empty());
    }
    auto forged = c.Get("/", {{"Cookie", "lang=<b>"}, {"Accept-Language", "ru"}});
    REQUIRE(forged);
    CHECK(has(forged->body, "<html lang=\"ru\">"));
}

TEST_CASE("Every page in every language has no English heading left", "[web][i18n]") {
    WebDb db;
    const std::int64_t id = db.new_game("chess", 1);
    db.log(id, 1, Seat::White, "e4");
    web::Site site{web::SiteSettings{db.path()}};
    // ("Ratings" is also Brazilian Portuguese.)
    const std::vector<std::string> english = {
        "<h2>Moves</h2>",     "Download PGN",     "Games under way", "Finished games",
        "No rated game yet.", "<h2>Leaderboards", "Not found"};
    for (const std::string& language : i18n::shipped_languages()) {
        for (const std::string path : {"/", "/game/1", "/player/1", "/leaderboard/chess", "/x"}) {
            INFO(language << " " << path);
            const std::string body = site.get(path, {}, language).body;
            for (const std::string& words : english)
                CHECK_FALSE(has(body, words));
        }
    }
}
