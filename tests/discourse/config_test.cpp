// [platform.discourse] in the configuration: every key, the API key's two sources, and errors
// that name the key and line without quoting the secret.
#include "ghostpost/config/config.h"
#include "ghostpost/discourse/module.h"
#include "ghostpost/discourse/settings.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>

using namespace ghostpost::config;
using ghostpost::bot::discourse_module;
using ghostpost::bot::DiscourseSettings;
using ghostpost::bot::read_discourse_settings;

namespace {

Environment environment_of(std::map<std::string, std::string> variables) {
    return
        [variables = std::move(variables)](const std::string& name) -> std::optional<std::string> {
            const auto it = variables.find(name);
            return it == variables.end() ? std::nullopt : std::optional<std::string>(it->second);
        };
}

const Environment with_key = environment_of({{"GHOSTPOST_DISCOURSE_API_KEY", " k3y-from-env \n"}});

// The file read as the daemon reads it: config/ hands the table through, the module reads it.
DiscourseSettings read(std::string_view text, const Environment& environment,
                       const std::filesystem::path& base_dir = {}) {
    const Settings settings =
        parse(text, "ghostpost.toml", environment, base_dir, {discourse_module.claim()});
    return read_discourse_settings(settings.platforms.at("discourse"), environment);
}

std::string error_of(std::string_view text, const Environment& environment) {
    try {
        (void)read(text, environment);
    } catch (const ConfigError& e) {
        return e.what();
    }
    return "no error";
}

} // namespace

TEST_CASE("a Discourse table is read into typed settings", "[config][discourse]") {
    const DiscourseSettings d = read(R"([storage]
path = "g.sqlite"
[platform.discourse]
base_url = "https://forum.example.org/"
username = "@ghostpost"
categories = [5, 12]
poll_interval = 3
request_timeout = 20
per_topic_interval_ms = 0
)",
                                     with_key);
    CHECK(d.base_url == "https://forum.example.org");
    CHECK(d.username == "ghostpost");
    CHECK(d.api_key == "k3y-from-env");
    CHECK(d.categories == std::vector<std::int64_t>{5, 12});
    CHECK(d.poll_interval == std::chrono::seconds(3));
    CHECK(d.request_timeout == std::chrono::seconds(20));
    CHECK(d.per_topic_interval == std::chrono::milliseconds(0));

    const auto defaults = read("[storage]\npath = \"g.sqlite\"\n[platform.discourse]\n"
                               "base_url = \"http://127.0.0.1:8080\"\nusername = \"bot\"\n",
                               with_key);
    CHECK(defaults.categories.empty());
    CHECK(defaults.poll_interval == std::chrono::seconds(5));
    CHECK(defaults.per_topic_interval == std::chrono::milliseconds(1000));
}

TEST_CASE("the Discourse key comes from the environment first, then from key_file",
          "[config][discourse]") {
    const auto dir = std::filesystem::temp_directory_path() / "ghostpost-discourse-config";
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "discourse.key") << "k3y-from-file\n";
    const std::string text = "[storage]\npath = \"g.sqlite\"\n[platform.discourse]\n"
                             "base_url = \"https://f.example\"\nusername = \"bot\"\n"
                             "key_file = \"discourse.key\"\n";
    CHECK(read(text, environment_of({}), dir).api_key == "k3y-from-file");
    CHECK(read(text, with_key, dir).api_key == "k3y-from-env");
    CHECK(error_of("[storage]\npath = \"g.sqlite\"\n[platform.discourse]\n"
                   "base_url = \"https://f.example\"\nusername = \"bot\"\n",
                   environment_of({})) ==
          "ghostpost.toml: platform.discourse.key_file: no API key: set "
          "GHOSTPOST_DISCOURSE_API_KEY or [platform.discourse] key_file");
    std::filesystem::remove_all(dir);
}

TEST_CASE("a bad Discourse table is refused naming the key and its line", "[config][discourse]") {
    const std::string head = "[storage]\npath = \"g.sqlite\"\n[platform.discourse]\n";
    CHECK(error_of(head + "username = \"bot\"\n", with_key) ==
          "ghostpost.toml:3: platform.discourse.base_url: is required");
    CHECK(error_of(head + "base_url = \"ftp://f\"\nusername = \"bot\"\n", with_key) ==
          "ghostpost.toml:4: platform.discourse.base_url: must start with http:// or https://");
    CHECK(
        error_of(head + "base_url = \"https://f\"\nusername = \"bot\"\ncategories = [\"games\"]\n",
                 with_key) ==
        "ghostpost.toml:6: platform.discourse.categories: must be an array of category ids");
    CHECK(error_of(head + "base_url = \"https://f\"\nusername = \"bot\"\npoll_interval = 0\n",
                   with_key) ==
          "ghostpost.toml:6: platform.discourse.poll_interval: must be between 1 and 300 seconds");
    CHECK(error_of(head + "base_url = \"https://f\"\nusername = \"bot\"\napi_key = \"x\"\n",
                   with_key) == "ghostpost.toml:6: platform.discourse.api_key: unknown key");
    CHECK(error_of(head + "base_url = \"https://f\"\n", with_key) ==
          "ghostpost.toml:3: platform.discourse.username: is required");
}
