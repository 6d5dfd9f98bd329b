// The PostgreSQL backend: the shared SQL of sql_store.h over libpq, and what several daemons
// on one database need besides: leases (who polls a platform), claims on outbox entries (who
// delivers them), and row locks on games (whose post goes first). Its schema is the files in
// storage/postgres/migrations/.
#include "connection.h"
#include "migrate.h"
#include "sql_store.h"

#include <stdexcept>

namespace ghostpost::storage {

namespace {

constexpr sql::Migration migrations[] = {
#include "postgres_migrations.inc"
};

// Any number the daemons agree on: the advisory lock that makes migrations one at a time.
constexpr const char* schema_lock = "SELECT pg_advisory_xact_lock(7420656)";

// The keys of the session locks every connection holds (pg::Connection::session): the sessions
// alive now. A bigint key is split by the server into classid (high half) and objid.
constexpr const char* live_sessions =
    "SELECT (classid::bigint << 32) | objid::bigint FROM pg_locks WHERE locktype = 'advisory' "
    "AND objsubid = 1 AND granted";

struct PostgresDriver {
    using Database = pg::Connection;
    using Statement = pg::Statement;
    using Transaction = pg::Transaction;
    struct SchemaTransaction : pg::Transaction {
        explicit SchemaTransaction(pg::Connection& db) : pg::Transaction(db, false) {}
    };
    // The server writes the commit to its log and answers without waiting for the flush: a
    // killed daemon loses nothing of it, a crash of the server itself may lose its last
    // fraction of a second. One round trip more than a durable transaction, none waited on disk.
    struct RelaxedTransaction : pg::Transaction {
        explicit RelaxedTransaction(pg::Connection& db) : pg::Transaction(db) {
            db.exec_ahead("SET LOCAL synchronous_commit = off");
        }
    };

    static constexpr bool shared = true;
    static constexpr const char* for_update = " FOR UPDATE";
    static constexpr const char* skip_locked = " FOR UPDATE SKIP LOCKED";
    static constexpr const char* insertion_order = "seq";
    // An expression of the column: PostgreSQL's planner matches indexes to plain columns only.
    static std::string unindexed(const char* column) {
        return "(" + std::string(column) + " || '')";
    }
    // A write nobody reads the answer of goes with the next request that waits.
    static void send(Statement& s) { s.send(); }
    static void exec_ahead(Database& db, std::string_view sql) { db.exec_ahead(sql); }
    static void abandon(Database& db) { db.abandon(); }
    static void hold_writes(Database& db, std::function<void()> write, std::function<void()> drop) {
        db.hold_writes(std::move(write), std::move(drop));
    }
    // Reads that go together are one round trip; what a post will read of a game it locks is
    // read with the lock.
    static constexpr bool pipelined = true;
    static void together(Database& db, std::initializer_list<Statement*> statements) {
        db.run_together(statements);
    }

    static void lock_schema(Database& db) { db.exec(schema_lock); }

    static int recorded_version(Database& db) {
        db.exec("CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, "
                "name TEXT NOT NULL, applied_at BIGINT NOT NULL)");
        Statement s(db, "SELECT COALESCE(MAX(version), 0) FROM schema_migrations");
        s.step();
        return static_cast<int>(s.column_int(0));
    }

    static void record(Database& db, const sql::Migration& m) {
        Statement s(db, "INSERT INTO schema_migrations (version, name, applied_at) VALUES "
                        "(?1, ?2, CAST(EXTRACT(EPOCH FROM now()) AS BIGINT))");
        s.bind(1, m.version).bind(2, m.name).run();
    }
};

class PostgresStore final : public sql::SqlStore<PostgresDriver> {
public:
    PostgresStore(const std::string& url, const PostgresOptions& options) : SqlStore(url, options) {
        sql::migrate<PostgresDriver>(db_, migrations);
    }

    bool hold_lease(const std::string& name, const std::string& holder, std::int64_t now,
                    std::int64_t expires_at) override {
        // One statement, so it is atomic without a transaction of its own: the row is taken
        // when it is new, ours, run out, or its holder's database session is gone (the daemon
        // died: its connections closed).
        Statement s(db_,
                    std::string("INSERT INTO leases (name, holder, expires_at, session) "
                                "VALUES (?1, ?2, ?4, ?5) ON CONFLICT (name) DO UPDATE SET "
                                "holder = excluded.holder, expires_at = excluded.expires_at, "
                                "session = excluded.session WHERE leases.holder = "
                                "excluded.holder OR leases.expires_at <= ?3 OR (leases.session "
                                "<> 0 AND leases.session NOT IN (") +
                        live_sessions + ")) RETURNING holder");
        s.bind(1, name).bind(2, holder).bind(3, now).bind(4, expires_at).bind(5, db_.session());
        const bool held = s.step();
        s.run();
        return held;
    }

    std::int64_t take_shared_slot(const std::string& key, int per_second, int burst) override {
        // A generic cell rate algorithm on one row: a call is due at `next_at_ms` less the
        // burst's allowance, and moves it one spacing on from then or from now, whichever is
        // later. Calls spaced T apart with B early fit 1 + B + 1000 / T in any second; T is
        // chosen so that this is `per_second`. One statement, atomic without a transaction of
        // its own; the server's clock, so daemons on machines whose clocks differ agree.
        if (per_second < burst + 2)
            throw std::invalid_argument("storage: a shared limit needs more calls a second than "
                                        "its burst and one");
        const std::int64_t spacing = (1000 + per_second - burst - 2) / (per_second - burst - 1);
        // Outside a transaction (READ COMMITTED): daemons taking slots at once wait for the
        // row in turn instead of failing as a serializable transaction would.
        Statement s(db_, "INSERT INTO shared_limits AS l (key, next_at_ms) VALUES (?1, "
                         "(extract(epoch FROM statement_timestamp()) * 1000)::bigint + ?2) "
                         "ON CONFLICT (key) DO UPDATE SET next_at_ms = GREATEST(l.next_at_ms, "
                         "(extract(epoch FROM statement_timestamp()) * 1000)::bigint) + ?2 "
                         "RETURNING GREATEST(0, next_at_ms - ?2 * (1 + ?3) - "
                         "(extract(epoch FROM statement_timestamp()) * 1000)::bigint)");
        s.bind(1, key).bind(2, spacing).bind(3, burst);
        return s.step() ? s.column_int(0) : 0;
    }

    void release_lease(const std::string& name, const std::string& holder) override {
        Statement s(db_, "DELETE FROM leases WHERE name = ?1 AND holder = ?2");
        s.bind(1, name).bind(2, holder).run();
    }

    std::vector<OutboxEntry> claim_due(const std::string& platform, std::int64_t now, int limit,
                                       const std::string& holder,
                                       std::int64_t claimed_until) override {
        // As `due`, less what another live sender holds and whatever waits behind it to the
        // same destination; SKIP LOCKED passes over rows another sender is claiming right now.
        // A sender is live while its claim runs and its database session lasts: a claim of a
        // daemon that died is free at once.
        Statement s(
            db_,
            std::string("WITH live AS (") + live_sessions +
                ") UPDATE outbox SET claimed_by = ?4, claimed_until = ?5, claimed_session = ?6 "
                "WHERE id IN (SELECT e.id FROM outbox e WHERE e.platform = ?1 AND e.state = "
                "'pending' AND e.next_attempt_at <= ?2 AND (e.claimed_until <= ?2 OR e.claimed_by "
                "= ?4 OR (e.claimed_session <> 0 AND e.claimed_session NOT IN (SELECT * FROM "
                "live))) AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.platform = e.platform AND "
                "o.to_user = e.to_user AND o.destination = e.destination AND o.state = 'pending' "
                "AND o.id < e.id AND (o.next_attempt_at > ?2 OR (o.claimed_until > ?2 AND "
                "o.claimed_by <> ?4 AND (o.claimed_session = 0 OR o.claimed_session IN (SELECT * "
                "FROM live))))) ORDER BY e.id LIMIT ?3 FOR UPDATE SKIP LOCKED) RETURNING id, "
                "platform, to_user, destination, text, code, png, reply_to, attempts, "
                "next_attempt_at, notice_channel, blocked_notice, created_at, buttons, named, "
                "ends_game");
        s.bind(1, platform)
            .bind(2, now)
            .bind(3, limit)
            .bind(4, holder)
            .bind(5, claimed_until)
            .bind(6, db_.session());
        std::vector<OutboxEntry> out;
        while (s.step())
            out.push_back(sql::read_outbox_entry(s));
        std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
        return out;
    }

    void unclaim(const std::vector<std::int64_t>& ids, const std::string& holder) override {
        for (const std::int64_t id : ids) {
            Statement s(db_, "UPDATE outbox SET claimed_by = '', claimed_until = 0 WHERE id = ?1 "
                             "AND claimed_by = ?2 AND state = 'pending'");
            s.bind(1, id).bind(2, holder).run();
        }
    }

    void reschedule(std::int64_t id, std::int64_t next_attempt_at,
                    const std::string& error) override {
        // The entry is free again for whichever sender finds it due next.
        Statement s(db_, "UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?2, "
                         "last_error = ?3, claimed_by = '', claimed_until = 0 WHERE id = ?1");
        s.bind(1, id).bind(2, next_attempt_at).bind(3, error).run();
    }
};

} // namespace

int postgres_schema_version() {
    return static_cast<int>(std::size(migrations));
}

std::unique_ptr<Store> open_postgres_store(const std::string& url, const PostgresOptions& options) {
    return std::make_unique<PostgresStore>(url, options);
}

} // namespace ghostpost::storage
