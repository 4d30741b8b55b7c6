// Opening an external-data file beneath its directory without a check-then-open race
// (spec section 5, rule 2; issue 3). See safe_open.hpp for the contract.
#include "external/safe_open.hpp"

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <linux/openat2.h>
#include <string>
#include <sys/syscall.h>
#include <unistd.h>
#include <vector>

namespace onnximport::detail {

UniqueFd::~UniqueFd() {
    if (fd_ >= 0) ::close(fd_);
}

UniqueFd& UniqueFd::operator=(UniqueFd&& o) noexcept {
    if (this != &o) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = o.release();
    }
    return *this;
}

namespace {

using Status = OpenOutcome::Status;

/// Linux's own limit on links followed in one lookup (MAXSYMLINKS).
constexpr int max_links = 40;
/// openat2 returns EAGAIN when a rename or mount raced the lookup; it asks us to retry.
constexpr int max_retries = 16;

// O_NONBLOCK: opening a FIFO inside the directory must not hang the import (the fstat
// that follows refuses it). O_NOCTTY: a terminal must not become ours.
constexpr int file_flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY;

std::atomic<int> forced_method{static_cast<int>(OpenMethod::Auto)};
/// Set once openat2 turned out to be missing, so the probe is not repeated per file.
std::atomic<bool> openat2_missing{false};

bool env_forbids_openat2() {
    static const bool forbid = [] {
        const char* v = std::getenv("ONNXIMPORT_NO_OPENAT2");
        return v && *v && std::strcmp(v, "0") != 0;
    }();
    return forbid;
}

OpenOutcome failure(Status status, int error) {
    OpenOutcome o;
    o.status = status;
    o.error = error;
    return o;
}

/// The status behind an errno from a lookup (either path).
Status status_of(int error) {
    switch (error) {
    case ENOENT: return Status::Missing;
    case ENOTDIR: return Status::NotADirectory;
    case EXDEV: return Status::Escapes;  // RESOLVE_BENEATH: `..` above the root or an absolute link
    case ELOOP: return Status::TooManyLinks;
    case ENAMETOOLONG: return Status::NameTooLong;
    case EISDIR: return Status::NotRegular;
    default: return Status::OsError;
    }
}

/// fstat of the opened descriptor decides: what was checked is what will be read.
OpenOutcome finish(UniqueFd fd) {
    OpenOutcome o;
    if (::fstat(fd.get(), &o.st) != 0) return failure(Status::OsError, errno);
    if (!S_ISREG(o.st.st_mode)) return failure(Status::NotRegular, 0);
    o.status = Status::Opened;
    o.fd = std::move(fd);
    return o;
}

long sys_openat2(int dirfd, const char* path, const open_how* how) {
    return ::syscall(SYS_openat2, dirfd, path, how, sizeof(*how));
}

/// The kernel resolves the path beneath dirfd in one step. Returns nothing when the
/// kernel lacks openat2 (the caller falls back to the walk).
bool open_with_openat2(int dirfd, const std::string& path, OpenOutcome& out) {
    open_how how{};
    how.flags = static_cast<uint64_t>(file_flags);
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
    for (int attempt = 0;; ++attempt) {
        long fd = sys_openat2(dirfd, path.c_str(), &how);
        if (fd >= 0) {
            out = finish(UniqueFd(static_cast<int>(fd)));
            return true;
        }
        int e = errno;
        if (e == EINTR || (e == EAGAIN && attempt < max_retries)) continue;
        // ENOSYS: an old kernel; EPERM: a seccomp filter that does not know the call;
        // E2BIG: a kernel that does not know this struct size. Only the walk can help.
        if (e == ENOSYS || e == EPERM || e == E2BIG) return false;
        out = failure(status_of(e), e);
        return true;
    }
}

/// Pushes the components of `text` (split at '/') so that the first is at the back.
/// An empty component (from "a//b" or a trailing "/") is kept: at the end of the path
/// it means "this must be a directory", as the kernel reads it.
void push_components(std::vector<std::string>& pending, std::string_view text) {
    std::vector<std::string> parts;
    size_t start = 0;
    for (size_t i = 0; i <= text.size(); ++i) {
        if (i == text.size() || text[i] == '/') {
            parts.emplace_back(text.substr(start, i - start));
            start = i + 1;
        }
    }
    for (auto it = parts.rbegin(); it != parts.rend(); ++it) pending.push_back(std::move(*it));
}

/// The target of the link behind the O_PATH descriptor `link_fd`.
bool read_link(int link_fd, size_t size_hint, std::string& target, int& error) {
    size_t cap = size_hint + 1 < 256 ? 256 : size_hint + 1;
    for (;;) {
        target.resize(cap);
        ssize_t n = ::readlinkat(link_fd, "", target.data(), cap);
        if (n < 0) {
            error = errno;
            return false;
        }
        if (static_cast<size_t>(n) < cap) {
            target.resize(static_cast<size_t>(n));
            return true;
        }
        if (cap > 65536) {  // the link grew under us beyond any real PATH_MAX
            error = ENAMETOOLONG;
            return false;
        }
        cap *= 2;
    }
}

/// The fallback: resolve one component at a time from held directory descriptors.
/// Every component is opened with O_PATH | O_NOFOLLOW relative to the directory above
/// it, so a link is never followed by the kernel; links are read and their targets
/// pushed in place of the component, and `..` pops the stack of directories we
/// descended into, which refuses any attempt to climb above the root. The final file
/// is then opened O_NOFOLLOW relative to its held parent. Swapping any component for a
/// link after we passed it changes nothing we hold; swapping it before we reach it is
/// seen by that component's own O_NOFOLLOW open.
/// Not covered (openat2 covers it): a directory we are inside being renamed to a place
/// outside the root while the walk is below it.
OpenOutcome walk_beneath(int dirfd, std::string_view location) {
    std::vector<UniqueFd> dirs;  // descended into, below dirfd
    std::vector<std::string> pending;
    push_components(pending, location);
    int links = 0;
    while (!pending.empty()) {
        std::string name = std::move(pending.back());
        pending.pop_back();
        const bool last = pending.empty();
        const int parent = dirs.empty() ? dirfd : dirs.back().get();
        if (name.empty() || name == ".") {
            if (last) return failure(Status::NotRegular, EISDIR);
            continue;
        }
        if (name == "..") {
            if (dirs.empty()) return failure(Status::Escapes, EXDEV);
            dirs.pop_back();
            if (last) return failure(Status::NotRegular, EISDIR);
            continue;
        }
        UniqueFd node(::openat(parent, name.c_str(), O_PATH | O_NOFOLLOW | O_CLOEXEC));
        if (!node) return failure(status_of(errno), errno);
        struct stat st {};
        if (::fstat(node.get(), &st) != 0) return failure(Status::OsError, errno);
        if (S_ISLNK(st.st_mode)) {
            if (++links > max_links) return failure(Status::TooManyLinks, ELOOP);
            std::string target;
            int error = 0;
            if (!read_link(node.get(), static_cast<size_t>(st.st_size), target, error))
                return failure(status_of(error), error);
            if (target.empty()) return failure(Status::Missing, ENOENT);
            if (target[0] == '/') return failure(Status::Escapes, EXDEV);
            push_components(pending, target);
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            if (last) return failure(Status::NotRegular, EISDIR);
            dirs.push_back(std::move(node));
            continue;
        }
        if (!last) return failure(Status::NotADirectory, ENOTDIR);
        // Decided on the O_PATH descriptor, before opening: a FIFO or device is never opened.
        if (!S_ISREG(st.st_mode)) return failure(Status::NotRegular, 0);
        UniqueFd file(::openat(parent, name.c_str(), file_flags | O_NOFOLLOW));
        if (!file) {
            int e = errno;
            // The entry became a link between the two opens: resolve it again, counted as
            // a link so that a swapping adversary cannot keep us here forever.
            if (e == ELOOP && ++links <= max_links) {
                pending.push_back(std::move(name));
                continue;
            }
            return failure(status_of(e), e);
        }
        return finish(std::move(file));
    }
    return failure(Status::NotRegular, EISDIR);  // the location named the directory itself
}

}  // namespace

void set_open_method(OpenMethod method) noexcept { forced_method.store(static_cast<int>(method)); }

OpenMethod effective_open_method() noexcept {
    auto m = static_cast<OpenMethod>(forced_method.load());
    if (m != OpenMethod::Auto) return m;
    return env_forbids_openat2() || openat2_missing.load() ? OpenMethod::Walk : OpenMethod::Openat2;
}

OpenOutcome open_directory(const std::filesystem::path& dir) {
    int fd = ::open(dir.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return failure(status_of(errno), errno);
    OpenOutcome o;
    o.fd = UniqueFd(fd);
    if (::fstat(fd, &o.st) != 0) return failure(Status::OsError, errno);
    o.status = Status::Opened;
    return o;
}

OpenOutcome open_beneath(int dirfd, std::string_view location) {
    const auto forced = static_cast<OpenMethod>(forced_method.load());
    if (effective_open_method() == OpenMethod::Openat2) {
        OpenOutcome out;
        if (open_with_openat2(dirfd, std::string(location), out)) return out;
        if (forced == OpenMethod::Openat2) return failure(Status::OsError, ENOSYS);
        openat2_missing.store(true);
    }
    return walk_beneath(dirfd, location);
}

}  // namespace onnximport::detail
