#include "replies.h"

#include "ghostpost/i18n/catalogs.h"
#include "post_run.h"

#include <algorithm>
#include <cctype>

namespace ghostpost::bot {

namespace {
constexpr std::string_view team_prefix = "team:";
}

namespace detail {

bool is_team(const PlayerRecord& p) {
    return p.user_id.starts_with(team_prefix);
}

std::string team_channel(const PlayerRecord& team) {
    return team.user_id.substr(team_prefix.size());
}

} // namespace detail

storage::OutgoingMessage Replies::message(bool to_user, const std::string& destination,
                                          std::string text, std::string code) const {
    const Post& post = ctx_.post;
    storage::OutgoingMessage m;
    m.platform = post.platform;
    m.to_user = to_user;
    m.destination = destination;
    m.text = std::move(text);
    m.code = std::move(code);
    // The engine's posts (engine_player.h) are no platform message that could be replied to.
    m.reply_to =
        to_user || post.message_id.starts_with("engine:") ? std::string() : post.message_id;
    // The answers of a command that changes something are for all to see (Post::
    // private_answers).
    if (post.private_answers && ctx_.acting)
        m.reply_to.clear();
    return m;
}

namespace {
// A button's label (a catalog message, N_ where the button is made) in the reader's language.
std::vector<storage::ButtonRecord> buttons_in(std::vector<storage::ButtonRecord> buttons,
                                              const std::string& language) {
    for (storage::ButtonRecord& b : buttons)
        b.label = i18n::catalogs().render(tr(b.label), language);
    return buttons;
}
} // namespace

std::string plain(const Text& text) {
    return i18n::catalogs().render(text, "en");
}

std::string Replies::written(const Text& text, const std::string& language) {
    return i18n::catalogs().render(text, language);
}

namespace {
// A stored or platform-given language as a catalog's name, or "" when it names none shipped.
std::string usable(const std::string& tag) {
    if (tag.empty())
        return {};
    return i18n::supported_language(tag).value_or(std::string());
}
} // namespace

std::string Replies::channel_language(const std::string& platform,
                                      const std::string& channel) const {
    if (auto chosen = usable(ctx_.store.channel_settings(platform, channel).language);
        !chosen.empty())
        return chosen;
    return ctx_.settings.language;
}

std::string Replies::player_language(const PlayerRecord& p) const {
    for (const std::string* tag : {&p.language, &p.platform_language})
        if (auto chosen = usable(*tag); !chosen.empty())
            return chosen;
    return ctx_.settings.language;
}

std::string Replies::author_language() const {
    const Post& post = ctx_.post;
    if (auto chosen = usable(ctx_.author.language); !chosen.empty())
        return chosen;
    if (!post.direct)
        if (auto chosen = usable(ctx_.store.channel_settings(post.platform, post.channel).language);
            !chosen.empty())
            return chosen;
    if (auto chosen = usable(ctx_.author.platform_language); !chosen.empty())
        return chosen;
    return ctx_.settings.language;
}

void Replies::say(const Text& text, BoardOut board, std::vector<storage::ButtonRecord> buttons) {
    const Post& post = ctx_.post;
    const std::string language = author_language();
    board = board.in(language);
    auto m = message(post.direct, post.direct ? post.author_id : post.channel,
                     written(text, language) + board.link, std::move(board.code));
    m.png = std::move(board.png);
    m.buttons = buttons_in(std::move(buttons), language);
    enqueue(std::move(m));
}

// A press of a button is answered for all in the channel: never as a reply to the press,
// which a platform would show to the presser alone (Reply::reply_to).
void Replies::say_in(const GameRecord& g, const Text& text, BoardOut board,
                     const std::vector<storage::ButtonRecord>& buttons) {
    const Post& post = ctx_.post;
    const Text linked = text + verbatim(board.link);
    board.link.clear();
    if (post.direct && !ctx_.team_post)
        say(linked, board, buttons);
    const auto to = [&](const std::string& platform, const std::string& channel) {
        const std::string language = channel_language(platform, channel);
        const std::string words = written(linked, language);
        BoardOut drawn = board.in(language);
        auto m = message(false, channel, platform == post.platform ? words : unpinged(words),
                         std::move(drawn.code));
        m.platform = platform;
        m.png = std::move(drawn.png);
        m.buttons = buttons_in(buttons, language);
        if (channel != post.channel || platform != post.platform || post.button ||
            post.private_answers)
            m.reply_to.clear();
        m.ends_game = std::find(ended_ids_.begin(), ended_ids_.end(), g.id) != ended_ids_.end();
        enqueue(std::move(m));
    };
    to(g.platform, g.channel);
    for (const auto& [platform, channel] : ctx_.store.bound_channels(g.id))
        to(platform, channel);
    // The first word to the game's channels after its end tells the result; no later one.
    std::erase(ended_ids_, g.id);
}

void Replies::say_at(const std::string& channel, const Text& text, std::string code) {
    const Post& post = ctx_.post;
    if (post.direct && !ctx_.team_post)
        say(text, code);
    auto m = message(false, channel, written(text, channel_language(post.platform, channel)),
                     std::move(code));
    if (channel != post.channel || post.direct || post.button || post.private_answers)
        m.reply_to.clear();
    enqueue(std::move(m));
}

void Replies::tell(const PlayerRecord& p, const Text& text, std::string code,
                   const GameRecord* game) {
    auto m = message(true, p.user_id, written(text, player_language(p)), std::move(code));
    m.platform = p.platform; // a linked player is told on the account it has there
    std::string notice_channel;
    if (game && game->platform == p.platform)
        notice_channel = game->channel;
    else if (game)
        for (const auto& [platform, channel] : ctx_.store.bound_channels(game->id))
            if (platform == p.platform && notice_channel.empty())
                notice_channel = channel;
    if (!notice_channel.empty()) {
        m.notice_channel = notice_channel;
        // Read in the channel, by everyone: in its language.
        m.blocked_notice = written(
            tr("{player}: I cannot send you private messages yet. Open a private chat with me "
               "(@{bot}) and send any message; what game #{game} has for your eyes only waits "
               "for you there.",
               {{"player", at(p)},
                {"bot", ctx_.settings.bot_name},
                {"game", std::to_string(game->id)}}),
            channel_language(p.platform, notice_channel));
    }
    enqueue(std::move(m));
}

std::string Replies::at(const PlayerRecord& p) {
    // A team is named by its name, never as an account a platform could mention.
    if (p.handle.empty() && !p.user_id.empty() && !p.name.empty() && !detail::is_team(p) &&
        std::none_of(named_.begin(), named_.end(), [&](const PlayerRecord& n) {
            return n.platform == p.platform && n.user_id == p.user_id;
        }))
        named_.push_back(p);
    return detail::at(p);
}

void Replies::enqueue(storage::OutgoingMessage m) {
    // The engine reads its games, not its messages: nothing is sent to its accounts.
    if (m.to_user && engine_level(m.destination))
        return;
    // What a team is told privately, its channel hears: the team's own room.
    if (m.to_user && m.destination.starts_with(team_prefix)) {
        m.to_user = false;
        m.destination = m.destination.substr(team_prefix.size());
        m.reply_to.clear();
        m.notice_channel.clear();
        m.blocked_notice.clear();
    }
    m.text = harmless_text(m.text);
    m.code = harmless_text(m.code);
    m.blocked_notice = harmless_text(m.blocked_notice);
    for (const PlayerRecord& p : named_)
        if (p.platform == m.platform && (m.text.find(p.name) != std::string::npos ||
                                         m.blocked_notice.find(p.name) != std::string::npos))
            m.named.push_back({p.user_id, p.name});
    ctx_.store.enqueue(m, ctx_.now);
}

std::string Replies::form(const std::string& name) const {
    const detail::Usage* u = detail::find_usage(name);
    return ctx_.settings.prefix + (u ? std::string(u->form) : name);
}

std::string Replies::unpinged(const std::string& text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const bool name_follows =
            i + 1 < text.size() &&
            (std::isalnum(static_cast<unsigned char>(text[i + 1])) != 0 || text[i + 1] == '_');
        if (text[i] == '@' && name_follows &&
            (i == 0 || text[i - 1] == ' ' || text[i - 1] == '\n' || text[i - 1] == '('))
            continue;
        out += text[i];
    }
    return out;
}

} // namespace ghostpost::bot
