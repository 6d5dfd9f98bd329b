// Runs the ghostpost binary's console on a script, keeping the PNG boards it sends, for the
// tests that compare what the channel was shown.
#pragma once

#include "../storage/temp_path.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace ghostpost::testing {

struct ConsoleRun {
    std::string output;                            // stdout and stderr
    std::vector<std::vector<std::uint8_t>> images; // those sent to `channel`, oldest first
};

inline ConsoleRun run_console_keeping_images(const std::string& input, const std::string& db,
                                             const std::string& channel) {
    TempPath in_file("console-in");
    TempPath out_file("console-out");
    TempPath image_dir("console-images");
    std::filesystem::create_directories(image_dir.str());
    std::ofstream(in_file.str(), std::ios::binary) << input;
    const std::string command = std::string("'") + GHOSTPOST_BIN + "' console --db '" + db +
                                "' --fixed-time 1700000000 --moderator mod --image-dir '" +
                                image_dir.str() + "' < '" + in_file.str() + "' > '" +
                                out_file.str() + "' 2>&1";
    REQUIRE(std::system(command.c_str()) == 0);
    ConsoleRun run;
    std::ifstream out(out_file.str(), std::ios::binary);
    run.output.assign(std::istreambuf_iterator<char>(out), {});
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(image_dir.str()))
        if (entry.path().filename().string().starts_with("#" + channel + "-"))
            files.push_back(entry.path());
    std::sort(files.begin(), files.end()); // the numbers are zero-padded: name order is send order
    for (const auto& file : files) {
        std::ifstream png(file, std::ios::binary);
        run.images.emplace_back(std::istreambuf_iterator<char>(png),
                                std::istreambuf_iterator<char>());
    }
    std::filesystem::remove_all(image_dir.str());
    return run;
}

} // namespace ghostpost::testing
