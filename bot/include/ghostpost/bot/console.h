// The console platform: local play and the transcript tests, through the same Service as every
// other platform. One post per input line:
//
//   #<channel> <user>: <text>     a public post in a channel
//   @dm <user>: <text>            a direct message from <user> to the bot
//   [<id>] <either form>          the same, with an explicit message id (to deliver a post twice)
//   ~ wait <time>                 moves the console's clock on by <time> (30m, 12h, 2d) and runs
//                                 the time-driven job (losses on time, reminders, deadlines)
//   ~ down <time>                 the service is down for <time>: the clock moves on without
//                                 the job, then the service starts up again (downtime is
//                                 charged to nobody) and the job runs
//
// Empty lines and lines starting with "//" are skipped. Every other post gets the next number
// after the console's stored cursor as its message id, so ids stay unique across runs on the
// same database. Each reply is printed as a block: a first line ">> #<channel>" or ">> @<user>"
// (a direct message), then the reply's text lines, then its code block's lines. A time line is
// answered with "~~ now <UTC time>" before the replies the job queued.
#pragma once

#include "ghostpost/bot/platform.h"
#include "ghostpost/bot/service.h"

#include <iosfwd>
#include <optional>
#include <string>
#include <utility>

namespace ghostpost::bot {

struct ConsoleLine {
    std::string explicit_id; // empty unless the line started with "[id]"
    bool direct = false;
    std::string channel;     // without '#'; empty for a direct message
    std::string user;
    std::string text;
    std::string directive;   // after "~ " on a time line; then the other fields are empty
};

// The post a line stands for. nullopt for an empty or comment line; a line that follows
// neither form is reported through `error`.
std::optional<ConsoleLine> parse_console_line(const std::string& line, std::string& error);

class ConsolePlatform final : public Platform {
public:
    ConsolePlatform(std::istream& in, std::ostream& out);
    std::string name() const override { return "console"; }
    // Reads up to one post from the input (skipping comments, reporting malformed lines on the
    // output); returns none at the end of input. `cursor` is the last sequence number used.
    std::vector<Post> poll(const std::string& cursor, std::chrono::seconds timeout) override;
    Delivery send(const Reply& reply) override;
    bool at_end() const { return at_end_; }
    // The time line the last poll stopped at (poll returned no post), once; empty if none.
    std::string take_directive() { return std::exchange(directive_, {}); }

private:
    std::istream& in_;
    std::ostream& out_;
    bool at_end_ = false;
    std::string directive_;
};

// Sends every due outbox entry of `platform` through it, marking each sent, rescheduling it on
// a transient failure (after `retry_seconds`) or giving up. Returns how many were sent.
int deliver_outbox(storage::Store& store, Platform& platform, std::int64_t now,
                   std::int64_t retry_seconds = 30);

// Reads posts from `in` until its end, handling each through a Service on `store` and printing
// the replies on `out`; starts the service (Service::start_up) first and runs its job
// (Service::tick) after every line. Errors while handling one post are printed on `err` and
// the loop goes on. Returns 0, or 1 when some post or job failed.
int run_console(storage::Store& store, const ServiceSettings& settings, std::istream& in,
                std::ostream& out, std::ostream& err, Clock clock = system_clock_seconds);

} // namespace ghostpost::bot
