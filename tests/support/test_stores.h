// Stores for tests on either backend: a fresh SQLite file, or a fresh schema in the throw-away
// PostgreSQL cluster that CTest starts (tests/storage/pg_cluster.sh, the `postgres` fixture).
// Set GHOSTPOST_TEST_POSTGRES_URL to run them against another server.
#pragma once

#include "ghostpost/storage/store.h"

#include <memory>
#include <optional>
#include <string>

namespace ghostpost::testing {

enum class Backend { Sqlite, Postgres };

// The URL of the test cluster's database. Errors: std::runtime_error when there is none
// (the cluster was not started: run the tests through CTest).
std::string postgres_test_url();

// A store nobody else uses, removed with this object: a temporary SQLite file, or a schema of
// its own in the test database (every connection of it has that schema as search_path).
class FreshStore {
public:
    // `open_now` false: nothing is made yet (no schema applied, `store` empty).
    explicit FreshStore(Backend backend, const std::string& stem = "ghostpost-test",
                        bool open_now = true);
    ~FreshStore();
    FreshStore(const FreshStore&) = delete;
    FreshStore& operator=(const FreshStore&) = delete;

    // Another connection to the same database, as a second daemon would have.
    std::unique_ptr<storage::Store> open(const storage::DatabaseOptions& sqlite = {}) const;
    // The first column of the first row of `sql` as text, on a connection of its own ("" when
    // no row); for what the Store interface does not show (a backend's bookkeeping).
    std::string value(const std::string& sql) const;
    // Where a daemon's configuration finds it: [storage] url or path.
    const std::string& url() const { return url_; }
    const std::string& path() const { return path_; }
    const char* name() const { return backend_ == Backend::Sqlite ? "sqlite" : "postgres"; }

    std::unique_ptr<storage::Store> store;

private:
    Backend backend_;
    std::string path_;   // SQLite
    std::string url_;    // PostgreSQL, with its schema
    std::string schema_; // PostgreSQL
};

} // namespace ghostpost::testing
