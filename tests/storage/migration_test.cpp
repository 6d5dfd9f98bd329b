// The schema as numbered SQL files: each applied once, in order, in its own transaction, and
// recorded; SQLite databases made before the files keep working.
#include "../support/test_stores.h"
#include "ghostpost/storage/store.h"
#include "temp_path.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

using namespace ghostpost::storage;
using ghostpost::testing::Backend;
using ghostpost::testing::FreshStore;
using ghostpost::testing::TempPath;

namespace {

std::string read(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// The SQL files of a backend, in order.
std::vector<std::filesystem::path> migration_files(const std::string& backend) {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(
             std::filesystem::path(GHOSTPOST_SOURCE_DIR) / "storage" / backend / "migrations"))
        files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace

TEST_CASE("Both backends have the same numbered migrations, one file each", "[storage]") {
    const auto sqlite = migration_files("sqlite");
    const auto postgres = migration_files("postgres");
    REQUIRE(sqlite.size() == static_cast<std::size_t>(sqlite_schema_version()));
    REQUIRE(postgres.size() == sqlite.size());
    for (std::size_t i = 0; i < sqlite.size(); ++i)
        CHECK(sqlite[i].filename() == postgres[i].filename());
    CHECK(sqlite[0].filename() == "0001_initial.sql");
    CHECK(sqlite_schema_version() >= 11);
    CHECK(postgres_schema_version() == sqlite_schema_version());
}

TEST_CASE("A SQLite database made by the migrations before the files is brought up to date",
          "[storage]") {
    TempPath path;
    const auto files = migration_files("sqlite");
    {
        // What the program wrote up to schema version 7: the same SQL in one transaction,
        // PRAGMA user_version, no schema_migrations table.
        Database db(path.str());
        Transaction t(db);
        for (std::size_t i = 0; i < 7; ++i)
            db.exec(read(files[i]));
        db.set_user_version(7);
        db.exec("INSERT INTO players (platform, user_id, name, name_key) VALUES "
                "('console', 'u1', 'alice', 'alice')");
        t.commit();
    }
    auto store = open_sqlite_store(path.str());
    CHECK(store->player_by_account("console", "u1")->name == "alice");
    store.reset();

    Database db(path.str());
    CHECK(db.user_version() == sqlite_schema_version());
    Statement s(db, "SELECT version, name, applied_at > 0 FROM schema_migrations ORDER BY version");
    std::vector<std::tuple<std::int64_t, std::string, std::int64_t>> rows;
    while (s.step())
        rows.emplace_back(s.column_int(0), s.column_text(1), s.column_int(2));
    REQUIRE(rows.size() == static_cast<std::size_t>(sqlite_schema_version()));
    CHECK(rows[0] == std::tuple<std::int64_t, std::string, std::int64_t>{1, "initial", 0});
    CHECK(rows[6] ==
          std::tuple<std::int64_t, std::string, std::int64_t>{7, "identity_by_account", 0});
    // Applied now, with a time of their own.
    CHECK(rows[7] == std::tuple<std::int64_t, std::string, std::int64_t>{8, "community_scale", 1});
    CHECK(rows[10] == std::tuple<std::int64_t, std::string, std::int64_t>{11, "rating_history", 1});
    CHECK(std::get<0>(rows.back()) == sqlite_schema_version());
}

namespace {

// The schema as sqlite_master holds it (tables, indexes, their SQL), without the migrations'
// own record.
std::vector<std::string> schema_of(const std::string& path) {
    Database db(path);
    Statement s(db, "SELECT type || ' ' || name || ': ' || COALESCE(sql, '') FROM sqlite_master "
                    "WHERE name <> 'schema_migrations' ORDER BY type, name");
    std::vector<std::string> out;
    while (s.step())
        out.push_back(s.column_text(0));
    return out;
}

} // namespace

TEST_CASE("A SQLite database at any version the program wrote before the files is brought up "
          "to date, and one already at the last version runs nothing",
          "[storage]") {
    const auto files = migration_files("sqlite");
    const int known = sqlite_schema_version();
    TempPath fresh_path;
    open_sqlite_store(fresh_path.str());
    const auto fresh = schema_of(fresh_path.str());
    for (int version = 1; version <= known; ++version) {
        INFO("user_version " << version);
        TempPath path;
        {
            // As the program wrote it up to `version`: the same SQL (it was an array of these
            // statements), PRAGMA user_version, no schema_migrations table.
            Database db(path.str());
            Transaction t(db);
            for (int i = 0; i < version; ++i)
                db.exec(read(files[static_cast<std::size_t>(i)]));
            db.set_user_version(version);
            db.exec("INSERT INTO players (platform, user_id, name, name_key) VALUES "
                    "('console', 'u1', 'alice', 'alice')");
            t.commit();
        }
        auto store = open_sqlite_store(path.str());
        CHECK(store->player_by_account("console", "u1")->name == "alice");
        store.reset();
        // Each later migration ran once (a second ALTER TABLE ... ADD COLUMN would have failed),
        // and the result is the schema of a new database.
        CHECK(schema_of(path.str()) == fresh);
        Database db(path.str());
        CHECK(db.user_version() == known);
        Statement s(db, "SELECT version, name, applied_at FROM schema_migrations ORDER BY version");
        int row = 0;
        while (s.step()) {
            ++row;
            CHECK(s.column_int(0) == row);
            const std::string file = files[static_cast<std::size_t>(row - 1)].filename().string();
            CHECK(s.column_text(1) == file.substr(5, file.size() - 5 - 4)); // NNNN_what.sql
            // Those the old program applied are recorded at an unknown time (0); the others
            // now.
            if (row <= version)
                CHECK(s.column_int(2) == 0);
            else
                CHECK(s.column_int(2) > 0);
        }
        CHECK(row == known);
    }
}

TEST_CASE("A migration that fails is rolled back alone and the earlier ones stay", "[storage]") {
    TempPath path;
    {
        // Version 9, and a table in the way of migration 10's.
        Database db(path.str());
        const auto files = migration_files("sqlite");
        for (std::size_t i = 0; i < 9; ++i)
            db.exec(read(files[i]));
        db.set_user_version(9);
        db.exec("CREATE TABLE link_codes (x INTEGER)");
    }
    CHECK_THROWS_AS(open_sqlite_store(path.str()), SqliteError);
    Database db(path.str());
    CHECK(db.user_version() == 9);
    Statement s(db, "SELECT MAX(version) FROM schema_migrations");
    REQUIRE(s.step());
    CHECK(s.column_int(0) == 9);
    Statement column(db,
                     "SELECT COUNT(*) FROM pragma_table_info('players') WHERE name = 'linked_to'");
    REQUIRE(column.step());
    CHECK(column.column_int(0) == 0); // 10's first statement went with its transaction
}

TEST_CASE("Daemons starting together on a new PostgreSQL database migrate it once",
          "[storage][postgres]") {
    FreshStore fresh(Backend::Postgres, "ghostpost-test", false);
    std::vector<std::thread> daemons;
    std::atomic<int> opened{0};
    std::atomic<int> failed{0};
    for (int i = 0; i < 3; ++i)
        daemons.emplace_back([&, i] {
            try {
                auto store = fresh.open();
                const std::string platform = "platform" + std::to_string(i);
                store->transaction([&] { store->set_cursor(platform, "1"); });
                ++opened;
            } catch (const std::exception& e) {
                UNSCOPED_INFO(e.what());
                ++failed;
            }
        });
    for (auto& t : daemons)
        t.join();
    CHECK(opened == 3);
    CHECK(failed == 0);
    const std::string all = std::to_string(postgres_schema_version());
    CHECK(fresh.value("SELECT COUNT(*) FROM schema_migrations") == all);
    CHECK(fresh.value("SELECT name FROM schema_migrations WHERE version = 10") ==
          "several_platforms");
    // Opening an up-to-date database changes nothing.
    fresh.open();
    CHECK(fresh.value("SELECT COUNT(*) FROM schema_migrations") == all);
}
