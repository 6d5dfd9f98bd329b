// The service: one post in, replies queued, all in one transaction. Every platform adapter (the
// console, each chat platform) hands its posts to Service::handle and delivers what the outbox
// holds afterwards; nothing a game needs is decided anywhere else.
#pragma once

#include "ghostpost/league/clock.h"
#include "ghostpost/platform/platform.h"
#include "ghostpost/render/cache.h"
#include "ghostpost/service/engine_player.h"
#include "ghostpost/service/random.h"
#include "ghostpost/storage/store.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace ghostpost::bot {

class ServiceMemory;
struct ServiceParts;

// What the operator configures (the TOML config maps onto this).
struct ServiceSettings {
    std::string prefix = "!";            // the command prefix
    bool accept_slash = true;            // "/" is accepted too, as chat users type it
    std::vector<std::string> moderators; // platform user ids allowed to abort or cancel any game
    std::string bot_name = "ghostpost";  // commands addressed to another "@bot" are ignored
    std::size_t max_post_bytes = 4000;   // longer posts are refused (or ignored if chatter)
    // Tests only: when not empty, a game's seed is derived from this text and the post that
    // created the game instead of fresh secret bytes, so transcripts with dice are reproducible.
    std::string fixed_seed;
    std::string default_time_control = "3d";   // a game's clock when !new names no tc=
    std::int64_t combat_deadline = 86400;      // seconds a seat may take to choose dice in a combat
    int vacation_days = 30;                    // days of !vacation per player and calendar year
    std::int64_t challenge_expiry = 7 * 86400; // seconds an unanswered challenge stays open
    int max_open_challenges = 10;              // unanswered challenges one player may have
    int max_bot_games = 3;        // games against the bot under way that one player may have
    bool rated_bot_games = false; // whether a game against the bot may be rated
    // The platforms whose clients show images in the conversation: there a channel's boards
    // are images until its moderators say otherwise.
    std::vector<std::string> inline_images;
    int max_open_games = 30; // games under way and open challenges of one player, in all
    // Commands one account may post in a minute; past it, one notice and then silence until
    // the minute is over. 0: no limit (tests and the console, whose clock stands still).
    int commands_per_minute = 0;
    std::int64_t downtime_notice_after = 120; // a longer gap between heartbeats is downtime
    // The platforms this daemon is on, for !invite; empty: any name is taken.
    std::vector<std::string> platforms;
    // The web view's address ([web] base_url, no trailing '/'): !board adds the game's page
    // (base_url + "/game/<id>"). Empty: no links.
    std::string web_base_url;
    std::size_t game_cache_size = 1000; // replayed games kept in memory, the least recently
                                        // used dropped first (a game is rebuilt from its log)
    // How many times one post (or one game's time-driven work) runs when other daemons keep
    // changing what it read (several daemons on PostgreSQL; SQLite never conflicts). PostgreSQL
    // also fails SERIALIZABLE transactions that only touched the same index pages, more often
    // while tables are small; past this many tries the daemon polls the post again later.
    int conflict_attempts = 20;
    // The language of a reply when neither its reader nor its channel chose one, nor the
    // platform said ([bot] language; a catalog's name). Tests use the pseudo-language "qps".
    std::string language = "en";
};

// Every command of the command table with the first clause of its help, in the table's order.
std::vector<MenuCommand> command_menu();
// The variants' own commands with their brief descriptions, for the platforms that register
// commands (a chat's own slash commands); both with their translations.
std::vector<MenuCommand> variant_command_menu();

// Where `post`'s cursor is stored: its cursor_key, or the platform's name.
std::string cursor_key(const Post& post);

std::int64_t system_clock_seconds();

enum class HandleStatus : std::uint8_t {
    Handled,   // the post was run (even if it only produced an error reply, or nothing)
    Duplicate, // the post was handled before; nothing changed
};

class Service {
public:
    Service(storage::Store& store, ServiceSettings settings, Clock clock = system_clock_seconds);
    ~Service();
    Service(const Service&) = delete;
    Service& operator=(const Service&) = delete;

    // Runs one post in one transaction: skips a post already handled (platform, channel,
    // message_id); runs the command or move; appends actions to the log; queues replies in the
    // outbox; advances the platform's cursor to post.cursor (when not empty); commits. User
    // mistakes are replies, not errors. Errors: any exception (storage failure, a broken log)
    // rolls back everything of the post and is rethrown; the caller retries later.
    HandleStatus handle(const Post& post);
    // Group commit: runs `work`, whose handle() and give_up() calls then share one transaction
    // of the store (Store::group), each post in a savepoint of its own, so that the posts of
    // one poll cost one commit. What the posts leave in memory (replayed games, images) is kept
    // only once the group commits; when it fails, the accounts' command counts are as before it
    // and the error is rethrown: the caller handles the same posts again, one by one. For a
    // store no other daemon shares (a conflict would fail the whole group).
    void handle_grouped(const std::function<void()>& work);

    // Sets aside a post that failed again and again (a fault of ours, not of the post's
    // author): marks it handled, moves the cursor past it and tells its author that nothing of
    // it was applied, so the posts behind it are not held up forever. Errors: storage errors.
    void give_up(const Post& post);

    // The time-driven work, each game in its own transaction: losses on time, the 80 % reminder,
    // a decision's deadline the rules answer for (Game::deadline_action), the end of vacations;
    // then the daily digests that are due; writes the heartbeat. A game ending here may start its
    // tournament's next round. Each game and each digest is claimed first, so that of several
    // daemons on one database only one does it, and run again when another daemon's work conflicts
    // with it. Returns how many games it changed. Errors: storage exceptions (the games already
    // done stay done).
    int tick();
    // Run once when the service starts, before tick: the gap since the last heartbeat, when
    // longer than downtime_notice_after, is charged to nobody and the games it touched say so.
    // Returns how many games were told. Errors: storage exceptions.
    int start_up();

    // The decisions engine seats (engine_player.h) must make now in `platform`'s ongoing games,
    // one per game whose key ("engine:<game>:<ply>") is not in `examined`; a turn without a
    // view when the game has none for the engine now. Errors: storage exceptions,
    // std::runtime_error for a log that does not replay.
    std::vector<EngineTurn> engine_turns(const std::string& platform,
                                         const std::set<std::string>& examined);

    // Queues every notice as a direct message on `platform` to each of its moderators, in one
    // transaction; nothing when there are none. Errors: storage exceptions.
    void tell_moderators(const std::string& platform, const std::vector<std::string>& notices);

    // The Reply a platform sends for an outbox entry; with a store, its `mentions` are the
    // players of the entry's platform whose handles the text names ("@bob").
    static Reply to_reply(const storage::OutboxEntry& entry, storage::Store* store = nullptr);

    // Forgets the replayed games kept in memory (they are rebuilt from the log on demand).
    void clear_cache();
    // How many times a game was rebuilt from its whole log (for tests of the cache).
    int replays() const;
    // How many replayed games are kept in memory now (at most game_cache_size).
    std::size_t cached_games() const;

    struct CachedGame {
        std::unique_ptr<rules::Game> game;
        SeededRandom rng;
        int ply = 0;
        std::int64_t revision = 0; // the stored revision this state is the replay of
    };

private:
    HandleStatus handle_once(const Post& post);
    // Runs `attempt` (one transaction) again while it fails because another daemon changed
    // what it read (StorageError::Kind::Conflict), up to conflict_attempts times in all.
    // Inside a group commit a conflict is not tried again here: the server has failed the
    // whole group's transaction, and the daemon handles its posts again one by one.
    template <class F> auto retry_conflicts(F attempt) -> decltype(attempt()) {
        for (int n = 1;; ++n) {
            try {
                return attempt();
            } catch (const storage::StorageError& e) {
                if (e.kind() != storage::StorageError::Kind::Conflict ||
                    n >= settings_.conflict_attempts || grouping())
                    throw;
            }
            pause_before_retry(n);
        }
    }
    static void pause_before_retry(int attempt);
    bool grouping() const; // inside handle_grouped
    // What each post's run is handed (post_run.h).
    ServiceParts parts();
    // The daily digests due at `now`, each sent in its own transaction (service_digest.cpp).
    void send_digests(std::int64_t now);
    storage::Store& store_;
    ServiceSettings settings_;
    Clock clock_;
    // Replayed games, images and command counts kept from one post to the next.
    std::unique_ptr<ServiceMemory> memory_;
};

} // namespace ghostpost::bot
