// What the service keeps: players, games, the action log, handled posts, platform cursors, the
// outbox of replies and open offers. Store gathers the narrow interfaces below; SQLite is the
// embedded backend (open_sqlite_store, storage/sqlite/), PostgreSQL the shared one for several
// daemons (open_postgres_store, storage/postgres/). Both run the same SQL (storage/src/
// sql_store.h) but for a few words of dialect, and raise StorageError.
//
// Times are Unix seconds given by the caller: storage has no clock of its own.
#pragma once

#include "ghostpost/rules/game.h"
#include "ghostpost/storage/error.h"
#include "ghostpost/storage/postgres.h"
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
    std::string user_id; // the platform's stable id: who the player is
    std::string name;    // the display name as last seen, for display only
    std::string handle;  // the platform's unique username as last seen, lower case, without
                         // '@'; empty when the account has none. "@handle" resolves here.
    std::string orientation = "auto"; // auto | white | black
    std::string notation = "ascii";   // ascii | unicode
    bool images = false;              // boards as PNG images by default
    bool reminders = false;           // private reminders of decisions and deadlines
    std::int64_t vacation_until = 0;  // the player's clocks stand still before this time
    int vacation_year = 0;            // the UTC year `vacation_used` counts for
    std::int64_t vacation_used = 0;   // seconds of vacation taken in that year
    // The player this account was linked to (!link): its posts are that player's, and its
    // own row keeps only the account (platform, id, name, handle). 0: a player of its own.
    std::int64_t linked_to = 0;
    // The language of what is sent to this player (issue #38), a catalog's name ("de",
    // "pt_BR"): their own choice (!settings language=), '' for none; and what their platform
    // last said, for when they chose none.
    std::string language;
    std::string platform_language;
};

// How the boards the bot posts in a channel look, whoever's move they follow: set by the
// channel's moderators (!channel settings). A channel never set has these defaults.
struct ChannelSettings {
    std::string platform;
    std::string channel;
    std::string orientation = "white"; // white | black: the side at the bottom
    std::string notation = "ascii";    // ascii | unicode
    bool images = false;               // boards as PNG images
    std::string style = "board";       // board | compact: after a move, the board or one line
    std::string language;              // of the replies everyone here reads ("fr"); '' for none
    bool saved = false; // read from a row: a moderator set them (else the service's defaults)
};

// A one-time code of !link (an account joins a player) or !invite (a channel of another
// platform follows a game), good until `expires_at`.
struct LinkCode {
    std::string code;
    std::string kind;        // "link" | "invite" | "team" (game: the team challenge)
    std::int64_t player = 0; // link: the player the account will join
    std::int64_t game = 0;   // invite: the game the channel will follow
    std::string platform;    // invite: the platform where it must be posted
    std::int64_t expires_at = 0;
};

enum class GameStatus : std::uint8_t { Challenge, Ongoing, Finished, Declined, Cancelled, Aborted };
std::string_view status_name(GameStatus s); // "challenge", "ongoing", ...

struct GameRecord {
    std::int64_t id = 0;
    std::string variant;
    rules::Options options;
    std::string platform;
    std::string channel;
    std::int64_t challenger = 0; // player id
    std::string challenged;      // handle without '@', lower case; empty: open challenge
    std::optional<std::int64_t> challenged_id; // the account challenged, once known: only it
                                               // may answer (a handle can change hands)
    std::string challenger_color;              // white | black | random, as asked
    std::optional<std::int64_t> white;         // player ids once seated
    std::optional<std::int64_t> black;
    GameStatus status = GameStatus::Challenge;
    std::string result;             // "1-0", "0-1", "1/2-1/2"; empty while unfinished
    std::string reason;             // "checkmate", "resignation", ...
    std::vector<std::uint8_t> seed; // the secret behind the game's random stream
    std::int64_t created_at = 0;
    std::string time_control = "none"; // canonical text of the correspondence clock ("3d")
    bool rated = true;                 // whether the result counts for ratings
    bool paused = false;               // a moderator stopped the game's clocks and moves
    std::int64_t revision = 0; // bumped by every change of the game (actions, takebacks, seats,
                               // status) in any process: what a cache of the game is keyed by
};

// One seat's correspondence clock in one game. A row exists once the game is under way.
struct ClockRecord {
    rules::Seat seat = rules::Seat::White;
    std::int64_t remaining = 0;      // time left when the clock last stopped or started
    std::int64_t running_since = 0;  // when it started running; 0 when stopped
    std::int64_t deciding_since = 0; // when the seat's current decision began; 0: none
    std::int64_t budget = 0;         // time left when the decision began (for the 80 % reminder)
    bool warned = false;             // the 80 % reminder went out for this decision
};

// One moderator action, as the audit log keeps it.
struct ModAction {
    std::int64_t id = 0;
    std::string platform;
    std::string moderator; // the moderator's handle without '@'
    std::string action;    // what was done, e.g. "adjudicate #3 1-0"
    std::int64_t at = 0;
};

struct Ban {
    std::string platform;
    std::string user_id;
    std::string by;     // the moderator's handle
    std::string reason; // may be empty
    std::int64_t at = 0;
};

struct ActionRecord {
    std::int64_t game_id = 0;
    int ply = 0; // 1 for the first action
    rules::Seat seat = rules::Seat::White;
    std::int64_t player_id = 0;
    std::string text;       // canonical text
    std::string message_id; // the post it came from
    // What chance made of it as the channel was told (a variant's reveals, rolls, combat
    // results), one per line; empty for games without dice.
    std::string rolls;
};

enum class OfferKind : std::uint8_t { Draw, Takeback };

struct Offer {
    OfferKind kind = OfferKind::Draw;
    rules::Seat seat = rules::Seat::White; // who offered
    int ply = 0;                           // plies played when offered
};

// A button offered with a reply (bot::Button): its label, and the command a press posts.
struct ButtonRecord {
    std::string label;
    std::string command;
};

// An account a reply names by its display name because it has no handle: a platform that can
// link that name to the account (a mention that links the account) notifies the player.
struct NamedAccount {
    std::string user_id;
    std::string name;
};

// One seat's conditional moves in one game (!forecast): lines of canonical action texts, each
// starting with the action that follows the first `ply` live actions of the log. Private to its
// player until a line is played.
struct ForecastRecord {
    std::int64_t game_id = 0;
    rules::Seat seat = rules::Seat::White;
    std::int64_t player_id = 0;
    int ply = 0;
    std::vector<std::vector<std::string>> lines;
};

// A player's daily digest by direct message: sent on `platform` at `hour` o'clock UTC; the
// time-driven job sends it when `next_at` has come.
struct DigestRecord {
    std::int64_t player_id = 0;
    std::string platform;
    int hour = 8;
    std::int64_t next_at = 0;
};

// A reply waiting to be delivered. `to_user` sends to a user's direct chat; otherwise
// `destination` is a channel id.
struct OutgoingMessage {
    std::string platform;
    bool to_user = false;
    std::string destination;
    std::string text;
    std::string code;              // a monospaced block shown after the text, may be empty
    std::vector<std::uint8_t> png; // an image, may be empty
    std::string reply_to;          // message id answered, may be empty
    // For a private message: where to post `blocked_notice` (the game's channel) when the
    // platform refuses to deliver it because the user never opened a private chat with the bot.
    std::string notice_channel;
    std::string blocked_notice;
    std::vector<ButtonRecord> buttons; // in order; labels and commands hold no tab or line break
    std::vector<NamedAccount> named;   // accounts named in `text` by display name
    bool ends_game = false;            // tells a game's result (bot::Reply::ends_game)
};

// One platform's replies waiting in the outbox.
struct OutboxBacklog {
    std::string platform;
    int pending = 0;
    std::int64_t oldest_created_at = 0; // when the oldest waiting reply was queued
};

struct OutboxEntry {
    std::int64_t id = 0;
    OutgoingMessage message;
    int attempts = 0;
    std::int64_t next_attempt_at = 0;
    std::int64_t created_at = 0; // with `id`, names the row for good: ids of pruned rows return
};

// A tournament run from one channel. Its name is unique on the platform.
enum class TournamentStatus : std::uint8_t { Open, Running, Finished };
std::string_view tournament_status_name(TournamentStatus s); // "open", "running", "finished"

struct TournamentRecord {
    std::int64_t id = 0;
    std::string platform;
    std::string channel;
    std::string name; // as created; looked up case-insensitively
    std::string variant;
    std::string format; // roundrobin | double | swiss | knockout
    int rounds = 0;     // planned rounds; 0 until fixed (at the latest when it starts)
    std::string tc;     // the time control of its games as given; empty: the service default
    TournamentStatus status = TournamentStatus::Open;
    std::int64_t creator = 0; // player id
    int current_round = 0;    // 0 before the first round
    std::int64_t created_at = 0;
    // "rounds": one round after another; "allatonce": every game of a round robin starts
    // together when the tournament starts.
    std::string schedule = "rounds";
    // "auto": the next round starts when the last game of a round ends; "manual": it waits
    // for !tourney next.
    std::string next_round = "auto";
    std::string initial_colour; // "white" or "black", drawn at the start (Swiss colours)
};

struct EntrantRecord {
    std::int64_t player_id = 0;
    int seed = 0;        // join order while open; 0 = the first seed once started
    int first_round = 1; // a late entrant is paired from a later round
    // The first round the player is not paired in, having withdrawn; empty while in.
    std::optional<int> withdrawn_round;
};

// A member's vote on a team's decision: the action's text as they wrote it, read again when
// the vote closes.
struct TeamVote {
    std::int64_t player_id = 0;
    std::string action;
    std::int64_t voted_at = 0;
    bool operator==(const TeamVote&) const = default;
};

// Two entrants a Swiss never pairs, as if they had met.
struct ForbiddenPairing {
    std::int64_t player_a = 0; // the smaller id
    std::int64_t player_b = 0;
    bool operator==(const ForbiddenPairing&) const = default;
};

// A round a player sits out for half a point, asked for before it was paired.
struct ByeRequest {
    std::int64_t player_id = 0;
    int round = 0;
    bool operator==(const ByeRequest&) const = default;
};

// One board of one round: a game, or a bye when `black` is empty.
struct PairingRecord {
    std::int64_t tournament_id = 0;
    int round = 0; // 1 for the first
    int board = 0; // 1 for the first; knockout boards are in bracket order
    std::int64_t white = 0;
    std::optional<std::int64_t> black;
    std::optional<std::int64_t> game_id;
    // The float the board gave each player as paired (a Swiss): "down", "up" or "none";
    // empty when not recorded.
    std::string white_float;
    std::string black_float;
};

// A player's Glicko-2 rating in one variant, on the Glicko scale.
struct RatingRecord {
    std::int64_t player_id = 0;
    std::string variant;
    double rating = 1500.0;
    double deviation = 350.0;
    double volatility = 0.06;
    int games = 0;
};

// One point of a player's rating history: the rating after their `games`-th rated game.
struct RatingPoint {
    std::string variant;
    int games = 0;
    double rating = 0;
    double deviation = 0;
    std::int64_t at = 0;
    std::optional<std::int64_t> game_id; // the game that moved it there, when recorded
};

// A rating with the display name of its player's row, for a leaderboard.
struct NamedRating {
    RatingRecord rating;
    std::string name;
};

// The narrow interfaces. Each backend implements all of them in one class; Store gathers them,
// so the service holds one object. Every call may also throw StorageError for the database
// itself (busy, a conflict with another daemon, a lost connection); only the errors a caller
// must tell apart are named below.

// Posts handled, each platform's cursor, and which daemon owns a platform's polling.
class PostLog {
public:
    virtual ~PostLog() = default;
    virtual bool post_handled(const std::string& platform, const std::string& channel,
                              const std::string& message_id) = 0;
    // Errors: StorageError (Constraint, or Conflict when another daemon marked it meanwhile) when
    // the post was already marked.
    virtual void mark_post_handled(const std::string& platform, const std::string& channel,
                                   const std::string& message_id, std::int64_t now) = 0;
    virtual std::optional<std::string> cursor(const std::string& platform) = 0;
    virtual void set_cursor(const std::string& platform, const std::string& cursor) = 0;
    // A call under a limit that every daemon on the database shares (a platform's requests a
    // second for the whole bot): the milliseconds the caller waits before making it, the call
    // counted. Calls are spaced 1000 / (per_second - burst - 1) ms apart by the database
    // server's clock, `burst` of them allowed early, so that no second holds more than
    // `per_second` calls however many daemons make them. With SQLite one daemon owns the file
    // and its platforms' own limiters keep their limits: 0, nothing written.
    virtual std::int64_t take_shared_slot(const std::string& key, int per_second, int burst) {
        (void)key;
        (void)per_second;
        (void)burst;
        return 0;
    }
    // Takes or renews the lease `name` for `holder` until `expires_at`: true when `holder` has it
    // now, false while another holder's lease runs past `now`. A lease is how several daemons
    // on one database agree that one of them polls a platform; with SQLite, one daemon owns
    // the file and every lease is its own (true, nothing written).
    virtual bool hold_lease(const std::string& name, const std::string& holder, std::int64_t now,
                            std::int64_t expires_at) = 0;
    // Gives the lease up at once (a daemon stopping), when `holder` has it.
    virtual void release_lease(const std::string& name, const std::string& holder) = 0;
};

// Players, their accounts on several platforms, one-time codes, ratings and daily digests.
class Players {
public:
    virtual ~Players() = default;
    // The player with this platform id, created if new; the stored name and handle follow
    // `name` and `handle` (empty: the account has no handle). A handle belongs to one account
    // of the platform at a time: any other player holding it loses it.
    virtual PlayerRecord upsert_player(const std::string& platform, const std::string& user_id,
                                       const std::string& name, const std::string& handle) = 0;
    virtual std::optional<PlayerRecord> player(std::int64_t id) = 0;
    virtual std::optional<PlayerRecord> player_by_account(const std::string& platform,
                                                          const std::string& user_id) = 0;
    // The player whose account holds this handle (case-insensitive, without '@') on the
    // platform; never matches a display name. nullopt for an empty handle.
    virtual std::optional<PlayerRecord> player_by_handle(const std::string& platform,
                                                         const std::string& handle) = 0;
    virtual void save_player_settings(const PlayerRecord& player) = 0;

    // Makes the account of player row `account` part of player `owner` (linked_to).
    virtual void link_account(std::int64_t account, std::int64_t owner) = 0;
    // The owner's account on `platform`: its own row when it is of that platform, else the row
    // linked to it there; nullopt when it has none there.
    virtual std::optional<PlayerRecord> account_on(std::int64_t owner,
                                                   const std::string& platform) = 0;
    // Whether the player was ever in a game (challenger, challenged or seated) or has a rating.
    virtual bool player_has_history(std::int64_t player) = 0;
    virtual void put_code(const LinkCode& code) = 0;
    // The code, used up (deleted); nullopt when unknown or expired at `now`.
    virtual std::optional<LinkCode> take_code(const std::string& code, std::int64_t now) = 0;
    // Saves the player's vacation fields (vacation_until, vacation_year, vacation_used).
    virtual void save_vacation(const PlayerRecord& player) = 0;

    virtual std::optional<RatingRecord> rating(std::int64_t player_id,
                                               const std::string& variant) = 0;
    // Saves the rating and its point in the history; `game` names the game that moved it.
    virtual void save_rating(const RatingRecord& rating, std::int64_t now,
                             std::optional<std::int64_t> game = std::nullopt) = 0;
    // The player's ratings in every variant they played, by variant name.
    virtual std::vector<RatingRecord> ratings_of_player(std::int64_t player_id) = 0;
    // The best `limit` ratings of the variant among the platform's players, best first.
    virtual std::vector<RatingRecord> leaderboard(const std::string& platform,
                                                  const std::string& variant, int limit) = 0;

    // The player's daily digest; nullopt when they did not ask for one.
    virtual std::optional<DigestRecord> digest(std::int64_t player_id) = 0;
    // Creates or replaces the player's digest.
    virtual void put_digest(const DigestRecord& digest) = 0;
    virtual void clear_digest(std::int64_t player_id) = 0;
    // The digests whose `next_at` is at or before `now`, earliest first (by an index: the
    // others are never read). The time-driven job sends one only once claim_digest took it.
    virtual std::vector<DigestRecord> digests_due(std::int64_t now) = 0;
    // Within a transaction: takes the player's digest for the time-driven job when it is still
    // due at `now`, holding its row until the end. False when it is no longer due (another
    // daemon sent it and moved `next_at` on) or another daemon holds it right now, so two
    // daemons never both send the same digest.
    virtual bool claim_digest(std::int64_t player_id, std::int64_t now) = 0;
};

// Games, their action log, offers, clocks and deadlines.
class Games {
public:
    virtual ~Games() = default;
    // Stores a new game and returns its id (the record's id is ignored).
    virtual std::int64_t create_game(const GameRecord& game) = 0;
    virtual std::optional<GameRecord> game(std::int64_t id) = 0;
    // Saves seats, status and result. Errors: std::logic_error when the game does not exist.
    virtual void update_game(const GameRecord& game) = 0;
    // Games of the channel (their own, or one that follows them) with one of `statuses`,
    // oldest first.
    virtual std::vector<GameRecord> games_in_channel(const std::string& platform,
                                                     const std::string& channel,
                                                     const std::vector<GameStatus>& statuses) = 0;
    // Games where the player sits, challenges they made or received (by account, or by their
    // handle while the challenged account is not known yet), with one of
    // `statuses`, oldest first.
    virtual std::vector<GameRecord> games_of_player(const PlayerRecord& player,
                                                    const std::vector<GameStatus>& statuses) = 0;
    // A channel of any platform that follows the game besides its own: its public replies go
    // there too, and its players may play from there.
    virtual void bind_channel(std::int64_t game, const std::string& platform,
                              const std::string& channel) = 0;
    // The game's other channels as (platform, channel), in the order they were bound.
    virtual std::vector<std::pair<std::string, std::string>> bound_channels(std::int64_t game) = 0;
    // Within a transaction: the game's stored revision, with the game's row held until the
    // transaction ends, so that a second transaction changing the same game waits for this one
    // and then fails with StorageError::Kind::Conflict (it is run again on what this one
    // committed). SQLite's one writer at a time gives the same order without a lock.
    // Errors: std::logic_error when the game does not exist.
    virtual std::int64_t lock_game(std::int64_t game_id) = 0;
    // The platform gave channel `from` the new id `to` for good: its games (every status), the
    // tournaments run from it, the games it follows, and the replies still waiting for it (its
    // channel replies, and the notices of private ones) move to `to`. Returns how many rows
    // moved; 0 when nothing was kept under `from`, so that moving twice changes nothing.
    virtual int move_channel(const std::string& platform, const std::string& from,
                             const std::string& to) = 0;

    // --- the action log: append-only; a takeback marks entries as taken back, never deletes
    // Errors: StorageError (Constraint) when the ply is already taken in the game.
    virtual void append_action(const ActionRecord& action) = 0;
    // The live actions of a game in ply order.
    virtual std::vector<ActionRecord> actions(std::int64_t game_id) = 0;
    virtual int action_count(std::int64_t game_id) = 0;
    // The game's revision as stored now (see GameRecord::revision). Errors: std::logic_error
    // when the game does not exist.
    virtual std::int64_t game_revision(std::int64_t game_id) = 0;
    // Marks every live action with ply >= `from_ply` as taken back.
    virtual void take_back(std::int64_t game_id, int from_ply) = 0;

    // --- offers (one open offer per game and kind)
    virtual void put_offer(std::int64_t game_id, const Offer& offer) = 0;
    virtual std::optional<Offer> offer(std::int64_t game_id, OfferKind kind) = 0;
    virtual void clear_offer(std::int64_t game_id, OfferKind kind) = 0;
    // The game's forecasts (at most one per seat), White's first.
    virtual std::vector<ForecastRecord> forecasts(std::int64_t game_id) = 0;
    // Creates or replaces the forecast of `forecast.seat` in its game.
    virtual void put_forecast(const ForecastRecord& forecast) = 0;
    // Errors: none; clearing a forecast that does not exist does nothing.
    virtual void clear_forecast(std::int64_t game_id, rules::Seat seat) = 0;

    // --- correspondence clocks, deadlines and the time-driven job's heartbeat
    // Every game with one of `statuses` on any platform, oldest first.
    virtual std::vector<GameRecord> games_with_status(const std::vector<GameStatus>& statuses) = 0;
    // When the time-driven job must next look at the game; nullopt: never (no clock runs, no
    // deadline waits). update_game clears it for a game that stops and makes a game that
    // starts or resumes due at once; the service sets it whenever the game's clocks change.
    virtual void set_next_deadline(std::int64_t game_id, std::optional<std::int64_t> at) = 0;
    // The games whose next deadline is at or before `now`, earliest first (by an index: the
    // games not due are never read).
    virtual std::vector<GameRecord> games_due(std::int64_t now) = 0;
    // Within a transaction: takes the game for the time-driven job when its deadline is still
    // due at `now`, holding its row until the end. False when it is no longer due or another
    // daemon holds it right now (it will be looked at again), so two daemons never both time
    // the same game out.
    virtual bool claim_due_game(std::int64_t game_id, std::int64_t now) = 0;
    // The game's clock rows (none before the service first set them), White first.
    virtual std::vector<ClockRecord> clocks(std::int64_t game_id) = 0;
    // Creates or replaces the row of `clock.seat` in the game.
    virtual void put_clock(std::int64_t game_id, const ClockRecord& clock) = 0;
    // The last heartbeat the time-driven job wrote; nullopt before the first.
    virtual std::optional<std::int64_t> heartbeat() = 0;
    virtual void put_heartbeat(std::int64_t now) = 0;
};

// Tournaments run from a channel.
class Tournaments {
public:
    virtual ~Tournaments() = default;
    // Stores a new tournament and returns its id. Errors: StorageError (Constraint) when the
    // platform already has a tournament of that name.
    virtual std::int64_t create_tournament(const TournamentRecord& tournament) = 0;
    virtual std::optional<TournamentRecord> tournament(std::int64_t id) = 0;
    // By name, case-insensitively.
    virtual std::optional<TournamentRecord> tournament_by_name(const std::string& platform,
                                                               const std::string& name) = 0;
    // Tournaments run from the channel, oldest first.
    // Every platform's tournaments, the newest first.
    virtual std::vector<TournamentRecord> recent_tournaments(int limit) = 0;
    virtual std::vector<TournamentRecord> tournaments_in_channel(const std::string& platform,
                                                                 const std::string& channel) = 0;
    // Saves rounds, status, current round and initial colour. Errors: std::logic_error when it
    // does not exist.
    virtual void update_tournament(const TournamentRecord& tournament) = 0;
    // Adding a player twice changes nothing.
    virtual void add_entrant(std::int64_t tournament_id, std::int64_t player_id,
                             std::int64_t now) = 0;
    virtual void remove_entrant(std::int64_t tournament_id, std::int64_t player_id) = 0;
    // Entrants by seed (join order until seeds are set), then by joining.
    virtual std::vector<EntrantRecord> entrants(std::int64_t tournament_id) = 0;
    virtual void set_seed(std::int64_t tournament_id, std::int64_t player_id, int seed) = 0;
    // A late entrant's first round and a withdrawal, as the record says.
    virtual void update_entrant(std::int64_t tournament_id, const EntrantRecord& entrant) = 0;
    // Asking twice changes nothing; withdrawing a request that is not there neither.
    virtual void request_bye(std::int64_t tournament_id, const ByeRequest& bye) = 0;
    virtual void withdraw_bye(std::int64_t tournament_id, const ByeRequest& bye) = 0;
    // By round, then player.
    virtual std::vector<ByeRequest> byes(std::int64_t tournament_id) = 0;
    // The pair in either order; forbidding twice changes nothing.
    virtual void forbid_pairing(std::int64_t tournament_id, std::int64_t a, std::int64_t b) = 0;
    virtual void allow_pairing(std::int64_t tournament_id, std::int64_t a, std::int64_t b) = 0;
    virtual std::vector<ForbiddenPairing> forbidden_pairings(std::int64_t tournament_id) = 0;

    // --- team games (a channel plays as one)
    // Joining twice changes nothing; false when the player was a member already.
    virtual bool add_team_member(const std::string& platform, const std::string& channel,
                                 std::int64_t player_id, std::int64_t now) = 0;
    // False when the player was no member.
    virtual bool remove_team_member(const std::string& platform, const std::string& channel,
                                    std::int64_t player_id) = 0;
    // The members' player ids, in the order they joined.
    virtual std::vector<std::int64_t> team_members(const std::string& platform,
                                                   const std::string& channel) = 0;
    // A member's vote on a decision, replacing the one they gave before on it.
    virtual void put_team_vote(std::int64_t game_id, std::int64_t turn, const TeamVote& vote) = 0;
    // The votes on a decision, the earliest first.
    virtual std::vector<TeamVote> team_votes(std::int64_t game_id, std::int64_t turn) = 0;
    virtual void start_round(std::int64_t tournament_id, int round, std::int64_t now) = 0;
    // Marks the round complete; false when it was already (so it is announced once).
    virtual bool complete_round(std::int64_t tournament_id, int round, std::int64_t now) = 0;
    virtual void add_pairing(const PairingRecord& pairing) = 0;
    // Every board of every round, by round and board.
    virtual std::vector<PairingRecord> pairings(std::int64_t tournament_id) = 0;
    // The board a game was created for, if it is a tournament game.
    virtual std::optional<PairingRecord> pairing_of_game(std::int64_t game_id) = 0;
};

// The replies waiting to be delivered. A sender claims what is due, hands each entry to the
// platform, then marks it sent, reschedules it or gives up. Delivery is at least once.
class Outbox {
public:
    virtual ~Outbox() = default;
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
    // Every platform's entries not yet sent nor given up, and when the oldest was queued, for
    // the operators' health check and metrics.
    virtual std::vector<OutboxBacklog> backlog() = 0;
    // What `due` returns, claimed for `holder` until `claimed_until`: other senders neither get
    // these entries nor anything behind them to the same destination meanwhile, so several
    // daemons share one outbox and each destination still receives its replies in order. A
    // claim ends when the entry is marked sent, rescheduled or given up, by unclaim, or when
    // it runs out (its sender died). With SQLite, one daemon owns the file: the same as `due`.
    virtual std::vector<OutboxEntry> claim_due(const std::string& platform, std::int64_t now,
                                               int limit, const std::string& holder,
                                               std::int64_t claimed_until) = 0;
    // Ends the claims of `holder` on the entries `ids` that are still pending.
    virtual void unclaim(const std::vector<std::int64_t>& ids, const std::string& holder) = 0;
};

// Moderators' audit log, bans, and the board settings they give their channels.
class Moderation {
public:
    virtual ~Moderation() = default;
    virtual void log_mod_action(const ModAction& action) = 0;
    // The latest `limit` moderator actions of the platform, oldest first.
    virtual std::vector<ModAction> mod_actions(const std::string& platform, int limit) = 0;
    virtual std::optional<Ban> ban(const std::string& platform, const std::string& user_id) = 0;
    virtual void put_ban(const Ban& ban) = 0;
    // Errors: none; removing a ban that does not exist does nothing.
    virtual void remove_ban(const std::string& platform, const std::string& user_id) = 0;
    // The channel's board settings; the defaults of ChannelSettings when never saved.
    virtual ChannelSettings channel_settings(const std::string& platform,
                                             const std::string& channel) = 0;
    virtual void save_channel_settings(const ChannelSettings& settings) = 0;
};

// Read-only lists over every platform at once, for pages that show the whole database (the
// web view); each reads a bounded number of rows by an index.
class Overview {
public:
    virtual ~Overview() = default;
    // The newest `limit` games with `status`, newest first.
    virtual std::vector<GameRecord> newest_games(GameStatus status, int limit) = 0;
    // The best `limit` ratings of the variant on every platform, best first (ties by player).
    virtual std::vector<NamedRating> top_ratings(const std::string& variant, int limit) = 0;
    // Every rating the player had after a rated game, by variant, then by games played.
    virtual std::vector<RatingPoint> rating_history(std::int64_t player_id) = 0;
    // How many games are under way, by variant (variants with none are left out).
    virtual std::vector<std::pair<std::string, int>> games_under_way() = 0;
};

// Everything the service keeps, in one object.
class Store : public PostLog,
              public Players,
              public Games,
              public Tournaments,
              public Outbox,
              public Moderation,
              public Overview {
public:
    ~Store() override = default;

    // Runs `work` in one transaction: commits when it returns, rolls back everything and
    // rethrows when it throws. Not reentrant. Errors: StorageError.
    virtual void transaction(const std::function<void()>& work) = 0;
    // The same, but the commit is not flushed to disk before it returns: a killed process
    // loses nothing of it, a power cut may lose it (the next durable commit flushes it too).
    // Only for a record whose loss costs at most a repeat: a reply marked sent, which a power
    // cut can then send once more, and never a post.
    virtual void relaxed_transaction(const std::function<void()>& work) = 0;
    // Group commit: runs `work` in one transaction in which every transaction() and
    // relaxed_transaction() it makes is a savepoint, so that many posts share one commit (and
    // one flush to disk) while each still rolls back alone when it throws. Commits when `work`
    // returns; rolls back everything and rethrows when it throws, or when a savepoint could not
    // be rolled back. Default: no grouping (each transaction commits on its own).
    virtual void group(const std::function<void()>& work) { work(); }

    // Retention: deletes delivered outbox entries sent before `sent_before` (with their
    // images: a board is drawn again from the action log when asked for) and the ids of
    // posts handled before `handled_before` (the platform's cursor keeps older posts from
    // coming back). Returns how many rows went.
    virtual int prune(std::int64_t sent_before, std::int64_t handled_before) = 0;
    // Whether several daemons may share this database (leases, claims and locks are real).
    virtual bool shared() const = 0;
};

// Opens (creating if needed) the SQLite database at `path` and migrates it to the current
// schema. Errors: SqliteError; std::runtime_error when the file's schema is newer than this
// program knows.
std::unique_ptr<Store> open_sqlite_store(const std::string& path,
                                         const DatabaseOptions& options = {});

// The schema version open_sqlite_store migrates to.
int sqlite_schema_version();

// Where the database is, as the configuration says: a PostgreSQL connection (`url`, with the
// password kept apart so that it never travels in a printable string) or else an SQLite file.
struct StoreLocation {
    std::string url;      // "postgresql://user@host/db"; empty: SQLite at `path`
    std::string password; // for `url`; empty: libpq's own means (PGPASSWORD, ~/.pgpass)
    std::string path;     // the SQLite file
};

// Opens the store the location names, migrated to the current schema. Errors: StorageError,
// std::runtime_error for a schema newer than this program.
std::unique_ptr<Store> open_store(const StoreLocation& location);

} // namespace ghostpost::storage
