// Hostile-client load on the web view (issue #33): `ghostpost web`, a process of its own on a
// throw-away database with a few games, is asked for normal pages (/ and /game/1, each on a
// fresh connection, one every 50 ms) three times: at rest, while 1,000 hostile sockets are open,
// and after they are closed. Prints each phase's answer times (p50, p99, max), the server's
// memory (VmRSS, VmHWM from /proc) and open files, and what the hostile sockets got.
//
// The hostile sockets that stay open (--sockets, 1,000), in five kinds of equal share: idle
// after connecting; a request head trickled one byte a second; one header line a second; a GET
// with a Range of 2,600 ranges, kept alive after its answer; 60 KB of request head (just under
// the 64 KB limit) that is never ended, the most memory a connection may hold. Beside them
// (--floods, 250) those the server refuses at once, in four kinds: 150 header lines; 66 KB of
// header; a GET with a body; a head begun then half-closed. A socket the server closes is opened
// again at once, or a second later for the refused kinds and for any that lived less than a second,
// so that the pressure holds for the whole phase without turning into a flood of requests.
//
// Target: no normal page later than 1 s while the hostile sockets are open; memory bounded.
// Exit status: 0 target met, 1 not met, 2 the bench itself failed, 3 the wall-clock cap (120 s)
// ran out. Every socket is non-blocking and waited on with poll and a deadline; the server is
// killed at every exit, and dies with the bench (PR_SET_PDEATHSIG).
//
// Run a Release build: `web_hostile [--ghostpost PATH] [--sockets N] [--floods N] [--gets N]`
// (PATH default: the ghostpost beside this build's bench folder).
#include <algorithm>
#include <arpa/inet.h>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <string>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

constexpr unsigned wall_cap_seconds = 120;

// The children, for the signal handlers: killed on every way out.
volatile pid_t server_pid = 0;
volatile pid_t console_pid = 0;
std::string temp_dir; // the throw-away database's folder, removed on the way out

void kill_children() {
    if (server_pid > 0)
        ::kill(server_pid, SIGKILL);
    if (console_pid > 0)
        ::kill(console_pid, SIGKILL);
}

void say(const char* text) {
    [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, text, std::strlen(text));
}

void on_wall_cap(int) {
    kill_children();
    say("web_hostile: the wall-clock cap of 120 s ran out; the server was killed\n");
    ::_exit(3);
}

void on_stop_signal(int) {
    kill_children();
    say("web_hostile: stopped by a signal; the server was killed\n");
    ::_exit(2);
}

[[noreturn]] void fail(const std::string& why) {
    kill_children();
    std::fprintf(stderr, "web_hostile: %s\n", why.c_str());
    if (!temp_dir.empty()) {
        std::error_code ignored;
        std::filesystem::remove_all(temp_dir, ignored);
    }
    std::exit(2);
}

double ms_between(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
}

// A child process with its stdin and stdout on the given files (-1: inherited); it is killed
// when this process dies.
pid_t spawn(const std::vector<std::string>& args, int in_fd, int out_fd) {
    const pid_t pid = ::fork();
    if (pid < 0)
        fail(std::string("fork: ") + std::strerror(errno));
    if (pid == 0) {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (in_fd >= 0)
            ::dup2(in_fd, STDIN_FILENO);
        if (out_fd >= 0)
            ::dup2(out_fd, STDOUT_FILENO);
        std::vector<char*> argv;
        for (const std::string& a : args)
            argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }
    return pid;
}

// Waits for `pid` until `deadline`; its exit status, or -1 when it was still running (then it
// is killed).
int reap(pid_t pid, Clock::time_point deadline) {
    for (;;) {
        int status = 0;
        const pid_t done = ::waitpid(pid, &status, WNOHANG);
        if (done == pid)
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        if (done < 0)
            return -1;
        if (Clock::now() >= deadline) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, &status, 0);
            return -1;
        }
        std::this_thread::sleep_for(20ms);
    }
}

// The database: three chess games through `ghostpost console`, the first 20 plies in.
void make_database(const std::string& ghostpost, const std::string& db) {
    std::string posts;
    const char* ruy[] = {"e4",  "e5", "Nf3", "Nc6", "Bb5", "a6",  "Ba4", "Nf6", "O-O", "Be7",
                         "Re1", "b5", "Bb3", "d6",  "c3",  "O-O", "h3",  "Nb8", "d4",  "Nbd7"};
    for (int game = 1; game <= 3; ++game) {
        const std::string channel = "#g" + std::to_string(game);
        posts += channel + " alice: !new chess @bob\n" + channel + " bob: !accept\n";
        const int plies = game == 1 ? 20 : 4 * game;
        for (int i = 0; i < plies; ++i)
            posts += channel + (i % 2 == 0 ? " alice: " : " bob: ") + ruy[i] + "\n";
    }
    int in[2];
    if (::pipe2(in, O_CLOEXEC) != 0)
        fail("pipe2 failed");
    const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    console_pid = spawn({ghostpost, "console", "--db", db}, in[0], null);
    ::close(in[0]);
    ::close(null);
    std::size_t sent = 0;
    while (sent < posts.size()) {
        const ssize_t n = ::write(in[1], posts.data() + sent, posts.size() - sent);
        if (n <= 0)
            fail("ghostpost console stopped reading its posts");
        sent += static_cast<std::size_t>(n);
    }
    ::close(in[1]);
    const int status = reap(console_pid, Clock::now() + 30s);
    console_pid = 0;
    if (status != 0)
        fail("ghostpost console exited with " + std::to_string(status));
}

// Starts `ghostpost web` on a free loopback port; returns the port.
int start_server(const std::string& ghostpost, const std::string& db) {
    int out[2];
    if (::pipe2(out, O_CLOEXEC) != 0)
        fail("pipe2 failed");
    server_pid = spawn({ghostpost, "web", "--db", db, "--listen", "127.0.0.1:0"}, -1, out[1]);
    ::close(out[1]);
    std::string said;
    const auto deadline = Clock::now() + 15s;
    while (said.find('\n') == std::string::npos) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        pollfd p{out[0], POLLIN, 0};
        if (left.count() <= 0 || ::poll(&p, 1, static_cast<int>(left.count())) <= 0)
            fail("ghostpost web did not say where it serves within 15 s");
        char buf[512];
        const ssize_t n = ::read(out[0], buf, sizeof buf);
        if (n <= 0)
            fail("ghostpost web exited before serving");
        said.append(buf, static_cast<std::size_t>(n));
    }
    // Its later lines, if any, go nowhere; the pipe stays open so that it never gets SIGPIPE.
    const std::size_t at = said.find("http://127.0.0.1:");
    if (at == std::string::npos)
        fail("unexpected first line from ghostpost web: " + said);
    return std::atoi(said.c_str() + at + 17);
}

// The server's VmRSS and VmHWM in KB.
std::pair<long, long> server_memory() {
    std::ifstream status("/proc/" + std::to_string(server_pid) + "/status");
    long rss = -1;
    long hwm = -1;
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmRSS:", 0) == 0)
            rss = std::stol(line.substr(6));
        if (line.rfind("VmHWM:", 0) == 0)
            hwm = std::stol(line.substr(6));
    }
    if (rss < 0)
        fail("the server is gone (no /proc status)");
    return {rss, hwm};
}

// The server's open files: its sockets, database files and a few more.
int server_files() {
    const std::string path = "/proc/" + std::to_string(server_pid) + "/fd";
    DIR* dir = ::opendir(path.c_str());
    if (dir == nullptr)
        return -1;
    int count = 0;
    while (const dirent* entry = ::readdir(dir))
        count += entry->d_name[0] != '.';
    ::closedir(dir);
    return count;
}

// A non-blocking loopback connection under way; -1 when the socket cannot be made.
int connect_to(int port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 &&
        errno != EINPROGRESS) {
        ::close(fd);
        return -1;
    }
    return fd;
}

// Waits for `events` on `fd` until `deadline`; false on timeout.
bool wait_for(int fd, short events, Clock::time_point deadline) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0)
        return false;
    pollfd p{fd, events, 0};
    return ::poll(&p, 1, static_cast<int>(left)) > 0;
}

struct Get {
    bool ok = false; // 200 with the whole page, within the timeout
    double ms = 0;
    std::string status;
};

// A normal reader: a fresh connection, one GET, the answer read to the server's close; 5 s at
// most.
Get timed_get(int port, const std::string& path) {
    const auto start = Clock::now();
    const auto deadline = start + 5s;
    Get get;
    const int fd = connect_to(port);
    if (fd < 0) {
        get.status = "no socket";
        return get;
    }
    const std::string request =
        "GET " + path + " HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n";
    std::size_t sent = 0;
    std::string answer;
    bool closed = false;
    while (sent < request.size()) {
        if (!wait_for(fd, POLLOUT, deadline))
            break;
        const ssize_t n = ::send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
        if (n < 0 && errno != EAGAIN && errno != EINTR)
            break;
        if (n > 0)
            sent += static_cast<std::size_t>(n);
    }
    while (sent == request.size() && !closed && wait_for(fd, POLLIN, deadline)) {
        char buf[16384];
        const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n > 0)
            answer.append(buf, static_cast<std::size_t>(n));
        else if (n == 0 || (errno != EAGAIN && errno != EINTR))
            closed = true;
    }
    ::close(fd);
    get.ms = ms_between(start, Clock::now());
    get.status = answer.substr(0, answer.find("\r\n"));
    if (get.status.empty())
        get.status = closed ? "closed without an answer" : "timed out";
    const std::size_t length_at = answer.find("Content-Length: ");
    const std::size_t body_at = answer.find("\r\n\r\n");
    get.ok = closed && get.status == "HTTP/1.1 200 OK" && length_at != std::string::npos &&
             body_at != std::string::npos &&
             answer.size() - body_at - 4 == std::stoul(answer.substr(length_at + 16));
    return get;
}

// The first five stay open (until the server's timeouts cut them); the rest are refused at once.
enum class Kind {
    Idle,
    ByteTrickle,
    LineTrickle,
    Ranges,
    FullHead,
    ManyLines,
    BigHead,
    BodyOnGet,
    HalfClosed
};
constexpr int kinds = 9;
constexpr int slow_kinds = 5;

const char* name(Kind kind) {
    switch (kind) {
    case Kind::Idle:
        return "idle after connect";
    case Kind::ByteTrickle:
        return "one head byte a second";
    case Kind::LineTrickle:
        return "one header line a second";
    case Kind::ManyLines:
        return "150 header lines";
    case Kind::BigHead:
        return "66 KB of header";
    case Kind::Ranges:
        return "Range: 2,600 ranges";
    case Kind::FullHead:
        return "60 KB of head, unfinished";
    case Kind::BodyOnGet:
        return "GET with a body";
    case Kind::HalfClosed:
        return "head begun, half-closed";
    }
    return "?";
}

// Those the server refuses at once: opened again a second after, so they stay sockets and do
// not become a request flood.
bool refused_at_once(Kind kind) {
    return static_cast<int>(kind) >= slow_kinds;
}

// What a socket of `kind` sends as soon as it is connected.
std::string opening(Kind kind) {
    switch (kind) {
    case Kind::Idle:
        return "";
    case Kind::ByteTrickle:
        return "G";
    case Kind::LineTrickle:
        return "GET / HTTP/1.1\r\n";
    case Kind::ManyLines: {
        std::string head = "GET / HTTP/1.1\r\nHost: bench\r\n";
        for (int i = 0; i < 150; ++i)
            head += "X-" + std::to_string(i) + ": y\r\n";
        return head + "\r\n";
    }
    case Kind::FullHead: { // just under the limit, never ended: the most a connection may hold
        std::string head = "GET / HTTP/1.1\r\nHost: bench\r\n";
        for (int i = 0; i < 30; ++i)
            head += "X-" + std::to_string(i) + ": " + std::string(2000, 'a') + "\r\n";
        return head;
    }
    case Kind::BigHead: {
        std::string head = "GET / HTTP/1.1\r\nHost: bench\r\n";
        for (int i = 0; i < 33; ++i)
            head += "X-" + std::to_string(i) + ": " + std::string(2000, 'a') + "\r\n";
        return head + "\r\n";
    }
    case Kind::Ranges: {
        std::string head = "GET /game/1 HTTP/1.1\r\nHost: bench\r\nRange: bytes=0-0";
        for (int i = 1; i < 2600; ++i)
            head += "," + std::to_string(2 * i) + "-" + std::to_string(2 * i);
        return head + "\r\n\r\n";
    }
    case Kind::BodyOnGet:
        return "GET / HTTP/1.1\r\nHost: bench\r\nContent-Length: 1000000\r\n\r\n" +
               std::string(16384, 'b');
    case Kind::HalfClosed:
        return "GET / HTTP/1.1\r\nHost: bench\r\n";
    }
    return "";
}

// The byte (or line) a trickling socket sends each second: an endless well-formed head.
std::string trickle(Kind kind, std::size_t step) {
    static const std::string head = "ET / HTTP/1.1\r\nHost: bench\r\n";
    if (kind == Kind::ByteTrickle) {
        if (step < head.size())
            return head.substr(step, 1);
        const std::string field = "X-Slow: y\r\n";
        return field.substr((step - head.size()) % field.size(), 1);
    }
    return "X-" + std::to_string(step) + ": y\r\n";
}

struct KindFigures {
    long connections = 0;             // opened in all, reopenings included
    long closed_by_server = 0;        // the server closed or reset it
    std::map<std::string, long> seen; // status lines answered
};

struct Slot {
    Kind kind = Kind::Idle;
    int fd = -1;
    bool connected = false;
    bool half_closed = false;
    bool answered = false;
    std::string pending;
    std::size_t step = 0;
    Clock::time_point opened;
    Clock::time_point next_trickle;
    Clock::time_point reopen_at;
};

// The hostile sockets, on a thread of their own until stop: `slow` of the kinds that stay open,
// `floods` of those refused at once, each kind an equal share of its group.
class Hostile {
public:
    Hostile(int port, int slow, int floods)
        : port_(port), slots_(static_cast<std::size_t>(slow + floods)) {
        for (std::size_t i = 0; i < slots_.size(); ++i) {
            const auto s = static_cast<std::size_t>(slow);
            slots_[i].kind = i < s ? static_cast<Kind>(i % slow_kinds)
                                   : static_cast<Kind>(slow_kinds + (i - s) % (kinds - slow_kinds));
            ++sockets_[static_cast<int>(slots_[i].kind)];
        }
        thread_ = std::thread([this] { run(); });
    }
    ~Hostile() { stop(); }
    Hostile(const Hostile&) = delete;
    Hostile& operator=(const Hostile&) = delete;

    // Closes every socket and joins.
    void stop() {
        stop_ = true;
        if (thread_.joinable())
            thread_.join();
    }
    // Sockets of the kinds that stay open that are open now (connected or connecting).
    int slow_open() const { return slow_open_; }
    int sockets(Kind kind) const { return sockets_[static_cast<int>(kind)]; }
    const KindFigures& figures(Kind kind) const { return figures_[static_cast<int>(kind)]; }

private:
    void close(Slot& s, bool by_server) {
        ::close(s.fd);
        s.fd = -1;
        if (!refused_at_once(s.kind))
            --slow_open_;
        const auto now = Clock::now();
        s.reopen_at = refused_at_once(s.kind) || now - s.opened < 1s ? now + 1s : now;
        if (by_server)
            ++figures_[static_cast<int>(s.kind)].closed_by_server;
    }

    void reopen(Slot& s, Clock::time_point now) {
        s.fd = connect_to(port_);
        if (s.fd < 0) {
            s.reopen_at = now + 1s;
            return;
        }
        if (!refused_at_once(s.kind))
            ++slow_open_;
        ++figures_[static_cast<int>(s.kind)].connections;
        s.connected = false;
        s.half_closed = false;
        s.answered = false;
        s.pending.clear();
        s.step = 0;
        s.opened = now;
    }

    void on_connected(Slot& s, Clock::time_point now) {
        int error = 0;
        socklen_t size = sizeof error;
        if (::getsockopt(s.fd, SOL_SOCKET, SO_ERROR, &error, &size) != 0 || error != 0)
            return close(s, true);
        s.connected = true;
        s.pending = opening(s.kind);
        s.next_trickle = now + 1s;
    }

    void on_readable(Slot& s) {
        char buf[16384];
        for (;;) {
            const ssize_t n = ::recv(s.fd, buf, sizeof buf, 0);
            if (n > 0) {
                if (!s.answered) {
                    const std::string start(buf, static_cast<std::size_t>(n));
                    ++figures_[static_cast<int>(s.kind)].seen[start.substr(0, start.find("\r\n"))];
                    s.answered = true; // one answer counted per connection
                }
                continue;
            }
            if (n < 0 && (errno == EAGAIN || errno == EINTR))
                return;
            return close(s, true);
        }
    }

    void on_writable(Slot& s) {
        while (!s.pending.empty()) {
            const ssize_t n = ::send(s.fd, s.pending.data(), s.pending.size(), MSG_NOSIGNAL);
            if (n > 0) {
                s.pending.erase(0, static_cast<std::size_t>(n));
                continue;
            }
            if (n < 0 && (errno == EAGAIN || errno == EINTR))
                return;
            return close(s, true);
        }
        if (s.kind == Kind::HalfClosed && !s.half_closed) {
            ::shutdown(s.fd, SHUT_WR);
            s.half_closed = true;
        }
    }

    void run() {
        std::vector<pollfd> polled;
        std::vector<Slot*> owners;
        while (!stop_) {
            const auto now = Clock::now();
            polled.clear();
            owners.clear();
            for (Slot& s : slots_) {
                if (s.fd < 0 && now >= s.reopen_at)
                    reopen(s, now);
                if (s.fd < 0)
                    continue;
                if (s.connected && s.pending.empty() && now >= s.next_trickle &&
                    (s.kind == Kind::ByteTrickle || s.kind == Kind::LineTrickle)) {
                    s.pending = trickle(s.kind, s.step++);
                    s.next_trickle += 1s;
                }
                short events = POLLIN;
                if (!s.connected || !s.pending.empty())
                    events |= POLLOUT;
                polled.push_back(pollfd{s.fd, events, 0});
                owners.push_back(&s);
            }
            if (::poll(polled.data(), polled.size(), 50) < 0 && errno != EINTR)
                return;
            const auto then = Clock::now();
            for (std::size_t i = 0; i < polled.size(); ++i) {
                Slot& s = *owners[i];
                const short got = polled[i].revents;
                if (got == 0)
                    continue;
                if (!s.connected) {
                    if ((got & (POLLOUT | POLLERR | POLLHUP)) != 0)
                        on_connected(s, then);
                    continue;
                }
                if ((got & (POLLIN | POLLERR | POLLHUP)) != 0)
                    on_readable(s);
                if (s.fd >= 0 && (got & POLLOUT) != 0)
                    on_writable(s);
            }
        }
        for (Slot& s : slots_)
            if (s.fd >= 0)
                close(s, false);
    }

    int port_;
    std::vector<Slot> slots_;
    KindFigures figures_[kinds];
    int sockets_[kinds] = {};
    std::atomic<int> slow_open_{0};
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

struct Phase {
    std::string name;
    std::vector<double> ms;
    int ok = 0;
    std::map<std::string, int> failures;
    long rss_max_kb = 0;
    long hwm_kb = 0;
    int files_max = 0;
    int hostile_min = -1;
    double hostile_mean = 0;

    double percentile(double p) const {
        std::vector<double> sorted = ms;
        std::sort(sorted.begin(), sorted.end());
        const auto rank = static_cast<std::size_t>(
            std::max(1.0, std::ceil(p / 100.0 * static_cast<double>(sorted.size()))));
        return sorted[std::min(rank, sorted.size()) - 1];
    }
    double max() const { return *std::max_element(ms.begin(), ms.end()); }
};

// `gets` normal GETs, / and /game/1 in turn, one every 50 ms, sampling memory and files.
Phase measure(const std::string& name, int port, int gets, const Hostile* hostile) {
    Phase phase{name};
    long hostile_sum = 0;
    for (int i = 0; i < gets; ++i) {
        const Get get = timed_get(port, i % 2 == 0 ? "/" : "/game/1");
        phase.ms.push_back(get.ms);
        if (get.ok)
            ++phase.ok;
        else
            ++phase.failures[get.status];
        const auto [rss, hwm] = server_memory();
        phase.rss_max_kb = std::max(phase.rss_max_kb, rss);
        phase.hwm_kb = hwm;
        phase.files_max = std::max(phase.files_max, server_files());
        if (hostile != nullptr) {
            const int open = hostile->slow_open();
            phase.hostile_min = phase.hostile_min < 0 ? open : std::min(phase.hostile_min, open);
            hostile_sum += open;
        }
        std::this_thread::sleep_for(50ms);
    }
    phase.hostile_mean = hostile ? static_cast<double>(hostile_sum) / gets : 0;
    return phase;
}

void print(const Phase& p) {
    std::printf("| %-26s | %3d/%-3zu | %7.2f | %7.2f | %7.2f | %8.1f | %8.1f | %6d | %s |\n",
                p.name.c_str(), p.ok, p.ms.size(), p.percentile(50), p.percentile(99), p.max(),
                static_cast<double>(p.rss_max_kb) / 1024.0, static_cast<double>(p.hwm_kb) / 1024.0,
                p.files_max,
                p.hostile_min < 0 ? "-"
                                  : (std::to_string(p.hostile_min) + " / " +
                                     std::to_string(static_cast<int>(std::lround(p.hostile_mean))))
                                        .c_str());
    for (const auto& [status, count] : p.failures)
        std::printf("|   failed: %s x%d\n", status.c_str(), count);
}

} // namespace

int main(int argc, char** argv) {
    std::string ghostpost =
        (std::filesystem::read_symlink("/proc/self/exe").parent_path().parent_path() / "ghostpost")
            .string();
    int sockets = 1000;
    int floods = 250;
    int gets = 200;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string option = argv[i];
        if (option == "--ghostpost")
            ghostpost = argv[i + 1];
        else if (option == "--sockets")
            sockets = std::atoi(argv[i + 1]);
        else if (option == "--floods")
            floods = std::atoi(argv[i + 1]);
        else if (option == "--gets")
            gets = std::atoi(argv[i + 1]);
        else
            fail("usage: web_hostile [--ghostpost PATH] [--sockets N] [--floods N] [--gets N]");
    }
    if (sockets < slow_kinds || sockets > 20000 || floods < 0 || floods > 20000 || gets < 2 ||
        gets > 2000)
        fail("--sockets must be 5..20000, --floods 0..20000 and --gets 2..2000");
    if (::access(ghostpost.c_str(), X_OK) != 0)
        fail(ghostpost + " is not an executable (build the ghostpost target, or give --ghostpost)");

    std::signal(SIGPIPE, SIG_IGN);
    std::signal(SIGALRM, on_wall_cap);
    std::signal(SIGINT, on_stop_signal);
    std::signal(SIGTERM, on_stop_signal);
    ::alarm(wall_cap_seconds);

    // Both ends of every hostile socket live in this process's and the server's tables.
    rlimit files{};
    ::getrlimit(RLIMIT_NOFILE, &files);
    const auto wanted = static_cast<rlim_t>(sockets + floods) + 256;
    if (files.rlim_cur < wanted) {
        files.rlim_cur = std::min(wanted, files.rlim_max);
        ::setrlimit(RLIMIT_NOFILE, &files);
    }
    if (files.rlim_cur < wanted)
        fail("the open-file limit (" + std::to_string(files.rlim_max) + ") is below " +
             std::to_string(wanted));

    char dir_template[] = "/tmp/web_hostile.XXXXXX";
    if (::mkdtemp(dir_template) == nullptr)
        fail("mkdtemp failed");
    temp_dir = dir_template;
    const std::string db = temp_dir + "/games.db";

    make_database(ghostpost, db);
    const int port = start_server(ghostpost, db);
    for (const char* path : {"/", "/game/1", "/game/2", "/game/3"}) { // each made once
        const Get get = timed_get(port, path);
        if (!get.ok)
            fail(std::string("GET ") + path + " answered \"" + get.status + "\"");
    }

    std::printf("web_hostile: ghostpost web (pid %d) on 127.0.0.1:%d; %d normal GETs a phase of "
                "/ and /game/1 in turn, each on a fresh connection, one every 50 ms; %d hostile "
                "sockets that stay open and %d refused at once\n",
                static_cast<int>(server_pid), port, gets, sockets, floods);
    std::fflush(stdout);

    std::vector<Phase> phases;
    phases.push_back(measure("at rest", port, gets, nullptr));

    auto hostile = std::make_unique<Hostile>(port, sockets, floods);
    const auto ramp = Clock::now();
    while (hostile->slow_open() < sockets && Clock::now() - ramp < 10s)
        std::this_thread::sleep_for(10ms);
    const double ramp_ms = ms_between(ramp, Clock::now());
    std::this_thread::sleep_for(1500ms); // the trickles under way, the floods refused
    phases.push_back(
        measure(std::to_string(sockets) + " open + " + std::to_string(floods) + " floods", port,
                gets, hostile.get()));
    hostile->stop();

    std::this_thread::sleep_for(2s); // the server sees them closed
    phases.push_back(measure("after they closed", port, gets, nullptr));

    std::printf("\n| phase | GETs 200 | p50 ms | p99 ms | max ms | VmRSS max MB | VmHWM MB | "
                "server fds max | hostile open min / mean |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|\n");
    for (const Phase& p : phases)
        print(p);
    std::printf("\n%d hostile sockets connected in %.0f ms (\"hostile open\": those of them "
                "open, as this bench counts).\n",
                sockets, ramp_ms);
    std::printf("\n| hostile kind | sockets | connections | closed by server | answers |\n");
    std::printf("|---|---|---|---|---|\n");
    for (int k = 0; k < kinds; ++k) {
        const KindFigures& f = hostile->figures(static_cast<Kind>(k));
        std::string answers;
        for (const auto& [status, count] : f.seen)
            answers += (answers.empty() ? "" : ", ") + status + " x" + std::to_string(count);
        std::printf("| %s | %d | %ld | %ld | %s |\n", name(static_cast<Kind>(k)),
                    hostile->sockets(static_cast<Kind>(k)), f.connections, f.closed_by_server,
                    answers.empty() ? "none" : answers.c_str());
    }

    const Phase& loaded = phases[1];
    const bool met = loaded.ok == gets && loaded.max() < 1000.0;
    std::printf("\ntarget: every normal page within 1 s while the hostile sockets are open: %s "
                "(max %.1f ms, %d/%d answered 200)\n",
                met ? "met" : "NOT met", loaded.max(), loaded.ok, gets);

    ::kill(server_pid, SIGTERM);
    const int status = reap(server_pid, Clock::now() + 5s);
    server_pid = 0;
    if (status != 0)
        std::printf("ghostpost web exited with %d on SIGTERM\n", status);
    std::filesystem::remove_all(temp_dir);
    return met ? 0 : 1;
}
