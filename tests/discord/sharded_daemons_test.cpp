// Three `ghostpost run` daemons on one PostgreSQL database and one fake Discord, the bot in four
// shards: each shard is polled by the daemon holding its lease. A random daemon is killed with
// SIGKILL every few seconds; its shards are taken over by the others (a fresh IDENTIFY each,
// and the catch-up of its guilds' channels) before it is started again. At the end every
// game's log is the expected one and every reply went out exactly once (Discord's nonce).
#include "../support/test_stores.h"
#include "fake_discord.h"

#include <fstream>
#include <future>
#include <map>
#include <mutex>
#include <random>
#include <set>

using namespace ghostpost;
using discord_test::FakeDiscord;
using nlohmann::json;
using testing::Backend;
using testing::FreshStore;

namespace {

const std::string token_env = std::string("GHOSTPOST_DISCORD_TOKEN=") + FakeDiscord::token;
constexpr int shards = 4;
constexpr int game_count = 8; // two in guilds of each shard

std::filesystem::path write_config(const discord_test::TempDir& dir, const FakeDiscord& fake,
                                   const FreshStore& db, int slot) {
    const auto path = dir.path() / ("daemon" + std::to_string(slot) + ".toml");
    std::ofstream(path) << "[storage]\nurl = \"" << db.url() << "\"\n"
                        << "lease_seconds = 30\nclaim_seconds = 120\n"
                        << "[log]\nlevel = \"info\"\n"
                        << "[platform.discord]\napi_url = \"" << fake.api_url() << "\"\n"
                        << "shards = " << shards << "\npoll_timeout = 2\n"
                        << "per_chat_interval_ms = 0\ngroup_messages_per_minute = 1000\n";
    return path;
}

std::unique_ptr<discord_test::Child> start_daemon(const discord_test::TempDir& dir, int slot,
                                                  const std::filesystem::path& config) {
    const std::string name = "daemon" + std::to_string(slot);
    return std::make_unique<discord_test::Child>(
        std::vector<std::string>{GHOSTPOST_BINARY, "run", "--config", config.string()},
        dir.path() / (name + ".out"), dir.path() / (name + ".err"),
        std::vector<std::string>{token_env});
}

double unix_now() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

json player(int game, bool white) {
    return FakeDiscord::user(std::to_string(100000000000000100 + 2 * game + (white ? 0 : 1)),
                             (white ? "w" : "b") + std::to_string(game));
}
std::string guild(int game) {
    return FakeDiscord::guild_of_shard(game % shards, shards, 1 + game / shards);
}
std::string channel(int game) {
    return std::to_string(300000000000000100 + game);
}

const std::vector<std::string> mate{"e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"};

// One post at a time, each answered before the next: a transaction that two shards' posts made
// conflict would use up a game number of PostgreSQL's, and the replies name the games.
void open_games(FakeDiscord& fake) {
    const auto answered = [&fake](std::size_t count) {
        REQUIRE(discord_test::eventually([&] { return fake.sent().size() >= count; },
                                         std::chrono::seconds(30)));
    };
    for (int g = 0; g < game_count; ++g) {
        const json black = player(g, false);
        fake.say_in(guild(g), channel(g), player(g, true),
                    "!new chess <@" + black["id"].get<std::string>() + "> white tc=none",
                    json::array({black}));
        answered(static_cast<std::size_t>(2 * g + 1));
        fake.say_in(guild(g), channel(g), black, "!accept");
        answered(static_cast<std::size_t>(2 * g + 2));
    }
}

// What the bot posted, as "channel text", once per message Discord made.
std::multiset<std::string> replies(FakeDiscord& fake) {
    std::multiset<std::string> out;
    for (const json& m : fake.sent())
        out.insert(m["channel_id"].get<std::string>() + " " + m["content"].get<std::string>());
    return out;
}

bool logs_complete(const FreshStore& db) {
    const auto store = db.open();
    for (int g = 1; g <= game_count; ++g)
        if (store->actions(g).size() != mate.size())
            return false;
    return true;
}

// The fake's client makes one request at a time: the poster and the killer take turns.
std::mutex fake_turn;

std::size_t live_shards(FakeDiscord& fake) {
    const std::lock_guard lock(fake_turn);
    return fake.control("shards")["live"].size();
}

} // namespace

TEST_CASE("Four Discord shards over three daemons on PostgreSQL: a killed daemon's shards are "
          "taken over by the others, and every post is answered once",
          "[daemon][discord][shard][postgres][crash][slow]") {
    const std::size_t replies_due = 2 * game_count + mate.size() * game_count + game_count;

    // A calm run, one daemon with all four shards, gives the replies the crashing run must send.
    std::multiset<std::string> reference;
    {
        discord_test::TempDir dir;
        FakeDiscord fake(dir);
        fake.control("settings", {{"max_concurrency", shards}});
        FreshStore db(Backend::Postgres, "calm", false);
        auto daemon = start_daemon(dir, 0, write_config(dir, fake, db, 0));
        REQUIRE(discord_test::eventually([&] { return live_shards(fake) == shards; },
                                         std::chrono::seconds(60)));
        open_games(fake);
        for (std::size_t m = 0; m < mate.size(); ++m)
            for (int g = 0; g < game_count; ++g)
                fake.say_in(guild(g), channel(g), player(g, m % 2 == 0), mate[m]);
        const bool all = discord_test::eventually([&] { return fake.sent().size() >= replies_due; },
                                                  std::chrono::seconds(90));
        INFO(fake.sent().size() << " of " << replies_due << " replies; the daemon's log:\n"
                                << discord_test::read_file(dir.path() / "daemon0.err"));
        REQUIRE(all);
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        daemon->signal(SIGTERM);
        REQUIRE(daemon->wait_exit(std::chrono::seconds(15)) == 0);
        reference = replies(fake);
        REQUIRE(reference.size() == replies_due);
        REQUIRE(logs_complete(db));
        CHECK(fake.violations().empty());
    }

    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    fake.control("settings", {{"max_concurrency", shards}});
    FreshStore db(Backend::Postgres, "crash", false);
    std::array<std::filesystem::path, 3> configs;
    std::array<std::unique_ptr<discord_test::Child>, 3> daemons;
    for (int slot = 0; slot < 3; ++slot)
        configs[static_cast<std::size_t>(slot)] = write_config(dir, fake, db, slot);
    // The games are made calmly, so that their numbers are the calm run's.
    daemons[0] = start_daemon(dir, 0, configs[0]);
    REQUIRE(discord_test::eventually([&] { return live_shards(fake) == shards; },
                                     std::chrono::seconds(60)));
    open_games(fake);
    REQUIRE(discord_test::eventually([&] { return fake.sent().size() >= 2 * game_count; },
                                     std::chrono::seconds(60)));
    daemons[1] = start_daemon(dir, 1, configs[1]);
    daemons[2] = start_daemon(dir, 2, configs[2]);

    std::atomic<bool> all_posted{false};
    auto poster = std::async(std::launch::async, [&] {
        for (std::size_t m = 0; m < mate.size(); ++m)
            for (int g = 0; g < game_count; ++g) {
                std::this_thread::sleep_for(std::chrono::milliseconds(150));
                const std::lock_guard lock(fake_turn);
                fake.say_in(guild(g), channel(g), player(g, m % 2 == 0), mate[m]);
            }
        all_posted = true;
    });
    std::mt19937 random(std::random_device{}());
    int kills = 0;
    double slowest_takeover = 0;
    while (!all_posted || kills < 4) {
        std::this_thread::sleep_for(
            std::chrono::milliseconds(std::uniform_int_distribution<int>(1000, 2500)(random)));
        const int slot = std::uniform_int_distribution<int>(0, 2)(random);
        auto& daemon = daemons[static_cast<std::size_t>(slot)];
        const double killed = unix_now();
        daemon->signal(SIGKILL);
        REQUIRE(daemon->wait_exit(std::chrono::seconds(5)) == 128 + SIGKILL);
        ++kills;
        // The other two take its shards over before it comes back: each shard is live again.
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        REQUIRE(discord_test::eventually([&] { return live_shards(fake) == shards; },
                                         std::chrono::seconds(15)));
        slowest_takeover = std::max(slowest_takeover, unix_now() - killed);
        daemon = start_daemon(dir, slot, configs[static_cast<std::size_t>(slot)]);
        REQUIRE(kills < 40);
    }
    poster.get();

    CHECK(discord_test::eventually(
        [&] { return fake.sent().size() >= reference.size() && logs_complete(db); },
        std::chrono::seconds(90)));
    std::this_thread::sleep_for(std::chrono::seconds(2)); // anything sent twice arrives
    for (auto& daemon : daemons) {
        daemon->signal(SIGTERM);
        CHECK(daemon->wait_exit(std::chrono::seconds(15)) == 0);
    }
    WARN(kills << " kills; the slowest takeover of a killed daemon's shards took "
               << slowest_takeover << " s");
    CHECK(slowest_takeover <= 5.0);

    const auto store = db.open();
    for (int g = 1; g <= game_count; ++g) {
        std::vector<std::string> texts;
        for (const auto& a : store->actions(g))
            texts.push_back(a.text);
        CHECK(texts == mate);
    }
    CHECK(store->pending_count("discord") == 0);
    // Every reply exactly once: what the calm run sent, no more and no less.
    CHECK(replies(fake) == reference);
    // Among the checks: never two live sessions on one shard.
    INFO(fake.violations().dump());
    CHECK(fake.violations().empty());
}
