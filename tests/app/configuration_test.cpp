// The configuration as the daemon reads it: config/ reads the shared tables and hands each
// [platform.<name>] through, and the module the list names reads its own.
#include "platform_modules.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <sstream>

using namespace ghostpost;

namespace {

config::Environment fake_environment(std::map<std::string, std::string> variables) {
    return
        [variables = std::move(variables)](const std::string& name) -> std::optional<std::string> {
            const auto it = variables.find(name);
            return it == variables.end() ? std::nullopt : std::optional<std::string>(it->second);
        };
}

const config::Environment secrets =
    fake_environment({{"GHOSTPOST_TELEGRAM_TOKEN", "123456:AAF-secret_Token"},
                      {"GHOSTPOST_DISCORD_TOKEN", "MTAxNzQ.FAKEsecret.discord-token_value"},
                      {"GHOSTPOST_MATRIX_TOKEN", "syt_matrix_token_value"},
                      {"GHOSTPOST_DISCOURSE_API_KEY", "0123456789abcdef"}});

std::vector<std::string> names_of(const bot::Configuration& configuration) {
    std::vector<std::string> names;
    for (const bot::EnabledPlatform& platform : configuration.platforms)
        names.push_back(platform.module->name);
    return names;
}

std::string error_of(std::string_view text) {
    try {
        (void)bot::parse_configuration(text, "ghostpost.toml", secrets);
    } catch (const config::ConfigError& e) {
        return e.what();
    }
    return "no error";
}

} // namespace

TEST_CASE("the example configuration enables no platform and shows every one", "[config][app]") {
    std::ifstream in(GHOSTPOST_SOURCE_DIR "/ghostpost.example.toml");
    std::stringstream text;
    text << in.rdbuf();
    const std::string example = text.str();
    const bot::Configuration none = bot::parse_configuration(example, "example", secrets);
    CHECK(none.platforms.empty());
    CHECK(none.settings.web.listen.empty());
    // Each commented table, uncommented with its keys, reads as it stands.
    const auto uncommented = [&](const std::string& table) {
        std::istringstream lines(example);
        std::string out;
        bool inside = false;
        for (std::string line; std::getline(lines, line);) {
            if (line == "# [" + table + "]")
                inside = true;
            else if (line.empty() || (line.starts_with("# [") && line != "# [" + table + "]"))
                inside = false;
            const bool key = line.starts_with("# [") ||
                             (line.size() > 2 && line.find(" = ") != std::string::npos &&
                              line.find_first_of(" ", 2) == line.find(" = "));
            out += (inside && key ? line.substr(2) : line) + "\n";
        }
        return out;
    };
    for (const std::string name : {"telegram", "discord", "matrix", "discourse"}) {
        const bot::Configuration one =
            bot::parse_configuration(uncommented("platform." + name), "example", secrets);
        CHECK(names_of(one) == std::vector<std::string>{name});
    }
    const config::WebSettings web =
        bot::parse_configuration(uncommented("web"), "example", secrets).settings.web;
    CHECK(web.listen == "127.0.0.1:8080");
    CHECK(web.max_connections == 1024);
    CHECK(web.max_header_bytes == 65536);
    CHECK(web.max_header_lines == 100);
    CHECK(web.timeout_seconds == 5);
    CHECK(bot::parse_configuration(uncommented("metrics"), "example", secrets)
              .settings.metrics.listen == "127.0.0.1:9464");
}

TEST_CASE("every module's table is read by its module, in the list's order", "[config][app]") {
    const bot::Configuration all = bot::parse_configuration(
        "[storage]\npath = \"g.db\"\n"
        "[platform.discourse]\nbase_url = \"https://f.example\"\nusername = \"bot\"\n"
        "[platform.matrix]\nhomeserver_url = \"https://m.example\"\nuser_id = \"@bot:m.example\"\n"
        "[platform.discord]\n[telegram]\n",
        "ghostpost.toml", secrets);
    CHECK(names_of(all) == std::vector<std::string>{"telegram", "discord", "matrix", "discourse"});
    CHECK(all.platforms[2].configured->secrets() ==
          std::vector<std::string>{"syt_matrix_token_value"});
    CHECK(all.platforms[3].configured->secrets() == std::vector<std::string>{"0123456789abcdef"});
    CHECK(bot::service_settings(all.settings, "matrix", "bot").platforms ==
          std::vector<std::string>{"telegram", "discord", "matrix", "discourse"});
    // A table no module claims is refused, naming the ones the daemon knows.
    CHECK(error_of("[storage]\npath = \"g.db\"\n[platform.irc]\nserver = \"x\"\n") ==
          "ghostpost.toml:3: platform.irc: unknown platform (known: telegram, discord, matrix, "
          "discourse, email, slack)");
    // A module's own errors keep their texts.
    CHECK(error_of("[storage]\npath = \"g.db\"\n[platform.matrix]\nuser_id = \"@b:m\"\n") ==
          "ghostpost.toml:3: platform.matrix.homeserver_url: is required");
}
