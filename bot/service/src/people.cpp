#include "people.h"

#include "post_run.h"

#include <algorithm>
#include <stdexcept>

namespace ghostpost::bot {

using namespace detail;

PlayerRecord People::player(std::int64_t id) {
    auto p = ctx_.store.player(id);
    if (!p)
        throw std::logic_error("no player " + std::to_string(id));
    return as_player(*p, ctx_.post.platform);
}

std::string People::quiet_name(std::int64_t id) {
    return strip_at(mention(id));
}

PlayerRecord People::upsert_account(const std::string& user_id, const std::string& name,
                                    const std::string& handle) {
    return ctx_.store.upsert_player(ctx_.post.platform, user_id, harmless_name(name),
                                    harmless_name(handle));
}

Text People::who(const GameRecord& g, const rules::VariantInfo& info, Seat s) {
    auto id = seated(g, s);
    Text seat = game_word("seat", info.seat_names[static_cast<std::size_t>(rules::index(s))]);
    return id ? tr("{player} ({seat})", {{"player", mention(*id)}, {"seat", seat}}) : seat;
}

bool People::moderator() const {
    const auto& mods = ctx_.settings.moderators;
    return std::find(mods.begin(), mods.end(), ctx_.post.author_id) != mods.end();
}

std::optional<People::Named> People::named(const std::string& arg) {
    const bool at_sign = arg.size() > 1 && arg[0] == '@';
    const std::string key = lower(strip_at(arg));
    for (const Mention& m : ctx_.post.mentions) {
        const bool same = at_sign ? !m.handle.empty() && lower(m.handle) == key
                                  : !m.user_id.empty() && !m.name.empty() && lower(m.name) == key;
        if (!same)
            continue;
        if (m.user_id.empty())
            break; // a handle only: the stored handle decides below
        if (auto known = ctx_.store.player_by_account(ctx_.post.platform, m.user_id))
            return Named{as_player(*known, ctx_.post.platform), lower(m.handle)};
        const std::string handle = m.handle.empty() ? std::string() : lower(m.handle);
        return Named{upsert_account(m.user_id, m.name.empty() ? m.handle : m.name, handle),
                     harmless_name(handle)};
    }
    if (!at_sign)
        return std::nullopt;
    auto found = ctx_.store.player_by_handle(ctx_.post.platform, key);
    if (found)
        found = as_player(*found, ctx_.post.platform);
    return Named{found, key};
}

PlayerRecord People::as_player(const PlayerRecord& account, const std::string& platform) {
    PlayerRecord p = account;
    if (account.linked_to != 0)
        if (auto owner = ctx_.store.player(account.linked_to))
            p = *owner;
    if (p.platform != platform) {
        if (auto there = ctx_.store.account_on(p.id, platform)) {
            p.platform = there->platform;
            p.user_id = there->user_id;
            p.name = there->name;
            p.handle = there->handle;
        } else {
            p.handle.clear(); // a handle of another platform names somebody else here
        }
    }
    return p;
}

std::optional<PlayerRecord> People::known_player(const std::string& arg) {
    auto n = named(arg);
    if (n && n->player)
        return n->player;
    out_.say(tr("I do not know {player} yet.", {{"player", shorten(arg, 30)}}));
    return std::nullopt;
}

} // namespace ghostpost::bot
