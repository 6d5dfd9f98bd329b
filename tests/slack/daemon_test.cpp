// `ghostpost run` as a process against the fake Slack: a Phantom Chess game told end to end in
// one thread (a challenge, moves, an illegal move, a PNG board, a peek by DM, a user whose DMs
// are closed, a 429), the daemon killed with SIGKILL mid-game and started again with the posts
// made meanwhile answered once, SIGTERM, and no token in the log.
#include "fake_slack.h"
#include "ghostpost/storage/store.h"

#include <fstream>
#include <set>

using namespace ghostpost;
using nlohmann::json;
using slack_test::FakeSlack;

namespace {

const std::string games = "CGAMES0001";
const std::string alice = "UALICE0001";
const std::string bob = "UBOBBY0002";

std::filesystem::path write_config(const slack_test::TempDir& dir, const FakeSlack& fake) {
    const auto path = dir.path() / "ghostpost.toml";
    std::ofstream(path) << "[storage]\npath = \"games.sqlite\"\n[log]\nlevel = \"debug\"\n"
                        << "[platform.slack]\napi_url = \"" << fake.api_url() << "\"\n"
                        << "poll_timeout = 30\nper_chat_interval_ms = 0\n"
                        << "group_messages_per_minute = 1000\n";
    return path;
}

std::unique_ptr<slack_test::Child> start_daemon(const slack_test::TempDir& dir,
                                                const std::filesystem::path& config) {
    return std::make_unique<slack_test::Child>(
        std::vector<std::string>{GHOSTPOST_BINARY, "run", "--config", config.string()},
        dir.path() / "daemon.out", dir.path() / "daemon.err",
        std::vector<std::string>{std::string("GHOSTPOST_SLACK_BOT_TOKEN=") + FakeSlack::bot_token,
                                 std::string("GHOSTPOST_SLACK_APP_TOKEN=") + FakeSlack::app_token});
}

std::vector<std::string> action_texts(const std::filesystem::path& database, std::int64_t game) {
    const auto store = storage::open_sqlite_store(database.string());
    std::vector<std::string> texts;
    for (const auto& action : store->actions(game))
        texts.push_back(action.text);
    return texts;
}

// What the app posted: "<where> <text>", where is "dm:<user>" or the channel id, "[board.png]"
// marks an upload and "[code]" a board in a code block after the text.
std::multiset<std::string> heads(FakeSlack& fake) {
    std::multiset<std::string> out;
    for (const json& m : fake.sent()) {
        const std::string channel = m["channel"].get<std::string>();
        const std::string where = channel.starts_with("D") ? "dm:U" + channel.substr(1) : channel;
        std::string text = m["text"].get<std::string>();
        const auto block = text.find("\n```\n");
        const bool code = block != std::string::npos && text.ends_with("\n```");
        if (code)
            text.resize(block);
        out.insert(where + (m.contains("files") ? " [board.png] " : " ") + text +
                   (code ? " [code]" : ""));
    }
    return out;
}

std::size_t count_events(const slack_test::TempDir& dir, const std::string& event) {
    const std::string err = slack_test::read_file(dir.path() / "daemon.err");
    std::size_t n = 0;
    for (auto at = err.find("\"event\":\"" + event + "\""); at != std::string::npos;
         at = err.find("\"event\":\"" + event + "\"", at + 1))
        ++n;
    return n;
}

} // namespace

TEST_CASE("a Phantom game on Slack in one thread: DMs, closed DMs, a 429, SIGKILL, SIGTERM",
          "[daemon][slack]") {
    slack_test::TempDir dir;
    FakeSlack fake(dir);
    const auto config = write_config(dir, fake);
    auto daemon = start_daemon(dir, config);
    REQUIRE(slack_test::eventually([&] { return fake.stats()["live"] == 1; },
                                   std::chrono::seconds(20)));
    const auto wait_for = [&](std::size_t n) {
        return slack_test::eventually([&] { return fake.sent().size() >= n; },
                                      std::chrono::seconds(20));
    };
    const std::string thread = fake.say(games, alice, "!new phantom <@UBOBBY0002> white tc=none");
    REQUIRE(wait_for(1));
    const auto in_thread = [&](const std::string& who, const std::string& text) {
        return fake.say(games, who, text, thread);
    };
    in_thread(bob, "!accept");
    REQUIRE(wait_for(2));
    // Slack limits the next message: the outbox waits out Retry-After and sends it then.
    fake.control("rate_limit", {{"method", "chat.postMessage"}, {"retry_after", 1}});
    in_thread(alice, "e4");
    REQUIRE(wait_for(3));
    in_thread(bob, "Qh4"); // the queen is behind her pawns
    REQUIRE(wait_for(4));
    in_thread(alice, "!board png");
    REQUIRE(wait_for(5));
    in_thread(bob, "good luck, alice"); // chatter: no reply
    fake.control("close_dms", {{"user", bob}});
    in_thread(alice, "!peek"); // by DM
    in_thread(bob, "!peek");   // bob's DMs are closed: the notice in the channel, the peek waits
    REQUIRE(wait_for(9));

    const std::string a = "<@UALICE0001>", b = "<@UBOBBY0002>";
    const std::string here = games + " ";
    const std::multiset<std::string> first_part{
        here + a + " challenges " + b + " to Phantom Chess, game #1. " + a +
            " would play White. Options: phantom_entry_capture=no, phantom_entry_check=no, "
            "phantom_lives=3. Clock: none; rated. " +
            b + ": answer !accept 1 or !decline 1.",
        here + b + " accepts. Game #1, Phantom Chess: " + a + " (White) vs " + b + " (Black). " +
            a + " (White) must move. No clock; rated. [code]",
        here + a + " (White) played e4 in game #1. " + b + " (Black) must move. [code]",
        here + "Not played in game #1: Qh4 is not possible: no queen can reach h4.",
        here + "[board.png] Game #1, Phantom Chess: " + a + " (White) vs " + b + " (Black). " + b +
            " (Black) must move. No clock; rated.",
        "dm:UALICE0001 Game #1: the Phantoms: White's Phantom never entered; Black's Phantom "
        "never entered [code]",
        here + a + " (White) played peek in game #1. White peeks at the Phantoms (2 peeks left). " +
            b + " (Black) must move. [code]",
        here + b + " (Black) played peek in game #1. Black peeks at the Phantoms (2 peeks left). " +
            b + " (Black) must move. [code]",
        here + b +
            ": I cannot send you private messages yet. Open a private chat with me "
            "(@ghostpost) and send any message; what game #1 has for your eyes only waits for "
            "you there."};
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    CHECK(heads(fake) == first_part);
    // Every answer in the channel is in the game's thread.
    for (const json& m : fake.sent())
        if (m["channel"] == games)
            CHECK(m["thread_ts"] == thread);
    CHECK(fake.stats()["rate_limited"] == 1);

    // Killed mid-game; what is posted in the thread while it is down is read back once.
    daemon->signal(SIGKILL);
    REQUIRE(daemon->wait_exit(std::chrono::seconds(5)) == 128 + SIGKILL);
    in_thread(bob, "e5");
    in_thread(alice, "Nf3");
    daemon = start_daemon(dir, config);
    REQUIRE(wait_for(11));
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    std::multiset<std::string> all = first_part;
    all.insert(here + b + " (Black) played e5 in game #1. " + a + " (White) must move. [code]");
    all.insert(here + a + " (White) played Nf3 in game #1. " + b + " (Black) must move. [code]");
    CHECK(heads(fake) == all); // each post handled once: no reply twice, none missing
    CHECK(action_texts(dir.path() / "games.sqlite", 1) ==
          std::vector<std::string>{"e4", "peek", "peek", "e5", "Nf3"});
    CHECK(count_events(dir, "slack_caught_up") == 1);

    // SIGTERM while the poll waits for Socket Mode: out within three seconds.
    const auto start = std::chrono::steady_clock::now();
    daemon->signal(SIGTERM);
    CHECK(daemon->wait_exit(std::chrono::seconds(3)) == 0);
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(3));
    CHECK(count_events(dir, "daemon_stopped") == 1);
    const std::string log = slack_test::read_file(dir.path() / "daemon.err");
    CHECK(log.find("FAKEbotTOKEN") == std::string::npos);
    CHECK(log.find("fakeapptoken") == std::string::npos);
    const json stats = fake.stats();
    CHECK(stats["late_acks"] == 0);
    CHECK(stats["unacked"] == 0);
    CHECK(fake.violations().empty());
}

TEST_CASE("a slash command: help and a refusal for its author alone, a challenge for all",
          "[daemon][slack]") {
    slack_test::TempDir dir;
    FakeSlack fake(dir);
    const auto config = write_config(dir, fake);
    auto daemon = start_daemon(dir, config);
    REQUIRE(slack_test::eventually([&] { return fake.stats()["live"] == 1; },
                                   std::chrono::seconds(20)));
    fake.control("slash", {{"channel", games}, {"user", alice}, {"text", "frobnicate"}});
    REQUIRE(
        slack_test::eventually([&] { return fake.control("responses")["responses"].size() == 1; },
                               std::chrono::seconds(20)));
    fake.control("slash", {{"channel", games}, {"user", bob}, {"text", "help"}});
    REQUIRE(
        slack_test::eventually([&] { return fake.control("responses")["responses"].size() >= 2; },
                               std::chrono::seconds(20)));
    fake.control("slash",
                 {{"channel", games}, {"user", alice}, {"text", "new chess <@UBOBBY0002>"}});
    REQUIRE(
        slack_test::eventually([&] { return fake.sent().size() == 1; }, std::chrono::seconds(20)));
    std::this_thread::sleep_for(std::chrono::milliseconds(500));

    const json responses = fake.control("responses")["responses"];
    REQUIRE(responses.size() >= 2);
    CHECK(responses[0]["user"] == alice);
    CHECK(responses[0]["response_type"] == "ephemeral");
    CHECK(responses[0]["text"] == "There is no command !frobnicate. Say !help for the list.");
    CHECK(responses[1]["user"] == bob);
    CHECK(responses[1]["text"].get<std::string>().starts_with(
        "Commands (!help &lt;command&gt; for one; a move alone works when it is your turn):"));
    const json sent = fake.sent();
    REQUIRE(sent.size() == 1);
    CHECK(sent[0]["channel"] == games);
    CHECK(sent[0]["text"] == "<@UALICE0001> challenges <@UBOBBY0002> to FIDE chess, game #1. "
                             "<@UALICE0001> would play White. Options: none. Clock: 3d per "
                             "move; rated. <@UBOBBY0002>: answer !accept 1 or !decline 1.");

    daemon->signal(SIGTERM);
    CHECK(daemon->wait_exit(std::chrono::seconds(3)) == 0);
    CHECK(fake.violations().empty());
}

TEST_CASE("a game's result is broadcast from its thread to the channel, and no other reply is",
          "[daemon][slack]") {
    slack_test::TempDir dir;
    FakeSlack fake(dir);
    const auto config = write_config(dir, fake);
    auto daemon = start_daemon(dir, config);
    REQUIRE(slack_test::eventually([&] { return fake.stats()["live"] == 1; },
                                   std::chrono::seconds(20)));
    const auto wait_for = [&](std::size_t n) {
        return slack_test::eventually([&] { return fake.sent().size() >= n; },
                                      std::chrono::seconds(20));
    };
    const std::string thread = fake.say(games, alice, "!new chess <@UBOBBY0002> white tc=none");
    REQUIRE(wait_for(1));
    std::size_t expected = 1;
    for (const auto& [who, text] : std::vector<std::pair<std::string, std::string>>{
             {bob, "!accept"}, {alice, "f3"}, {bob, "e5"}, {alice, "g4"}, {bob, "Qh4#"}}) {
        fake.say(games, who, text, thread);
        REQUIRE(wait_for(++expected));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1500)); // what follows the result

    std::vector<std::string> broadcast;
    for (const json& m : fake.sent()) {
        CHECK(m["thread_ts"] == thread);
        if (m["reply_broadcast"] == true)
            broadcast.push_back(m["text"].get<std::string>().substr(0, 110));
    }
    CHECK(broadcast == std::vector<std::string>{"<@UBOBBY0002> (Black) played Qh4# in game #1. "
                                                "Game #1 is over: <@UBOBBY0002> (Black) wins by "
                                                "checkmate (0-1).\n"});
    daemon->signal(SIGTERM);
    CHECK(daemon->wait_exit(std::chrono::seconds(3)) == 0);
    CHECK(fake.violations().empty());
}
