// `ghostpost console`: the embedded default platform, for local play and the transcript tests.
#include "ghostpost/app/cli.h"
#include "ghostpost/app/daemon.h"
#include "ghostpost/i18n/catalogs.h"
#include "ghostpost/log/log.h"

#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>
#include <memory>
#include <unistd.h>

namespace ghostpost::bot {

void add_console_command(CLI::App& app, int& exit_status) {
    struct Options {
        std::string db = "./data/ghostpost.db";
        std::int64_t fixed_time = 0;
        std::string fixed_seed;
        std::string prefix = "!";
        std::vector<std::string> moderators;
        std::string image_dir;
        std::string language = "en";
    };
    auto options = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand(
        "console", "play in this terminal: one post per line, \"#<channel> <user>: <text>\" or "
                   "\"@dm <user>: <text>\"");
    cmd->add_option("--db", options->db, "the SQLite database (created if missing)")
        ->capture_default_str();
    cmd->add_option("--prefix", options->prefix, "the command prefix")->capture_default_str();
    cmd->add_option("--image-dir", options->image_dir,
                    "save every PNG board sent in this folder, to open them")
        ->check(CLI::ExistingDirectory);
    cmd->add_option("--language", options->language,
                    "the language of replies nobody chose one for (en, de, fr, es, ru, pt-BR, "
                    "zh-CN)")
        ->capture_default_str()
        ->check([](const std::string& tag) {
            return i18n::supported_language(tag) ? std::string() : "no catalog for \"" + tag + "\"";
        });
    cmd->add_option("--moderator", options->moderators,
                    "a user allowed to use the moderator commands (may be repeated)");
    // Transcript tests pin the clock so PGN dates and outbox times do not depend on the day.
    cmd->add_option("--fixed-time", options->fixed_time, "Unix time to use instead of the clock")
        ->group("");
    // ... and derive game seeds from a fixed text so their dice are the same on every run.
    cmd->add_option("--fixed-seed", options->fixed_seed, "derive game seeds from this text")
        ->group("");
    cmd->callback([options, &exit_status] {
        auto parent = std::filesystem::path(options->db).parent_path();
        if (!parent.empty())
            std::filesystem::create_directories(parent);
        auto store = storage::open_sqlite_store(options->db);
        ServiceSettings settings;
        settings.prefix = options->prefix;
        settings.moderators = options->moderators;
        settings.fixed_seed = options->fixed_seed;
        settings.language = *i18n::supported_language(options->language);
        Clock clock = system_clock_seconds;
        if (options->fixed_time != 0) {
            std::int64_t t = options->fixed_time;
            clock = [t] { return t; };
        }
        if (::isatty(STDIN_FILENO))
            std::cerr << "ghostpost console on " << options->db
                      << ". Type posts like: #lobby alice: " << settings.prefix
                      << "new chess @bob   (Ctrl-D ends)\n";
        // The daemon loop's routine lines (started, stopped) are not for a player's terminal;
        // what goes wrong still is.
        log::set_level(log::Level::Warning);
        exit_status = run_console(*store, settings, std::cin, std::cout, clock, options->image_dir);
    });
}

} // namespace ghostpost::bot
