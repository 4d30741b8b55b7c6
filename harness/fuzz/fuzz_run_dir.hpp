// The one folder a fuzz target writes files in: made per process (mkdtemp under $TMPDIR or
// /tmp) on first use, removed at exit and at a sanitizer's death.
#pragma once

#include "fuzz_check.hpp"

#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

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
        std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/gauntlet-" + target + "-XXXXXX";
        if (!mkdtemp(pattern.data())) fuzz_fail("mkdtemp failed", pattern);
        dir = pattern;
        std::atexit(remove_run_dir);
        if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(remove_run_dir);
    }
    return dir;
}

}  // namespace gauntlet_fuzz
