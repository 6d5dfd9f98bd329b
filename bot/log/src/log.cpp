#include "ghostpost/log/log.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <vector>

namespace ghostpost::bot::log {

namespace {

struct State {
    std::mutex mutex;
    Level level = Level::Info;
    std::ostream* sink = &std::cerr;
    std::vector<std::string> secrets; // longest first, so a token goes before its own tail
};

State& state() {
    static State instance;
    return instance;
}

std::string percent_encoded(const std::string& text) {
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string out;
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (std::isalnum(byte) != 0 || c == '-' || c == '_' || c == '.' || c == '~') {
            out += c;
        } else {
            out += '%';
            out += hex[byte >> 4];
            out += hex[byte & 0x0F];
        }
    }
    return out;
}

std::string redact_locked(const State& s, std::string_view text) {
    std::string out(text);
    for (const std::string& secret : s.secrets) {
        std::size_t at = 0;
        while ((at = out.find(secret, at)) != std::string::npos) {
            out.replace(at, secret.size(), "[redacted]");
            at += 10;
        }
    }
    return out;
}

std::string timestamp() {
    const auto now = std::chrono::system_clock::now();
    const auto millis =
        std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() %
        1000;
    const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char buffer[40];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%S", &utc);
    char full[48];
    std::snprintf(full, sizeof full, "%s.%03dZ", buffer, static_cast<int>(millis));
    return full;
}

thread_local std::string thread_platform;

// Invalid UTF-8 from a chat must not make a log line throw.
constexpr auto dump_mode = nlohmann::json::error_handler_t::replace;

} // namespace

void set_thread_platform(std::string_view platform) {
    thread_platform = platform;
}

void set_level(Level level) {
    const std::lock_guard lock(state().mutex);
    state().level = level;
}

void set_sink(std::ostream& sink) {
    const std::lock_guard lock(state().mutex);
    state().sink = &sink;
}

void add_secret(const std::string& secret) {
    // A very short "secret" would shred ordinary words out of every line.
    if (secret.size() < 6) {
        return;
    }
    State& s = state();
    const std::lock_guard lock(s.mutex);
    const auto add = [&s](const std::string& value) {
        if (value.size() >= 6 &&
            std::find(s.secrets.begin(), s.secrets.end(), value) == s.secrets.end()) {
            s.secrets.push_back(value);
        }
    };
    add(secret);
    add(percent_encoded(secret));
    // The part after the colon of a Bot API token is the secret proper.
    if (const auto colon = secret.find(':'); colon != std::string::npos) {
        add(secret.substr(colon + 1));
    }
    std::sort(s.secrets.begin(), s.secrets.end(),
              [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
}

void clear_secrets() {
    const std::lock_guard lock(state().mutex);
    state().secrets.clear();
}

std::string redact(std::string_view text) {
    const std::lock_guard lock(state().mutex);
    return redact_locked(state(), text);
}

void write(Level level, std::string_view event, std::initializer_list<Field> fields) {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    if (level < s.level) {
        return;
    }
    nlohmann::ordered_json line;
    line["ts"] = timestamp();
    line["level"] = std::string(config::to_string(level));
    line["event"] = redact_locked(s, event);
    if (!thread_platform.empty())
        line["platform"] = thread_platform;
    for (const Field& field : fields) {
        auto& slot = line[redact_locked(s, field.key)];
        std::visit(
            [&](const auto& value) {
                using T = std::decay_t<decltype(value)>;
                if constexpr (std::is_same_v<T, std::string>) {
                    slot = redact_locked(s, value);
                } else {
                    slot = value;
                }
            },
            field.value);
    }
    // Redact the serialised line too: JSON escaping could have produced a secret's spelling.
    *s.sink << redact_locked(s, line.dump(-1, ' ', false, dump_mode)) << '\n';
    s.sink->flush();
}

void install_crash_handler() {
    std::set_terminate([] {
        std::string what = "terminate called without an active exception";
        if (const std::exception_ptr current = std::current_exception()) {
            try {
                std::rethrow_exception(current);
            } catch (const std::exception& e) {
                what = e.what();
            } catch (...) {
                what = "unknown exception";
            }
        }
        write(Level::Error, "crash", {{"error", what}});
        std::abort();
    });
}

} // namespace ghostpost::bot::log
