#include "../support/test_stores.h"
#include "ghostpost/storage/store.h"
#include "temp_path.h"

#include <catch2/catch.hpp>
#include <stdexcept>

using namespace ghostpost::storage;
using ghostpost::rules::Seat;
using ghostpost::testing::Backend;
using ghostpost::testing::FreshStore;
using ghostpost::testing::TempPath;

namespace {

GameRecord sample_game(std::int64_t challenger) {
    GameRecord g;
    g.variant = "chess";
    g.options = {{"clock", "none"}, {"speed", "3"}};
    g.platform = "console";
    g.channel = "lobby";
    g.challenger = challenger;
    g.challenged = "bob";
    g.challenger_color = "white";
    g.seed = {1, 2, 3, 0, 255};
    g.created_at = 1700000000;
    return g;
}

// What kind of StorageError `work` throws; fails the test when it throws none.
template <class F> StorageError::Kind kind_thrown(F work) {
    try {
        work();
    } catch (const StorageError& e) {
        return e.kind();
    }
    FAIL("no StorageError was thrown");
    return StorageError::Kind::Other;
}

} // namespace

TEST_CASE("A new database is migrated to the current schema in WAL mode", "[storage]") {
    TempPath path;
    { auto store = open_sqlite_store(path.str()); }
    Database db(path.str());
    CHECK(db.user_version() == sqlite_schema_version());
    CHECK(sqlite_schema_version() == 22);
    Statement mode(db, "PRAGMA journal_mode");
    REQUIRE(mode.step());
    CHECK(mode.column_text(0) == "wal");
    Statement sync(db, "PRAGMA synchronous");
    REQUIRE(sync.step());
    CHECK(sync.column_int(0) == 2); // FULL
}

TEST_CASE("A database with a newer schema than the program is refused", "[storage]") {
    TempPath path;
    {
        Database db(path.str());
        db.set_user_version(99);
    }
    CHECK_THROWS_WITH(open_sqlite_store(path.str()),
                      "storage: the database has schema version 99, newer than this program's 22");
}

TEST_CASE("A transaction that is not committed is rolled back by its destructor", "[storage]") {
    TempPath path;
    Database db(path.str());
    db.exec("CREATE TABLE t (x INTEGER)");
    {
        Transaction t(db);
        db.exec("INSERT INTO t VALUES (1)");
    }
    {
        Transaction t(db);
        db.exec("INSERT INTO t VALUES (2)");
        t.commit();
    }
    Statement s(db, "SELECT group_concat(x) FROM t");
    REQUIRE(s.step());
    CHECK(s.column_text(0) == "2");
}

TEST_CASE("A failing statement throws SqliteError with SQLite's message", "[storage]") {
    TempPath path;
    Database db(path.str());
    CHECK_THROWS_WITH(db.exec("SELECT * FROM nowhere"), "sqlite: no such table: nowhere");
    CHECK_THROWS_AS(Statement(db, "NOT SQL"), SqliteError);
    CHECK(kind_thrown([&] { db.exec("SELECT * FROM nowhere"); }) == StorageError::Kind::Other);
}

TEST_CASE("SQLite's codes are told apart as busy, constraint and I/O errors", "[storage]") {
    CHECK(SqliteError(5, "busy").kind() == StorageError::Kind::Busy);            // SQLITE_BUSY
    CHECK(SqliteError(6, "locked").kind() == StorageError::Kind::Busy);          // SQLITE_LOCKED
    CHECK(SqliteError(2067, "unique").kind() == StorageError::Kind::Constraint); // ..._UNIQUE
    CHECK(SqliteError(10, "disk").kind() == StorageError::Kind::Io);             // SQLITE_IOERR
    CHECK(SqliteError(13, "full").kind() == StorageError::Kind::Io);             // SQLITE_FULL
    CHECK(SqliteError(1, "syntax").kind() == StorageError::Kind::Other);         // SQLITE_ERROR
    CHECK(SqliteError(5, "busy").transient());
    CHECK_FALSE(SqliteError(2067, "unique").transient());
}

TEST_CASE("Work that throws halfway through a store transaction leaves nothing behind",
          "[storage]") {
    FreshStore fresh(GENERATE(Backend::Sqlite, Backend::Postgres));
    INFO(fresh.name());
    auto& store = fresh.store;
    auto alice = store->upsert_player("console", "alice", "alice", "alice");
    std::int64_t game_id = store->create_game(sample_game(alice.id));
    CHECK_THROWS_WITH(store->transaction([&] {
        store->mark_post_handled("console", "lobby", "7", 100);
        store->append_action({game_id, 1, Seat::White, alice.id, "e4", "7"});
        store->enqueue({"console", false, "lobby", "alice played e4", "", {}, "7"}, 100);
        store->set_cursor("console", "8");
        throw std::runtime_error("the power went out");
    }),
                      "the power went out");
    CHECK_FALSE(store->post_handled("console", "lobby", "7"));
    CHECK(store->action_count(game_id) == 0);
    CHECK(store->pending_count("console") == 0);
    CHECK_FALSE(store->cursor("console").has_value());

    store->transaction([&] { store->set_cursor("console", "8"); });
    CHECK(store->cursor("console") == std::optional<std::string>("8"));
}

TEST_CASE("A group commits its transactions together, and one that throws rolls back alone",
          "[storage][group]") {
    FreshStore fresh(GENERATE(Backend::Sqlite, Backend::Postgres));
    INFO(fresh.name());
    auto& store = fresh.store;
    auto other = fresh.open(); // another connection sees only what is committed
    store->group([&] {
        store->transaction([&] {
            store->mark_post_handled("console", "lobby", "1", 100);
            store->set_cursor("console", "2");
        });
        CHECK_THROWS_WITH(store->transaction([&] {
            store->mark_post_handled("console", "lobby", "2", 100);
            store->set_cursor("console", "3");
            throw std::runtime_error("a bug of ours");
        }),
                          "a bug of ours");
        store->relaxed_transaction([&] { store->mark_post_handled("console", "lobby", "3", 100); });
        // Inside the group every transaction sees the others'; nobody else sees any yet.
        CHECK(store->post_handled("console", "lobby", "1"));
        CHECK_FALSE(store->post_handled("console", "lobby", "2"));
        CHECK(store->cursor("console") == std::optional<std::string>("2"));
        CHECK_FALSE(other->post_handled("console", "lobby", "1"));
        CHECK_FALSE(other->cursor("console").has_value());
    });
    CHECK(other->post_handled("console", "lobby", "1"));
    CHECK_FALSE(other->post_handled("console", "lobby", "2"));
    CHECK(other->post_handled("console", "lobby", "3"));
    CHECK(other->cursor("console") == std::optional<std::string>("2"));

    // A group that throws keeps nothing of it, its transactions that ended well included.
    CHECK_THROWS_WITH(store->group([&] {
        store->transaction([&] {
            store->mark_post_handled("console", "lobby", "4", 100);
            store->set_cursor("console", "5");
        });
        throw std::runtime_error("the disk is full");
    }),
                      "the disk is full");
    CHECK_FALSE(other->post_handled("console", "lobby", "4"));
    CHECK(other->cursor("console") == std::optional<std::string>("2"));
    // And after it, transactions are whole transactions again.
    store->transaction([&] { store->set_cursor("console", "6"); });
    CHECK(other->cursor("console") == std::optional<std::string>("6"));
}

TEST_CASE("A relaxed transaction commits for every connection and rolls back like any other",
          "[storage]") {
    FreshStore fresh(GENERATE(Backend::Sqlite, Backend::Postgres));
    INFO(fresh.name());
    auto& store = fresh.store;
    store->relaxed_transaction([&] { store->set_cursor("console", "1"); });
    CHECK(fresh.open()->cursor("console") == std::optional<std::string>("1"));

    CHECK_THROWS_WITH(store->relaxed_transaction([&] {
        store->set_cursor("console", "2");
        throw std::runtime_error("the platform hung up");
    }),
                      "the platform hung up");
    CHECK(store->cursor("console") == std::optional<std::string>("1"));
    // The connection goes on as before: a durable transaction after a relaxed one.
    store->transaction([&] { store->set_cursor("console", "3"); });
    CHECK(fresh.open()->cursor("console") == std::optional<std::string>("3"));
}

TEST_CASE("A post marked handled cannot be marked again", "[storage]") {
    FreshStore fresh(GENERATE(Backend::Sqlite, Backend::Postgres));
    INFO(fresh.name());
    auto& store = fresh.store;
    store->mark_post_handled("console", "lobby", "1", 5);
    CHECK(store->post_handled("console", "lobby", "1"));
    CHECK_FALSE(store->post_handled("console", "other", "1"));
    CHECK(kind_thrown([&] { store->mark_post_handled("console", "lobby", "1", 6); }) ==
          StorageError::Kind::Constraint);
}

TEST_CASE("Games round-trip with options, seats, seed and status", "[storage]") {
    FreshStore fresh(GENERATE(Backend::Sqlite, Backend::Postgres));
    INFO(fresh.name());
    auto& store = fresh.store;
    auto alice = store->upsert_player("console", "u1", "Alice", "alice");
    auto bob = store->upsert_player("console", "u2", "bob", "bob");
    std::int64_t id = store->create_game(sample_game(alice.id));
    auto g = store->game(id);
    REQUIRE(g);
    CHECK(g->options == ghostpost::rules::Options{{"clock", "none"}, {"speed", "3"}});
    CHECK(g->seed == std::vector<std::uint8_t>{1, 2, 3, 0, 255});
    CHECK(g->status == GameStatus::Challenge);
    CHECK_FALSE(g->white.has_value());

    // bob is challenged by name before being seated.
    CHECK(store->games_of_player(bob, {GameStatus::Challenge}).size() == 1);
    g->white = alice.id;
    g->black = bob.id;
    g->status = GameStatus::Ongoing;
    store->update_game(*g);
    auto again = store->game(id);
    CHECK(again->black == std::optional<std::int64_t>(bob.id));
    CHECK(status_name(again->status) == "ongoing");
    CHECK(store->games_in_channel("console", "lobby", {GameStatus::Ongoing}).size() == 1);
    CHECK(store->games_in_channel("console", "lobby", {GameStatus::Challenge}).empty());
    CHECK(store->player_by_handle("console", "ALICE")->user_id == "u1");
}

TEST_CASE("Taken-back actions leave the live log and their plies can be played again",
          "[storage]") {
    FreshStore fresh(GENERATE(Backend::Sqlite, Backend::Postgres));
    INFO(fresh.name());
    auto& store = fresh.store;
    auto alice = store->upsert_player("console", "alice", "alice", "alice");
    std::int64_t id = store->create_game(sample_game(alice.id));
    store->append_action({id, 1, Seat::White, alice.id, "e4", "1"});
    store->append_action({id, 2, Seat::Black, alice.id, "e5", "2"});
    CHECK(kind_thrown([&] {
              store->append_action({id, 2, Seat::Black, alice.id, "c5", "3"});
          }) == StorageError::Kind::Constraint);
    store->take_back(id, 2);
    store->append_action({id, 2, Seat::Black, alice.id, "c5", "4"});
    auto log = store->actions(id);
    REQUIRE(log.size() == 2);
    CHECK(log[1].text == "c5");
    CHECK(log[1].seat == Seat::Black);
    CHECK(store->action_count(id) == 2);
}

TEST_CASE("Offers are one per game and kind", "[storage]") {
    FreshStore fresh(GENERATE(Backend::Sqlite, Backend::Postgres));
    INFO(fresh.name());
    auto& store = fresh.store;
    auto alice = store->upsert_player("console", "alice", "alice", "alice");
    std::int64_t id = store->create_game(sample_game(alice.id));
    store->put_offer(id, {OfferKind::Draw, Seat::White, 3});
    store->put_offer(id, {OfferKind::Draw, Seat::Black, 4});
    auto draw = store->offer(id, OfferKind::Draw);
    REQUIRE(draw);
    CHECK(draw->seat == Seat::Black);
    CHECK(draw->ply == 4);
    CHECK_FALSE(store->offer(id, OfferKind::Takeback));
    store->clear_offer(id, OfferKind::Draw);
    CHECK_FALSE(store->offer(id, OfferKind::Draw));
}

TEST_CASE("The outbox keeps each destination in order behind a retry", "[storage]") {
    FreshStore fresh(GENERATE(Backend::Sqlite, Backend::Postgres));
    INFO(fresh.name());
    auto& store = fresh.store;
    auto a1 = store->enqueue({"tg", false, "chan", "one", "", {}, ""}, 10);
    auto a2 = store->enqueue({"tg", false, "chan", "two", "board", {}, ""}, 10);
    auto b1 = store->enqueue({"tg", true, "bob", "secret", "", {0x89, 0x50}, "m1"}, 10);
    store->enqueue({"other", false, "chan", "elsewhere", "", {}, ""}, 10);

    auto due = store->due("tg", 10, 10);
    REQUIRE(due.size() == 3);
    CHECK(due[0].id == a1);
    CHECK(due[1].message.code == "board");
    CHECK(due[2].message.to_user);
    CHECK(due[2].message.png == std::vector<std::uint8_t>{0x89, 0x50});
    CHECK(due[2].message.reply_to == "m1");

    store->reschedule(a1, 40, "429 too many requests");
    store->mark_sent(b1, 11);
    // "two" waits behind "one" until the retry is due.
    CHECK(store->due("tg", 20, 10).empty());
    auto later = store->due("tg", 40, 10);
    REQUIRE(later.size() == 2);
    CHECK(later[0].id == a1);
    CHECK(later[0].attempts == 1);
    CHECK(later[1].id == a2);

    store->give_up(a1, "403 forbidden");
    store->mark_sent(a2, 41);
    CHECK(store->due("tg", 100, 10).empty());
    CHECK(store->pending_count("tg") == 0);
    CHECK(store->pending_count("other") == 1);
}

TEST_CASE("A second connection sees what the first committed", "[storage]") {
    FreshStore fresh(GENERATE(Backend::Sqlite, Backend::Postgres));
    INFO(fresh.name());
    auto& first = fresh.store;
    first->transaction([&] { first->set_cursor("console", "42"); });
    auto second = fresh.open();
    CHECK(second->cursor("console") == std::optional<std::string>("42"));
}

TEST_CASE("A player's image setting is kept", "[storage]") {
    FreshStore fresh(GENERATE(Backend::Sqlite, Backend::Postgres));
    INFO(fresh.name());
    auto& store = fresh.store;
    PlayerRecord p;
    store->transaction([&] {
        p = store->upsert_player("console", "alice", "alice", "alice");
        p.images = true;
        store->save_player_settings(p);
    });
    auto again = store->player_by_handle("console", "alice");
    REQUIRE(again.has_value());
    CHECK(again->images);
}

TEST_CASE("A handle names one account at a time and a display name is never a handle",
          "[storage][identity]") {
    FreshStore fresh(GENERATE(Backend::Sqlite, Backend::Postgres));
    INFO(fresh.name());
    auto& store = fresh.store;
    // An account with no username whose display name is "bob", then the real @bob.
    auto decoy = store->upsert_player("telegram", "1001", "bob", "");
    auto bob = store->upsert_player("telegram", "2002", "Robert", "Bob");
    CHECK(decoy.handle.empty());
    CHECK(bob.handle == "bob");
    CHECK(bob.name == "Robert");
    CHECK(store->player_by_handle("telegram", "bob")->user_id == "2002");
    CHECK(store->player_by_handle("telegram", "BOB")->id == bob.id);
    CHECK_FALSE(store->player_by_handle("telegram", "robert").has_value());
    CHECK_FALSE(store->player_by_handle("telegram", "").has_value());

    // The username moves to another account: the old holder no longer answers to it.
    auto newcomer = store->upsert_player("telegram", "3003", "Bobby", "bob");
    CHECK(store->player_by_handle("telegram", "bob")->id == newcomer.id);
    CHECK(store->player_by_account("telegram", "2002")->handle.empty());
    CHECK(store->player_by_account("telegram", "1001")->id == decoy.id);
    CHECK_FALSE(store->player_by_account("telegram", "4004").has_value());
}

TEST_CASE("A challenge bound to an account is found for that account only", "[storage][identity]") {
    FreshStore fresh(GENERATE(Backend::Sqlite, Backend::Postgres));
    INFO(fresh.name());
    auto& store = fresh.store;
    auto alice = store->upsert_player("console", "u1", "Alice", "alice");
    auto bob = store->upsert_player("console", "u2", "bob", "bob");
    auto other = store->upsert_player("console", "u3", "bob", "");
    GameRecord g = sample_game(alice.id);
    g.challenged = "bob";
    g.challenged_id = bob.id;
    const std::int64_t id = store->create_game(g);
    CHECK(store->game(id)->challenged_id == std::optional<std::int64_t>(bob.id));
    CHECK(store->games_of_player(bob, {GameStatus::Challenge}).size() == 1);
    CHECK(store->games_of_player(other, {GameStatus::Challenge}).empty());
    // The handle changes hands before the challenge is answered: the account still holds it.
    store->upsert_player("console", "u4", "Bob the second", "bob");
    auto bob_now = store->player_by_account("console", "u2");
    CHECK(store->games_of_player(*bob_now, {GameStatus::Challenge}).size() == 1);
}

TEST_CASE("A linked account belongs to its player, and a player's games span platforms",
          "[storage]") {
    FreshStore fresh(GENERATE(Backend::Sqlite, Backend::Postgres));
    INFO(fresh.name());
    auto& store = fresh.store;
    const auto alice = store->upsert_player("telegram", "11", "Alice", "alice");
    const auto alice_dc = store->upsert_player("discord", "900", "alice", "alice_dc");
    const auto bob = store->upsert_player("discord", "901", "Bob", "bob");
    CHECK_FALSE(store->player_has_history(alice.id));
    const std::int64_t game = store->create_game(sample_game(alice.id));
    CHECK(store->player_has_history(alice.id));
    CHECK_FALSE(store->player_has_history(alice_dc.id));

    store->link_account(alice_dc.id, alice.id);
    CHECK(store->player(alice_dc.id)->linked_to == alice.id);
    CHECK(store->player(alice.id)->linked_to == 0);
    CHECK(store->account_on(alice.id, "telegram")->id == alice.id);
    CHECK(store->account_on(alice.id, "discord")->user_id == "900");
    CHECK_FALSE(store->account_on(alice.id, "matrix"));
    CHECK_FALSE(store->account_on(bob.id, "telegram"));

    // The game is on Telegram; as seen from Discord it is still alice's.
    PlayerRecord seen_on_discord = *store->player(alice.id);
    seen_on_discord.platform = "discord";
    const auto games = store->games_of_player(seen_on_discord, {GameStatus::Challenge});
    REQUIRE(games.size() == 1);
    CHECK(games[0].id == game);
}

TEST_CASE("A code is used once and not after it expires; a bound channel sees the game",
          "[storage]") {
    FreshStore fresh(GENERATE(Backend::Sqlite, Backend::Postgres));
    INFO(fresh.name());
    auto& store = fresh.store;
    const auto alice = store->upsert_player("telegram", "11", "Alice", "alice");
    const std::int64_t game = store->create_game(sample_game(alice.id));
    store->put_code({"K7QD-M2XP", "invite", 0, game, "discord", 1000});
    store->put_code({"OLD0-CODE", "link", alice.id, 0, "", 500});
    CHECK_FALSE(store->take_code("OLD0-CODE", 600)); // expired
    CHECK_FALSE(store->take_code("NONE-SUCH", 600));
    const auto code = store->take_code("K7QD-M2XP", 600);
    REQUIRE(code);
    CHECK(code->kind == "invite");
    CHECK(code->game == game);
    CHECK(code->platform == "discord");
    CHECK(code->player == 0);
    CHECK_FALSE(store->take_code("K7QD-M2XP", 600)); // used up

    const std::int64_t before = store->game_revision(game);
    store->bind_channel(game, "discord", "300");
    store->bind_channel(game, "discord", "300"); // once
    CHECK(store->game_revision(game) > before);
    CHECK(store->bound_channels(game) ==
          std::vector<std::pair<std::string, std::string>>{{"discord", "300"}});
    const auto here = store->games_in_channel("discord", "300", {GameStatus::Challenge});
    REQUIRE(here.size() == 1);
    CHECK(here[0].id == game);
    CHECK(here[0].platform == "console"); // still the game's own platform
    CHECK(store->games_in_channel("discord", "301", {GameStatus::Challenge}).empty());
}

TEST_CASE("A reply's buttons and the accounts it names by display name come back from the outbox",
          "[storage]") {
    FreshStore fresh(GENERATE(Backend::Sqlite, Backend::Postgres));
    INFO(fresh.name());
    auto& store = fresh.store;
    OutgoingMessage m;
    m.platform = "telegram";
    m.destination = "-100123/42";
    m.text = "Zoë Ann accepts.";
    // A tab or a line break would end the field or the line: they become spaces.
    m.buttons = {{"Accept", "!accept 3"}, {"Dec\tline", "!decline\n3"}};
    m.named = {{"555", "Zoë Ann"}};
    store->enqueue(m, 10);
    store->enqueue({"telegram", false, "-100123", "plain", "", {}, ""}, 10);
    const auto due = store->due("telegram", 10, 10);
    REQUIRE(due.size() == 2);
    const OutgoingMessage& back = due[0].message;
    CHECK(back.destination == "-100123/42");
    REQUIRE(back.buttons.size() == 2);
    CHECK(back.buttons[0].label == "Accept");
    CHECK(back.buttons[0].command == "!accept 3");
    CHECK(back.buttons[1].label == "Dec line");
    CHECK(back.buttons[1].command == "!decline 3");
    REQUIRE(back.named.size() == 1);
    CHECK(back.named[0].user_id == "555");
    CHECK(back.named[0].name == "Zoë Ann");
    CHECK(due[1].message.buttons.empty());
    CHECK(due[1].message.named.empty());
    // A sender's claim hands them out as well.
    const auto claimed = store->claim_due("telegram", 10, 1, "A", 40);
    REQUIRE(claimed.size() == 1);
    REQUIRE(claimed[0].message.buttons.size() == 2);
    CHECK(claimed[0].message.buttons[1].command == "!decline 3");
    REQUIRE(claimed[0].message.named.size() == 1);
    CHECK(claimed[0].message.named[0].name == "Zoë Ann");
}

TEST_CASE("A channel's board settings have defaults until its moderators save their own",
          "[storage]") {
    FreshStore fresh(GENERATE(Backend::Sqlite, Backend::Postgres));
    INFO(fresh.name());
    auto& store = fresh.store;
    ChannelSettings c = store->channel_settings("telegram", "-100");
    CHECK(c.platform == "telegram");
    CHECK(c.channel == "-100");
    CHECK(c.orientation == "white");
    CHECK(c.notation == "ascii");
    CHECK_FALSE(c.images);
    c.orientation = "black";
    c.notation = "unicode";
    c.images = true;
    store->save_channel_settings(c);
    c.orientation = "white"; // saved again: replaced, not added
    store->save_channel_settings(c);
    const ChannelSettings back = store->channel_settings("telegram", "-100");
    CHECK(back.orientation == "white");
    CHECK(back.notation == "unicode");
    CHECK(back.images);
    // Another channel, or the same id on another platform, keeps the defaults.
    CHECK(store->channel_settings("discord", "-100").notation == "ascii");
    CHECK(store->channel_settings("telegram", "-200").notation == "ascii");
}

TEST_CASE("A channel that moves takes its games, tournaments, followers and waiting replies, once",
          "[storage]") {
    FreshStore fresh(GENERATE(Backend::Sqlite, Backend::Postgres));
    INFO(fresh.name());
    auto& store = fresh.store;
    const auto alice = store->upsert_player("telegram", "11", "Alice", "alice");
    GameRecord g = sample_game(alice.id);
    g.platform = "telegram";
    g.channel = "-123";
    const std::int64_t here = store->create_game(g);
    g.status = GameStatus::Finished;
    const std::int64_t finished = store->create_game(g);
    g.channel = "-456";
    const std::int64_t elsewhere = store->create_game(g);
    store->bind_channel(elsewhere, "telegram", "-123"); // a game followed from the old id
    TournamentRecord t;
    t.platform = "telegram";
    t.channel = "-123";
    t.name = "Spring";
    t.variant = "chess";
    t.format = "swiss";
    t.creator = alice.id;
    const std::int64_t tournament = store->create_tournament(t);
    const auto waiting = store->enqueue({"telegram", false, "-123", "e5", "", {}, ""}, 10);
    OutgoingMessage secret{"telegram", true, "11", "your view", "", {}, ""};
    secret.notice_channel = "-123";
    secret.blocked_notice = "open a chat";
    store->enqueue(secret, 10);
    const auto sent = store->enqueue({"telegram", false, "-123", "old", "", {}, ""}, 10);
    store->mark_sent(sent, 11);
    store->enqueue({"discord", false, "-123", "not telegram's", "", {}, ""}, 10);

    // 2 games, 1 tournament, 1 follower, 1 channel reply, 1 notice channel.
    CHECK(store->move_channel("telegram", "-123", "-100999") == 6);
    CHECK(store->game(here)->channel == "-100999");
    CHECK(store->game(finished)->channel == "-100999");
    CHECK(store->game(elsewhere)->channel == "-456");
    CHECK(store->bound_channels(elsewhere) ==
          std::vector<std::pair<std::string, std::string>>{{"telegram", "-100999"}});
    CHECK(store->tournament(tournament)->channel == "-100999");
    CHECK(store->games_in_channel("telegram", "-123", {GameStatus::Challenge}).empty());
    const auto due = store->due("telegram", 20, 10);
    REQUIRE(due.size() == 2);
    CHECK(due[0].id == waiting);
    CHECK(due[0].message.destination == "-100999");
    CHECK(due[1].message.destination == "11");
    CHECK(due[1].message.notice_channel == "-100999");
    CHECK(store->due("discord", 20, 10).at(0).message.destination == "-123");
    // The other notice of the same move finds nothing left.
    CHECK(store->move_channel("telegram", "-123", "-100999") == 0);
}

TEST_CASE("A forecast keeps its lines, texts of several words included, one per seat",
          "[storage][forecast]") {
    FreshStore fresh(GENERATE(Backend::Sqlite, Backend::Postgres));
    INFO(fresh.name());
    auto& store = fresh.store;
    const auto alice = store->upsert_player("console", "a", "Alice", "alice");
    const auto bob = store->upsert_player("console", "b", "Bob", "bob");
    const std::int64_t game = store->create_game(sample_game(alice.id));
    CHECK(store->forecasts(game).empty());
    store->put_forecast({game, Seat::Black, bob.id, 3, {{"Qxb1", "Respawn d1"}, {"Nf3", "Nc6"}}});
    store->put_forecast({game, Seat::White, alice.id, 3, {{"d5"}}});
    auto all = store->forecasts(game);
    REQUIRE(all.size() == 2);
    CHECK(all[0].seat == Seat::White); // White's first
    CHECK(all[1].seat == Seat::Black);
    CHECK(all[1].player_id == bob.id);
    CHECK(all[1].ply == 3);
    CHECK(all[1].lines ==
          std::vector<std::vector<std::string>>{{"Qxb1", "Respawn d1"}, {"Nf3", "Nc6"}});

    // Replaced, not added to; cleared for one seat only.
    store->put_forecast({game, Seat::Black, bob.id, 4, {{"Nc6"}}});
    store->clear_forecast(game, Seat::White);
    all = store->forecasts(game);
    REQUIRE(all.size() == 1);
    CHECK(all[0].ply == 4);
    CHECK(all[0].lines == std::vector<std::vector<std::string>>{{"Nc6"}});
    store->clear_forecast(game, Seat::White); // nothing to clear: no error
}

TEST_CASE("Digests are found when due, earliest first, and not before", "[storage][digest]") {
    FreshStore fresh(GENERATE(Backend::Sqlite, Backend::Postgres));
    INFO(fresh.name());
    auto& store = fresh.store;
    const auto alice = store->upsert_player("console", "a", "Alice", "alice");
    const auto bob = store->upsert_player("telegram", "b", "Bob", "bob");
    store->put_digest({alice.id, "console", 9, 1700038800});
    store->put_digest({bob.id, "telegram", 8, 1700035200});
    CHECK(store->digests_due(1700035199).empty());
    auto due = store->digests_due(1700040000);
    REQUIRE(due.size() == 2);
    CHECK(due[0].player_id == bob.id);
    CHECK(due[0].platform == "telegram");
    CHECK(due[0].hour == 8);
    CHECK(due[1].player_id == alice.id);
    store->put_digest({bob.id, "telegram", 8, 1700035200 + 86400}); // sent: tomorrow's next
    due = store->digests_due(1700040000);
    REQUIRE(due.size() == 1);
    CHECK(due[0].player_id == alice.id);
    store->clear_digest(alice.id);
    CHECK(store->digests_due(1700040000).empty());
    CHECK_FALSE(store->digest(alice.id));
    REQUIRE(store->digest(bob.id));
    CHECK(store->digest(bob.id)->next_at == 1700035200 + 86400);
}

TEST_CASE("The time-driven job takes a digest only while it is due", "[storage][digest]") {
    FreshStore fresh(GENERATE(Backend::Sqlite, Backend::Postgres));
    INFO(fresh.name());
    auto& store = fresh.store;
    const auto alice = store->upsert_player("console", "a", "Alice", "alice");
    store->put_digest({alice.id, "console", 8, 1000});
    bool taken = false;
    store->transaction([&] { taken = store->claim_digest(alice.id, 999); });
    CHECK_FALSE(taken);
    store->transaction([&] {
        taken = store->claim_digest(alice.id, 1000);
        store->put_digest({alice.id, "console", 8, 1000 + 86400}); // sent
    });
    CHECK(taken);
    store->transaction([&] { taken = store->claim_digest(alice.id, 2000); });
    CHECK_FALSE(taken);
    const auto bob = store->upsert_player("console", "b", "Bob", "bob");
    store->transaction([&] { taken = store->claim_digest(bob.id, 2000); }); // none asked for
    CHECK_FALSE(taken);
}

TEST_CASE("A tournament keeps its schedule, next-round rule and drawn colour, and a board the "
          "floats it gave",
          "[storage][tournament]") {
    FreshStore fresh(GENERATE(Backend::Sqlite, Backend::Postgres));
    INFO(fresh.name());
    auto& store = fresh.store;
    const auto alice = store->upsert_player("console", "alice", "alice", "alice");
    const auto bob = store->upsert_player("console", "bob", "bob", "bob");
    TournamentRecord t;
    t.platform = "console";
    t.channel = "lobby";
    t.name = "Winter";
    t.variant = "chess";
    t.format = "roundrobin";
    t.creator = alice.id;
    t.schedule = "allatonce";
    t.next_round = "manual";
    t.id = store->create_tournament(t);
    auto back = store->tournament(t.id);
    REQUIRE(back);
    CHECK(back->schedule == "allatonce");
    CHECK(back->next_round == "manual");
    CHECK(back->initial_colour.empty());
    back->initial_colour = "black";
    back->status = TournamentStatus::Running;
    store->update_tournament(*back);
    CHECK(store->tournament_by_name("console", "winter")->initial_colour == "black");

    PairingRecord p{t.id, 1, 1, alice.id, bob.id, std::nullopt, "down", "up"};
    store->add_pairing(p);
    PairingRecord b{t.id, 1, 2, bob.id, std::nullopt, std::nullopt, "down", ""};
    store->add_pairing(b);
    const auto boards = store->pairings(t.id);
    REQUIRE(boards.size() == 2);
    CHECK(boards[0].white_float == "down");
    CHECK(boards[0].black_float == "up");
    CHECK(boards[1].white_float == "down");
    CHECK(boards[1].black_float.empty());
}

TEST_CASE("A tournament stored before rounds could start by themselves still waits for "
          "!tourney next",
          "[storage][tournament]") {
    TempPath path;
    { auto store = open_sqlite_store(path.str()); }
    Database db(path.str());
    // A row as the schema before version 15 wrote it: without the new columns.
    db.exec("INSERT INTO players (id, platform, user_id, name, name_key) VALUES (1, 'console', "
            "'ann', 'ann', 'ann')");
    db.exec("INSERT INTO tournaments (platform, channel, name, name_key, variant, format, "
            "status, creator, created_at) VALUES ('console', 'lobby', 'Old', 'old', 'chess', "
            "'swiss', 'running', 1, 0)");
    db.exec("INSERT INTO tournament_pairings (tournament_id, round, board, white) VALUES (1, 1, "
            "1, 1)");
    auto store = open_sqlite_store(path.str());
    const auto t = store->tournament_by_name("console", "old");
    REQUIRE(t);
    CHECK(t->next_round == "manual");
    CHECK(t->schedule == "rounds");
    CHECK(t->initial_colour.empty());
    CHECK(store->pairings(t->id).at(0).white_float.empty());
}

// Within a transaction the store answers a repeated read from memory (and on PostgreSQL sends
// writes ahead of the next request that waits). These say that it is never a wrong answer.

TEST_CASE("A transaction's reads after its own writes see those writes", "[storage][memo]") {
    FreshStore fresh(GENERATE(Backend::Sqlite, Backend::Postgres));
    INFO(fresh.name());
    auto& store = fresh.store;
    auto alice = store->upsert_player("console", "alice", "alice", "alice");
    auto bob = store->upsert_player("console", "bob", "bob", "bob");
    GameRecord g = sample_game(alice.id);
    g.status = GameStatus::Ongoing;
    g.white = alice.id;
    g.black = bob.id;
    g.id = store->create_game(g);
    store->transaction([&] {
        // Everything read once, as a post does, then changed, then read again.
        const std::int64_t revision = store->lock_game(g.id);
        CHECK(store->clocks(g.id).empty());
        CHECK_FALSE(store->ban("console", "bob").has_value());
        CHECK(store->player(alice.id)->notation == "ascii");
        CHECK(store->account_on(bob.id, "console")->name == "bob");
        CHECK_FALSE(store->channel_settings("console", "lobby").saved);
        CHECK(store->actions(g.id).empty());
        CHECK_FALSE(store->offer(g.id, OfferKind::Draw).has_value());
        CHECK(store->forecasts(g.id).empty());
        CHECK(store->bound_channels(g.id).empty());
        CHECK(store->games_in_channel("console", "lobby", {GameStatus::Ongoing}).size() == 1);

        store->put_clock(g.id, {Seat::Black, 50, 0, 0, 50, false});
        store->put_clock(g.id, {Seat::White, 70, 10, 10, 70, true});
        CHECK(store->clocks(g.id).size() == 2);
        store->put_clock(g.id, {Seat::Black, 45, 0, 0, 50, false});
        store->put_ban({"console", "bob", "mod", "spam", 9});
        PlayerRecord settings = *store->player(alice.id);
        settings.notation = "unicode";
        store->save_player_settings(settings);
        store->upsert_player("console", "bob", "Robert", "bobby");
        store->save_channel_settings({"console", "lobby", "black", "unicode", true, "compact"});
        store->append_action({g.id, 1, Seat::White, alice.id, "e4", "7"});
        store->put_offer(g.id, {OfferKind::Draw, Seat::White, 1});
        store->put_forecast({g.id, Seat::White, alice.id, 1, {{"e5", "Nf3"}}});
        store->bind_channel(g.id, "telegram", "-100");
        GameRecord over = g;
        over.status = GameStatus::Finished;
        over.result = "1-0";
        store->update_game(over);

        const auto clocks = store->clocks(g.id);
        REQUIRE(clocks.size() == 2);
        CHECK(clocks[0].seat == Seat::White);
        CHECK(clocks[0].remaining == 70);
        CHECK(clocks[0].warned);
        CHECK(clocks[1].seat == Seat::Black);
        CHECK(clocks[1].remaining == 45);
        CHECK(store->ban("console", "bob")->reason == "spam");
        CHECK(store->player(alice.id)->notation == "unicode");
        CHECK(store->player_by_account("console", "alice")->notation == "unicode");
        CHECK(store->account_on(bob.id, "console")->name == "Robert");
        CHECK(store->player(bob.id)->handle == "bobby");
        const ChannelSettings look = store->channel_settings("console", "lobby");
        CHECK(look.saved);
        CHECK(look.orientation == "black");
        CHECK(look.style == "compact");
        REQUIRE(store->actions(g.id).size() == 1);
        CHECK(store->actions(g.id)[0].text == "e4");
        CHECK(store->action_count(g.id) == 1);
        CHECK(store->offer(g.id, OfferKind::Draw)->ply == 1);
        REQUIRE(store->forecasts(g.id).size() == 1);
        CHECK(store->forecasts(g.id)[0].lines[0][1] == "Nf3");
        CHECK(store->bound_channels(g.id) ==
              std::vector<std::pair<std::string, std::string>>{{"telegram", "-100"}});
        CHECK(store->games_in_channel("console", "lobby", {GameStatus::Ongoing}).empty());
        // The action, the channel and the update each changed the game once.
        CHECK(store->game_revision(g.id) == revision + 3);
        CHECK(store->lock_game(g.id) == revision + 3);

        store->remove_ban("console", "bob");
        store->clear_offer(g.id, OfferKind::Draw);
        store->clear_forecast(g.id, Seat::White);
        store->take_back(g.id, 1);
        CHECK_FALSE(store->ban("console", "bob").has_value());
        CHECK_FALSE(store->offer(g.id, OfferKind::Draw).has_value());
        CHECK(store->forecasts(g.id).empty());
        CHECK(store->actions(g.id).empty());
        CHECK(store->action_count(g.id) == 0);
        CHECK(store->game_revision(g.id) == revision + 4);
    });
    // What the transaction ended with is what was stored.
    const auto clocks = store->clocks(g.id);
    REQUIRE(clocks.size() == 2);
    CHECK(clocks[0].remaining == 70);
    CHECK(store->player(alice.id)->notation == "unicode");
    CHECK(store->channel_settings("console", "lobby").style == "compact");
    CHECK(store->game_revision(g.id) == store->game(g.id)->revision);
}

// Inside a transaction what a locked game brings (its clocks, log, offers, forecasts, channels
// and players) is read with the lock and answered from memory after; read outside one, each is
// a statement of its own. Both must give the same records, to the byte.
TEST_CASE("What a game's lock brings equals what each read alone returns, for any text",
          "[storage][memo]") {
    FreshStore fresh(GENERATE(Backend::Sqlite, Backend::Postgres));
    INFO(fresh.name());
    auto& store = fresh.store;
    // Quotes, a backslash, a newline, a tab, non-Latin letters, JSON's own signs, a name like
    // a number and one like a boolean.
    const std::string awkward = "say \"hi\" \\ back\n\tto élève 王 {\"x\": [1]}";
    auto alice = store->upsert_player("console", "alice", awkward, "12345");
    auto bob = store->upsert_player("console", "bob", "true", "null");
    GameRecord g = sample_game(alice.id);
    g.status = GameStatus::Ongoing;
    g.white = alice.id;
    g.black = bob.id;
    g.id = store->create_game(g);
    store->append_action({g.id, 1, Seat::White, alice.id, "e4", awkward, "3\n5"});
    store->append_action({g.id, 2, Seat::Black, bob.id, awkward, "8", ""});
    store->append_action({g.id, 3, Seat::White, alice.id, "Nf3", "9", "6"});
    store->put_clock(g.id, {Seat::White, 9007199254740993, 0, 0, 0, false}); // > 2^53
    store->put_clock(g.id, {Seat::Black, -5, 1700000000, 1700000001, 42, true});
    store->put_offer(g.id, {OfferKind::Takeback, Seat::Black, 2});
    store->put_forecast({g.id, Seat::White, alice.id, 3, {{"e5", awkward}, {}, {"d4"}}});
    store->bind_channel(g.id, "telegram", "-100");
    store->bind_channel(g.id, "console", awkward);

    const auto clocks = store->clocks(g.id);
    const auto actions = store->actions(g.id);
    const auto forecasts = store->forecasts(g.id);
    const auto channels = store->bound_channels(g.id);
    const auto takeback = store->offer(g.id, OfferKind::Takeback);
    const auto draw = store->offer(g.id, OfferKind::Draw);
    const auto white = store->player(alice.id);
    const auto black = store->player(bob.id);
    REQUIRE(actions.size() == 3);
    CHECK(actions[1].text == awkward);
    CHECK(actions[0].message_id == awkward);
    CHECK(actions[0].rolls == "3\n5");
    REQUIRE(clocks.size() == 2);
    CHECK(clocks[0].remaining == 9007199254740993);
    CHECK(white->name == awkward);
    CHECK(black->name == "true");
    CHECK(black->handle == "null");

    store->transaction([&] {
        store->lock_game(g.id);
        const auto locked_clocks = store->clocks(g.id);
        REQUIRE(locked_clocks.size() == clocks.size());
        for (std::size_t i = 0; i < clocks.size(); ++i) {
            CHECK(locked_clocks[i].seat == clocks[i].seat);
            CHECK(locked_clocks[i].remaining == clocks[i].remaining);
            CHECK(locked_clocks[i].running_since == clocks[i].running_since);
            CHECK(locked_clocks[i].deciding_since == clocks[i].deciding_since);
            CHECK(locked_clocks[i].budget == clocks[i].budget);
            CHECK(locked_clocks[i].warned == clocks[i].warned);
        }
        const auto locked_actions = store->actions(g.id);
        REQUIRE(locked_actions.size() == actions.size());
        for (std::size_t i = 0; i < actions.size(); ++i) {
            CHECK(locked_actions[i].ply == actions[i].ply);
            CHECK(locked_actions[i].seat == actions[i].seat);
            CHECK(locked_actions[i].player_id == actions[i].player_id);
            CHECK(locked_actions[i].text == actions[i].text);
            CHECK(locked_actions[i].message_id == actions[i].message_id);
            CHECK(locked_actions[i].rolls == actions[i].rolls);
        }
        const auto locked_forecasts = store->forecasts(g.id);
        REQUIRE(locked_forecasts.size() == 1);
        CHECK(locked_forecasts[0].lines == forecasts[0].lines);
        CHECK(locked_forecasts[0].ply == 3);
        CHECK(store->bound_channels(g.id) == channels);
        CHECK(store->offer(g.id, OfferKind::Takeback)->ply == takeback->ply);
        CHECK(store->offer(g.id, OfferKind::Takeback)->seat == Seat::Black);
        CHECK(store->offer(g.id, OfferKind::Draw).has_value() == draw.has_value());
        CHECK(store->player(alice.id)->name == white->name);
        CHECK(store->player(alice.id)->handle == "12345");
        CHECK(store->player(bob.id)->name == "true");
        CHECK(store->player(bob.id)->handle == "null");
        CHECK(store->player(bob.id)->notation == black->notation);
    });
}

// On PostgreSQL a transaction's changes to a game's row (its revision, its deadline) are held
// back and written as one UPDATE before the next request that waits. They must be there for
// every later read of the transaction, go with the commit, and be rolled back with a savepoint.
TEST_CASE("A game's revision and deadline changed in a transaction are read, kept and rolled "
          "back as if written at once",
          "[storage][memo][group]") {
    FreshStore fresh(GENERATE(Backend::Sqlite, Backend::Postgres));
    INFO(fresh.name());
    auto& store = fresh.store;
    auto alice = store->upsert_player("console", "alice", "alice", "alice");
    GameRecord g = sample_game(alice.id);
    g.status = GameStatus::Ongoing;
    g.white = g.black = alice.id;
    g.id = store->create_game(g);
    const std::int64_t start = store->game(g.id)->revision;
    const auto due_ids = [&](std::int64_t now) {
        std::vector<std::int64_t> ids;
        for (const GameRecord& d : store->games_due(now))
            ids.push_back(d.id);
        return ids;
    };
    store->transaction([&] {
        store->lock_game(g.id);
        store->append_action({g.id, 1, Seat::White, alice.id, "e4", "1", ""});
        store->set_next_deadline(g.id, 500);
        // Read by statements of their own, not from memory.
        CHECK(store->game(g.id)->revision == start + 1);
        CHECK(due_ids(499).empty());
        CHECK(due_ids(500) == std::vector<std::int64_t>{g.id});
        store->append_action({g.id, 2, Seat::Black, alice.id, "e5", "2", ""});
        store->set_next_deadline(g.id, 700);
        store->set_next_deadline(g.id, 600);
    });
    CHECK(store->game(g.id)->revision == start + 2);
    CHECK(due_ids(599).empty());
    CHECK(due_ids(600) == std::vector<std::int64_t>{g.id});

    // In a group, the second transaction throws: its changes go, the first one's stay.
    store->group([&] {
        store->transaction([&] {
            store->lock_game(g.id);
            store->append_action({g.id, 3, Seat::White, alice.id, "Nf3", "3", ""});
            store->set_next_deadline(g.id, 800);
        });
        CHECK_THROWS_AS(store->transaction([&] {
            store->lock_game(g.id);
            store->append_action({g.id, 4, Seat::Black, alice.id, "Nc6", "4", ""});
            store->set_next_deadline(g.id, std::nullopt);
            throw std::runtime_error("a post that fails");
        }),
                        std::runtime_error);
    });
    CHECK(store->game(g.id)->revision == start + 3);
    CHECK(store->actions(g.id).size() == 3);
    CHECK(due_ids(799).empty());
    CHECK(due_ids(800) == std::vector<std::int64_t>{g.id});

    // A deadline cleared with nothing else changed.
    store->transaction([&] { store->set_next_deadline(g.id, std::nullopt); });
    CHECK(due_ids(1'000'000).empty());
    CHECK(store->game(g.id)->revision == start + 3);
}

TEST_CASE("A rolled-back transaction or savepoint leaves nothing of its writes to later reads",
          "[storage][memo][group]") {
    FreshStore fresh(GENERATE(Backend::Sqlite, Backend::Postgres));
    INFO(fresh.name());
    auto& store = fresh.store;
    auto alice = store->upsert_player("console", "alice", "alice", "alice");
    const std::int64_t game = store->create_game(sample_game(alice.id));
    store->put_clock(game, {Seat::White, 100, 0, 0, 100, false});

    CHECK_THROWS_WITH(store->transaction([&] {
        CHECK(store->clocks(game)[0].remaining == 100);
        store->put_clock(game, {Seat::White, 1, 0, 0, 1, false});
        store->put_ban({"console", "alice", "mod", "", 1});
        CHECK(store->clocks(game)[0].remaining == 1);
        throw std::runtime_error("a bug of ours");
    }),
                      "a bug of ours");
    store->transaction([&] {
        CHECK(store->clocks(game)[0].remaining == 100);
        CHECK_FALSE(store->ban("console", "alice").has_value());
    });

    store->group([&] {
        store->transaction([&] {
            CHECK(store->clocks(game)[0].remaining == 100);
            CHECK_FALSE(store->ban("console", "alice").has_value());
            store->put_clock(game, {Seat::White, 90, 0, 0, 90, false});
        });
        CHECK_THROWS_WITH(store->transaction([&] {
            store->put_clock(game, {Seat::White, 2, 0, 0, 2, false});
            store->put_ban({"console", "alice", "mod", "", 2});
            store->append_action({game, 1, Seat::White, alice.id, "e4", "7"});
            CHECK(store->clocks(game)[0].remaining == 2);
            CHECK(store->ban("console", "alice").has_value());
            CHECK(store->actions(game).size() == 1);
            throw std::runtime_error("a bug of ours");
        }),
                          "a bug of ours");
        // The next post of the group reads what the first left, not what the second did.
        store->transaction([&] {
            CHECK(store->clocks(game)[0].remaining == 90);
            CHECK_FALSE(store->ban("console", "alice").has_value());
            CHECK(store->actions(game).empty());
            CHECK(store->game_revision(game) == 0);
        });
    });
    CHECK(store->clocks(game)[0].remaining == 90);
}

TEST_CASE("A new transaction reads what another daemon wrote since the last one",
          "[storage][memo]") {
    FreshStore fresh(GENERATE(Backend::Sqlite, Backend::Postgres));
    INFO(fresh.name());
    auto& store = fresh.store;
    auto other = fresh.open();
    auto alice = store->upsert_player("console", "alice", "alice", "alice");
    GameRecord g = sample_game(alice.id);
    g.status = GameStatus::Ongoing;
    g.white = alice.id;
    g.id = store->create_game(g);
    store->put_clock(g.id, {Seat::White, 100, 0, 0, 100, false});
    const auto read_all = [&] {
        store->transaction([&] {
            store->lock_game(g.id);
            store->clocks(g.id);
            store->ban("console", "alice");
            store->player(alice.id);
            store->channel_settings("console", "lobby");
            store->actions(g.id);
            store->games_in_channel("console", "lobby", {GameStatus::Ongoing});
        });
    };
    read_all();
    other->transaction([&] {
        other->lock_game(g.id);
        other->put_clock(g.id, {Seat::White, 40, 0, 0, 40, false});
        other->put_ban({"console", "alice", "mod", "", 3});
        PlayerRecord p = *other->player(alice.id);
        p.orientation = "black";
        other->save_player_settings(p);
        other->save_channel_settings({"console", "lobby", "black", "ascii", false, "board"});
        other->append_action({g.id, 1, Seat::White, alice.id, "e4", "7"});
        GameRecord paused = g;
        paused.paused = true;
        other->update_game(paused);
    });
    store->transaction([&] {
        CHECK(store->lock_game(g.id) == 2);
        CHECK(store->clocks(g.id)[0].remaining == 40);
        CHECK(store->ban("console", "alice").has_value());
        CHECK(store->player(alice.id)->orientation == "black");
        CHECK(store->channel_settings("console", "lobby").orientation == "black");
        CHECK(store->actions(g.id).size() == 1);
        const auto games = store->games_in_channel("console", "lobby", {GameStatus::Ongoing});
        REQUIRE(games.size() == 1);
        CHECK(games[0].paused);
    });
}

TEST_CASE("A write whose error comes back later still fails its own transaction or savepoint",
          "[storage][memo][group]") {
    FreshStore fresh(GENERATE(Backend::Sqlite, Backend::Postgres));
    INFO(fresh.name());
    auto& store = fresh.store;
    auto other = fresh.open();
    store->mark_post_handled("console", "lobby", "1", 5);
    // The second mark breaks the key: the transaction fails with it, and keeps nothing.
    CHECK(kind_thrown([&] {
              store->transaction([&] {
                  store->set_cursor("console", "2");
                  store->mark_post_handled("console", "lobby", "1", 6);
              });
          }) == StorageError::Kind::Constraint);
    CHECK_FALSE(other->cursor("console").has_value());
    // In a group, the savepoint of the post that failed rolls back alone; the others commit.
    store->group([&] {
        store->transaction([&] { store->mark_post_handled("console", "lobby", "2", 6); });
        CHECK(kind_thrown([&] {
                  store->transaction([&] {
                      store->set_cursor("console", "3");
                      store->mark_post_handled("console", "lobby", "1", 6);
                  });
              }) == StorageError::Kind::Constraint);
        store->transaction([&] { store->mark_post_handled("console", "lobby", "4", 6); });
    });
    CHECK(other->post_handled("console", "lobby", "2"));
    CHECK(other->post_handled("console", "lobby", "4"));
    CHECK_FALSE(other->cursor("console").has_value());
    // And the connection goes on as before.
    store->transaction([&] { store->set_cursor("console", "5"); });
    CHECK(other->cursor("console") == std::optional<std::string>("5"));
}
