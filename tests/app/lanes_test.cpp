// One daemon, several platforms, each in its own lane: a platform out of reach at start-up, or
// one that refuses the bot's token, delays no other; the time-driven job runs whatever the
// platforms do; the daemon stops with status 2 only when every platform refused it.
#include "../matrix/fake_matrix.h"
#include "../telegram/fake_telegram.h"
#include "ghostpost/storage/store.h"
#include "promtool.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>

using namespace ghostpost;
using nlohmann::json;
using test::FakeMatrix;
using test::FakeTelegram;

namespace {

const std::vector<std::string> tokens{std::string("GHOSTPOST_TELEGRAM_TOKEN=") +
                                          FakeTelegram::token,
                                      std::string("GHOSTPOST_MATRIX_TOKEN=") + FakeMatrix::token};

std::filesystem::path write_config(const test::TempDir& dir, const std::string& telegram_url,
                                   const std::string& matrix_url, int metrics_port = 0) {
    const auto path = dir.path() / "ghostpost.toml";
    std::ofstream(path) << "[storage]\npath = \"games.sqlite\"\n[log]\nlevel = \"info\"\n"
                        << (metrics_port == 0 ? std::string()
                                              : "[metrics]\nlisten = \"127.0.0.1:" +
                                                    std::to_string(metrics_port) + "\"\n")
                        << "[platform.telegram]\napi_url = \"" << telegram_url << "\"\n"
                        << "poll_timeout = 2\nper_chat_interval_ms = 0\n"
                        << "group_messages_per_minute = 1000\n"
                        << "[platform.matrix]\nhomeserver_url = \"" << matrix_url << "\"\n"
                        << "user_id = \"" << FakeMatrix::bot << "\"\n"
                        << "poll_timeout = 2\nrequest_timeout = 2\nper_chat_interval_ms = 0\n";
    return path;
}

std::unique_ptr<test::Child> start_daemon(const test::TempDir& dir,
                                          const std::filesystem::path& config,
                                          std::vector<std::string> environment = tokens) {
    return std::make_unique<test::Child>(
        std::vector<std::string>{GHOSTPOST_BINARY, "run", "--config", config.string()},
        dir.path() / "daemon.out", dir.path() / "daemon.err", environment);
}

// systemd's end of the notification socket: a datagram socket the daemon writes to.
class NotifySocket {
public:
    explicit NotifySocket(const std::filesystem::path& path) : path_(path) {
        fd_ = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK, 0);
        REQUIRE(fd_ >= 0);
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        REQUIRE(path.string().size() < sizeof address.sun_path);
        std::strcpy(address.sun_path, path.c_str());
        REQUIRE(bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    }
    ~NotifySocket() { close(fd_); }
    // Every message that arrived since the last call.
    std::vector<std::string> messages() {
        std::vector<std::string> out;
        char buffer[4096];
        for (ssize_t n; (n = recv(fd_, buffer, sizeof buffer, 0)) > 0;)
            out.emplace_back(buffer, static_cast<std::size_t>(n));
        return out;
    }

private:
    std::filesystem::path path_;
    int fd_ = -1;
};

// The log's lines of `event` (as JSON objects).
std::vector<json> events(const test::TempDir& dir, const std::string& event) {
    std::vector<json> out;
    std::istringstream lines(test::read_file(dir.path() / "daemon.err"));
    for (std::string line; std::getline(lines, line);) {
        const json entry = json::parse(line, nullptr, false);
        if (entry.is_object() && entry.value("event", "") == event)
            out.push_back(entry);
    }
    return out;
}

// GET of the daemon's /healthz or /metrics: the status and the body (status 0: no answer).
std::pair<long, std::string> get(int port, const std::string& path) {
    bot::CurlHttpClient http;
    bot::HttpRequest request;
    request.method = "GET";
    request.url = "http://127.0.0.1:" + std::to_string(port) + path;
    request.timeout = std::chrono::seconds(5);
    try {
        const auto response = http.post(request);
        return {response.status, response.body};
    } catch (const bot::HttpError&) {
        return {0, {}};
    }
}

// The status line of what the server on `port` answers to `request` (read until it closes, 5 s
// at most): a raw socket, so that the test counts every header line itself.
std::string raw_status(int port, const std::string& request) {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(fd >= 0);
    timeval limit{5, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    std::string answer;
    if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
        send(fd, request.data(), request.size(), MSG_NOSIGNAL) ==
            static_cast<ssize_t>(request.size())) {
        char buffer[4096];
        for (ssize_t n; (n = recv(fd, buffer, sizeof buffer, 0)) > 0;)
            answer.append(buffer, static_cast<std::size_t>(n));
    }
    close(fd);
    return answer.substr(0, answer.find("\r\n"));
}

// A GET of `path` in `lines` header lines.
std::string request_of(const std::string& path, int lines) {
    std::string request = "GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n";
    for (int i = 2; i < lines; ++i)
        request += "X-" + std::to_string(i) + ": y\r\n";
    return request + "\r\n";
}

// Telegram answers a direct "!help" (a positive chat id is a private chat).
bool telegram_answers(FakeTelegram& telegram, std::size_t already,
                      std::chrono::milliseconds within) {
    telegram.say(501, 501, "alice", "!help");
    return test::eventually([&] { return telegram.sent().size() > already; }, within);
}

} // namespace

TEST_CASE("a platform out of reach at start-up delays no other platform nor the jobs",
          "[daemon][lanes]") {
    test::TempDir dir;
    test::TempDir telegram_dir;
    FakeTelegram telegram(telegram_dir);
    const int metrics = test::free_loopback_port();
    const auto config =
        write_config(dir, telegram.url(),
                     "http://127.0.0.1:" + std::to_string(test::free_loopback_port()), metrics);
    const auto started = std::chrono::steady_clock::now();
    auto daemon = start_daemon(dir, config);

    // Telegram's first reply comes as soon as Telegram is up, however long Matrix stays down.
    REQUIRE(telegram_answers(telegram, 0, std::chrono::seconds(10)));
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(10));
    REQUIRE(test::eventually([&] { return events(dir, "start_up_failed").size() >= 2; },
                             std::chrono::seconds(10)));
    // The health check names the platform that is down, and why.
    const auto [status, body] = get(metrics, "/healthz");
    CHECK(status == 503);
    const json health = json::parse(body);
    CHECK(health["status"] == "degraded");
    CHECK(health["platforms"]["telegram"]["state"] == "polling");
    CHECK(health["platforms"]["matrix"]["state"] == "retrying");
    CHECK(health["platforms"]["matrix"]["why"].get<std::string>().find("whoami") !=
          std::string::npos);
    CHECK(health["platforms"]["matrix"]["last_poll"].is_null());
    // The time-driven job ran although Matrix never started: it wrote the heartbeat.
    {
        const auto store = storage::open_sqlite_store((dir.path() / "games.sqlite").string());
        std::optional<std::int64_t> beat;
        store->transaction([&] { beat = store->heartbeat(); });
        CHECK(beat.has_value());
    }
    daemon->signal(SIGTERM);
    CHECK(daemon->wait_exit(std::chrono::seconds(10)) == 0);

    const auto started_lanes = events(dir, "daemon_started");
    REQUIRE(started_lanes.size() == 1);
    CHECK(started_lanes[0]["platform"] == "telegram");
    for (const json& failure : events(dir, "start_up_failed"))
        CHECK(failure["platform"] == "matrix");
    // Every post handled is logged at info, naming its platform.
    const auto handled = events(dir, "post_handled");
    REQUIRE(handled.size() == 1);
    CHECK(handled[0]["platform"] == "telegram");
    CHECK(telegram.violations().empty());
}

TEST_CASE("a refused token stops its own platform only; all refused stop the daemon with 2",
          "[daemon][lanes]") {
    test::TempDir dir;
    test::TempDir telegram_dir;
    test::TempDir matrix_dir;
    FakeTelegram telegram(telegram_dir);
    FakeMatrix matrix(matrix_dir);
    matrix.control("revoke");
    const auto config = write_config(dir, telegram.url(), matrix.url());
    auto daemon = start_daemon(dir, config);

    REQUIRE(test::eventually([&] { return !events(dir, "platform_refused").empty(); },
                             std::chrono::seconds(10)));
    const auto refused = events(dir, "platform_refused");
    REQUIRE(refused.size() == 1);
    CHECK(refused[0]["platform"] == "matrix");
    CHECK(refused[0]["error"].get<std::string>().find("M_UNKNOWN_TOKEN") != std::string::npos);
    // The daemon goes on for Telegram.
    REQUIRE(telegram_answers(telegram, 0, std::chrono::seconds(10)));
    CHECK(daemon->wait_exit(std::chrono::milliseconds(500)) == -1);

    // Telegram's token refused too: nothing is left to run.
    telegram.control("fault", {{"method", "getUpdates"},
                               {"status", 401},
                               {"description", "Unauthorized"},
                               {"count", 1000}});
    CHECK(daemon->wait_exit(std::chrono::seconds(15)) == 2);
    const auto both = events(dir, "platform_refused");
    REQUIRE(both.size() == 2);
    CHECK(both[1]["platform"] == "telegram");
    const std::string err = test::read_file(dir.path() / "daemon.err");
    CHECK(err.find(FakeTelegram::token) == std::string::npos);
    CHECK(err.find(FakeMatrix::token) == std::string::npos);
    CHECK(matrix.violations().empty());
    CHECK(telegram.violations().empty());
}

TEST_CASE("under systemd the daemon says it is ready, pings the watchdog and says it stops",
          "[daemon][lanes]") {
    test::TempDir dir;
    test::TempDir telegram_dir;
    FakeTelegram telegram(telegram_dir);
    const auto config = write_config(
        dir, telegram.url(), "http://127.0.0.1:" + std::to_string(test::free_loopback_port()));
    NotifySocket systemd(dir.path() / "notify");
    std::vector<std::string> environment = tokens;
    environment.push_back("NOTIFY_SOCKET=" + (dir.path() / "notify").string());
    environment.push_back("WATCHDOG_USEC=600000"); // a ping every 0.2 s
    auto daemon = start_daemon(dir, config, environment);

    std::vector<std::string> said;
    const auto count = [&](const std::string& what) {
        for (const std::string& m : systemd.messages())
            said.push_back(m);
        return std::count_if(said.begin(), said.end(),
                             [&](const std::string& m) { return m.starts_with(what); });
    };
    // Ready although Matrix is out of reach: that is the health check's to say.
    REQUIRE(test::eventually([&] { return count("READY=1") == 1; }, std::chrono::seconds(10)));
    CHECK(said.front() == "READY=1\nSTATUS=2 platform lane(s) started");
    REQUIRE(test::eventually([&] { return count("WATCHDOG=1") >= 5; }, std::chrono::seconds(10)));
    daemon->signal(SIGTERM);
    CHECK(daemon->wait_exit(std::chrono::seconds(10)) == 0);
    CHECK(count("STOPPING=1") == 1);
    CHECK(said.back() == "STOPPING=1");
}

TEST_CASE("/metrics counts a scripted game exactly, and promtool accepts it", "[daemon][lanes]") {
    test::TempDir dir;
    test::TempDir telegram_dir;
    test::TempDir matrix_dir;
    FakeTelegram telegram(telegram_dir);
    FakeMatrix matrix(matrix_dir);
    const int metrics = test::free_loopback_port();
    auto daemon = start_daemon(dir, write_config(dir, telegram.url(), matrix.url(), metrics));
    REQUIRE(test::eventually([&] { return get(metrics, "/healthz").first == 200; },
                             std::chrono::seconds(15)));

    const std::vector<std::pair<std::string, std::string>> game{
        {"alice", "!new chess @bob white tc=none"},
        {"bob", "!accept"},
        {"alice", "e4"},
        {"bob", "e5"},
        {"alice", "Qh5"},
        {"bob", "Nc6"}};
    std::size_t replies = 0;
    for (const auto& [who, text] : game) {
        telegram.say(-1001, who == "alice" ? 7 : 8, who, text);
        ++replies;
        REQUIRE(test::eventually([&] { return telegram.sent().size() >= replies; },
                                 std::chrono::seconds(10)));
    }
    telegram.say(-1001, 9, "carol", "nice game, both of you"); // chatter: handled, no reply
    REQUIRE(test::eventually(
        [&] {
            return get(metrics, "/metrics")
                       .second.find("\nghostpost_posts_handled_total{platform=\"telegram\"} 7\n") !=
                   std::string::npos;
        },
        std::chrono::seconds(10)));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const auto [status, text] = get(metrics, "/metrics");
    CHECK(status == 200);
    const auto has = [&](const std::string& line) {
        return text.find("\n" + line + "\n") != std::string::npos;
    };
    CHECK(has("ghostpost_posts_handled_total{platform=\"telegram\"} 7"));
    CHECK(has("ghostpost_replies_sent_total{platform=\"telegram\"} 6"));
    CHECK(has("ghostpost_replies_failed_total{platform=\"telegram\"} 0"));
    // Matrix's first sync is a post of its own: it only records where "now" is.
    CHECK(has("ghostpost_posts_handled_total{platform=\"matrix\"} 1"));
    CHECK(has("ghostpost_post_handling_seconds_count{platform=\"telegram\"} 7"));
    CHECK(has("ghostpost_post_handling_seconds_bucket{platform=\"telegram\",le=\"+Inf\"} 7"));
    CHECK(has("ghostpost_outbox_backlog{platform=\"telegram\"} 0"));
    CHECK(has("ghostpost_games_under_way{variant=\"chess\"} 1"));
    CHECK(has("ghostpost_platform_up{platform=\"telegram\"} 1"));
    CHECK(has("ghostpost_platform_up{platform=\"matrix\"} 1"));
    CHECK(has("ghostpost_database_up 1"));
    const auto [verdict, said] = test::promtool(text);
    INFO(said);
    CHECK(verdict == 0);
    daemon->signal(SIGTERM);
    CHECK(daemon->wait_exit(std::chrono::seconds(10)) == 0);
}

TEST_CASE("[web]'s limits hold on [web] listen and on [metrics] listen", "[daemon][lanes]") {
    test::TempDir dir;
    test::TempDir telegram_dir;
    FakeTelegram telegram(telegram_dir);
    const int web = test::free_loopback_port();
    const int metrics = test::free_loopback_port();
    const auto config = dir.path() / "ghostpost.toml";
    std::ofstream(config) << "[storage]\npath = \"games.sqlite\"\n"
                          << "[web]\nlisten = \"127.0.0.1:" << web << "\"\nmax_header_lines = 10\n"
                          << "[metrics]\nlisten = \"127.0.0.1:" << metrics << "\"\n"
                          << "[platform.telegram]\napi_url = \"" << telegram.url() << "\"\n"
                          << "poll_timeout = 2\n";
    auto daemon = start_daemon(dir, config, {tokens.front()});
    REQUIRE(test::eventually([&] { return get(metrics, "/healthz").first == 200; },
                             std::chrono::seconds(15)));
    REQUIRE(test::eventually([&] { return get(web, "/").first == 200; }, std::chrono::seconds(5)));
    CHECK(raw_status(web, request_of("/", 10)) == "HTTP/1.1 200 OK");
    CHECK(raw_status(web, request_of("/", 11)) == "HTTP/1.1 431 Request Header Fields Too Large");
    CHECK(raw_status(metrics, request_of("/healthz", 10)) == "HTTP/1.1 200 OK");
    CHECK(raw_status(metrics, request_of("/healthz", 11)) ==
          "HTTP/1.1 431 Request Header Fields Too Large");
}
