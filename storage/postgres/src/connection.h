// RAII over libpq, shaped like the SQLite wrappers (sqlite.h) so that the shared store
// (sql_store.h) runs on both: parameters written ?1, ?2... become $1, $2..., a statement is
// prepared once per connection and kept, rows are stepped through one by one. Every failure
// becomes a PostgresError through one place.
#pragma once

#include "ghostpost/storage/postgres.h"

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

struct pg_conn;
struct pg_result;

namespace ghostpost::storage::pg {

class Statement;

// One connection. A connection that broke is opened again before the next transaction (or the
// next statement outside one); the statement that met the break fails as Io.
class Connection {
public:
    Connection(const std::string& url, const PostgresOptions& options);
    ~Connection();
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    // Runs one or more statements without parameters or results (one only while statements
    // were sent ahead: it goes with them). Errors: PostgresError, for it or for what was sent
    // ahead.
    void exec(std::string_view sql);
    // Inside a transaction: sends one statement without parameters or results ahead of the
    // next request that waits (exec, a Statement's step, the commit), in the same round trip;
    // its error is raised there. Outside one: exec. Errors: PostgresError.
    void exec_ahead(std::string_view sql);
    // Forgets what was sent ahead and its answers, errors included, leaving the connection
    // ready for a ROLLBACK. Never throws.
    void abandon() noexcept;
    // Runs the statements in one round trip (with what was sent ahead); each is then stepped
    // through as if it had run alone. Errors: PostgresError, the first of them all.
    void run_together(std::initializer_list<Statement*> statements);
    // Writes a caller holds back to merge them: `write` sends them ahead (Statement::send) and
    // is called before every request that waits or marks a point of the transaction (exec,
    // exec_ahead, run_together, a Statement's step), so they keep their place before it; `drop`
    // forgets them when what was sent ahead is abandoned or the connection opened again.
    void hold_writes(std::function<void()> write, std::function<void()> drop) {
        write_held_ = std::move(write);
        drop_held_ = std::move(drop);
    }
    // Rows changed by the last statement run through a Statement.
    int changes() const { return changes_; }
    // The key of the session advisory lock this connection holds from its start (a new one
    // each time it is opened again): what a lease or a claim names, so that others see it
    // free the moment the connection dies.
    std::int64_t session() const { return session_; }
    void committed() const {
        if (options_.on_commit)
            options_.on_commit();
    }
    void round_trip(std::string_view sql) const {
        if (options_.on_round_trip)
            options_.on_round_trip(sql);
    }

private:
    friend class Statement;
    friend class Transaction;
    // Opens the connection again when it broke, unless a transaction is open on it (its work
    // is lost with the connection: the caller must start it again). Errors: PostgresError.
    void ensure_open();
    void open();
    void hold_session_lock();
    // Throws the PostgresError `result` describes (or the connection's own when it has none).
    [[noreturn]] void fail(pg_result* result);
    // Libpq's pipeline mode: requests queued without waiting for their answers.
    void enter_pipeline();
    // Sends a Sync and reads the answers of everything queued, each statement waiting for its
    // own taking it; the first error among them all is thrown. Counted as one round trip named
    // by `sql`.
    void settle(std::string_view sql);

    // A request sent ahead: its SQL (for the count of round trips) and, for a preparation,
    // the key under which prepared_ remembers it (forgotten again if it failed).
    struct Ahead {
        std::string sql;
        std::string prepared_key;
        Statement* owner = nullptr; // the statement that waits for the answer, if any
    };
    std::vector<Ahead> ahead_;
    bool pipeline_ = false;
    // Reads the answers of what was sent ahead, then the Sync's. The first error is handed
    // over, each successful answer a statement waits for is given to it, the rest cleared.
    void read_answers(pg_result** error);
    std::function<void()> write_held_, drop_held_;
    bool writing_held_ = false;
    void write_held() {
        if (!write_held_ || writing_held_)
            return;
        writing_held_ = true;
        struct Done {
            bool& flag;
            ~Done() { flag = false; }
        } done{writing_held_};
        write_held_();
    }
    void drop_held() noexcept {
        if (drop_held_)
            drop_held_();
    }
    int statements_named_ = 0; // names are never used twice, even for a statement forgotten

    std::string url_;
    PostgresOptions options_;
    pg_conn* conn_ = nullptr;
    // Prepared statement names by SQL and parameter types: the server keeps the plans.
    std::unordered_map<std::string, std::string> prepared_;
    int changes_ = 0;
    std::int64_t session_ = 0;
    // A transaction is open: a broken connection must fail its statements, not be replaced
    // under them (the new one would run the rest outside the transaction).
    bool in_transaction_ = false;
};

// A statement with parameters, run when first stepped. Parameters are numbered from 1,
// columns from 0, as in the SQLite wrapper.
class Statement {
public:
    Statement(Connection& db, std::string_view sql);
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

    // Runs the statement on the first call; true while a row is ready. Errors: PostgresError.
    bool step();
    void run();
    // Inside a transaction: sends the statement ahead of the next request that waits, in the
    // same round trip, for a write whose answer nobody reads (not even changes()); its error
    // is raised there, still inside the transaction. Outside one: run().
    void send();

    bool is_null(int column) const;
    std::int64_t column_int(int column) const; // booleans read as 1 and 0
    double column_real(int column) const;
    std::string column_text(int column) const;
    std::vector<std::uint8_t> column_blob(int column) const;

private:
    struct Parameter {
        std::optional<std::string> value;
        unsigned int type = 0; // the Oid; 0: let the server infer it (a NULL)
        bool binary = false;
    };
    Parameter& at(int index);
    // The values, lengths and formats of the parameters, for libpq.
    struct Bound {
        std::vector<unsigned int> types;
        std::vector<const char*> values;
        std::vector<int> lengths;
        std::vector<int> formats;
    };
    Bound bound() const;
    friend class Connection;
    // Queues the statement (and its preparation when new) on the pipeline; `wait`: its answer
    // is taken when the pipeline settles.
    void queue(bool wait);
    void take(pg_result* result);

    Connection& db_;
    std::string sql_;
    std::vector<Parameter> parameters_;
    pg_result* result_ = nullptr;
    int row_ = -1;
    int rows_ = 0;
};

// BEGIN ISOLATION LEVEL SERIALIZABLE: each post's transaction sees the database as if it ran
// alone, as with SQLite's one writer; a transaction that would break that fails as Conflict
// and is run again. The destructor rolls back unless commit() ran, and never throws.
class Transaction {
public:
    // `serializable` false: READ COMMITTED, where each statement sees what others committed
    // before it (a migration waiting for another daemon's must then see its tables).
    explicit Transaction(Connection& db, bool serializable = true);
    ~Transaction();
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    void commit();

private:
    Connection& db_;
    bool done_ = false;
};

// "?12" -> "$12" outside string literals: the shared SQL is written for SQLite's numbering.
std::string dollar_parameters(std::string_view sql);

} // namespace ghostpost::storage::pg
