// Community scale (issue #16): what the store does must not grow with the number of games
// stored. Every statement the store compiles is checked with EXPLAIN QUERY PLAN against a
// database of a few thousand games; deadlines, retention and the statement cache are checked
// by what they leave in the database.
#include "../support/test_stores.h"
#include "ghostpost/storage/store.h"
#include "temp_path.h"

#include <catch2/catch.hpp>
#include <csignal>
#include <functional>
#include <set>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace ghostpost::storage;
using ghostpost::rules::Seat;
using ghostpost::testing::Backend;
using ghostpost::testing::FreshStore;
using ghostpost::testing::TempPath;

namespace {

GameRecord game_of(std::int64_t white, std::int64_t black, int n) {
    GameRecord g;
    g.variant = "chess";
    g.platform = "console";
    g.channel = "room" + std::to_string(n % 50);
    g.challenger = white;
    g.challenged = "p" + std::to_string(black);
    g.challenged_id = black;
    g.challenger_color = "white";
    g.white = white;
    g.black = black;
    g.status = n % 3 == 0 ? GameStatus::Finished : GameStatus::Ongoing;
    g.seed = {1, 2, 3};
    g.created_at = 1700000000 + n;
    g.time_control = "3d";
    return g;
}

// The tables that grow with the community; a scan of any of them costs time in proportion.
// Aliases used in the store's SQL (outbox e and o, players p) count as their table.
const std::set<std::string> growing{
    "games", "actions", "outbox", "handled_posts", "players", "clocks",    "e",
    "o",     "p",       "g",      "game_channels", "c",       "forecasts", "digests"};

// The first word after "SCAN " in a query plan line: the table (or alias) read in full.
std::string scanned(const std::string& detail) {
    if (detail.rfind("SCAN ", 0) != 0)
        return {};
    const std::string rest = detail.substr(5);
    return rest.substr(0, rest.find(' '));
}

// The table (or alias) after "SEARCH ".
std::string searched(const std::string& detail) {
    if (detail.rfind("SEARCH ", 0) != 0)
        return {};
    const std::string rest = detail.substr(7);
    return rest.substr(0, rest.find(' '));
}

} // namespace

TEST_CASE("Every statement the store runs reads the growing tables through an index",
          "[storage][scale]") {
    TempPath path;
    std::vector<std::string> compiled;
    DatabaseOptions options;
    options.synchronous_full = false;
    options.on_prepare = [&](std::string_view sql) { compiled.emplace_back(sql); };
    auto store = open_sqlite_store(path.str(), options);

    constexpr int players = 400;
    constexpr int games = 3000;
    store->transaction([&] {
        for (int i = 1; i <= players; ++i)
            store->upsert_player("console", "u" + std::to_string(i), "P" + std::to_string(i),
                                 "p" + std::to_string(i));
        for (int n = 0; n < games; ++n) {
            const std::int64_t white = 1 + n % players;
            const std::int64_t black = 1 + (n + 1) % players;
            const std::int64_t id = store->create_game(game_of(white, black, n));
            store->append_action({id, 1, Seat::White, white, "e4", "m" + std::to_string(n), ""});
            store->put_clock(id,
                             {Seat::Black, 3 * 86400, 1700000000, 1700000000, 3 * 86400, false});
            store->set_next_deadline(id, 1700000000 + n);
            OutgoingMessage m;
            m.platform = "console";
            m.destination = "room" + std::to_string(n % 50);
            m.text = "reply";
            const std::int64_t out = store->enqueue(m, 1700000000);
            if (n % 2 == 0)
                store->mark_sent(out, 1700000000);
            store->mark_post_handled("console", "room", "m" + std::to_string(n), 1700000000);
        }
    });
    store->transaction([] {}); // BEGIN and COMMIT are statements too

    // Every query the store has, once each.
    PlayerRecord p1 = *store->player(1);
    store->post_handled("console", "room", "m1");
    store->cursor("console");
    store->set_cursor("console", "10");
    store->player_by_account("console", "u1");
    store->player_by_handle("console", "p2");
    store->save_player_settings(p1);
    store->save_vacation(p1);
    GameRecord g = *store->game(5);
    store->update_game(g);
    store->games_in_channel("console", "room3", {GameStatus::Challenge, GameStatus::Ongoing});
    store->games_in_channel("console", "room3", {GameStatus::Finished});
    store->games_of_player(p1, {GameStatus::Challenge, GameStatus::Ongoing});
    store->games_of_player(p1, {GameStatus::Ongoing});
    store->link_account(400, 1);
    store->account_on(1, "telegram");
    store->player_has_history(1);
    store->put_code({"ABCD-EFGH", "invite", 0, 5, "discord", 1700000900});
    store->take_code("ABCD-EFGH", 1700000000);
    store->bind_channel(5, "discord", "300");
    store->bound_channels(5);
    store->move_channel("console", "room4", "room4-moved");
    store->games_with_status({GameStatus::Challenge});
    store->actions(5);
    store->action_count(5);
    store->game_revision(5);
    store->take_back(5, 2);
    store->put_offer(5, {OfferKind::Draw, Seat::White, 1});
    store->offer(5, OfferKind::Draw);
    store->clear_offer(5, OfferKind::Draw);
    store->due("console", 1700000000, 50);
    store->reschedule(2, 1700000100, "later");
    store->give_up(4, "never");
    store->pending_count("console");
    store->clocks(5);
    store->games_due(1700000100);
    store->prune(1700000000, 1700000000);
    store->put_heartbeat(1700000000);
    store->heartbeat();
    store->log_mod_action({0, "console", "mod", "pause #5", 1700000000});
    store->mod_actions("console", 10);
    store->put_ban({"console", "u9", "mod", "", 1700000000});
    store->ban("console", "u9");
    store->remove_ban("console", "u9");
    store->rating(1, "chess");
    store->save_rating({1, "chess", 1500, 350, 0.06, 0}, 1700000000);
    store->ratings_of_player(1);
    store->leaderboard("console", "chess", 10);
    TournamentRecord t;
    t.platform = "console";
    t.channel = "room1";
    t.name = "Autumn";
    t.variant = "chess";
    t.format = "swiss";
    t.creator = 1;
    t.id = store->create_tournament(t);
    store->tournament(t.id);
    store->tournament_by_name("console", "autumn");
    store->tournaments_in_channel("console", "room1");
    store->update_tournament(t);
    store->add_entrant(t.id, 1, 1700000000);
    store->add_entrant(t.id, 2, 1700000000);
    store->remove_entrant(t.id, 2);
    store->entrants(t.id);
    store->set_seed(t.id, 1, 0);
    store->start_round(t.id, 1, 1700000000);
    store->add_pairing({t.id, 1, 1, 1, std::nullopt, std::nullopt});
    store->complete_round(t.id, 1, 1700000000);
    store->pairings(t.id);
    store->pairing_of_game(5);
    store->put_forecast({5, Seat::Black, 2, 1, {{"e5", "Nf3"}}});
    store->forecasts(5);
    store->clear_forecast(5, Seat::Black);
    store->put_digest({1, "console", 8, 1700035200});
    store->digest(1);
    store->digests_due(1700000000);
    store->clear_digest(1);
    REQUIRE(compiled.size() >= 62);

    // No ANALYZE: the daemon never runs it, so the plans are those of the planner's defaults.
    Database db(path.str());
    std::vector<std::string> scans;
    for (const auto& sql : compiled) {
        Statement plan(db, "EXPLAIN QUERY PLAN " + sql);
        while (plan.step()) {
            const std::string detail = plan.column_text(3);
            // A search of a growing table on the platform alone reads all of a platform's rows:
            // a scan too.
            const bool platform_only = detail.find(" (platform=?)") != std::string::npos &&
                                       growing.contains(searched(detail));
            if (growing.contains(scanned(detail)) || platform_only)
                scans.push_back(detail + "  <-  " + sql);
        }
    }
    CHECK(scans == std::vector<std::string>{});
}

TEST_CASE("A compiled statement is taken from the cache on its next use, reset and unbound",
          "[storage][scale]") {
    TempPath path;
    int compiled = 0;
    DatabaseOptions options;
    options.on_prepare = [&](std::string_view) { ++compiled; };
    Database db(path.str(), options);
    db.exec("CREATE TABLE t (x INTEGER)");
    {
        Statement insert(db, "INSERT INTO t (x) VALUES (?1)");
        insert.bind(1, 7).run();
    }
    {
        // The same SQL again: no compilation, and the old binding 7 is gone (NULL).
        Statement insert(db, "INSERT INTO t (x) VALUES (?1)");
        insert.run();
    }
    CHECK(compiled == 1);
    {
        // Two live at once (a nested query) each have their own compiled copy.
        Statement a(db, "SELECT x FROM t ORDER BY x IS NULL, x");
        Statement b(db, "SELECT x FROM t ORDER BY x IS NULL, x");
        REQUIRE(a.step());
        REQUIRE(b.step());
        CHECK(a.column_int(0) == 7);
        REQUIRE(a.step());
        CHECK(a.is_null(0));
    }
    CHECK(compiled == 3);
    Statement again = db.prepare_cached("SELECT x FROM t ORDER BY x IS NULL, x");
    REQUIRE(again.step()); // from the start: the cached copy was reset
    CHECK(again.column_int(0) == 7);
    CHECK(compiled == 3);
}

TEST_CASE("The store returns only the games whose deadline has come, and stopping clears it",
          "[storage][scale]") {
    TempPath path;
    auto store = open_sqlite_store(path.str());
    store->transaction([&] {
        store->upsert_player("console", "u1", "A", "a");
        store->upsert_player("console", "u2", "B", "b");
        for (int n = 1; n <= 4; ++n)
            store->create_game(game_of(1, 2, n)); // n = 3 is finished
    });
    // A game created under way is due at once, until the service sets its deadline.
    std::vector<std::int64_t> due;
    for (const auto& g : store->games_due(0))
        due.push_back(g.id);
    CHECK(due == std::vector<std::int64_t>{1, 2, 4});

    store->set_next_deadline(1, 500);
    store->set_next_deadline(2, 100);
    store->set_next_deadline(4, std::nullopt);
    due.clear();
    for (const auto& g : store->games_due(500))
        due.push_back(g.id);
    CHECK(due == std::vector<std::int64_t>{2, 1}); // earliest first
    CHECK(store->games_due(99).empty());

    GameRecord g = *store->game(2);
    g.paused = true;
    store->update_game(g); // a paused game is never due
    CHECK(store->games_due(1000).size() == 1);
    g.paused = false;
    store->update_game(g); // resumed: due at once
    CHECK(store->games_due(0).size() == 1);
    g.status = GameStatus::Finished;
    store->update_game(g);
    CHECK(store->games_due(1000).size() == 1);
    CHECK(store->games_due(1000)[0].id == 1);
}

TEST_CASE("Pruning drops delivered replies with their images and old post ids",
          "[storage][scale]") {
    TempPath path;
    auto store = open_sqlite_store(path.str());
    OutgoingMessage m;
    m.platform = "console";
    m.destination = "room";
    m.text = "board";
    m.png = {0x89, 'P', 'N', 'G'};
    const std::int64_t old_sent = store->enqueue(m, 100);
    const std::int64_t new_sent = store->enqueue(m, 100);
    const std::int64_t waiting = store->enqueue(m, 100);
    store->mark_sent(old_sent, 1000);
    store->mark_sent(new_sent, 5000);
    store->mark_post_handled("console", "room", "old", 1000);
    store->mark_post_handled("console", "room", "new", 5000);

    CHECK(store->prune(2000, 2000) == 2); // one delivered reply, one post id
    Database db(path.str());
    Statement left(db, "SELECT id FROM outbox ORDER BY id");
    std::vector<std::int64_t> ids;
    while (left.step())
        ids.push_back(left.column_int(0));
    CHECK(ids == std::vector<std::int64_t>{new_sent, waiting});
    // A delivered image is dropped at once; one still waiting keeps its bytes.
    Statement images(db, "SELECT id FROM outbox WHERE png IS NOT NULL ORDER BY id");
    std::vector<std::int64_t> with_png;
    while (images.step())
        with_png.push_back(images.column_int(0));
    CHECK(with_png == std::vector<std::int64_t>{waiting});
    CHECK_FALSE(store->post_handled("console", "room", "old"));
    CHECK(store->post_handled("console", "room", "new"));
    CHECK(store->pending_count("console") == 1);
}

TEST_CASE("The commit hook counts each durable commit of the connection", "[storage][scale]") {
    TempPath path;
    int commits = 0;
    DatabaseOptions options;
    options.on_commit = [&] { ++commits; };
    auto store = open_sqlite_store(path.str(), options);
    const int after_migration = commits;
    store->transaction([&] {
        store->set_cursor("console", "1");
        store->set_cursor("console", "2");
    });
    CHECK(commits == after_migration + 1);
    store->set_cursor("console", "3"); // a statement outside a transaction commits on its own
    CHECK(commits == after_migration + 2);
    // A relaxed commit waits for no fsync, and the next statement is durable again.
    store->relaxed_transaction([&] { store->set_cursor("console", "4"); });
    CHECK(commits == after_migration + 2);
    store->set_cursor("console", "5");
    CHECK(commits == after_migration + 3);
}

namespace {

std::string synchronous_level(Database& db) {
    Statement s(db, "PRAGMA synchronous");
    s.step();
    return s.column_text(0);
}

} // namespace

TEST_CASE("A relaxed transaction lowers the synchronous level for itself alone",
          "[storage][scale]") {
    TempPath path;
    Database db(path.str());
    db.exec("CREATE TABLE marks (id INTEGER PRIMARY KEY)");
    CHECK(synchronous_level(db) == "2"); // FULL
    {
        Transaction t(db, Durability::Relaxed);
        db.exec("INSERT INTO marks (id) VALUES (1)");
        t.commit();
    }
    CHECK(synchronous_level(db) == "2");
    {
        Transaction t(db, Durability::Relaxed);
        db.exec("INSERT INTO marks (id) VALUES (2)");
        // Rolled back by the destructor, and the level set back all the same.
    }
    CHECK(synchronous_level(db) == "2");
    // A database opened for speed (synchronous OFF) is not raised to NORMAL by it.
    TempPath fast;
    DatabaseOptions off;
    off.synchronous_full = false;
    Database quick(fast.str(), off);
    {
        Transaction t(quick, Durability::Relaxed);
        t.commit();
    }
    CHECK(synchronous_level(quick) == "0");
}

TEST_CASE("What a relaxed transaction committed survives its process being killed",
          "[storage][scale]") {
    TempPath path;
    {
        Database db(path.str());
        db.exec("CREATE TABLE marks (id INTEGER PRIMARY KEY)");
    }
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        // No destructor runs: the connection is never closed, the log never checkpointed.
        Database db(path.str());
        Transaction t(db, Durability::Relaxed);
        db.exec("INSERT INTO marks (id) VALUES (7)");
        t.commit();
        raise(SIGKILL);
    }
    int status = 0;
    REQUIRE(waitpid(child, &status, 0) == child);
    REQUIRE(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == SIGKILL);
    Database db(path.str());
    Statement s(db, "SELECT id FROM marks");
    REQUIRE(s.step());
    CHECK(s.column_int(0) == 7);
    CHECK_FALSE(s.step());
}

namespace {

// The plan of the last statement `call` sends, as the daemon's own connection would have it
// planned: EXPLAIN QUERY PLAN's lines on SQLite, EXPLAIN's JSON on PostgreSQL (with the
// connection's settings, and `values` as the literal parameters $1, $2...).
std::string plan_of(const FreshStore& fresh, Backend backend,
                    const std::function<void(Store&)>& call,
                    const std::vector<std::string>& values) {
    std::string sql;
    if (backend == Backend::Sqlite) {
        DatabaseOptions options;
        options.on_prepare = [&](std::string_view text) { sql = text; };
        call(*fresh.open(options));
        Database db(fresh.path());
        Statement plan(db, "EXPLAIN QUERY PLAN " + sql);
        std::string out;
        while (plan.step())
            out += plan.column_text(3) + "\n";
        return out;
    }
    PostgresOptions options;
    options.on_round_trip = [&](std::string_view text) { sql = text; };
    call(*open_postgres_store(fresh.url(), options));
    sql = sql.substr(0, sql.find("  [with:")); // what went along in the same round trip
    for (std::size_t n = values.size(); n > 0; --n)
        for (std::size_t at; (at = sql.find("$" + std::to_string(n))) != std::string::npos;)
            sql.replace(at, 1 + std::to_string(n).size(), values[n - 1]);
    return fresh.value("SET enable_seqscan = off; EXPLAIN (FORMAT JSON) " + sql);
}

} // namespace

TEST_CASE("A post's queries use their indexes on small tables never analysed, on both backends",
          "[storage][scale][postgres]") {
    const Backend backend = GENERATE(Backend::Sqlite, Backend::Postgres);
    FreshStore fresh(backend);
    INFO(fresh.name());
    auto& store = *fresh.store;
    const std::int64_t white = store.upsert_player("console", "w", "w", "w").id;
    const std::int64_t black = store.upsert_player("console", "b", "b", "b").id;
    for (int n = 0; n < 60; ++n)
        store.create_game(game_of(white, black, n));
    store.bind_channel(2, "telegram", "-100");
    store.append_action({1, 1, Seat::White, white, "e4", "1"});
    store.put_clock(1, {Seat::White, 100, 0, 0, 100, false});
    store.mark_post_handled("console", "room1", "1", 5);
    const bool sqlite = backend == Backend::Sqlite;
    // The index each statement must use, by its exact name.
    struct Hot {
        const char* what;
        std::function<void(Store&)> call;
        std::vector<std::string> values;
        std::vector<std::string> indexes; // SQLite's, then PostgreSQL's
    };
    const std::vector<Hot> hot{
        {"games in this channel",
         [](Store& s) { s.games_in_channel("console", "room1", {GameStatus::Ongoing}); },
         {"'console'", "'room1'"},
         sqlite ? std::vector<std::string>{"SEARCH games USING INDEX games_by_channel "
                                           "(platform=? AND channel=?)",
                                           "SEARCH c USING INDEX game_channels_by_channel "
                                           "(platform=? AND channel=?)"}
                : std::vector<std::string>{"\"Index Name\": \"games_by_channel\"",
                                           "\"Index Name\": \"game_channels_by_channel\""}},
        {"a post handled",
         [](Store& s) { s.post_handled("console", "room1", "1"); },
         {"'console'", "'room1'", "'1'"},
         {sqlite ? "SEARCH handled_posts USING COVERING INDEX sqlite_autoindex_handled_posts_1"
                 : "\"Index Name\": \"handled_posts_pkey\""}},
        {"a player by account",
         [](Store& s) { s.player_by_account("console", "w"); },
         {"'console'", "'w'"},
         {sqlite ? "SEARCH players USING INDEX sqlite_autoindex_players_1"
                 : "\"Index Name\": \"players_platform_user_id_key\""}},
        {"a game locked",
         [](Store& s) { s.lock_game(1); },
         {"1"},
         {sqlite ? "SEARCH games USING INTEGER PRIMARY KEY" : "\"Index Name\": \"games_pkey\""}},
        {"a game's log",
         [](Store& s) { s.actions(1); },
         {"1"},
         {sqlite ? "SEARCH actions USING INDEX actions_live_ply"
                 : "\"Index Name\": \"actions_live_ply\""}},
        {"a game's clocks",
         [](Store& s) { s.clocks(1); },
         {"1"},
         {sqlite ? "SEARCH clocks USING INDEX sqlite_autoindex_clocks_1"
                 : "\"Index Name\": \"clocks_pkey\""}},
    };
    for (const Hot& h : hot) {
        const std::string plan = plan_of(fresh, backend, h.call, h.values);
        INFO(h.what << ":\n" << plan);
        for (const std::string& index : h.indexes)
            CHECK(plan.find(index) != std::string::npos);
        // What made "games in this channel" slow: every game of the status, on every platform.
        CHECK(plan.find("games_by_status") == std::string::npos);
        CHECK(plan.find("Seq Scan") == std::string::npos);
    }
}
