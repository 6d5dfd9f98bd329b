#include "ghostpost/storage/sqlite.h"

#include <sqlite3.h>

namespace ghostpost::storage {

int check(int rc, sqlite3* db) {
    if (rc == SQLITE_OK || rc == SQLITE_ROW || rc == SQLITE_DONE)
        return rc;
    std::string message = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    throw SqliteError(rc, "sqlite: " + message);
}

Database::Database(const std::string& path, const DatabaseOptions& options) {
    int rc = sqlite3_open_v2(path.c_str(), &db_,
                             SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                             nullptr);
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
    } catch (...) {
        sqlite3_close(db_);
        throw;
    }
}

Database::~Database() { sqlite3_close(db_); }

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

std::int64_t Database::last_insert_rowid() const { return sqlite3_last_insert_rowid(db_); }

int Database::changes() const { return sqlite3_changes(db_); }

Statement::Statement(Database& db, std::string_view sql) : db_(db.handle()) {
    check(sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt_, nullptr), db_);
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

Statement& Statement::bind(int index, std::int64_t value) {
    check(sqlite3_bind_int64(stmt_, index, value), db_);
    return *this;
}

Statement& Statement::bind(int index, std::string_view text) {
    check(sqlite3_bind_text64(stmt_, index, text.data(), text.size(), SQLITE_TRANSIENT,
                              SQLITE_UTF8),
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

bool Statement::step() { return check(sqlite3_step(stmt_), db_) == SQLITE_ROW; }

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

std::int64_t Statement::column_int(int column) const { return sqlite3_column_int64(stmt_, column); }

double Statement::column_real(int column) const { return sqlite3_column_double(stmt_, column); }

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

Transaction::Transaction(Database& db) : db_(db) { db_.exec("BEGIN IMMEDIATE"); }

Transaction::~Transaction() {
    if (done_)
        return;
    // Never throws: a failed rollback leaves SQLite to roll back when the connection closes.
    sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit() {
    db_.exec("COMMIT");
    done_ = true;
}

} // namespace ghostpost::storage
