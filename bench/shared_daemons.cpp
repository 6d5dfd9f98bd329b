// Several daemons on one PostgreSQL database (issue #20): posts adjudicated per second through
// the production loop (run_daemon) with 1, 2 and 3 daemons on PostgreSQL, and with one daemon on
// SQLite, in the same run. Each daemon polls a platform of its own (its lease), fed the posts of
// `games` games (a challenge, its acceptance and the 20 plies of a Ruy Lopez each, interleaved
// across the games), and accepts every reply at once; all of them deliver replies and run the
// time-driven job, as in production. A daemon is a thread with its own connection and Service.
// Then 1 and 3 daemons on PostgreSQL again with the posts of a poll in one transaction
// (DaemonOptions::group_on_shared, off in production).
//
// Run a Release build against a durable server: bench/shared_daemons.sh does, starting a
// throw-away PostgreSQL cluster with fsync on; or `shared_daemons URL [dir] [games]`, where URL
// names a database the benchmark may make schemas in and dir holds the SQLite file.
#include "feed_platform.h"
#include "ghostpost/app/daemon.h"
#include "ghostpost/log/log.h"
#include "ghostpost/storage/store.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <iostream>
#include <libpq-fe.h>
#include <ostream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

using namespace ghostpost;
using bench::FeedPlatform;
using SteadyClock = std::chrono::steady_clock;

namespace {

std::deque<bot::Post> feed(const std::string& platform, int games) {
    const std::vector<std::string> moves{"e4",  "e5",  "Nf3", "Nc6", "Bb5", "a6",  "Ba4",
                                         "Nf6", "O-O", "Be7", "Re1", "b5",  "Bb3", "d6",
                                         "c3",  "O-O", "h3",  "Nb8", "d4",  "Nbd7"};
    std::deque<bot::Post> posts;
    int id = 0;
    const auto add = [&](int game, const std::string& who, const std::string& text) {
        bot::Post p;
        p.platform = platform;
        p.channel = "c" + std::to_string(game);
        p.message_id = std::to_string(++id);
        p.author_id = p.author_name = p.author_handle = who;
        p.text = text;
        p.cursor = std::to_string(id);
        posts.push_back(std::move(p));
    };
    const auto white = [](int g) { return "w" + std::to_string(g); };
    const auto black = [](int g) { return "b" + std::to_string(g); };
    for (int g = 0; g < games; ++g)
        add(g, white(g), "!new chess @" + black(g) + " tc=3d");
    for (int g = 0; g < games; ++g)
        add(g, black(g), "!accept");
    for (std::size_t m = 0; m < moves.size(); ++m)
        for (int g = 0; g < games; ++g)
            add(g, m % 2 == 0 ? white(g) : black(g), moves[m]);
    return posts;
}

void admin(const std::string& url, const std::string& sql) {
    PGconn* conn = PQconnectdb(url.c_str());
    PQsetNoticeProcessor(
        conn, [](void*, const char*) {}, nullptr);
    PGresult* result = PQexec(conn, sql.c_str());
    if (PQresultStatus(result) != PGRES_COMMAND_OK) {
        std::fprintf(stderr, "%s: %s", sql.c_str(), PQerrorMessage(conn));
        std::exit(1);
    }
    PQclear(result);
    PQfinish(conn);
}

struct Run {
    double rate = 0; // posts per second, all daemons together
    int posts = 0;
    int sent = 0;
    int failed = 0;
};

// `daemons` daemons on the stores `open` makes, each fed `games` games; `grouped`: group commit
// on PostgreSQL too (DaemonOptions::group_on_shared).
template <class Open> Run run(int daemons, int games, Open open, bool grouped = false) {
    std::vector<std::unique_ptr<storage::Store>> stores;
    for (int d = 0; d < daemons; ++d)
        stores.push_back(open());
    std::vector<std::unique_ptr<FeedPlatform>> platforms;
    Run result;
    for (int d = 0; d < daemons; ++d) {
        auto posts = feed("bench" + std::to_string(d), games);
        result.posts += static_cast<int>(posts.size());
        platforms.push_back(
            std::make_unique<FeedPlatform>("bench" + std::to_string(d), std::move(posts)));
    }
    std::atomic<int> failed{0};
    std::vector<std::thread> threads;
    const auto start = SteadyClock::now();
    for (int d = 0; d < daemons; ++d)
        threads.emplace_back([&, d] {
            std::int64_t now = 1700000000;
            const auto clock = [&] { return now; };
            bot::Service service(*stores[static_cast<std::size_t>(d)], {}, clock);
            bot::DaemonOptions options;
            options.holder = "daemon" + std::to_string(d);
            options.group_on_shared = grouped;
            bot::StopToken stop;
            const auto report =
                bot::run_daemon(*stores[static_cast<std::size_t>(d)], service,
                                *platforms[static_cast<std::size_t>(d)], options, stop, clock);
            failed += report.posts_failed + report.jobs_failed;
        });
    for (auto& t : threads)
        t.join();
    result.rate = result.posts / std::chrono::duration<double>(SteadyClock::now() - start).count();
    for (const auto& p : platforms)
        result.sent += p->sent;
    result.failed = failed;
    // Every game went as planned: 20 plies in each. (PostgreSQL's ids have gaps where a
    // transaction that created a game was run again.)
    auto check = open();
    int planned = 0;
    for (const auto& g : check->games_with_status({storage::GameStatus::Ongoing}))
        planned += check->action_count(g.id) == 20 ? 1 : 0;
    if (planned != daemons * games)
        ++result.failed;
    return result;
}

void print(const char* what, const Run& r, double base) {
    std::printf("%-26s %6.0f posts/s  (%d posts, %d replies, x%.2f)%s\n", what, r.rate, r.posts,
                r.sent, r.rate / base, r.failed ? "  NOT CLEAN" : "");
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: shared_daemons URL [dir] [games]\n");
        return 2;
    }
    const std::string url = argv[1];
    const std::string dir = argc > 2 ? argv[2] : ".";
    const int games = argc > 3 ? std::atoi(argv[3]) : 30;
    std::ostream quiet(nullptr);
    bot::log::set_sink(std::getenv("BENCH_LOG") ? std::cerr : quiet);
    bot::log::set_level(bot::log::Level::Warning);

    const std::string path = dir + "/shared-daemons-bench.db";
    const auto remove_db = [&] {
        for (const char* suffix : {"", "-wal", "-shm"})
            std::filesystem::remove(path + suffix);
    };
    remove_db();
    const Run sqlite = run(1, games, [&] { return storage::open_sqlite_store(path); });
    remove_db();

    // 1, 2 and 3 daemons one post a transaction, then 1 and 3 with the posts of a poll grouped.
    std::vector<Run> postgres;
    for (const auto& [daemons, grouped] : std::vector<std::pair<int, bool>>{
             {1, false}, {2, false}, {3, false}, {1, true}, {3, true}}) {
        const std::string schema = "bench_" + std::to_string(daemons) + (grouped ? "g" : "");
        admin(url, "DROP SCHEMA IF EXISTS " + schema + " CASCADE; CREATE SCHEMA " + schema);
        const std::string with_schema = url + (url.find('?') == std::string::npos ? "?" : "&") +
                                        "options=-csearch_path%3D" + schema;
        postgres.push_back(run(
            daemons, games, [&] { return storage::open_postgres_store(with_schema); }, grouped));
        admin(url, "DROP SCHEMA " + schema + " CASCADE");
    }
    std::printf("%d games per daemon, each daemon polling a platform of its own\n", games);
    print("SQLite, 1 daemon", sqlite, sqlite.rate);
    print("PostgreSQL, 1 daemon", postgres[0], sqlite.rate);
    print("PostgreSQL, 2 daemons", postgres[1], sqlite.rate);
    print("PostgreSQL, 3 daemons", postgres[2], sqlite.rate);
    print("PostgreSQL, 1, grouped", postgres[3], sqlite.rate);
    print("PostgreSQL, 3, grouped", postgres[4], sqlite.rate);
    int failed = sqlite.failed;
    for (const Run& r : postgres)
        failed += r.failed;
    return failed == 0 ? 0 : 1;
}
