// Thin RAII wrappers over the SQLite C API. Every failing call becomes a SqliteError through
// one check(); nothing else in the project touches a sqlite3 handle. The C headers stay private
// to storage/, so the handles are only forward-declared here.
#pragma once

#include "ghostpost/storage/error.h"

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace ghostpost::storage {

// An SQLite call failed. `code()` is the extended result code (SQLITE_BUSY, SQLITE_CONSTRAINT...);
// kind() what it means to a caller: BUSY and LOCKED are Busy, CONSTRAINT is Constraint, the
// codes of an unreadable or unwritable file are Io.
class SqliteError : public StorageError {
public:
    SqliteError(int code, const std::string& message);
    int code() const { return code_; }

private:
    int code_;
};

class Statement;

// How a database is opened. `synchronous_full` is the durable default: a committed post
// survives a power cut. Tests may turn it off for speed.
struct DatabaseOptions {
    int busy_timeout_ms = 5000;
    bool synchronous_full = true;
    bool wal = true;
    // Called with the SQL of every statement compiled (not for one taken from the cache), so a
    // test can check each query's plan. May be empty.
    std::function<void(std::string_view sql)> on_prepare;
    // Called on every durable commit of the connection (each one an fsync when synchronous is
    // FULL; a relaxed transaction's commit is not one), so a test can count them. May be
    // empty; must not touch the database.
    std::function<void()> on_commit;
};

// How far a committed transaction is safe: from a power cut (Full), or from a killed process
// only (Relaxed).
enum class Durability { Full, Relaxed };

// One connection. Opening creates the file when missing, enables WAL, foreign keys, the busy
// timeout and the synchronous level. Errors: SqliteError when the file cannot be opened.
class Database {
public:
    explicit Database(const std::string& path, const DatabaseOptions& options = {});
    ~Database();
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;

    // Runs one or more statements without results. Errors: SqliteError.
    void exec(std::string_view sql);
    int user_version();
    void set_user_version(int version);
    std::int64_t last_insert_rowid() const;
    int changes() const;
    sqlite3* handle() const { return db_; }

    // A statement for `sql` from this connection's cache, compiled on first use: the same as
    // `Statement(*this, sql)`, which always goes through the cache. Errors: SqliteError when the
    // SQL does not compile.
    Statement prepare_cached(std::string_view sql);

private:
    friend class Statement;
    // Compiled statements not in use, by their SQL. A Statement takes one out while it lives
    // and gives it back reset, with its bindings cleared; two live statements of the same SQL
    // (nested queries) simply compile a second copy.
    std::unordered_map<std::string, sqlite3_stmt*> cache_;
    friend class Transaction;
    void use(Durability durability);
    DatabaseOptions options_;
    sqlite3* db_ = nullptr;
    bool relaxed_ = false; // a relaxed transaction is open: its commit is not flushed
};

// Throws SqliteError carrying the connection's message unless `rc` is SQLITE_OK, SQLITE_ROW or
// SQLITE_DONE; returns `rc` otherwise.
int check(int rc, sqlite3* db);

// A prepared statement. Parameters are numbered from 1, columns from 0. It comes from the
// connection's statement cache and goes back to it when destroyed: reset, bindings cleared.
class Statement {
public:
    // Errors: SqliteError when the SQL does not compile.
    Statement(Database& db, std::string_view sql);
    ~Statement();
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    Statement& bind(int index, std::int64_t value);
    Statement& bind(int index, int value) { return bind(index, static_cast<std::int64_t>(value)); }
    Statement& bind(int index, std::string_view text);
    Statement& bind(int index, const char* text) { return bind(index, std::string_view(text)); }
    Statement& bind(int index, const std::string& text) {
        return bind(index, std::string_view(text));
    }
    Statement& bind_blob(int index, const std::vector<std::uint8_t>& bytes);
    Statement& bind_null(int index);
    Statement& bind_real(int index, double value);

    // Advances to the next row: true when one is ready, false when done. Errors: SqliteError.
    bool step();
    // Steps a statement that returns no rows. Errors: SqliteError.
    void run();
    void reset();

    bool is_null(int column) const;
    std::int64_t column_int(int column) const;
    double column_real(int column) const;
    std::string column_text(int column) const;
    std::vector<std::uint8_t> column_blob(int column) const;

private:
    Database& owner_;
    sqlite3* db_;
    std::string sql_;
    sqlite3_stmt* stmt_ = nullptr;
};

// BEGIN IMMEDIATE on construction, so the write lock is taken before any read (two processes
// never deadlock upgrading a read lock). The destructor rolls back unless commit() ran, and
// never throws. Errors: SqliteError from the constructor (busy past the timeout) and commit().
//
// A relaxed transaction commits without an fsync of its own (synchronous=NORMAL for it, in
// WAL mode): its pages are in the log file when commit() returns, so a killed process loses
// nothing of it, but a power cut before the next durable commit may.

class Transaction {
public:
    explicit Transaction(Database& db, Durability durability = Durability::Full);
    ~Transaction();
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    void commit();

private:
    void restore() noexcept;
    Database& db_;
    Durability durability_;
    bool done_ = false;
};

} // namespace ghostpost::storage
