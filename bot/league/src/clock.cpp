#include "ghostpost/league/clock.h"

#include <algorithm>
#include <charconv>
#include <ctime>

namespace ghostpost::bot {
namespace {

std::string span_text(Seconds s) {
    if (s % day == 0)
        return std::to_string(s / day) + "d";
    return s % 3600 == 0 ? std::to_string(s / 3600) + "h" : std::to_string(s / 60) + "m";
}

} // namespace

std::string TimeControl::text() const {
    switch (kind) {
    case Kind::None:
        return "none";
    case Kind::PerMove:
        return span_text(base);
    case Kind::Increment:
        return span_text(base) + "+" + span_text(increment) + (cap > 0 ? "/" + span_text(cap) : "");
    }
    return "none";
}

TimeControlParse parse_time_control(std::string_view text) {
    const std::string help = "write tc=3d (days per move), tc=7d+1d/14d (base + increment / cap; "
                             "without the cap, none) or tc=none; units d, h and m";
    if (text == "none")
        return {TimeControl{}, {}};
    const auto plus = text.find('+');
    if (plus == std::string_view::npos) {
        auto base = parse_span(text);
        if (!base)
            return {std::nullopt, "\"" + std::string(text) + "\" is not a time control: " + help,
                    TimeControlParse::Problem::Unreadable};
        return {TimeControl{TimeControl::Kind::PerMove, *base, 0, 0}, {}};
    }
    const auto slash = text.find('/', plus);
    auto base = parse_span(text.substr(0, plus));
    auto inc = parse_span(text.substr(
        plus + 1, slash == std::string_view::npos ? std::string_view::npos : slash - plus - 1));
    auto cap = slash == std::string_view::npos ? std::optional<Seconds>{0}
                                               : parse_span(text.substr(slash + 1));
    if (!base || !inc || !cap)
        return {std::nullopt, "\"" + std::string(text) + "\" is not a time control: " + help,
                TimeControlParse::Problem::Unreadable};
    if (*cap != 0 && *cap < *base)
        return {std::nullopt,
                "the cap (" + span_text(*cap) + ") must be at least the base (" + span_text(*base) +
                    ")",
                TimeControlParse::Problem::CapBelowBase, span_text(*cap), span_text(*base)};
    return {TimeControl{TimeControl::Kind::Increment, *base, *inc, *cap}, {}};
}

Seconds time_left(const PlayerClock& clock, Seconds now, Seconds paused) {
    if (clock.running_since == 0)
        return clock.remaining;
    const Seconds spent = std::max<Seconds>(0, now - clock.running_since - paused);
    return clock.remaining - spent;
}

PlayerClock after_move(const TimeControl& tc, const PlayerClock& clock, Seconds now,
                       Seconds paused) {
    PlayerClock out{time_left(clock, now, paused), 0};
    switch (tc.kind) {
    case TimeControl::Kind::None:
        break;
    case TimeControl::Kind::PerMove:
        out.remaining = tc.base;
        break;
    case TimeControl::Kind::Increment:
        out.remaining += tc.increment;
        if (tc.cap > 0)
            out.remaining = std::min(out.remaining, tc.cap);
        break;
    }
    return out;
}

double used_fraction(const TimeControl& tc, const PlayerClock& clock, Seconds now, Seconds paused) {
    if (tc.kind == TimeControl::Kind::None || clock.remaining <= 0)
        return 0.0;
    const Seconds left = time_left(clock, now, paused);
    return std::clamp(1.0 - static_cast<double>(left) / static_cast<double>(clock.remaining), 0.0,
                      1.0);
}

std::optional<Seconds> parse_span(std::string_view s) {
    if (s.size() < 2)
        return std::nullopt;
    const char unit = s.back();
    const Seconds scale = unit == 'd' ? day : unit == 'h' ? 3600 : unit == 'm' ? 60 : 0;
    if (scale == 0)
        return std::nullopt;
    Seconds n = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size() - 1, n);
    if (ec != std::errc{} || end != s.data() + s.size() - 1 || n <= 0 || n > 366 * 24 * 60 ||
        n * scale > 366 * day)
        return std::nullopt;
    return n * scale;
}

std::string format_utc(Seconds at) {
    const std::time_t t = static_cast<std::time_t>(at);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", &tm);
    return text;
}

int utc_year(Seconds at) {
    const std::time_t t = static_cast<std::time_t>(at);
    std::tm tm{};
    gmtime_r(&t, &tm);
    return tm.tm_year + 1900;
}

std::string format_duration(Seconds s) {
    if (s <= 0)
        return "0m";
    const Seconds d = s / day, h = (s % day) / 3600, m = (s % 3600) / 60;
    if (d > 0)
        return std::to_string(d) + "d " + std::to_string(h) + "h";
    if (h > 0)
        return std::to_string(h) + "h " + std::to_string(m) + "m";
    return std::to_string(std::max<Seconds>(m, 1)) + "m";
}

} // namespace ghostpost::bot
