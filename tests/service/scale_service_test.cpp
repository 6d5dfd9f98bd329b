// Community scale (issue #16) through the service: each game's stored deadline follows its
// clocks, so the time-driven job reads only the games due, and a post costs one durable commit
// (its delivery one more per round).
#include "../storage/temp_path.h"
#include "../support/posts.h"
#include "ghostpost/app/daemon.h"
#include "ghostpost/service/service.h"
#include "ghostpost/storage/sqlite.h"

#include <catch2/catch.hpp>
#include <deque>
#include <optional>
#include <string>

using namespace ghostpost;
using ghostpost::testing::TempPath;

namespace {

constexpr std::int64_t start = 1700000000; // 2023-11-14 22:13:20 UTC
constexpr std::int64_t day = 86400;

// Sends everything; counts what it sent.
class CountingPlatform final : public bot::Platform {
public:
    std::string name() const override { return "console"; }
    std::vector<bot::Post> poll(const std::string&, std::chrono::seconds) override { return {}; }
    bot::Delivery send(const bot::Reply&) override {
        ++sent;
        return {};
    }
    bot::Pacing pacing() const override {
        bot::Pacing unpaced;
        unpaced.per_chat = std::chrono::milliseconds(0);
        return unpaced;
    }
    int sent = 0;
};

struct Fixture {
    TempPath path;
    int commits = 0;
    std::unique_ptr<storage::Store> store;
    std::int64_t now = start;
    bot::Service service;
    int next_id = 1;

    Fixture()
        : store(storage::open_sqlite_store(path.str(), counting())),
          service(*store, {}, [this] { return now; }) {}

    storage::DatabaseOptions counting() {
        storage::DatabaseOptions o;
        o.on_commit = [this] { ++commits; };
        return o;
    }
    void post(const std::string& user, const std::string& text) {
        bot::Post p;
        p.platform = "console";
        p.channel = "lobby";
        p.message_id = std::to_string(next_id++);
        p.author_id = user;
        p.author_name = user;
        p.author_handle = user;
        p.text = text;
        service.handle(p);
    }
    std::optional<std::int64_t> deadline(std::int64_t game) {
        storage::Database db(path.str());
        storage::Statement s(db, "SELECT next_deadline FROM games WHERE id = ?1");
        s.bind(1, game);
        REQUIRE(s.step());
        if (s.is_null(0))
            return std::nullopt;
        return s.column_int(0);
    }
};

} // namespace

TEST_CASE("A game's stored deadline is its next reminder, then its loss on time, then none",
          "[bot][clock][scale]") {
    Fixture f;
    f.post("alice", "!new chess @bob tc=1d");
    CHECK(f.deadline(1) == start + 7 * day); // a challenge has no clock, only its expiry
    f.post("bob", "!accept");
    f.post("alice", "e4");
    f.post("bob", "e5");
    f.post("alice", "Nf3");
    // Bob's day runs from `start`: the 80 % reminder is due after 0.8 days.
    CHECK(f.deadline(1) == start + day - day / 5);
    f.now = start + day - day / 5 - 1;
    f.service.tick();
    CHECK(f.deadline(1) == start + day - day / 5);
    f.now = start + day - day / 5;
    f.service.tick(); // warned: the loss on time is next
    CHECK(f.deadline(1) == start + day);
    f.now = start + day;
    f.service.tick();
    CHECK(f.store->game(1)->reason == "timeout");
    CHECK(f.deadline(1) == std::nullopt);
}

TEST_CASE("A game without a clock is never due, so the job does not read it",
          "[bot][clock][scale]") {
    Fixture f;
    f.post("alice", "!new chess @bob tc=none");
    f.post("bob", "!accept");
    f.post("alice", "e4");
    CHECK(f.deadline(1) == std::nullopt);
    CHECK(f.store->games_due(start + 365 * day).empty());
}

TEST_CASE("A paused game has no deadline and gets one back when it resumes",
          "[bot][clock][scale]") {
    Fixture f;
    f.post("alice", "!new chess @bob tc=1d");
    f.post("bob", "!accept");
    f.post("alice", "e4");
    storage::GameRecord g = *f.store->game(1);
    g.paused = true;
    f.store->update_game(g);
    CHECK(f.deadline(1) == std::nullopt);
    g.paused = false;
    f.store->update_game(g);
    CHECK(f.deadline(1) == 0); // due at once: the job's next look sets the real deadline
    f.service.tick();
    CHECK(f.deadline(1) == start + day - day / 5);
}

TEST_CASE("A move costs one durable commit and the delivery of its replies none",
          "[bot][outbox][scale]") {
    Fixture f;
    CountingPlatform platform;
    bot::OutboxSender sender(*f.store, platform, [&] { return f.now; });
    f.post("alice", "!new chess @bob tc=3d");
    f.post("bob", "!accept");
    sender.send_due();
    const int sent_before = platform.sent;

    const int before = f.commits;
    f.post("alice", "e4");
    CHECK(f.commits - before == 1);
    sender.send_due();
    // Each reply is marked sent as it goes out, in a commit of its own that waits for no
    // fsync: seen at once by every connection.
    CHECK(platform.sent - sent_before >= 1);
    CHECK(f.commits - before == 1);
    CHECK(f.store->pending_count("console") == 0);
    CHECK(storage::open_sqlite_store(f.path.str())->pending_count("console") == 0);
}

TEST_CASE("The posts of one poll share one durable commit, with the same outcome as one by one",
          "[bot][daemon][scale][group]") {
    const std::vector<std::pair<std::string, std::string>> script = {{"alice", "!new chess @bob"},
                                                                     {"bob", "!accept"},
                                                                     {"alice", "e4"},
                                                                     {"bob", "e5"},
                                                                     {"alice", "Nf3"},
                                                                     {"bob", "Nc6"}};
    const auto run = [&](bool group_commit) {
        Fixture f;
        std::vector<bot::Post> posts;
        for (const auto& [user, text] : script) {
            bot::Post p;
            p.platform = "console";
            p.channel = "lobby";
            p.message_id = std::to_string(f.next_id++);
            p.author_id = p.author_name = p.author_handle = user;
            p.text = text;
            p.cursor = p.message_id;
            posts.push_back(std::move(p));
        }
        ghostpost::testing::OnePollPlatform platform(posts);
        bot::DaemonOptions options;
        options.time_driven_jobs = false;
        options.engine = false;
        options.group_commit = group_commit;
        bot::StopToken stop;
        const int before = f.commits;
        bot::run_daemon(*f.store, f.service, platform, options, stop, [&f] { return f.now; });
        const int commits = f.commits - before;
        std::vector<std::string> texts;
        for (const auto& e : f.store->due("console", f.now + 1, 100))
            texts.push_back(e.message.destination + ": " + e.message.text);
        return std::tuple(commits, f.store->action_count(1), f.store->cursor("console"), texts);
    };
    const auto [grouped_commits, grouped_actions, grouped_cursor, grouped_replies] = run(true);
    const auto [single_commits, single_actions, single_cursor, single_replies] = run(false);
    // Six posts, six commits one by one; one together.
    CHECK(single_commits - grouped_commits == 5);
    CHECK(grouped_actions == 4);
    CHECK(single_actions == 4);
    CHECK(grouped_cursor == std::optional<std::string>("6"));
    CHECK(single_cursor == grouped_cursor);
    CHECK(grouped_replies.size() == single_replies.size());
    CHECK(grouped_replies == single_replies);
}
