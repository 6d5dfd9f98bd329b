#include "ghostpost/storage/sqlite.h"

#include <sqlite3.h>

namespace ghostpost::storage {

namespace {

StorageError::Kind kind_of(int code) {
    switch (code & 0xff) { // the primary code under the extended one
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return StorageError::Kind::Busy;
    case SQLITE_CONSTRAINT:
        return StorageError::Kind::Constraint;
    case SQLITE_IOERR:
    case SQLITE_FULL:
    case SQLITE_CANTOPEN:
    case SQLITE_READONLY:
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
    case SQLITE_PERM:
        return StorageError::Kind::Io;
    default:
        return StorageError::Kind::Other;
    }
}

} // namespace

SqliteError::SqliteError(int code, const std::string& message)
    : StorageError(kind_of(code), message), code_(code) {}

int check(int rc, sqlite3* db) {
    if (rc == SQLITE_OK || rc == SQLITE_ROW || rc == SQLITE_DONE)
        return rc;
    std::string message = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    throw SqliteError(rc, "sqlite: " + message);
}

namespace {

// A cache that never stops growing would be a leak if some caller built SQL from data; ours
// inline only enum names, so a few dozen entries is all it ever holds.
constexpr std::size_t max_cached_statements = 256;

} // namespace

Database::Database(const std::string& path, const DatabaseOptions& options) : options_(options) {
    int rc =
        sqlite3_open_v2(path.c_str(), &db_,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        std::string message = db_ != nullptr ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
        sqlite3_close(db_);
        db_ = nullptr;
        throw SqliteError(rc, "sqlite: cannot open " + path + ": " + message);
    }
    sqlite3_extended_result_codes(db_, 1);
    try {
        check(sqlite3_busy_timeout(db_, options.busy_timeout_ms), db_);
        if (options.wal)
            exec("PRAGMA journal_mode=WAL");
        exec(options.synchronous_full ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=OFF");
        exec("PRAGMA foreign_keys=ON");
        if (options_.on_commit)
            sqlite3_commit_hook(
                db_,
                [](void* self) {
                    const auto& db = *static_cast<const Database*>(self);
                    if (!db.relaxed_)
                        db.options_.on_commit();
                    return 0; // 0: let the commit go ahead
                },
                this);
    } catch (...) {
        sqlite3_close(db_);
        throw;
    }
}

Database::~Database() {
    for (auto& [sql, stmt] : cache_)
        sqlite3_finalize(stmt);
    sqlite3_close(db_);
}

Statement Database::prepare_cached(std::string_view sql) {
    return Statement(*this, sql);
}

void Database::exec(std::string_view sql) {
    std::string text(sql);
    char* error = nullptr;
    int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &error);
    if (rc != SQLITE_OK) {
        std::string message = error != nullptr ? error : sqlite3_errstr(rc);
        sqlite3_free(error);
        throw SqliteError(rc, "sqlite: " + message);
    }
}

int Database::user_version() {
    Statement s(*this, "PRAGMA user_version");
    s.step();
    return static_cast<int>(s.column_int(0));
}

void Database::set_user_version(int version) {
    exec("PRAGMA user_version=" + std::to_string(version));
}

std::int64_t Database::last_insert_rowid() const {
    return sqlite3_last_insert_rowid(db_);
}

int Database::changes() const {
    return sqlite3_changes(db_);
}

Statement::Statement(Database& db, std::string_view sql) : owner_(db), db_(db.handle()), sql_(sql) {
    if (auto node = owner_.cache_.extract(sql_)) {
        stmt_ = node.mapped();
        return;
    }
    check(sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt_, nullptr), db_);
    if (owner_.options_.on_prepare)
        owner_.options_.on_prepare(sql);
}

Statement::~Statement() {
    if (stmt_ == nullptr)
        return;
    // Reset at once: a statement left mid-rows would hold a read transaction open.
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
    if (owner_.cache_.size() < max_cached_statements &&
        owner_.cache_.try_emplace(std::move(sql_), stmt_).second)
        return;
    sqlite3_finalize(stmt_);
}

Statement& Statement::bind(int index, std::int64_t value) {
    check(sqlite3_bind_int64(stmt_, index, value), db_);
    return *this;
}

Statement& Statement::bind(int index, std::string_view text) {
    check(
        sqlite3_bind_text64(stmt_, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8),
        db_);
    return *this;
}

Statement& Statement::bind_blob(int index, const std::vector<std::uint8_t>& bytes) {
    // A zero-length blob must still be a blob, not NULL: SQLite takes a null pointer as NULL.
    static const std::uint8_t empty = 0;
    const void* data = bytes.empty() ? &empty : bytes.data();
    check(sqlite3_bind_blob64(stmt_, index, data, bytes.size(), SQLITE_TRANSIENT), db_);
    return *this;
}

Statement& Statement::bind_null(int index) {
    check(sqlite3_bind_null(stmt_, index), db_);
    return *this;
}

Statement& Statement::bind_real(int index, double value) {
    check(sqlite3_bind_double(stmt_, index, value), db_);
    return *this;
}

bool Statement::step() {
    return check(sqlite3_step(stmt_), db_) == SQLITE_ROW;
}

void Statement::run() {
    while (step()) {
    }
}

void Statement::reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
}

bool Statement::is_null(int column) const {
    return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

std::int64_t Statement::column_int(int column) const {
    return sqlite3_column_int64(stmt_, column);
}

double Statement::column_real(int column) const {
    return sqlite3_column_double(stmt_, column);
}

std::string Statement::column_text(int column) const {
    const unsigned char* text = sqlite3_column_text(stmt_, column);
    if (text == nullptr)
        return {};
    return std::string(reinterpret_cast<const char*>(text),
                       static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column)));
}

std::vector<std::uint8_t> Statement::column_blob(int column) const {
    const auto* data = static_cast<const std::uint8_t*>(sqlite3_column_blob(stmt_, column));
    auto size = static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column));
    if (data == nullptr)
        return {};
    return std::vector<std::uint8_t>(data, data + size);
}

// The synchronous level is a connection's, and SQLite takes a change only outside a
// transaction. Errors: SqliteError.
void Database::use(Durability durability) {
    const bool relaxed = durability == Durability::Relaxed && options_.synchronous_full;
    if (relaxed == relaxed_)
        return;
    Statement(*this, relaxed ? "PRAGMA synchronous=NORMAL" : "PRAGMA synchronous=FULL").run();
    relaxed_ = relaxed;
}

// BEGIN and COMMIT come from the statement cache too: a post runs one of each. A durable
// transaction makes sure of its level before BEGIN, whatever came before it; a relaxed one
// sets it back at its end, for statements run outside any transaction.
Transaction::Transaction(Database& db, Durability durability) : db_(db), durability_(durability) {
    db_.use(durability);
    Statement(db_, "BEGIN IMMEDIATE").run();
}

Transaction::~Transaction() {
    if (done_)
        return;
    // Never throws: a failed rollback leaves SQLite to roll back when the connection closes.
    sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
    restore();
}

void Transaction::commit() {
    Statement(db_, "COMMIT").run();
    done_ = true;
    restore();
}

void Transaction::restore() noexcept {
    if (durability_ == Durability::Full)
        return;
    try {
        db_.use(Durability::Full);
    } catch (const SqliteError&) {
        // Left relaxed: the next durable transaction sets the level again before it begins.
    }
}

} // namespace ghostpost::storage
