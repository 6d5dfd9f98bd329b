// Growth benchmark (issue #16): does one move cost the same with 1,000, 10,000 and 100,000
// ongoing games stored? For each size, in a child process of its own (so that each peak RSS is
// its own), a fresh database is filled, then one game is played through the Service as the
// console plays it (each post handled, then the time-driven job), and the median latency of a
// move is printed with the job's cost when nothing is due and the process's peak RSS. Then the
// daemon's loop (run_daemon) runs idle on that database for `idle_seconds` against a platform
// that long-polls and never has a post, with the time-driven job every 10 s (three times as
// often as the daemon's default), and its CPU time is printed per minute. Start-up is the time
// from opening the database to the answer to the first post (start_up() and one challenge).
//
// How the games are made (an honest stand-in for a community): direct store inserts, in one
// transaction, of real chess games between 2,000 players: each game is ongoing, has the four
// legal moves 1. e4 e5 2. Nf3 Nc6 in its action log, a 3-day clock per move with White's
// running, and the deadline the service would store for it (the 80 % reminder). A third as many
// finished games are stored too. Every player has asked for a daily digest, at an hour of the
// next day. Nothing is due during the timing, as in a quiet hour.
//
// Run a Release build: `growth [dir] [sizes...]` (dir: where the databases go, default ".";
// it must be a real disk for the fsyncs to count).
#include "ghostpost/app/daemon.h"
#include "ghostpost/service/service.h"
#include "ghostpost/storage/store.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace ghostpost;
using Clock = std::chrono::steady_clock;

namespace {

constexpr std::int64_t start = 1700000000;
constexpr std::int64_t day = 86400;
constexpr int idle_seconds = 30;

// A platform with nobody posting: each poll waits out its long-poll timeout (1 s here) and
// returns nothing, as an idle Telegram getUpdates does.
class QuietPlatform final : public bot::Platform {
public:
    explicit QuietPlatform(bot::StopToken& stop) : stop_(stop) {}
    std::string name() const override { return "console"; }
    std::vector<bot::Post> poll(const std::string&, std::chrono::seconds) override {
        stop_.sleep_for(std::chrono::seconds(1));
        return {};
    }
    bot::Delivery send(const bot::Reply&) override { return {}; }

private:
    bot::StopToken& stop_;
};

double cpu_seconds() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

void fill(storage::Store& store, int ongoing) {
    constexpr int players = 2000;
    store.transaction([&] {
        for (int i = 1; i <= players; ++i) {
            const auto p = store.upsert_player("console", "u" + std::to_string(i),
                                               "U" + std::to_string(i), "u" + std::to_string(i));
            store.put_digest({p.id, "console", i % 24, start / day * day + day + i % 24 * 3600});
        }
        const int total = ongoing + ongoing / 3;
        for (int n = 0; n < total; ++n) {
            const std::int64_t white = 1 + n % players;
            const std::int64_t black = 1 + (n * 7 + 1) % players;
            storage::GameRecord g;
            g.variant = "chess";
            g.platform = "console";
            g.channel = "room" + std::to_string(n % 500);
            g.challenger = white;
            g.challenged = "u" + std::to_string(black);
            g.challenged_id = black;
            g.challenger_color = "white";
            g.white = white;
            g.black = black;
            g.status = n < ongoing ? storage::GameStatus::Ongoing : storage::GameStatus::Finished;
            if (g.status == storage::GameStatus::Finished) {
                g.result = "1/2-1/2";
                g.reason = "agreement";
            }
            g.seed = {1, 2, 3, 4};
            g.created_at = start - day;
            g.time_control = "3d";
            const std::int64_t id = store.create_game(g);
            int ply = 1;
            for (const char* move : {"e4", "e5", "Nf3", "Nc6"}) {
                const std::int64_t who = ply % 2 == 1 ? white : black;
                store.append_action(
                    {id, ply, ply % 2 == 1 ? rules::Seat::White : rules::Seat::Black, who, move,
                     "m" + std::to_string(n) + "." + std::to_string(ply), ""});
                ++ply;
            }
            if (g.status != storage::GameStatus::Ongoing)
                continue;
            const std::int64_t since = start - 3600;
            store.put_clock(id, {rules::Seat::White, 3 * day, since, since, 3 * day, false});
            store.put_clock(id, {rules::Seat::Black, 3 * day, 0, 0, 3 * day, false});
            store.set_next_deadline(id, since + 3 * day - 3 * day / 5);
        }
    });
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

double ms_since(Clock::time_point t) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

// One size, in the calling (child) process. Prints one line; returns the median move latency.
double run(const std::string& dir, int ongoing) {
    const std::string path = dir + "/growth-" + std::to_string(ongoing) + ".db";
    for (const char* suffix : {"", "-wal", "-shm"})
        std::filesystem::remove(path + suffix);
    const auto filling = Clock::now();
    {
        storage::DatabaseOptions fast;
        fast.synchronous_full = false;
        auto store = storage::open_sqlite_store(path, fast);
        fill(*store, ongoing);
    }
    const double fill_s = ms_since(filling) / 1000;

    // The production settings from here on: durable commits.
    const auto opening = Clock::now();
    auto store = storage::open_sqlite_store(path);
    std::int64_t now = start;
    bot::Service service(*store, {}, [&] { return now; });
    int id = 1;
    const auto post = [&](const std::string& who, const std::string& text) {
        bot::Post p;
        p.platform = "console";
        p.channel = "bench";
        p.message_id = std::to_string(id++);
        p.author_id = p.author_name = p.author_handle = who;
        p.text = text;
        service.handle(p);
        service.tick(); // the console runs the job after every post
    };
    service.start_up();
    post("alice", "!new chess @bob tc=3d");
    const double first_ms = ms_since(opening);
    post("bob", "!accept");

    const std::vector<std::string> moves{"e4",  "e5",  "Nf3", "Nc6", "Bb5", "a6",  "Ba4",
                                         "Nf6", "O-O", "Be7", "Re1", "b5",  "Bb3", "d6",
                                         "c3",  "O-O", "h3",  "Nb8", "d4",  "Nbd7"};
    std::vector<double> latency;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        now += 60;
        const auto t = Clock::now();
        post(i % 2 == 0 ? "alice" : "bob", moves[i]);
        latency.push_back(ms_since(t));
    }
    std::vector<double> idle;
    for (int i = 0; i < 20; ++i) {
        const auto t = Clock::now();
        service.tick();
        idle.push_back(ms_since(t));
    }
    if (store->game(static_cast<std::int64_t>(ongoing + ongoing / 3 + 1))->status !=
        storage::GameStatus::Ongoing)
        std::fprintf(stderr, "the benchmark game did not go as planned\n");

    // The daemon idle: its loop, the time-driven job every 10 s, polls that bring nothing.
    bot::StopToken stop;
    QuietPlatform quiet(stop);
    bot::DaemonOptions options;
    options.tick_interval = std::chrono::seconds(10);
    const double cpu_before = cpu_seconds();
    const auto idling = Clock::now();
    std::thread stopper([&] {
        std::this_thread::sleep_for(std::chrono::seconds(idle_seconds));
        stop.request_stop();
    });
    bot::run_daemon(*store, service, quiet, options, stop, [&] { return now; });
    stopper.join();
    const double idle_cpu_per_minute = (cpu_seconds() - cpu_before) * 60'000.0 / ms_since(idling);

    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("%7d ongoing: move %8.3f ms (median of %zu, post + job), idle job %7.3f ms, "
                "start-up to first reply %7.1f ms, idle daemon %.4f s CPU per minute, "
                "peak RSS %6.1f MB, fill %.1f s\n",
                ongoing, median(latency), latency.size(), median(idle), first_ms,
                idle_cpu_per_minute, static_cast<double>(usage.ru_maxrss) / 1024.0, fill_s);
    std::fflush(stdout);
    store.reset();
    for (const char* suffix : {"", "-wal", "-shm"})
        std::filesystem::remove(path + suffix);
    return median(latency);
}

} // namespace

int main(int argc, char** argv) {
    const std::string dir = argc > 1 ? argv[1] : ".";
    std::vector<int> sizes;
    for (int i = 2; i < argc; ++i)
        sizes.push_back(std::atoi(argv[i]));
    if (sizes.empty())
        sizes = {1000, 10000, 100000};
    std::vector<double> medians;
    for (int n : sizes) {
        int pipe_ends[2];
        if (pipe(pipe_ends) != 0)
            return 1;
        const pid_t child = fork();
        if (child == 0) {
            const double m = run(dir, n);
            if (write(pipe_ends[1], &m, sizeof m) != static_cast<ssize_t>(sizeof m))
                std::_Exit(1);
            std::_Exit(0);
        }
        close(pipe_ends[1]);
        double m = 0;
        const bool got = read(pipe_ends[0], &m, sizeof m) == static_cast<ssize_t>(sizeof m);
        close(pipe_ends[0]);
        int status = 0;
        waitpid(child, &status, 0);
        if (!got || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
            return 1;
        medians.push_back(m);
    }
    if (medians.size() > 1)
        std::printf("move latency ratio, %d / %d ongoing games: %.2f (target <= 1.2)\n",
                    sizes.back(), sizes.front(), medians.back() / medians.front());
    return 0;
}
