// The PostgreSQL backend: several daemons on one database. libpq's types stay private to
// storage/postgres/; this header names none of them.
#pragma once

#include "ghostpost/storage/error.h"

#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace ghostpost::storage {

class Store;

// A PostgreSQL call failed. `sqlstate()` is the server's five-character code ("40001"), empty
// when the connection itself failed; kind() says what it means: serialization failures and
// deadlocks are Conflict, lock and statement timeouts Busy, integrity violations Constraint,
// lost connections and exhausted resources Io.
class PostgresError : public StorageError {
public:
    PostgresError(const std::string& sqlstate, const std::string& message);
    const std::string& sqlstate() const { return sqlstate_; }

private:
    std::string sqlstate_;
};

struct PostgresOptions {
    // The password, kept out of the URL so that no printable string carries it. Empty: libpq's
    // own means (the URL, PGPASSWORD, ~/.pgpass).
    std::string password;
    // How long a statement may wait for a row another transaction holds before it fails as
    // Busy (a daemon stuck while holding a game must not stall every other one).
    int lock_timeout_ms = 10000;
    // Called on every commit of the connection, so a test can count them. May be empty.
    std::function<void()> on_commit;
    // Called on every request the connection sends and waits for (a round trip to the server:
    // a statement, a statement's preparation, BEGIN, COMMIT) with its SQL, so a test can count
    // them and say which. May be empty.
    std::function<void(std::string_view sql)> on_round_trip;
};

// Connects to the database `url` names ("postgresql://user@host:port/db", or any libpq
// connection string; libpq's PG* environment variables fill in what it leaves out) and
// migrates it to the current schema; several daemons may do so at once. Errors:
// PostgresError; std::runtime_error when the database is newer than this program.
std::unique_ptr<Store> open_postgres_store(const std::string& url,
                                           const PostgresOptions& options = {});

// The schema version open_postgres_store migrates to (the same as sqlite_schema_version).
int postgres_schema_version();

} // namespace ghostpost::storage
