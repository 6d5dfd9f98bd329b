// A fresh file path under the system's temporary directory, removed (with its WAL files) when
// the object goes out of scope.
#pragma once

#include <atomic>
#include <filesystem>
#include <string>
#include <unistd.h>

namespace ghostpost::testing {

class TempPath {
public:
    explicit TempPath(const std::string& stem = "ghostpost-test") {
        static std::atomic<int> counter{0};
        path_ = (std::filesystem::temp_directory_path() / (stem + "-" + std::to_string(::getpid()) +
                                                           "-" + std::to_string(counter++) + ".db"))
                    .string();
        remove();
    }
    ~TempPath() { remove(); }
    TempPath(const TempPath&) = delete;
    TempPath& operator=(const TempPath&) = delete;
    const std::string& str() const { return path_; }

private:
    void remove() {
        std::error_code ec;
        for (const char* suffix : {"", "-wal", "-shm", "-journal"})
            std::filesystem::remove(path_ + suffix, ec);
    }
    std::string path_;
};

} // namespace ghostpost::testing
