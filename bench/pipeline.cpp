// Pipeline benchmark (issue #16): posts adjudicated per second through the production loop
// (run_daemon: the time-driven job, the outbox sender, poll, Service::handle, one durable
// commit per poll by the group commit, and per post without it) against bare SQLite single-row
// durable transactions per second (BEGIN IMMEDIATE, one INSERT, COMMIT) with the same pragmas
// (WAL, synchronous=FULL), in the same run and the same directory. Prints the rates and their
// ratios (issue #34's target: >= 1.0 with the group commit).
//
// The posts: `games` games in channels of their own, each a challenge, its acceptance and the
// 20 plies of a Ruy Lopez, interleaved across the games as a busy community would send them;
// the platform delivers them 50 to a poll and accepts every reply at once.
//
// Run a Release build: `pipeline [dir] [games]` (dir default "."; a real disk, not tmpfs).
#include "feed_platform.h"
#include "ghostpost/app/daemon.h"
#include "ghostpost/log/log.h"
#include "ghostpost/storage/sqlite.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

using namespace ghostpost;
using bench::FeedPlatform;
using SteadyClock = std::chrono::steady_clock;

namespace {

void remove_db(const std::string& path) {
    for (const char* suffix : {"", "-wal", "-shm"})
        std::filesystem::remove(path + suffix);
}

double seconds_since(SteadyClock::time_point t) {
    return std::chrono::duration<double>(SteadyClock::now() - t).count();
}

// Bare SQLite: `n` single-row durable transactions per second.
double bare_rate(const std::string& dir, int n) {
    const std::string path = dir + "/pipeline-bare.db";
    remove_db(path);
    double rate = 0;
    {
        storage::Database db(path); // WAL, synchronous=FULL, foreign keys: as the store
        db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, text TEXT NOT NULL)");
        const auto t = SteadyClock::now();
        for (int i = 0; i < n; ++i) {
            storage::Transaction tx(db);
            storage::Statement(db, "INSERT INTO t (text) VALUES (?1)").bind(1, "e4").run();
            tx.commit();
        }
        rate = n / seconds_since(t);
    }
    remove_db(path);
    return rate;
}

double pipeline_rate(const std::string& dir, int games, bool group_commit, int& posts_out,
                     int& sent_out) {
    const std::vector<std::string> moves{"e4",  "e5",  "Nf3", "Nc6", "Bb5", "a6",  "Ba4",
                                         "Nf6", "O-O", "Be7", "Re1", "b5",  "Bb3", "d6",
                                         "c3",  "O-O", "h3",  "Nb8", "d4",  "Nbd7"};
    std::deque<bot::Post> posts;
    int id = 0;
    const auto add = [&](int game, const std::string& who, const std::string& text) {
        bot::Post p;
        p.platform = "bench";
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
    posts_out = static_cast<int>(posts.size());

    const std::string path = dir + "/pipeline-loop.db";
    remove_db(path);
    double rate = 0;
    {
        auto store = storage::open_sqlite_store(path);
        std::int64_t now = 1700000000;
        bot::Service service(*store, {}, [&] { return now; });
        FeedPlatform platform("bench", std::move(posts));
        bot::DaemonOptions options;
        options.group_commit = group_commit;
        bot::StopToken stop;
        const auto t = SteadyClock::now();
        const auto report =
            bot::run_daemon(*store, service, platform, options, stop, [&] { return now; });
        rate = posts_out / seconds_since(t);
        sent_out = platform.sent;
        if (report.posts_failed != 0 || store->pending_count("bench") != 0)
            std::fprintf(stderr, "the loop did not run clean: %d posts failed\n",
                         report.posts_failed);
        const auto last = store->game(games);
        if (!last || last->status != storage::GameStatus::Ongoing ||
            store->action_count(games) != static_cast<int>(moves.size()))
            std::fprintf(stderr, "the games did not go as planned\n");
    }
    remove_db(path);
    return rate;
}

} // namespace

int main(int argc, char** argv) {
    const std::string dir = argc > 1 ? argv[1] : ".";
    const int games = argc > 2 ? std::atoi(argv[2]) : 50;
    std::ostream quiet(nullptr); // the loop's log lines go nowhere
    bot::log::set_sink(quiet);

    const double bare_before = bare_rate(dir, 1000);
    int posts = 0, sent = 0;
    const double grouped = pipeline_rate(dir, games, true, posts, sent);
    const double single = pipeline_rate(dir, games, false, posts, sent);
    const double bare_after = bare_rate(dir, 1000);
    const double bare = (bare_before + bare_after) / 2;
    std::printf("bare SQLite durable single-row transactions: %.0f /s (%.0f before, %.0f after)\n",
                bare, bare_before, bare_after);
    std::printf("posts adjudicated through the production loop, group commit: %.0f /s (%d posts, "
                "%d replies delivered)\n",
                grouped, posts, sent);
    std::printf("the same, a commit per post: %.0f /s\n", single);
    std::printf("ratio to bare transactions: %.2f with the group commit (target >= 1.0), %.2f "
                "without\n",
                grouped / bare, single / bare);
    return 0;
}
