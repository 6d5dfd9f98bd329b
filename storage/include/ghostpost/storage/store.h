// What the service keeps: players, games, the action log, handled posts, platform cursors, the
// outbox of replies and open offers. Store is the interface; SQLite is the embedded backend
// (open_sqlite_store). The SQL it runs sticks to what PostgreSQL also accepts where that costs
// nothing, so a shared backend can implement the same interface later.
//
// Times are Unix seconds given by the caller: storage has no clock of its own.
#pragma once

#include "ghostpost/rules/game.h"
#include "ghostpost/storage/sqlite.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ghostpost::storage {

struct PlayerRecord {
    std::int64_t id = 0;
    std::string platform;
    std::string user_id;      // the platform's stable id
    std::string name;         // the handle as last seen, without '@'
    std::string orientation = "auto"; // auto | white | black
    std::string notation = "ascii";   // ascii | unicode
    bool images = false;              // boards as PNG images by default
};

enum class GameStatus : std::uint8_t { Challenge, Ongoing, Finished, Declined, Cancelled, Aborted };
std::string_view status_name(GameStatus s); // "challenge", "ongoing", ...

struct GameRecord {
    std::int64_t id = 0;
    std::string variant;
    rules::Options options;
    std::string platform;
    std::string channel;
    std::int64_t challenger = 0;          // player id
    std::string challenged;               // handle without '@', lower case; empty: open challenge
    std::string challenger_color;         // white | black | random, as asked
    std::optional<std::int64_t> white;    // player ids once seated
    std::optional<std::int64_t> black;
    GameStatus status = GameStatus::Challenge;
    std::string result;                   // "1-0", "0-1", "1/2-1/2"; empty while unfinished
    std::string reason;                   // "checkmate", "resignation", ...
    std::vector<std::uint8_t> seed;       // the secret behind the game's random stream
    std::int64_t created_at = 0;
};

struct ActionRecord {
    std::int64_t game_id = 0;
    int ply = 0; // 1 for the first action
    rules::Seat seat = rules::Seat::White;
    std::int64_t player_id = 0;
    std::string text; // canonical text
    std::string message_id; // the post it came from
};

enum class OfferKind : std::uint8_t { Draw, Takeback };

struct Offer {
    OfferKind kind = OfferKind::Draw;
    rules::Seat seat = rules::Seat::White; // who offered
    int ply = 0;                           // plies played when offered
};

// A reply waiting to be delivered. `to_user` sends to a user's direct chat; otherwise
// `destination` is a channel id.
struct OutgoingMessage {
    std::string platform;
    bool to_user = false;
    std::string destination;
    std::string text;
    std::string code;                // a monospaced block shown after the text, may be empty
    std::vector<std::uint8_t> png;   // an image, may be empty
    std::string reply_to;            // message id answered, may be empty
    // For a private message: where to post `blocked_notice` (the game's channel) when the
    // platform refuses to deliver it because the user never opened a private chat with the bot.
    std::string notice_channel;
    std::string blocked_notice;
};

struct OutboxEntry {
    std::int64_t id = 0;
    OutgoingMessage message;
    int attempts = 0;
    std::int64_t next_attempt_at = 0;
};

class Store {
public:
    virtual ~Store() = default;

    // Runs `work` in one transaction: commits when it returns, rolls back everything and
    // rethrows when it throws. Not reentrant. Errors: SqliteError (busy past the timeout...).
    virtual void transaction(const std::function<void()>& work) = 0;

    // --- posts and cursors
    virtual bool post_handled(const std::string& platform, const std::string& channel,
                              const std::string& message_id) = 0;
    // Errors: SqliteError (a constraint error) when the post was already marked.
    virtual void mark_post_handled(const std::string& platform, const std::string& channel,
                                   const std::string& message_id, std::int64_t now) = 0;
    virtual std::optional<std::string> cursor(const std::string& platform) = 0;
    virtual void set_cursor(const std::string& platform, const std::string& cursor) = 0;

    // --- players
    // The player with this platform id, created if new; the stored name follows `name`.
    virtual PlayerRecord upsert_player(const std::string& platform, const std::string& user_id,
                                       const std::string& name) = 0;
    virtual std::optional<PlayerRecord> player(std::int64_t id) = 0;
    // The player last seen with this handle (case-insensitive, without '@') on the platform.
    virtual std::optional<PlayerRecord> player_by_name(const std::string& platform,
                                                       const std::string& name) = 0;
    virtual void save_player_settings(const PlayerRecord& player) = 0;

    // --- games
    // Stores a new game and returns its id (the record's id is ignored).
    virtual std::int64_t create_game(const GameRecord& game) = 0;
    virtual std::optional<GameRecord> game(std::int64_t id) = 0;
    // Saves seats, status and result. Errors: std::logic_error when the game does not exist.
    virtual void update_game(const GameRecord& game) = 0;
    // Games of the channel with one of `statuses`, oldest first.
    virtual std::vector<GameRecord> games_in_channel(const std::string& platform,
                                                     const std::string& channel,
                                                     const std::vector<GameStatus>& statuses) = 0;
    // Games where the player sits, challenges they made or received by name, with one of
    // `statuses`, oldest first.
    virtual std::vector<GameRecord> games_of_player(const PlayerRecord& player,
                                                    const std::vector<GameStatus>& statuses) = 0;

    // --- the action log: append-only; a takeback marks entries as taken back, never deletes
    // Errors: SqliteError (constraint) when the ply is already taken in the game.
    virtual void append_action(const ActionRecord& action) = 0;
    // The live actions of a game in ply order.
    virtual std::vector<ActionRecord> actions(std::int64_t game_id) = 0;
    virtual int action_count(std::int64_t game_id) = 0;
    // Marks every live action with ply >= `from_ply` as taken back.
    virtual void take_back(std::int64_t game_id, int from_ply) = 0;

    // --- offers (one open offer per game and kind)
    virtual void put_offer(std::int64_t game_id, const Offer& offer) = 0;
    virtual std::optional<Offer> offer(std::int64_t game_id, OfferKind kind) = 0;
    virtual void clear_offer(std::int64_t game_id, OfferKind kind) = 0;

    // --- the outbox. A sender fetches what is due, hands each entry to the platform, then
    // marks it sent, reschedules it or gives up. Delivery is at least once.
    virtual std::int64_t enqueue(const OutgoingMessage& message, std::int64_t now) = 0;
    // Pending entries of the platform due at `now`, oldest first, at most `limit`. An entry is
    // held back while an older pending entry to the same destination waits for a retry, so each
    // destination receives its replies in order. A sender that fails on one entry must skip the
    // rest of that destination in the same batch.
    virtual std::vector<OutboxEntry> due(const std::string& platform, std::int64_t now,
                                         int limit) = 0;
    virtual void mark_sent(std::int64_t id, std::int64_t now) = 0;
    // Counts one more failed attempt and sets when to try again; `error` is kept for the log.
    virtual void reschedule(std::int64_t id, std::int64_t next_attempt_at,
                            const std::string& error) = 0;
    // Stops trying (the platform refused for good); the entry is kept with `error`.
    virtual void give_up(std::int64_t id, const std::string& error) = 0;
    // Entries not yet sent nor given up, for tests and monitoring.
    virtual int pending_count(const std::string& platform) = 0;
};

// Opens (creating if needed) the SQLite database at `path` and migrates it to the current
// schema. Errors: SqliteError; std::runtime_error when the file's schema is newer than this
// program knows.
std::unique_ptr<Store> open_sqlite_store(const std::string& path,
                                         const DatabaseOptions& options = {});

// The schema version open_sqlite_store migrates to.
int sqlite_schema_version();

} // namespace ghostpost::storage
