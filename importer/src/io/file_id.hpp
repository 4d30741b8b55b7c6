// The identity of an opened file: its device and inode, from fstat of its descriptor. Two
// names (links, `..` paths, another spelling) of one file have one identity, so it is what
// tells whether two paths are the same file, never their names.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <sys/stat.h>

namespace onnximport::detail {

struct FileId {
    uint64_t dev = 0;
    uint64_t ino = 0;
    bool operator==(const FileId&) const = default;

    static FileId of(const struct stat& st) noexcept {
        return {static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino)};
    }
};

struct FileIdHash {
    size_t operator()(const FileId& f) const noexcept {
        return std::hash<uint64_t>{}(f.ino ^ (f.dev * 0x9E3779B97F4A7C15ull));
    }
};

}  // namespace onnximport::detail
