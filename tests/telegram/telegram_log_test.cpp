// Logs are JSON lines, and a registered secret never survives into one.
#include "ghostpost/log/log.h"

#include <catch2/catch.hpp>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace ghostpost::bot;

TEST_CASE("a log line is one JSON object with the event and its fields", "[log]") {
    std::ostringstream out;
    log::set_sink(out);
    log::set_level(log::Level::Info);
    log::info("reply_sent", {{"chat", "-100"}, {"attempt", 2}, {"ok", true}});
    log::debug("dropped", {});
    log::set_sink(std::cerr);
    const std::string text = out.str();
    REQUIRE(std::count(text.begin(), text.end(), '\n') == 1);
    const auto line = nlohmann::json::parse(text);
    CHECK(line["level"] == "info");
    CHECK(line["event"] == "reply_sent");
    CHECK(line["chat"] == "-100");
    CHECK(line["attempt"] == 2);
    CHECK(line["ok"] == true);
    CHECK(line["ts"].get<std::string>().ends_with("Z"));
}

TEST_CASE("the token is cut out of every line, in any spelling", "[log]") {
    std::ostringstream out;
    log::set_sink(out);
    log::add_secret("123456:AAF-secret_part");
    log::error("http_failed", {{"url", "https://api.telegram.org/bot123456:AAF-secret_part/getMe"},
                               {"encoded", "bot123456%3AAAF-secret_part"},
                               {"tail", "…AAF-secret_part…"}});
    log::set_sink(std::cerr);
    const std::string text = out.str();
    CHECK(text.find("secret_part") == std::string::npos);
    const auto line = nlohmann::json::parse(text);
    CHECK(line["url"] == "https://api.telegram.org/bot[redacted]/getMe");
    CHECK(line["encoded"] == "bot[redacted]");
    CHECK(line["tail"] == "…[redacted]…");
    CHECK(log::redact("x 123456:AAF-secret_part y") == "x [redacted] y");
    log::clear_secrets();
}

TEST_CASE("invalid UTF-8 in a field does not break the line", "[log]") {
    std::ostringstream out;
    log::set_sink(out);
    log::warning("odd_text", {{"text", std::string("a\xff"
                                                   "b")}});
    log::set_sink(std::cerr);
    CHECK(nlohmann::json::parse(out.str())["text"] == "a\xEF\xBF\xBD"
                                                      "b");
}
