#include "systemd_notify.h"

#ifdef GHOSTPOST_SYSTEMD
#include <systemd/sd-daemon.h>
#endif

namespace ghostpost::bot::systemd {

#ifdef GHOSTPOST_SYSTEMD

void ready(const std::string& status) {
    sd_notify(0, ("READY=1\nSTATUS=" + status).c_str());
}

void stopping() {
    sd_notify(0, "STOPPING=1");
}

std::optional<std::chrono::microseconds> watchdog_interval() {
    std::uint64_t usec = 0;
    if (sd_watchdog_enabled(0, &usec) <= 0 || usec == 0)
        return std::nullopt;
    return std::chrono::microseconds(usec);
}

void watchdog() {
    sd_notify(0, "WATCHDOG=1");
}

#else

void ready(const std::string&) {}
void stopping() {}
std::optional<std::chrono::microseconds> watchdog_interval() {
    return std::nullopt;
}
void watchdog() {}

#endif

} // namespace ghostpost::bot::systemd
