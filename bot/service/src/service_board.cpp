// !board: any game's board, now or at an earlier ply, as text or as an image.
#include "ghostpost/render/png.h"
#include "ghostpost/render/text.h"
#include "ghostpost/rules/notation.h"
#include "ghostpost/rules/registry.h"
#include "ghostpost/rules/replay.h"
#include "ghostpost/service/command.h"
#include "ghostpost/service/game_loader.h"
#include "post_run.h"

#include <algorithm>
#include <stdexcept>

namespace ghostpost::bot {

using namespace detail;

namespace {

// How "!board" was asked to draw (ascii, unicode, png, text, flip), and its other words.
struct BoardWords {
    std::vector<std::string> rest;
    std::optional<render::Glyphs> glyphs;
    std::optional<bool> image;
    bool flip = false;
};

BoardWords board_words(const Args& args) {
    BoardWords w;
    for (const auto& a : args) {
        std::string la = lower(a);
        if (la == "ascii")
            w.glyphs = render::Glyphs::Ascii;
        else if (la == "unicode")
            w.glyphs = render::Glyphs::Unicode;
        else if (la == "flip")
            w.flip = true;
        else if (la == "png" || la == "image")
            w.image = true;
        else if (la == "text")
            w.image = false;
        else
            w.rest.push_back(a);
    }
    return w;
}

} // namespace

void cmd_board(PostParts& run, const Args& args) {
    const auto [rest, glyphs, image, flip] = board_words(args);
    std::size_t used = 0;
    auto g = run.games.pick_game(rest, used, "board", true);
    if (!g)
        return;
    // Kept as the 64-bit number it was written as: any ply past the game's end, however large,
    // is answered as such and never narrowed into a wrong one.
    std::optional<std::int64_t> at_ply;
    if (used < rest.size()) {
        auto n = game_id_arg(rest[used]);
        if (!n || rest[used][0] == '#' || used + 1 < rest.size()) {
            run.out.usage_error(
                "board", tr("I did not understand \"{text}\".", {{"text", shorten(rest[used])}}));
            return;
        }
        at_ply = *n;
    }
    if (g->status == GameStatus::Challenge || g->status == GameStatus::Declined ||
        g->status == GameStatus::Cancelled) {
        run.out.say(tr("Game #{game} never started.", {{"game", std::to_string(g->id)}}));
        return;
    }
    Loaded l = run.games.load(*g);
    // Asked for privately, the board is the asker's own; in a channel, the channel's.
    const BoardLook look =
        run.ctx.post.direct ? run.boards.personal_look(run.ctx.author, *g)
                            : run.boards.channel_look(run.ctx.post.platform, run.ctx.post.channel);
    const Text header = run.games.vs_line(l) + verbatim(" ");
    // Plies are counted in the public record's entries, as !history and the web page count
    // them: a standing policy set in secret is no ply, so no count or position tells that it
    // exists or when it was set.
    std::vector<std::size_t> shown; // log index of each public entry
    std::vector<storage::ActionRecord> log;
    if (at_ply) {
        log = run.ctx.store.actions(g->id);
        const auto texts = run.dice.public_action_texts(*g, log);
        for (std::size_t i = 0; i < texts.size(); ++i)
            if (!texts[i].empty())
                shown.push_back(i);
    }
    const auto public_plies = static_cast<std::int64_t>(shown.size());
    if (at_ply && *at_ply != public_plies) {
        if (*at_ply > public_plies) {
            run.out.say(tr("Game #{game} has only {plies, plural, one {# ply} other {# plies}}.",
                           {{"game", std::to_string(g->id)}, {"plies", public_plies}}));
            return;
        }
        // An earlier position is a replay of the first plies; it never enters the cache.
        const std::size_t upto =
            *at_ply == 0 ? 0 : shown[static_cast<std::size_t>(*at_ply - 1)] + 1;
        LoadedGame replayed = load_game(*g, log, upto);
        Loaded earlier;
        earlier.rec = *g;
        earlier.game = std::move(replayed.game);
        earlier.rng = std::move(replayed.rng);
        earlier.plies = replayed.plies;
        earlier.revision = -1; // no revision names an earlier position: never cached
        run.out.say(header + tr("Position after ply {ply}.", {{"ply", std::to_string(*at_ply)}}),
                    run.boards.board(earlier, look, flip, glyphs, image));
        return;
    }
    run.out.say(header + run.games.next_line(l) + run.clocks.clock_line(l) +
                    run.boards.web_link(g->id),
                run.boards.board(l, look, flip, glyphs, image));
}

// With [web] base_url set, the game's page: every ply, the clocks, the PGN.
} // namespace ghostpost::bot
