// The SQLite backend: the embedded default, one daemon per database file. Its schema is the
// files in storage/sqlite/migrations/; a database migrated before schema_migrations existed
// says its version in PRAGMA user_version, which is still kept for it.
#include "ghostpost/storage/sqlite.h"
#include "migrate.h"
#include "sql_store.h"

namespace ghostpost::storage {

namespace {

constexpr sql::Migration migrations[] = {
#include "sqlite_migrations.inc"
};

struct SqliteDriver {
    using Database = storage::Database;
    using Statement = storage::Statement;
    using Transaction = storage::Transaction;
    using SchemaTransaction = storage::Transaction;
    struct RelaxedTransaction : storage::Transaction {
        explicit RelaxedTransaction(Database& db) : storage::Transaction(db, Durability::Relaxed) {}
    };

    static constexpr bool shared = false;
    // BEGIN IMMEDIATE takes the one write lock before the first read: nothing to hold by row.
    static constexpr const char* for_update = "";
    static constexpr const char* skip_locked = "";
    static constexpr const char* insertion_order = "rowid";
    // SQLite's own hint: a unary + keeps the planner off the column's index.
    static std::string unindexed(const char* column) { return std::string("+") + column; }
    // No server to wait for: everything runs at once.
    static void send(Statement& s) { s.run(); }
    static void exec_ahead(Database& db, std::string_view sql) { db.exec(sql); }
    static void abandon(Database&) {}
    // Nothing to save by reading ahead what may not be asked for: each runs when stepped.
    static constexpr bool pipelined = false;
    static void together(Database&, std::initializer_list<Statement*>) {}

    static void lock_schema(Database&) {}

    static int recorded_version(Database& db) {
        db.exec("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, "
                "name TEXT NOT NULL, applied_at INTEGER NOT NULL)");
        Statement s(db, "SELECT COALESCE(MAX(version), 0) FROM schema_migrations");
        s.step();
        const int recorded = static_cast<int>(s.column_int(0));
        const int user_version = db.user_version();
        // Migrated by a program from before the table: its versions are recorded as applied
        // at an unknown time (0).
        if (user_version > recorded && user_version <= static_cast<int>(std::size(migrations)))
            for (int v = recorded + 1; v <= user_version; ++v) {
                Statement insert(db, "INSERT INTO schema_migrations (version, name, applied_at) "
                                     "VALUES (?1, ?2, 0)");
                insert.bind(1, v).bind(2, migrations[v - 1].name).run();
            }
        return std::max(recorded, user_version);
    }

    static void record(Database& db, const sql::Migration& m) {
        Statement s(db, "INSERT INTO schema_migrations (version, name, applied_at) VALUES "
                        "(?1, ?2, CAST(strftime('%s', 'now') AS INTEGER))");
        s.bind(1, m.version).bind(2, m.name).run();
        db.set_user_version(m.version);
    }
};

class SqliteStore final : public sql::SqlStore<SqliteDriver> {
public:
    SqliteStore(const std::string& path, const DatabaseOptions& options) : SqlStore(path, options) {
        sql::migrate<SqliteDriver>(db_, migrations);
    }
};

} // namespace

int sqlite_schema_version() {
    return static_cast<int>(std::size(migrations));
}

std::unique_ptr<Store> open_sqlite_store(const std::string& path, const DatabaseOptions& options) {
    return std::make_unique<SqliteStore>(path, options);
}

} // namespace ghostpost::storage
