// What fuzz_external reads from an input's bytes without importing them: its side files and
// whether it can name an external tensor; and the folder the side files are written to.
//
// The side files are the input's top-level metadata_props entries with a key
// `file:NAME` (the value is the file's bytes) or `link:NAME` (the value is a symbolic link's
// target, as written), read from the bytes without an import and written into an
// external-data folder that holds nothing else.
//
// Rules of the folder (it never writes outside itself): a NAME is one to three segments of
// [A-Za-z0-9._-] other than . and ..; entries with other names are skipped; the first entry
// of a NAME wins; every file is written before any link is made, and nothing is created
// beneath a link. (A link may point anywhere: making one touches nothing, and reading
// through it is what the importer must refuse.)
//
// Why the scan: an import just to learn the side files parsed every input once more, and the
// same files were written again for each of the executions libFuzzer makes from one corpus
// input (the profile: docs/performance-history.md, "The fuzz rows, 2026-12-05"). The folder is kept
// while consecutive inputs ask for the same entries: the importer only reads (the writers are
// not on the decode path, docs/write.md), so the folder is then what a fresh one would be.
#pragma once

#include "fuzz_check.hpp"
#include "ort/reader.hpp"

#include <onnx_fields.hpp>

#include <cctype>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fcntl.h>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace gauntlet_fuzz {

/// A metadata_props entry: key and value.
using SideEntry = std::pair<std::string_view, std::string_view>;

inline bool is_side_file_key(std::string_view key) { return key.starts_with("file:") || key.starts_with("link:"); }

namespace side_files_detail {

/// The few wire steps the scan needs; false when the bytes end or break the wire format.
struct Wire {
    const uint8_t* at;
    const uint8_t* end;

    GAUNTLET_NO_COVERAGE bool varint(uint64_t& v) {
        v = 0;
        for (int shift = 0; shift < 70 && at != end; shift += 7) {
            const uint8_t b = *at++;
            v |= uint64_t{b & 0x7fu} << shift;
            if (b < 0x80) return true;
        }
        return false;
    }
    /// The value of a field of wire type `wire`; a length-delimited one as its bytes.
    GAUNTLET_NO_COVERAGE bool value(uint32_t wire, std::string_view& bytes) {
        uint64_t v = 0;
        const auto have = static_cast<uint64_t>(end - at);
        switch (wire) {
        case 0: return varint(v);
        case 1: if (have < 8) return false; at += 8; return true;
        case 5: if (have < 4) return false; at += 4; return true;
        case 2:
            if (!varint(v) || v > static_cast<uint64_t>(end - at)) return false;
            bytes = {reinterpret_cast<const char*>(at), static_cast<size_t>(v)};
            at += v;
            return true;
        default: return false;  // groups and wire types 6, 7: the importer refuses them
        }
    }
};

/// Calls f(field number, wire type, length-delimited bytes) for each field of a message;
/// false when the message breaks the wire format.
template <class F>
GAUNTLET_NO_COVERAGE bool each_field(std::string_view message, F&& f) {
    Wire w{reinterpret_cast<const uint8_t*>(message.data()),
           reinterpret_cast<const uint8_t*>(message.data()) + message.size()};
    while (w.at != w.end) {
        uint64_t key = 0;
        std::string_view bytes;
        if (!w.varint(key) || !w.value(static_cast<uint32_t>(key & 7), bytes)) return false;
        f(key >> 3, static_cast<uint32_t>(key & 7), bytes);
    }
    return true;
}

/// True when NAME is one the folder writes.
inline bool is_safe_name(std::string_view n) {
    int segments = 0;
    size_t start = 0;
    while (start <= n.size()) {
        size_t end = n.find('/', start);
        if (end == std::string_view::npos) end = n.size();
        const std::string_view seg = n.substr(start, end - start);
        if (seg.empty() || seg.size() > 32 || seg == "." || seg == ".." || ++segments > 3) return false;
        for (char c : seg)
            if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-')) return false;
        start = end + 1;
    }
    return true;
}

/// True when no folder on the way from `data` to NAME is a symbolic link.
inline bool no_link_on_the_way(const std::string& data, std::string_view n) {
    struct stat st;
    for (size_t end = n.find('/'); end != std::string_view::npos; end = n.find('/', end + 1)) {
        const std::string folder = data + "/" + std::string(n.substr(0, end));
        if (::lstat(folder.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) return false;
    }
    return true;
}

/// Writes a new regular file (never through a link, never over anything); false on failure.
inline bool write_new_file(const std::string& path, std::string_view bytes) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) return false;
    bool ok = true;
    for (size_t at = 0; ok && at < bytes.size();) {
        const ssize_t n = ::write(fd, bytes.data() + at, bytes.size() - at);
        ok = n > 0;
        if (ok) at += static_cast<size_t>(n);
    }
    return ::close(fd) == 0 && ok;
}

}  // namespace side_files_detail

/// The side-file entries of the input's top-level metadata_props (ModelProto field 14), in
/// order, read as the importer reads them: an entry's key and value are its last fields 1 and
/// 2 of wire type 2, other fields and wire types are skipped. Bytes that break the wire format
/// give the entries before the break: the importer refuses such bytes, so what they write
/// does not matter. fuzz_external checks the entries against every model it accepts.
GAUNTLET_NO_COVERAGE inline std::vector<SideEntry> side_file_entries(std::span<const uint8_t> bytes) {
    using namespace onnximport;
    std::vector<SideEntry> entries;
    side_files_detail::each_field(
        {reinterpret_cast<const char*>(bytes.data()), bytes.size()},
        [&](uint64_t field, uint32_t wire, std::string_view message) {
            if (field != +proto::Model::metadata_props || wire != 2) return;
            SideEntry e;
            side_files_detail::each_field(message, [&](uint64_t f, uint32_t w, std::string_view s) {
                if (w != 2) return;
                if (f == +proto::StringStringEntry::key) e.first = s;
                if (f == +proto::StringStringEntry::value) e.second = s;
            });
            if (is_side_file_key(e.first)) entries.push_back(e);
        });
    return entries;
}

/// False when the bytes cannot hold a tensor whose data is external: not a .ort, and no
/// varint key of TensorProto.data_location (field 14, wire type 0) anywhere followed by a
/// varint the importer reads as EXTERNAL (read_int32: its low 32 bits are 1). Conservative:
/// any byte may start a key, so a model refused after reading that it clears names none.
GAUNTLET_NO_COVERAGE inline bool may_name_external_tensors(std::span<const uint8_t> bytes) {
    if (onnximport::detail::looks_like_ort(bytes.data(), bytes.size())) return true;
    constexpr uint64_t location_key = (uint64_t{+onnximport::proto::Tensor::data_location} << 3) | 0;
    side_files_detail::Wire w{bytes.data(), bytes.data() + bytes.size()};
    for (const uint8_t* at = bytes.data(); at != w.end; ++at) {
        uint64_t key = 0, value = 0;
        w.at = at;
        if (w.varint(key) && key == location_key && w.varint(value) && static_cast<uint32_t>(value) == 1) return true;
    }
    return false;
}

/// The external-data folder, its real path, and the regular files it holds (NAME and bytes).
///
/// What it keeps between inputs lives in two buffers that only grow: libFuzzer runs an input
/// again, and then scans the heap for leaks, whenever it leaves more blocks allocated than it
/// found; a map of the files would do that for every input that changes them.
class SideFileFolder {
public:
    using File = std::pair<std::string_view, std::string_view>;

    explicit SideFileFolder(std::filesystem::path path) : path_(std::move(path)), folder_(path_.native()) {
        files_.reserve(kept_files);
        remake();
        char resolved[PATH_MAX];
        if (!::realpath(folder_.c_str(), resolved)) fuzz_fail("realpath of the folder failed", folder_);
        real_ = resolved;
    }

    const std::filesystem::path& path() const { return path_; }
    const std::string& real() const { return real_; }
    /// The regular files written, views into the copy of the entries they came from.
    const std::vector<File>& files() const { return files_; }

    /// Makes the folder hold what `entries` ask for: kept as it is when they are the entries
    /// it was last filled from, else emptied and filled.
    void hold(const std::vector<SideEntry>& entries) {
        if (same_as_held(entries)) return;
        if (!held_.empty()) remake();
        copy(entries);
        write();
    }

private:
    static constexpr size_t kept_files = 64;  ///< more only grow the buffer once

    /// The held entries, each as its key's and value's sizes (8 bytes each) and bytes.
    template <class F>
    void each_held(F&& f) const {
        for (size_t at = 0; at < held_.size();) {
            uint64_t sizes[2];
            std::memcpy(sizes, held_.data() + at, sizeof sizes);
            const std::string_view key(held_.data() + at + sizeof sizes, sizes[0]);
            const std::string_view value(key.data() + key.size(), sizes[1]);
            f(key, value);
            at += sizeof sizes + sizes[0] + sizes[1];
        }
    }

    bool same_as_held(const std::vector<SideEntry>& entries) const {
        size_t i = 0;
        bool same = true;
        each_held([&](std::string_view key, std::string_view value) {
            same = same && i < entries.size() && entries[i] == SideEntry(key, value);
            ++i;
        });
        return same && i == entries.size();
    }

    void copy(const std::vector<SideEntry>& entries) {
        held_.clear();
        for (const auto& [key, value] : entries) {
            const uint64_t sizes[2] = {key.size(), value.size()};
            held_.append(reinterpret_cast<const char*>(sizes), sizeof sizes).append(key).append(value);
        }
    }

    void remake() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
        std::filesystem::create_directory(path_, ec);
        if (ec) fuzz_fail("cannot make the external-data folder", folder_);
        held_.clear();
        files_.clear();
    }

    /// Writes the held entries' files, all of them before any link.
    void write() {
        using namespace side_files_detail;
        struct stat st;
        for (const bool links : {false, true}) {
            each_held([&](std::string_view key, std::string_view value) {
                if (!key.starts_with(links ? "link:" : "file:")) return;
                const std::string_view n = key.substr(5);
                if (!is_safe_name(n) || !no_link_on_the_way(folder_, n)) return;
                const std::string p = folder_ + "/" + std::string(n);
                if (::lstat(p.c_str(), &st) == 0) return;  // the first entry wins
                if (const size_t slash = n.rfind('/'); slash != std::string_view::npos) {
                    std::error_code ec;
                    std::filesystem::create_directories(folder_ + "/" + std::string(n.substr(0, slash)), ec);
                    if (ec || !no_link_on_the_way(folder_, n)) return;
                }
                if (!links) {
                    if (write_new_file(p, value)) files_.emplace_back(n, value);
                } else if (!value.empty() && value.size() < 256 && value.find('\0') == std::string_view::npos) {
                    (void)::symlink(std::string(value).c_str(), p.c_str());
                }
            });
        }
    }

    std::filesystem::path path_;
    std::string folder_;  ///< path_ as a string, for the system calls
    std::string real_;
    std::string held_;  ///< the entries the folder was filled from (each_held)
    std::vector<File> files_;
};

}  // namespace gauntlet_fuzz
