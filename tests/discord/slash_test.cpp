// Slash commands against the fake Discord: registered at READY, each interaction deferred at
// once and read as the post its text would be, the reply replacing the "thinking" message, and
// the bot without the Message Content intent.
#include "fake_discord.h"
#include "ghostpost/discord/discord.h"
#include "ghostpost/i18n/catalogs.h"
#include "ghostpost/service/service.h"

using namespace ghostpost;
using discord_test::FakeDiscord;
using discord_test::poll_for;
using nlohmann::json;

namespace {

const json alice = FakeDiscord::user("100000000000000007", "alice");
const json bob = FakeDiscord::user("100000000000000008", "bob");
const std::string channel = "300000000000000001";
const std::string guild = "800000000000000001";

bot::DiscordOptions slash_options(const FakeDiscord& fake) {
    bot::DiscordOptions options = discord_test::options_for(fake);
    options.variants = {"chess", "ghost", "phantom"};
    // As the app gives them from the variants' registry entries (VariantInfo::commands).
    options.variant_commands = {{"peek", "Spend a life to see both Phantoms by direct message"}};
    return options;
}

// `user` runs /`name` in the channel (or in their DM with the bot); returns the interaction id.
std::string interact(FakeDiscord& fake, const json& user, const std::string& name,
                     const json& options, bool dm = false, const json& resolved = nullptr,
                     int age_ms = 0) {
    json args = {{"user", user}, {"name", name}, {"options", options}, {"age_ms", age_ms}};
    if (dm)
        args["dm"] = true;
    else
        args["channel_id"] = channel;
    if (!resolved.is_null())
        args["resolved"] = resolved;
    return fake.control("interact", args)["id"].get<std::string>();
}

json interaction(FakeDiscord& fake, const std::string& id) {
    const json all = fake.control("interactions");
    for (const json& i : all["interactions"])
        if (i["id"] == id)
            return i;
    return nullptr;
}

std::vector<std::string> names(const json& commands) {
    std::vector<std::string> out;
    for (const json& c : commands)
        out.push_back(c["name"]);
    return out;
}

} // namespace

TEST_CASE("the slash commands are registered at READY, globally or in each configured guild",
          "[discord][slash]") {
    const std::vector<std::string> expected = {"new",    "accept", "move",     "board", "games",
                                               "resign", "draw",   "takeback", "peek",  "help"};
    SECTION("globally") {
        discord_test::TempDir dir;
        FakeDiscord fake(dir);
        bot::CurlHttpClient http;
        bot::DiscordPlatform platform(http, slash_options(fake));
        std::string cursor;
        CHECK(platform.poll(cursor, std::chrono::seconds(1)).empty());
        const json commands = fake.control("commands");
        REQUIRE(commands.size() == 1);
        CHECK(names(commands["global"]) == expected);
        // /new's first option is the variant, offered as the service's variants.
        const json variant = commands["global"][0]["options"][0];
        CHECK(variant["name"] == "variant");
        CHECK(variant["required"] == true);
        CHECK(variant["choices"] == json::array({{{"name", "chess"}, {"value", "chess"}},
                                                 {{"name", "ghost"}, {"value", "ghost"}},
                                                 {{"name", "phantom"}, {"value", "phantom"}}}));
        // Required options come first: /move's move before its game.
        CHECK(commands["global"][2]["options"][0]["name"] == "move");
        CHECK(commands["global"][2]["options"][1]["name"] == "game");
        // The variant's command, as its registry entry describes it, takes a game's number.
        const json peek = commands["global"][8];
        CHECK(peek["description"] == "Spend a life to see both Phantoms by direct message");
        CHECK(peek["options"].size() == 1);
        CHECK(peek["options"][0]["name"] == "game");
        CHECK(fake.violations().empty());
    }
    SECTION("without variant commands, the service's alone") {
        discord_test::TempDir dir;
        FakeDiscord fake(dir);
        bot::CurlHttpClient http;
        bot::DiscordOptions options = slash_options(fake);
        options.variant_commands.clear();
        bot::DiscordPlatform platform(http, options);
        std::string cursor;
        platform.poll(cursor, std::chrono::seconds(1));
        const json commands = fake.control("commands");
        CHECK(names(commands["global"]) == std::vector<std::string>{"new", "accept", "move",
                                                                    "board", "games", "resign",
                                                                    "draw", "takeback", "help"});
    }
    SECTION("in the configured guilds") {
        discord_test::TempDir dir;
        FakeDiscord fake(dir);
        bot::CurlHttpClient http;
        bot::DiscordOptions options = slash_options(fake);
        options.guild_ids = {guild, "800000000000000002"};
        bot::DiscordPlatform platform(http, options);
        std::string cursor;
        platform.poll(cursor, std::chrono::seconds(1));
        const json commands = fake.control("commands");
        CHECK(commands.size() == 2);
        CHECK_FALSE(commands.contains("global"));
        CHECK(names(commands[guild]) == expected);
        CHECK(names(commands["800000000000000002"]) == expected);
        CHECK(fake.violations().empty());
    }
}

TEST_CASE("the slash commands' descriptions come in each language Discord has a locale for",
          "[discord][slash][i18n]") {
    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    bot::CurlHttpClient http;
    bot::DiscordOptions options = slash_options(fake);
    // A variant's command brings its own translations; one for a language Discord has no
    // locale for is left out, as Discord would refuse every command for it.
    options.variant_commands = {{"peek",
                                 "Spend a life to see both Phantoms by direct message",
                                 {{"de", "Ein Leben für beide Phantome"},
                                  {"pt_BR", "Gastar uma vida"},
                                  {"eo", "Elspezi vivon"}}}};
    bot::DiscordPlatform platform(http, options);
    std::string cursor;
    platform.poll(cursor, std::chrono::seconds(1));
    const json commands = fake.control("commands")["global"];
    REQUIRE(commands.size() == 10);
    const auto in = [](const char* language, const char* source) {
        return i18n::catalogs().render(i18n::tr(source), language);
    };
    const json move = commands[2];
    CHECK(move["description"] == "play a move");
    CHECK(move["description_localizations"] == json{{"de", in("de", "play a move")},
                                                    {"es-419", in("es", "play a move")},
                                                    {"es-ES", in("es", "play a move")},
                                                    {"fr", in("fr", "play a move")},
                                                    {"pt-BR", in("pt_BR", "play a move")},
                                                    {"ru", in("ru", "play a move")},
                                                    {"zh-CN", in("zh_CN", "play a move")}});
    CHECK(move["description_localizations"]["de"] == "einen Zug spielen");
    CHECK(move["options"][0]["description_localizations"]["de"] ==
          in("de", "the move, e.g. e4, Nf3, O-O, exd8=Q"));
    CHECK(move["options"][1]["description_localizations"]["ru"] ==
          in("ru", "the game's number (leave out when you play only one)"));
    // Every description of the table is translated, in at most 100 characters.
    for (const json& c : commands) {
        INFO(c["name"]);
        REQUIRE(c.contains("description_localizations"));
        for (const auto& [locale, words] : c["description_localizations"].items()) {
            CHECK(words.get<std::string>().size() > 0);
            CHECK(words.get<std::string>() != c["description"].get<std::string>());
        }
        for (const json& o : c["options"])
            CHECK(o["description_localizations"].size() == 7);
    }
    CHECK(commands[8]["description_localizations"] ==
          json{{"de", "Ein Leben für beide Phantome"}, {"pt-BR", "Gastar uma vida"}});
    // Names stay as they are: a command is typed the same in every language.
    CHECK_FALSE(move.contains("name_localizations"));
    CHECK(fake.violations().empty());
}

TEST_CASE("the fake refuses a localization under a key that is no Discord locale",
          "[discord][slash][i18n][fake]") {
    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    bot::CurlHttpClient http;
    bot::HttpRequest request;
    request.method = "PUT";
    request.url = fake.api_url() + "/applications/900000000000000002/commands";
    request.headers = {"Authorization: Bot " + std::string(FakeDiscord::token)};
    request.body =
        json::array(
            {{{"name", "move"},
              {"type", 1},
              {"description", "play a move"},
              {"description_localizations", {{"pt_BR", "jogar um lance"}, {"de", "ziehen"}}}}})
            .dump();
    http.post(request);
    CHECK(fake.violations() ==
          json{"PUT /applications/900000000000000002/commands: move description_localizations: "
               "pt_BR is not a Discord locale"});
}

TEST_CASE("a slash command is deferred at once, read as its text, and its reply replaces the "
          "\"thinking\" message",
          "[discord][slash]") {
    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    bot::CurlHttpClient http;
    bot::DiscordPlatform platform(http, slash_options(fake));
    std::string cursor;
    platform.poll(cursor, std::chrono::seconds(1));

    const std::string id = interact(fake, alice, "move",
                                    json::array({{{"name", "move"}, {"type", 3}, {"value", "Nf3"}},
                                                 {{"name", "game"}, {"type", 4}, {"value", 3}}}));
    const auto posts = poll_for(platform, cursor, 1);
    REQUIRE(posts.size() == 1);
    CHECK(posts[0].text == "!move 3 Nf3");
    CHECK(posts[0].message_id == id);
    CHECK(posts[0].channel == channel);
    CHECK(posts[0].author_id == "100000000000000007");
    CHECK(posts[0].author_handle == "alice");
    CHECK_FALSE(posts[0].direct);
    CHECK(posts[0].cursor == json{{channel, id}}.dump());
    CHECK(interaction(fake, id)["deferred"] == 5); // DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE

    bot::Reply reply;
    reply.destination = channel;
    reply.reply_to = id;
    reply.text = "Game #3: @alice played Nf3.";
    reply.code = "8 r n b q k b n r";
    reply.idempotency_key = "40.1700000000";
    CHECK(platform.send(reply).status == bot::Delivery::Status::Sent);
    // A second reply to the same command is a message of its own, quoting nothing gone.
    bot::Reply second = reply;
    second.text = "@bob, your move in game #3.";
    second.code.clear();
    second.idempotency_key = "41.1700000000";
    CHECK(platform.send(second).status == bot::Delivery::Status::Sent);

    const json sent = fake.sent();
    REQUIRE(sent.size() == 2);
    CHECK(sent[0]["interaction"] == id);
    CHECK(sent[0]["content"] ==
          "Game #3: <@100000000000000007> played Nf3.\n```\n8 r n b q k b n r\n```");
    CHECK(sent[0]["allowed_mentions"] ==
          json{{"parse", json::array()}, {"users", {"100000000000000007"}}});
    CHECK_FALSE(sent[1].contains("interaction"));
    CHECK(sent[1]["content"] == "@bob, your move in game #3.");
    CHECK(sent[1]["message_reference"] == json{{"message_id", id}, {"fail_if_not_exists", false}});
    CHECK(interaction(fake, id)["answered"] == 1);
    CHECK(fake.violations().empty());
}

TEST_CASE("/new names the opponent through the resolved user, and a PNG reply is attached",
          "[discord][slash]") {
    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    bot::CurlHttpClient http;
    bot::DiscordPlatform platform(http, slash_options(fake));
    std::string cursor;
    platform.poll(cursor, std::chrono::seconds(1));

    const std::string id =
        interact(fake, alice, "new",
                 json::array({{{"name", "settings"}, {"type", 3}, {"value", "tc=3d\nrated=no"}},
                              {{"name", "variant"}, {"type", 3}, {"value", "chess"}},
                              {{"name", "opponent"}, {"type", 6}, {"value", "100000000000000008"}},
                              {{"name", "side"}, {"type", 3}, {"value", "black"}}}),
                 false, {{"users", {{"100000000000000008", bob}}}});
    const auto posts = poll_for(platform, cursor, 1);
    REQUIRE(posts.size() == 1);
    // In the command's own order, whatever order Discord sent the options in; one line.
    CHECK(posts[0].text == "!new chess @bob black tc=3d rated=no");
    REQUIRE(posts[0].mentions.size() == 1);
    CHECK(posts[0].mentions[0].user_id == "100000000000000008");
    CHECK(posts[0].mentions[0].handle == "bob");

    bot::Reply reply;
    reply.destination = channel;
    reply.reply_to = id;
    reply.text = "@alice challenges @bob to FIDE chess.";
    reply.png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    CHECK(platform.send(reply).status == bot::Delivery::Status::Sent);
    const json sent = fake.sent();
    REQUIRE(sent.size() == 1);
    CHECK(sent[0]["interaction"] == id);
    CHECK(sent[0]["file"] == "board.png");
    // bob was named by the command's user option: he is pinged.
    CHECK(sent[0]["content"] ==
          "<@100000000000000007> challenges <@100000000000000008> to FIDE chess.");
    CHECK(fake.violations().empty());
}

TEST_CASE("a private reply never answers a channel's command; unanswered, its \"thinking\" goes",
          "[discord][slash]") {
    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    bot::CurlHttpClient http;
    std::chrono::seconds offset{0};
    bot::DiscordOptions options = slash_options(fake);
    options.clock = [&offset] { return std::chrono::steady_clock::now() + offset; };
    bot::DiscordPlatform platform(http, options);
    std::string cursor;
    platform.poll(cursor, std::chrono::seconds(1));

    const std::string id = interact(
        fake, alice, "move", json::array({{{"name", "move"}, {"type", 3}, {"value", "Pe5"}}}));
    REQUIRE(poll_for(platform, cursor, 1).size() == 1);
    bot::Reply secret;
    secret.to = bot::Reply::To::User;
    secret.destination = "100000000000000007";
    secret.text = "Game #3: your Phantom stands on e5; that square is taken.";
    CHECK(platform.send(secret).status == bot::Delivery::Status::Sent);
    json sent = fake.sent();
    REQUIRE(sent.size() == 1);
    CHECK(sent[0]["dm_user"] == "100000000000000007");
    CHECK_FALSE(sent[0].contains("interaction"));
    CHECK_FALSE(interaction(fake, id).contains("answered"));

    offset = std::chrono::seconds(31);
    platform.poll(cursor, std::chrono::seconds(0));
    CHECK(interaction(fake, id)["deleted"] == true);
    CHECK(fake.violations().empty());
}

TEST_CASE("a command in the bot's DM is answered by the first private reply to its user",
          "[discord][slash]") {
    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    bot::CurlHttpClient http;
    bot::DiscordPlatform platform(http, slash_options(fake));
    std::string cursor;
    platform.poll(cursor, std::chrono::seconds(1));

    const std::string id = interact(fake, alice, "games", json::array(), true);
    const auto posts = poll_for(platform, cursor, 1);
    REQUIRE(posts.size() == 1);
    CHECK(posts[0].text == "!games");
    CHECK(posts[0].direct);

    bot::Reply reply;
    reply.to = bot::Reply::To::User;
    reply.destination = "100000000000000007";
    reply.text = "Your games: none.";
    CHECK(platform.send(reply).status == bot::Delivery::Status::Sent);
    const json sent = fake.sent();
    REQUIRE(sent.size() == 1);
    CHECK(sent[0]["interaction"] == id);
    CHECK(sent[0]["content"] == "Your games: none.");
    CHECK(fake.violations().empty());
}

TEST_CASE("a command the bot saw too late is still handled, and answered as a message",
          "[discord][slash]") {
    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    bot::CurlHttpClient http;
    bot::DiscordPlatform platform(http, slash_options(fake));
    std::string cursor;
    platform.poll(cursor, std::chrono::seconds(1));

    const std::string id = interact(fake, alice, "board", json::array(), false, nullptr, 4000);
    const auto posts = poll_for(platform, cursor, 1);
    REQUIRE(posts.size() == 1);
    CHECK(posts[0].text == "!board");
    CHECK(interaction(fake, id)["late"] == true);

    bot::Reply reply;
    reply.destination = channel;
    reply.reply_to = id;
    reply.text = "Game #3, move 1.";
    CHECK(platform.send(reply).status == bot::Delivery::Status::Sent);
    const json sent = fake.sent();
    REQUIRE(sent.size() == 1);
    CHECK_FALSE(sent[0].contains("interaction"));
    CHECK(sent[0]["content"] == "Game #3, move 1.");
    CHECK(fake.violations().empty());
}

TEST_CASE("without the Message Content intent the bot reads slash commands, DMs and mentions",
          "[discord][slash]") {
    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    fake.control("settings", {{"content_allowed", false}});
    bot::CurlHttpClient http;
    bot::DiscordOptions options = slash_options(fake);
    options.message_content = false;
    bot::DiscordPlatform platform(http, options);
    std::string cursor;
    CHECK(platform.poll(cursor, std::chrono::seconds(1)).empty());
    CHECK_FALSE(platform.finished()); // not refused: it did not ask for the intent

    fake.say(channel, alice, "e4");
    fake.say(channel, alice, "<@900000000000000001> !board",
             json::array({FakeDiscord::user(FakeDiscord::bot_id, "ghostpost")}));
    interact(fake, alice, "help", json::array());
    const auto posts = poll_for(platform, cursor, 3);
    REQUIRE(posts.size() == 3);
    CHECK(posts[0].text.empty()); // Discord withheld its text: chatter to the service
    CHECK(posts[1].text == "!board");
    CHECK(posts[2].text == "!help");
    CHECK(fake.violations().empty());
}
