// The one folder a fuzz target writes files in: made per process (mkdtemp under $TMPDIR, else
// /dev/shm where writable, else /tmp) on first use, removed at exit and at a sanitizer's death.
// /dev/shm is a tmpfs: on this project's disk, the folder and file churn of one execution
// (and the writers' fsync) cost fuzz_external and fuzz_roundtrip most of their time in /tmp
// (docs/fuzzing.md, "What each execution checks").
#pragma once

#include "fuzz_check.hpp"

#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>
#include <unistd.h>

// Present under a sanitizer: runs at a sanitizer's death, where atexit handlers do not.
extern "C" void __sanitizer_set_death_callback(void (*)(void)) __attribute__((weak));

namespace gauntlet_fuzz {

inline std::filesystem::path& run_dir_of_process() {
    static std::filesystem::path dir;
    return dir;
}

inline void remove_run_dir() {
    std::error_code ec;
    if (!run_dir_of_process().empty()) std::filesystem::remove_all(run_dir_of_process(), ec);
}

/// `target` names the folder: gauntlet-TARGET-XXXXXX.
inline const std::filesystem::path& run_dir(const std::string& target) {
    std::filesystem::path& dir = run_dir_of_process();
    if (dir.empty()) {
        const char* tmp = std::getenv("TMPDIR");
        const std::string parent = tmp && *tmp ? tmp : ::access("/dev/shm", W_OK | X_OK) == 0 ? "/dev/shm" : "/tmp";
        std::string pattern = parent + "/gauntlet-" + target + "-XXXXXX";
        if (!mkdtemp(pattern.data())) fuzz_fail("mkdtemp failed", pattern);
        dir = pattern;
        std::atexit(remove_run_dir);
        if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(remove_run_dir);
    }
    return dir;
}

}  // namespace gauntlet_fuzz
