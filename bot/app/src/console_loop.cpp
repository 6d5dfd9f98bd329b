// `ghostpost console` runs the production loop: the same run_daemon and OutboxSender as a chat
// platform, with the console as the platform and a manual clock, so that every transcript
// tests the path a real post takes.
#include "ghostpost/bot/clock.h"
#include "ghostpost/bot/console.h"
#include "ghostpost/bot/daemon.h"

#include <ostream>

namespace ghostpost::bot {

int run_console(storage::Store& store, const ServiceSettings& settings, std::istream& in,
                std::ostream& out, Clock clock, const std::string& image_dir) {
    ManualClock manual(std::move(clock));
    ConsolePlatform console(in, out, manual, image_dir);
    Service service(store, settings, manual.clock());
    DaemonOptions options;
    options.poll_timeout = std::chrono::seconds(0);
    options.tick_interval = std::chrono::seconds(0); // time moves only when a line says so
    options.engine_synchronous = true;              // the bot answers before the next line
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
