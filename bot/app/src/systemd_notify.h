// What the daemon tells systemd when it runs as a Type=notify unit: ready once its lanes are
// started, watchdog pings while they go round, stopping on the way out. Without systemd (no
// NOTIFY_SOCKET in the environment, or built without libsystemd) each call does nothing.
#pragma once

#include <chrono>
#include <optional>
#include <string>

namespace ghostpost::bot::systemd {

void ready(const std::string& status);
void stopping();
// How often the unit wants a ping (WatchdogSec), when it wants any.
std::optional<std::chrono::microseconds> watchdog_interval();
void watchdog();

} // namespace ghostpost::bot::systemd
