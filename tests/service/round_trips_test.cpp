// The requests one post makes of PostgreSQL, each a round trip the daemon waits for (issue #34
// asks for at most 6 a post). Counted on a connection whose statements are already prepared, as
// a running daemon's are: the figures below are exact, so a change that adds or saves a request
// changes them here, on purpose. They were 40, 15 and 25 while every statement was a trip of its
// own (the same player read up to seven times, the bans four, a game's clocks five). Now a
// transaction answers a repeated read from memory, sends its writes ahead of the next request
// that waits, and reads with a game's lock what a post reads of that game: the INFO below lists
// each trip with what went along.
#include "../support/posts.h"
#include "../support/test_stores.h"
#include "ghostpost/service/service.h"
#include "ghostpost/storage/postgres.h"

#include <catch2/catch.hpp>
#include <string>

using namespace ghostpost;
using ghostpost::testing::Backend;
using ghostpost::testing::FreshStore;
using ghostpost::testing::lobby_post;

namespace {

struct Counted {
    FreshStore fresh{Backend::Postgres};
    int trips = 0;
    std::string asked; // the statements of the last post, one per line
    std::unique_ptr<storage::Store> store;
    bot::Service service;
    int next_id = 1;

    Counted() : store(open()), service(*store, {}, [] { return std::int64_t{1700000000}; }) {}
    std::unique_ptr<storage::Store> open() {
        storage::PostgresOptions options;
        options.on_round_trip = [this](std::string_view sql) {
            ++trips;
            asked += std::string(sql.substr(0, 400)) + "\n";
        };
        return storage::open_postgres_store(fresh.url(), options);
    }
    // The round trips of one post.
    int post(const std::string& user, const std::string& text) {
        const int before = trips;
        asked.clear();
        service.handle(lobby_post(std::to_string(next_id++), user, text));
        return trips - before;
    }
};

} // namespace

TEST_CASE("The round trips to PostgreSQL of a move, of chatter and of a board asked for",
          "[service][postgres][scale]") {
    Counted c;
    c.post("alice", "!new chess @bob");
    c.post("bob", "!accept");
    c.post("alice", "e4");
    c.post("bob", "e5");
    c.post("alice", "hello all");
    c.post("carol", "!board");
    // Now every statement of these paths is prepared on the connection.
    const int move = c.post("alice", "Nf3");
    const std::string move_asked = c.asked;
    const int chatter = c.post("alice", "nice weather");
    const std::string chatter_asked = c.asked;
    const int board = c.post("carol", "!board");
    INFO("move " << move << ", chatter " << chatter << ", board " << board);
    INFO("a move asks:\n"
         << move_asked << "chatter asks:\n"
         << chatter_asked << "a board asks:\n"
         << c.asked);
    CHECK(move == 6);
    CHECK(chatter == 6);
    CHECK(board == 6);
}
