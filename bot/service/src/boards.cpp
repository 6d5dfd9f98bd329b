#include "boards.h"

#include "ghostpost/i18n/catalogs.h"
#include "post_run.h"
#include "service_memory.h"

#include <algorithm>
#include <memory>

namespace ghostpost::bot {

using namespace detail;

namespace {

// How the game ended, for the board's status line; empty while it is under way.
Text ended_line(const GameRecord& g, const rules::VariantInfo& info) {
    if (g.status == GameStatus::Aborted)
        return tr("aborted, it counts for nobody");
    if (g.status != GameStatus::Finished)
        return {};
    const Text reason = game_word("reason", g.reason);
    if (g.result == "1-0" || g.result == "0-1")
        return tr("{seat} wins, {result} ({reason})",
                  {{"seat", game_word("seat", info.seat_names[g.result == "1-0" ? 0 : 1])},
                   {"result", g.result},
                   {"reason", reason}});
    return tr("drawn, {result} ({reason})", {{"result", g.result}, {"reason", reason}});
}

// The board font has no Chinese glyphs: an image for a Chinese reader keeps its few words in
// English (the reply and the text board are in Chinese).
bool image_speaks(const std::string& language) {
    return language.rfind("zh", 0) != 0;
}

} // namespace

render::Say board_words(const std::string& language) {
    if (language.empty() || language == "en")
        return {};
    return [language](const rules::Phrase& phrase) {
        return i18n::catalogs().render(said(phrase), language);
    };
}

storage::ChannelSettings Boards::channel_settings(const std::string& platform,
                                                  const std::string& channel) {
    storage::ChannelSettings c = ctx_.store.channel_settings(platform, channel);
    if (!c.saved) {
        const auto& inline_images = ctx_.settings.inline_images;
        c.images =
            std::find(inline_images.begin(), inline_images.end(), platform) != inline_images.end();
    }
    return c;
}

BoardLook Boards::channel_look(const std::string& platform, const std::string& channel) {
    const storage::ChannelSettings c = channel_settings(platform, channel);
    BoardLook look;
    look.bottom = c.orientation == "black" ? Seat::Black : Seat::White;
    look.glyphs = c.notation == "unicode" ? render::Glyphs::Unicode : render::Glyphs::Ascii;
    look.image = c.images;
    look.compact = c.style == "compact";
    return look;
}

BoardLook Boards::personal_look(const PlayerRecord& p, const GameRecord& g) {
    BoardLook look;
    if (p.orientation == "black")
        look.bottom = Seat::Black;
    else if (p.orientation == "auto")
        look.bottom = detail::seat_of(g, p.id).value_or(Seat::White);
    look.glyphs = p.notation == "unicode" ? render::Glyphs::Unicode : render::Glyphs::Ascii;
    look.image = p.images;
    return look;
}

BoardOut Boards::board(const Loaded& l, const BoardLook& look, bool flip,
                       std::optional<render::Glyphs> glyphs, std::optional<bool> image) {
    render::TextStyle style;
    style.seat_names = l.info().seat_names;
    const Text ended = ended_line(l.rec, l.info());
    style.bottom = flip ? rules::opponent(look.bottom) : look.bottom;
    // Once the game is over, however it ended, the channel sees what the rules hid.
    auto view = std::make_shared<const rules::PublicView>(
        l.rec.status == GameStatus::Ongoing ? l.game->public_view() : l.game->final_view());
    BoardOut out;
    if (!image.value_or(look.image) || glyphs) {
        style.glyphs = glyphs.value_or(look.glyphs);
        out.drawn_in = [view, style, ended](const std::string& language) mutable {
            style.ended = i18n::catalogs().render(ended, language);
            style.say = board_words(language);
            return BoardOut{render::render_text(*view, style), {}, {}, {}};
        };
        return out;
    }
    // Only public boards are cached: the key names no audience but the public one, and the
    // language of its words.
    const std::int64_t id = l.rec.id;
    const bool ending = !ended.empty();
    // A game may end without a new action (a resignation) in this very post: the end bumped the
    // stored revision, which the loaded game predates, and the image keyed by the older one
    // still says whose move it was.
    const std::int64_t loaded_revision = l.revision;
    out.drawn_in = [this, view, style, ended, id, ending,
                    loaded_revision](const std::string& reader) {
        const std::string language = image_speaks(reader) ? reader : "en";
        render::PngOptions options;
        options.flip = style.bottom == Seat::Black;
        options.game_label =
            i18n::catalogs().render(tr("Game #{game}", {{"game", std::to_string(id)}}), language);
        options.ended = i18n::catalogs().render(ended, language);
        options.say = board_words(language);
        if (loaded_revision < 0)
            return BoardOut{{}, render::render_png(*view, options), {}, {}};
        const std::int64_t revision = ending ? ctx_.store.game_revision(id) : loaded_revision;
        const std::uint32_t words =
            language == "en" ? 0 : static_cast<std::uint32_t>(std::hash<std::string>{}(language));
        const render::PngKey key{id, revision, render::Audience::Public,
                                 style.bottom == Seat::Black, words};
        if (const render::SharedPng png = memory_.images.find(key))
            return BoardOut{{}, *png, {}, {}};
        for (const auto& [drawn_key, png] : drawn_)
            if (drawn_key == key)
                return BoardOut{{}, *png, {}, {}};
        // Kept only once the post commits: a revision this post made is not the game's until
        // then (another daemon's post may yet take its number).
        auto png = std::make_shared<const render::PngBytes>(render::render_png(*view, options));
        drawn_.emplace_back(key, png);
        return BoardOut{{}, *png, {}, {}};
    };
    return out;
}

BoardOut Boards::channel_board(const Loaded& l) {
    const BoardLook look = channel_look(l.rec.platform, l.rec.channel);
    if (!look.compact || look.image)
        return board(l, look);
    BoardOut out;
    out.link = web_link(l.rec.id);
    return out;
}

std::string Boards::web_link(std::int64_t game) const {
    const std::string& base = ctx_.settings.web_base_url;
    return base.empty() ? std::string() : " Web: " + base + "/game/" + std::to_string(game);
}

} // namespace ghostpost::bot
