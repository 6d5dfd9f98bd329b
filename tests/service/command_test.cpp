#include "ghostpost/console/console.h"
#include "ghostpost/service/command.h"

#include <catch2/catch.hpp>
#include <sstream>

using namespace ghostpost::bot;

TEST_CASE("A command is a prefix, a word and its arguments", "[bot][command]") {
    auto c = parse_command("  !New chess @bob  black speed=3 ", {"!", "/"});
    REQUIRE(c);
    CHECK(c->name == "new");
    CHECK(c->args == std::vector<std::string>{"chess", "@bob", "black", "speed=3"});
    auto slash = parse_command("/board@GhostPost 3", {"!", "/"});
    REQUIRE(slash);
    CHECK(slash->name == "board");
    CHECK(slash->addressee == "GhostPost");
    CHECK(slash->args == std::vector<std::string>{"3"});
}

TEST_CASE("Chatter and bare punctuation are not commands", "[bot][command]") {
    CHECK_FALSE(parse_command("hello !new", {"!"}));
    CHECK_FALSE(parse_command("! wow", {"!"}));
    CHECK_FALSE(parse_command("!!", {"!"}));
    CHECK_FALSE(parse_command("/new chess", {"!"}));
    CHECK_FALSE(parse_command("", {"!"}));
}

TEST_CASE("UTF-8 is checked strictly", "[bot][command]") {
    CHECK(valid_utf8("e4 \xE2\x99\x94 \xF0\x9F\x91\xBB"));
    CHECK_FALSE(valid_utf8("\xC0\xAF"));         // overlong '/'
    CHECK_FALSE(valid_utf8("\xED\xA0\x80"));     // a surrogate
    CHECK_FALSE(valid_utf8("\xF4\x90\x80\x80")); // past U+10FFFF
    CHECK_FALSE(valid_utf8("abc\xE2\x99"));      // cut short
    CHECK_FALSE(valid_utf8("\xFF"));
}

TEST_CASE("Echoed input is shortened by characters, not bytes", "[bot][command]") {
    CHECK(shorten("abcdef", 4) == "abcd...");
    CHECK(shorten("\xE2\x99\x94\xE2\x99\x94\xE2\x99\x94", 2) == "\xE2\x99\x94\xE2\x99\x94...");
    CHECK(shorten("abc", 4) == "abc");
}

TEST_CASE("Console lines follow the documented forms", "[bot][console]") {
    std::string error;
    auto post = parse_console_line("#lobby alice: !new chess @bob", error);
    REQUIRE(post);
    CHECK(post->channel == "lobby");
    CHECK(post->user == "alice");
    CHECK(post->text == "!new chess @bob");
    CHECK_FALSE(post->direct);

    auto dm = parse_console_line("[x7] @dm bob: !games", error);
    REQUIRE(dm);
    CHECK(dm->direct);
    CHECK(dm->user == "bob");
    CHECK(dm->explicit_id == "x7");

    CHECK_FALSE(parse_console_line("// a comment", error));
    CHECK(error.empty());
    CHECK_FALSE(parse_console_line("alice says hi", error));
    CHECK(error == "a post is \"#<channel> <user>: <text>\" or \"@dm <user>: <text>\"");
}

TEST_CASE("Console names are capped and must be UTF-8, and every @name is a handle mention",
          "[bot][console]") {
    std::string error;
    CHECK_FALSE(parse_console_line("#lobby " + std::string(65, 'a') + ": hi", error));
    CHECK(error == "a channel or user name is UTF-8 text of at most 64 bytes");
    error.clear();
    CHECK_FALSE(parse_console_line("#lob\xff"
                                   "by alice: hi",
                                   error));
    CHECK(error == "a channel or user name is UTF-8 text of at most 64 bytes");
    CHECK(parse_console_line("#lobby " + std::string(64, 'a') + ": hi", error));

    std::istringstream in("#lobby alice: !new chess @bob, or @carol! e@mail\n");
    std::ostringstream out;
    ghostpost::bot::ManualClock clock([] { return std::int64_t{1700000000}; });
    ghostpost::bot::ConsolePlatform console(in, out, clock);
    const auto posts = console.poll("", std::chrono::seconds(0));
    REQUIRE(posts.size() == 1);
    CHECK(posts[0].author_id == "alice");
    CHECK(posts[0].author_handle == "alice");
    REQUIRE(posts[0].mentions.size() == 2);
    CHECK(posts[0].mentions[0].handle == "bob");
    CHECK(posts[0].mentions[0].user_id.empty());
    CHECK(posts[0].mentions[1].handle == "carol");
}
