// Three `ghostpost run` daemons on one PostgreSQL database and one fake Bot API server: one polls
// Telegram (it holds the lease), all three deliver replies and run the time-driven job. A
// random daemon is killed with SIGKILL every few seconds and started again; at the end every
// game's log is the expected one and every reply was delivered, twice only when the daemon
// that sent it first died before it could record it.
#include "../support/test_stores.h"
#include "fake_telegram.h"

#include <arpa/inet.h>
#include <fstream>
#include <future>
#include <httplib.h>
#include <map>
#include <netinet/in.h>
#include <random>
#include <set>
#include <sys/socket.h>

using namespace ghostpost;
using nlohmann::json;
using test::FakeTelegram;
using testing::Backend;
using testing::FreshStore;

namespace {

const std::string token_env = std::string("GHOSTPOST_TELEGRAM_TOKEN=") + FakeTelegram::token;
// The defaults: a daemon that dies is replaced because its database session ends, long before
// its lease or its claims run out.
constexpr int lease_seconds = 30;
constexpr int claim_seconds = 120;

double unix_now() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// Daemon `slot` reaches the fake under its own path, so the fake records whose sends are whose.
std::filesystem::path write_config(const test::TempDir& dir, const FakeTelegram& fake,
                                   const FreshStore& db, int slot,
                                   const std::string& web_listen = "") {
    const auto path = dir.path() / ("daemon" + std::to_string(slot) + ".toml");
    std::ofstream config(path);
    if (!web_listen.empty())
        config << "[web]\nlisten = \"" << web_listen << "\"\n";
    config << "[storage]\nurl = \"" << db.url() << "\"\n"
           << "lease_seconds = " << lease_seconds << "\nclaim_seconds = " << claim_seconds << "\n"
           << "[log]\nlevel = \"info\"\n"
           << "[telegram]\napi_url = \"" << fake.url() << "/d" << slot << "\"\n"
           << "poll_timeout = 2\n"
           << "per_chat_interval_ms = 0\ngroup_messages_per_minute = 1000\n";
    return path;
}

std::unique_ptr<test::Child> start_daemon(const test::TempDir& dir, int slot,
                                          const std::filesystem::path& config) {
    const std::string name = "daemon" + std::to_string(slot);
    return std::make_unique<test::Child>(
        std::vector<std::string>{GHOSTPOST_BINARY, "run", "--config", config.string()},
        dir.path() / (name + ".out"), dir.path() / (name + ".err"),
        std::vector<std::string>{token_env});
}

template <typename Predicate> bool eventually(Predicate done, std::chrono::seconds limit) {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < end) {
        if (done())
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return done();
}

struct ScriptedPost {
    std::int64_t chat;
    std::int64_t from;
    std::string username;
    std::string text;
};

const std::vector<std::string> mate{"e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"};
constexpr int game_count = 6;

// The challenges and acceptances of six games, each in a group of its own between two players
// of its own; without a clock, so that no reply depends on the time it was written.
std::vector<ScriptedPost> openings() {
    std::vector<ScriptedPost> posts;
    for (int g = 0; g < game_count; ++g) {
        const std::string white = "w" + std::to_string(g), black = "b" + std::to_string(g);
        posts.push_back({-1001 - g, 100 + 2 * g, white, "!new chess @" + black + " white tc=none"});
        posts.push_back({-1001 - g, 101 + 2 * g, black, "!accept"});
    }
    return posts;
}

// The moves of the six games, interleaved: the same short mate in each.
std::vector<ScriptedPost> moves() {
    std::vector<ScriptedPost> posts;
    for (std::size_t m = 0; m < mate.size(); ++m)
        for (int g = 0; g < game_count; ++g) {
            const bool white = m % 2 == 0;
            posts.push_back({-1001 - g, 100 + 2 * g + (white ? 0 : 1),
                             (white ? "w" : "b") + std::to_string(g), mate[m]});
        }
    return posts;
}

// What the bot sent, as "chat text" (each reply once per delivery).
std::multiset<std::string> replies(FakeTelegram& fake) {
    std::multiset<std::string> out;
    for (const json& m : fake.sent())
        out.insert(m["chat_id"].dump() + " " + m["text"].get<std::string>());
    return out;
}

bool delivered_all(FakeTelegram& fake, const std::multiset<std::string>& reference) {
    const auto got = replies(fake);
    return std::all_of(reference.begin(), reference.end(),
                       [&](const std::string& r) { return got.count(r) >= reference.count(r); });
}

bool logs_complete(const FreshStore& db) {
    const auto store = db.open();
    for (int g = 1; g <= game_count; ++g)
        if (store->actions(g).size() != mate.size())
            return false;
    return true;
}

} // namespace

TEST_CASE("Three daemons on PostgreSQL lose no move and no reply while one after another is "
          "killed",
          "[daemon][telegram][postgres][crash][slow]") {
    // One reply per post, and each mate adds the players' rating changes.
    const std::size_t replies_due = openings().size() + moves().size() + game_count;

    // A calm run, one daemon, gives the replies the crashing run must deliver.
    std::multiset<std::string> reference;
    {
        test::TempDir dir;
        FakeTelegram fake(dir);
        FreshStore db(Backend::Postgres, "calm", false);
        auto daemon = start_daemon(dir, 0, write_config(dir, fake, db, 0));
        for (const auto& p : openings())
            fake.say(p.chat, p.from, p.username, p.text);
        for (const auto& p : moves())
            fake.say(p.chat, p.from, p.username, p.text);
        REQUIRE(eventually([&] { return fake.sent().size() >= replies_due; },
                           std::chrono::seconds(90)));
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        daemon->signal(SIGTERM);
        REQUIRE(daemon->wait_exit(std::chrono::seconds(10)) == 0);
        reference = replies(fake);
        REQUIRE(reference.size() == replies_due);
        REQUIRE(logs_complete(db));
    }

    test::TempDir dir;
    FakeTelegram fake(dir);
    FreshStore db(Backend::Postgres, "crash", false);
    std::array<std::filesystem::path, 3> configs;
    std::array<std::unique_ptr<test::Child>, 3> daemons;
    for (int slot = 0; slot < 3; ++slot)
        configs[static_cast<std::size_t>(slot)] = write_config(dir, fake, db, slot);
    // The games are created calmly, so that their numbers (in the replies) are the calm run's:
    // a transaction cut short still uses up an id of PostgreSQL's.
    daemons[0] = start_daemon(dir, 0, configs[0]);
    for (const auto& p : openings())
        fake.say(p.chat, p.from, p.username, p.text);
    REQUIRE(eventually([&] { return fake.sent().size() >= openings().size(); },
                       std::chrono::seconds(60)));
    daemons[1] = start_daemon(dir, 1, configs[1]);
    daemons[2] = start_daemon(dir, 2, configs[2]);

    std::atomic<bool> all_posted{false};
    std::map<std::int64_t, std::vector<double>> posted_at; // per chat, the moves' times
    auto poster = std::async(std::launch::async, [&] {
        for (const auto& p : moves()) {
            std::this_thread::sleep_for(std::chrono::milliseconds(150));
            posted_at[p.chat].push_back(unix_now());
            fake.say(p.chat, p.from, p.username, p.text);
        }
        all_posted = true;
    });
    std::mt19937 random(std::random_device{}());
    std::vector<std::pair<int, double>> kills; // (slot, when)
    while (!all_posted || kills.size() < 8) {
        std::this_thread::sleep_for(
            std::chrono::milliseconds(std::uniform_int_distribution<int>(700, 2500)(random)));
        const int slot = std::uniform_int_distribution<int>(0, 2)(random);
        auto& daemon = daemons[static_cast<std::size_t>(slot)];
        daemon->signal(SIGKILL);
        REQUIRE(daemon->wait_exit(std::chrono::seconds(5)) == 128 + SIGKILL);
        kills.emplace_back(slot, unix_now());
        daemon = start_daemon(dir, slot, configs[static_cast<std::size_t>(slot)]);
        REQUIRE(kills.size() < 60);
    }
    poster.get();

    CHECK(eventually([&] { return delivered_all(fake, reference) && logs_complete(db); },
                     std::chrono::seconds(90)));
    std::this_thread::sleep_for(std::chrono::seconds(2)); // anything sent twice arrives
    for (auto& daemon : daemons) {
        daemon->signal(SIGTERM);
        CHECK(daemon->wait_exit(std::chrono::seconds(10)) == 0);
    }

    // Every game's log: the mate, no move lost, none twice.
    const auto store = db.open();
    for (int g = 1; g <= game_count; ++g) {
        std::vector<std::string> texts;
        for (const auto& a : store->actions(g))
            texts.push_back(a.text);
        CHECK(texts == mate);
        CHECK(store->game(g)->result == "1-0");
    }
    CHECK(store->pending_count("telegram") == 0);

    // Every reply delivered. A second copy is allowed only when the daemon that sent the first
    // was killed after sending it and before the second copy went out: it could not record the
    // delivery (Telegram has no idempotency key; delivery is at least once).
    std::map<std::string, std::vector<json>> copies;
    for (const json& m : fake.sent())
        copies[m["chat_id"].dump() + " " + m["text"].get<std::string>()].push_back(m);
    int duplicates = 0;
    for (const auto& [reply, sent] : copies) {
        INFO(reply);
        const std::size_t wanted = reference.count(reply);
        CHECK(wanted > 0); // nothing the calm run did not send
        CHECK(sent.size() >= wanted);
        for (std::size_t i = wanted; i < sent.size(); ++i) {
            ++duplicates;
            const json& first = sent[i - 1];
            const int slot = std::stoi(first["via"].get<std::string>().substr(1));
            const double from = first["time"].get<double>(), to = sent[i]["time"].get<double>();
            const bool explained = std::any_of(kills.begin(), kills.end(), [&](const auto& k) {
                return k.first == slot && k.second >= from && k.second <= to;
            });
            CHECK(explained);
        }
    }
    WARN(kills.size() << " kills, " << duplicates << " replies delivered twice of "
                      << reference.size());

    // In each chat the replies keep the order of the posts: after the two of the opening, the
    // n-th new reply answers the n-th move. Each within 10 s of its post, however the daemons
    // died meanwhile, and the last within 5 s of the last post.
    double slowest = 0, last_reply = 0, last_post = 0;
    for (const auto& [chat, times] : posted_at) {
        std::vector<double> first_sent;
        std::set<std::string> seen;
        for (const json& m : fake.sent())
            if (m["chat_id"].get<std::int64_t>() == chat && seen.insert(m["text"]).second)
                first_sent.push_back(m["time"].get<double>());
        REQUIRE(first_sent.size() >= 2 + times.size());
        for (std::size_t i = 0; i < times.size(); ++i) {
            slowest = std::max(slowest, first_sent[2 + i] - times[i]);
            last_reply = std::max(last_reply, first_sent[2 + i]);
        }
        last_post = std::max(last_post, times.back());
    }
    WARN("slowest reply " << slowest << " s after its post; the drain ended "
                          << last_reply - last_post << " s after the last post");
    CHECK(slowest <= 10.0);
    CHECK(last_reply - last_post <= 5.0);
    CHECK(fake.violations().empty());
}

TEST_CASE("When the daemon that polls dies, another polls within 3 s, long before its lease "
          "runs out",
          "[daemon][telegram][postgres]") {
    test::TempDir dir;
    FakeTelegram fake(dir);
    FreshStore db(Backend::Postgres, "lease", false);
    auto first = start_daemon(dir, 0, write_config(dir, fake, db, 0));
    fake.say(-1001, 7, "alice", "!help");
    REQUIRE(eventually([&] { return fake.sent().size() == 1; }, std::chrono::seconds(30)));
    auto second = start_daemon(dir, 1, write_config(dir, fake, db, 1));
    std::this_thread::sleep_for(std::chrono::seconds(2)); // up, and not polling
    CHECK(test::read_file(dir.path() / "daemon1.err").find("lease_taken") == std::string::npos);

    first->signal(SIGKILL);
    REQUIRE(first->wait_exit(std::chrono::seconds(5)) == 128 + SIGKILL);
    const auto died = std::chrono::steady_clock::now();
    fake.say(-1001, 7, "alice", "!help");
    REQUIRE(eventually([&] { return fake.sent().size() == 2; }, std::chrono::seconds(30)));
    // The lease is free the moment the dead daemon's session ends; the survivor looks every
    // second and then polls at once.
    CHECK(std::chrono::steady_clock::now() - died < std::chrono::seconds(3));
    CHECK(test::read_file(dir.path() / "daemon1.err").find("lease_taken") != std::string::npos);
    CHECK(fake.sent()[1]["via"] == "d1");
    second->signal(SIGTERM);
    CHECK(second->wait_exit(std::chrono::seconds(10)) == 0);
    CHECK(fake.violations().empty());
}

TEST_CASE("A daemon on PostgreSQL serves the web view, and so does ghostpost web --db-url",
          "[daemon][telegram][postgres][web]") {
    test::TempDir dir;
    FakeTelegram fake(dir);
    FreshStore db(Backend::Postgres, "web", false);
    const int port = test::free_loopback_port();
    auto daemon =
        start_daemon(dir, 0, write_config(dir, fake, db, 0, "127.0.0.1:" + std::to_string(port)));
    fake.say(-1001, 7, "alice", "!new chess @bob white tc=none");
    fake.say(-1001, 8, "bob", "!accept");
    fake.say(-1001, 7, "alice", "e4");
    REQUIRE(eventually([&] { return fake.sent().size() >= 3; }, std::chrono::seconds(60)));
    httplib::Client daemon_web("127.0.0.1", port);
    auto page = daemon_web.Get("/game/1");
    REQUIRE(page);
    CHECK(page->status == 200);
    CHECK(page->body.find("data-square=\"e4\" data-piece=\"P\"") != std::string::npos);
    CHECK(page->body.find("ply 1 of 1") != std::string::npos);

    // The same pages without the bot, as a second machine would serve them.
    const int web_port = test::free_loopback_port();
    test::Child web({GHOSTPOST_BINARY, "web", "--db-url", db.url(), "--listen",
                     "127.0.0.1:" + std::to_string(web_port)},
                    dir.path() / "web.out", dir.path() / "web.err");
    httplib::Client alone("127.0.0.1", web_port);
    REQUIRE(
        eventually([&] { return static_cast<bool>(alone.Get("/")); }, std::chrono::seconds(30)));
    auto served = alone.Get("/game/1");
    REQUIRE(served);
    CHECK(served->status == 200);
    CHECK(served->get_header_value("ETag") == page->get_header_value("ETag"));
    CHECK(test::read_file(dir.path() / "web.out").starts_with("serving postgresql://"));
    web.signal(SIGTERM);
    CHECK(web.wait_exit(std::chrono::seconds(10)) == 0);

    daemon->signal(SIGTERM);
    CHECK(daemon->wait_exit(std::chrono::seconds(10)) == 0);
    CHECK(test::read_file(dir.path() / "daemon0.err").find("web_listening") != std::string::npos);
    CHECK(fake.violations().empty());
}
