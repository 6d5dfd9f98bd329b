// Discord as a Platform: messages come in over the Gateway (a WebSocket on a thread of its
// own), replies go out over REST. Thin by design: JSON and HTTP mapping only.
#pragma once

#include "ghostpost/http/http.h"
#include "ghostpost/platform/platform.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace ghostpost::bot {

namespace discord {
class Gateway;
struct GatewayEvent;
struct Shared;
} // namespace discord

struct DiscordOptions {
    std::string api_url = "https://discord.com/api/v10";
    std::string gateway_url; // empty: asked with GET /gateway/bot
    std::string token;
    std::chrono::seconds request_timeout{15};
    // Discord allows 5 messages in 5 s to one channel; the outbox stays well inside that.
    Pacing pacing{std::chrono::milliseconds(1000), 50, std::chrono::seconds(300),
                  std::chrono::seconds(30)};
    // True once the daemon is stopping: a poll waiting for the Gateway returns at once.
    std::function<bool()> cancelled = [] { return false; };
    // Guilds to register the slash commands in (they appear at once); empty: globally.
    std::vector<std::string> guild_ids;
    // The choices of /new's variant option (the service's variant names).
    std::vector<std::string> variants;
    // The variants' own commands (VariantInfo::commands), each a slash command that takes a
    // game's number, listed before /help (StartContext::variant_commands).
    std::vector<MenuCommand> variant_commands;
    // Whether the bot asks for the privileged Message Content intent. Without it Discord sends
    // the text only of DMs and of messages that mention the bot; slash commands always work.
    bool message_content = true;
    // The clock of rate limits; a test's fake clock in place of the steady clock.
    std::function<std::chrono::steady_clock::time_point()> clock = std::chrono::steady_clock::now;
    // The shard this adapter connects as, of how many (IDENTIFY's "shard": [shard, shards]):
    // Discord sends it the events of the guilds with (guild_id >> 22) % shards == shard, and
    // the direct messages to shard 0. One shard of one: no "shard" is sent.
    int shard = 0;
    int shards = 1;
    // The bot's global limit shared with the other daemons on the database
    // (StartContext::shared_limit); null: this daemon's own limiter alone.
    std::function<std::chrono::milliseconds(const std::string& key, int per_second, int burst)>
        shared_limit;
    // What the adapters of one bot's shards in one daemon share (the global rate limit, the
    // identify buckets, deferred interactions, known DM channels): null for one of its own;
    // DiscordPlatform::shared() of the first for the others.
    std::shared_ptr<discord::Shared> shared;
};

// Discord's ceiling on shards we accept from the configuration or GET /gateway/bot.
constexpr int max_discord_shards = 4096;

// One MESSAGE_CREATE (or a message of GET /channels/{id}/messages), read.
struct DecodedMessage {
    std::optional<Post> post; // nullopt: not for the service (a bot's message, a system message)
    std::string problem;      // why a malformed message was skipped; empty otherwise
};

// Reads one Discord message object: identity from `author.id`, "<@id>" mentions rewritten to
// "@username" with their account from the `mentions` array, a leading mention of the bot
// itself dropped, DMs (no guild_id) marked direct. Messages of bots (this one included) and
// of kinds other than a plain message or a reply give no post. Pure; never throws.
DecodedMessage decode_message(std::string_view message_json, const std::string& bot_user_id);

// `text` with each channel Discord writes as "<#id>" written "#id", as the service reads a
// channel named in a post (Post::text). Pure.
std::string channel_mentions_as_ids(std::string_view text);

// One INTERACTION_CREATE, read. An application command of ghostpost's becomes the post its
// text would have been ("/move move:Nf3 game:3" is "!move 3 Nf3"), the user options mentions.
struct DecodedInteraction {
    std::optional<Post> post; // nullopt: nothing for the service
    std::string id;           // the interaction's id and token, to answer it; empty when
    std::string token;        // the object had none
    std::string application_id;
    std::string problem; // why a malformed interaction was skipped; empty otherwise
};
// `variant_commands` are the variants' own commands the bot registered.
DecodedInteraction decode_interaction(std::string_view interaction_json,
                                      const std::string& bot_user_id,
                                      const std::vector<MenuCommand>& variant_commands = {});

// A description's translations by language ("de", "pt_BR"), for its source text.
using Translations = std::function<std::map<std::string, std::string>(std::string_view source)>;
// ghostpost's slash commands as the JSON array PUT /applications/{id}/commands takes; /new
// offers `variants` as its variant's choices; the variants' own commands come before /help.
// Each description carries `translate`'s translations in Discord's locales (a variant's command
// its own, MenuCommand::translations).
std::string slash_commands(const std::vector<std::string>& variants,
                           const std::vector<MenuCommand>& variant_commands = {},
                           const Translations& translate = {});

// The cursor of the Discord platform: the last handled message id of each channel, as a JSON
// object {"channel id": "message id"}, and under "bot:<channel id>" the newest message the bot
// itself wrote there, when it is newer. The newest 500 channels are kept.
using DiscordCursor = std::map<std::string, std::string>;
DiscordCursor parse_discord_cursor(const std::string& text);
std::string format_discord_cursor(const DiscordCursor& cursor);
// The cursor's key for the bot's own newest message in `channel`.
std::string own_key(const std::string& channel);

// Whether snowflake `a` is older than snowflake `b` (both decimal strings).
bool snowflake_less(const std::string& a, const std::string& b);

// What a fresh session reads of a guild, from its GUILD_CREATE's "d" and the cursor as the
// session began: each channel whose newest message is newer than the cursor's entry for it,
// from that entry; each channel the cursor does not name (never handled, or dropped as one of
// the oldest) whose newest message is newer than ten seconds before the cursor's newest handled
// post, from that point; not one whose newest message is the bot's own there. Nothing when the
// cursor has no handled post: a bot that never handled a post missed none.
DiscordCursor unread_channels(const nlohmann::json& guild, const DiscordCursor& cursor);

class DiscordPlatform final : public Platform {
public:
    // `http` must outlive the platform. The Gateway starts on the first poll.
    DiscordPlatform(HttpClient& http, DiscordOptions options);
    // The same on an HTTP client of its own (a client makes one request at a time: each shard
    // of a daemon has one).
    DiscordPlatform(std::unique_ptr<HttpClient> http, DiscordOptions options);
    ~DiscordPlatform() override;
    DiscordPlatform(const DiscordPlatform&) = delete;
    DiscordPlatform& operator=(const DiscordPlatform&) = delete;

    std::string name() const override { return "discord"; }
    // "discord" alone; with several shards "discord/shard/<i>/<n>", so that each shard has a
    // lease and a cursor of its own. The count is in the key: a daemon that counts differently
    // never shares a shard's cursor with one that does not.
    std::string lane() const override;
    // Shard 0 delivers the replies of all (the outbox is the platform's).
    bool delivers() const override { return options_.shard == 0; }
    // Another daemon took the shard: its Gateway connection ends here, and a later poll starts
    // a fresh session (IDENTIFY, then the catch-up).
    void idle() override;
    std::shared_ptr<discord::Shared> shared() const { return shared_; }
    // GET /gateway/bot: the number of shards Discord recommends for the bot (one per 1,000
    // guilds or so). Errors: PlatformError: Unauthorized, RateLimited, Cancelled, Transient.
    int recommended_shards();

    // The messages the Gateway delivered, waiting up to `timeout` for one. After a fresh
    // session (IDENTIFY, not RESUME) it first catches up every channel of the cursor with
    // GET /channels/{id}/messages?after=<last handled id>, oldest first, since the Gateway does
    // not replay what was posted while the daemon was down; whether a caught-up post is direct
    // is read from its channel (GET /channels/{id}, once per channel). Each post's cursor is
    // `cursor` with its channel moved to its id. A refused token (401 from GET /gateway/bot or
    // while catching up, Gateway close 4004 or 4014) returns no posts and makes finished()
    // true. Errors: PlatformError: RateLimited, Cancelled, Transient.
    std::vector<Post> poll(const std::string& cursor, std::chrono::seconds timeout) override;

    // POST /channels/{id}/messages (for a user, the DM channel from POST /users/@me/channels
    // first): content of at most 2000 characters, the code in a code block, longer replies
    // in several messages split at line breaks, the PNG as files[0] with payload_json, a
    // nonce from the reply's idempotency key. 50007 to a user is Blocked. Never throws for an
    // answer from Discord. Errors: PlatformError of kind Cancelled only.
    Delivery send(const Reply& reply) override;

    Pacing pacing() const override { return options_.pacing; }
    // Every channel but a DM is a guild channel, paced as a group.
    bool is_group(const std::string& channel) const override;
    // True after Discord refused the bot for good (HTTP 401, Gateway close 4004 or 4014): the
    // lane must stop.
    bool finished() const override;
    // Why Discord refused the bot and what the operator must do; empty while it has not.
    std::string fatal_error() const;
    std::string refused() const override { return fatal_error(); }
    // The Gateway has had no live session for more than a few seconds: it is reconnecting.
    std::string trouble() const override;

private:
    using Instant = std::chrono::steady_clock::time_point;
    struct Response; // one REST answer, read
    // One REST call with the bot's Authorization, paced by the route's bucket and the global
    // limit. Errors: HttpError (network, timeout, cancelled).
    Response call(const std::string& method, const std::string& route, const std::string& path,
                  HttpRequest request);
    // The wait before `route` may be called again; zero when it may now.
    std::chrono::milliseconds wait_for(const std::string& route);
    void start_gateway();
    // GET /gateway/bot, its body an object with a "url"; a body of null when the token was
    // refused (then finished()). Errors: PlatformError: RateLimited, Cancelled, Transient.
    Response gateway_bot();
    // Discord refused the bot for good, for `why`: finished() from now on.
    void refuse(const std::string& why);
    // Whether `channel` is a DM, from GET /channels/{id} the first time, cached after.
    // Errors: PlatformError: Unauthorized, RateLimited, Cancelled, Transient.
    bool direct_channel(const std::string& channel);
    void on_event(discord::GatewayEvent event);
    std::vector<Post> catch_up(DiscordCursor& cursor);
    // PUT the slash commands, globally or in each configured guild; true when all went in.
    bool register_commands();
    // Answers an application command at once with "thinking" (a deferred response), so
    // Discord does not give up on it after 3 s; the service's reply then replaces it.
    void defer(const DecodedInteraction& interaction, const Post& post);
    // Interactions that no reply answered within a while lose their "thinking" message.
    void sweep_interactions();
    // The deferred interaction `reply` answers, if any: a channel reply to the command's post,
    // or the first private reply to a user who used a command in their DM.
    std::optional<std::string> answering(const Reply& reply);
    void forget(const std::string& interaction); // answered, or gone
    // The reply's first message as the interaction's response; Failed when it is gone.
    Delivery edit_original(const std::string& interaction, const std::string& content,
                           const Reply& reply, bool with_png);
    Delivery send_one(const std::string& channel, const std::string& content, const Reply& reply,
                      std::size_t piece, bool first, bool with_png);
    std::string scrub(std::string_view text) const;

    void init();
    std::unique_ptr<HttpClient> own_http_; // before http_, which may name it
    HttpClient& http_;
    DiscordOptions options_;
    std::unique_ptr<discord::Gateway> gateway_;
    // Since when the Gateway has had no live session, as trouble() last saw it.
    mutable std::optional<std::chrono::steady_clock::time_point> gateway_down_since_;

    mutable std::mutex mutex_; // guards what the Gateway thread touches
    std::condition_variable arrived_;
    std::deque<discord::GatewayEvent> events_;
    std::vector<Post> unconfirmed_; // the last poll's posts (poll thread only)
    // The newest message the bot wrote in each channel, not yet in a committed cursor (poll
    // thread only).
    std::map<std::string, std::string> own_newest_;
    // The guilds the session's READY listed whose GUILD_CREATE has not been read (poll thread).
    std::set<std::string> awaited_guilds_;
    DiscordCursor session_start_; // the cursor as the last fresh session began (poll thread)
    // The known channels the session's guilds did not name yet, read once they are all in (or
    // 30 s after READY, or before a direct message); poll thread.
    DiscordCursor rest_;
    bool rest_pending_ = false;
    std::chrono::steady_clock::time_point rest_due_;
    std::string fatal_;
    std::string bot_user_id_;

    // REST rate limits: per bucket (routes that Discord says share one are counted together,
    // apart per major parameter; a route whose bucket is not known yet on its own), and the
    // global one.
    struct Bucket {
        std::string name; // X-RateLimit-Bucket
        int remaining = 1;
        Instant reset{};
    };
    std::map<std::string, Bucket> buckets_;            // by bucket key
    std::map<std::string, std::string> route_buckets_; // route -> "<X-RateLimit-Bucket> <major>"
    std::string bucket_key(const std::string& route) const;
    static std::string major_parameter(const std::string& route);
    std::map<std::string, Instant> not_before_; // a 429's retry_after per route
    std::deque<Instant> invalid_calls_;         // 401, 403 and 429 in the last ten minutes
    // The global limit, DM channels, handles and deferred interactions: shared between shards.
    std::shared_ptr<discord::Shared> shared_;

    // Slash commands: the application (from READY), and whether its commands are in.
    std::string application_id_;
    bool commands_registered_ = false;
};

} // namespace ghostpost::bot
