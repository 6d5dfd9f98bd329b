// Debian's promtool as the judge of a metrics text (package prometheus).
#pragma once

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>

namespace ghostpost::test {

// `promtool check metrics` on `text`: its exit status and what it printed.
inline std::pair<int, std::string> promtool(const std::string& text) {
    char path[] = "/tmp/ghostpost-metrics-XXXXXX";
    const int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    close(fd);
    std::ofstream(path) << text;
    const std::string command =
        std::string(GHOSTPOST_PROMTOOL) + " check metrics < " + path + " 2>&1";
    std::FILE* pipe = popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    std::string said;
    char buffer[512];
    while (std::fgets(buffer, sizeof buffer, pipe) != nullptr)
        said += buffer;
    const int status = pclose(pipe);
    std::filesystem::remove(path);
    return {WEXITSTATUS(status), said};
}

} // namespace ghostpost::test
