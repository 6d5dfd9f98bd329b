// The web view under hostile clients (issue 33): how long a normal reader waits for a game page
// while 1,000 hostile sockets are open on loopback, and what the server's memory does meanwhile.
// The hostile sockets: 450 idle (connected, silent), 450 trickling a request head one header line
// a second (slow-loris), 50 at a time flooding header lines (each reconnects when cut off with
// its 431), and 50 kept-alive sockets asking for the page again and again with 2,600 ranges.
// The normal reader opens a fresh connection for each GET /game/1 and reads the whole answer.
// Server and clients share this process, so RSS is the server's plus a few MB of client.
//
// Run a Release build: `web_hostile [seconds]` (default 10).
#include "ghostpost/storage/store.h"
#include "ghostpost/web/server.h"
#include "ghostpost/web/site.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

using namespace ghostpost;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

namespace {

long status_kb(const char* field) {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind(field, 0) == 0)
            return std::stol(line.substr(std::string(field).size()));
    return -1;
}

int connect_to(int port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        if (fd >= 0)
            ::close(fd);
        return -1;
    }
    timeval limit{5, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
    return fd;
}

bool send_all(int fd, const std::string& bytes) {
    for (std::size_t sent = 0; sent < bytes.size();) {
        const ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
        if (n <= 0)
            return false;
        sent += static_cast<std::size_t>(n);
    }
    return true;
}

// One answer with a Content-Length body; its status code, or 0 when none came.
int read_answer(int fd) {
    std::string answer;
    char buf[65536];
    for (;;) {
        const std::size_t end = answer.find("\r\n\r\n");
        if (end != std::string::npos) {
            const std::size_t at = answer.find("Content-Length: ");
            const std::size_t length = at < end ? std::stoul(answer.substr(at + 16)) : 0;
            if (answer.size() >= end + 4 + length)
                return std::stoi(answer.substr(9, 3));
        }
        const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n <= 0)
            return answer.size() > 12 ? std::stoi(answer.substr(9, 3)) : 0;
        answer.append(buf, static_cast<std::size_t>(n));
    }
}

// A database holding one game of 20 plies, made as the web tests make theirs.
void fill(const std::string& path) {
    storage::DatabaseOptions options;
    options.synchronous_full = false;
    auto store = storage::open_sqlite_store(path, options);
    const auto alice = store->upsert_player("console", "alice", "Alice", "alice").id;
    const auto bob = store->upsert_player("console", "bob", "Bob", "bob").id;
    storage::GameRecord g;
    g.variant = "chess";
    g.platform = "console";
    g.channel = "lobby";
    g.challenger = alice;
    g.white = alice;
    g.black = bob;
    g.status = storage::GameStatus::Ongoing;
    g.seed = std::vector<std::uint8_t>(32, 1);
    g.created_at = 1'790'000'000;
    g.time_control = "none";
    const auto id = store->create_game(g);
    const char* moves[] = {"e4", "e5", "Nf3", "Nc6", "Bb5", "a6",  "Ba4", "Nf6", "O-O", "Be7",
                           "Re1", "b5", "Bb3", "d6", "c3", "O-O", "h3",  "Nb8", "d4",  "Nbd7"};
    int ply = 0;
    for (const char* m : moves) {
        storage::ActionRecord a;
        a.game_id = id;
        a.ply = ++ply;
        a.seat = ply % 2 ? rules::Seat::White : rules::Seat::Black;
        a.player_id = ply % 2 ? alice : bob;
        a.text = m;
        a.message_id = "m" + std::to_string(ply);
        store->append_action(a);
    }
}

struct Timings {
    std::vector<double> ms;
    int ok = 0;
};

Timings normal_reader(int port, int count) {
    Timings t;
    const std::string get = "GET /game/1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    for (int i = 0; i < count; ++i) {
        const auto start = Clock::now();
        const int fd = connect_to(port);
        const int status = fd >= 0 && send_all(fd, get) ? read_answer(fd) : 0;
        if (fd >= 0)
            ::close(fd);
        t.ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
        t.ok += status == 200;
        std::this_thread::sleep_for(20ms);
    }
    std::sort(t.ms.begin(), t.ms.end());
    return t;
}

void print(const char* what, const Timings& t) {
    std::printf("%s: %d of %zu answered 200, median %.2f ms, max %.2f ms\n", what, t.ok,
                t.ms.size(), t.ms[t.ms.size() / 2], t.ms.back());
}

} // namespace

int main(int argc, char** argv) {
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    const int seconds = argc > 1 ? std::max(2, std::atoi(argv[1])) : 10;
    rlimit files{};
    ::getrlimit(RLIMIT_NOFILE, &files);
    files.rlim_cur = std::min<rlim_t>(8192, files.rlim_max);
    ::setrlimit(RLIMIT_NOFILE, &files);

    const auto dir = std::filesystem::temp_directory_path() / ("web_hostile." + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    const std::string db = (dir / "games.db").string();
    fill(db);
    web::SiteSettings site_settings;
    site_settings.db_path = db;
    web::Site site(site_settings);
    web::WebServer server(site, web::ServerSettings{"127.0.0.1", 0});
    server.start();
    const int port = server.port();

    print("quiet", normal_reader(port, 50));
    const long before = status_kb("VmRSS:");

    std::atomic<bool> done{false};
    std::atomic<long> refused{0}, ranged{0}, other{0};
    std::vector<int> idle, slow;
    for (int i = 0; i < 450; ++i) {
        idle.push_back(connect_to(port));
        slow.push_back(connect_to(port));
        send_all(slow.back(), "GET /game/1 HTTP/1.1\r\nHost: x\r\n");
    }
    std::vector<std::thread> hostile;
    // Slow-loris: a line a second on each; when the server cuts one, it is opened again.
    hostile.emplace_back([&] {
        for (int line = 0; !done; ++line) {
            for (int& fd : slow)
                if (!send_all(fd, "X-" + std::to_string(line) + ": y\r\n")) {
                    ::close(fd);
                    fd = connect_to(port);
                    send_all(fd, "GET /game/1 HTTP/1.1\r\nHost: x\r\n");
                }
            for (int i = 0; i < 10 && !done; ++i)
                std::this_thread::sleep_for(100ms);
        }
    });
    // Header floods, 50 at a time over 5 threads: each sends header lines until refused.
    for (int t = 0; t < 5; ++t)
        hostile.emplace_back([&] {
            std::string chunk;
            for (int n = 0; chunk.size() < 64 * 1024; ++n)
                chunk += "X-" + std::to_string(n) + ": y\r\n";
            while (!done) {
                std::vector<int> fds;
                for (int i = 0; i < 10; ++i)
                    fds.push_back(connect_to(port));
                for (int fd : fds) {
                    send_all(fd, "GET /game/1 HTTP/1.1\r\nHost: x\r\n");
                    for (int k = 0; k < 16 && send_all(fd, chunk); ++k) {
                    }
                    const int status = read_answer(fd);
                    (status == 431 ? refused : other)++;
                    ::close(fd);
                }
            }
        });
    // Range floods, 50 kept-alive sockets over 5 threads.
    for (int t = 0; t < 5; ++t)
        hostile.emplace_back([&] {
            std::string request = "GET /game/1 HTTP/1.1\r\nHost: x\r\nRange: bytes=0-";
            for (int i = 1; i < 2600; ++i)
                request += ",0-";
            request += "\r\n\r\n";
            std::vector<int> fds;
            for (int i = 0; i < 10; ++i)
                fds.push_back(connect_to(port));
            while (!done)
                for (int& fd : fds) {
                    const int status = send_all(fd, request) ? read_answer(fd) : 0;
                    (status == 200 ? ranged : other)++;
                    if (status == 0) {
                        ::close(fd);
                        fd = connect_to(port);
                    }
                }
            for (int fd : fds)
                ::close(fd);
        });
    std::this_thread::sleep_for(1s); // all of them under way
    const Timings loaded = normal_reader(port, std::max(50, (seconds - 1) * 40));
    const long during = status_kb("VmRSS:");
    done = true;
    for (auto& t : hostile)
        t.join();
    for (int fd : idle)
        ::close(fd);
    for (int fd : slow)
        ::close(fd);

    print("with 1,000 hostile sockets open", loaded);
    std::printf("hostile answers meanwhile: %ld header floods refused 431, %ld range floods "
                "answered 200 whole, %ld other\n",
                refused.load(), ranged.load(), other.load());
    std::printf("RSS: %ld KB before, %ld KB with the hostile sockets open, peak %ld KB\n", before,
                during, status_kb("VmHWM:"));
    server.stop();
    std::filesystem::remove_all(dir);
}
