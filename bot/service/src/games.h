// The games one post works on: loaded from the cache or replayed from their log, kept for the
// next post once this one commits, ended (finished or aborted) with what the end still has to
// say noted for conclude(), and found from a command's arguments. Private to the service.
#pragma once

#include "boards.h"
#include "people.h"
#include "replies.h"
#include "service_memory.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ghostpost::bot {

class Forecasts;

namespace detail {
// The seats whose decision `l` waits for now.
inline std::vector<rules::Seat> deciders(const Loaded& l) {
    std::vector<rules::Seat> out;
    for (const auto& d : l.game->pending())
        out.push_back(d.seat);
    return out;
}
} // namespace detail

// A game that ended in this run (Games::game_over), and what its end still has to say.
struct Ended {
    storage::GameRecord game;
    Text rating_note;        // empty when the game was not rated
    bool finished = false;   // it has a result (finish), not only aborted
    bool hid_pieces = false; // it ended while its channel's board hid pieces a player saw
};

// The seated, ongoing game a command is about, with the author's seat.
struct MyGame {
    Loaded loaded;
    rules::Seat seat;
};

// The game session of one post: every game it loads, changes and ends goes through here.
class Games {
public:
    using Cache = std::map<std::int64_t, Service::CachedGame>;

    Games(const ServiceParts& parts, PostContext& ctx, Replies& out, People& people,
          Forecasts& forecasts)
        : parts_(parts), ctx_(ctx), out_(out), people_(people), forecasts_(forecasts) {}

    // Game `rec` as stored now: from this post's cache, the service's, or replayed. Holds the
    // game's row until the commit.
    Loaded load(const storage::GameRecord& rec);
    // Keeps `l` for the next post, under the revision the game has now (this post's own
    // changes included); it reaches the service's cache only when the post commits.
    void remember(Loaded& l);
    // The games this post replayed or changed, for the service's cache after the commit.
    Cache take_cache() { return std::exchange(pending_cache_, {}); }
    // What another run inside this one (a deadline's answer, a team's vote) kept.
    void adopt(Cache cache);

    Text vs_line(const Loaded& l);   // "Game #4, Chess: @a (White) vs @b (Black)."
    Text next_line(const Loaded& l); // who must decide what now, or how it ended
    Text over_line(const storage::GameRecord& g, const rules::VariantInfo& info);

    // Ends `g` with `status`, for `reason` ("resignation").
    void finish(storage::GameRecord& g, rules::Status status, const std::string& reason);
    // Ends a game that counts for nobody (no result, no rating change).
    void abort_game(storage::GameRecord& g);
    // Wherever a game ends (finished, or aborted): a rated game's ratings change at once; what
    // is said about it (rating changes, a tournament round complete) waits for conclude()
    // (service_rating.cpp).
    void game_over(const storage::GameRecord& g);
    // Marks game `id`, ended in this run, as one whose channel's board hid pieces.
    void ended_hiding_pieces(std::int64_t id);
    // The games that ended in this run, for conclude(); the list starts again empty.
    std::vector<Ended> take_ended() { return std::exchange(ended_, {}); }

    // Whether each side has made at least one decision in game `id`.
    bool both_sides_moved(std::int64_t id);
    // The author's games of `statuses` in the post's channel (all of them by direct message).
    std::vector<storage::GameRecord>
    my_games_here(const std::vector<storage::GameStatus>& statuses);
    // The game a command names ("#4" first in `args`, `used` then 1) or means (the author's
    // one game here; `for_viewing`: the channel's one game); replies and returns nullopt when
    // there is none or several.
    std::optional<storage::GameRecord> pick_game(const std::vector<std::string>& args,
                                                 std::size_t& used, const std::string& command,
                                                 bool for_viewing);
    // The seated, ongoing game a command is about; replies and returns nullopt when there is
    // none.
    std::optional<MyGame> my_ongoing_game(const std::vector<std::string>& args,
                                          const std::string& command);

private:
    ServiceParts parts_;
    PostContext& ctx_;
    Replies& out_;
    People& people_;
    Forecasts& forecasts_;
    Cache pending_cache_;
    std::vector<Ended> ended_;
};

} // namespace ghostpost::bot
