// `ghostpost run` as a process against the fake homeserver: an invitation, a Phantom Chess game
// with direct rooms (one player never joins hers), an illegal move, a PNG board, an encrypted
// room, SIGKILL mid-game and a restart, SIGTERM mid long poll, a refused token.
#include "fake_matrix.h"
#include "ghostpost/storage/store.h"

#include <algorithm>
#include <atomic>
#include <fstream>
#include <future>
#include <map>
#include <random>
#include <set>

using namespace ghostpost;
using nlohmann::json;
using test::FakeMatrix;

namespace {

const std::string alice = "@alice:fake.test";
const std::string bob = "@bob:other.test";
const std::string carol = "@carol:fake.test";
const std::string token_env = std::string("GHOSTPOST_MATRIX_TOKEN=") + FakeMatrix::token;

std::filesystem::path write_config(const test::TempDir& dir, const FakeMatrix& fake,
                                   const std::string& extra = {}) {
    const auto path = dir.path() / "ghostpost.toml";
    std::ofstream(path) << "[storage]\npath = \"games.sqlite\"\n[log]\nlevel = \"debug\"\n"
                        << "[platform.matrix]\nhomeserver_url = \"" << fake.url() << "/\"\n"
                        << "user_id = \"" << FakeMatrix::bot << "\"\n"
                        << "poll_timeout = 30\nper_chat_interval_ms = 0\n"
                        << "group_messages_per_minute = 1000\n"
                        << extra;
    return path;
}

std::unique_ptr<test::Child> start_daemon(const test::TempDir& dir,
                                          const std::filesystem::path& config) {
    return std::make_unique<test::Child>(
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

// The bodies the bot sent to `room`, in order (an image as "[image]").
// What the bot said in `room`, an image as "[image]"; without `images`, the texts alone (a
// room shows a board as an image of its own after the text it belongs to).
std::vector<std::string> bodies(FakeMatrix& fake, const std::string& room, bool images = true) {
    std::vector<std::string> out;
    for (const json& m : fake.sent()) {
        if (m["room_id"] != room)
            continue;
        if (m["content"]["msgtype"] == "m.image") {
            if (images)
                out.emplace_back("[image]");
        } else {
            out.push_back(m["content"]["body"].get<std::string>());
        }
    }
    return out;
}

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

} // namespace

TEST_CASE("a Phantom game through Matrix survives SIGKILL, and SIGTERM ends the long poll",
          "[daemon][matrix]") {
    test::TempDir dir;
    FakeMatrix fake(dir);
    fake.control("eager", {{"user", alice}}); // alice accepts the bot's direct room at once
    const std::string room = fake.create_room(alice, {bob});
    const auto config = write_config(dir, fake);
    auto daemon = start_daemon(dir, config);
    REQUIRE(test::eventually([&] { return fake.membership(room, FakeMatrix::bot) == "join"; },
                             std::chrono::seconds(20)));

    // Posts, each waited for: one reply in the room for each (its board, an image by a Matrix
    // room's default, comes as an event of its own and is not counted).
    std::size_t replies = 0;
    const auto post = [&](const std::string& who, const std::string& text, std::size_t more = 1) {
        fake.say(room, who, text);
        replies += more;
        REQUIRE(test::eventually([&] { return bodies(fake, room, false).size() >= replies; },
                                 std::chrono::seconds(20)));
    };
    post(alice, "!new phantom @bob:other.test white tc=none");
    post(bob, "!accept");
    post(alice, "e4");
    post(bob, "e5");
    post(alice, "F@c3");
    // bob's entry is told to him privately: he never joins the direct room, so the room hears
    // the notice after the move's own reply.
    post(bob, "f@a6", 2);
    post(alice, "Ke3");
    post(alice, "!board png");

    // Killed between a post and its reply, or anywhere near: nothing lost, nothing twice.
    fake.say(room, alice, "Bc4");
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    daemon->signal(SIGKILL);
    REQUIRE(daemon->wait_exit(std::chrono::seconds(5)) == 128 + SIGKILL);
    fake.say(room, bob, "Nc6"); // while the daemon is down
    daemon = start_daemon(dir, config);
    replies += 2;
    REQUIRE(test::eventually([&] { return bodies(fake, room, false).size() >= replies; },
                             std::chrono::seconds(30)));

    const std::string encrypted = fake.create_room(carol, {}, true);
    REQUIRE(test::eventually([&] { return !bodies(fake, encrypted).empty(); },
                             std::chrono::seconds(20)));
    std::this_thread::sleep_for(std::chrono::milliseconds(500));

    const auto said = bodies(fake, room, false);
    REQUIRE(said.size() == replies);
    // The boards came as images: at the start, after each move, and the one asked for.
    const auto all = bodies(fake, room);
    CHECK(std::count(all.begin(), all.end(), "[image]") == 8);
    CHECK(said[0] == "@alice:fake.test challenges @bob:other.test to Phantom Chess, game #1. "
                     "@alice:fake.test would play White. Options: phantom_entry_capture=no, "
                     "phantom_entry_check=no, phantom_lives=3. Clock: none; rated. "
                     "@bob:other.test: answer !accept 1 or !decline 1.");
    CHECK(said[1].starts_with("@bob:other.test accepts. Game #1, Phantom Chess: @alice:fake.test "
                              "(White) vs @bob:other.test (Black). @alice:fake.test (White) must "
                              "move. No clock; rated."));
    CHECK(said[1].find("a  b  c  d") == std::string::npos); // no text board
    CHECK(said[2].starts_with("@alice:fake.test (White) played e4 in game #1. @bob:other.test "
                              "(Black) must move."));
    CHECK(said[4].starts_with("@alice:fake.test (White) played F@c3 in game #1. @bob:other.test "
                              "(Black) must move."));
    CHECK(said[5].starts_with("@bob:other.test (Black) played F@a6 in game #1. @alice:fake.test "
                              "(White) must move."));
    CHECK(said[6] == "@bob:other.test: I cannot send you private messages yet. Open a private "
                     "chat with me (@ghostpost:fake.test) and send any message; what game #1 has "
                     "for your eyes only waits for you there.");
    CHECK(said[7] == "Not played in game #1: Ke3 is not possible: no king can reach e3.");
    CHECK(said[8] == "Game #1, Phantom Chess: @alice:fake.test (White) vs @bob:other.test "
                     "(Black). @alice:fake.test (White) must move. No clock; rated.");
    CHECK(said[9].starts_with("@alice:fake.test (White) played Bc4 in game #1."));
    CHECK(said[10].starts_with("@bob:other.test (Black) played Nc6 in game #1."));
    CHECK(action_texts(dir.path() / "games.sqlite", 1) ==
          std::vector<std::string>{"e4", "e5", "F@c3", "F@a6", "Bc4", "Nc6"});

    // alice's secret went to her direct room; bob's waits for his.
    const json direct = fake.control("account_data")["account_data"]["m.direct"];
    REQUIRE(direct.contains(alice));
    REQUIRE(direct.contains(bob));
    const auto alice_dm = bodies(fake, direct[alice][0]);
    REQUIRE_FALSE(alice_dm.empty());
    CHECK(alice_dm[0].starts_with("Game #1: your Phantom now stands on c3\n"));
    CHECK(fake.membership(direct[bob][0], bob) == "invite");
    CHECK(bodies(fake, direct[bob][0]).empty());

    CHECK(bodies(fake, encrypted) ==
          std::vector<std::string>{"This room is end-to-end encrypted, and I cannot read "
                                   "encrypted messages, so I cannot play here. Invite me to a "
                                   "room without encryption to play."});

    // The daemon now waits in a 30 s long poll; SIGTERM must end it within three seconds.
    const auto start = std::chrono::steady_clock::now();
    daemon->signal(SIGTERM);
    CHECK(daemon->wait_exit(std::chrono::seconds(3)) == 0);
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(3));
    const std::string err = test::read_file(dir.path() / "daemon.err");
    CHECK(err.find(FakeMatrix::token) == std::string::npos);
    CHECK(count(err, "\"event\":\"daemon_stopped\"") == 1);
    CHECK(fake.violations().empty());
}

TEST_CASE("a refused access token stops the daemon with status 2", "[daemon][matrix]") {
    test::TempDir dir;
    FakeMatrix fake(dir);
    const std::string room = fake.create_room(alice, {});
    auto daemon = start_daemon(dir, write_config(dir, fake));
    REQUIRE(test::eventually([&] { return fake.membership(room, FakeMatrix::bot) == "join"; },
                             std::chrono::seconds(20)));
    fake.control("revoke");
    fake.say(room, alice, "!help");
    CHECK(daemon->wait_exit(std::chrono::seconds(10)) == 2);
    const std::string err = test::read_file(dir.path() / "daemon.err");
    CHECK(err.find("\"event\":\"platform_refused\",\"platform\":\"matrix\"") != std::string::npos);
    CHECK(err.find(FakeMatrix::token) == std::string::npos);
    CHECK(fake.violations().empty());
}

TEST_CASE("a token refused at start-up stops the daemon with status 2 before it polls",
          "[daemon][matrix]") {
    test::TempDir dir;
    FakeMatrix fake(dir);
    fake.control("revoke");
    auto daemon = start_daemon(dir, write_config(dir, fake));
    CHECK(daemon->wait_exit(std::chrono::seconds(10)) == 2);
    const std::string err = test::read_file(dir.path() / "daemon.err");
    CHECK(err.find("\"event\":\"platform_refused\",\"platform\":\"matrix\"") != std::string::npos);
    CHECK(err.find("\"event\":\"daemon_started\"") == std::string::npos);
    CHECK(err.find(FakeMatrix::token) == std::string::npos);
    const json calls = fake.control("calls")["calls"];
    REQUIRE(calls.size() == 1);
    CHECK(calls[0] == json::array({"GET", "/_matrix/client/v3/account/whoami", 401}));
    CHECK(fake.violations().empty());
}

TEST_CASE("a Matrix configuration without user_id stops start-up with status 2",
          "[daemon][matrix]") {
    test::TempDir dir;
    const auto config = dir.path() / "ghostpost.toml";
    std::ofstream(config) << "[storage]\npath = \"x.sqlite\"\n\n[platform.matrix]\n"
                             "homeserver_url = \"http://127.0.0.1:1\"\n";
    auto daemon = start_daemon(dir, config);
    CHECK(daemon->wait_exit(std::chrono::seconds(20)) == 2);
    const std::string err = test::read_file(dir.path() / "daemon.err");
    const json line = json::parse(err.substr(0, err.find('\n')));
    CHECK(line["event"] == "bad_configuration");
    CHECK(line["error"] == config.string() + ":4: platform.matrix.user_id: is required");
}

TEST_CASE("games through Matrix survive SIGKILL at random moments: every post once, every reply "
          "once",
          "[daemon][matrix][crash][slow]") {
    test::TempDir dir;
    FakeMatrix fake(dir);
    const std::string dave = "@dave:other.test";
    const std::string first = fake.create_room(alice, {bob});
    const std::string second = fake.create_room(carol, {dave});
    const auto config = write_config(dir, fake);
    {
        // The first start records where "now" is; from then on nothing may be lost.
        auto daemon = start_daemon(dir, config);
        // Stopped before its first sync is kept, the next start would be the first again and
        // skip what was posted meanwhile: wait for the cursor as well as the joins.
        REQUIRE(test::eventually(
            [&] {
                return fake.membership(first, FakeMatrix::bot) == "join" &&
                       fake.membership(second, FakeMatrix::bot) == "join" &&
                       storage::open_sqlite_store((dir.path() / "games.sqlite").string())
                           ->cursor("matrix")
                           .has_value();
            },
            std::chrono::seconds(20)));
        daemon->signal(SIGTERM);
        REQUIRE(daemon->wait_exit(std::chrono::seconds(5)) == 0);
    }

    const std::vector<std::string> moves{"e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"};
    struct Line {
        std::string room, who, text;
    };
    std::vector<Line> script{{first, alice, "!new chess @bob:other.test white tc=none"},
                             {second, carol, "!new chess @dave:other.test white tc=none"},
                             {first, bob, "!accept"},
                             {second, dave, "!accept"}};
    for (std::size_t i = 0; i < moves.size(); ++i) {
        script.push_back({first, i % 2 == 0 ? alice : bob, moves[i]});
        script.push_back({second, i % 2 == 0 ? carol : dave, moves[i]});
    }
    std::mt19937 random(std::random_device{}());
    std::atomic<bool> all_posted{false};
    auto poster = std::async(std::launch::async, [&] {
        for (const auto& line : script) {
            std::this_thread::sleep_for(std::chrono::milliseconds(60));
            fake.say(line.room, line.who, line.text);
        }
        all_posted = true;
    });
    int kills = 0;
    while (!all_posted || kills < 5) {
        auto daemon = start_daemon(dir, config);
        std::this_thread::sleep_for(
            std::chrono::milliseconds(std::uniform_int_distribution<int>(100, 700)(random)));
        daemon->signal(SIGKILL);
        REQUIRE(daemon->wait_exit(std::chrono::seconds(5)) == 128 + SIGKILL);
        ++kills;
        REQUIRE(kills < 60);
    }
    poster.get();

    auto daemon = start_daemon(dir, config);
    // One reply per post, and each mate adds the rating changes.
    const std::size_t due = script.size() / 2 + 1;
    CHECK(test::eventually(
        [&] {
            return bodies(fake, first, false).size() >= due &&
                   bodies(fake, second, false).size() >= due;
        },
        std::chrono::seconds(60)));
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    daemon->signal(SIGTERM);
    CHECK(daemon->wait_exit(std::chrono::seconds(5)) == 0);

    CHECK(action_texts(dir.path() / "games.sqlite", 1) == moves);
    CHECK(action_texts(dir.path() / "games.sqlite", 2) == moves);
    // The homeserver keeps one event per transaction id: a reply sent again after a crash is
    // the same event, so each room shows each reply once.
    for (const std::string& room : {first, second}) {
        const auto said = bodies(fake, room, false);
        CHECK(said.size() == due);
        CHECK(std::set<std::string>(said.begin(), said.end()).size() == said.size());
    }
    CHECK(fake.violations().empty());
    CHECK(test::read_file(dir.path() / "daemon.err").find(FakeMatrix::token) == std::string::npos);
}
