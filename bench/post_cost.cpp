// What one post costs PostgreSQL (issue #34): round trips, and the CPU time of the server process
// that serves the daemon's connection, read from /proc/<pid>/stat before and after. Posts are
// handled by one Service on one connection, without the daemon loop: a challenge, its acceptance
// and the 20 plies of a Ruy Lopez in each of `games` games, interleaved, then as many lines of
// chatter. The server must run on this machine (its process is read from /proc).
//
// Usage: post_cost URL [games]   (URL names a database the benchmark may make a schema in;
// tests/storage/pg_cluster.sh start STATE makes a throw-away one)
#include "ghostpost/service/service.h"
#include "ghostpost/storage/postgres.h"
#include "ghostpost/storage/store.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <libpq-fe.h>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ghostpost;

namespace {

std::string query(PGconn* conn, const std::string& sql) {
    PGresult* result = PQexec(conn, sql.c_str());
    const auto status = PQresultStatus(result);
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
        std::fprintf(stderr, "%s: %s", sql.c_str(), PQerrorMessage(conn));
        std::exit(1);
    }
    std::string out = PQntuples(result) > 0 ? PQgetvalue(result, 0, 0) : "";
    PQclear(result);
    return out;
}

// User plus system CPU seconds of process `pid` so far (fields 14 and 15 of /proc/pid/stat).
double cpu_seconds(const std::string& pid) {
    std::ifstream in("/proc/" + pid + "/stat");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::istringstream fields(text.substr(text.rfind(')') + 2)); // after "pid (name) "
    std::string field;
    long ticks = 0;
    for (int n = 3; fields >> field; ++n)
        if (n == 14 || n == 15)
            ticks += std::stol(field);
    return static_cast<double>(ticks) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

std::vector<bot::Post> feed(int games) {
    const std::vector<std::string> moves{"e4",  "e5",  "Nf3", "Nc6", "Bb5", "a6",  "Ba4",
                                         "Nf6", "O-O", "Be7", "Re1", "b5",  "Bb3", "d6",
                                         "c3",  "O-O", "h3",  "Nb8", "d4",  "Nbd7"};
    std::vector<bot::Post> posts;
    const auto add = [&](int game, const std::string& who, const std::string& text) {
        bot::Post p;
        p.platform = "console";
        p.channel = "c" + std::to_string(game);
        p.message_id = std::to_string(posts.size() + 1);
        p.author_id = p.author_name = p.author_handle = who;
        p.text = text;
        p.cursor = p.message_id;
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

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: post_cost URL [games]\n");
        return 2;
    }
    const std::string url = argv[1];
    const int games = argc > 2 ? std::atoi(argv[2]) : 30;
    PGconn* admin = PQconnectdb(url.c_str());
    PQsetNoticeProcessor(
        admin, [](void*, const char*) {}, nullptr);
    query(admin, "DROP SCHEMA IF EXISTS post_cost CASCADE; CREATE SCHEMA post_cost");
    const std::string with_schema = url + (url.find('?') == std::string::npos ? "?" : "&") +
                                    "options=-csearch_path%3Dpost_cost";
    long trips = 0;
    storage::PostgresOptions options;
    options.on_round_trip = [&](std::string_view) { ++trips; };
    auto store = storage::open_postgres_store(with_schema, options);
    // The store's connection is the only one named ghostpost (libpq's application_name).
    const std::string pid = query(admin, "SELECT pid FROM pg_stat_activity WHERE "
                                         "application_name = 'ghostpost'");
    std::int64_t now = 1700000000;
    bot::Service service(*store, {}, [&] { return now; });

    const auto measure = [&](const char* what, const std::vector<bot::Post>& posts) {
        const long trips_before = trips;
        const double cpu_before = cpu_seconds(pid);
        const auto start = std::chrono::steady_clock::now();
        for (const bot::Post& p : posts) {
            ++now;
            service.handle(p);
        }
        const double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const double cpu = cpu_seconds(pid) - cpu_before;
        const auto n = static_cast<double>(posts.size());
        std::printf("%-8s %5zu posts  %5.2f round trips/post  server CPU %.3f ms/post  "
                    "wall %.3f ms/post\n",
                    what, posts.size(), static_cast<double>(trips - trips_before) / n,
                    1000 * cpu / n, 1000 * wall / n);
    };
    std::vector<bot::Post> posts = feed(games);
    measure("games", posts);
    std::vector<bot::Post> chatter;
    for (int g = 0; g < games * 20; ++g) {
        bot::Post p = posts[static_cast<std::size_t>(g % games)];
        p.message_id = "chat" + std::to_string(g);
        p.cursor = p.message_id;
        p.text = "nice weather";
        chatter.push_back(std::move(p));
    }
    measure("chatter", chatter);
    store.reset();
    query(admin, "DROP SCHEMA post_cost CASCADE");
    PQfinish(admin);
    return 0;
}
