// Files created beneath the output folder and renamed into place when complete.
#include "write/atomic_file.hpp"

#include "write/faults.hpp"
#include "write/write_error.hpp"

#include <cerrno>
#include <cstdio>
#include <dirent.h>
#include <fcntl.h>
#include <string_view>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

namespace onnximport::detail {

std::string random_hex() {
    uint64_t r = 0;
    if (::getrandom(&r, sizeof r, 0) != sizeof r) r ^= static_cast<uint64_t>(::getpid()) << 20;
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(r));
    return hex;
}

namespace {

/// A name no one else uses: a dot (hidden), the final name, 16 random hex digits. Appends
/// only: GCC 12 at -O3 warns (-Wrestrict) on `"." + leaf.substr(...)`, a false positive.
std::string temporary_name(const std::string& leaf) {
    std::string name(".");
    name.append(leaf, 0, 200).append(".").append(random_hex()).append(".tmp");
    return name;
}

/// Whether `name` has temporary_name's form: a dot, a name, a dot, 16 hex digits, ".tmp".
bool is_temporary_name(std::string_view name) {
    constexpr size_t tail = 1 + 16 + 4;
    if (name.size() < 2 + tail || name[0] != '.' || !name.ends_with(".tmp")) return false;
    const std::string_view hex = name.substr(name.size() - 4 - 16, 16);
    return name[name.size() - tail] == '.' && hex.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

/// Removes the temporaries a writer killed before its rename left in the folder (docs/write.md,
/// "Temporaries"). A writer holds an flock on its file while it lives, so a temporary that can
/// be locked has no writer left; one still locked is left alone.
void remove_stale_temporaries(int folder, WriteFaults* faults) noexcept {
    UniqueFd listing(::openat(folder, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    DIR* dir = listing ? ::fdopendir(listing.get()) : nullptr;
    if (!dir) return;
    (void)listing.release();  // the DIR owns it now
    while (const dirent* e = ::readdir(dir)) {
        if (!is_temporary_name(e->d_name)) continue;
        UniqueFd f(::openat(folder, e->d_name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
        struct stat st {};
        if (!f || ::fstat(f.get(), &st) != 0 || !S_ISREG(st.st_mode) || ::flock(f.get(), LOCK_EX | LOCK_NB) != 0)
            continue;
        step(faults);
        ::unlinkat(folder, e->d_name, 0);
    }
    ::closedir(dir);
}

/// linkat of an O_TMPFILE descriptor needs /proc/self/fd without CAP_DAC_READ_SEARCH.
bool can_link_unnamed() { return ::access("/proc/self/fd", X_OK) == 0; }

}  // namespace

AtomicFile::AtomicFile(const OutputDir& dir, std::string_view name, WriteFaults* faults,
                       const std::string& field_path)
    : dir_(dir), parent_(dir.parent_of(name, field_path)), display_(dir.display(name)), faults_(faults) {
    check_name();
    remove_stale_temporaries(parent_.fd, faults);
    step(faults);
    if (can_link_unnamed() && !(faults && faults->named_temporaries))
        fd_ = UniqueFd(::openat(parent_.fd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666));
    // EOPNOTSUPP, EISDIR or EINVAL: a file system or kernel without O_TMPFILE.
    if (!fd_) create_named();
    // Held until the descriptor closes (the process ending included): marks the file as live.
    if (::flock(fd_.get(), LOCK_EX) != 0) fail_io(display_, "cannot lock the output file", errno);
}

AtomicFile::~AtomicFile() { discard(); }

void AtomicFile::check_name() const {
    struct stat st {};
    if (::fstatat(parent_.fd, parent_.leaf.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
        if (errno == ENOENT) return;
        fail_io(display_, "cannot stat the output file", errno);
    }
    if (S_ISLNK(st.st_mode)) fail_request(display_, "the output file exists as a symbolic link; it is not replaced");
    if (!S_ISREG(st.st_mode)) fail_request(display_, "the output name exists and is not a regular file");
    if (dir_.is_kept(st))
        fail_request(display_, "the output name is the input model or a file it reads (the same device and inode); "
                               "it is not replaced");
}

void AtomicFile::create_named() {
    for (int attempt = 0; attempt < 100; ++attempt) {
        std::string temp = temporary_name(parent_.leaf);
        if (attempt > 0) step(faults_);  // the first try is the constructor's step
        fd_ = UniqueFd(::openat(parent_.fd, temp.c_str(), O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC, 0666));
        if (fd_) {
            temp_name_ = std::move(temp);
            return;
        }
        if (errno != EEXIST) fail_io(display_, "cannot create the output file", errno);
    }
    fail_io(display_, "cannot find a free temporary name", EEXIST);
}

void AtomicFile::write(std::span<const std::byte> bytes) {
    write_at(size_, bytes);
    size_ += bytes.size();
}

void AtomicFile::write_at(uint64_t offset, std::span<const std::byte> bytes) {
    size_t done = 0;
    while (done < bytes.size()) {
        size_t n = bytes.size() - done;
        if (faults_ && (n = faults_->allow(n)) == 0) {
            errno = faults_->error;
        } else {
            step(faults_);
            ssize_t w = ::pwrite(fd_.get(), bytes.data() + done, n, static_cast<off_t>(offset + done));
            if (w > 0) {
                done += static_cast<size_t>(w);
                continue;
            }
            if (w < 0 && errno == EINTR) continue;
            if (w == 0) errno = ENOSPC;  // no progress and no error: the device is full
        }
        fail_io(display_, "cannot write the output file", errno, offset + done);
    }
}

void AtomicFile::prepare() {
    step(faults_);
    if (::fsync(fd_.get()) != 0) fail_io(display_, "cannot flush the output file", errno);
    if (!temp_name_.empty()) return;
    const std::string self = "/proc/self/fd/" + std::to_string(fd_.get());
    for (int attempt = 0; attempt < 100; ++attempt) {
        std::string temp = temporary_name(parent_.leaf);
        step(faults_);
        if (::linkat(AT_FDCWD, self.c_str(), parent_.fd, temp.c_str(), AT_SYMLINK_FOLLOW) == 0) {
            temp_name_ = std::move(temp);
            return;
        }
        if (errno != EEXIST) fail_io(display_, "cannot name the output file", errno);
    }
    fail_io(display_, "cannot find a free temporary name", EEXIST);
}

void AtomicFile::publish() {
    // Checked again just before: a link planted since creation is refused, not replaced.
    check_name();
    if (never_replace_) {
        rename_without_replacing();
    } else {
        step(faults_);
        if (::renameat(parent_.fd, temp_name_.c_str(), parent_.fd, parent_.leaf.c_str()) != 0)
            fail_io(display_, "cannot rename the output file into place", errno);
    }
    published_ = true;
    step(faults_);
    if (::fsync(parent_.fd) != 0) fail_io(display_, "cannot flush the output folder", errno);
}

void AtomicFile::rename_without_replacing() {
    const char* from = temp_name_.c_str();
    const char* to = parent_.leaf.c_str();
    if (!(faults_ && faults_->link_publish)) {
        step(faults_);
        if (::renameat2(parent_.fd, from, parent_.fd, to, RENAME_NOREPLACE) == 0) return;
        if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP)
            fail_io(display_, "cannot rename the output file into place (it replaces no file)", errno);
    }
    // A file system without RENAME_NOREPLACE: a link, too, fails where the name is taken.
    step(faults_);
    if (::linkat(parent_.fd, from, parent_.fd, to, 0) != 0)
        fail_io(display_, "cannot link the output file into place (it replaces no file)", errno);
    step(faults_);
    ::unlinkat(parent_.fd, from, 0);  // a leftover is a stale temporary, removed by the next writer
}

void AtomicFile::discard() noexcept {
    if (!published_ && !temp_name_.empty()) {
        step(faults_);
        ::unlinkat(parent_.fd, temp_name_.c_str(), 0);
    }
    temp_name_.clear();
}

void commit_all(std::span<AtomicFile* const> files) {
    for (AtomicFile* f : files) f->prepare();
    for (AtomicFile* f : files) f->check_name();
    for (AtomicFile* f : files) f->publish();
}

void commit_model(AtomicFile& model, AtomicFile* data) {
    AtomicFile* both[] = {data, &model};
    commit_all(data ? std::span<AtomicFile* const>(both) : std::span<AtomicFile* const>(both + 1, 1));
}

}  // namespace onnximport::detail
