// Group commit on PostgreSQL (issue #34, `DaemonOptions::group_on_shared`): the posts of one poll
// share one transaction, each in a savepoint, through the production loop (run_daemon). The
// figures are exact: the commits the server makes, the actions applied, the replies queued.
#include "../support/posts.h"
#include "../support/test_stores.h"
#include "ghostpost/app/daemon.h"
#include "ghostpost/service/service.h"
#include "ghostpost/storage/error.h"
#include "ghostpost/storage/postgres.h"

#include <catch2/catch.hpp>
#include <string>
#include <tuple>
#include <vector>

using namespace ghostpost;
using ghostpost::testing::Backend;
using ghostpost::testing::FreshStore;
using ghostpost::testing::lobby_post;

namespace {

constexpr std::int64_t now = 1700000000;

struct Daemon {
    FreshStore fresh{Backend::Postgres};
    int commits = 0;
    // The service's clock fails with a conflict at its reading number `conflict_at` (0: never),
    // as a statement does when another daemon's transaction changed what this one read.
    int clock_readings = 0;
    int conflict_at = 0;
    std::unique_ptr<storage::Store> store;
    bot::Service service;

    Daemon() : store(open()), service(*store, {}, [this] { return clock(); }) {}
    std::unique_ptr<storage::Store> open() {
        storage::PostgresOptions options;
        options.on_commit = [this] { ++commits; };
        return storage::open_postgres_store(fresh.url(), options);
    }
    std::int64_t clock() {
        if (++clock_readings == conflict_at)
            throw storage::StorageError(storage::StorageError::Kind::Conflict,
                                        "could not serialize access (a test)");
        return now;
    }

    // Runs one poll of `script` through the loop: the commits it made, the actions of game
    // `game`, the cursor, and every reply queued.
    auto run(const std::vector<std::pair<std::string, std::string>>& script, bool group_commit,
             std::int64_t game = 1) {
        std::vector<bot::Post> posts;
        for (const auto& [user, text] : script)
            posts.push_back(lobby_post(std::to_string(posts.size() + 1), user, text));
        ghostpost::testing::OnePollPlatform platform(posts);
        bot::DaemonOptions options;
        options.time_driven_jobs = false;
        options.engine = false;
        options.group_commit = group_commit;
        options.group_on_shared = group_commit;
        bot::StopToken stop;
        const int before = commits;
        bot::run_daemon(*store, service, platform, options, stop, [] { return now; });
        std::vector<std::string> replies;
        for (const auto& e : store->due("console", now + 1, 100))
            replies.push_back(e.message.destination + ": " + e.message.text);
        return std::tuple(commits - before, store->action_count(game), store->cursor("console"),
                          replies);
    }
};

const std::vector<std::pair<std::string, std::string>> script = {{"alice", "!new chess @bob"},
                                                                 {"bob", "!accept"},
                                                                 {"alice", "e4"},
                                                                 {"bob", "e5"},
                                                                 {"alice", "Nf3"},
                                                                 {"carol", "nice weather"},
                                                                 {"bob", "Nc6"}};

} // namespace

TEST_CASE("On PostgreSQL the posts of one poll share one commit, with the same outcome as one by "
          "one",
          "[service][postgres][group]") {
    Daemon grouped, single;
    const auto [grouped_commits, grouped_actions, grouped_cursor, grouped_replies] =
        grouped.run(script, true);
    const auto [single_commits, single_actions, single_cursor, single_replies] =
        single.run(script, false);
    CHECK(grouped_commits == 1);
    CHECK(single_commits == 7);
    CHECK(grouped_actions == 4);
    CHECK(single_actions == 4);
    CHECK(grouped_cursor == std::optional<std::string>("7"));
    CHECK(single_cursor == grouped_cursor);
    REQUIRE(grouped_replies.size() == 6); // the chatter gets none
    CHECK(grouped_replies == single_replies);
}

TEST_CASE("A conflict inside a group commit on PostgreSQL is not tried again inside it: the "
          "group leaves nothing and its posts go again one by one, each applied once",
          "[service][postgres][group]") {
    Daemon reference;
    const auto [reference_commits, reference_actions, reference_cursor, reference_replies] =
        reference.run(script, false);

    Daemon d;
    // The third post's first reading. A conflict means the server has failed the group's whole
    // transaction: trying the post again inside it could only fail again (or, here, pass and
    // commit a group the server would have refused).
    d.conflict_at = 3;
    // The game the group had made is made again under the next number: a PostgreSQL sequence
    // does not go back with a rollback (nor with a post's retry one by one).
    const auto [commits, actions, cursor, replies] = d.run(script, true, 2);
    CHECK(d.clock_readings > 3);
    // Nothing of the group was committed; then one commit a post.
    CHECK(commits == 7);
    CHECK(actions == 4);
    CHECK(d.store->action_count(1) == 0);
    CHECK(cursor == std::optional<std::string>("7"));
    CHECK(reference_actions == 4);
    REQUIRE(replies.size() == reference_replies.size());
    for (std::size_t i = 0; i < replies.size(); ++i) {
        std::string expected = reference_replies[i];
        for (const char* number : {"game #1", "Game #1", "!accept 1", "!decline 1"}) {
            std::string n = number;
            if (const auto at = expected.find(n); at != std::string::npos)
                expected.replace(at, n.size(), n.substr(0, n.size() - 1) + "2");
        }
        CHECK(replies[i] == expected);
    }
}
