#include "service_memory.h"

#include <algorithm>

namespace ghostpost::bot {

const Service::CachedGame* ServiceMemory::cached(std::int64_t id) {
    auto it = games_.find(id);
    if (it == games_.end())
        return nullptr;
    recency_.splice(recency_.begin(), recency_, it->second.recency);
    return &it->second.game;
}

void ServiceMemory::keep(std::int64_t id, Service::CachedGame game) {
    if (auto it = games_.find(id); it != games_.end()) {
        it->second.game = std::move(game);
        recency_.splice(recency_.begin(), recency_, it->second.recency);
        return;
    }
    recency_.push_front(id);
    games_.emplace(id, CacheSlot{std::move(game), recency_.begin()});
    while (games_.size() > std::max<std::size_t>(1, game_cache_size_)) {
        games_.erase(recency_.back());
        recency_.pop_back();
    }
}

void ServiceMemory::clear_games() {
    games_.clear();
    recency_.clear();
}

ServiceMemory::CommandWindow& ServiceMemory::window(const std::string& account, std::int64_t now) {
    if (windows_.size() > 10'000) // the accounts quiet for a minute need no window
        std::erase_if(windows_, [&](const auto& w) { return now - w.second.start >= 60; });
    if (grouping_ && !windows_before_group_.contains(account)) {
        const auto before = windows_.find(account);
        windows_before_group_[account] =
            before == windows_.end() ? std::nullopt : std::optional(before->second);
    }
    return windows_[account];
}

void ServiceMemory::begin_group() {
    grouping_ = true;
    after_group_.clear();
    windows_before_group_.clear();
}

void ServiceMemory::commit_group() {
    grouping_ = false;
    windows_before_group_.clear();
    for (auto& publish : after_group_)
        publish();
    after_group_.clear();
}

void ServiceMemory::rollback_group() {
    grouping_ = false;
    after_group_.clear();
    for (auto& [account, before] : windows_before_group_)
        if (before)
            windows_[account] = *before;
        else
            windows_.erase(account);
    windows_before_group_.clear();
}

} // namespace ghostpost::bot
