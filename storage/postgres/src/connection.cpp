#include "connection.h"

#include <charconv>
#include <cstdlib>
#include <libpq-fe.h>
#include <random>

namespace ghostpost::storage {

namespace {

// The server's SQLSTATE classes (PostgreSQL's appendix A), as our kinds.
StorageError::Kind kind_of(const std::string& sqlstate) {
    if (sqlstate == "40001" || sqlstate == "40P01")
        return StorageError::Kind::Conflict; // serialization failure, deadlock
    if (sqlstate == "55P03" || sqlstate == "57014")
        return StorageError::Kind::Busy; // lock not available, statement timeout
    if (sqlstate.starts_with("23"))
        return StorageError::Kind::Constraint;
    if (sqlstate.empty() || sqlstate.starts_with("08") || sqlstate.starts_with("53") ||
        sqlstate.starts_with("57") || sqlstate.starts_with("58"))
        return StorageError::Kind::Io; // connection, resources, shutdown, system errors
    return StorageError::Kind::Other;
}

// Oids of the built-in types the parameters use (pg_type.dat).
constexpr unsigned int int8_oid = 20;
constexpr unsigned int text_oid = 25;
constexpr unsigned int bytea_oid = 17;
constexpr unsigned int float8_oid = 701;

void ignore_notice(void*, const char*) {}

} // namespace

PostgresError::PostgresError(const std::string& sqlstate, const std::string& message)
    : StorageError(kind_of(sqlstate), message), sqlstate_(sqlstate) {}

namespace pg {

std::string dollar_parameters(std::string_view sql) {
    std::string out;
    out.reserve(sql.size());
    bool quoted = false;
    for (std::size_t i = 0; i < sql.size(); ++i) {
        const char c = sql[i];
        if (c == '\'')
            quoted = !quoted; // '' inside a literal toggles twice
        if (!quoted && c == '?' && i + 1 < sql.size() && sql[i + 1] >= '0' && sql[i + 1] <= '9')
            out += '$';
        else
            out += c;
    }
    return out;
}

Connection::Connection(const std::string& url, const PostgresOptions& options)
    : url_(url), options_(options) {
    open();
}

Connection::~Connection() {
    PQfinish(conn_);
}

void Connection::open() {
    // The URL is expanded as a connection string; the password, when given, travels apart
    // from it, so that no string that might be printed carries it.
    const char* keywords[] = {"dbname", "password", "application_name", nullptr};
    const char* values[] = {url_.c_str(),
                            options_.password.empty() ? nullptr : options_.password.c_str(),
                            "ghostpost", nullptr};
    if (options_.password.empty()) {
        keywords[1] = "application_name";
        values[1] = "ghostpost";
        keywords[2] = nullptr;
    }
    PQfinish(conn_);
    drop_held();
    prepared_.clear();
    ahead_.clear();
    pipeline_ = false;
    conn_ = PQconnectdbParams(keywords, values, 1);
    if (conn_ == nullptr)
        throw PostgresError("", "postgres: out of memory");
    if (PQstatus(conn_) != CONNECTION_OK)
        fail(nullptr);
    PQsetNoticeProcessor(conn_, ignore_notice, nullptr); // "already exists, skipping" etc.
    exec("SET lock_timeout = " + std::to_string(options_.lock_timeout_ms));
    // SERIALIZABLE transactions keep what they read locked for conflict checks; a sequential
    // scan locks the whole table, and then nearly every transaction of another daemon
    // conflicts with it. Every query of the store has an index (the scale tests check SQLite's
    // plans), so the planner is told to use them even on a table small enough to scan
    // (PostgreSQL's manual, "Serializable Isolation Level", gives the same advice).
    exec("SET enable_seqscan = off");
    hold_session_lock();
}

void Connection::hold_session_lock() {
    // A random key of 63 bits: two daemons' connections meet on one only by a chance too small
    // to count, and then the second simply draws again.
    static thread_local std::mt19937_64 draw{std::random_device{}()};
    for (;;) {
        const auto key = static_cast<std::int64_t>(draw() >> 1);
        if (key == 0)
            continue; // 0 names no session: an owner from before sessions were recorded
        const std::string sql = "SELECT pg_try_advisory_lock(" + std::to_string(key) + ")";
        pg_result* r = PQexec(conn_, sql.c_str());
        if (PQresultStatus(r) != PGRES_TUPLES_OK)
            fail(r);
        const bool taken = std::string_view(PQgetvalue(r, 0, 0)) == "t";
        PQclear(r);
        if (taken) {
            session_ = key;
            return;
        }
    }
}

void Connection::ensure_open() {
    if (PQstatus(conn_) == CONNECTION_OK)
        return;
    open();
}

void Connection::fail(pg_result* result) {
    std::string sqlstate;
    std::string message;
    if (result != nullptr) {
        if (const char* code = PQresultErrorField(result, PG_DIAG_SQLSTATE))
            sqlstate = code;
        if (const char* text = PQresultErrorField(result, PG_DIAG_MESSAGE_PRIMARY))
            message = text;
        PQclear(result);
    }
    if (message.empty())
        message = PQerrorMessage(conn_);
    while (!message.empty() && (message.back() == '\n' || message.back() == ' '))
        message.pop_back();
    // A broken connection answers with no SQLSTATE; it is opened again before the next use.
    if (PQstatus(conn_) != CONNECTION_OK)
        sqlstate.clear();
    throw PostgresError(sqlstate, "postgres: " + message);
}

void Connection::exec(std::string_view sql) {
    write_held();
    if (pipeline_) {
        // The simple query protocol is not allowed in a pipeline: one statement, extended.
        if (PQsendQueryParams(conn_, std::string(sql).c_str(), 0, nullptr, nullptr, nullptr,
                              nullptr, 0) != 1)
            fail(nullptr);
        ahead_.push_back({std::string(sql), {}});
        settle(sql);
        return;
    }
    if (!in_transaction_)
        ensure_open();
    round_trip(sql);
    PGresult* result = PQexec(conn_, std::string(sql).c_str());
    const auto status = PQresultStatus(result);
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK)
        fail(result);
    PQclear(result);
}

void Connection::exec_ahead(std::string_view sql) {
    write_held();
    if (!in_transaction_)
        return exec(sql);
    enter_pipeline();
    if (PQsendQueryParams(conn_, std::string(sql).c_str(), 0, nullptr, nullptr, nullptr, nullptr,
                          0) != 1)
        fail(nullptr);
    ahead_.push_back({std::string(sql), {}});
}

void Connection::enter_pipeline() {
    if (pipeline_)
        return;
    if (PQenterPipelineMode(conn_) != 1)
        fail(nullptr);
    pipeline_ = true;
}

namespace {

// Reads up to and including the answer to the pipeline's Sync, dropping every result. False
// when the connection broke on the way.
bool drain_to_sync(PGconn* conn) {
    for (int idle = 0; idle < 2;) {
        PGresult* r = PQgetResult(conn);
        if (r == nullptr) {
            if (PQstatus(conn) != CONNECTION_OK)
                return false;
            ++idle; // between two requests' answers; two in a row: nothing more will come
            continue;
        }
        idle = 0;
        const bool synced = PQresultStatus(r) == PGRES_PIPELINE_SYNC;
        PQclear(r);
        if (synced)
            return true;
    }
    return false;
}

} // namespace

void Connection::read_answers(pg_result** error) {
    if (PQpipelineSync(conn_) == 1) {
        for (std::size_t i = 0; i < ahead_.size(); ++i) {
            while (PGresult* r = PQgetResult(conn_)) {
                const auto status = PQresultStatus(r);
                const bool ok = status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK;
                // A preparation that failed or was skipped (an earlier request failed) is not
                // there on the server: prepare it again next time.
                if (!ok && !ahead_[i].prepared_key.empty())
                    prepared_.erase(ahead_[i].prepared_key);
                if (status == PGRES_FATAL_ERROR && *error == nullptr)
                    *error = r;
                else if (ok && ahead_[i].owner != nullptr && ahead_[i].owner->result_ == nullptr)
                    ahead_[i].owner->take(r);
                else
                    PQclear(r);
            }
        }
        drain_to_sync(conn_);
    }
    ahead_.clear();
    if (PQstatus(conn_) == CONNECTION_OK)
        PQexitPipelineMode(conn_);
    pipeline_ = false;
}

void Connection::settle(std::string_view sql) {
    std::string named(sql);
    if (ahead_.size() > 1) {
        // What went with it, for the count's listing: the other requests, short.
        named += "  [with:";
        for (const Ahead& a : ahead_)
            if (a.sql != sql)
                named += " " + a.sql.substr(0, 24) + " |";
        named.back() = ']';
    }
    round_trip(named);
    PGresult* error = nullptr;
    const std::vector<Ahead> asked = ahead_;
    read_answers(&error);
    if (error != nullptr || PQstatus(conn_) != CONNECTION_OK)
        fail(error);
    for (const Ahead& a : asked)
        if (a.owner != nullptr && a.owner->result_ == nullptr)
            fail(nullptr); // no answer and no error: the connection cannot be trusted
}

void Connection::run_together(std::initializer_list<Statement*> statements) {
    write_held();
    if (!in_transaction_ && !pipeline_)
        ensure_open();
    for (Statement* s : statements)
        s->queue(true);
    settle((*statements.begin())->sql_);
}

void Connection::abandon() noexcept {
    drop_held();
    if (!pipeline_)
        return;
    if (PQstatus(conn_) != CONNECTION_OK) {
        ahead_.clear();
        pipeline_ = false;
        return;
    }
    PGresult* error = nullptr;
    read_answers(&error);
    PQclear(error);
}

Statement::Statement(Connection& db, std::string_view sql)
    : db_(db), sql_(dollar_parameters(sql)) {}

Statement::~Statement() {
    // Queued but never answered (an error cut the pipeline short): its answer has nobody to go to.
    for (Connection::Ahead& a : db_.ahead_)
        if (a.owner == this)
            a.owner = nullptr;
    PQclear(result_);
}

Statement::Parameter& Statement::at(int index) {
    const auto i = static_cast<std::size_t>(index - 1);
    if (parameters_.size() <= i)
        parameters_.resize(i + 1);
    return parameters_[i];
}

Statement& Statement::bind(int index, std::int64_t value) {
    at(index) = {std::to_string(value), int8_oid, false};
    return *this;
}

Statement& Statement::bind(int index, std::string_view text) {
    at(index) = {std::string(text), text_oid, false};
    return *this;
}

Statement& Statement::bind_blob(int index, const std::vector<std::uint8_t>& bytes) {
    at(index) = {std::string(bytes.begin(), bytes.end()), bytea_oid, true};
    return *this;
}

Statement& Statement::bind_null(int index) {
    at(index) = {};
    return *this;
}

Statement& Statement::bind_real(int index, double value) {
    char buffer[64];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr; // round-trips
    at(index) = {std::string(buffer, end), float8_oid, false};
    return *this;
}

Statement::Bound Statement::bound() const {
    Bound b;
    for (const Parameter& p : parameters_) {
        b.types.push_back(p.type);
        b.values.push_back(p.value ? p.value->data() : nullptr);
        b.lengths.push_back(p.value ? static_cast<int>(p.value->size()) : 0);
        b.formats.push_back(p.binary ? 1 : 0);
    }
    return b;
}

void Statement::queue(bool wait) {
    db_.enter_pipeline();
    PGconn* conn = db_.conn_;
    const Bound b = bound();
    std::string key = sql_;
    for (const unsigned int type : b.types)
        key += '\x1f' + std::to_string(type);
    auto [it, inserted] = db_.prepared_.try_emplace(key);
    if (inserted) {
        it->second = "s" + std::to_string(++db_.statements_named_);
        if (PQsendPrepare(conn, it->second.c_str(), sql_.c_str(), static_cast<int>(b.types.size()),
                          b.types.data()) != 1) {
            db_.prepared_.erase(it);
            db_.fail(nullptr);
        }
        db_.ahead_.push_back({"PREPARE " + sql_, key});
    }
    if (PQsendQueryPrepared(conn, it->second.c_str(), static_cast<int>(b.values.size()),
                            b.values.data(), b.lengths.data(), b.formats.data(), 0) != 1)
        db_.fail(nullptr);
    db_.ahead_.push_back({sql_, {}, wait ? this : nullptr});
}

void Statement::take(pg_result* result) {
    result_ = result;
    rows_ = PQntuples(result);
    row_ = -1;
    const char* changed = PQcmdTuples(result);
    db_.changes_ = changed != nullptr && *changed != '\0' ? std::atoi(changed) : 0;
}

bool Statement::step() {
    if (result_ == nullptr) {
        db_.write_held();
        if (!db_.in_transaction_ && !db_.pipeline_)
            db_.ensure_open();
        // In a pipeline even alone: a statement not yet prepared is prepared in the same
        // round trip.
        queue(true);
        db_.settle(sql_);
    }
    return ++row_ < rows_;
}

void Statement::send() {
    if (!db_.in_transaction_)
        return run();
    queue(false);
}

void Statement::run() {
    while (step()) {
    }
}

bool Statement::is_null(int column) const {
    return PQgetisnull(result_, row_, column) != 0;
}

std::int64_t Statement::column_int(int column) const {
    const char* text = PQgetvalue(result_, row_, column);
    if (text[0] == 't')
        return 1;
    if (text[0] == 'f')
        return 0;
    std::int64_t value = 0;
    std::from_chars(text, text + PQgetlength(result_, row_, column), value);
    return value;
}

double Statement::column_real(int column) const {
    return std::strtod(PQgetvalue(result_, row_, column), nullptr);
}

std::string Statement::column_text(int column) const {
    return std::string(PQgetvalue(result_, row_, column),
                       static_cast<std::size_t>(PQgetlength(result_, row_, column)));
}

std::vector<std::uint8_t> Statement::column_blob(int column) const {
    if (is_null(column))
        return {};
    std::size_t size = 0;
    unsigned char* bytes = PQunescapeBytea(
        reinterpret_cast<const unsigned char*>(PQgetvalue(result_, row_, column)), &size);
    if (bytes == nullptr)
        throw PostgresError("", "postgres: cannot decode a bytea value");
    std::vector<std::uint8_t> out(bytes, bytes + size);
    PQfreemem(bytes);
    return out;
}

Transaction::Transaction(Connection& db, bool serializable) : db_(db) {
    db_.ensure_open();
    db_.in_transaction_ = true;
    try {
        // Nobody waits for BEGIN: it goes with the transaction's first request. But a schema
        // transaction runs scripts of several statements, which a pipeline cannot carry.
        if (serializable)
            db_.exec_ahead("BEGIN ISOLATION LEVEL SERIALIZABLE");
        else
            db_.exec("BEGIN");
    } catch (...) {
        db_.in_transaction_ = false;
        db_.abandon();
        throw;
    }
}

Transaction::~Transaction() {
    if (done_)
        return;
    db_.in_transaction_ = false;
    db_.abandon();
    // Never throws: on a broken connection the server has already rolled back.
    if (PQstatus(db_.conn_) == CONNECTION_OK)
        PQclear(PQexec(db_.conn_, "ROLLBACK"));
}

void Transaction::commit() {
    done_ = true; // a failed COMMIT ends the transaction too
    // COMMIT goes to the transaction's own connection, never to a new one.
    struct Ended {
        Connection& db;
        ~Ended() { db.in_transaction_ = false; }
    } ended{db_};
    try {
        db_.exec("COMMIT");
    } catch (...) {
        // A request sent ahead failed, so the COMMIT behind it never ran: the transaction is
        // still open, in error, and is ended here.
        db_.abandon();
        const auto state = PQtransactionStatus(db_.conn_);
        if (state == PQTRANS_INERROR || state == PQTRANS_INTRANS)
            PQclear(PQexec(db_.conn_, "ROLLBACK"));
        throw;
    }
    db_.committed();
}

} // namespace pg

} // namespace ghostpost::storage
