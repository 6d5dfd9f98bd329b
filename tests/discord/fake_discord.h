// Test helpers: a child process, and the fake Discord (fake_discord.mjs) on a free loopback
// port, driven through its /control/ endpoints.
#pragma once

#include "ghostpost/bot/http.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace ghostpost::discord_test {

// A child with its stdin as a pipe we hold (closing it tells the fake to exit) and its
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
        for (char** e = environ; *e != nullptr; ++e)
            env_strings.emplace_back(*e);
        env_strings.insert(env_strings.end(), extra_env.begin(), extra_env.end());
        std::vector<char*> args;
        for (const auto& a : argv)
            args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        std::vector<char*> env;
        for (auto& e : env_strings)
            env.push_back(e.data());
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
        if (stdin_ >= 0)
            close(stdin_);
    }
    Child(const Child&) = delete;
    Child& operator=(const Child&) = delete;

    void signal(int number) { kill(pid_, number); }
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
    if (f == nullptr)
        return {};
    std::string text;
    char buffer[4096];
    std::size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0)
        text.append(buffer, n);
    std::fclose(f);
    return text;
}

// A fresh directory under the system's temp dir, removed at the end of the test.
class TempDir {
public:
    TempDir() {
        std::string pattern =
            (std::filesystem::temp_directory_path() / "ghostpost-dc-XXXXXX").string();
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

template <typename Predicate> bool eventually(Predicate done, std::chrono::milliseconds limit) {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < end) {
        if (done())
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return done();
}

class FakeDiscord {
public:
    static constexpr const char* token = "MTAxNzQ.FAKEsecret.discord-token_value";
    static constexpr const char* bot_id = "900000000000000001";

    explicit FakeDiscord(const TempDir& dir)
        : out_(dir.path() / "fake.out"),
          child_({GHOSTPOST_NODE, GHOSTPOST_FAKE_DISCORD, "--spec", GHOSTPOST_DISCORD_SPEC,
                  "--token", token, "--lifetime", "600"},
                 out_, dir.path() / "fake.err") {
        const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (port_ == 0 && std::chrono::steady_clock::now() < end) {
            const std::string text = read_file(out_);
            if (text.starts_with("PORT ") && text.find('\n') != std::string::npos)
                port_ = std::stoi(text.substr(5));
            else
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        REQUIRE(port_ != 0);
    }

    std::string api_url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/api/v10"; }

    nlohmann::json control(const std::string& command,
                           const nlohmann::json& args = nlohmann::json::object()) {
        bot::HttpRequest request;
        request.url = "http://127.0.0.1:" + std::to_string(port_) + "/control/" + command;
        request.body = args.dump();
        request.timeout = std::chrono::seconds(10);
        const auto response = http_.post(request);
        REQUIRE(response.status == 200);
        return nlohmann::json::parse(response.body);
    }

    static nlohmann::json user(const std::string& id, const std::string& username) {
        return {{"id", id}, {"username", username}, {"global_name", nullptr}};
    }

    // A user posts in a guild channel; `mentions` are the users the text names as <@id>.
    nlohmann::json say(const std::string& channel, const nlohmann::json& author,
                       const std::string& content,
                       const nlohmann::json& mentions = nlohmann::json::array()) {
        return control("say", {{"channel_id", channel},
                               {"author", author},
                               {"content", content},
                               {"mentions", mentions}});
    }
    // A user writes to the bot in their DM channel.
    nlohmann::json dm(const nlohmann::json& author, const std::string& content) {
        return control("say", {{"dm", true}, {"author", author}, {"content", content}});
    }

    nlohmann::json sent() { return control("sent")["sent"]; }
    nlohmann::json violations() { return control("violations")["violations"]; }
    nlohmann::json stats() { return control("stats"); }

private:
    std::filesystem::path out_;
    Child child_;
    int port_ = 0;
    bot::CurlHttpClient http_;
};

} // namespace ghostpost::discord_test
