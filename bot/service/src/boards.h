// How one post draws boards: the look a channel or a player chose, as text, image or link.
// Private to the service.
#pragma once

#include "ghostpost/render/cache.h"
#include "ghostpost/render/text.h"
#include "ghostpost/rules/game.h"
#include "ghostpost/service/board_words.h"
#include "ghostpost/service/random.h"
#include "replies.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ghostpost::bot {

// A game as one post works on it: its record and its replay.
struct Loaded {
    storage::GameRecord rec;
    std::unique_ptr<rules::Game> game;
    std::optional<SeededRandom> rng;
    int plies = 0;
    std::int64_t revision = 0; // the stored revision `game` is the replay of
    const rules::VariantInfo& info() const { return game->info(); }
};

// How a board is drawn: which side is at the bottom, in which glyphs, as text or image.
struct BoardLook {
    rules::Seat bottom = rules::Seat::White;
    render::Glyphs glyphs = render::Glyphs::Ascii;
    bool image = false;
    bool compact = false; // after an event, the image or a link only, never a text board
};

class Boards {
public:
    Boards(PostContext& ctx, ServiceMemory& memory) : ctx_(ctx), memory_(memory) {}

    // A channel's settings with the service's defaults where its moderators set none.
    storage::ChannelSettings channel_settings(const std::string& platform,
                                              const std::string& channel);
    // A board posted in a channel looks as the channel's settings say, whoever it is for, so
    // that no player's taste changes the channel for everyone.
    BoardLook channel_look(const std::string& platform, const std::string& channel);
    // A board sent privately to `p` looks as p's own settings say; `auto` puts the side p plays
    // in `g` at the bottom.
    static BoardLook personal_look(const storage::PlayerRecord& p, const storage::GameRecord& g);
    // The public board of `l` drawn as `look` says (`glyphs`, `image`, `flip` override it for
    // one request); a PNG comes from the service's image cache.
    BoardOut board(const Loaded& l, const BoardLook& look, bool flip = false,
                   std::optional<render::Glyphs> glyphs = std::nullopt,
                   std::optional<bool> image = std::nullopt);
    // The board that follows an event of game `l` in its own channel: in a compact channel,
    // its image, or else only a link to its page (when the web view has an address).
    BoardOut channel_board(const Loaded& l);
    // " Web: <base_url>/game/<id>" when the web view's address is set; empty otherwise.
    std::string web_link(std::int64_t game) const;

    // The images drawn in this post, for the service's cache once the post commits (a revision
    // this post made is not the game's until then).
    using Drawn = std::vector<std::pair<render::PngKey, render::SharedPng>>;
    Drawn take_drawn() { return std::exchange(drawn_, {}); }

private:
    PostContext& ctx_;
    ServiceMemory& memory_;
    Drawn drawn_;
};

} // namespace ghostpost::bot
