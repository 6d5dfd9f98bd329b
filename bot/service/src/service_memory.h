// What the service keeps in memory from one post to the next: replayed games, board images and
// the commands each account posted this minute. Nothing here is needed for correctness (a game
// is rebuilt from its log, an image drawn again); it is what makes the next post cheap. Private
// to the service: Service owns it, each PostRun is handed it.
#pragma once

#include "ghostpost/render/cache.h"
#include "ghostpost/service/service.h"

#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ghostpost::bot {

class ServiceMemory {
public:
    explicit ServiceMemory(std::size_t game_cache_size) : game_cache_size_(game_cache_size) {}

    // --- replayed games, the least recently used dropped first
    // The cached game, marked as just used; nullptr when none.
    const Service::CachedGame* cached(std::int64_t id);
    // Keeps `game` (replacing what was kept for `id`), dropping the least recently used games
    // past game_cache_size.
    void keep(std::int64_t id, Service::CachedGame game);
    void clear_games();
    std::size_t cached_games() const { return games_.size(); }
    int replays = 0; // how many times a game was rebuilt from its whole log

    render::PngCache images{256}; // public board images by (game, revision, orientation)

    // --- the commands of each account ("<platform>\n<user id>") in its current minute
    // (commands_per_minute): kept in memory, as a flood is over in a minute.
    struct CommandWindow {
        std::int64_t start = 0; // when the minute began
        int count = 0;
        bool told = false;        // the account was told it posts too many
        std::string last_message; // the last post counted
    };
    // The account's window, to be counted on; inside a group, what it was before the group
    // touched it is kept first, so that a failed group can put it back.
    CommandWindow& window(const std::string& account, std::int64_t now);

    // --- group commit (Service::handle_grouped)
    void begin_group();
    // What one post of the group leaves in memory, published when the group commits.
    void after_group(std::function<void()> publish) { after_group_.push_back(std::move(publish)); }
    bool grouping() const { return grouping_; }
    void commit_group();   // publishes what the posts left
    void rollback_group(); // forgets it and puts the command windows back as they were

private:
    struct CacheSlot {
        Service::CachedGame game;
        std::list<std::int64_t>::iterator recency;
    };
    std::size_t game_cache_size_;
    std::map<std::int64_t, CacheSlot> games_;
    std::list<std::int64_t> recency_; // front: newest
    std::map<std::string, CommandWindow> windows_;
    bool grouping_ = false;
    std::vector<std::function<void()>> after_group_;
    std::map<std::string, std::optional<CommandWindow>> windows_before_group_;
};

} // namespace ghostpost::bot
