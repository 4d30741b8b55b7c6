// External-data files by generation: the name chosen before writing, the superseded files
// removed after the model's rename (docs/write.md, "Generations").
#include "write/generations.hpp"

#include "write/atomic_file.hpp"
#include "write/faults.hpp"
#include "write/write_error.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace onnximport::detail {

namespace {

constexpr std::string_view field = "WriteOptions.external_data";

/// Whether a file is at `leaf`; refuses what the writer may not stand beside as its output
/// (a link, a non-file, a file the model reads), as AtomicFile::check_name does.
bool taken(const OutputDir& dir, int folder, const std::string& leaf, const std::string& shown) {
    struct stat st {};
    if (::fstatat(folder, leaf.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
        if (errno == ENOENT) return false;
        fail_io(shown, "cannot stat the output file", errno);
    }
    if (S_ISLNK(st.st_mode)) fail_request(shown, "the output file exists as a symbolic link; it is not replaced");
    if (!S_ISREG(st.st_mode)) fail_request(shown, "the output name exists and is not a regular file");
    if (dir.is_kept(st))
        fail_request(shown, "the output name is the input model or a file it reads (the same device and inode); "
                             "it is not replaced");
    return true;
}

/// The names of `folder` (a snapshot: nothing is removed while listing). Empty on failure.
std::vector<std::string> names_in(int folder) {
    std::vector<std::string> out;
    UniqueFd listing(::openat(folder, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    DIR* d = listing ? ::fdopendir(listing.get()) : nullptr;
    if (!d) return out;
    (void)listing.release();  // the DIR owns it now
    while (const dirent* e = ::readdir(d)) out.emplace_back(e->d_name);
    ::closedir(d);
    return out;
}

/// Whether the file `name` in `folder` holds `leaf` among its bytes; true when it cannot be
/// read, so a doubt keeps a data file. Read in chunks, not mapped: a file truncated meanwhile
/// ends the search instead of raising SIGBUS.
bool holds(int folder, const std::string& name, std::string_view leaf) noexcept {
    UniqueFd f(::openat(folder, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
    struct stat st {};
    if (!f || ::fstat(f.get(), &st) != 0) return true;
    if (!S_ISREG(st.st_mode)) return false;
    std::vector<char> chunk(size_t{1} << 20);
    size_t kept = 0;  // the tail of the chunk before, which a match may straddle
    for (off_t at = 0;;) {
        const ssize_t n = ::pread(f.get(), chunk.data() + kept, chunk.size() - kept, at);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return true;
        if (n == 0) return false;
        const size_t filled = kept + static_cast<size_t>(n);
        if (::memmem(chunk.data(), filled, leaf.data(), leaf.size())) return true;
        at += n;
        kept = std::min(filled, leaf.size() - 1);
        std::memmove(chunk.data(), chunk.data() + filled - kept, kept);
    }
}

/// Whether some `*.onnx` or `*.ort` of the folder names `leaf`: a `.onnx` location ends with
/// it, a `.ort` names its companion by leaf (rule O7). A chance match in other bytes only
/// keeps a file.
bool named_by_a_model(int folder, std::string_view leaf) noexcept {
    const std::vector<std::string> names = names_in(folder);
    if (names.empty()) return true;
    for (const std::string& name : names)
        if ((name.ends_with(".onnx") || name.ends_with(".ort")) && holds(folder, name, leaf)) return true;
    return false;
}

}  // namespace

bool is_generation_name(std::string_view leaf) noexcept {
    return leaf.size() == 2 + 16 + 4 && leaf.starts_with("w.") && leaf.ends_with(".bin") &&
           leaf.substr(2, 16).find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

Generations::Generations(const OutputDir& dir, std::string requested, WriteFaults* faults)
    : dir_(dir), requested_(std::move(requested)), faults_(faults) {
    const OutputDir::Parent p = dir.parent_of(requested_, std::string(field));
    prefix_ = requested_.substr(0, requested_.size() - p.leaf.size());
    if (!taken(dir, p.fd, p.leaf, dir.display(requested_))) {
        location_ = requested_;
        return;
    }
    for (int attempt = 0; attempt < 100; ++attempt) {
        const std::string leaf = "w." + random_hex() + ".bin";
        if (!taken(dir, p.fd, leaf, dir.display(prefix_ + leaf))) {
            location_ = prefix_ + leaf;
            return;
        }
    }
    fail_io(dir.display(requested_), "cannot find a free generation name", EEXIST);
}

void Generations::remove_superseded() noexcept {
    try {
        const OutputDir::Parent p = dir_.parent_of(requested_, std::string(field));
        std::vector<std::string> superseded;
        for (std::string& name : names_in(p.fd))
            if (is_generation_name(name) && prefix_ + name != location_) superseded.push_back(std::move(name));
        if (renamed()) superseded.push_back(p.leaf);  // the file we were asked for: ours to supersede
        for (const std::string& leaf : superseded) remove_if_unnamed(p.fd, leaf);
    } catch (...) {
        // A folder that cannot be opened again keeps its files: never a model without its data.
    }
}

void Generations::remove_if_unnamed(int folder, const std::string& leaf) noexcept {
    UniqueFd f(::openat(folder, leaf.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
    struct stat st {};
    if (!f || ::fstat(f.get(), &st) != 0 || !S_ISREG(st.st_mode) || dir_.is_kept(st)) return;
    // A writer holds its data file locked until its model is in place (AtomicFile's flock).
    if (::flock(f.get(), LOCK_EX | LOCK_NB) != 0) return;
    if (named_by_a_model(dir_.fd(), leaf)) return;
    // A model beside its data (the data's folder, when not the model's) names it by its leaf.
    struct stat here {}, there {};
    const bool elsewhere = ::fstat(folder, &here) != 0 || ::fstat(dir_.fd(), &there) != 0 ||
                           here.st_ino != there.st_ino || here.st_dev != there.st_dev;
    if (elsewhere && named_by_a_model(folder, leaf)) return;
    step(faults_);
    ::unlinkat(folder, leaf.c_str(), 0);
}

void commit_generation(AtomicFile& model, AtomicFile* data, Generations* generations,
                       const std::function<void(const std::string&)>& told) {
    if (data) data->never_replace();
    commit_model(model, data);
    if (!generations) return;
    generations->remove_superseded();
    if (data && generations->renamed() && told) told(generations->location());
}

}  // namespace onnximport::detail
