// `ghostpost render`: a board as a PNG file, from a FEN or from a stored game, for checking the
// images the service sends and for making pictures of positions by hand.
#include "ghostpost/app/cli.h"
#include "ghostpost/render/png.h"
#include "ghostpost/rules/registry.h"
#include "ghostpost/rules/replay.h"
#include "ghostpost/service/game_loader.h"
#include "ghostpost/service/random.h"
#include "ghostpost/storage/store.h"

#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

namespace ghostpost::bot {
namespace {

struct RenderArgs {
    std::string variant;
    std::string fen;
    std::string db;
    std::int64_t game_id = 0;
    std::optional<int> ply;
    std::string view = "public";
    bool flip = false;
    int width = 480;
    std::string out;
};

const rules::Variant* variant_or_complain(const std::string& name) {
    const rules::Variant* v = rules::find_variant(name);
    if (!v) {
        std::cerr << "unknown variant \"" << name << "\"; known:";
        for (const auto* known : rules::variants())
            std::cerr << ' ' << known->info().name;
        std::cerr << '\n';
    }
    return v;
}

// The stored game replayed to the requested ply, or an error printed to stderr (nullptr).
std::unique_ptr<rules::Game> load_stored_game(const RenderArgs& args, std::string& label) {
    if (!std::filesystem::exists(args.db)) {
        // Opening would create an empty database; a typo should not leave files behind.
        std::cerr << "no database at " << args.db << '\n';
        return nullptr;
    }
    auto store = storage::open_sqlite_store(args.db);
    const auto record = store->game(args.game_id);
    if (!record) {
        std::cerr << "no game " << args.game_id << " in " << args.db << '\n';
        return nullptr;
    }
    if (!args.variant.empty() && !rules::find_variant(args.variant)) {
        variant_or_complain(args.variant);
        return nullptr;
    }
    if (!args.variant.empty() &&
        rules::find_variant(args.variant) != rules::find_variant(record->variant)) {
        std::cerr << "game " << args.game_id << " is " << record->variant << ", not "
                  << args.variant << '\n';
        return nullptr;
    }
    if (!variant_or_complain(record->variant))
        return nullptr;
    const auto log = store->actions(args.game_id);
    if (args.ply && (*args.ply < 0 || *args.ply > static_cast<int>(log.size()))) {
        std::cerr << "game " << args.game_id << " has plies 0.." << log.size() << ", not "
                  << *args.ply << '\n';
        return nullptr;
    }
    try {
        LoadedGame loaded =
            load_game(*record, log,
                      args.ply ? std::optional<std::size_t>(static_cast<std::size_t>(*args.ply))
                               : std::nullopt);
        label = "Game " + std::to_string(args.game_id);
        return std::move(loaded.game);
    } catch (const std::exception& e) {
        std::cerr << e.what() << '\n';
        return nullptr;
    }
}

int run_render(const RenderArgs& args) {
    if (args.db.empty() != (args.game_id == 0)) {
        std::cerr << "--db and --game go together\n";
        return 2;
    }
    if (!args.db.empty() && !args.fen.empty()) {
        std::cerr << "give either --fen or --db with --game, not both\n";
        return 2;
    }
    if (args.db.empty() && args.ply) {
        std::cerr << "--ply needs --db and --game\n";
        return 2;
    }
    std::unique_ptr<rules::Game> game;
    render::PngOptions options;
    options.flip = args.flip;
    options.width_px = args.width;
    if (!args.db.empty()) {
        game = load_stored_game(args, options.game_label);
    } else {
        if (args.variant.empty()) {
            std::cerr << "--variant is needed without --db\n";
            return 2;
        }
        const rules::Variant* v = variant_or_complain(args.variant);
        if (!v)
            return 2;
        auto started = v->start({}, args.fen);
        if (!started)
            std::cerr << started.error().message << '\n';
        else
            game = std::move(*started);
    }
    if (!game)
        return 2;

    const render::PngBytes png =
        args.view == "public"  ? render::render_png(game->public_view(), options)
        : args.view == "white" ? render::render_png(game->seat_view(rules::Seat::White), options)
                               : render::render_png(game->seat_view(rules::Seat::Black), options);
    std::ofstream out(args.out, std::ios::binary);
    out.write(reinterpret_cast<const char*>(png.data()), static_cast<std::streamsize>(png.size()));
    out.close();
    if (!out) {
        std::cerr << "cannot write " << args.out << '\n';
        return 1;
    }
    return 0;
}

} // namespace

void add_render_command(CLI::App& app, int& exit_status) {
    auto args = std::make_shared<RenderArgs>();
    CLI::App* cmd = app.add_subcommand("render", "draw a board as a PNG image");
    cmd->add_option("--variant", args->variant, "the variant (chess, ...)");
    cmd->add_option("--fen", args->fen, "the position; the start position when omitted");
    cmd->add_option("--db", args->db, "a ghostpost database to read the game from");
    cmd->add_option("--game", args->game_id, "the stored game's number")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--ply", args->ply, "the position after this many actions (default: now)");
    cmd->add_option("--view", args->view, "whose view: public, white or black (private)")
        ->check(CLI::IsMember({"public", "white", "black"}));
    cmd->add_flag("--flip", args->flip, "the second seat's side at the bottom");
    cmd->add_option("--width", args->width, "the image's width in pixels")
        ->check(CLI::Range(160, 2000));
    cmd->add_option("--out", args->out, "the PNG file to write")->required();
    cmd->callback([args, &exit_status] { exit_status = run_render(*args); });
}

} // namespace ghostpost::bot
