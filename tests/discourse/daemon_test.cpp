// `ghostpost run` as a process against the fake forum: a Phantom Chess game in a topic, with an
// illegal move, a PNG board, a peek by private message, a reply whose answer was lost (the
// retry refused as identical), the daemon killed with SIGKILL twice and SIGTERM at the end.
#include "fake_discourse.h"
#include "ghostpost/storage/store.h"

#include <algorithm>
#include <fstream>
#include <map>

using namespace ghostpost;
using nlohmann::json;
using test::FakeDiscourse;

namespace {

const std::string key_env = std::string("GHOSTPOST_DISCOURSE_API_KEY=") + FakeDiscourse::key;

std::filesystem::path write_config(const test::TempDir& dir, const FakeDiscourse& fake) {
    const auto path = dir.path() / "ghostpost.toml";
    std::ofstream(path) << "[storage]\npath = \"games.sqlite\"\n[log]\nlevel = \"debug\"\n"
                        << "[platform.discourse]\nbase_url = \"" << fake.url() << "\"\n"
                        << "username = \"ghostpost\"\ncategories = [5]\npoll_interval = 1\n"
                        << "per_topic_interval_ms = 0\n";
    return path;
}

std::unique_ptr<test::Child> start_daemon(const test::TempDir& dir,
                                          const std::filesystem::path& config) {
    return std::make_unique<test::Child>(
        std::vector<std::string>{GHOSTPOST_BINARY, "run", "--config", config.string()},
        dir.path() / "daemon.out", dir.path() / "daemon.err", std::vector<std::string>{key_env});
}

template <typename Predicate> bool eventually(Predicate done, std::chrono::seconds limit) {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < end) {
        if (done())
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return done();
}

// How many GET /posts.json the daemon made: it has polled once this grows.
std::size_t polls(FakeDiscourse& fake) {
    std::size_t n = 0;
    const json calls = fake.control("calls")["calls"];
    for (const json& call : calls)
        n += call[1] == "GET" && call[2] == "/posts.json" ? 1u : 0u;
    return n;
}

// The bot's posts as the test reads them: where each went ("@alice" for a private message,
// "re <the post it answers>" in a topic) and its first paragraph, the words before a board
// block or an image. Bot and players post in one topic at their own pace, so post numbers
// vary from run to run; the answered post's words do not.
std::vector<std::string> summaries(FakeDiscourse& fake) {
    std::vector<std::string> out;
    std::map<std::int64_t, json> topics;
    for (const json& post : fake.sent()) {
        const std::string raw = post["raw"];
        std::string where;
        if (post["private"].get<bool>()) {
            where = "@" + post["recipients"][0].get<std::string>();
        } else if (post["reply_to_post_number"].is_null()) {
            where = "-";
        } else {
            const std::int64_t id = post["topic_id"];
            if (!topics.contains(id))
                topics[id] = fake.control("topic", {{"id", id}})["posts"];
            const std::size_t number = post["reply_to_post_number"];
            where = "re " + topics[id][number - 1]["raw"].get<std::string>();
        }
        out.push_back(where + ": " + raw.substr(0, raw.find("\n\n")));
    }
    return out;
}

std::vector<std::string> action_texts(const std::filesystem::path& database, std::int64_t game) {
    const auto store = storage::open_sqlite_store(database.string());
    std::vector<std::string> texts;
    for (const auto& action : store->actions(game))
        texts.push_back(action.text);
    return texts;
}

} // namespace

TEST_CASE("a Phantom game is played in a Discourse topic through SIGKILL, restarts and SIGTERM",
          "[daemon][discourse]") {
    test::TempDir dir;
    FakeDiscourse fake(dir);
    const auto config = write_config(dir, fake);
    auto daemon = start_daemon(dir, config);
    // The first poll of an empty forum starts from its beginning.
    REQUIRE(eventually([&] { return polls(fake) >= 1; }, std::chrono::seconds(30)));

    const auto challenge = fake.say("alice", "@ghostpost !new phantom @bob white tc=none");
    const std::int64_t topic = challenge["topic_id"];
    for (const auto& [who, text] :
         std::vector<std::pair<std::string, std::string>>{{"bob", "!accept"},
                                                          {"alice", "e4"},
                                                          {"bob", "e5"},
                                                          {"alice", "F@c3"},
                                                          {"bob", "Bb5"},
                                                          {"bob", "Nc6"},
                                                          {"alice", "!board png"},
                                                          {"alice", "Bc4"}})
        fake.say(who, text, topic);
    fake.whisper("bob", "peek");
    // The answer to Nf6's reply is lost on its way back: the outbox tries again, Discourse
    // refuses the copy as identical, and the reply counts as sent, posted once.
    fake.control("fault", {{"method", "POST"},
                           {"path", "/posts.json"},
                           {"status", 502},
                           {"count", 1},
                           {"after_create", true},
                           {"when", "played Nf6"}});
    const std::vector<std::string> before_kill{
        "re @ghostpost !new phantom @bob white tc=none: @alice challenges @bob to Phantom Chess, "
        "game #1. @alice would play White. Options: "
        "phantom_entry_capture=no, phantom_entry_check=no, phantom_lives=3. Clock: none; rated. "
        "@bob: answer !accept 1 or !decline 1.",
        "re !accept: @bob accepts. Game #1, Phantom Chess: @alice (White) vs @bob (Black). @alice "
        "(White) "
        "must move. No clock; rated.",
        "re e4: @alice (White) played e4 in game #1. @bob (Black) must move.",
        "re e5: @bob (Black) played e5 in game #1. @alice (White) must move.",
        "@alice: Game #1: your Phantom now stands on c3",
        "re F@c3: @alice (White) played F@c3 in game #1. @bob (Black) must move.",
        "re Bb5: Not played in game #1: Bb5 is not possible: no bishop can reach b5.",
        "re Nc6: @bob (Black) played Nc6 in game #1. @alice (White) must move.",
        "re !board png: Game #1, Phantom Chess: @alice (White) vs @bob (Black). @alice (White) "
        "must move. No "
        "clock; rated.",
        "re Bc4: @alice (White) played Bc4 in game #1. @bob (Black) must move.",
        "@bob: Game #1: the Phantoms: White's Phantom on c3; Black's Phantom never entered",
        "@bob: @bob (Black) played peek in game #1. Black peeks at the Phantoms (2 peeks left). "
        "@bob (Black) must move.",
        "-: @bob (Black) played peek in game #1. Black peeks at the Phantoms (2 peeks left). "
        "@bob (Black) must move.",
    };
    REQUIRE(eventually([&] { return summaries(fake).size() >= before_kill.size(); },
                       std::chrono::seconds(60)));
    CHECK(summaries(fake) == before_kill);

    const json sent = fake.sent();
    // A forum shows images in its posts: the boards are PNGs, uploaded and embedded, one
    // upload for each post that shows a board, and no text board in the topic.
    std::size_t embedded = 0;
    for (const json& post : sent) {
        const std::string raw = post["raw"].get<std::string>();
        if (raw.find("![board|") != std::string::npos)
            ++embedded;
        CHECK(raw.find("```text\n    a  b  c") == std::string::npos);
    }
    CHECK(sent[1]["raw"].get<std::string>().find("![board|") != std::string::npos);
    CHECK(sent[8]["raw"].get<std::string>().find("![board|") != std::string::npos);
    // Discourse keeps one upload per image: a board shown twice is uploaded once.
    const std::size_t uploads = fake.control("uploads")["uploads"].size();
    CHECK(embedded >= 8);
    CHECK(uploads >= 1);
    CHECK(uploads <= embedded);
    // Bob's peek went to the private topic he wrote in; Alice's Phantom to a topic of her own.
    CHECK(sent[10]["topic_id"] == sent[11]["topic_id"]);
    CHECK(sent[10]["topic_id"] != sent[4]["topic_id"]);
    CHECK(sent[12]["topic_id"] == topic);

    daemon->signal(SIGKILL);
    REQUIRE(daemon->wait_exit(std::chrono::seconds(5)) == 128 + SIGKILL);
    // Made while the daemon was down: handled once when it is back.
    fake.say("bob", "Nf6", topic);
    fake.say("carol", "Nice game so far, both of you", topic);
    daemon = start_daemon(dir, config);
    REQUIRE(eventually([&] { return summaries(fake).size() >= before_kill.size() + 1; },
                       std::chrono::seconds(60)));

    // Killed again at once after a move, wherever that finds it.
    fake.say("alice", "Nf3", topic);
    std::this_thread::sleep_for(std::chrono::milliseconds(1200));
    daemon->signal(SIGKILL);
    REQUIRE(daemon->wait_exit(std::chrono::seconds(5)) == 128 + SIGKILL);
    daemon = start_daemon(dir, config);
    std::vector<std::string> expected = before_kill;
    expected.push_back("re Nf6: @bob (Black) played Nf6 in game #1. @alice (White) must move.");
    expected.push_back("re Nf3: @alice (White) played Nf3 in game #1. @bob (Black) must move.");
    CHECK(eventually([&] { return summaries(fake).size() >= expected.size(); },
                     std::chrono::seconds(60)));
    std::this_thread::sleep_for(std::chrono::seconds(2)); // nothing more may come
    CHECK(summaries(fake) == expected);

    // The retry after the lost answer was refused as identical, and understood. A SIGKILL
    // between a post and the outbox's record of it leads to the same refusal after the restart,
    // so more refusals may come, but each of them is of a text that stands posted once.
    std::vector<std::string> refused;
    const json calls = fake.control("calls")["calls"];
    for (const json& call : calls)
        if (call[1] == "POST" && call[2] == "/posts.json" && call[3] == 422)
            refused.push_back(call[4].get<std::string>());
    const auto posted = [&](const std::string& raw) {
        std::size_t times = 0;
        for (const json& post : fake.sent())
            times += post["raw"] == raw ? 1u : 0u;
        return times;
    };
    CHECK(std::count_if(refused.begin(), refused.end(), [](const std::string& raw) {
              return raw.find("played Nf6") != std::string::npos;
          }) >= 1);
    for (const std::string& raw : refused)
        CHECK(posted(raw) == 1);
    CHECK(fake.violations().empty());

    // SIGTERM ends the wait between polls at once.
    const auto start = std::chrono::steady_clock::now();
    daemon->signal(SIGTERM);
    CHECK(daemon->wait_exit(std::chrono::seconds(3)) == 0);
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(3));

    CHECK(action_texts(dir.path() / "games.sqlite", 1) ==
          std::vector<std::string>{"e4", "e5", "F@c3", "Nc6", "Bc4", "peek", "Nf6", "Nf3"});
    const std::string err = test::read_file(dir.path() / "daemon.err");
    CHECK(err.find(FakeDiscourse::key) == std::string::npos);
    CHECK(err.find("\"event\":\"daemon_stopped\"") != std::string::npos);
}

TEST_CASE("a Discourse configuration without a key stops start-up naming both sources",
          "[daemon][discourse]") {
    test::TempDir dir;
    const auto config = dir.path() / "ghostpost.toml";
    std::ofstream(config) << "[storage]\npath = \"x.sqlite\"\n[platform.discourse]\n"
                          << "base_url = \"http://127.0.0.1:9\"\nusername = \"ghostpost\"\n";
    test::Child daemon({GHOSTPOST_BINARY, "run", "--config", config.string()},
                       dir.path() / "daemon.out", dir.path() / "daemon.err");
    CHECK(daemon.wait_exit(std::chrono::seconds(20)) == 2);
    const std::string err = test::read_file(dir.path() / "daemon.err");
    const json line = json::parse(err.substr(0, err.find('\n')));
    CHECK(line["error"] == config.string() +
                               ": platform.discourse.key_file: no API key: set "
                               "GHOSTPOST_DISCOURSE_API_KEY or [platform.discourse] key_file");
}
