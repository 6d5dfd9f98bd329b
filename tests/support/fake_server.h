// Test helpers shared by the platform tests: a child process, a temporary directory, and a fake
// platform server (a Python or Node script of ours) started on a free loopback port and driven
// through its /control/ endpoints.
//
// Every fake (Telegram, Discord, Matrix, Discourse) answers the same controls for outages and
// refusals, wrapped here: refuse_token() (POST /control/refuse_token {"refuse": bool}: the
// platform refuses the bot's credentials as for a revoked token), go_down() (POST
// /control/go_down: nothing listens on the port and open connections are cut) and come_back()
// (the line "come_back" on the fake's standard input: it listens again on the same port, its
// state kept). Every fake also checks its own answers against the platform's API description;
// one the real service could not send is answered 500 and written to the fake's stderr as
// "answer violation: ...", and a test that ends with such a line unread fails.
#pragma once

#include "ghostpost/http/http.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <exception>
#include <fcntl.h>
#include <filesystem>
#include <netinet/in.h>
#include <nlohmann/json.hpp>
#include <spawn.h>
#include <sstream>
#include <string>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace ghostpost::test {

// A child with its stdin as a pipe we hold (closing it tells a fake server to exit) and its
// stdout/stderr sent to files.
class Child {
public:
    Child(const std::vector<std::string>& argv, const std::filesystem::path& out,
          const std::filesystem::path& err, const std::vector<std::string>& extra_env = {}) {
        int in_pipe[2];
        REQUIRE(pipe(in_pipe) == 0);
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, in_pipe[0], 0);
        posix_spawn_file_actions_addclose(&actions, in_pipe[1]);
        posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_APPEND,
                                         0644);
        posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_APPEND,
                                         0644);
        std::vector<std::string> env_strings;
        for (char** e = environ; *e != nullptr; ++e) {
            env_strings.emplace_back(*e);
        }
        env_strings.insert(env_strings.end(), extra_env.begin(), extra_env.end());
        std::vector<char*> args;
        for (const auto& a : argv) {
            args.push_back(const_cast<char*>(a.c_str()));
        }
        args.push_back(nullptr);
        std::vector<char*> env;
        for (auto& e : env_strings) {
            env.push_back(e.data());
        }
        env.push_back(nullptr);
        const int rc = posix_spawn(&pid_, args[0], &actions, nullptr, args.data(), env.data());
        posix_spawn_file_actions_destroy(&actions);
        close(in_pipe[0]);
        stdin_ = in_pipe[1];
        fcntl(stdin_, F_SETFD, FD_CLOEXEC);
        REQUIRE(rc == 0);
    }
    ~Child() {
        if (pid_ > 0) {
            kill(pid_, SIGKILL);
            (void)wait_exit(std::chrono::seconds(5));
        }
        if (stdin_ >= 0) {
            close(stdin_);
        }
    }
    Child(const Child&) = delete;
    Child& operator=(const Child&) = delete;

    pid_t pid() const { return pid_; }
    void signal(int number) { kill(pid_, number); }
    // Writes `line` and a line break to the child's standard input.
    void tell(const std::string& line) {
        const std::string text = line + "\n";
        REQUIRE(write(stdin_, text.data(), text.size()) == static_cast<ssize_t>(text.size()));
    }
    // The exit status (or 128 + signal), or -1 when it did not end within `limit`.
    int wait_exit(std::chrono::milliseconds limit) {
        const auto end = std::chrono::steady_clock::now() + limit;
        while (std::chrono::steady_clock::now() < end) {
            int status = 0;
            if (waitpid(pid_, &status, WNOHANG) == pid_) {
                pid_ = -1;
                return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        return -1;
    }

private:
    pid_t pid_ = -1;
    int stdin_ = -1;
};

inline std::string read_file(const std::filesystem::path& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (f == nullptr) {
        return {};
    }
    std::string text;
    char buffer[4096];
    std::size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) {
        text.append(buffer, n);
    }
    std::fclose(f);
    return text;
}

// A loopback TCP port where nothing listens now: bound, read, closed. Another process may take
// it meanwhile; tests use it for an address of the daemon's own or one that refuses.
inline int free_loopback_port() {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(fd >= 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    socklen_t size = sizeof address;
    REQUIRE(getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size) == 0);
    close(fd);
    return ntohs(address.sin_port);
}

// A fresh directory under the system's temp dir, removed at the end of the test.
class TempDir {
public:
    TempDir() {
        std::string pattern =
            (std::filesystem::temp_directory_path() / "ghostpost-test-XXXXXX").string();
        REQUIRE(mkdtemp(pattern.data()) != nullptr);
        path_ = pattern;
    }
    ~TempDir() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

// A fake platform server: the script runs as a child (`argv`, with "--port 0" added), prints
// "PORT <n>" once listening, and exits when its standard input closes, so it never outlives the
// test. Its log goes to `name`.out and `name`.err in `dir`.
class FakeServer {
public:
    FakeServer(const TempDir& dir, const std::string& name, const std::vector<std::string>& argv)
        : out_(dir.path() / (name + ".out")), err_(dir.path() / (name + ".err")),
          child_(on_any_port(argv), out_, err_) {
        // Generous: the first start of the fake Discord after its API description changed
        // builds its validators' cache, which takes a minute on a busy machine.
        const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(120);
        while (port_ == 0 && std::chrono::steady_clock::now() < end) {
            const std::string text = read_file(out_);
            if (text.starts_with("PORT ") && text.find('\n') != std::string::npos)
                port_ = std::stoi(text.substr(5));
            else
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        REQUIRE(port_ != 0);
    }

    // A test that leaves an answer violation of the fake unread fails: the fake said what the
    // real service never says, so what the test saw proves nothing.
    ~FakeServer() {
        if (std::uncaught_exceptions() == 0) {
            const std::vector<std::string> unread = answer_violations();
            CHECK(unread == std::vector<std::string>{});
        }
    }
    FakeServer(const FakeServer&) = delete;
    FakeServer& operator=(const FakeServer&) = delete;

    std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

    // Calls /control/<command> with `args` and returns its JSON answer (the test fails on any
    // status but 200).
    nlohmann::json control(const std::string& command,
                           const nlohmann::json& args = nlohmann::json::object()) {
        bot::HttpRequest request;
        request.url = url() + "/control/" + command;
        request.body = args.dump();
        request.timeout = std::chrono::seconds(10);
        const auto response = http_.post(request);
        REQUIRE(response.status == 200);
        return nlohmann::json::parse(response.body);
    }

    nlohmann::json sent() { return control("sent")["sent"]; }
    nlohmann::json violations() { return control("violations")["violations"]; }

    // The answers of its own the fake refused to send (it sent 500 instead) since the last
    // call, each "the fake's answer to <route>: <what was wrong>".
    std::vector<std::string> answer_violations() {
        static constexpr std::string_view marker = "answer violation: ";
        std::vector<std::string> found;
        std::istringstream lines(read_file(err_));
        std::size_t index = 0;
        for (std::string line; std::getline(lines, line);) {
            if (!line.starts_with(marker))
                continue;
            if (index++ >= answer_violations_read_)
                found.push_back(line.substr(marker.size()));
        }
        answer_violations_read_ = index;
        return found;
    }

    // The platform refuses the bot's credentials from now on (or, with false, accepts them
    // again): Telegram 401, Discord 401 and Gateway close 4004, Matrix 401 M_UNKNOWN_TOKEN,
    // Discourse 403 invalid_access.
    void refuse_token(bool refuse = true) { control("refuse_token", {{"refuse", refuse}}); }

    // Nothing listens on the fake's port until come_back(), and every open connection is cut;
    // returns once a connection is refused.
    void go_down() {
        control("go_down");
        const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (reachable() && std::chrono::steady_clock::now() < end)
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        REQUIRE_FALSE(reachable());
    }

    // The fake listens again on the same port, with the state it had; returns once it answers.
    void come_back() {
        child_.tell("come_back");
        const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (!reachable() && std::chrono::steady_clock::now() < end)
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        REQUIRE(reachable());
    }

private:
    static std::vector<std::string> on_any_port(std::vector<std::string> argv) {
        argv.insert(argv.end(), {"--port", "0"});
        return argv;
    }

    bool reachable() {
        bot::HttpRequest request;
        request.url = url() + "/control/violations";
        request.body = "{}";
        request.timeout = std::chrono::seconds(2);
        try {
            return http_.post(request).status == 200;
        } catch (const bot::HttpError&) {
            return false;
        }
    }

    std::filesystem::path out_;
    std::filesystem::path err_;
    Child child_;
    int port_ = 0;
    std::size_t answer_violations_read_ = 0;
    bot::CurlHttpClient http_;
};

} // namespace ghostpost::test
