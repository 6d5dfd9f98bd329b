// Correspondence clocks: time controls in days, as pure arithmetic over an injected "now", so
// the service and its tests move time as they please. Times are seconds since the epoch.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace ghostpost::bot {

using Seconds = std::int64_t;
// What time it is, in Unix seconds: the system's, or a test's or the console's own.
using Clock = std::function<std::int64_t()>;
inline constexpr Seconds day = 86400;

// `tc=3d` (days per move: the clock is refilled to 3 days after each move), `tc=7d+1d/14d`
// (a base of 7 days, 1 day added after each move, never more than 14 days banked), `tc=none`.
struct TimeControl {
    enum class Kind : std::uint8_t { None, PerMove, Increment };
    Kind kind = Kind::None;
    Seconds base = 0;
    Seconds increment = 0;
    Seconds cap = 0;          // the most an increment may bring the clock to; 0: no cap
    std::string text() const; // canonical: "none", "3d", "7d+1d/14d", "1d+1d", "30m"
};

// Parses a time control; units d (days), h (hours) and m (minutes), as `!mod extend` takes
// them. Without "/cap" an increment has no cap. Errors name what is wrong.
struct TimeControlParse {
    std::optional<TimeControl> value;
    std::string error; // why there is none, in English
    // The same for a reply in its reader's language: unreadable, or a cap below the base (the
    // two as written, "3d" and "7d").
    enum class Problem : std::uint8_t { None, Unreadable, CapBelowBase };
    Problem problem = Problem::None;
    std::string cap;
    std::string base;
};
TimeControlParse parse_time_control(std::string_view text);

// One player's clock.
struct PlayerClock {
    Seconds remaining = 0;     // time left when the clock last stopped or started
    Seconds running_since = 0; // when it started running; 0 when stopped
};

// The time left at `now`, not counting `paused` seconds (vacation, service downtime) that fall
// within the running period.
Seconds time_left(const PlayerClock& clock, Seconds now, Seconds paused = 0);

// The clock after its owner moves at `now`: stopped, charged, and credited per the control.
PlayerClock after_move(const TimeControl& tc, const PlayerClock& clock, Seconds now,
                       Seconds paused = 0);

// The share of the player's time used since the clock started, in [0, 1]; for the 80 % reminder.
double used_fraction(const TimeControl& tc, const PlayerClock& clock, Seconds now,
                     Seconds paused = 0);

// Days and hours, as a reply prints a duration: "2d 5h", "45m".
std::string format_duration(Seconds s);

// A positive span in days, hours or minutes ("3d", "12h", "30m"), at most a year; nullopt for
// anything else.
std::optional<Seconds> parse_span(std::string_view text);

// An absolute time as replies show deadlines: "2023-11-17 22:13 UTC".
std::string format_utc(Seconds at);

// The UTC calendar year of a time (vacation allowances count per year).
int utc_year(Seconds at);

} // namespace ghostpost::bot
