// `ghostpost run` as a process against the fake Discord: a Phantom Chess game told end to end
// (a challenge, moves, an illegal move, a PNG board, a peek by DM, a DM refused with 50007),
// the daemon killed with SIGKILL mid-game and started again, and SIGTERM; a game played by slash
// commands; a refused intent.
#include "fake_discord.h"
#include "ghostpost/storage/store.h"

#include <fstream>
#include <set>
#include <sstream>

using namespace ghostpost;
using discord_test::FakeDiscord;
using nlohmann::json;

namespace {

const std::string token_env = std::string("GHOSTPOST_DISCORD_TOKEN=") + FakeDiscord::token;
const std::string channel = "300000000000000001";
const json alice = FakeDiscord::user("100000000000000007", "alice");
const json bob = FakeDiscord::user("100000000000000008", "bob");

std::filesystem::path write_config(const discord_test::TempDir& dir, const FakeDiscord& fake) {
    const auto path = dir.path() / "ghostpost.toml";
    std::ofstream(path) << "[storage]\npath = \"games.sqlite\"\n[log]\nlevel = \"debug\"\n"
                        << "[platform.discord]\napi_url = \"" << fake.api_url() << "\"\n"
                        << "poll_timeout = 30\nper_chat_interval_ms = 0\n"
                        << "group_messages_per_minute = 1000\n";
    return path;
}

std::unique_ptr<discord_test::Child> start_daemon(const discord_test::TempDir& dir,
                                                  const std::filesystem::path& config) {
    return std::make_unique<discord_test::Child>(
        std::vector<std::string>{GHOSTPOST_BINARY, "run", "--config", config.string()},
        dir.path() / "daemon.out", dir.path() / "daemon.err", std::vector<std::string>{token_env});
}

std::vector<std::string> action_texts(const std::filesystem::path& database, std::int64_t game) {
    const auto store = storage::open_sqlite_store(database.string());
    std::vector<std::string> texts;
    for (const auto& action : store->actions(game))
        texts.push_back(action.text);
    return texts;
}

// What the bot posted: "<where> <text>", where is "dm:<user>" or the channel id,
// "[board.png]" marks an image and "[code]" a board in a code block after the text.
std::multiset<std::string> heads(FakeDiscord& fake) {
    std::multiset<std::string> out;
    for (const json& m : fake.sent()) {
        std::string where = m["dm_user"].is_string() ? "dm:" + m["dm_user"].get<std::string>()
                                                     : m["channel_id"].get<std::string>();
        std::string content = m["content"].get<std::string>();
        const auto block = content.find("\n```\n");
        const bool code = block != std::string::npos && content.ends_with("\n```");
        if (code)
            content.resize(block);
        out.insert(where + (m["file"].is_string() ? " [board.png] " : " ") + content +
                   (code ? " [code]" : ""));
    }
    return out;
}

// The daemon has logged `event` at least `count` times.
std::size_t count_events(const discord_test::TempDir& dir, const std::string& event) {
    const std::string err = discord_test::read_file(dir.path() / "daemon.err");
    std::size_t n = 0;
    for (auto at = err.find("\"event\":\"" + event + "\""); at != std::string::npos;
         at = err.find("\"event\":\"" + event + "\"", at + 1))
        ++n;
    return n;
}

} // namespace

TEST_CASE("a Phantom game on Discord: DMs, a refused DM, SIGKILL mid-game, SIGTERM",
          "[daemon][discord]") {
    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    const auto config = write_config(dir, fake);
    auto daemon = start_daemon(dir, config);
    REQUIRE(discord_test::eventually([&] { return fake.stats()["live"] == 1; },
                                     std::chrono::seconds(20)));

    const auto say = [&](const json& who, const std::string& text,
                         const json& mentions = json::array()) {
        return fake.say(channel, who, text, mentions);
    };
    const auto wait_for = [&](std::size_t n) {
        return discord_test::eventually([&] { return fake.sent().size() >= n; },
                                        std::chrono::seconds(20));
    };
    const json challenge =
        say(alice, "!new phantom <@100000000000000008> white tc=none", json::array({bob}));
    REQUIRE(wait_for(1));
    say(bob, "!accept");
    REQUIRE(wait_for(2));
    say(alice, "e4");
    REQUIRE(wait_for(3));
    say(bob, "Qh4"); // the queen is behind her pawns
    REQUIRE(wait_for(4));
    say(alice, "!board png");
    REQUIRE(wait_for(5));
    say(bob, "good luck, alice"); // chatter: no reply
    fake.control("block_dm", {{"user_id", "100000000000000008"}});
    say(alice, "!peek"); // by DM
    say(bob, "!peek");   // refused with 50007: the notice in the channel, the peek waits
    REQUIRE(wait_for(9));

    const std::string a = "<@100000000000000007>", b = "<@100000000000000008>";
    const std::string here = channel + " ";
    const std::multiset<std::string> first_part{
        here + a + " challenges " + b + " to Phantom Chess, game #1. " + a +
            " would play White. Options: phantom_entry_capture=no, phantom_entry_check=no, "
            "phantom_lives=3. Clock: none; rated. " +
            b + ": answer !accept 1 or !decline 1.",
        // A Discord channel shows images in the conversation: its boards are PNGs by default.
        here + "[board.png] " + b + " accepts. Game #1, Phantom Chess: " + a + " (White) vs " + b +
            " (Black). " + a + " (White) must move. No clock; rated.",
        here + "[board.png] " + a + " (White) played e4 in game #1. " + b + " (Black) must move.",
        here + "Not played in game #1: Qh4 is not possible: no queen can reach h4.",
        here + "[board.png] Game #1, Phantom Chess: " + a + " (White) vs " + b + " (Black). " + b +
            " (Black) must move. No clock; rated.",
        "dm:100000000000000007 Game #1: the Phantoms: White's Phantom never entered; Black's "
        "Phantom never entered [code]",
        here + "[board.png] " + a +
            " (White) played peek in game #1. White peeks at the Phantoms (2 peeks "
            "left). " +
            b + " (Black) must move.",
        here + "[board.png] " + b +
            " (Black) played peek in game #1. Black peeks at the Phantoms (2 peeks "
            "left). " +
            b + " (Black) must move.",
        here + b +
            ": I cannot send you private messages yet. Open a private chat with me "
            "(@ghostpost) and send any message; what game #1 has for your eyes only waits for "
            "you there."};
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    CHECK(heads(fake) == first_part);
    // The challenge quotes its post and pings exactly the two players.
    const json sent = fake.sent();
    CHECK(sent[0]["message_reference"] ==
          json{{"message_id", challenge["id"]}, {"fail_if_not_exists", false}});
    CHECK(sent[0]["allowed_mentions"] ==
          json{{"parse", json::array()},
               {"users", {"100000000000000007", "100000000000000008"}},
               {"replied_user", true}});

    // Killed mid-game; what is posted while it is down is read back once at the restart.
    daemon->signal(SIGKILL);
    REQUIRE(daemon->wait_exit(std::chrono::seconds(5)) == 128 + SIGKILL);
    say(bob, "e5");
    say(alice, "Nf3");
    daemon = start_daemon(dir, config);
    REQUIRE(wait_for(11));
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    std::multiset<std::string> all = first_part;
    all.insert(here + "[board.png] " + b + " (Black) played e5 in game #1. " + a +
               " (White) must move.");
    all.insert(here + "[board.png] " + a + " (White) played Nf3 in game #1. " + b +
               " (Black) must move.");
    CHECK(heads(fake) == all); // each post handled once: no reply twice, none missing
    CHECK(action_texts(dir.path() / "games.sqlite", 1) ==
          std::vector<std::string>{"e4", "peek", "peek", "e5", "Nf3"});
    CHECK(count_events(dir, "discord_caught_up") == 1);

    // SIGTERM while the poll waits for the Gateway: out within three seconds.
    const auto start = std::chrono::steady_clock::now();
    daemon->signal(SIGTERM);
    CHECK(daemon->wait_exit(std::chrono::seconds(3)) == 0);
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(3));
    CHECK(count_events(dir, "daemon_stopped") == 1);
    CHECK(discord_test::read_file(dir.path() / "daemon.err").find("FAKEsecret") ==
          std::string::npos);
    CHECK(fake.violations().empty());
}

TEST_CASE("a Gateway that refuses the intents stops the daemon with status 2 and says why",
          "[daemon][discord]") {
    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    fake.control("settings", {{"close_on_identify", 4014}});
    auto daemon = start_daemon(dir, write_config(dir, fake));
    CHECK(daemon->wait_exit(std::chrono::seconds(20)) == 2);
    const std::string err = discord_test::read_file(dir.path() / "daemon.err");
    CHECK(err.find("\"event\":\"platform_refused\",\"platform\":\"discord\",\"error\":\"Discord "
                   "refused the intents the bot needs (close code 4014): enable the Message "
                   "Content intent for the bot in the Discord developer portal (Bot > "
                   "Privileged Gateway Intents), or set message_content = false under "
                   "[platform.discord] to play by slash commands and mentions of the bot "
                   "only\"") != std::string::npos);
    CHECK(err.find("FAKEsecret") == std::string::npos);
    CHECK(fake.violations().empty());
}

TEST_CASE("a game by slash commands: each answered in place of its \"thinking\" message",
          "[daemon][discord]") {
    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    const auto config = write_config(dir, fake);
    auto daemon = start_daemon(dir, config);
    REQUIRE(discord_test::eventually([&] { return fake.control("commands").contains("global"); },
                                     std::chrono::seconds(20)));

    const auto run = [&](const json& who, const std::string& name, const json& options,
                         const json& resolved = nullptr) {
        json args = {{"user", who}, {"name", name}, {"options", options}, {"channel_id", channel}};
        if (!resolved.is_null())
            args["resolved"] = resolved;
        const std::string id = fake.control("interact", args)["id"];
        REQUIRE(discord_test::eventually(
            [&] {
                for (const json& m : fake.sent())
                    if (m.value("interaction", "") == id)
                        return true;
                return false;
            },
            std::chrono::seconds(20)));
        return id;
    };
    run(alice, "new",
        json::array({{{"name", "variant"}, {"type", 3}, {"value", "chess"}},
                     {{"name", "opponent"}, {"type", 6}, {"value", "100000000000000008"}},
                     {{"name", "side"}, {"type", 3}, {"value", "white"}},
                     {{"name", "settings"}, {"type", 3}, {"value", "tc=none"}}}),
        {{"users", {{"100000000000000008", bob}}}});
    run(bob, "accept", json::array());
    run(alice, "move", json::array({{{"name", "move"}, {"type", 3}, {"value", "e4"}}}));
    run(bob, "board", json::array({{{"name", "style"}, {"type", 3}, {"value", "png"}}}));
    run(bob, "move", json::array({{{"name", "move"}, {"type", 3}, {"value", "Ke7e5"}}}));
    // Ke7e5: e7 holds a pawn, which could reach e5; the king could not.

    const std::string a = "<@100000000000000007>", b = "<@100000000000000008>";
    const std::string here = channel + " ";
    CHECK(heads(fake) ==
          std::multiset<std::string>{
              here + a + " challenges " + b + " to FIDE chess, game #1. " + a +
                  " would play White. Options: none. Clock: none; rated. " + b +
                  ": answer !accept 1 or !decline 1.",
              here + "[board.png] " + b + " accepts. Game #1, FIDE chess: " + a + " (White) vs " +
                  b + " (Black). " + a + " (White) must move. No clock; rated.",
              here + "[board.png] " + a + " (White) played e4 in game #1. " + b +
                  " (Black) must move.",
              here + "[board.png] Game #1, FIDE chess: " + a + " (White) vs " + b + " (Black). " +
                  b + " (Black) must move. No clock; rated.",
              here + "Not played in game #1: Ke7e5 is not possible: there is no king on e7: "
                     "your pawn stands there."});
    for (const json& m : fake.sent())
        CHECK(m["interaction"].is_string()); // every reply took its command's place
    const json interactions = fake.control("interactions")["interactions"];
    CHECK(interactions.size() == 5);
    for (const json& i : interactions)
        CHECK(i["deferred"] == 5);
    CHECK(action_texts(dir.path() / "games.sqlite", 1) == std::vector<std::string>{"e4"});
    daemon->signal(SIGTERM);
    CHECK(daemon->wait_exit(std::chrono::seconds(3)) == 0);
    CHECK(fake.violations().empty());
}

TEST_CASE("posts made while the daemon was down are answered once in their channel after a "
          "SIGKILL, and a !pgn after them",
          "[daemon][discord]") {
    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    const auto config = write_config(dir, fake);
    auto daemon = start_daemon(dir, config);
    REQUIRE(discord_test::eventually([&] { return fake.stats()["live"] == 1; },
                                     std::chrono::seconds(20)));
    const auto wait_for = [&](std::size_t n) {
        return discord_test::eventually([&] { return fake.sent().size() >= n; },
                                        std::chrono::seconds(20));
    };
    fake.say(channel, alice, "!new chess <@100000000000000008> white tc=none", json::array({bob}));
    REQUIRE(wait_for(1));
    fake.say(channel, bob, "!accept");
    REQUIRE(wait_for(2));

    daemon->signal(SIGKILL);
    REQUIRE(daemon->wait_exit(std::chrono::seconds(5)) == 128 + SIGKILL);
    const json e4 = fake.say(channel, alice, "e4");
    const json e5 = fake.say(channel, bob, "e5");
    daemon = start_daemon(dir, config);
    REQUIRE(wait_for(4));
    const json pgn = fake.say(channel, alice, "!pgn");
    REQUIRE(wait_for(5));
    std::this_thread::sleep_for(std::chrono::milliseconds(1500)); // nothing more comes

    const json sent = fake.sent();
    REQUIRE(sent.size() == 5);
    const std::string a = "<@100000000000000007>", b = "<@100000000000000008>";
    CHECK(sent[2]["content"].get<std::string>().starts_with(a + " (White) played e4 in game #1."));
    CHECK(sent[3]["content"].get<std::string>().starts_with(b + " (Black) played e5 in game #1."));
    CHECK(sent[4]["content"].get<std::string>().find("1. e4 e5") != std::string::npos);
    const std::vector<json> answered{e4, e5, pgn};
    for (std::size_t i = 0; i < answered.size(); ++i) {
        INFO("reply " << i + 2);
        CHECK(sent[i + 2]["channel_id"] == channel);
        CHECK(sent[i + 2]["dm_user"].is_null());
        CHECK(sent[i + 2]["message_reference"] ==
              json{{"message_id", answered[i]["id"]}, {"fail_if_not_exists", false}});
    }
    CHECK(action_texts(dir.path() / "games.sqlite", 1) == std::vector<std::string>{"e4", "e5"});
    daemon->signal(SIGTERM);
    CHECK(daemon->wait_exit(std::chrono::seconds(3)) == 0);
    CHECK(fake.violations().empty());
}

TEST_CASE("a token refused by GET /gateway/bot stops the daemon with status 2 and says why",
          "[daemon][discord]") {
    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    fake.refuse_token();
    auto daemon = start_daemon(dir, write_config(dir, fake));
    CHECK(daemon->wait_exit(std::chrono::seconds(20)) == 2);
    const std::string err = discord_test::read_file(dir.path() / "daemon.err");
    CHECK(err.find("\"event\":\"platform_refused\",\"platform\":\"discord\",\"error\":\"Discord "
                   "refused the bot token (HTTP 401 from GET /gateway/bot): check "
                   "GHOSTPOST_DISCORD_TOKEN or token_file\"") != std::string::npos);
    CHECK(count_events(dir, "poll_unauthorized") == 0);
    CHECK(fake.stats()["requests"] == 1); // asked once, not again and again
    CHECK(fake.violations().empty());
}

TEST_CASE("a token refused while the daemon runs (Gateway 4004) stops it with status 2",
          "[daemon][discord]") {
    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    auto daemon = start_daemon(dir, write_config(dir, fake));
    REQUIRE(discord_test::eventually([&] { return fake.stats()["live"] == 1; },
                                     std::chrono::seconds(20)));
    fake.refuse_token();
    CHECK(daemon->wait_exit(std::chrono::seconds(20)) == 2);
    const std::string err = discord_test::read_file(dir.path() / "daemon.err");
    CHECK(err.find("\"event\":\"platform_refused\",\"platform\":\"discord\",\"error\":\"Discord "
                   "refused the bot token (close code 4004): check GHOSTPOST_DISCORD_TOKEN or "
                   "token_file\"") != std::string::npos);
    CHECK(fake.violations().empty());
}

TEST_CASE("every line the Discord lane logs names the platform, poll_failed included",
          "[daemon][discord]") {
    discord_test::TempDir dir;
    FakeDiscord fake(dir);
    const auto config = write_config(dir, fake);
    fake.go_down();
    auto daemon = start_daemon(dir, config);
    REQUIRE(discord_test::eventually([&] { return count_events(dir, "poll_failed") >= 1; },
                                     std::chrono::seconds(20)));
    fake.come_back();
    REQUIRE(discord_test::eventually([&] { return fake.stats()["live"] == 1; },
                                     std::chrono::seconds(30)));
    fake.say(channel, alice, "!games");
    REQUIRE(discord_test::eventually([&] { return fake.sent().size() >= 1; },
                                     std::chrono::seconds(20)));
    daemon->signal(SIGTERM);
    CHECK(daemon->wait_exit(std::chrono::seconds(3)) == 0);

    std::istringstream lines(discord_test::read_file(dir.path() / "daemon.err"));
    std::set<std::string> named;
    std::vector<std::string> unnamed;
    for (std::string line; std::getline(lines, line);) {
        const json entry = json::parse(line, nullptr, false);
        REQUIRE(entry.is_object());
        const std::string event = entry.value("event", "");
        if (event != "poll_failed" && !event.starts_with("discord_") && event != "reply_sent")
            continue;
        if (entry.value("platform", "") == "discord")
            named.insert(event);
        else
            unnamed.push_back(line);
    }
    CHECK(unnamed == std::vector<std::string>{});
    CHECK(named.contains("poll_failed"));
    CHECK(named.contains("discord_gateway_connecting"));
    CHECK(named.contains("discord_gateway_ready")); // written by the Gateway's own thread
    CHECK(fake.violations().empty());
}
