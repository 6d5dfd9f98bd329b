// `ghostpost run` as a process against the fake Bot API server: a game end to end, graceful
// shutdown mid long poll, conflicts, a bad configuration, and SIGKILL at random moments.
#include "fake_telegram.h"
#include "ghostpost/storage/store.h"

#include <atomic>
#include <fstream>
#include <future>
#include <random>
#include <set>
#include <sstream>

using namespace ghostpost;
using nlohmann::json;
using test::FakeTelegram;

namespace {

const std::string token_env = std::string("GHOSTPOST_TELEGRAM_TOKEN=") + FakeTelegram::token;

std::filesystem::path write_config(const test::TempDir& dir, const FakeTelegram& fake,
                                   int poll_timeout = 5) {
    const auto path = dir.path() / "ghostpost.toml";
    std::ofstream(path) << "[storage]\npath = \"games.sqlite\"\n[log]\nlevel = \"debug\"\n"
                        << "[telegram]\napi_url = \"" << fake.url() << "\"\n"
                        << "poll_timeout = " << poll_timeout << "\n"
                        << "per_chat_interval_ms = 0\ngroup_messages_per_minute = 1000\n";
    return path;
}

std::unique_ptr<test::Child> start_daemon(const test::TempDir& dir,
                                          const std::filesystem::path& config) {
    return std::make_unique<test::Child>(
        std::vector<std::string>{GHOSTPOST_BINARY, "run", "--config", config.string()},
        dir.path() / "daemon.out", dir.path() / "daemon.err", std::vector<std::string>{token_env});
}

template <typename Predicate> bool eventually(Predicate done, std::chrono::seconds limit) {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < end) {
        if (done()) {
            return true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return done();
}

struct ScriptedPost {
    std::int64_t chat;
    std::int64_t from;
    std::string username;
    std::string text;
};

// Two games in two groups, interleaved: the same short mate in each. Without a clock, so
// that no reply carries a deadline read off the real time: the crashing run's replies must
// equal the calm run's text for text.
std::vector<ScriptedPost> two_games() {
    const std::vector<std::string> moves{"e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"};
    std::vector<ScriptedPost> posts{
        {-1001, 7, "alice", "!new chess @bob white tc=none"},
        {-1002, 9, "carol", "!new chess @dave white tc=none"},
        {-1001, 8, "bob", "!accept"},
        {-1002, 10, "dave", "!accept"},
    };
    for (std::size_t i = 0; i < moves.size(); ++i) {
        const bool white = i % 2 == 0;
        posts.push_back({-1001, white ? 7 : 8, white ? "alice" : "bob", moves[i]});
        posts.push_back({-1002, white ? 9 : 10, white ? "carol" : "dave", moves[i]});
    }
    return posts;
}

std::vector<std::string> action_texts(const std::filesystem::path& database, std::int64_t game) {
    const auto store = storage::open_sqlite_store(database.string());
    std::vector<std::string> texts;
    for (const auto& action : store->actions(game)) {
        texts.push_back(action.text);
    }
    return texts;
}

std::multiset<std::string> replies(FakeTelegram& fake) {
    std::multiset<std::string> out;
    for (const json& m : fake.sent()) {
        out.insert(m["chat_id"].dump() + " " + m["text"].get<std::string>());
    }
    return out;
}

} // namespace

TEST_CASE("a bad configuration stops start-up naming the key and the line, with status 2",
          "[daemon][telegram]") {
    test::TempDir dir;
    const auto config = dir.path() / "ghostpost.toml";
    std::ofstream(config) << "[storage]\npath = \"x.sqlite\"\n\n[telegram]\npoll_timeout = 99\n";
    auto daemon = start_daemon(dir, config);
    CHECK(daemon->wait_exit(std::chrono::seconds(20)) == 2);
    const std::string err = test::read_file(dir.path() / "daemon.err");
    const json line = json::parse(err.substr(0, err.find('\n')));
    CHECK(line["event"] == "bad_configuration");
    CHECK(line["error"] ==
          config.string() + ":5: telegram.poll_timeout: must be between 1 and 50 seconds");
}

TEST_CASE("a game is played through Telegram and SIGTERM stops the daemon mid long poll",
          "[daemon][telegram]") {
    test::TempDir dir;
    FakeTelegram fake(dir);
    auto daemon = start_daemon(dir, write_config(dir, fake, 30));

    const auto challenge = fake.say(-1001, 7, "alice", "/new@ghostpost_bot chess @bob white");
    fake.say(-1001, 8, "bob", "!accept");
    fake.say(-1001, 7, "alice", "e4");
    fake.say(-1001, 3, "mallory", "/new@other_bot chess"); // another bot's command: silence
    fake.say(8, 8, "bob", "!games");                       // a private chat
    REQUIRE(eventually([&] { return fake.sent().size() >= 4; }, std::chrono::seconds(30)));
    std::this_thread::sleep_for(std::chrono::milliseconds(500));

    const json sent = fake.sent();
    REQUIRE(sent.size() == 4);
    CHECK(sent[0]["chat_id"] == -1001);
    CHECK(sent[0]["text"] == "@alice challenges @bob to FIDE chess, game #1. @alice would play "
                             "White. Options: none. Clock: 3d per move; rated. @bob: answer "
                             "!accept 1 or !decline 1.");
    CHECK(sent[0]["reply_to"] == challenge["message_id"]);
    CHECK(sent[0]["parse_mode"].is_null());
    // The daemon runs on the real clock, so the deadline's date is not checked.
    CHECK(sent[1]["text"].get<std::string>().starts_with(
        "@bob accepts. Game #1, FIDE chess: @alice (White) vs @bob (Black). @alice (White) must "
        "move. Clock (3d per move; rated): @alice (White) 3d 0h left, until "));
    // A Telegram group shows images in the conversation: its boards are photos by default.
    CHECK(sent[1]["method"] == "sendPhoto");
    CHECK(sent[1]["text"].get<std::string>().ends_with(" UTC; @bob (Black) 3d 0h left."));
    CHECK(sent[2]["method"] == "sendPhoto");
    CHECK(sent[2]["text"] == "@alice (White) played e4 in game #1. @bob (Black) must move.");
    CHECK(sent[3]["chat_id"] == 8);
    CHECK(sent[3]["text"] == "Games of @bob, those waiting for them first:\n<pre>#1 chess vs "
                             "@alice: @bob (Black) must move.\n</pre>");
    CHECK(sent[3]["parse_mode"] == "HTML");
    CHECK(fake.violations().empty());

    // The daemon now waits in a 30 s long poll; SIGTERM must end it within two seconds.
    const auto start = std::chrono::steady_clock::now();
    daemon->signal(SIGTERM);
    CHECK(daemon->wait_exit(std::chrono::seconds(2)) == 0);
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(2));

    const std::string err = test::read_file(dir.path() / "daemon.err");
    CHECK(err.find("FAKE-secret_token_value") == std::string::npos);
    CHECK(err.find("\"event\":\"daemon_stopped\"") != std::string::npos);
    CHECK(action_texts(dir.path() / "games.sqlite", 1) == std::vector<std::string>{"e4"});
}

TEST_CASE("409 and 5xx on getUpdates are logged and backed off, then polling resumes",
          "[daemon][telegram]") {
    test::TempDir dir;
    FakeTelegram fake(dir);
    fake.control("fault", {{"method", "getUpdates"},
                           {"status", 409},
                           {"count", 1},
                           {"description", "Conflict: terminated by other getUpdates request"}});
    fake.control(
        "fault",
        {{"method", "getUpdates"}, {"status", 502}, {"count", 1}, {"description", "Bad Gateway"}});
    auto daemon = start_daemon(dir, write_config(dir, fake));
    fake.say(-1001, 7, "alice", "!new chess @bob");
    REQUIRE(eventually([&] { return fake.sent().size() == 1; }, std::chrono::seconds(30)));
    daemon->signal(SIGINT);
    CHECK(daemon->wait_exit(std::chrono::seconds(2)) == 0);
    const std::string err = test::read_file(dir.path() / "daemon.err");
    CHECK(err.find("\"event\":\"poll_conflict\"") != std::string::npos);
    CHECK(err.find("getUpdates: 502 Bad Gateway") != std::string::npos);
    CHECK(err.find("FAKE-secret_token_value") == std::string::npos);
}

TEST_CASE("every line the Telegram lane logs names the platform, poll_failed included",
          "[daemon][telegram]") {
    test::TempDir dir;
    FakeTelegram fake(dir);
    fake.control(
        "fault",
        {{"method", "getUpdates"}, {"status", 502}, {"count", 1}, {"description", "Bad Gateway"}});
    auto daemon = start_daemon(dir, write_config(dir, fake));
    fake.say(-1001, 7, "alice", "!new chess @bob");
    REQUIRE(eventually([&] { return fake.sent().size() == 1; }, std::chrono::seconds(30)));
    // The fake has the reply as soon as it is asked; the daemon logs it once the answer is read.
    REQUIRE(eventually(
        [&] {
            return test::read_file(dir.path() / "daemon.err").find("\"event\":\"reply_sent\"") !=
                   std::string::npos;
        },
        std::chrono::seconds(10)));
    daemon->signal(SIGINT);
    CHECK(daemon->wait_exit(std::chrono::seconds(2)) == 0);

    std::istringstream lines(test::read_file(dir.path() / "daemon.err"));
    std::set<std::string> named;
    std::vector<std::string> unnamed;
    for (std::string line; std::getline(lines, line);) {
        const json entry = json::parse(line, nullptr, false);
        REQUIRE(entry.is_object());
        const std::string event = entry.value("event", "");
        if (event != "poll_failed" && event != "reply_sent" && !event.starts_with("telegram_"))
            continue;
        if (entry.value("platform", "") == "telegram")
            named.insert(event);
        else
            unnamed.push_back(line);
    }
    CHECK(unnamed == std::vector<std::string>{});
    CHECK(named.contains("poll_failed"));
    CHECK(named.contains("reply_sent"));
}

TEST_CASE("games survive SIGKILL at random moments: no move lost or doubled, every reply sent",
          "[daemon][telegram][crash][slow]") {
    const auto script = two_games();
    const std::vector<std::string> expected{"e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"};

    // A calm run gives the replies the crashing run must deliver at least once.
    std::multiset<std::string> reference;
    {
        test::TempDir dir;
        FakeTelegram fake(dir);
        auto daemon = start_daemon(dir, write_config(dir, fake));
        for (const auto& p : script) {
            fake.say(p.chat, p.from, p.username, p.text);
        }
        // One reply per post, and each of the two mates adds the players' rating changes.
        const std::size_t replies_due = script.size() + 2;
        REQUIRE(eventually([&] { return fake.sent().size() >= replies_due; },
                           std::chrono::seconds(60)));
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        daemon->signal(SIGTERM);
        REQUIRE(daemon->wait_exit(std::chrono::seconds(5)) == 0);
        reference = replies(fake);
        REQUIRE(reference.size() == replies_due);
        REQUIRE(action_texts(dir.path() / "games.sqlite", 1) == expected);
    }

    test::TempDir dir;
    FakeTelegram fake(dir);
    const auto config = write_config(dir, fake);
    std::mt19937 random(std::random_device{}());
    std::atomic<bool> all_posted{false};
    auto poster = std::async(std::launch::async, [&] {
        for (const auto& p : script) {
            std::this_thread::sleep_for(std::chrono::milliseconds(60));
            fake.say(p.chat, p.from, p.username, p.text);
        }
        all_posted = true;
    });
    int kills = 0;
    while (!all_posted || kills < 6) {
        auto daemon = start_daemon(dir, config);
        std::this_thread::sleep_for(
            std::chrono::milliseconds(std::uniform_int_distribution<int>(80, 700)(random)));
        daemon->signal(SIGKILL);
        REQUIRE(daemon->wait_exit(std::chrono::seconds(5)) == 128 + SIGKILL);
        ++kills;
        REQUIRE(kills < 60);
    }
    poster.get();

    // The last start must be up before it is asked to stop: a SIGTERM that lands before the
    // program's first instruction ends it like any other program.
    const auto starts = [&] {
        const std::string err = test::read_file(dir.path() / "daemon.err");
        std::size_t n = 0;
        for (auto at = err.find("\"daemon_started\""); at != std::string::npos;
             at = err.find("\"daemon_started\"", at + 1)) {
            ++n;
        }
        return n;
    };
    const std::size_t started_before = starts();
    auto daemon = start_daemon(dir, config);
    REQUIRE(eventually([&] { return starts() > started_before; }, std::chrono::seconds(30)));
    const auto delivered_all = [&] {
        const auto got = replies(fake);
        return std::all_of(reference.begin(), reference.end(),
                           [&](const std::string& r) { return got.contains(r); });
    };
    CHECK(eventually(delivered_all, std::chrono::seconds(60)));
    daemon->signal(SIGTERM);
    CHECK(daemon->wait_exit(std::chrono::seconds(5)) == 0);

    CHECK(action_texts(dir.path() / "games.sqlite", 1) == expected);
    CHECK(action_texts(dir.path() / "games.sqlite", 2) == expected);
    CHECK(fake.violations().empty());
    // Replies are at least once; posts exactly once: no reply text beyond the reference ones.
    for (const auto& got : replies(fake)) {
        CHECK(reference.contains(got));
    }
    CHECK(test::read_file(dir.path() / "daemon.err").find("FAKE-secret_token_value") ==
          std::string::npos);
}

TEST_CASE("SIGKILL while the bot thinks loses only the thought: after the restart its move "
          "arrives exactly once",
          "[daemon][telegram][crash][engine]") {
    test::TempDir dir;
    FakeTelegram fake(dir);
    const auto config = write_config(dir, fake, 1);
    const auto database = dir.path() / "games.sqlite";
    auto daemon = start_daemon(dir, config);
    // Level 8 thinks for up to 1.8 s: long enough to be caught in the middle of a thought. The
    // bot is named after its Telegram account (ghostpost_bot).
    fake.say(-1001, 7, "alice", "!new chess bot level=8 tc=none");
    fake.say(-1001, 7, "alice", "e4");
    const auto thinking = [&] {
        return test::read_file(dir.path() / "daemon.err").find("\"engine_thinking\"") !=
               std::string::npos;
    };
    REQUIRE(eventually(thinking, std::chrono::seconds(30)));
    daemon->signal(SIGKILL);
    REQUIRE(daemon->wait_exit(std::chrono::seconds(5)) == 128 + SIGKILL);
    // The thought died with the process; nothing of it was kept.
    REQUIRE(action_texts(database, 1) == std::vector<std::string>{"e4"});

    daemon = start_daemon(dir, config);
    REQUIRE(eventually([&] { return action_texts(database, 1).size() == 2; },
                       std::chrono::seconds(30)));
    const auto bot_replies = [&] {
        int n = 0;
        for (const json& m : fake.sent())
            n +=
                m["text"].get<std::string>().starts_with("ghostpost_bot (level 8) (Black) played ");
        return n;
    };
    REQUIRE(eventually([&] { return bot_replies() == 1; }, std::chrono::seconds(30)));
    // A while later: still one move of the bot and one reply announcing it.
    std::this_thread::sleep_for(std::chrono::milliseconds(2500));
    CHECK(action_texts(database, 1).size() == 2);
    CHECK(bot_replies() == 1);
    const auto store = storage::open_sqlite_store(database.string());
    const auto log = store->actions(1);
    REQUIRE(log.size() == 2);
    CHECK(log[1].message_id.starts_with("engine:1:1."));
    daemon->signal(SIGTERM);
    CHECK(daemon->wait_exit(std::chrono::seconds(5)) == 0);
    INFO(fake.violations().dump());
    CHECK(fake.violations().empty());
}
