// A fresh temporary tree per test for the suites that touch the file system (external
// data of .onnx and .ort): root/model (the model and its external data) and
// root/outside (a sibling the model must not reach), removed when the test ends.
#pragma once

#include <boost/test/unit_test.hpp>

#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <linux/openat2.h>
#include <string>
#include <sys/syscall.h>
#include <unistd.h>

namespace temp_tree {

namespace fs = std::filesystem;

struct Tree {
    fs::path root, dir, outside;
    Tree() {
        std::string tmpl = (fs::temp_directory_path() / "onnx-gauntlet-external-XXXXXX").string();
        BOOST_REQUIRE(::mkdtemp(tmpl.data()) != nullptr);
        root = tmpl;
        dir = root / "model";
        outside = root / "outside";
        fs::create_directory(dir);
        fs::create_directory(outside);
        write(outside / "secret.bin", "SECRET-SECRET-SECRET");
    }
    ~Tree() {
        std::error_code ec;
        fs::remove_all(root, ec);
    }
    Tree(const Tree&) = delete;
    Tree& operator=(const Tree&) = delete;
    static void write(const fs::path& p, const std::string& bytes) {
        std::ofstream f(p, std::ios::binary | std::ios::trunc);
        f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        BOOST_REQUIRE(f.good());
    }
    /// The model file dir/name holding `bytes`.
    fs::path model(const std::string& bytes, const std::string& name = "model.onnx") const {
        write(dir / name, bytes);
        return dir / name;
    }
};

/// Whether this kernel has openat2 at all: the forced-openat2 pass cannot run on a
/// kernel older than 5.6, under a seccomp filter that refuses it, or under Valgrind 3.19
/// (which does not implement the call); the walk pass still runs there.
inline bool kernel_has_openat2() {
    static const bool has = [] {
        open_how how{};
        how.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
        const long fd = ::syscall(SYS_openat2, AT_FDCWD, ".", &how, sizeof how);
        if (fd >= 0) ::close(static_cast<int>(fd));
        return fd >= 0 || (errno != ENOSYS && errno != EPERM && errno != E2BIG);
    }();
    return has;
}

}  // namespace temp_tree
