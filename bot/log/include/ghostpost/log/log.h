// Structured logs: one JSON object per line on standard error, so journald and log shippers
// can read them as they are. Secrets registered here are cut out of every line centrally,
// which is the one place a token could otherwise slip into a log, an error or a crash report.
#pragma once

#include "ghostpost/config/config.h"

#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <string>
#include <string_view>
#include <variant>

namespace ghostpost::bot::log {

using Level = config::LogLevel;

struct Field {
    using Value = std::variant<std::string, std::int64_t, double, bool>;
    Field(std::string_view key_, std::string_view value_) : key(key_), value(std::string(value_)) {}
    Field(std::string_view key_, const std::string& value_) : key(key_), value(value_) {}
    Field(std::string_view key_, const char* value_) : key(key_), value(std::string(value_)) {}
    template <std::integral T>
    Field(std::string_view key_, T value_) : key(key_), value(static_cast<std::int64_t>(value_)) {}
    Field(std::string_view key_, double value_) : key(key_), value(value_) {}
    Field(std::string_view key_, bool value_) : key(key_), value(value_) {}
    std::string key;
    Value value;
};

// Lines below `level` are dropped. Thread-safe, like everything here.
void set_level(Level level);
// Where lines go; std::cerr unless a test redirects them. The stream must outlive its use.
void set_sink(std::ostream& sink);

// From now on `secret` (and its URL-encoded form, and the part after a Bot API token's colon)
// is replaced by "[redacted]" in every line. Empty or very short secrets are ignored.
void add_secret(const std::string& secret);
void clear_secrets(); // for tests
// `text` with every registered secret cut out.
std::string redact(std::string_view text);

// Every line this thread writes from now on names `platform` (a "platform" field right after
// "event", unless the line gives its own); empty: none. A platform's lane runs on a thread of
// its own, and its adapter names the thread on every poll and send, so the lane's own lines
// (poll_failed, reply_sent...) say which platform they are about.
void set_thread_platform(std::string_view platform);

// Writes {"ts":"2026-...Z","level":"info","event":event,...fields} as one line.
void write(Level level, std::string_view event, std::initializer_list<Field> fields = {});
inline void debug(std::string_view event, std::initializer_list<Field> fields = {}) {
    write(Level::Debug, event, fields);
}
inline void info(std::string_view event, std::initializer_list<Field> fields = {}) {
    write(Level::Info, event, fields);
}
inline void warning(std::string_view event, std::initializer_list<Field> fields = {}) {
    write(Level::Warning, event, fields);
}
inline void error(std::string_view event, std::initializer_list<Field> fields = {}) {
    write(Level::Error, event, fields);
}

// Replaces std::terminate's report with a redacted log line, so an uncaught exception whose
// message holds a URL cannot print the token.
void install_crash_handler();

} // namespace ghostpost::bot::log
