// `ghostpost console` runs the production loop: the same run_daemon and OutboxSender as a chat
// platform, with the console as the platform and a manual clock, so that every transcript
// tests the path a real post takes.
#include "ghostpost/app/daemon.h"
#include "ghostpost/console/console.h"
#include "ghostpost/league/clock.h"

#include <ostream>
#include <stdexcept>
#include <string>

namespace ghostpost::bot {

namespace {
// A cursor row of its own: no platform is called this, and the console's posts keep theirs.
constexpr const char* clock_offset_key = "console:clock";
} // namespace

int run_console(storage::Store& store, const ServiceSettings& settings, std::istream& in,
                std::ostream& out, Clock clock, const std::string& image_dir) {
    ManualClock manual(std::move(clock));
    // The time "~ wait" and "~ down" moved on is kept in the database, so a console started
    // again on it goes on from where its games' clocks stood, never back to the past.
    if (const auto kept = store.cursor(clock_offset_key)) {
        try {
            manual.advance(std::stoll(*kept));
        } catch (const std::exception&) {
            out << "?? the console's kept time \"" << kept->substr(0, 20)
                << "\" is not a number: it starts from the clock again\n";
        }
        if (manual.offset() != 0)
            out << "~~ now " << format_utc(manual.now()) << " (the time moved on before)\n";
    }
    manual.on_advance([&store](std::int64_t offset) {
        store.transaction([&] { store.set_cursor(clock_offset_key, std::to_string(offset)); });
    });
    ConsolePlatform console(in, out, manual, image_dir);
    Service service(store, settings, manual.clock());
    DaemonOptions options;
    options.poll_timeout = std::chrono::seconds(0);
    options.tick_interval = std::chrono::seconds(0); // time moves only when a line says so
    options.engine_synchronous = true;               // the bot answers before the next line
    int status = 0;
    for (;;) {
        // Each pass is one life of the daemon: it starts up (downtime is charged to nobody),
        // and stops at the end of input or at a "~ down" line.
        StopToken stop;
        const DaemonReport report =
            run_daemon(store, service, console, options, stop, manual.clock());
        if (report.posts_failed > 0 || report.jobs_failed > 0)
            status = 1;
        if (console.at_end())
            break;
        manual.advance(console.take_downtime());
        out << "~~ now " << format_utc(manual.now()) << " (after downtime)\n";
    }
    return status;
}

} // namespace ghostpost::bot
