// Who is who, through the fake Bot API server and the real daemon: "@bob" is the account
// whose username is bob, never an account that merely calls itself bob; anonymous senders do
// not play; a malformed update does not stop polling.
#include "fake_telegram.h"
#include "ghostpost/storage/store.h"

#include <fstream>

using namespace ghostpost;
using nlohmann::json;
using test::FakeTelegram;

namespace {

constexpr std::int64_t group = -1001;

struct Daemon {
    explicit Daemon(int moderator = 0) : fake(dir) {
        const auto config = dir.path() / "ghostpost.toml";
        std::ofstream out(config);
        out << "[storage]\npath = \"games.sqlite\"\n[log]\nlevel = \"debug\"\n";
        if (moderator != 0)
            out << "[bot]\nmoderators = [\"telegram:" << moderator << "\"]\n";
        out << "[telegram]\napi_url = \"" << fake.url() << "\"\npoll_timeout = 5\n"
            << "per_chat_interval_ms = 0\ngroup_messages_per_minute = 1000\n";
        out.close();
        child = std::make_unique<test::Child>(
            std::vector<std::string>{GHOSTPOST_BINARY, "run", "--config", config.string()},
            dir.path() / "daemon.out", dir.path() / "daemon.err",
            std::vector<std::string>{std::string("GHOSTPOST_TELEGRAM_TOKEN=") +
                                     FakeTelegram::token});
    }
    ~Daemon() {
        child->signal(SIGTERM);
        CHECK(child->wait_exit(std::chrono::seconds(5)) == 0);
        CHECK(fake.violations().empty());
        CHECK(test::read_file(dir.path() / "daemon.err").find("FAKE-secret_token_value") ==
              std::string::npos);
    }

    // Posts `text` in the group from an account; a null username is an account without one.
    std::int64_t say(std::int64_t from, const json& username, const std::string& first_name,
                     const std::string& text, json extra = json::object()) {
        extra.update({{"chat_id", group},
                      {"from_id", from},
                      {"username", username},
                      {"first_name", first_name},
                      {"text", text}});
        return fake.control("message", extra)["message_id"].get<std::int64_t>();
    }

    // The text of the bot's answer to message `id`, waiting for it; "" when none came.
    std::string reply_to(std::int64_t id) {
        const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        while (std::chrono::steady_clock::now() < end) {
            for (const json& m : fake.sent())
                if (m["chat_id"] == group && m.value("reply_to", json()) == id)
                    return m["text"].get<std::string>();
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        return "";
    }

    std::vector<std::string> moves(std::int64_t game) {
        const auto store = storage::open_sqlite_store((dir.path() / "games.sqlite").string());
        std::vector<std::string> texts;
        for (const auto& action : store->actions(game))
            texts.push_back(action.text);
        return texts;
    }

    test::TempDir dir;
    FakeTelegram fake;
    std::unique_ptr<test::Child> child;
};

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace

TEST_CASE("an account named bob without a username cannot take or play @bob's challenge",
          "[daemon][telegram][identity]") {
    Daemon d;
    const json none = nullptr;
    d.say(666, none, "bob", "hello everyone"); // the impostor is the last "bob" seen
    const std::string challenge =
        d.reply_to(d.say(7, "alice", "Alice", "!new chess @bob white tc=none"));
    CHECK(contains(challenge, "challenges @bob"));

    const std::string taken = d.reply_to(d.say(666, none, "bob", "!accept"));
    CHECK_FALSE(taken.empty());
    CHECK_FALSE(contains(taken, "accepts"));
    const std::string taken_by_id = d.reply_to(d.say(666, none, "bob", "!accept 1"));
    CHECK_FALSE(taken_by_id.empty());
    CHECK_FALSE(contains(taken_by_id, "accepts"));

    const std::string accepted = d.reply_to(d.say(8, "bob", "Bob", "!accept"));
    CHECK(accepted.starts_with("@bob accepts. Game #1"));
    CHECK(contains(d.reply_to(d.say(7, "alice", "Alice", "e4")), "played e4"));
    d.say(666, none, "bob", "e5"); // not a player of game #1: nothing happens to the game
    CHECK(contains(d.reply_to(d.say(8, "bob", "Bob", "e5")), "played e5"));
    CHECK(d.moves(1) == std::vector<std::string>{"e4", "e5"});
}

TEST_CASE("!mod ban @bob bans the account whose username is bob, not the last one named bob",
          "[daemon][telegram][identity]") {
    Daemon d(1);
    const json none = nullptr;
    d.say(8, "bob", "Bob", "hello");
    d.say(7, "alice", "Alice", "hi");
    d.say(666, none, "bob", "hello, I am bob too"); // the decoy, seen last
    const std::string banned = d.reply_to(d.say(1, "mod", "Mo", "!mod ban @bob"));
    CHECK(banned.starts_with("@bob is banned by moderator @mod"));

    const std::string decoy = d.reply_to(d.say(666, none, "bob", "!new chess @alice tc=none"));
    CHECK(contains(decoy, "challenges @alice"));
    CHECK_FALSE(contains(decoy, "banned"));
    // The banned account's post gets no reply at all (issue 33): a post handled after it is
    // answered, and nothing ever answers it.
    const std::int64_t real = d.say(8, "bob", "Bob", "!new chess @alice tc=none");
    CHECK_FALSE(d.reply_to(d.say(7, "alice", "Alice", "!games")).empty());
    for (const json& m : d.fake.sent())
        CHECK(m.value("reply_to", json()) != real);
}

TEST_CASE("Telegram's anonymous group admin may not play", "[daemon][telegram][identity]") {
    Daemon d;
    d.say(7, "alice", "Alice", "hi");
    const std::string refused = d.reply_to(
        d.say(1087968824, "GroupAnonymousBot", "Group", "!new chess @alice tc=none",
              {{"sender_chat", {{"id", group}, {"type", "supergroup"}, {"title", "G"}}}}));
    CHECK_FALSE(refused.empty());
    CHECK_FALSE(contains(refused, "challenges"));
}

TEST_CASE("a malformed update is logged and skipped, and polling goes on",
          "[daemon][telegram][malformed]") {
    Daemon d;
    d.fake.control("raw_update", {{"update",
                                   {{"message",
                                     {{"message_id", "abc"},
                                      {"date", 1},
                                      {"chat", {{"id", group}, {"type", "supergroup"}}},
                                      {"from", {{"id", 7}, {"is_bot", false}, {"first_name", "A"}}},
                                      {"text", "!new chess @bob"}}}}}});
    d.fake.control("raw_update", {{"update", {{"message", {{"message_id", 5}}}}}});
    const std::string answer =
        d.reply_to(d.say(7, "alice", "Alice", "!new chess @bob white tc=none"));
    CHECK(contains(answer, "challenges @bob"));
    const std::string err = test::read_file(d.dir.path() / "daemon.err");
    CHECK(contains(err, "\"event\":\"telegram_update_skipped\""));
    CHECK(contains(err, "message.message_id is not an integer"));
    CHECK(contains(err, "message.chat is missing"));
}
