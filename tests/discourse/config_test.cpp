// [platform.discourse] in the configuration: every key, the API key's two sources, and errors
// that name the key and line without quoting the secret.
#include "ghostpost/config/config.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>

using namespace ghostpost::config;

namespace {

Environment environment_of(std::map<std::string, std::string> variables) {
    return [variables = std::move(variables)](const std::string& name)
               -> std::optional<std::string> {
        const auto it = variables.find(name);
        return it == variables.end() ? std::nullopt : std::optional<std::string>(it->second);
    };
}

const Environment with_key = environment_of({{"GHOSTPOST_DISCOURSE_API_KEY", " k3y-from-env \n"}});

std::string error_of(std::string_view text, const Environment& environment) {
    try {
        (void)parse(text, "ghostpost.toml", environment);
    } catch (const ConfigError& e) {
        return e.what();
    }
    return "no error";
}

} // namespace

TEST_CASE("a Discourse table is read into typed settings", "[config][discourse]") {
    const auto settings = parse(R"([storage]
path = "g.sqlite"
[platform.discourse]
base_url = "https://forum.example.org/"
username = "@ghostpost"
categories = [5, 12]
poll_interval = 3
request_timeout = 20
per_topic_interval_ms = 0
)",
                                "ghostpost.toml", with_key);
    const DiscourseSettings& d = settings.discourse;
    CHECK(d.enabled);
    CHECK_FALSE(settings.telegram.enabled);
    CHECK(d.base_url == "https://forum.example.org");
    CHECK(d.username == "ghostpost");
    CHECK(d.api_key == "k3y-from-env");
    CHECK(d.categories == std::vector<std::int64_t>{5, 12});
    CHECK(d.poll_interval == std::chrono::seconds(3));
    CHECK(d.request_timeout == std::chrono::seconds(20));
    CHECK(d.per_topic_interval == std::chrono::milliseconds(0));

    const auto defaults = parse("[storage]\npath = \"g.sqlite\"\n[platform.discourse]\n"
                                "base_url = \"http://127.0.0.1:8080\"\nusername = \"bot\"\n",
                                "ghostpost.toml", with_key);
    CHECK(defaults.discourse.categories.empty());
    CHECK(defaults.discourse.poll_interval == std::chrono::seconds(5));
    CHECK(defaults.discourse.per_topic_interval == std::chrono::milliseconds(1000));
}

TEST_CASE("the Discourse key comes from the environment first, then from key_file",
          "[config][discourse]") {
    const auto dir = std::filesystem::temp_directory_path() / "ghostpost-discourse-config";
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "discourse.key") << "k3y-from-file\n";
    const std::string text = "[storage]\npath = \"g.sqlite\"\n[platform.discourse]\n"
                             "base_url = \"https://f.example\"\nusername = \"bot\"\n"
                             "key_file = \"discourse.key\"\n";
    CHECK(parse(text, "ghostpost.toml", environment_of({}), dir).discourse.api_key ==
          "k3y-from-file");
    CHECK(parse(text, "ghostpost.toml", with_key, dir).discourse.api_key == "k3y-from-env");
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
    CHECK(error_of(head + "base_url = \"https://f\"\nusername = \"bot\"\ncategories = [\"games\"]\n",
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
