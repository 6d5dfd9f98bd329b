// What one post is (PostContext: who, where, when, the settings that apply) and everything it
// says (Replies: the one builder every reply passes through). Private to the service.
#pragma once

#include "ghostpost/render/png.h"
#include "ghostpost/service/service.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ghostpost::bot {

class ServiceMemory;

// What a run is handed by the service: the store, the settings, the clock, and the memory kept
// between posts.
struct ServiceParts {
    storage::Store& store;
    const ServiceSettings& settings;
    const Clock& clock;
    ServiceMemory& memory;
};

// One post as it is handled: passed along, never looked up.
struct PostContext {
    PostContext(const ServiceParts& parts, const Post& p)
        : store(parts.store), settings(parts.settings), post(p), now(parts.clock()) {}
    storage::Store& store;
    const ServiceSettings& settings;
    const Post& post;
    std::int64_t now;
    storage::PlayerRecord author;  // the player who posted, as seen from the post's platform
    storage::PlayerRecord account; // the account that posted, as stored (linked_to when linked)
    bool acting = false;           // the command under way changes a game, a player or a tournament
    bool defaulting = false;       // the job answers a seat's overdue decision with `default`
    bool team_post = false;        // a team's vote played as the team's post: its channel hears the
                                   // game's replies as a channel, never a second time
};

namespace detail {
bool is_team(const storage::PlayerRecord& p); // an account "team:<channel>"
std::string team_channel(const storage::PlayerRecord& team);
} // namespace detail

// A board as a reply carries it.
struct BoardOut {
    std::string code;     // the board as text, or empty
    render::PngBytes png; // the board as an image, or empty
    std::string link;     // the game's web page instead of a board, or empty
};

// Every reply of one post is built and queued here: addressed, made harmless, its players'
// accounts noted where it names them by display name.
class Replies {
public:
    explicit Replies(PostContext& ctx) : ctx_(ctx) {}

    // A message to `destination` (a user's id when `to_user`, else a channel) on the post's
    // platform, replying to the post where that is right.
    storage::OutgoingMessage message(bool to_user, const std::string& destination, std::string text,
                                     std::string code) const;
    // To whoever posted, where they posted.
    void say(std::string text, std::string code = {}) {
        say(std::move(text), BoardOut{std::move(code), {}, {}});
    }
    void say(std::string text, BoardOut board, std::vector<storage::ButtonRecord> buttons = {});
    // To the game's channel and every channel that follows it (!invite), on whatever platform;
    // when the post came by direct message the author gets it too. A copy on another platform
    // than the post's names players without '@', so that no namesake there is pinged.
    void say_in(const storage::GameRecord& g, std::string text, std::string code = {}) {
        say_in(g, std::move(text), BoardOut{std::move(code), {}, {}});
    }
    void say_in(const storage::GameRecord& g, std::string text, BoardOut board,
                const std::vector<storage::ButtonRecord>& buttons = {});
    // To `channel` of the post's platform; when the post came by direct message the author
    // gets it too.
    void say_at(const std::string& channel, std::string text, std::string code = {});
    // A direct message. With `game`, a platform that cannot reach the player privately (they
    // never opened a chat with the bot) gets a notice posted in the game's channel instead,
    // saying how to open one; the message itself waits, it never falls back to the channel.
    void tell(const storage::PlayerRecord& p, std::string text, std::string code = {},
              const storage::GameRecord* game = nullptr);
    // Queues `m`, with the accounts of this post's players named by display name in its text
    // (or its blocked notice) on its platform. Every reply is made harmless here
    // (harmless_text), whatever user text it echoes.
    void enqueue(storage::OutgoingMessage m);
    // How a reply names a player (detail::at). A player without a handle is named by display
    // name and noted, so that the replies naming it carry its account (enqueue).
    std::string at(const storage::PlayerRecord& p);
    // The command's form with the prefix ("!board [#id] [flip]").
    std::string form(const std::string& name) const;
    void usage_error(const std::string& name, const std::string& what) {
        say(what + " Use: " + form(name));
    }
    // `text` with every "@name" mention written without its '@'.
    static std::string unpinged(const std::string& text);
    // Game `id` ended in this post: the first word to its channels tells the result
    // (Reply::ends_game), no later one.
    void game_ended(std::int64_t id) { ended_ids_.push_back(id); }

private:
    PostContext& ctx_;
    std::vector<std::int64_t> ended_ids_;
    std::vector<storage::PlayerRecord> named_;
};

} // namespace ghostpost::bot
