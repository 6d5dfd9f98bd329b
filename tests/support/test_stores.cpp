#include "test_stores.h"

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <libpq-fe.h>
#include <stdexcept>
#include <unistd.h>

namespace ghostpost::testing {

namespace {

// Runs one statement on a connection of its own (schemas are made and dropped outside the
// stores under test).
void admin(const std::string& sql) {
    PGconn* conn = PQconnectdb(postgres_test_url().c_str());
    if (PQstatus(conn) != CONNECTION_OK) {
        const std::string error = PQerrorMessage(conn);
        PQfinish(conn);
        throw std::runtime_error("test postgres: " + error);
    }
    PQsetNoticeProcessor(
        conn, [](void*, const char*) {}, nullptr); // "drop cascades to..."
    PGresult* result = PQexec(conn, sql.c_str());
    const bool ok = PQresultStatus(result) == PGRES_COMMAND_OK;
    const std::string error = PQerrorMessage(conn);
    PQclear(result);
    PQfinish(conn);
    if (!ok)
        throw std::runtime_error("test postgres: " + sql + ": " + error);
}

} // namespace

std::string postgres_test_url() {
    if (const char* url = std::getenv("GHOSTPOST_TEST_POSTGRES_URL"); url != nullptr && *url)
        return url;
    std::ifstream state(GHOSTPOST_TEST_POSTGRES_STATE);
    std::string line;
    while (std::getline(state, line))
        if (line.starts_with("url="))
            return line.substr(4);
    throw std::runtime_error("no PostgreSQL test cluster: " GHOSTPOST_TEST_POSTGRES_STATE
                             " is missing (ctest starts it with the postgres fixture)");
}

FreshStore::FreshStore(Backend backend, const std::string& stem, bool open_now)
    : backend_(backend) {
    static std::atomic<int> counter{0};
    const std::string unique = std::to_string(::getpid()) + "_" + std::to_string(counter++);
    if (backend == Backend::Sqlite) {
        path_ = (std::filesystem::temp_directory_path() / (stem + "-" + unique + ".db")).string();
    } else {
        schema_ = "test_" + unique;
        admin("DROP SCHEMA IF EXISTS " + schema_ + " CASCADE; CREATE SCHEMA " + schema_);
        const std::string base = postgres_test_url();
        url_ = base + (base.find('?') == std::string::npos ? "?" : "&") +
               "options=-csearch_path%3D" + schema_;
    }
    if (open_now)
        store = open();
}

std::string FreshStore::value(const std::string& sql) const {
    if (backend_ == Backend::Sqlite) {
        storage::Database db(path_);
        storage::Statement s(db, sql);
        return s.step() ? s.column_text(0) : std::string();
    }
    PGconn* conn = PQconnectdb(url_.c_str());
    PGresult* result = PQexec(conn, sql.c_str());
    std::string out;
    if (PQresultStatus(result) != PGRES_TUPLES_OK) {
        out = PQerrorMessage(conn);
        PQclear(result);
        PQfinish(conn);
        throw std::runtime_error("test postgres: " + sql + ": " + out);
    }
    if (PQntuples(result) > 0)
        out = PQgetvalue(result, 0, 0);
    PQclear(result);
    PQfinish(conn);
    return out;
}

FreshStore::~FreshStore() {
    store.reset();
    if (backend_ == Backend::Sqlite) {
        std::error_code ec;
        for (const char* suffix : {"", "-wal", "-shm", "-journal"})
            std::filesystem::remove(path_ + suffix, ec);
    } else {
        try {
            admin("DROP SCHEMA IF EXISTS " + schema_ + " CASCADE");
        } catch (const std::exception&) {
            // A schema left behind goes with the cluster.
        }
    }
}

std::unique_ptr<storage::Store> FreshStore::open(const storage::DatabaseOptions& sqlite) const {
    if (backend_ == Backend::Sqlite)
        return storage::open_sqlite_store(path_, sqlite);
    return storage::open_postgres_store(url_);
}

} // namespace ghostpost::testing
