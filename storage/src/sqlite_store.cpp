// The SQLite backend of Store. Schema changes are migrations numbered by PRAGMA user_version:
// migration i takes a database from version i to i + 1, inside one transaction.
#include "ghostpost/storage/store.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <stdexcept>

namespace ghostpost::storage {

namespace {

// Append-only: never edit a migration that has shipped, add the next one.
constexpr std::array migrations{
    R"sql(
CREATE TABLE players (
    id INTEGER PRIMARY KEY,
    platform TEXT NOT NULL,
    user_id TEXT NOT NULL,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    orientation TEXT NOT NULL DEFAULT 'auto',
    notation TEXT NOT NULL DEFAULT 'ascii',
    UNIQUE (platform, user_id)
);
CREATE INDEX players_by_name ON players (platform, name_key);

CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    variant TEXT NOT NULL,
    options TEXT NOT NULL,
    platform TEXT NOT NULL,
    channel TEXT NOT NULL,
    challenger INTEGER NOT NULL REFERENCES players (id),
    challenged TEXT NOT NULL,
    challenger_color TEXT NOT NULL,
    white INTEGER REFERENCES players (id),
    black INTEGER REFERENCES players (id),
    status TEXT NOT NULL,
    result TEXT NOT NULL DEFAULT '',
    reason TEXT NOT NULL DEFAULT '',
    seed BLOB NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX games_by_channel ON games (platform, channel, status);

CREATE TABLE actions (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games (id),
    ply INTEGER NOT NULL,
    seat TEXT NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players (id),
    text TEXT NOT NULL,
    message_id TEXT NOT NULL,
    taken_back INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX actions_live_ply ON actions (game_id, ply) WHERE taken_back = 0;

CREATE TABLE handled_posts (
    platform TEXT NOT NULL,
    channel TEXT NOT NULL,
    message_id TEXT NOT NULL,
    handled_at INTEGER NOT NULL,
    PRIMARY KEY (platform, channel, message_id)
);

CREATE TABLE cursors (
    platform TEXT PRIMARY KEY,
    cursor TEXT NOT NULL
);

CREATE TABLE outbox (
    id INTEGER PRIMARY KEY,
    platform TEXT NOT NULL,
    to_user INTEGER NOT NULL,
    destination TEXT NOT NULL,
    text TEXT NOT NULL,
    code TEXT NOT NULL,
    png BLOB,
    reply_to TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending',
    last_error TEXT NOT NULL DEFAULT '',
    sent_at INTEGER
);
CREATE INDEX outbox_pending ON outbox (platform, state, next_attempt_at);

CREATE TABLE offers (
    game_id INTEGER NOT NULL REFERENCES games (id),
    kind TEXT NOT NULL,
    seat TEXT NOT NULL,
    ply INTEGER NOT NULL,
    PRIMARY KEY (game_id, kind)
);
)sql",
    // 2: a player may ask for boards as images by default.
    R"sql(
ALTER TABLE players ADD COLUMN images INTEGER NOT NULL DEFAULT 0;
)sql",
    // 3: what to say in the game's channel when a private message cannot be delivered.
    R"sql(
ALTER TABLE outbox ADD COLUMN notice_channel TEXT NOT NULL DEFAULT '';
ALTER TABLE outbox ADD COLUMN blocked_notice TEXT NOT NULL DEFAULT '';
)sql",
};

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string seat_text(rules::Seat s) { return std::string(rules::seat_name(s)); }
rules::Seat seat_from(const std::string& s) {
    return s == "black" ? rules::Seat::Black : rules::Seat::White;
}

std::string_view offer_text(OfferKind k) { return k == OfferKind::Draw ? "draw" : "takeback"; }

constexpr std::array status_names{"challenge", "ongoing",   "finished",
                                  "declined",  "cancelled", "aborted"};

GameStatus status_from(const std::string& s) {
    for (std::size_t i = 0; i < status_names.size(); ++i)
        if (s == status_names[i])
            return static_cast<GameStatus>(i);
    throw std::runtime_error("storage: unknown game status " + s);
}

// Options as "name=value" lines: names and values never hold a newline or '='.
std::string encode_options(const rules::Options& options) {
    std::string out;
    for (const auto& [name, value] : options)
        out += name + "=" + value + "\n";
    return out;
}

rules::Options decode_options(const std::string& text) {
    rules::Options out;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos)
            end = text.size();
        std::string line = text.substr(start, end - start);
        auto eq = line.find('=');
        if (eq != std::string::npos)
            out[line.substr(0, eq)] = line.substr(eq + 1);
        start = end + 1;
    }
    return out;
}

constexpr const char* game_columns =
    "id, variant, options, platform, channel, challenger, challenged, challenger_color, white, "
    "black, status, result, reason, seed, created_at";

GameRecord read_game(const Statement& s) {
    GameRecord g;
    g.id = s.column_int(0);
    g.variant = s.column_text(1);
    g.options = decode_options(s.column_text(2));
    g.platform = s.column_text(3);
    g.channel = s.column_text(4);
    g.challenger = s.column_int(5);
    g.challenged = s.column_text(6);
    g.challenger_color = s.column_text(7);
    if (!s.is_null(8))
        g.white = s.column_int(8);
    if (!s.is_null(9))
        g.black = s.column_int(9);
    g.status = status_from(s.column_text(10));
    g.result = s.column_text(11);
    g.reason = s.column_text(12);
    g.seed = s.column_blob(13);
    g.created_at = s.column_int(14);
    return g;
}

constexpr const char* player_columns = "id, platform, user_id, name, orientation, notation, images";

PlayerRecord read_player(const Statement& s) {
    PlayerRecord p;
    p.id = s.column_int(0);
    p.platform = s.column_text(1);
    p.user_id = s.column_text(2);
    p.name = s.column_text(3);
    p.orientation = s.column_text(4);
    p.notation = s.column_text(5);
    p.images = s.column_int(6) != 0;
    return p;
}

// "status IN (?, ?, ...)" with the statuses inlined: they come from our enum, never from users.
std::string status_in(const std::vector<GameStatus>& statuses) {
    std::string out = "status IN (";
    for (std::size_t i = 0; i < statuses.size(); ++i)
        out += std::string(i ? ", '" : "'") + status_names[static_cast<std::size_t>(statuses[i])] +
               "'";
    return out + (statuses.empty() ? "'')" : ")");
}

class SqliteStore final : public Store {
public:
    SqliteStore(const std::string& path, const DatabaseOptions& options) : db_(path, options) {
        migrate();
    }

    void transaction(const std::function<void()>& work) override {
        Transaction t(db_);
        work();
        t.commit();
    }

    bool post_handled(const std::string& platform, const std::string& channel,
                      const std::string& message_id) override {
        Statement s(db_, "SELECT 1 FROM handled_posts WHERE platform = ?1 AND channel = ?2 AND "
                         "message_id = ?3");
        s.bind(1, platform).bind(2, channel).bind(3, message_id);
        return s.step();
    }

    void mark_post_handled(const std::string& platform, const std::string& channel,
                           const std::string& message_id, std::int64_t now) override {
        Statement s(db_, "INSERT INTO handled_posts (platform, channel, message_id, handled_at) "
                         "VALUES (?1, ?2, ?3, ?4)");
        s.bind(1, platform).bind(2, channel).bind(3, message_id).bind(4, now).run();
    }

    std::optional<std::string> cursor(const std::string& platform) override {
        Statement s(db_, "SELECT cursor FROM cursors WHERE platform = ?1");
        s.bind(1, platform);
        if (!s.step())
            return std::nullopt;
        return s.column_text(0);
    }

    void set_cursor(const std::string& platform, const std::string& cursor) override {
        Statement s(db_, "INSERT INTO cursors (platform, cursor) VALUES (?1, ?2) "
                         "ON CONFLICT (platform) DO UPDATE SET cursor = excluded.cursor");
        s.bind(1, platform).bind(2, cursor).run();
    }

    PlayerRecord upsert_player(const std::string& platform, const std::string& user_id,
                               const std::string& name) override {
        Statement s(db_, "INSERT INTO players (platform, user_id, name, name_key) "
                         "VALUES (?1, ?2, ?3, ?4) ON CONFLICT (platform, user_id) DO UPDATE "
                         "SET name = excluded.name, name_key = excluded.name_key");
        s.bind(1, platform).bind(2, user_id).bind(3, name).bind(4, lower(name)).run();
        Statement q(db_, std::string("SELECT ") + player_columns +
                             " FROM players WHERE platform = ?1 AND user_id = ?2");
        q.bind(1, platform).bind(2, user_id);
        q.step();
        return read_player(q);
    }

    std::optional<PlayerRecord> player(std::int64_t id) override {
        Statement s(db_, std::string("SELECT ") + player_columns + " FROM players WHERE id = ?1");
        s.bind(1, id);
        if (!s.step())
            return std::nullopt;
        return read_player(s);
    }

    std::optional<PlayerRecord> player_by_name(const std::string& platform,
                                               const std::string& name) override {
        Statement s(db_, std::string("SELECT ") + player_columns +
                             " FROM players WHERE platform = ?1 AND name_key = ?2 "
                             "ORDER BY id DESC LIMIT 1");
        s.bind(1, platform).bind(2, lower(name));
        if (!s.step())
            return std::nullopt;
        return read_player(s);
    }

    void save_player_settings(const PlayerRecord& p) override {
        Statement s(db_, "UPDATE players SET orientation = ?1, notation = ?2, images = ?3 WHERE id = ?4");
        s.bind(1, p.orientation).bind(2, p.notation).bind(3, p.images ? 1 : 0).bind(4, p.id).run();
    }

    std::int64_t create_game(const GameRecord& g) override {
        Statement s(db_, "INSERT INTO games (variant, options, platform, channel, challenger, "
                         "challenged, challenger_color, white, black, status, result, reason, "
                         "seed, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, "
                         "?11, ?12, ?13, ?14) RETURNING id");
        s.bind(1, g.variant).bind(2, encode_options(g.options)).bind(3, g.platform);
        s.bind(4, g.channel).bind(5, g.challenger).bind(6, g.challenged);
        s.bind(7, g.challenger_color);
        bind_seats(s, 8, g);
        s.bind(10, status_name(g.status)).bind(11, g.result).bind(12, g.reason);
        s.bind_blob(13, g.seed).bind(14, g.created_at);
        s.step();
        std::int64_t id = s.column_int(0);
        s.run();
        return id;
    }

    std::optional<GameRecord> game(std::int64_t id) override {
        Statement s(db_, std::string("SELECT ") + game_columns + " FROM games WHERE id = ?1");
        s.bind(1, id);
        if (!s.step())
            return std::nullopt;
        return read_game(s);
    }

    void update_game(const GameRecord& g) override {
        Statement s(db_, "UPDATE games SET white = ?1, black = ?2, status = ?3, result = ?4, "
                         "reason = ?5, challenger_color = ?6 WHERE id = ?7");
        bind_seats(s, 1, g);
        s.bind(3, status_name(g.status)).bind(4, g.result).bind(5, g.reason);
        s.bind(6, g.challenger_color).bind(7, g.id).run();
        if (db_.changes() != 1)
            throw std::logic_error("storage: no game " + std::to_string(g.id) + " to update");
    }

    std::vector<GameRecord> games_in_channel(const std::string& platform,
                                             const std::string& channel,
                                             const std::vector<GameStatus>& statuses) override {
        Statement s(db_, std::string("SELECT ") + game_columns +
                             " FROM games WHERE platform = ?1 AND channel = ?2 AND " +
                             status_in(statuses) + " ORDER BY id");
        s.bind(1, platform).bind(2, channel);
        std::vector<GameRecord> out;
        while (s.step())
            out.push_back(read_game(s));
        return out;
    }

    std::vector<GameRecord> games_of_player(const PlayerRecord& p,
                                            const std::vector<GameStatus>& statuses) override {
        Statement s(db_, std::string("SELECT ") + game_columns +
                             " FROM games WHERE platform = ?1 AND (white = ?2 OR black = ?2 OR "
                             "challenger = ?2 OR (challenged = ?3 AND challenged <> '')) AND " +
                             status_in(statuses) + " ORDER BY id");
        s.bind(1, p.platform).bind(2, p.id).bind(3, lower(p.name));
        std::vector<GameRecord> out;
        while (s.step())
            out.push_back(read_game(s));
        return out;
    }

    void append_action(const ActionRecord& a) override {
        Statement s(db_, "INSERT INTO actions (game_id, ply, seat, player_id, text, message_id) "
                         "VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
        s.bind(1, a.game_id).bind(2, a.ply).bind(3, seat_text(a.seat)).bind(4, a.player_id);
        s.bind(5, a.text).bind(6, a.message_id).run();
    }

    std::vector<ActionRecord> actions(std::int64_t game_id) override {
        Statement s(db_, "SELECT game_id, ply, seat, player_id, text, message_id FROM actions "
                         "WHERE game_id = ?1 AND taken_back = 0 ORDER BY ply");
        s.bind(1, game_id);
        std::vector<ActionRecord> out;
        while (s.step()) {
            ActionRecord a;
            a.game_id = s.column_int(0);
            a.ply = static_cast<int>(s.column_int(1));
            a.seat = seat_from(s.column_text(2));
            a.player_id = s.column_int(3);
            a.text = s.column_text(4);
            a.message_id = s.column_text(5);
            out.push_back(std::move(a));
        }
        return out;
    }

    int action_count(std::int64_t game_id) override {
        Statement s(db_, "SELECT COUNT(*) FROM actions WHERE game_id = ?1 AND taken_back = 0");
        s.bind(1, game_id);
        s.step();
        return static_cast<int>(s.column_int(0));
    }

    void take_back(std::int64_t game_id, int from_ply) override {
        Statement s(db_, "UPDATE actions SET taken_back = 1 WHERE game_id = ?1 AND ply >= ?2 AND "
                         "taken_back = 0");
        s.bind(1, game_id).bind(2, from_ply).run();
    }

    void put_offer(std::int64_t game_id, const Offer& o) override {
        Statement s(db_, "INSERT INTO offers (game_id, kind, seat, ply) VALUES (?1, ?2, ?3, ?4) "
                         "ON CONFLICT (game_id, kind) DO UPDATE SET seat = excluded.seat, "
                         "ply = excluded.ply");
        s.bind(1, game_id).bind(2, offer_text(o.kind)).bind(3, seat_text(o.seat)).bind(4, o.ply);
        s.run();
    }

    std::optional<Offer> offer(std::int64_t game_id, OfferKind kind) override {
        Statement s(db_, "SELECT seat, ply FROM offers WHERE game_id = ?1 AND kind = ?2");
        s.bind(1, game_id).bind(2, offer_text(kind));
        if (!s.step())
            return std::nullopt;
        return Offer{kind, seat_from(s.column_text(0)), static_cast<int>(s.column_int(1))};
    }

    void clear_offer(std::int64_t game_id, OfferKind kind) override {
        Statement s(db_, "DELETE FROM offers WHERE game_id = ?1 AND kind = ?2");
        s.bind(1, game_id).bind(2, offer_text(kind)).run();
    }

    std::int64_t enqueue(const OutgoingMessage& m, std::int64_t now) override {
        Statement s(db_, "INSERT INTO outbox (platform, to_user, destination, text, code, png, "
                         "reply_to, created_at, next_attempt_at, notice_channel, blocked_notice) "
                         "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8, ?9, ?10) RETURNING id");
        s.bind(1, m.platform).bind(2, m.to_user ? 1 : 0).bind(3, m.destination).bind(4, m.text);
        s.bind(5, m.code);
        if (m.png.empty())
            s.bind_null(6);
        else
            s.bind_blob(6, m.png);
        s.bind(7, m.reply_to).bind(8, now).bind(9, m.notice_channel).bind(10, m.blocked_notice);
        s.step();
        std::int64_t id = s.column_int(0);
        s.run();
        return id;
    }

    std::vector<OutboxEntry> due(const std::string& platform, std::int64_t now,
                                 int limit) override {
        Statement s(db_,
                    "SELECT id, platform, to_user, destination, text, code, png, reply_to, "
                    "attempts, next_attempt_at, notice_channel, blocked_notice FROM outbox e "
                    "WHERE e.platform = ?1 AND "
                    "e.state = 'pending' AND e.next_attempt_at <= ?2 AND NOT EXISTS (SELECT 1 "
                    "FROM outbox o WHERE o.platform = e.platform AND o.to_user = e.to_user AND "
                    "o.destination = e.destination AND o.state = 'pending' AND o.id < e.id AND "
                    "o.next_attempt_at > ?2) ORDER BY e.id LIMIT ?3");
        s.bind(1, platform).bind(2, now).bind(3, limit);
        std::vector<OutboxEntry> out;
        while (s.step()) {
            OutboxEntry e;
            e.id = s.column_int(0);
            e.message.platform = s.column_text(1);
            e.message.to_user = s.column_int(2) != 0;
            e.message.destination = s.column_text(3);
            e.message.text = s.column_text(4);
            e.message.code = s.column_text(5);
            e.message.png = s.column_blob(6);
            e.message.reply_to = s.column_text(7);
            e.attempts = static_cast<int>(s.column_int(8));
            e.next_attempt_at = s.column_int(9);
            e.message.notice_channel = s.column_text(10);
            e.message.blocked_notice = s.column_text(11);
            out.push_back(std::move(e));
        }
        return out;
    }

    void mark_sent(std::int64_t id, std::int64_t now) override {
        Statement s(db_, "UPDATE outbox SET state = 'sent', sent_at = ?2, attempts = attempts + 1 "
                         "WHERE id = ?1");
        s.bind(1, id).bind(2, now).run();
    }

    void reschedule(std::int64_t id, std::int64_t next_attempt_at,
                    const std::string& error) override {
        Statement s(db_, "UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ?2, "
                         "last_error = ?3 WHERE id = ?1");
        s.bind(1, id).bind(2, next_attempt_at).bind(3, error).run();
    }

    void give_up(std::int64_t id, const std::string& error) override {
        Statement s(db_, "UPDATE outbox SET state = 'given_up', attempts = attempts + 1, "
                         "last_error = ?2 WHERE id = ?1");
        s.bind(1, id).bind(2, error).run();
    }

    int pending_count(const std::string& platform) override {
        Statement s(db_, "SELECT COUNT(*) FROM outbox WHERE platform = ?1 AND state = 'pending'");
        s.bind(1, platform);
        s.step();
        return static_cast<int>(s.column_int(0));
    }

private:
    static void bind_seats(Statement& s, int first, const GameRecord& g) {
        if (g.white)
            s.bind(first, *g.white);
        else
            s.bind_null(first);
        if (g.black)
            s.bind(first + 1, *g.black);
        else
            s.bind_null(first + 1);
    }

    void migrate() {
        Transaction t(db_);
        int version = db_.user_version();
        if (version > sqlite_schema_version())
            throw std::runtime_error("storage: the database has schema version " +
                                     std::to_string(version) + ", newer than this program's " +
                                     std::to_string(sqlite_schema_version()));
        for (int v = version; v < sqlite_schema_version(); ++v)
            db_.exec(migrations[static_cast<std::size_t>(v)]);
        if (version != sqlite_schema_version())
            db_.set_user_version(sqlite_schema_version());
        t.commit();
    }

    Database db_;
};

} // namespace

std::string_view status_name(GameStatus s) { return status_names[static_cast<std::size_t>(s)]; }

int sqlite_schema_version() { return static_cast<int>(migrations.size()); }

std::unique_ptr<Store> open_sqlite_store(const std::string& path, const DatabaseOptions& options) {
    return std::make_unique<SqliteStore>(path, options);
}

} // namespace ghostpost::storage
