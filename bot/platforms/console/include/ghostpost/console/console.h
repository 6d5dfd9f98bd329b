// The console platform: local play and the transcript tests, through the same Service as every
// other platform. One post per input line:
//
//   #<channel> <user>: <text>     a public post in a channel
//   @dm <user>: <text>            a direct message from <user> to the bot
//   [<id>] <either form>          the same, with an explicit message id (to deliver a post twice)
//   ~ wait <time>                 moves the console's clock on by <time> (30m, 12h, 2d); the
//                                 daemon loop then runs the time-driven job (losses on time,
//                                 reminders, deadlines)
//   ~ down <time>                 the daemon stops, the clock moves on by <time>, and the daemon
//                                 starts again (downtime is charged to nobody)
//
// Empty lines and lines starting with "//" are skipped. Every other post gets the next number
// after the console's stored cursor as its message id, so ids stay unique across runs on the
// same database. Each reply is printed as a block: a first line ">> #<channel>" or ">> @<user>"
// (a direct message), then the reply's text lines, then its code block's lines. A time line is
// answered with "~~ now <UTC time>" before the replies the job queued.
#pragma once

#include "ghostpost/league/clock.h"
#include "ghostpost/platform/platform.h"

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <utility>

namespace ghostpost::bot {

struct ConsoleLine {
    std::string explicit_id; // empty unless the line started with "[id]"
    bool direct = false;
    std::string channel; // without '#'; empty for a direct message
    std::string user;
    std::string text;
    std::string directive; // after "~ " on a time line; then the other fields are empty
};

// The post a line stands for. nullopt for an empty or comment line; a line that follows
// neither form is reported through `error`.
std::optional<ConsoleLine> parse_console_line(const std::string& line, std::string& error);

// The console's clock: a base clock plus the time the "~" lines moved it on.
class ManualClock {
public:
    explicit ManualClock(Clock base) : base_(std::move(base)) {}
    std::int64_t now() const { return base_() + offset_; }
    void advance(std::int64_t seconds) {
        offset_ += seconds;
        if (on_advance_)
            on_advance_(offset_);
    }
    // How far this clock is ahead of its base: all the time moved on so far.
    std::int64_t offset() const { return offset_; }
    // Called with the new offset after every advance, so that it can be kept for the next run.
    void on_advance(std::function<void(std::int64_t offset)> hook) {
        on_advance_ = std::move(hook);
    }
    // A Clock that reads this one; it must not outlive it.
    Clock clock() const {
        return [this] { return now(); };
    }

private:
    Clock base_;
    std::int64_t offset_ = 0;
    std::function<void(std::int64_t)> on_advance_;
};

class ConsolePlatform final : public Platform {
public:
    // `clock` is moved on by the "~" lines; it must outlive the platform. With `image_dir`,
    // every image a reply carries is also saved there as <destination>-<number>.png, numbered
    // from 1 per destination ("#lobby-000001.png"), so a player can open the PNG boards.
    ConsolePlatform(std::istream& in, std::ostream& out, ManualClock& clock,
                    std::string image_dir = {});
    std::string name() const override { return "console"; }
    // Reads up to one post from the input (skipping comments, reporting malformed lines on the
    // output); returns none at the end of input or at a time line (after moving the clock on,
    // or, for "~ down", after asking for a restart). `cursor` is the last sequence number used.
    // Every "@name" of a post is a mention of the handle "name" (on the console, a user's id and
    // handle are both their name).
    std::vector<Post> poll(const std::string& cursor, std::chrono::seconds timeout) override;
    Delivery send(const Reply& reply) override;
    // Replies go out as fast as the terminal takes them.
    Pacing pacing() const override;
    bool finished() const override { return at_end_ || downtime_ > 0; }
    bool at_end() const { return at_end_; }
    // The downtime a "~ down" line asked for (0: none), once: the caller stops the daemon,
    // moves the clock on by it and starts the daemon again.
    std::int64_t take_downtime() { return std::exchange(downtime_, 0); }

private:
    std::istream& in_;
    std::ostream& out_;
    ManualClock& clock_;
    std::string image_dir_;
    std::map<std::string, int> images_saved_; // by destination
    bool at_end_ = false;
    std::int64_t downtime_ = 0;
};

} // namespace ghostpost::bot
