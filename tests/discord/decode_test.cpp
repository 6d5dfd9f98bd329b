// decode_message and the cursor: pure functions, checked on messages as Discord writes them.
#include "ghostpost/discord/discord.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace ghostpost;
using nlohmann::json;

namespace {

const std::string bot_id = "900000000000000001";

json message(const std::string& content) {
    return {{"id", "1500000000000000001"},
            {"type", 0},
            {"channel_id", "300000000000000001"},
            {"guild_id", "800000000000000001"},
            {"author",
             {{"id", "100000000000000007"}, {"username", "alice"}, {"global_name", "Alice A."}}},
            {"member", {{"nick", "Queen\nAlice\u202E"}}},
            {"content", content},
            {"mentions", json::array()}};
}

} // namespace

TEST_CASE("a leading mention of the bot addresses it, other mentions become @username",
          "[discord][decode]") {
    json m = message("<@900000000000000001> !new chess <@!100000000000000008> <@123>");
    m["mentions"] = {{{"id", bot_id}, {"username", "ghostpost"}, {"bot", true}},
                     {{"id", "100000000000000008"}, {"username", "bob"}, {"global_name", "Bobby"}}};
    const auto decoded = bot::decode_message(m.dump(), bot_id);
    REQUIRE(decoded.post);
    CHECK(decoded.post->text == "!new chess @bob <@123>"); // <@123> is in no mentions array
    REQUIRE(decoded.post->mentions.size() == 1);
    CHECK(decoded.post->mentions[0].user_id == "100000000000000008");
    CHECK(decoded.post->mentions[0].handle == "bob");
    CHECK(decoded.post->mentions[0].name == "Bobby");
    CHECK(decoded.post->author_name == "Queen Alice "); // the nick, controls made spaces
    CHECK(decoded.post->author_handle == "alice");
    CHECK_FALSE(decoded.post->direct);
}

TEST_CASE("a channel Discord writes as <#id> reads #id, as the service reads a channel",
          "[discord][decode]") {
    const auto decoded = bot::decode_message(
        message("!new chess team=<#300000000000000002> window=4h <#x1>").dump(), bot_id);
    REQUIRE(decoded.post);
    // "<#x1>" names no channel: it stays as written.
    CHECK(decoded.post->text == "!new chess team=#300000000000000002 window=4h <#x1>");
    CHECK(bot::channel_mentions_as_ids("<#1> and <#2") == "#1 and <#2");
}

TEST_CASE("a DM has no guild_id, and bots, system messages and joins give no post",
          "[discord][decode]") {
    json dm = message("!games");
    dm.erase("guild_id");
    dm.erase("member");
    auto decoded = bot::decode_message(dm.dump(), bot_id);
    REQUIRE(decoded.post);
    CHECK(decoded.post->direct);
    CHECK(decoded.post->author_name == "Alice A.");

    json own = message("Game #1: e4");
    own["author"] = {{"id", bot_id}, {"username", "ghostpost"}};
    CHECK_FALSE(bot::decode_message(own.dump(), bot_id).post);
    json other_bot = message("!new chess");
    other_bot["author"]["bot"] = true;
    CHECK_FALSE(bot::decode_message(other_bot.dump(), bot_id).post);
    json join = message("");
    join["type"] = 7;
    decoded = bot::decode_message(join.dump(), bot_id);
    CHECK_FALSE(decoded.post);
    CHECK(decoded.problem.empty());
}

TEST_CASE("malformed messages are skipped with a reason, never thrown", "[discord][decode]") {
    for (const std::string text :
         {"", "[]", "{\"id\":1}",
          "{\"id\":\"01\",\"channel_id\":\"2\",\"author\":{\"id\":\"3\"},"
          "\"content\":\"x\"}",
          "{\"id\":\"1\",\"channel_id\":\"2\",\"author\":{\"id\":\"3\"},\"content\":7}",
          "{\"id\":\"1\",\"channel_id\":\"2\",\"author\":{\"id\":\"3\"},\"content\":\"<@\"}"}) {
        const auto decoded = bot::decode_message(text, bot_id);
        if (text.ends_with("\"<@\"}")) {
            REQUIRE(decoded.post);
            CHECK(decoded.post->text == "<@");
        } else {
            CHECK_FALSE(decoded.post);
            CHECK_FALSE(decoded.problem.empty());
        }
    }
}

TEST_CASE("an interaction is read only when it is one of ghostpost's commands, from a user",
          "[discord][decode]") {
    const json user = {{"id", "100000000000000007"}, {"username", "alice"}};
    const auto command = [&](const json& data) {
        return json{{"id", "500000000000000001"},
                    {"application_id", "900000000000000002"},
                    {"type", 2},
                    {"token", "t"},
                    {"channel_id", "300000000000000001"},
                    {"guild_id", "800000000000000001"},
                    {"member", {{"user", user}, {"nick", "Alice W."}}},
                    {"data", data}};
    };
    auto decoded = bot::decode_interaction(
        command({{"name", "draw"}, {"options", {{{"name", "game"}, {"value", 12}}}}}).dump(),
        bot_id);
    REQUIRE(decoded.post);
    CHECK(decoded.post->text == "!draw 12");
    CHECK(decoded.post->author_name == "Alice W.");
    CHECK(decoded.id == "500000000000000001");
    CHECK(decoded.token == "t");

    // An option of the wrong type is left out; the service then asks what was meant.
    decoded = bot::decode_interaction(
        command({{"name", "move"}, {"options", {{{"name", "move"}, {"value", 7}}}}}).dump(),
        bot_id);
    REQUIRE(decoded.post);
    CHECK(decoded.post->text == "!move");
    // A user option the resolved data does not name is no mention.
    decoded = bot::decode_interaction(
        command({{"name", "games"}, {"options", {{{"name", "player"}, {"value", "1"}}}}}).dump(),
        bot_id);
    REQUIRE(decoded.post);
    CHECK(decoded.post->text == "!games");
    CHECK(decoded.post->mentions.empty());

    decoded = bot::decode_interaction(command({{"name", "delete-everything"}}).dump(), bot_id);
    CHECK_FALSE(decoded.post);
    CHECK(decoded.problem == "an application command ghostpost does not have");
    json button = command({{"custom_id", "x"}});
    button["type"] = 3; // a component: ghostpost has none
    decoded = bot::decode_interaction(button.dump(), bot_id);
    CHECK_FALSE(decoded.post);
    CHECK(decoded.problem.empty());
    json no_user = command({{"name", "help"}});
    no_user.erase("member");
    decoded = bot::decode_interaction(no_user.dump(), bot_id);
    CHECK_FALSE(decoded.post);
    CHECK(decoded.problem == "an application command without channel_id, user or data");
    CHECK(bot::decode_interaction("[1]", bot_id).problem == "not a JSON object");
    CHECK(bot::decode_interaction("{\"id\":\"1\"}", bot_id).problem ==
          "an interaction without id or token");
}

TEST_CASE("the cursor keeps the newest 500 channels and reads back what it wrote",
          "[discord][decode]") {
    bot::DiscordCursor cursor;
    for (int i = 0; i < 600; ++i)
        cursor["3000000000000" + std::to_string(10000 + i)] =
            "15000000000" + std::to_string(10000 + i);
    const auto back = bot::parse_discord_cursor(bot::format_discord_cursor(cursor));
    REQUIRE(back.size() == 500);
    CHECK(back.begin()->first == "300000000000010100"); // the 100 oldest went
    CHECK(bot::parse_discord_cursor("not json").empty());
    CHECK(bot::parse_discord_cursor("{\"1\":\"x\",\"2\":\"3\"}") == bot::DiscordCursor{{"2", "3"}});
    CHECK(bot::snowflake_less("999", "1000"));
    CHECK_FALSE(bot::snowflake_less("1000", "1000"));
}

TEST_CASE("an interaction carries its user's language; a locale that is no tag is left unsaid",
          "[discord][decode][language]") {
    const json user = {{"id", "100000000000000007"}, {"username", "alice"}};
    const auto command = [&](const json& locale) {
        json c{{"id", "500000000000000001"},
               {"application_id", "900000000000000002"},
               {"type", 2},
               {"token", "t"},
               {"channel_id", "300000000000000001"},
               {"guild_id", "800000000000000001"},
               {"member", {{"user", user}, {"nick", "Alice W."}}},
               {"data", {{"name", "board"}}}};
        if (!locale.is_null())
            c["locale"] = locale;
        return c.dump();
    };
    CHECK(bot::decode_interaction(command("de"), bot_id).post->language == "de");
    CHECK(bot::decode_interaction(command("pt-BR"), bot_id).post->language == "pt-BR");
    CHECK(bot::decode_interaction(command(json()), bot_id).post->language.empty());
    CHECK(bot::decode_interaction(command("de\nX-Evil: 1"), bot_id).post->language.empty());
    CHECK(bot::decode_interaction(command(7), bot_id).post->language.empty());
}

TEST_CASE("a fresh session reads the channels its GUILD_CREATE names with posts newer than the "
          "cursor's",
          "[discord][decode]") {
    // Snowflakes of milliseconds t since Discord's epoch: t << 22.
    const auto at = [](std::uint64_t ms) { return std::to_string(ms << 22); };
    const bot::DiscordCursor cursor{{"300000000000000001", at(100000)},
                                    {"300000000000000002", at(90000)}};
    const auto guild = [](const json& channels) {
        return json{{"id", "800000000000000001"}, {"channels", channels}};
    };
    const auto channel = [](const std::string& id, const json& last) {
        return json{{"id", id}, {"type", 0}, {"last_message_id", last}};
    };
    const std::string floor = at(90000); // ten seconds before the cursor's newest
    CHECK(
        bot::unread_channels(
            guild(json::array(
                {channel("300000000000000001", at(120000)),
                 channel("300000000000000003", at(95000)), channel("300000000000000004", at(90000)),
                 channel("300000000000000005", at(80000)), channel("300000000000000006", nullptr),
                 json("garbled"), channel("not a snowflake", at(99000))})),
            cursor) ==
        bot::DiscordCursor{{"300000000000000001", at(100000)}, {"300000000000000003", floor}});
    // A known channel with nothing newer is not read.
    CHECK(
        bot::unread_channels(guild(json::array({channel("300000000000000002", at(90000))})), cursor)
            .empty());
    // The bot's own newest message: a channel whose newest is the bot's is not read, one with a
    // newer post is read from its last handled post; the bot's messages move no floor.
    bot::DiscordCursor with_own = cursor;
    with_own[bot::own_key("300000000000000002")] = at(130000);
    with_own[bot::own_key("300000000000000001")] = at(110000);
    CHECK(bot::unread_channels(guild(json::array({channel("300000000000000002", at(130000)),
                                                  channel("300000000000000001", at(120000)),
                                                  channel("300000000000000003", at(95000))})),
                               with_own) ==
          bot::DiscordCursor{{"300000000000000001", at(100000)}, {"300000000000000003", floor}});
    // The key survives the cursor's text.
    CHECK(bot::parse_discord_cursor(bot::format_discord_cursor(with_own)) == with_own);
    CHECK(bot::own_key("300000000000000002") == "bot:300000000000000002");
    // A bot that never handled a post has nothing missed; a guild without channels names none.
    CHECK(bot::unread_channels(guild(json::array({channel("300000000000000003", at(95000))})), {})
              .empty());
    CHECK(bot::unread_channels(json{{"id", "800000000000000001"}}, cursor).empty());
    CHECK(bot::unread_channels(json("garbled"), cursor).empty());
}
