// Shared helpers of the writer suites: a fresh folder per test and its listing.
#pragma once

#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>

namespace write_test {

namespace fs = std::filesystem;

/// A temporary folder removed at the end of the test.
struct TempDir {
    fs::path root;
    TempDir() {
        std::string tmpl = (fs::temp_directory_path() / "onnx-gauntlet-write-XXXXXX").string();
        BOOST_REQUIRE(::mkdtemp(tmpl.data()) != nullptr);
        root = tmpl;
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(root, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
};

/// Every name in `dir` (hidden temporaries too), links not followed.
inline std::set<std::string> listing(const fs::path& dir) {
    std::set<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
    return names;
}

inline std::string read_all(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_text(const fs::path& p, const std::string& text) {
    std::ofstream(p, std::ios::binary) << text;
}

}  // namespace write_test
