// Discord's shards against the fake Discord: IDENTIFY names [shard, shards], each shard gets the
// events of its own guilds and shard 0 the direct messages, the identify buckets, the count
// Discord recommends, and its refusals of a shard outside the count (4010) or of too few
// shards (4011).
#include "fake_discord.h"
#include "ghostpost/discord/discord.h"

#include <set>

using namespace ghostpost;
using discord_test::FakeDiscord;
using discord_test::options_for;
using discord_test::poll_for;
using nlohmann::json;

namespace {

const json alice = FakeDiscord::user("100000000000000007", "alice");
const json bob = FakeDiscord::user("100000000000000008", "bob");

bot::DiscordOptions shard_options(const FakeDiscord& fake, int shard, int shards,
                                  std::shared_ptr<bot::discord::Shared> shared = nullptr) {
    bot::DiscordOptions options = options_for(fake);
    options.shard = shard;
    options.shards = shards;
    options.shared = std::move(shared);
    return options;
}

std::vector<std::string> texts(const std::vector<bot::Post>& posts) {
    std::vector<std::string> out;
    for (const bot::Post& post : posts)
        out.push_back(post.channel + " " + post.text + (post.direct ? " (direct)" : ""));
    return out;
}

} // namespace

TEST_CASE("each shard gets its own guilds' messages and shard 0 the direct messages",
          "[discord][shard]") {
    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    fake.control("settings", {{"max_concurrency", 2}});
    bot::CurlHttpClient http0, http1;
    bot::DiscordPlatform shard0(http0, shard_options(fake, 0, 2));
    bot::DiscordPlatform shard1(http1, shard_options(fake, 1, 2, shard0.shared()));
    CHECK(shard0.lane() == "discord/shard/0/2");
    CHECK(shard1.lane() == "discord/shard/1/2");
    CHECK(shard0.name() == "discord");
    CHECK(shard1.name() == "discord");
    CHECK(shard0.delivers());
    CHECK_FALSE(shard1.delivers());
    std::string cursor0, cursor1;
    CHECK(shard0.poll(cursor0, std::chrono::seconds(1)).empty());
    CHECK(shard1.poll(cursor1, std::chrono::seconds(1)).empty());

    // IDENTIFY carried each shard, and both were let in at once (two buckets).
    const json shards = fake.control("shards");
    REQUIRE(shards["identified"].size() == 2);
    std::set<std::string> identified;
    for (const json& i : shards["identified"])
        identified.insert(i["shard"].dump());
    CHECK(identified == std::set<std::string>{"[0,2]", "[1,2]"});
    CHECK(std::abs(shards["identified"][0]["at"].get<double>() -
                   shards["identified"][1]["at"].get<double>()) < 2.0);

    const std::string guild0 = FakeDiscord::guild_of_shard(0, 2);
    const std::string guild1 = FakeDiscord::guild_of_shard(1, 2);
    fake.say_in(guild0, "300000000000000010", alice, "!help in guild 0");
    fake.say_in(guild1, "300000000000000011", bob, "!help in guild 1");
    const json dm = fake.dm(alice, "!help by DM");
    const auto posts0 = poll_for(shard0, cursor0, 2);
    const auto posts1 = poll_for(shard1, cursor1, 1);
    CHECK(texts(posts0) ==
          std::vector<std::string>{"300000000000000010 !help in guild 0",
                                   dm["channel_id"].get<std::string>() + " !help by DM (direct)"});
    CHECK(texts(posts1) == std::vector<std::string>{"300000000000000011 !help in guild 1"});
    // Nothing more came to either: no event went to both.
    CHECK(shard0.poll(cursor0, std::chrono::seconds(1)).empty());
    CHECK(shard1.poll(cursor1, std::chrono::seconds(1)).empty());
    // Each shard's cursor names only its own channels.
    CHECK(json::parse(cursor1).size() == 1);
    CHECK(json::parse(cursor0).size() == 2);

    // A reply to shard 1's guild goes out through shard 0, which delivers for all; the DM
    // channel shard 0 saw is known without asking.
    bot::Reply reply;
    reply.destination = "300000000000000011";
    reply.text = "help for bob";
    CHECK(shard0.send(reply).status == bot::Delivery::Status::Sent);
    REQUIRE(fake.sent().size() == 1);
    CHECK(fake.sent()[0]["channel_id"] == "300000000000000011");
    CHECK(fake.violations().empty());
}

TEST_CASE("shards of one bucket identify five seconds apart (max_concurrency 1)",
          "[discord][shard][slow]") {
    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    bot::CurlHttpClient http0, http2;
    bot::DiscordPlatform shard0(http0, shard_options(fake, 0, 3));
    bot::DiscordPlatform shard2(http2, shard_options(fake, 2, 3, shard0.shared()));
    std::string cursor;
    shard0.poll(cursor, std::chrono::seconds(1));
    shard2.poll(cursor, std::chrono::seconds(1));
    REQUIRE(
        discord_test::eventually([&] { return fake.control("shards")["identified"].size() == 2; },
                                 std::chrono::seconds(10)));
    const json identified = fake.control("shards")["identified"];
    CHECK(identified[1]["at"].get<double>() - identified[0]["at"].get<double>() >= 4.9);
    CHECK(fake.violations().empty());
}

TEST_CASE("the number of shards comes from GET /gateway/bot when asked", "[discord][shard]") {
    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    fake.control("settings", {{"recommended_shards", 3}});
    bot::CurlHttpClient http;
    bot::DiscordPlatform platform(http, options_for(fake));
    CHECK(platform.recommended_shards() == 3);
    CHECK(fake.violations().empty());
}

TEST_CASE("Discord's refusals of a shard stop the shard with what to do: 4010 and 4011",
          "[discord][shard]") {
    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    bot::CurlHttpClient http;
    {
        bot::DiscordPlatform outside(http, shard_options(fake, 2, 2));
        std::string cursor;
        CHECK(discord_test::eventually(
            [&] {
                outside.poll(cursor, std::chrono::seconds(1));
                return outside.finished();
            },
            std::chrono::seconds(10)));
        CHECK(outside.refused() ==
              "Discord refused the shard (close code 4010, invalid shard): every daemon of the "
              "bot must use one shard count; see shards under [platform.discord]");
    }
    fake.control("settings", {{"required_shards", 2}});
    bot::DiscordPlatform alone(http, options_for(fake));
    std::string cursor;
    CHECK(discord_test::eventually(
        [&] {
            alone.poll(cursor, std::chrono::seconds(1));
            return alone.finished();
        },
        std::chrono::seconds(10)));
    CHECK(alone.refused() ==
          "Discord asks for more shards (close code 4011, sharding required): set shards = 0 "
          "under [platform.discord] (as many as Discord recommends) or a larger count");
    CHECK(fake.violations().empty());
}

TEST_CASE("a shard another daemon took is let go: its connection ends, and a later poll "
          "identifies afresh and catches up",
          "[discord][shard]") {
    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    bot::CurlHttpClient http;
    bot::DiscordPlatform shard1(http, shard_options(fake, 1, 2));
    const std::string guild1 = FakeDiscord::guild_of_shard(1, 2);
    std::string cursor;
    shard1.poll(cursor, std::chrono::seconds(1));
    fake.say_in(guild1, "300000000000000011", bob, "first");
    REQUIRE(poll_for(shard1, cursor, 1).size() == 1);
    CHECK(fake.stats()["live"] == 1);

    shard1.idle();
    CHECK(discord_test::eventually([&] { return fake.stats()["live"] == 0; },
                                   std::chrono::seconds(3)));
    fake.say_in(guild1, "300000000000000011", bob, "meanwhile");
    const auto posts = poll_for(shard1, cursor, 1);
    CHECK(texts(posts) == std::vector<std::string>{"300000000000000011 meanwhile"});
    CHECK(fake.stats()["identifies"] == 2);
    CHECK(fake.violations().empty());
}

TEST_CASE("posts of a poll that the cursor does not count as handled come again at the next "
          "poll, as shards that handle posts at once make a busy database likely",
          "[discord][shard]") {
    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    bot::CurlHttpClient http;
    bot::DiscordPlatform platform(http, options_for(fake));
    std::string cursor;
    platform.poll(cursor, std::chrono::seconds(1));
    const std::string channel = "300000000000000001";
    fake.say(channel, alice, "one");
    fake.say(channel, alice, "two");
    fake.say("300000000000000002", bob, "three");
    // The three in one batch (what comes again is the last poll's): let the Gateway bring them.
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    const auto posts = poll_for(platform, cursor, 3);
    REQUIRE(posts.size() == 3);
    REQUIRE(texts(posts) == std::vector<std::string>{"300000000000000001 one",
                                                     "300000000000000001 two",
                                                     "300000000000000002 three"});
    // Only "one" was handled: the daemon stopped the batch at "two".
    const auto again = platform.poll(posts[0].cursor, std::chrono::seconds(1));
    CHECK(texts(again) ==
          std::vector<std::string>{"300000000000000001 two", "300000000000000002 three"});
    REQUIRE(again.size() == 2);
    CHECK(again[1].cursor == posts[2].cursor);
    // Handled now: nothing comes again.
    CHECK(platform.poll(again[1].cursor, std::chrono::seconds(1)).empty());
    CHECK(fake.violations().empty());
}
