// What one post is (PostContext: who, where, when, the settings that apply) and everything it
// says (Replies: the one builder every reply passes through). Private to the service.
#pragma once

#include "ghostpost/i18n/text.h"
#include "ghostpost/render/png.h"
#include "ghostpost/service/service.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ghostpost::bot {

using i18n::N_;
using i18n::Text;
using i18n::tr;
using i18n::trc;
using i18n::verbatim;

// Words of ours not yet in the catalog, joined to a Text: shown as they are, in English, and
// found by the pseudo-language test (tests/service/language_test.cpp) as text outside ⟦ ⟧.
inline Text operator+(const std::string& a, const Text& b) {
    return verbatim(a) + b;
}
inline Text operator+(const char* a, const Text& b) {
    return verbatim(a) + b;
}
inline Text operator+(Text a, const std::string& b) {
    return a + verbatim(b);
}
inline Text operator+(Text a, const char* b) {
    return a + verbatim(b);
}
inline Text& operator+=(Text& a, const std::string& b) {
    return a += verbatim(b);
}
// A Text in English, for a reply not yet built from the catalog (each call is a place left to
// translate; the pseudo-language test finds its words).
std::string plain(const Text& text);

// A word the rules give in English (a seat, a game's name, a decision, how a game ended), looked
// up in the catalog under its kind: bot/i18n/po/game-words.pot lists every one a variant gives.
inline Text game_word(std::string_view kind, const std::string& word) {
    return trc(kind, word);
}

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
    // The board drawn for a reader of a language (its status lines and caption in it), which
    // the reply calls once it knows its reader; empty when `code` and `png` are everyone's.
    std::function<BoardOut(const std::string& language)> drawn_in;
    BoardOut in(const std::string& language) const {
        if (!drawn_in)
            return *this;
        BoardOut out = drawn_in(language);
        out.link = link;
        return out;
    }
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
    // To whoever posted, where they posted, in their language. A plain string is shown as it
    // is (notation, a board's caption): every word of ours is a Text from the catalog.
    void say(std::string text, std::string code = {}) {
        say(verbatim(std::move(text)), std::move(code));
    }
    void say(const Text& text, std::string code = {}) {
        say(text, BoardOut{std::move(code), {}, {}});
    }
    void say(std::string text, BoardOut board, std::vector<storage::ButtonRecord> buttons = {}) {
        say(verbatim(std::move(text)), std::move(board), std::move(buttons));
    }
    void say(const Text& text, BoardOut board, std::vector<storage::ButtonRecord> buttons = {});
    // To the game's channel and every channel that follows it (!invite), on whatever platform,
    // each in its own language; when the post came by direct message the author gets it too. A
    // copy on another platform than the post's names players without '@', so that no namesake
    // there is pinged.
    void say_in(const storage::GameRecord& g, std::string text, std::string code = {}) {
        say_in(g, verbatim(std::move(text)), BoardOut{std::move(code), {}, {}});
    }
    void say_in(const storage::GameRecord& g, const Text& text, std::string code = {}) {
        say_in(g, text, BoardOut{std::move(code), {}, {}});
    }
    void say_in(const storage::GameRecord& g, std::string text, BoardOut board,
                const std::vector<storage::ButtonRecord>& buttons = {}) {
        say_in(g, verbatim(std::move(text)), std::move(board), buttons);
    }
    void say_in(const storage::GameRecord& g, const Text& text, BoardOut board,
                const std::vector<storage::ButtonRecord>& buttons = {});
    // To `channel` of the post's platform, in its language; when the post came by direct
    // message the author gets it too.
    void say_at(const std::string& channel, std::string text, std::string code = {}) {
        say_at(channel, verbatim(std::move(text)), std::move(code));
    }
    void say_at(const std::string& channel, const Text& text, std::string code = {});
    // The same with a block written in the channel's language (a table, BoardOut::drawn_in).
    void say_at(const std::string& channel, const Text& text, const BoardOut& block) {
        say_at(channel, text, block.in(channel_language(ctx_.post.platform, channel)).code);
    }
    // A direct message, in the player's language. With `game`, a platform that cannot reach the
    // player privately (they never opened a chat with the bot) gets a notice posted in the
    // game's channel instead, saying how to open one; the message itself waits, it never falls
    // back to the channel.
    void tell(const storage::PlayerRecord& p, std::string text, std::string code = {},
              const storage::GameRecord* game = nullptr) {
        tell(p, verbatim(std::move(text)), std::move(code), game);
    }
    void tell(const storage::PlayerRecord& p, const Text& text, std::string code = {},
              const storage::GameRecord* game = nullptr);
    // The languages replies are written in: to the author of the post (their choice, else their
    // channel's, else their platform's word, else the service's); to a channel (its
    // moderators' choice, else the service's); to a player privately (their choice, else their
    // platform's last word, else the service's).
    std::string author_language() const;
    std::string channel_language(const std::string& platform, const std::string& channel) const;
    std::string player_language(const storage::PlayerRecord& p) const;
    // `text` in `language`.
    static std::string written(const Text& text, const std::string& language);
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
        usage_error(name, verbatim(what));
    }
    void usage_error(const std::string& name, const Text& what) {
        say(what + verbatim(" ") + tr("Use: {form}", {{"form", form(name)}}));
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
