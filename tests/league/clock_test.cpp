#include "ghostpost/league/clock.h"

#include <catch2/catch.hpp>

using namespace ghostpost::bot;

TEST_CASE("Time controls are read in days and written back canonically", "[clock]") {
    auto per_move = parse_time_control("3d");
    REQUIRE(per_move.value.has_value());
    CHECK(per_move.value->kind == TimeControl::Kind::PerMove);
    CHECK(per_move.value->base == 3 * day);
    CHECK(per_move.value->text() == "3d");
    auto inc = parse_time_control("7d+1d/14d");
    REQUIRE(inc.value.has_value());
    CHECK(inc.value->base == 7 * day);
    CHECK(inc.value->increment == day);
    CHECK(inc.value->cap == 14 * day);
    CHECK(inc.value->text() == "7d+1d/14d");
    CHECK(parse_time_control("none").value->kind == TimeControl::Kind::None);
    CHECK(parse_time_control("12h").value->text() == "12h");
    // Minutes, as !mod extend takes them, and an increment without a cap, which has none.
    CHECK(parse_time_control("30m").value->base == 30 * 60);
    CHECK(parse_time_control("30m").value->text() == "30m");
    const auto uncapped = parse_time_control("1d+1d");
    REQUIRE(uncapped.value);
    CHECK(uncapped.value->cap == 0);
    CHECK(uncapped.value->text() == "1d+1d");
}

TEST_CASE("An increment without a cap adds up without limit", "[clock]") {
    const auto tc = *parse_time_control("1d+1d").value;
    PlayerClock c{5 * day, 1000};
    const auto after = after_move(tc, c, 1000 + 3600);
    CHECK(after.remaining == 6 * day - 3600);
}

TEST_CASE("A time control that cannot be read says how to write one", "[clock]") {
    CHECK(parse_time_control("3 days").error ==
          "\"3 days\" is not a time control: write tc=3d (days per move), tc=7d+1d/14d (base + "
          "increment / cap; without the cap, none) or tc=none; units d, h and m");
    CHECK(parse_time_control("7d+1x").error ==
          "\"7d+1x\" is not a time control: write tc=3d (days per move), tc=7d+1d/14d (base + "
          "increment / cap; without the cap, none) or tc=none; units d, h and m");
    CHECK(parse_time_control("7d+1d/3d").error == "the cap (3d) must be at least the base (7d)");
    const auto below = parse_time_control("7d+1d/3d");
    CHECK(below.problem == TimeControlParse::Problem::CapBelowBase);
    CHECK(below.cap == "3d");
    CHECK(below.base == "7d");
    CHECK(parse_time_control("3 days").problem == TimeControlParse::Problem::Unreadable);
    CHECK(parse_time_control("7d").problem == TimeControlParse::Problem::None);
    CHECK_FALSE(parse_time_control("0d").value.has_value());
    CHECK_FALSE(parse_time_control("-2d").value.has_value());
}

TEST_CASE("Days per move refill the clock after each move", "[clock]") {
    const auto tc = *parse_time_control("3d").value;
    PlayerClock c{3 * day, 1000};
    CHECK(time_left(c, 1000 + day) == 2 * day);
    auto after = after_move(tc, c, 1000 + 2 * day);
    CHECK(after.remaining == 3 * day);
    CHECK(after.running_since == 0);
}

TEST_CASE("An increment is added after each move up to the cap", "[clock]") {
    const auto tc = *parse_time_control("7d+1d/14d").value;
    CHECK(after_move(tc, {7 * day, 100}, 100 + day).remaining == 7 * day);
    CHECK(after_move(tc, {14 * day, 100}, 100 + 3600).remaining == 14 * day);
}

TEST_CASE("Paused time (vacation, downtime) is not charged", "[clock]") {
    PlayerClock c{3 * day, 0 + 1};
    CHECK(time_left(c, 1 + 2 * day, day) == 2 * day);
    CHECK(used_fraction(*parse_time_control("3d").value, c, 1 + 2 * day, day) == Approx(1.0 / 3.0));
}

TEST_CASE("The used share reaches 0.8 at 80 percent of the time", "[clock]") {
    const auto tc = *parse_time_control("5d").value;
    PlayerClock c{5 * day, 10};
    CHECK(used_fraction(tc, c, 10 + 4 * day) == Approx(0.8));
    CHECK(used_fraction(tc, c, 10 + 6 * day) == 1.0);
}

TEST_CASE("Durations print in days and hours", "[clock]") {
    CHECK(format_duration(2 * day + 5 * 3600 + 59) == "2d 5h");
    CHECK(format_duration(3 * 3600 + 25 * 60) == "3h 25m");
    CHECK(format_duration(45 * 60) == "45m");
    CHECK(format_duration(-5) == "0m");
}
