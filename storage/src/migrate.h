// The schema of each backend is a folder of numbered SQL files (storage/<backend>/migrations/
// NNNN_what.sql), built into the program in order (storage/embed_migrations.cmake). Migration N
// takes a database from version N - 1 to N in one transaction of its own, and the table
// schema_migrations records each one applied. Both folders carry the same numbers: a new
// migration is one file in each, in each backend's own words.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

namespace ghostpost::storage::sql {

struct Migration {
    int version;
    const char* name; // the file's name without its number and ".sql"
    const char* sql;
};

// Applies the migrations `db` lacks, each in its own transaction. `D` is the backend's driver
// (sql_store.h) with, besides its Database:
//   D::SchemaTransaction        a transaction in which a statement sees what others committed
//                               before it ran (another daemon's migrations)
//   D::lock_schema(db)          within a transaction: wait for any other process migrating
//   D::recorded_version(db)     within a transaction: the version the database is at
//   D::record(db, m)            within the migration's transaction: note `m` as applied, with
//                               the database's own clock (storage has none of its own)
// Errors: std::runtime_error when the database is newer than `migrations`; the backend's
// StorageError when a migration fails (that migration is rolled back, the earlier ones stay).
template <class D> void migrate(typename D::Database& db, std::span<const Migration> migrations) {
    const int known = static_cast<int>(migrations.size());
    const auto checked = [&](int version) {
        if (version > known)
            throw std::runtime_error("storage: the database has schema version " +
                                     std::to_string(version) + ", newer than this program's " +
                                     std::to_string(known));
        return version;
    };
    {
        // An up-to-date database costs one transaction, as it did before the files.
        typename D::SchemaTransaction t(db);
        D::lock_schema(db);
        const int version = checked(D::recorded_version(db));
        t.commit();
        if (version == known)
            return;
    }
    for (const Migration& m : migrations) {
        typename D::SchemaTransaction t(db);
        D::lock_schema(db);
        // Read again under the lock: another daemon may have applied it meanwhile.
        if (checked(D::recorded_version(db)) >= m.version)
            continue; // the transaction rolls back: it changed nothing
        db.exec(m.sql);
        D::record(db, m);
        t.commit();
    }
}

} // namespace ghostpost::storage::sql
