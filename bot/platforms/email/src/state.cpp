#include "state.h"

#include <fstream>
#include <sqlite3.h>
#include <stdexcept>

namespace ghostpost::bot::email_detail {

namespace {

sqlite3* db(void* handle) {
    return static_cast<sqlite3*>(handle);
}

std::string random_hex(std::size_t bytes) {
    std::ifstream random("/dev/urandom", std::ios::binary);
    std::string raw(bytes, '\0');
    if (!random.read(raw.data(), static_cast<std::streamsize>(bytes)))
        throw std::runtime_error("e-mail state: /dev/urandom could not be read");
    static const char hex[] = "0123456789abcdef";
    std::string out;
    for (const char ch : raw) {
        const auto c = static_cast<unsigned char>(ch);
        out += hex[c >> 4];
        out += hex[c & 15];
    }
    return out;
}

} // namespace

MailState::MailState(const std::filesystem::path& file) {
    sqlite3* handle = nullptr;
    if (sqlite3_open(file.c_str(), &handle) != SQLITE_OK) {
        const std::string why = handle ? sqlite3_errmsg(handle) : "out of memory";
        sqlite3_close(handle);
        throw std::runtime_error("e-mail state " + file.string() + ": " + why);
    }
    db_ = handle;
    sqlite3_busy_timeout(handle, 5000);
    exec("CREATE TABLE IF NOT EXISTS members (channel TEXT NOT NULL, address TEXT NOT NULL, "
         "PRIMARY KEY (channel, address))",
         {});
    exec("CREATE TABLE IF NOT EXISTS subjects (channel TEXT PRIMARY KEY, subject TEXT NOT NULL)",
         {});
    exec("CREATE TABLE IF NOT EXISTS sent (message_id TEXT PRIMARY KEY)", {});
    exec("CREATE TABLE IF NOT EXISTS failing (address TEXT PRIMARY KEY)", {});
    exec("CREATE TABLE IF NOT EXISTS attempts (message_id TEXT PRIMARY KEY, at INTEGER NOT NULL)",
         {});
    exec("CREATE TABLE IF NOT EXISTS notices (message_id TEXT PRIMARY KEY, address TEXT NOT NULL, "
         "raw TEXT NOT NULL, queued_at INTEGER NOT NULL, done INTEGER NOT NULL DEFAULT 0)",
         {});
    exec("CREATE INDEX IF NOT EXISTS notices_by_address ON notices (address, queued_at)", {});
    exec("CREATE TABLE IF NOT EXISTS games (game INTEGER PRIMARY KEY)", {});
    exec("CREATE TABLE IF NOT EXISTS followers (game INTEGER NOT NULL, address TEXT NOT NULL, "
         "PRIMARY KEY (game, address))",
         {});
    exec("CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)", {});
    exec("INSERT OR IGNORE INTO meta (name, value) VALUES ('reply_key_secret', ?1)",
         {random_hex(32)});
    const auto secret = column("SELECT value FROM meta WHERE name = ?1", "reply_key_secret");
    if (secret.empty())
        throw std::runtime_error("e-mail state " + file.string() + ": no reply key secret");
    secret_ = secret.front();
}

MailState::~MailState() {
    sqlite3_close(db(db_));
}

void MailState::exec(const char* sql, const std::vector<std::string>& values) const {
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(db(db_), sql, -1, &statement, nullptr) != SQLITE_OK)
        throw std::runtime_error(std::string("e-mail state: ") + sqlite3_errmsg(db(db_)));
    for (std::size_t i = 0; i < values.size(); ++i)
        sqlite3_bind_text(statement, static_cast<int>(i + 1), values[i].c_str(),
                          static_cast<int>(values[i].size()), SQLITE_TRANSIENT);
    const int rc = sqlite3_step(statement);
    sqlite3_finalize(statement);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        throw std::runtime_error(std::string("e-mail state: ") + sqlite3_errmsg(db(db_)));
}

std::vector<std::string> MailState::column(const char* sql, const std::string& value) const {
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(db(db_), sql, -1, &statement, nullptr) != SQLITE_OK)
        throw std::runtime_error(std::string("e-mail state: ") + sqlite3_errmsg(db(db_)));
    sqlite3_bind_text(statement, 1, value.c_str(), static_cast<int>(value.size()),
                      SQLITE_TRANSIENT);
    std::vector<std::string> out;
    int rc = SQLITE_ROW;
    while ((rc = sqlite3_step(statement)) == SQLITE_ROW)
        out.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(statement, 0)));
    sqlite3_finalize(statement);
    if (rc != SQLITE_DONE)
        throw std::runtime_error(std::string("e-mail state: ") + sqlite3_errmsg(db(db_)));
    return out;
}

void MailState::add_member(const std::string& channel, const std::string& address) {
    exec("INSERT OR IGNORE INTO members (channel, address) VALUES (?1, ?2)", {channel, address});
}

std::vector<std::string> MailState::members(const std::string& channel) const {
    return column("SELECT address FROM members WHERE channel = ?1 ORDER BY address", channel);
}

void MailState::keep_subject(const std::string& channel, const std::string& subject) {
    exec("INSERT OR IGNORE INTO subjects (channel, subject) VALUES (?1, ?2)", {channel, subject});
}

std::string MailState::subject(const std::string& channel) const {
    const auto found = column("SELECT subject FROM subjects WHERE channel = ?1", channel);
    return found.empty() ? std::string() : found.front();
}

void MailState::remember_sent(const std::string& message_id) {
    exec("INSERT OR IGNORE INTO sent (message_id) VALUES (?1)", {message_id});
}

bool MailState::sent(const std::string& message_id) const {
    return !column("SELECT message_id FROM sent WHERE message_id = ?1", message_id).empty();
}

void MailState::set_failing(const std::string& address, bool is_failing) {
    if (is_failing)
        exec("INSERT OR IGNORE INTO failing (address) VALUES (?1)", {address});
    else
        exec("DELETE FROM failing WHERE address = ?1", {address});
}

bool MailState::failing(const std::string& address) const {
    return !column("SELECT address FROM failing WHERE address = ?1", address).empty();
}

void MailState::remember_attempt(const std::string& message_id, std::int64_t now) {
    exec("INSERT OR REPLACE INTO attempts (message_id, at) VALUES (?1, CAST(?2 AS INTEGER))",
         {message_id, std::to_string(now)});
}

std::optional<std::int64_t> MailState::attempted(const std::string& message_id) const {
    const auto at =
        column("SELECT CAST(at AS TEXT) FROM attempts WHERE message_id = ?1", message_id);
    if (at.empty())
        return std::nullopt;
    return std::stoll(at.front());
}

void MailState::forget_attempt(const std::string& message_id) {
    exec("DELETE FROM attempts WHERE message_id = ?1", {message_id});
}

bool MailState::queue_notice(const Notice& notice, std::int64_t now, std::int64_t interval,
                             bool limited) {
    // Sent notices older than the window limit nothing any more.
    exec("DELETE FROM notices WHERE done = 1 AND queued_at <= CAST(?1 AS INTEGER)",
         {std::to_string(now - interval)});
    // One statement, so that the check and the insert cannot be torn apart by a crash.
    exec("INSERT OR IGNORE INTO notices (message_id, address, raw, queued_at) "
         "SELECT ?1, ?2, ?3, CAST(?4 AS INTEGER) WHERE ?6 = '0' OR NOT EXISTS (SELECT 1 FROM "
         "notices WHERE address = ?2 AND queued_at > CAST(?5 AS INTEGER))",
         {notice.message_id, notice.address, notice.raw, std::to_string(now),
          std::to_string(now - interval), limited ? "1" : "0"});
    return sqlite3_changes(db(db_)) > 0;
}

void MailState::remember_game(std::int64_t game) {
    exec("INSERT OR IGNORE INTO games (game) VALUES (CAST(?1 AS INTEGER))", {std::to_string(game)});
}

bool MailState::knows_game(std::int64_t game) const {
    return !column("SELECT game FROM games WHERE game = CAST(?1 AS INTEGER)", std::to_string(game))
                .empty();
}

void MailState::add_follower(std::int64_t game, const std::string& address) {
    exec("INSERT OR IGNORE INTO followers (game, address) VALUES (CAST(?1 AS INTEGER), ?2)",
         {std::to_string(game), address});
}

bool MailState::remove_follower(std::int64_t game, const std::string& address) {
    exec("DELETE FROM followers WHERE game = CAST(?1 AS INTEGER) AND address = ?2",
         {std::to_string(game), address});
    return sqlite3_changes(db(db_)) > 0;
}

std::vector<std::string> MailState::followers(std::int64_t game) const {
    return column("SELECT address FROM followers WHERE game = CAST(?1 AS INTEGER) ORDER BY address",
                  std::to_string(game));
}

std::vector<MailState::Notice> MailState::pending_notices() const {
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(db(db_),
                           "SELECT message_id, address, raw FROM notices WHERE done = 0 ORDER BY "
                           "queued_at, message_id",
                           -1, &statement, nullptr) != SQLITE_OK)
        throw std::runtime_error(std::string("e-mail state: ") + sqlite3_errmsg(db(db_)));
    std::vector<Notice> out;
    const auto text = [&](int i) {
        return std::string(reinterpret_cast<const char*>(sqlite3_column_text(statement, i)));
    };
    int rc = SQLITE_ROW;
    while ((rc = sqlite3_step(statement)) == SQLITE_ROW)
        out.push_back({text(0), text(1), text(2)});
    sqlite3_finalize(statement);
    if (rc != SQLITE_DONE)
        throw std::runtime_error(std::string("e-mail state: ") + sqlite3_errmsg(db(db_)));
    return out;
}

void MailState::notice_done(const std::string& message_id) {
    exec("UPDATE notices SET done = 1 WHERE message_id = ?1", {message_id});
}

} // namespace ghostpost::bot::email_detail
