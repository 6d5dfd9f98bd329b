#include "boards.h"

#include "post_run.h"
#include "service_memory.h"

#include <algorithm>

namespace ghostpost::bot {

using namespace detail;

namespace {

std::string ended_line(const GameRecord& g, const rules::VariantInfo& info) {
    if (g.status == GameStatus::Aborted)
        return "aborted, it counts for nobody";
    if (g.status != GameStatus::Finished)
        return {};
    std::string outcome = "drawn";
    if (g.result == "1-0")
        outcome = info.seat_names[0] + " wins";
    else if (g.result == "0-1")
        outcome = info.seat_names[1] + " wins";
    return outcome + ", " + g.result + " (" + g.reason + ")";
}

} // namespace

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
    style.ended = ended_line(l.rec, l.info());
    const Seat bottom = look.bottom;
    const render::Glyphs chosen = look.glyphs;
    const bool as_image = look.image;
    style.bottom = flip ? rules::opponent(bottom) : bottom;
    // Once the game is over, however it ended, the channel sees what the rules hid.
    const rules::PublicView view =
        l.rec.status == GameStatus::Ongoing ? l.game->public_view() : l.game->final_view();
    if (!image.value_or(as_image) || glyphs) {
        style.glyphs = glyphs.value_or(chosen);
        return {render::render_text(view, style), {}, {}};
    }
    // Only public boards are cached: the key names no audience but the public one.
    const auto render = [&] {
        render::PngOptions options;
        options.flip = style.bottom == Seat::Black;
        options.game_label = "Game #" + std::to_string(l.rec.id);
        options.ended = style.ended;
        return render::render_png(view, options);
    };
    if (l.revision < 0)
        return {{}, render(), {}};
    // A game may end without a new action (a resignation) in this very post: the end bumped the
    // stored revision, which the loaded game predates, and the image keyed by the older one
    // still says whose move it was.
    const std::int64_t revision =
        style.ended.empty() ? l.revision : ctx_.store.game_revision(l.rec.id);
    const render::PngKey key{l.rec.id, revision, render::Audience::Public,
                             style.bottom == Seat::Black, 0};
    if (const render::SharedPng png = memory_.images.find(key))
        return {{}, *png, {}};
    // Kept only once the post commits: a revision this post made is not the game's until then
    // (another daemon's post may yet take its number).
    auto png = std::make_shared<const render::PngBytes>(render());
    drawn_.emplace_back(key, png);
    return {{}, *png, {}};
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
