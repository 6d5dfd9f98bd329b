// The players one post deals with: who posted, whom its arguments name, how replies name
// them. Private to the service.
#pragma once

#include "ghostpost/rules/game.h"
#include "replies.h"

#include <cstdint>
#include <optional>
#include <string>

namespace ghostpost::bot {

namespace detail {
// The player seated at `s` in `g`, if any.
inline std::optional<std::int64_t> seated(const storage::GameRecord& g, rules::Seat s) {
    return s == rules::Seat::White ? g.white : g.black;
}
// The seat `player_id` plays in `g`, if any.
inline std::optional<rules::Seat> seat_of(const storage::GameRecord& g, std::int64_t player_id) {
    if (g.white == player_id)
        return rules::Seat::White;
    if (g.black == player_id)
        return rules::Seat::Black;
    return std::nullopt;
}
} // namespace detail

class People {
public:
    People(PostContext& ctx, Replies& out) : ctx_(ctx), out_(out) {}

    // The player `id`, seen from the post's platform (as_player). Errors: std::logic_error
    // for an id the store does not know.
    storage::PlayerRecord player(std::int64_t id);
    std::string mention(std::int64_t id) { return out_.at(player(id)); }
    // A player named without notifying them (no "@"): lists of entrants, where only the
    // pairings should ping.
    std::string quiet_name(std::int64_t id);
    // The player an account stands for (itself, or the player it was linked to), seen from
    // `platform`: the player's id and settings, with the name, handle and id of its account
    // there when it has one, so that replies name and address it where they are read.
    storage::PlayerRecord as_player(const storage::PlayerRecord& account,
                                    const std::string& platform);
    // The account `user_id` of the post's platform, created if new, its name and handle
    // stored as harmless_name makes them: the one way names from a platform get in.
    storage::PlayerRecord upsert_account(const std::string& user_id, const std::string& name,
                                         const std::string& handle);
    // Whom an argument such as "@bob" names in this post: the post's mention data first (the
    // account the platform says), then the platform's unique handle; never a display name.
    // nullopt when the argument is no mention at all.
    struct Named {
        std::optional<storage::PlayerRecord> player; // empty: nobody with that handle posted yet
        std::string handle;                          // lower case, without '@'; may be empty
    };
    std::optional<Named> named(const std::string& arg);
    // The known player an argument names; replies "I do not know ..." and returns nullopt when
    // there is none.
    std::optional<storage::PlayerRecord> known_player(const std::string& arg);
    // "@alice (White)", or the seat's name alone when nobody sits there.
    Text who(const storage::GameRecord& g, const rules::VariantInfo& info, rules::Seat s);
    // Whether the author is one of the service's moderators.
    bool moderator() const;

private:
    PostContext& ctx_;
    Replies& out_;
};

} // namespace ghostpost::bot
