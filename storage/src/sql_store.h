// Store over SQL, for both backends. `D` is a backend's driver: its Database, Statement
// (parameters ?1, ?2..., columns from 0, step/run as in SQLite) and Transaction, and the few
// words where the two dialects differ:
//   D::shared        several daemons may use the database (PostgreSQL), or one (SQLite)
//   D::for_update    what holds a read row until the transaction ends (" FOR UPDATE", or "")
//   D::skip_locked   the same, passing over rows another transaction holds
//   D::unindexed(c)  the column `c` in a filter the planner must not use an index for
//   D::insertion_order  a column that orders rows of game_channels as they were inserted
//   D::RelaxedTransaction  a transaction whose commit survives a killed process, not a power cut
//   D::send(s), D::exec_ahead(db, sql)  a write nobody reads the answer of: PostgreSQL sends it
//                    with the next request that waits (one round trip for both), its error raised
//                    there, still inside the transaction; SQLite runs it at once
//   D::abandon(db)   forgets what was sent ahead and its errors, before a rollback
//   D::pipelined, D::together(db, {&s, ...})  whether statements run together in one round
//                    trip (PostgreSQL), and running them so; each is stepped through after
// The backend's own file adds its migrations and, for PostgreSQL, leases and claims.
#pragma once

#include "ghostpost/storage/store.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace ghostpost::storage::sql {

inline std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

inline std::string seat_text(rules::Seat s) {
    return std::string(rules::seat_name(s));
}
inline rules::Seat seat_from(const std::string& s) {
    return s == "black" ? rules::Seat::Black : rules::Seat::White;
}

inline std::string_view offer_text(OfferKind k) {
    return k == OfferKind::Draw ? "draw" : "takeback";
}

constexpr std::array status_names{"challenge", "ongoing",   "finished",
                                  "declined",  "cancelled", "aborted"};

inline GameStatus status_from(const std::string& s) {
    for (std::size_t i = 0; i < status_names.size(); ++i)
        if (s == status_names[i])
            return static_cast<GameStatus>(i);
    throw std::runtime_error("storage: unknown game status " + s);
}

// Options as "name=value" lines: names and values never hold a newline or '='.
inline std::string encode_options(const rules::Options& options) {
    std::string out;
    for (const auto& [name, value] : options)
        out += name + "=" + value + "\n";
    return out;
}

inline rules::Options decode_options(const std::string& text) {
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

// Pairs as "first<TAB>second" lines; a tab or line break inside either becomes a space.
inline std::string encode_pairs(const std::vector<std::pair<std::string, std::string>>& pairs) {
    const auto clean = [](std::string text) {
        for (char& c : text)
            if (c == '\t' || c == '\n' || c == '\r')
                c = ' ';
        return text;
    };
    std::string out;
    for (const auto& [first, second] : pairs)
        out += clean(first) + "\t" + clean(second) + "\n";
    return out;
}

inline std::vector<std::pair<std::string, std::string>> decode_pairs(const std::string& text) {
    std::vector<std::pair<std::string, std::string>> out;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos)
            end = text.size();
        const std::string line = text.substr(start, end - start);
        if (const auto tab = line.find('\t'); tab != std::string::npos)
            out.emplace_back(line.substr(0, tab), line.substr(tab + 1));
        start = end + 1;
    }
    return out;
}

// A forecast's lines as text: one line per row, its actions separated by tabs (canonical
// texts hold neither).
inline std::string encode_lines(const std::vector<std::vector<std::string>>& lines) {
    std::string out;
    for (const auto& line : lines) {
        for (std::size_t i = 0; i < line.size(); ++i)
            out += (i ? "\t" : "") + line[i];
        out += '\n';
    }
    return out;
}

inline std::vector<std::vector<std::string>> decode_lines(const std::string& text) {
    std::vector<std::vector<std::string>> out;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos)
            end = text.size();
        std::vector<std::string> line;
        for (std::size_t at = start; at < end;) {
            std::size_t tab = text.find('\t', at);
            if (tab == std::string::npos || tab > end)
                tab = end;
            line.push_back(text.substr(at, tab - at));
            at = tab + 1;
        }
        if (!line.empty())
            out.push_back(std::move(line));
        start = end + 1;
    }
    return out;
}

constexpr const char* game_columns =
    "id, variant, options, platform, channel, challenger, challenged, challenger_color, white, "
    "black, status, result, reason, seed, created_at, time_control, rated, paused, challenged_id, "
    "revision";

// "a, b" as "t.a, t.b", for a join.
inline std::string qualified(const char* table, std::string_view columns) {
    std::string out = std::string(table) + ".";
    for (const char c : columns) {
        out += c;
        if (c == ' ')
            out += std::string(table) + ".";
    }
    return out;
}

template <class Statement> GameRecord read_game(const Statement& s) {
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
    g.time_control = s.column_text(15);
    g.rated = s.column_int(16) != 0;
    g.paused = s.column_int(17) != 0;
    if (!s.is_null(18))
        g.challenged_id = s.column_int(18);
    g.revision = s.column_int(19);
    return g;
}

constexpr const char* player_columns = "id, platform, user_id, name, orientation, notation, "
                                       "images, reminders, vacation_until, vacation_year, "
                                       "vacation_used, handle, linked_to, language, "
                                       "platform_language";

template <class Statement> PlayerRecord read_player(const Statement& s) {
    PlayerRecord p;
    p.id = s.column_int(0);
    p.platform = s.column_text(1);
    p.user_id = s.column_text(2);
    p.name = s.column_text(3);
    p.orientation = s.column_text(4);
    p.notation = s.column_text(5);
    p.images = s.column_int(6) != 0;
    p.reminders = s.column_int(7) != 0;
    p.vacation_until = s.column_int(8);
    p.vacation_year = static_cast<int>(s.column_int(9));
    p.vacation_used = s.column_int(10);
    p.handle = s.column_text(11);
    p.linked_to = s.is_null(12) ? 0 : s.column_int(12);
    p.language = s.column_text(13);
    p.platform_language = s.column_text(14);
    return p;
}

// "status IN ('a', 'b', ...)" with the statuses inlined: they come from our enum, never from users.
inline std::string status_in(const std::vector<GameStatus>& statuses,
                             const std::string& column = "status") {
    std::string out = column + " IN (";
    for (std::size_t i = 0; i < statuses.size(); ++i)
        out += std::string(i ? ", '" : "'") + status_names[static_cast<std::size_t>(statuses[i])] +
               "'";
    return out + (statuses.empty() ? "'')" : ")");
}

constexpr std::array tournament_status_names{"open", "running", "finished"};

inline TournamentStatus tournament_status_from(const std::string& s) {
    for (std::size_t i = 0; i < tournament_status_names.size(); ++i)
        if (s == tournament_status_names[i])
            return static_cast<TournamentStatus>(i);
    throw std::runtime_error("storage: unknown tournament status " + s);
}

constexpr const char* tournament_columns =
    "id, platform, channel, name, variant, format, rounds, tc, status, creator, current_round, "
    "created_at, schedule, next_round, initial_colour";

template <class Statement> TournamentRecord read_tournament(const Statement& s) {
    TournamentRecord t;
    t.id = s.column_int(0);
    t.platform = s.column_text(1);
    t.channel = s.column_text(2);
    t.name = s.column_text(3);
    t.variant = s.column_text(4);
    t.format = s.column_text(5);
    t.rounds = static_cast<int>(s.column_int(6));
    t.tc = s.column_text(7);
    t.status = tournament_status_from(s.column_text(8));
    t.creator = s.column_int(9);
    t.current_round = static_cast<int>(s.column_int(10));
    t.created_at = s.column_int(11);
    t.schedule = s.column_text(12);
    t.next_round = s.column_text(13);
    t.initial_colour = s.column_text(14);
    return t;
}

constexpr const char* pairing_columns =
    "tournament_id, round, board, white, black, game_id, white_float, black_float";

template <class Statement> PairingRecord read_pairing(const Statement& s) {
    PairingRecord p;
    p.tournament_id = s.column_int(0);
    p.round = static_cast<int>(s.column_int(1));
    p.board = static_cast<int>(s.column_int(2));
    p.white = s.column_int(3);
    if (!s.is_null(4))
        p.black = s.column_int(4);
    if (!s.is_null(5))
        p.game_id = s.column_int(5);
    p.white_float = s.column_text(6);
    p.black_float = s.column_text(7);
    return p;
}

constexpr const char* rating_columns = "player_id, variant, rating, deviation, volatility, games";

template <class Statement> RatingRecord read_rating(const Statement& s) {
    RatingRecord r;
    r.player_id = s.column_int(0);
    r.variant = s.column_text(1);
    r.rating = s.column_real(2);
    r.deviation = s.column_real(3);
    r.volatility = s.column_real(4);
    r.games = static_cast<int>(s.column_int(5));
    return r;
}

// The columns id, platform, to_user, destination, text, code, png, reply_to, attempts,
// next_attempt_at, notice_channel, blocked_notice, created_at, buttons, named, ends_game.
template <class Statement> OutboxEntry read_outbox_entry(const Statement& s) {
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
    e.created_at = s.column_int(12);
    for (auto& [label, command] : decode_pairs(s.column_text(13)))
        e.message.buttons.push_back({std::move(label), std::move(command)});
    for (auto& [user_id, name] : decode_pairs(s.column_text(14)))
        e.message.named.push_back({std::move(user_id), std::move(name)});
    e.message.ends_game = s.column_int(15) != 0;
    return e;
}

template <class D> class SqlStore : public Store {
public:
    using Database = typename D::Database;
    using Statement = typename D::Statement;
    using Transaction = typename D::Transaction;

    // Opens the connection with the backend's own arguments; the backend migrates.
    template <class... Args> explicit SqlStore(Args&&... args) : db_(std::forward<Args>(args)...) {
        if constexpr (D::pipelined)
            D::hold_writes(
                db_, [this] { write_held_games(); }, [this] { held_games_.clear(); });
    }

    bool shared() const override { return D::shared; }

    void transaction(const std::function<void()>& work) override {
        if (grouped_)
            return savepoint(work);
        Transaction t(db_);
        Remembering memo(*this);
        work();
        t.commit();
    }

    void relaxed_transaction(const std::function<void()>& work) override {
        if (grouped_)
            return savepoint(work); // the group's commit is durable, which is more
        typename D::RelaxedTransaction t(db_);
        Remembering memo(*this);
        work();
        t.commit();
    }

    void group(const std::function<void()>& work) override {
        Transaction t(db_);
        Remembering memo(*this);
        grouped_ = true;
        try {
            work();
        } catch (...) {
            grouped_ = false;
            throw;
        }
        grouped_ = false;
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
        s.bind(1, platform).bind(2, channel).bind(3, message_id).bind(4, now);
        D::send(s);
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
        s.bind(1, platform).bind(2, cursor);
        D::send(s);
    }

    PlayerRecord upsert_player(const std::string& platform, const std::string& user_id,
                               const std::string& name, const std::string& handle) override {
        const std::string key = lower(handle);
        // Nearly every post comes from a known account under its known names: then it is read,
        // not written (a write would cost the server, the disk, and conflicts with every other
        // transaction that read the row). The account's ban comes with it: every post asks for
        // both.
        if (memo_open_)
            if (auto known = memo_.accounts.find({platform, user_id});
                known != memo_.accounts.end() && known->second && known->second->name == name &&
                known->second->handle == key && memo_.bans.count({platform, user_id}) != 0)
                return *known->second;
        if (auto [p, ban] = account_and_ban(platform, user_id);
            p && p->name == name && p->handle == key) {
            remember(p);
            if (memo_open_)
                memo_.bans[{platform, user_id}] = std::move(ban);
            return *p;
        }
        if (!key.empty()) {
            // A platform gives a handle to one account at a time: whoever held it before has
            // changed theirs, and must not answer to it any more.
            Statement free(db_, "UPDATE players SET handle = '' WHERE platform = ?1 AND "
                                "handle = ?2 AND handle <> '' AND user_id <> ?3");
            free.bind(1, platform).bind(2, key).bind(3, user_id);
            D::send(free);
        }
        Statement s(db_, "INSERT INTO players (platform, user_id, name, name_key, handle) "
                         "VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (platform, user_id) DO UPDATE "
                         "SET name = excluded.name, name_key = excluded.name_key, "
                         "handle = excluded.handle");
        s.bind(1, platform).bind(2, user_id).bind(3, name).bind(4, lower(name)).bind(5, key);
        D::send(s);
        auto [p, ban] = account_and_ban(platform, user_id);
        forget_players(); // the handle may have left another player
        remember(p);
        if (memo_open_)
            memo_.bans[{platform, user_id}] = std::move(ban);
        return *p;
    }

    // The account's player row and its ban, in one statement.
    std::pair<std::optional<PlayerRecord>, std::optional<Ban>>
    account_and_ban(const std::string& platform, const std::string& user_id) {
        Statement q(db_, std::string("SELECT ") + player_columns + ", " + ban_of_account +
                             " FROM players WHERE platform = ?1 AND user_id = ?2");
        q.bind(1, platform).bind(2, user_id);
        if (!q.step())
            return {};
        return {read_player(q), read_ban(q, 15, platform, user_id)};
    }

    std::optional<PlayerRecord> player(std::int64_t id) override {
        if (memo_open_)
            if (auto known = memo_.players.find(id); known != memo_.players.end())
                return known->second;
        Statement s(db_, std::string("SELECT ") + player_columns + " FROM players WHERE id = ?1");
        s.bind(1, id);
        std::optional<PlayerRecord> p;
        if (s.step())
            p = read_player(s);
        if (memo_open_)
            memo_.players[id] = p;
        remember(p);
        return p;
    }

    std::optional<PlayerRecord> player_by_account(const std::string& platform,
                                                  const std::string& user_id) override {
        if (memo_open_)
            if (auto known = memo_.accounts.find({platform, user_id});
                known != memo_.accounts.end())
                return known->second;
        Statement s(db_, std::string("SELECT ") + player_columns +
                             " FROM players WHERE platform = ?1 AND user_id = ?2");
        s.bind(1, platform).bind(2, user_id);
        std::optional<PlayerRecord> p;
        if (s.step())
            p = read_player(s);
        if (memo_open_)
            memo_.accounts[{platform, user_id}] = p;
        remember(p);
        return p;
    }

    std::optional<PlayerRecord> player_by_handle(const std::string& platform,
                                                 const std::string& handle) override {
        if (handle.empty())
            return std::nullopt;
        Statement s(db_, std::string("SELECT ") + player_columns +
                             " FROM players WHERE platform = ?1 AND handle = ?2 AND "
                             "handle <> ''"); // the index holds only accounts with a handle
        s.bind(1, platform).bind(2, lower(handle));
        if (!s.step())
            return std::nullopt;
        return read_player(s);
    }

    void save_player_settings(const PlayerRecord& p) override {
        Statement s(db_, "UPDATE players SET orientation = ?1, notation = ?2, images = ?3, "
                         "reminders = ?5, language = ?6, platform_language = ?7 WHERE id = ?4");
        s.bind(1, p.orientation).bind(2, p.notation).bind(3, p.images ? 1 : 0).bind(4, p.id);
        s.bind(5, p.reminders ? 1 : 0).bind(6, p.language).bind(7, p.platform_language);
        forget_players();
        D::send(s);
    }

    std::int64_t create_game(const GameRecord& g) override {
        memo_.channel_games.clear();
        Statement s(db_, "INSERT INTO games (variant, options, platform, channel, challenger, "
                         "challenged, challenger_color, white, black, status, result, reason, "
                         "seed, created_at, time_control, rated, paused, challenged_id, "
                         "next_deadline) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, "
                         "?12, ?13, ?14, ?15, ?16, ?17, ?18, CASE WHEN ?10 = 'ongoing' AND ?17 = 0 "
                         "THEN 0 END) RETURNING id");
        s.bind(1, g.variant).bind(2, encode_options(g.options)).bind(3, g.platform);
        s.bind(4, g.channel).bind(5, g.challenger).bind(6, g.challenged);
        s.bind(7, g.challenger_color);
        bind_seats(s, 8, g);
        s.bind(10, status_name(g.status)).bind(11, g.result).bind(12, g.reason);
        s.bind_blob(13, g.seed).bind(14, g.created_at);
        s.bind(15, g.time_control).bind(16, g.rated ? 1 : 0).bind(17, g.paused ? 1 : 0);
        if (g.challenged_id)
            s.bind(18, *g.challenged_id);
        else
            s.bind_null(18);
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
        memo_.channel_games.clear();
        Statement s(db_, "UPDATE games SET white = ?1, black = ?2, status = ?3, result = ?4, "
                         "reason = ?5, challenger_color = ?6, paused = ?8, challenged_id = ?9, "
                         "revision = revision + 1, "
                         // A game that stops is never due; one that starts or resumes is due at
                         // once, until sync_clocks sets its deadline (in the same transaction);
                         // a challenge keeps its expiry.
                         "next_deadline = CASE WHEN ?3 = 'challenge' AND status = 'challenge' "
                         "THEN next_deadline WHEN ?3 <> 'ongoing' OR ?8 <> 0 THEN NULL "
                         "WHEN status <> 'ongoing' OR paused <> 0 THEN 0 ELSE next_deadline END "
                         "WHERE id = ?7");
        bind_seats(s, 1, g);
        s.bind(3, status_name(g.status)).bind(4, g.result).bind(5, g.reason);
        s.bind(6, g.challenger_color).bind(7, g.id).bind(8, g.paused ? 1 : 0);
        if (g.challenged_id)
            s.bind(9, *g.challenged_id);
        else
            s.bind_null(9);
        s.run();
        if (db_.changes() != 1)
            throw std::logic_error("storage: no game " + std::to_string(g.id) + " to update");
        if (auto known = memo_.revisions.find(g.id); known != memo_.revisions.end())
            ++known->second;
    }

    void link_account(std::int64_t account, std::int64_t owner) override {
        Statement s(db_, "UPDATE players SET linked_to = ?2 WHERE id = ?1");
        s.bind(1, account).bind(2, owner);
        forget_players();
        D::send(s);
    }

    std::optional<PlayerRecord> account_on(std::int64_t owner,
                                           const std::string& platform) override {
        if (memo_open_) {
            if (auto known = memo_.accounts_on.find({owner, platform});
                known != memo_.accounts_on.end())
                return known->second;
            if (auto known = memo_.players.find(owner); known != memo_.players.end() &&
                                                        known->second &&
                                                        known->second->platform == platform)
                return known->second;
        }
        std::optional<PlayerRecord> found = account_on_stored(owner, platform);
        if (memo_open_)
            memo_.accounts_on[{owner, platform}] = found;
        remember(found);
        return found;
    }

    std::optional<PlayerRecord> account_on_stored(std::int64_t owner, const std::string& platform) {
        Statement own(db_, std::string("SELECT ") + player_columns +
                               " FROM players WHERE id = ?1 AND platform = ?2");
        own.bind(1, owner).bind(2, platform);
        if (own.step())
            return read_player(own);
        Statement linked(db_, std::string("SELECT ") + player_columns +
                                  " FROM players WHERE linked_to = ?1 AND " +
                                  D::unindexed("platform") +
                                  " = ?2 "
                                  "ORDER BY id LIMIT 1");
        linked.bind(1, owner).bind(2, platform);
        if (!linked.step())
            return std::nullopt;
        return read_player(linked);
    }

    bool player_has_history(std::int64_t player) override {
        Statement s(db_, "SELECT EXISTS (SELECT 1 FROM games WHERE white = ?1) OR "
                         "EXISTS (SELECT 1 FROM games WHERE black = ?1) OR "
                         "EXISTS (SELECT 1 FROM games WHERE challenger = ?1) OR "
                         "EXISTS (SELECT 1 FROM games WHERE challenged_id = ?1) OR "
                         "EXISTS (SELECT 1 FROM ratings WHERE player_id = ?1)");
        s.bind(1, player);
        s.step();
        return s.column_int(0) != 0;
    }

    void put_code(const LinkCode& c) override {
        Statement s(db_, "INSERT INTO link_codes (code, kind, player_id, game_id, platform, "
                         "expires_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
        s.bind(1, c.code).bind(2, c.kind);
        if (c.player != 0)
            s.bind(3, c.player);
        else
            s.bind_null(3);
        if (c.game != 0)
            s.bind(4, c.game);
        else
            s.bind_null(4);
        s.bind(5, c.platform).bind(6, c.expires_at).run();
    }

    std::optional<LinkCode> take_code(const std::string& code, std::int64_t now) override {
        Statement s(db_, "DELETE FROM link_codes WHERE code = ?1 RETURNING kind, player_id, "
                         "game_id, platform, expires_at");
        s.bind(1, code);
        if (!s.step())
            return std::nullopt;
        LinkCode c;
        c.code = code;
        c.kind = s.column_text(0);
        c.player = s.is_null(1) ? 0 : s.column_int(1);
        c.game = s.is_null(2) ? 0 : s.column_int(2);
        c.platform = s.column_text(3);
        c.expires_at = s.column_int(4);
        s.run();
        Statement old(db_, "DELETE FROM link_codes WHERE expires_at <= ?1");
        old.bind(1, now).run();
        if (c.expires_at <= now)
            return std::nullopt;
        return c;
    }

    void bind_channel(std::int64_t game, const std::string& platform,
                      const std::string& channel) override {
        Statement s(db_, "INSERT INTO game_channels (game_id, platform, channel) VALUES (?1, ?2, "
                         "?3) ON CONFLICT DO NOTHING");
        s.bind(1, game).bind(2, platform).bind(3, channel);
        D::send(s);
        memo_.bound.erase(game);
        bump_revision(game);
    }

    ChannelSettings channel_settings(const std::string& platform,
                                     const std::string& channel) override {
        if (memo_open_)
            if (auto known = memo_.channels.find({platform, channel});
                known != memo_.channels.end())
                return known->second;
        Statement s(db_, channel_settings_sql);
        s.bind(1, platform).bind(2, channel);
        ChannelSettings out = read_channel_settings(s, platform, channel);
        if (memo_open_)
            memo_.channels[{platform, channel}] = out;
        return out;
    }

    static constexpr const char* channel_settings_sql =
        "SELECT orientation, notation, images, style, language FROM channel_settings WHERE "
        "platform = ?1 "
        "AND channel = ?2";
    static ChannelSettings read_channel_settings(Statement& s, const std::string& platform,
                                                 const std::string& channel) {
        ChannelSettings out;
        out.platform = platform;
        out.channel = channel;
        if (s.step()) {
            out.orientation = s.column_text(0);
            out.notation = s.column_text(1);
            out.images = s.column_int(2) != 0;
            out.style = s.column_text(3);
            out.language = s.column_text(4);
            out.saved = true;
        }
        return out;
    }

    void save_channel_settings(const ChannelSettings& c) override {
        Statement s(db_, "INSERT INTO channel_settings (platform, channel, orientation, notation, "
                         "images, style, language) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT "
                         "(platform, channel) DO UPDATE SET orientation = excluded.orientation, "
                         "notation = excluded.notation, images = excluded.images, style = "
                         "excluded.style, language = excluded.language");
        s.bind(1, c.platform).bind(2, c.channel).bind(3, c.orientation).bind(4, c.notation);
        s.bind(5, c.images ? 1 : 0).bind(6, c.style).bind(7, c.language);
        D::send(s);
        if (memo_open_) {
            ChannelSettings saved = c;
            saved.saved = true;
            memo_.channels[{c.platform, c.channel}] = std::move(saved);
        }
    }

    std::vector<std::pair<std::string, std::string>> bound_channels(std::int64_t game) override {
        if (memo_open_)
            if (auto known = memo_.bound.find(game); known != memo_.bound.end())
                return known->second;
        Statement s(db_, bound_channels_sql());
        s.bind(1, game);
        return read_bound_channels(s, game);
    }

    static std::string bound_channels_sql() {
        return "SELECT platform, channel FROM game_channels WHERE game_id = ?1 ORDER BY " +
               std::string(D::insertion_order);
    }
    std::vector<std::pair<std::string, std::string>> read_bound_channels(Statement& s,
                                                                         std::int64_t game) {
        std::vector<std::pair<std::string, std::string>> out;
        while (s.step())
            out.emplace_back(s.column_text(0), s.column_text(1));
        if (memo_open_)
            memo_.bound[game] = out;
        return out;
    }

    std::vector<GameRecord> games_in_channel(const std::string& platform,
                                             const std::string& channel,
                                             const std::vector<GameStatus>& statuses) override {
        const auto key = std::make_tuple(platform, channel, status_in(statuses));
        if (memo_open_)
            if (auto known = memo_.channel_games.find(key); known != memo_.channel_games.end())
                return known->second;
        // Two lookups, each by the channel's index. As "id IN (either) AND status IN (...)",
        // a planner that has no statistics (tables never analysed) read every game of the
        // statuses on every platform and joined: 45 % of PostgreSQL's time under load. The
        // status is only filtered: by its index it ties with the channel's on such a table.
        Statement s(db_, std::string("SELECT ") + game_columns +
                             " FROM games WHERE platform = ?1 AND channel = ?2 AND " +
                             status_in(statuses, D::unindexed("status")) + " UNION ALL SELECT " +
                             qualified("g", game_columns) +
                             " FROM game_channels c JOIN games g ON g.id = c.game_id WHERE "
                             "c.platform = ?1 AND c.channel = ?2 AND " +
                             status_in(statuses, D::unindexed("g.status")) +
                             // a game that follows its own channel is there once
                             " AND NOT (g.platform = ?1 AND g.channel = ?2) ORDER BY id");
        s.bind(1, platform).bind(2, channel);
        // A post that looks for the channel's games shows one: the channel's look comes along.
        std::optional<Statement> look;
        if (D::pipelined && memo_open_ && !memo_.channels.count({platform, channel})) {
            look.emplace(db_, channel_settings_sql);
            look->bind(1, platform).bind(2, channel);
            D::together(db_, {&s, &*look});
        }
        std::vector<GameRecord> out;
        while (s.step())
            out.push_back(read_game(s));
        if (look)
            memo_.channels[{platform, channel}] = read_channel_settings(*look, platform, channel);
        if (memo_open_)
            memo_.channel_games[key] = out;
        return out;
    }

    std::vector<GameRecord> games_of_player(const PlayerRecord& p,
                                            const std::vector<GameStatus>& statuses) override {
        // One indexed lookup per way of being in a game: with the ORs in one WHERE, SQLite
        // reads every game of the platform. The unary + keeps the planner off the status index
        // for the outer filter. A player id is the player on every platform it is linked on.
        Statement s(db_, std::string("SELECT ") + game_columns +
                             " FROM games WHERE id IN (SELECT id FROM games WHERE white = ?2 "
                             "UNION ALL SELECT id FROM games WHERE black = ?2 "
                             "UNION ALL SELECT id FROM games WHERE challenger = ?2 "
                             "UNION ALL SELECT id FROM games WHERE challenged_id = ?2 "
                             "UNION ALL SELECT id FROM games WHERE platform = ?1 AND "
                             "challenged = ?3 AND challenged <> '' AND challenged_id IS NULL) "
                             "AND " +
                             status_in(statuses, D::unindexed("status")) + " ORDER BY id");
        s.bind(1, p.platform).bind(2, p.id).bind(3, p.handle);
        std::vector<GameRecord> out;
        while (s.step())
            out.push_back(read_game(s));
        return out;
    }

    int move_channel(const std::string& platform, const std::string& from,
                     const std::string& to) override {
        memo_.bound.clear();
        memo_.channels.clear();
        memo_.channel_games.clear();
        int moved = 0;
        const auto run = [&](const char* sql) {
            Statement s(db_, sql);
            s.bind(1, platform).bind(2, from).bind(3, to).run();
            moved += db_.changes();
        };
        run("UPDATE games SET channel = ?3 WHERE platform = ?1 AND channel = ?2");
        run("UPDATE tournaments SET channel = ?3 WHERE platform = ?1 AND channel = ?2");
        // A game that follows both ids keeps one row.
        {
            Statement s(db_, "DELETE FROM game_channels WHERE platform = ?1 AND channel = ?2 AND "
                             "game_id IN (SELECT game_id FROM game_channels WHERE platform = ?1 "
                             "AND channel = ?3)");
            s.bind(1, platform).bind(2, from).bind(3, to).run();
        }
        run("UPDATE game_channels SET channel = ?3 WHERE platform = ?1 AND channel = ?2");
        run("UPDATE outbox SET destination = ?3 WHERE platform = ?1 AND destination = ?2 AND "
            "to_user = 0 AND state = 'pending'");
        run("UPDATE outbox SET notice_channel = ?3 WHERE platform = ?1 AND notice_channel = ?2 "
            "AND state = 'pending'");
        return moved;
    }

    void append_action(const ActionRecord& a) override {
        Statement s(db_, "INSERT INTO actions (game_id, ply, seat, player_id, text, message_id, "
                         "rolls) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
        s.bind(1, a.game_id).bind(2, a.ply).bind(3, seat_text(a.seat)).bind(4, a.player_id);
        s.bind(5, a.text).bind(6, a.message_id).bind(7, a.rolls);
        D::send(s);
        if (auto known = memo_.actions.find(a.game_id); known != memo_.actions.end()) {
            auto& log = known->second;
            log.insert(std::upper_bound(log.begin(), log.end(), a,
                                        [](const ActionRecord& x, const ActionRecord& y) {
                                            return x.ply < y.ply;
                                        }),
                       a);
        }
        bump_revision(a.game_id);
    }

    std::int64_t game_revision(std::int64_t game_id) override {
        if (memo_open_)
            if (auto known = memo_.revisions.find(game_id); known != memo_.revisions.end())
                return known->second;
        Statement s(db_, "SELECT revision FROM games WHERE id = ?1");
        s.bind(1, game_id);
        if (!s.step())
            throw std::logic_error("storage: no game " + std::to_string(game_id));
        if (memo_open_)
            memo_.revisions[game_id] = s.column_int(0);
        return s.column_int(0);
    }

    std::vector<ActionRecord> actions(std::int64_t game_id) override {
        if (memo_open_)
            if (auto known = memo_.actions.find(game_id); known != memo_.actions.end())
                return known->second;
        Statement s(db_, actions_sql);
        s.bind(1, game_id);
        return read_actions(s, game_id);
    }

    static constexpr const char* actions_sql =
        "SELECT game_id, ply, seat, player_id, text, message_id, rolls FROM actions WHERE "
        "game_id = ?1 AND taken_back = 0 ORDER BY ply";
    std::vector<ActionRecord> read_actions(Statement& s, std::int64_t game_id) {
        std::vector<ActionRecord> out;
        while (s.step()) {
            ActionRecord a;
            a.game_id = s.column_int(0);
            a.ply = static_cast<int>(s.column_int(1));
            a.seat = seat_from(s.column_text(2));
            a.player_id = s.column_int(3);
            a.text = s.column_text(4);
            a.message_id = s.column_text(5);
            a.rolls = s.column_text(6);
            out.push_back(std::move(a));
        }
        if (memo_open_)
            memo_.actions[game_id] = out;
        return out;
    }

    int action_count(std::int64_t game_id) override {
        if (memo_open_)
            if (auto known = memo_.actions.find(game_id); known != memo_.actions.end())
                return static_cast<int>(known->second.size());
        Statement s(db_, "SELECT COUNT(*) FROM actions WHERE game_id = ?1 AND taken_back = 0");
        s.bind(1, game_id);
        s.step();
        return static_cast<int>(s.column_int(0));
    }

    void take_back(std::int64_t game_id, int from_ply) override {
        Statement s(db_, "UPDATE actions SET taken_back = 1 WHERE game_id = ?1 AND ply >= ?2 AND "
                         "taken_back = 0");
        s.bind(1, game_id).bind(2, from_ply);
        D::send(s);
        memo_.actions.erase(game_id);
        bump_revision(game_id);
    }

    void bump_revision(std::int64_t game_id) {
        memo_.channel_games.clear();
        if constexpr (D::pipelined)
            if (memo_open_) {
                ++held_games_[game_id].bumps;
                if (auto known = memo_.revisions.find(game_id); known != memo_.revisions.end())
                    ++known->second;
                return;
            }
        Statement s(db_, "UPDATE games SET revision = revision + 1 WHERE id = ?1");
        s.bind(1, game_id);
        D::send(s);
        if (auto known = memo_.revisions.find(game_id); known != memo_.revisions.end())
            ++known->second;
    }

    void put_offer(std::int64_t game_id, const Offer& o) override {
        Statement s(db_, "INSERT INTO offers (game_id, kind, seat, ply) VALUES (?1, ?2, ?3, ?4) "
                         "ON CONFLICT (game_id, kind) DO UPDATE SET seat = excluded.seat, "
                         "ply = excluded.ply");
        s.bind(1, game_id).bind(2, offer_text(o.kind)).bind(3, seat_text(o.seat)).bind(4, o.ply);
        D::send(s);
        if (memo_open_)
            memo_.offers[{game_id, o.kind}] = o;
    }

    std::optional<Offer> offer(std::int64_t game_id, OfferKind kind) override {
        if (memo_open_)
            if (auto known = memo_.offers.find({game_id, kind}); known != memo_.offers.end())
                return known->second;
        Statement s(db_, "SELECT seat, ply FROM offers WHERE game_id = ?1 AND kind = ?2");
        s.bind(1, game_id).bind(2, offer_text(kind));
        std::optional<Offer> out;
        if (s.step())
            out = Offer{kind, seat_from(s.column_text(0)), static_cast<int>(s.column_int(1))};
        if (memo_open_)
            memo_.offers[{game_id, kind}] = out;
        return out;
    }

    void clear_offer(std::int64_t game_id, OfferKind kind) override {
        if (memo_open_)
            if (auto known = memo_.offers.find({game_id, kind});
                known != memo_.offers.end() && !known->second)
                return; // none to clear
        Statement s(db_, "DELETE FROM offers WHERE game_id = ?1 AND kind = ?2");
        s.bind(1, game_id).bind(2, offer_text(kind));
        D::send(s);
        if (memo_open_)
            memo_.offers[{game_id, kind}] = std::nullopt;
    }

    std::vector<ForecastRecord> forecasts(std::int64_t game_id) override {
        if (memo_open_)
            if (auto known = memo_.forecasts.find(game_id); known != memo_.forecasts.end())
                return known->second;
        Statement s(db_, forecasts_sql);
        s.bind(1, game_id);
        return read_forecasts(s, game_id);
    }

    static constexpr const char* forecasts_sql =
        "SELECT seat, player_id, ply, lines FROM forecasts WHERE game_id = ?1 ORDER BY seat DESC";
    std::vector<ForecastRecord> read_forecasts(Statement& s, std::int64_t game_id) {
        std::vector<ForecastRecord> out;
        while (s.step()) {
            ForecastRecord f;
            f.game_id = game_id;
            f.seat = seat_from(s.column_text(0));
            f.player_id = s.column_int(1);
            f.ply = static_cast<int>(s.column_int(2));
            f.lines = decode_lines(s.column_text(3));
            out.push_back(std::move(f));
        }
        if (memo_open_)
            memo_.forecasts[game_id] = out;
        return out;
    }

    void put_forecast(const ForecastRecord& f) override {
        Statement s(db_, "INSERT INTO forecasts (game_id, seat, player_id, ply, lines) VALUES "
                         "(?1, ?2, ?3, ?4, ?5) ON CONFLICT (game_id, seat) DO UPDATE SET "
                         "player_id = excluded.player_id, ply = excluded.ply, "
                         "lines = excluded.lines");
        s.bind(1, f.game_id).bind(2, seat_text(f.seat)).bind(3, f.player_id).bind(4, f.ply);
        s.bind(5, encode_lines(f.lines));
        D::send(s);
        memo_.forecasts.erase(f.game_id);
    }

    void clear_forecast(std::int64_t game_id, rules::Seat seat) override {
        Statement s(db_, "DELETE FROM forecasts WHERE game_id = ?1 AND seat = ?2");
        s.bind(1, game_id).bind(2, seat_text(seat));
        D::send(s);
        memo_.forecasts.erase(game_id);
    }

    std::int64_t enqueue(const OutgoingMessage& m, std::int64_t now) override {
        Statement s(db_, "INSERT INTO outbox (platform, to_user, destination, text, code, png, "
                         "reply_to, created_at, next_attempt_at, notice_channel, blocked_notice, "
                         "buttons, named, ends_game) "
                         "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8, ?9, ?10, ?11, ?12, ?13) "
                         "RETURNING id");
        s.bind(1, m.platform).bind(2, m.to_user ? 1 : 0).bind(3, m.destination).bind(4, m.text);
        s.bind(5, m.code);
        if (m.png.empty())
            s.bind_null(6);
        else
            s.bind_blob(6, m.png);
        s.bind(7, m.reply_to).bind(8, now).bind(9, m.notice_channel).bind(10, m.blocked_notice);
        std::vector<std::pair<std::string, std::string>> buttons, named;
        for (const ButtonRecord& b : m.buttons)
            buttons.emplace_back(b.label, b.command);
        for (const NamedAccount& a : m.named)
            named.emplace_back(a.user_id, a.name);
        s.bind(11, encode_pairs(buttons)).bind(12, encode_pairs(named));
        s.bind(13, m.ends_game ? 1 : 0);
        s.step();
        std::int64_t id = s.column_int(0);
        s.run();
        return id;
    }

    std::vector<OutboxEntry> due(const std::string& platform, std::int64_t now,
                                 int limit) override {
        Statement s(db_,
                    "SELECT id, platform, to_user, destination, text, code, png, reply_to, "
                    "attempts, next_attempt_at, notice_channel, blocked_notice, created_at, "
                    "buttons, named, ends_game "
                    "FROM outbox e WHERE e.platform = ?1 AND "
                    "e.state = 'pending' AND e.next_attempt_at <= ?2 AND NOT EXISTS (SELECT 1 "
                    "FROM outbox o WHERE o.platform = e.platform AND o.to_user = e.to_user AND "
                    "o.destination = e.destination AND o.state = 'pending' AND o.id < e.id AND "
                    "o.next_attempt_at > ?2) ORDER BY e.id LIMIT ?3");
        s.bind(1, platform).bind(2, now).bind(3, limit);
        std::vector<OutboxEntry> out;
        while (s.step())
            out.push_back(read_outbox_entry(s));
        return out;
    }

    void mark_sent(std::int64_t id, std::int64_t now) override {
        // A delivered image is not kept: the log can draw it again, and boards are most of
        // the outbox's bytes.
        Statement s(db_, "UPDATE outbox SET state = 'sent', sent_at = ?2, attempts = attempts + 1, "
                         "png = NULL WHERE id = ?1");
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

    std::vector<OutboxBacklog> backlog() override {
        Statement s(db_, "SELECT platform, COUNT(*), MIN(created_at) FROM outbox "
                         "WHERE state = 'pending' GROUP BY platform ORDER BY platform");
        std::vector<OutboxBacklog> out;
        while (s.step())
            out.push_back({s.column_text(0), static_cast<int>(s.column_int(1)), s.column_int(2)});
        return out;
    }

    std::vector<GameRecord> games_with_status(const std::vector<GameStatus>& statuses) override {
        Statement s(db_, std::string("SELECT ") + game_columns + " FROM games WHERE " +
                             status_in(statuses) + " ORDER BY id");
        std::vector<GameRecord> out;
        while (s.step())
            out.push_back(read_game(s));
        return out;
    }

    void set_next_deadline(std::int64_t game_id, std::optional<std::int64_t> at) override {
        if constexpr (D::pipelined)
            if (memo_open_) {
                held_games_[game_id].deadline = at;
                return;
            }
        Statement s(db_, "UPDATE games SET next_deadline = ?2 WHERE id = ?1 AND "
                         "next_deadline IS DISTINCT FROM ?2");
        s.bind(1, game_id);
        if (at)
            s.bind(2, *at);
        else
            s.bind_null(2);
        D::send(s);
    }

    std::vector<GameRecord> games_due(std::int64_t now) override {
        Statement s(db_, std::string("SELECT ") + game_columns +
                             " FROM games WHERE next_deadline <= ?1 ORDER BY next_deadline, id");
        s.bind(1, now);
        std::vector<GameRecord> out;
        while (s.step())
            out.push_back(read_game(s));
        return out;
    }

    int prune(std::int64_t sent_before, std::int64_t handled_before) override {
        Statement sent(db_, "DELETE FROM outbox WHERE state = 'sent' AND sent_at < ?1");
        sent.bind(1, sent_before).run();
        int removed = db_.changes();
        Statement handled(db_, "DELETE FROM handled_posts WHERE handled_at < ?1");
        handled.bind(1, handled_before).run();
        return removed + db_.changes();
    }

    std::vector<ClockRecord> clocks(std::int64_t game_id) override {
        if (memo_open_)
            if (auto known = memo_.clocks.find(game_id); known != memo_.clocks.end())
                return known->second;
        Statement s(db_, clocks_sql);
        s.bind(1, game_id);
        return read_clocks(s, game_id);
    }

    static constexpr const char* clocks_sql =
        "SELECT seat, remaining, running_since, deciding_since, budget, warned FROM clocks "
        "WHERE game_id = ?1 ORDER BY seat DESC";
    std::vector<ClockRecord> read_clocks(Statement& s, std::int64_t game_id) {
        std::vector<ClockRecord> out;
        while (s.step()) {
            ClockRecord c;
            c.seat = seat_from(s.column_text(0));
            c.remaining = s.column_int(1);
            c.running_since = s.column_int(2);
            c.deciding_since = s.column_int(3);
            c.budget = s.column_int(4);
            c.warned = s.column_int(5) != 0;
            out.push_back(c);
        }
        if (memo_open_)
            memo_.clocks[game_id] = out;
        return out;
    }

    void put_clock(std::int64_t game_id, const ClockRecord& c) override {
        if (memo_open_)
            if (auto known = memo_.clocks.find(game_id); known != memo_.clocks.end())
                for (const ClockRecord& r : known->second)
                    if (r.seat == c.seat && r.remaining == c.remaining &&
                        r.running_since == c.running_since &&
                        r.deciding_since == c.deciding_since && r.budget == c.budget &&
                        r.warned == c.warned)
                        return; // the row holds it already
        Statement s(db_,
                    "INSERT INTO clocks (game_id, seat, remaining, running_since, "
                    "deciding_since, budget, warned) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) "
                    "ON CONFLICT (game_id, seat) DO UPDATE SET remaining = excluded.remaining, "
                    "running_since = excluded.running_since, deciding_since = "
                    "excluded.deciding_since, budget = excluded.budget, warned = "
                    "excluded.warned");
        s.bind(1, game_id).bind(2, seat_text(c.seat)).bind(3, c.remaining);
        s.bind(4, c.running_since).bind(5, c.deciding_since).bind(6, c.budget);
        s.bind(7, c.warned ? 1 : 0);
        D::send(s);
        // The row holds exactly the record: White's first, as clocks() orders them.
        if (auto known = memo_.clocks.find(game_id); known != memo_.clocks.end()) {
            auto& rows = known->second;
            const auto same = std::find_if(rows.begin(), rows.end(),
                                           [&](const ClockRecord& r) { return r.seat == c.seat; });
            if (same != rows.end())
                *same = c;
            else if (c.seat == rules::Seat::White)
                rows.insert(rows.begin(), c);
            else
                rows.push_back(c);
        }
    }

    std::optional<std::int64_t> heartbeat() override {
        Statement s(db_, "SELECT at FROM heartbeat WHERE id = 1");
        if (!s.step())
            return std::nullopt;
        return s.column_int(0);
    }

    void put_heartbeat(std::int64_t now) override {
        Statement s(db_, "INSERT INTO heartbeat (id, at) VALUES (1, ?1) "
                         "ON CONFLICT (id) DO UPDATE SET at = excluded.at");
        s.bind(1, now);
        D::send(s);
    }

    void save_vacation(const PlayerRecord& p) override {
        Statement s(db_, "UPDATE players SET vacation_until = ?1, vacation_year = ?2, "
                         "vacation_used = ?3 WHERE id = ?4");
        s.bind(1, p.vacation_until).bind(2, p.vacation_year).bind(3, p.vacation_used);
        s.bind(4, p.id);
        forget_players();
        D::send(s);
    }

    void log_mod_action(const ModAction& a) override {
        Statement s(db_, "INSERT INTO mod_log (platform, moderator, action, at) "
                         "VALUES (?1, ?2, ?3, ?4)");
        s.bind(1, a.platform).bind(2, a.moderator).bind(3, a.action).bind(4, a.at);
        D::send(s);
    }

    std::vector<ModAction> mod_actions(const std::string& platform, int limit) override {
        Statement s(db_, "SELECT id, platform, moderator, action, at FROM (SELECT * FROM mod_log "
                         "WHERE platform = ?1 ORDER BY id DESC LIMIT ?2) AS latest ORDER BY id");
        s.bind(1, platform).bind(2, limit);
        std::vector<ModAction> out;
        while (s.step())
            out.push_back({s.column_int(0), s.column_text(1), s.column_text(2), s.column_text(3),
                           s.column_int(4)});
        return out;
    }

    std::optional<Ban> ban(const std::string& platform, const std::string& user_id) override {
        if (memo_open_)
            if (auto known = memo_.bans.find({platform, user_id}); known != memo_.bans.end())
                return known->second;
        Statement s(db_, "SELECT banned_by, reason, at FROM bans WHERE platform = ?1 AND "
                         "user_id = ?2");
        s.bind(1, platform).bind(2, user_id);
        std::optional<Ban> out;
        if (s.step())
            out = Ban{platform, user_id, s.column_text(0), s.column_text(1), s.column_int(2)};
        if (memo_open_)
            memo_.bans[{platform, user_id}] = out;
        return out;
    }

    void put_ban(const Ban& b) override {
        Statement s(db_,
                    "INSERT INTO bans (platform, user_id, banned_by, reason, at) VALUES "
                    "(?1, ?2, ?3, ?4, ?5) ON CONFLICT (platform, user_id) DO UPDATE SET "
                    "banned_by = excluded.banned_by, reason = excluded.reason, at = excluded.at");
        s.bind(1, b.platform).bind(2, b.user_id).bind(3, b.by).bind(4, b.reason).bind(5, b.at);
        D::send(s);
        if (memo_open_)
            memo_.bans[{b.platform, b.user_id}] = b;
    }

    void remove_ban(const std::string& platform, const std::string& user_id) override {
        Statement s(db_, "DELETE FROM bans WHERE platform = ?1 AND user_id = ?2");
        s.bind(1, platform).bind(2, user_id);
        D::send(s);
        if (memo_open_)
            memo_.bans[{platform, user_id}] = std::nullopt;
    }

    std::optional<DigestRecord> digest(std::int64_t player_id) override {
        Statement s(db_, "SELECT platform, hour, next_at FROM digests WHERE player_id = ?1");
        s.bind(1, player_id);
        if (!s.step())
            return std::nullopt;
        return DigestRecord{player_id, s.column_text(0), static_cast<int>(s.column_int(1)),
                            s.column_int(2)};
    }

    void put_digest(const DigestRecord& d) override {
        Statement s(db_, "INSERT INTO digests (player_id, platform, hour, next_at) VALUES (?1, "
                         "?2, ?3, ?4) ON CONFLICT (player_id) DO UPDATE SET platform = "
                         "excluded.platform, hour = excluded.hour, next_at = excluded.next_at");
        s.bind(1, d.player_id).bind(2, d.platform).bind(3, d.hour).bind(4, d.next_at).run();
    }

    void clear_digest(std::int64_t player_id) override {
        Statement s(db_, "DELETE FROM digests WHERE player_id = ?1");
        s.bind(1, player_id).run();
    }

    std::vector<DigestRecord> digests_due(std::int64_t now) override {
        Statement s(db_, "SELECT player_id, platform, hour, next_at FROM digests WHERE "
                         "next_at <= ?1 ORDER BY next_at, player_id");
        s.bind(1, now);
        std::vector<DigestRecord> out;
        while (s.step())
            out.push_back({s.column_int(0), s.column_text(1), static_cast<int>(s.column_int(2)),
                           s.column_int(3)});
        return out;
    }

    std::int64_t create_tournament(const TournamentRecord& t) override {
        Statement s(db_, "INSERT INTO tournaments (platform, channel, name, name_key, variant, "
                         "format, rounds, tc, status, creator, current_round, created_at, "
                         "schedule, next_round, initial_colour) VALUES "
                         "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15) "
                         "RETURNING id");
        s.bind(1, t.platform).bind(2, t.channel).bind(3, t.name).bind(4, lower(t.name));
        s.bind(5, t.variant).bind(6, t.format).bind(7, t.rounds).bind(8, t.tc);
        s.bind(9, tournament_status_name(t.status)).bind(10, t.creator);
        s.bind(11, t.current_round).bind(12, t.created_at);
        s.bind(13, t.schedule).bind(14, t.next_round).bind(15, t.initial_colour);
        s.step();
        std::int64_t id = s.column_int(0);
        s.run();
        return id;
    }

    std::optional<TournamentRecord> tournament(std::int64_t id) override {
        Statement s(db_, std::string("SELECT ") + tournament_columns +
                             " FROM tournaments WHERE id = ?1");
        s.bind(1, id);
        if (!s.step())
            return std::nullopt;
        return read_tournament(s);
    }

    std::optional<TournamentRecord> tournament_by_name(const std::string& platform,
                                                       const std::string& name) override {
        Statement s(db_, std::string("SELECT ") + tournament_columns +
                             " FROM tournaments WHERE platform = ?1 AND name_key = ?2");
        s.bind(1, platform).bind(2, lower(name));
        if (!s.step())
            return std::nullopt;
        return read_tournament(s);
    }

    std::vector<TournamentRecord> recent_tournaments(int limit) override {
        Statement s(db_, std::string("SELECT ") + tournament_columns +
                             " FROM tournaments ORDER BY id DESC LIMIT ?1");
        s.bind(1, limit);
        std::vector<TournamentRecord> out;
        while (s.step())
            out.push_back(read_tournament(s));
        return out;
    }

    std::vector<TournamentRecord> tournaments_in_channel(const std::string& platform,
                                                         const std::string& channel) override {
        Statement s(db_, std::string("SELECT ") + tournament_columns +
                             " FROM tournaments WHERE platform = ?1 AND channel = ?2 ORDER BY id");
        s.bind(1, platform).bind(2, channel);
        std::vector<TournamentRecord> out;
        while (s.step())
            out.push_back(read_tournament(s));
        return out;
    }

    void update_tournament(const TournamentRecord& t) override {
        Statement s(db_, "UPDATE tournaments SET rounds = ?1, status = ?2, current_round = ?3, "
                         "initial_colour = ?5 WHERE id = ?4");
        s.bind(1, t.rounds).bind(2, tournament_status_name(t.status)).bind(3, t.current_round);
        s.bind(4, t.id).bind(5, t.initial_colour).run();
        if (db_.changes() != 1)
            throw std::logic_error("storage: no tournament " + std::to_string(t.id) + " to update");
    }

    void add_entrant(std::int64_t tournament_id, std::int64_t player_id,
                     std::int64_t now) override {
        // Until the start, the seed is the joining order.
        Statement s(db_, "INSERT INTO tournament_entrants (tournament_id, player_id, seed, "
                         "joined_at) SELECT ?1, ?2, COALESCE(MAX(seed) + 1, 0), ?3 FROM "
                         "tournament_entrants WHERE tournament_id = ?1 "
                         "ON CONFLICT (tournament_id, player_id) DO NOTHING");
        s.bind(1, tournament_id).bind(2, player_id).bind(3, now).run();
    }

    void remove_entrant(std::int64_t tournament_id, std::int64_t player_id) override {
        Statement s(db_, "DELETE FROM tournament_entrants WHERE tournament_id = ?1 AND "
                         "player_id = ?2");
        s.bind(1, tournament_id).bind(2, player_id).run();
    }

    std::vector<EntrantRecord> entrants(std::int64_t tournament_id) override {
        Statement s(db_, "SELECT player_id, seed, first_round, withdrawn_round FROM "
                         "tournament_entrants WHERE tournament_id = ?1 "
                         "ORDER BY seed, joined_at, player_id");
        s.bind(1, tournament_id);
        std::vector<EntrantRecord> out;
        while (s.step()) {
            EntrantRecord e{s.column_int(0), static_cast<int>(s.column_int(1)),
                            static_cast<int>(s.column_int(2)), std::nullopt};
            if (!s.is_null(3))
                e.withdrawn_round = static_cast<int>(s.column_int(3));
            out.push_back(e);
        }
        return out;
    }

    void update_entrant(std::int64_t tournament_id, const EntrantRecord& e) override {
        Statement s(db_, "UPDATE tournament_entrants SET first_round = ?3, withdrawn_round = ?4 "
                         "WHERE tournament_id = ?1 AND player_id = ?2");
        s.bind(1, tournament_id).bind(2, e.player_id).bind(3, e.first_round);
        if (e.withdrawn_round)
            s.bind(4, *e.withdrawn_round);
        else
            s.bind_null(4);
        s.run();
        if (db_.changes() != 1)
            throw std::logic_error("storage: no entrant " + std::to_string(e.player_id) +
                                   " in tournament " + std::to_string(tournament_id));
    }

    void request_bye(std::int64_t tournament_id, const ByeRequest& bye) override {
        Statement s(db_, "INSERT INTO tournament_byes (tournament_id, player_id, round) VALUES "
                         "(?1, ?2, ?3) ON CONFLICT (tournament_id, player_id, round) DO NOTHING");
        s.bind(1, tournament_id).bind(2, bye.player_id).bind(3, bye.round).run();
    }

    void withdraw_bye(std::int64_t tournament_id, const ByeRequest& bye) override {
        Statement s(db_, "DELETE FROM tournament_byes WHERE tournament_id = ?1 AND "
                         "player_id = ?2 AND round = ?3");
        s.bind(1, tournament_id).bind(2, bye.player_id).bind(3, bye.round).run();
    }

    std::vector<ByeRequest> byes(std::int64_t tournament_id) override {
        Statement s(db_, "SELECT player_id, round FROM tournament_byes WHERE tournament_id = ?1 "
                         "ORDER BY round, player_id");
        s.bind(1, tournament_id);
        std::vector<ByeRequest> out;
        while (s.step())
            out.push_back({s.column_int(0), static_cast<int>(s.column_int(1))});
        return out;
    }

    void forbid_pairing(std::int64_t tournament_id, std::int64_t a, std::int64_t b) override {
        Statement s(db_, "INSERT INTO tournament_forbidden (tournament_id, player_a, player_b) "
                         "VALUES (?1, ?2, ?3) "
                         "ON CONFLICT (tournament_id, player_a, player_b) DO NOTHING");
        s.bind(1, tournament_id).bind(2, std::min(a, b)).bind(3, std::max(a, b)).run();
    }

    void allow_pairing(std::int64_t tournament_id, std::int64_t a, std::int64_t b) override {
        Statement s(db_, "DELETE FROM tournament_forbidden WHERE tournament_id = ?1 AND "
                         "player_a = ?2 AND player_b = ?3");
        s.bind(1, tournament_id).bind(2, std::min(a, b)).bind(3, std::max(a, b)).run();
    }

    std::vector<ForbiddenPairing> forbidden_pairings(std::int64_t tournament_id) override {
        Statement s(db_, "SELECT player_a, player_b FROM tournament_forbidden WHERE "
                         "tournament_id = ?1 ORDER BY player_a, player_b");
        s.bind(1, tournament_id);
        std::vector<ForbiddenPairing> out;
        while (s.step())
            out.push_back({s.column_int(0), s.column_int(1)});
        return out;
    }

    bool add_team_member(const std::string& platform, const std::string& channel,
                         std::int64_t player_id, std::int64_t now) override {
        Statement s(db_, "INSERT INTO team_members (platform, channel, player_id, joined_at) "
                         "VALUES (?1, ?2, ?3, ?4) "
                         "ON CONFLICT (platform, channel, player_id) DO NOTHING");
        s.bind(1, platform).bind(2, channel).bind(3, player_id).bind(4, now).run();
        return db_.changes() > 0;
    }

    bool remove_team_member(const std::string& platform, const std::string& channel,
                            std::int64_t player_id) override {
        Statement s(db_, "DELETE FROM team_members WHERE platform = ?1 AND channel = ?2 AND "
                         "player_id = ?3");
        s.bind(1, platform).bind(2, channel).bind(3, player_id).run();
        return db_.changes() > 0;
    }

    std::vector<std::int64_t> team_members(const std::string& platform,
                                           const std::string& channel) override {
        Statement s(db_, "SELECT player_id FROM team_members WHERE platform = ?1 AND "
                         "channel = ?2 ORDER BY joined_at, player_id");
        s.bind(1, platform).bind(2, channel);
        std::vector<std::int64_t> out;
        while (s.step())
            out.push_back(s.column_int(0));
        return out;
    }

    void put_team_vote(std::int64_t game_id, std::int64_t turn, const TeamVote& vote) override {
        Statement s(db_, "INSERT INTO team_votes (game_id, turn, player_id, action, voted_at) "
                         "VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (game_id, turn, player_id) "
                         "DO UPDATE SET action = excluded.action, voted_at = excluded.voted_at");
        s.bind(1, game_id)
            .bind(2, turn)
            .bind(3, vote.player_id)
            .bind(4, vote.action)
            .bind(5, vote.voted_at)
            .run();
    }

    std::vector<TeamVote> team_votes(std::int64_t game_id, std::int64_t turn) override {
        Statement s(db_, "SELECT player_id, action, voted_at FROM team_votes WHERE game_id = ?1 "
                         "AND turn = ?2 ORDER BY voted_at, player_id");
        s.bind(1, game_id).bind(2, turn);
        std::vector<TeamVote> out;
        while (s.step())
            out.push_back({s.column_int(0), s.column_text(1), s.column_int(2)});
        return out;
    }

    void set_seed(std::int64_t tournament_id, std::int64_t player_id, int seed) override {
        Statement s(db_, "UPDATE tournament_entrants SET seed = ?3 WHERE tournament_id = ?1 AND "
                         "player_id = ?2");
        s.bind(1, tournament_id).bind(2, player_id).bind(3, seed).run();
    }

    void start_round(std::int64_t tournament_id, int round, std::int64_t now) override {
        Statement s(db_, "INSERT INTO tournament_rounds (tournament_id, round, started_at) "
                         "VALUES (?1, ?2, ?3)");
        s.bind(1, tournament_id).bind(2, round).bind(3, now).run();
    }

    bool complete_round(std::int64_t tournament_id, int round, std::int64_t now) override {
        Statement s(db_, "UPDATE tournament_rounds SET completed_at = ?3 WHERE "
                         "tournament_id = ?1 AND round = ?2 AND completed_at IS NULL");
        s.bind(1, tournament_id).bind(2, round).bind(3, now).run();
        return db_.changes() == 1;
    }

    void add_pairing(const PairingRecord& p) override {
        Statement s(db_, "INSERT INTO tournament_pairings (tournament_id, round, board, white, "
                         "black, game_id, white_float, black_float) VALUES (?1, ?2, ?3, ?4, ?5, "
                         "?6, ?7, ?8)");
        s.bind(1, p.tournament_id).bind(2, p.round).bind(3, p.board).bind(4, p.white);
        if (p.black)
            s.bind(5, *p.black);
        else
            s.bind_null(5);
        if (p.game_id)
            s.bind(6, *p.game_id);
        else
            s.bind_null(6);
        s.bind(7, p.white_float).bind(8, p.black_float);
        s.run();
    }

    std::vector<PairingRecord> pairings(std::int64_t tournament_id) override {
        Statement s(db_, std::string("SELECT ") + pairing_columns +
                             " FROM tournament_pairings WHERE tournament_id = ?1 "
                             "ORDER BY round, board");
        s.bind(1, tournament_id);
        std::vector<PairingRecord> out;
        while (s.step())
            out.push_back(read_pairing(s));
        return out;
    }

    std::optional<PairingRecord> pairing_of_game(std::int64_t game_id) override {
        Statement s(db_, std::string("SELECT ") + pairing_columns +
                             " FROM tournament_pairings WHERE game_id = ?1");
        s.bind(1, game_id);
        if (!s.step())
            return std::nullopt;
        return read_pairing(s);
    }

    std::optional<RatingRecord> rating(std::int64_t player_id,
                                       const std::string& variant) override {
        Statement s(db_, std::string("SELECT ") + rating_columns +
                             " FROM ratings WHERE player_id = ?1 AND variant = ?2");
        s.bind(1, player_id).bind(2, variant);
        if (!s.step())
            return std::nullopt;
        return read_rating(s);
    }

    void save_rating(const RatingRecord& r, std::int64_t now,
                     std::optional<std::int64_t> game = std::nullopt) override {
        Statement s(db_, "INSERT INTO ratings (player_id, variant, rating, deviation, volatility, "
                         "games, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) "
                         "ON CONFLICT (player_id, variant) DO UPDATE SET rating = excluded.rating, "
                         "deviation = excluded.deviation, volatility = excluded.volatility, "
                         "games = excluded.games, updated_at = excluded.updated_at");
        s.bind(1, r.player_id).bind(2, r.variant).bind_real(3, r.rating);
        s.bind_real(4, r.deviation).bind_real(5, r.volatility).bind(6, r.games);
        s.bind(7, now).run();
        Statement h(db_,
                    "INSERT INTO rating_history (player_id, variant, games, rating, "
                    "deviation, at, game_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) "
                    "ON CONFLICT (player_id, variant, games) DO UPDATE SET "
                    "rating = excluded.rating, deviation = excluded.deviation, at = excluded.at, "
                    "game_id = excluded.game_id");
        h.bind(1, r.player_id).bind(2, r.variant).bind(3, r.games).bind_real(4, r.rating);
        h.bind_real(5, r.deviation).bind(6, now);
        if (game)
            h.bind(7, *game);
        else
            h.bind_null(7);
        h.run();
    }

    std::vector<RatingRecord> ratings_of_player(std::int64_t player_id) override {
        Statement s(db_, std::string("SELECT ") + rating_columns +
                             " FROM ratings WHERE player_id = ?1 ORDER BY variant");
        s.bind(1, player_id);
        std::vector<RatingRecord> out;
        while (s.step())
            out.push_back(read_rating(s));
        return out;
    }

    std::vector<RatingRecord> leaderboard(const std::string& platform, const std::string& variant,
                                          int limit) override {
        Statement s(db_, std::string("SELECT ") + rating_columns +
                             " FROM ratings JOIN players p ON p.id = player_id WHERE "
                             "p.platform = ?1 AND variant = ?2 ORDER BY rating DESC, "
                             "deviation, player_id LIMIT ?3");
        s.bind(1, platform).bind(2, variant).bind(3, limit);
        std::vector<RatingRecord> out;
        while (s.step())
            out.push_back(read_rating(s));
        return out;
    }

    // One daemon owns an SQLite file: its leases are its own and nothing else claims its outbox.
    // The PostgreSQL store overrides these four with rows that several daemons share.
    bool hold_lease(const std::string&, const std::string&, std::int64_t, std::int64_t) override {
        return true;
    }

    void release_lease(const std::string&, const std::string&) override {}

    std::vector<OutboxEntry> claim_due(const std::string& platform, std::int64_t now, int limit,
                                       const std::string&, std::int64_t) override {
        return due(platform, now, limit);
    }

    void unclaim(const std::vector<std::int64_t>&, const std::string&) override {}

    std::int64_t lock_game(std::int64_t game_id) override {
        // Held once, the row stays held to the end: the revision is known from then on.
        if (memo_open_ && memo_.locked.count(game_id) != 0)
            return memo_.revisions.at(game_id);
        Statement s(db_, std::string("SELECT revision FROM games WHERE id = ?1") + D::for_update);
        s.bind(1, game_id);
        if (D::pipelined && memo_open_)
            return lock_and_read(s, game_id);
        if (!s.step())
            throw std::logic_error("storage: no game " + std::to_string(game_id));
        if (memo_open_) {
            memo_.locked.insert(game_id);
            memo_.revisions[game_id] = s.column_int(0);
        }
        return s.column_int(0);
    }

    // lock_game with what a post reads of the game it holds (the service loads a game only to
    // read or change it), in one round trip: its clocks, log, offers, forecasts, channels
    // and seated players. Each is kept in the memo.
    std::int64_t lock_and_read(Statement& lock, std::int64_t game_id) {
        Statement clocks_q(db_, clocks_sql), actions_q(db_, actions_sql),
            forecasts_q(db_, forecasts_sql), channels_q(db_, bound_channels_sql()),
            offers_q(db_, "SELECT kind, seat, ply FROM offers WHERE game_id = ?1"),
            players_q(db_, std::string("SELECT ") + player_columns +
                               " FROM players WHERE id IN (SELECT white FROM games WHERE id = ?1 "
                               "UNION ALL SELECT black FROM games WHERE id = ?1)");
        for (Statement* q :
             {&clocks_q, &actions_q, &forecasts_q, &channels_q, &offers_q, &players_q})
            q->bind(1, game_id);
        D::together(
            db_, {&lock, &clocks_q, &actions_q, &forecasts_q, &channels_q, &offers_q, &players_q});
        if (!lock.step())
            throw std::logic_error("storage: no game " + std::to_string(game_id));
        const std::int64_t revision = lock.column_int(0);
        memo_.locked.insert(game_id);
        memo_.revisions[game_id] = revision;
        memo_.clocks[game_id] = read_clocks(clocks_q, game_id);
        read_actions(actions_q, game_id);
        read_forecasts(forecasts_q, game_id);
        read_bound_channels(channels_q, game_id);
        memo_.offers[{game_id, OfferKind::Draw}] = std::nullopt;
        memo_.offers[{game_id, OfferKind::Takeback}] = std::nullopt;
        while (offers_q.step()) {
            const OfferKind kind =
                offers_q.column_text(0) == "draw" ? OfferKind::Draw : OfferKind::Takeback;
            memo_.offers[{game_id, kind}] = Offer{kind, seat_from(offers_q.column_text(1)),
                                                  static_cast<int>(offers_q.column_int(2))};
        }
        while (players_q.step()) {
            const PlayerRecord p = read_player(players_q);
            memo_.players[p.id] = p;
            memo_.accounts[{p.platform, p.user_id}] = p;
        }
        return revision;
    }

    bool claim_due_game(std::int64_t game_id, std::int64_t now) override {
        Statement s(db_, std::string("SELECT 1 FROM games WHERE id = ?1 AND next_deadline <= ?2") +
                             D::skip_locked);
        s.bind(1, game_id).bind(2, now);
        return s.step();
    }

    bool claim_digest(std::int64_t player_id, std::int64_t now) override {
        Statement s(db_,
                    std::string("SELECT 1 FROM digests WHERE player_id = ?1 AND next_at <= ?2") +
                        D::skip_locked);
        s.bind(1, player_id).bind(2, now);
        return s.step();
    }

    std::vector<std::pair<std::string, int>> games_under_way() override {
        Statement s(db_, "SELECT variant, COUNT(*) FROM games WHERE status = 'ongoing' "
                         "GROUP BY variant ORDER BY variant");
        std::vector<std::pair<std::string, int>> out;
        while (s.step())
            out.emplace_back(s.column_text(0), static_cast<int>(s.column_int(1)));
        return out;
    }

    std::vector<GameRecord> newest_games(GameStatus status, int limit) override {
        Statement s(db_, std::string("SELECT ") + game_columns +
                             " FROM games WHERE status = ?1 ORDER BY id DESC LIMIT ?2");
        s.bind(1, status_name(status)).bind(2, limit);
        std::vector<GameRecord> out;
        while (s.step())
            out.push_back(read_game(s));
        return out;
    }

    std::vector<NamedRating> top_ratings(const std::string& variant, int limit) override {
        Statement s(db_, "SELECT r.player_id, r.variant, r.rating, r.deviation, r.volatility, "
                         "r.games, p.name FROM ratings r JOIN players p ON p.id = r.player_id "
                         "WHERE r.variant = ?1 ORDER BY r.rating DESC, r.player_id LIMIT ?2");
        s.bind(1, variant).bind(2, limit);
        std::vector<NamedRating> out;
        while (s.step())
            out.push_back({read_rating(s), s.column_text(6)});
        return out;
    }

    std::vector<RatingPoint> rating_history(std::int64_t player_id) override {
        Statement s(db_, "SELECT variant, games, rating, deviation, at, game_id FROM "
                         "rating_history WHERE player_id = ?1 ORDER BY variant, games");
        s.bind(1, player_id);
        std::vector<RatingPoint> out;
        while (s.step()) {
            RatingPoint p{s.column_text(0), static_cast<int>(s.column_int(1)),
                          s.column_real(2), s.column_real(3),
                          s.column_int(4),  std::nullopt};
            if (!s.is_null(5))
                p.game_id = s.column_int(5);
            out.push_back(std::move(p));
        }
        return out;
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

    // The columns banned_by, reason and at of the ban of the account ?1, ?2 (NULL: none), as
    // a statement on players adds them.
    static constexpr const char* ban_of_account =
        "(SELECT banned_by FROM bans WHERE platform = ?1 AND user_id = ?2), (SELECT reason FROM "
        "bans WHERE platform = ?1 AND user_id = ?2), (SELECT at FROM bans WHERE platform = ?1 "
        "AND user_id = ?2)";
    static std::optional<Ban> read_ban(const Statement& s, int first, const std::string& platform,
                                       const std::string& user_id) {
        if (s.is_null(first))
            return std::nullopt;
        return Ban{platform, user_id, s.column_text(first), s.column_text(first + 1),
                   s.column_int(first + 2)};
    }

    // What the open transaction has read, answered from memory when asked again. Within one
    // transaction a second read returns what the first did (PostgreSQL's serializable
    // snapshot; SQLite's one writer), but for the transaction's own writes, and those update
    // or drop here what they change. Outside a transaction nothing is kept: another daemon
    // may change any row between two statements. A savepoint rolled back empties it, since
    // its writes are gone and what they left here with them.
    struct Memo {
        std::map<std::int64_t, std::optional<PlayerRecord>> players; // by id
        std::map<std::pair<std::string, std::string>, std::optional<PlayerRecord>> accounts;
        std::map<std::pair<std::string, std::string>, std::optional<Ban>> bans;
        std::map<std::int64_t, std::vector<ClockRecord>> clocks; // by game
        std::map<std::pair<std::string, std::string>, ChannelSettings> channels;
        std::map<std::pair<std::int64_t, std::string>, std::optional<PlayerRecord>> accounts_on;
        std::map<std::int64_t, std::int64_t> revisions; // by game
        std::set<std::int64_t> locked;                  // games whose row lock_game holds
        std::map<std::int64_t, std::vector<ActionRecord>> actions; // the live log, by game
        std::map<std::pair<std::int64_t, OfferKind>, std::optional<Offer>> offers;
        std::map<std::int64_t, std::vector<ForecastRecord>> forecasts;
        std::map<std::int64_t, std::vector<std::pair<std::string, std::string>>> bound;
        // games_in_channel by platform, channel and statuses; any write to games drops them
        std::map<std::tuple<std::string, std::string, std::string>, std::vector<GameRecord>>
            channel_games;
        void clear() { *this = Memo{}; }
    };
    Memo memo_;
    bool memo_open_ = false;

    // Opens the memo for one transaction and empties it when the transaction ends, however.
    struct Remembering {
        explicit Remembering(SqlStore& store) : store_(store) {
            store_.memo_.clear();
            store_.memo_open_ = true;
        }
        ~Remembering() {
            store_.memo_.clear();
            store_.memo_open_ = false;
        }
        Remembering(const Remembering&) = delete;
        Remembering& operator=(const Remembering&) = delete;
        SqlStore& store_;
    };

    void remember(const std::optional<PlayerRecord>& p) {
        if (!memo_open_ || !p)
            return;
        memo_.players[p->id] = p;
        memo_.accounts[{p->platform, p->user_id}] = p;
    }
    // A write to players may change any row of it (a handle taken from another player).
    void forget_players() {
        memo_.players.clear();
        memo_.accounts.clear();
        memo_.accounts_on.clear();
    }

protected:
    // One transaction of a group: a savepoint, rolled back alone when `work` throws. Its
    // RELEASE is the request that waits for the writes sent ahead: when one of them failed,
    // the RELEASE did not run and the savepoint is rolled back as if `work` had thrown.
    void savepoint(const std::function<void()>& work) {
        D::exec_ahead(db_, "SAVEPOINT one_of_group");
        try {
            work();
            db_.exec("RELEASE SAVEPOINT one_of_group");
        } catch (...) {
            memo_.clear();
            D::abandon(db_); // what was sent ahead is rolled back with the rest
            // When the savepoint cannot be rolled back (the database ended the whole
            // transaction), this error, not the work's, goes up: the group must end.
            db_.exec("ROLLBACK TO SAVEPOINT one_of_group");
            db_.exec("RELEASE SAVEPOINT one_of_group");
            throw;
        }
    }
    bool grouped_ = false; // inside group(): transactions are savepoints

    // PostgreSQL, inside a transaction: what a post changes of a game's row (its revision once
    // per change of the game, its next deadline) is held back and written as one UPDATE just
    // before the next request that waits or marks a point of the transaction (a read, a
    // savepoint, the commit). A move changed the row twice, and each change is a new version
    // of the row with an entry in each of its indexes. Dropped with what was sent ahead.
    struct HeldGame {
        std::int64_t bumps = 0;
        std::optional<std::optional<std::int64_t>> deadline; // set: the deadline to write
    };
    std::map<std::int64_t, HeldGame> held_games_;
    void write_held_games() {
        const auto held = std::move(held_games_);
        held_games_.clear();
        for (const auto& [game_id, h] : held) {
            Statement s(db_, "UPDATE games SET revision = revision + ?2, next_deadline = CASE "
                             "WHEN ?3 = 1 THEN ?4 ELSE next_deadline END WHERE id = ?1 AND "
                             "(?2 <> 0 OR next_deadline IS DISTINCT FROM ?4)");
            s.bind(1, game_id).bind(2, h.bumps).bind(3, h.deadline ? 1 : 0);
            if (h.deadline && *h.deadline)
                s.bind(4, **h.deadline);
            else
                s.bind_null(4);
            D::send(s);
        }
    }

    Database db_;
};

} // namespace ghostpost::storage::sql
