// [platform.matrix] in the configuration file: its keys, its checks, the token's two sources.
#include "ghostpost/config/config.h"
#include "ghostpost/matrix/module.h"
#include "ghostpost/matrix/settings.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>

using namespace ghostpost::config;
using ghostpost::bot::matrix_module;
using ghostpost::bot::MatrixSettings;
using ghostpost::bot::read_matrix_settings;

namespace {

Environment environment_with(std::map<std::string, std::string> variables) {
    return
        [variables = std::move(variables)](const std::string& name) -> std::optional<std::string> {
            const auto it = variables.find(name);
            return it == variables.end() ? std::nullopt : std::optional<std::string>(it->second);
        };
}

const Environment with_token = environment_with({{"GHOSTPOST_MATRIX_TOKEN", " syt_abc_secret\n"}});

// The file read as the daemon reads it: config/ hands the table through, the module reads it.
MatrixSettings matrix_of(const Settings& settings, const Environment& environment) {
    return read_matrix_settings(settings.platforms.at("matrix"), environment);
}

MatrixSettings read(const std::string& text, const Environment& environment) {
    return matrix_of(parse(text, "ghostpost.toml", environment, {}, {matrix_module.claim()}),
                     environment);
}

std::string error_of(const std::string& table, const Environment& environment = with_token) {
    try {
        (void)read("[storage]\npath = \"g.sqlite\"\n[platform.matrix]\n" + table, environment);
    } catch (const ConfigError& e) {
        return e.what();
    }
    return "no error";
}

} // namespace

TEST_CASE("[platform.matrix] is read into typed settings", "[config][matrix]") {
    const MatrixSettings m = read(R"(
[storage]
path = "g.sqlite"
[platform.matrix]
homeserver_url = "https://matrix.example.org/"
user_id = "@ghostpost:example.org"
auto_join = ["example.org", "friends.example"]
poll_timeout = 20
request_timeout = 10
per_chat_interval_ms = 0
group_messages_per_minute = 60
)",
                                  with_token);
    CHECK(m.homeserver_url == "https://matrix.example.org");
    CHECK(m.user_id == "@ghostpost:example.org");
    CHECK_FALSE(m.join_any);
    CHECK(m.join_servers == std::vector<std::string>{"example.org", "friends.example"});
    CHECK(m.token == "syt_abc_secret");
    CHECK(m.poll_timeout == std::chrono::seconds(20));
    CHECK(m.request_timeout == std::chrono::seconds(10));
    CHECK(m.per_chat_interval == std::chrono::milliseconds(0));
    CHECK(m.group_messages_per_minute == 60);

    const auto defaults = read("[storage]\npath = \"g.sqlite\"\n[platform.matrix]\n"
                               "homeserver_url = \"http://127.0.0.1:8008\"\n"
                               "user_id = \"@bot:localhost\"\nauto_join = \"all\"\n",
                               with_token);
    CHECK(defaults.join_any);
    CHECK(defaults.poll_timeout == std::chrono::seconds(30));
    CHECK(parse("[storage]\npath = \"g.sqlite\"\n", "ghostpost.toml", with_token, {},
                {matrix_module.claim()})
              .platforms.empty());
}

TEST_CASE("a bad [platform.matrix] names the key and the line", "[config][matrix]") {
    const std::string url = "homeserver_url = \"https://m.example.org\"\n";
    const std::string user = "user_id = \"@bot:example.org\"\n";
    CHECK(error_of(user) == "ghostpost.toml:3: platform.matrix.homeserver_url: is required");
    CHECK(error_of(url) == "ghostpost.toml:3: platform.matrix.user_id: is required");
    CHECK(error_of("homeserver_url = \"matrix.example.org\"\n" + user) ==
          "ghostpost.toml:4: platform.matrix.homeserver_url: must start with http:// or https://");
    CHECK(error_of(url + "user_id = \"bot\"\n") ==
          "ghostpost.toml:5: platform.matrix.user_id: must be a full Matrix user id like "
          "\"@ghostpost:example.org\"");
    CHECK(error_of(url + user + "auto_join = \"some\"\n") ==
          "ghostpost.toml:6: platform.matrix.auto_join: must be \"all\" or a list of server names");
    CHECK(error_of(url + user + "auto_join = 3\n") ==
          "ghostpost.toml:6: platform.matrix.auto_join: must be an array of strings");
    CHECK(error_of(url + user + "poll_timeout = 0\n") ==
          "ghostpost.toml:6: platform.matrix.poll_timeout: must be between 1 and 120 seconds");
    CHECK(error_of(url + user + "token = \"x\"\n") ==
          "ghostpost.toml:6: platform.matrix.token: unknown key");
    CHECK(error_of(url + user, environment_with({})) ==
          "ghostpost.toml: platform.matrix.token_file: no token: set GHOSTPOST_MATRIX_TOKEN or "
          "[platform.matrix] token_file");
    CHECK(error_of(url + user, environment_with({{"GHOSTPOST_MATRIX_TOKEN", "two words"}})) ==
          "ghostpost.toml: platform.matrix.token_file: the access token holds spaces or control "
          "characters");
}

TEST_CASE("the Matrix token comes from token_file when the environment has none",
          "[config][matrix]") {
    const auto dir = std::filesystem::temp_directory_path() / "ghostpost-matrix-config-test";
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "matrix.token") << "syt_from_file_secret\n";
    std::ofstream(dir / "ghostpost.toml")
        << "[storage]\npath = \"g.sqlite\"\n[platform.matrix]\n"
           "homeserver_url = \"http://127.0.0.1:8008\"\nuser_id = \"@bot:localhost\"\n"
           "token_file = \"matrix.token\"\n";
    const auto none = environment_with({});
    CHECK(matrix_of(load(dir / "ghostpost.toml", none, {matrix_module.claim()}), none).token ==
          "syt_from_file_secret");
    // The environment wins over the file.
    CHECK(matrix_of(load(dir / "ghostpost.toml", with_token, {matrix_module.claim()}), with_token)
              .token == "syt_abc_secret");
    std::filesystem::remove_all(dir);
}
