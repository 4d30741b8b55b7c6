// Opening an external-data file beneath its directory without a check-then-open race
// (spec section 5, rule 2). See safe_open.hpp for the contract.
#include "external/safe_open.hpp"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <linux/openat2.h>
#include <string>
#include <sys/syscall.h>
#include <unistd.h>
#include <vector>

namespace onnximport::detail {

namespace {

using Status = OpenOutcome::Status;

/// Linux's own limit on links followed in one lookup (MAXSYMLINKS).
constexpr int max_links = 40;
/// openat2 returns EAGAIN when a rename or mount raced the lookup; it asks us to retry.
constexpr int max_retries = 16;

// The flags of the one open for reading, of an object already known to be a regular file.
// O_NONBLOCK and O_NOCTTY still: should it have been swapped for a FIFO or a terminal in
// between, the open neither hangs nor adopts it (the fstat that follows refuses it).
constexpr int file_flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY;

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

/// Opens for reading the object behind the O_PATH descriptor `node`, once fstat says it is
/// a regular file, through /proc/self/fd: the same file, not whatever its name means now.
/// Without /proc, `reopen_by_name` opens it by name with file_flags.
template <class ReopenByName>
OpenOutcome open_checked(UniqueFd node, ReopenByName&& reopen_by_name) {
    struct stat st {};
    if (::fstat(node.get(), &st) != 0) return failure(Status::OsError, errno);
    if (!S_ISREG(st.st_mode)) return failure(Status::NotRegular, 0);
    const std::string self = "/proc/self/fd/" + std::to_string(node.get());
    UniqueFd file(::open(self.c_str(), file_flags));
    if (!file && errno == ENOENT) file = reopen_by_name();
    if (!file) return failure(status_of(errno), errno);
    return finish(std::move(file));
}

long sys_openat2(int dirfd, const char* path, const open_how* how) {
    return ::syscall(SYS_openat2, dirfd, path, how, sizeof(*how));
}

/// One openat2 call with retries on EINTR and EAGAIN; a descriptor, or -errno.
long openat2_retrying(int dirfd, const std::string& path, uint64_t flags) {
    open_how how{};
    how.flags = flags;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
    for (int attempt = 0;; ++attempt) {
        long fd = sys_openat2(dirfd, path.c_str(), &how);
        if (fd >= 0) return fd;
        int e = errno;
        // EAGAIN: a rename or mount raced the lookup and the kernel asks us to retry.
        if (e == EINTR || (e == EAGAIN && attempt < max_retries)) continue;
        return -e;
    }
}

OpenOutcome walk_beneath(int dirfd, std::string_view location);

/// The kernel resolves the path beneath dirfd in one step. Returns false when the kernel
/// lacks openat2 (the caller falls back to the walk).
bool open_with_openat2(int dirfd, const std::string& path, OpenOutcome& out) {
    long fd = openat2_retrying(dirfd, path, O_PATH | O_CLOEXEC);
    if (fd >= 0) {
        out = open_checked(UniqueFd(static_cast<int>(fd)), [&] {
            long again = openat2_retrying(dirfd, path, static_cast<uint64_t>(file_flags));
            if (again < 0) errno = static_cast<int>(-again);
            return UniqueFd(again < 0 ? -1 : static_cast<int>(again));
        });
        return true;
    }
    const int e = static_cast<int>(-fd);
    // ENOSYS: an old kernel; EPERM: a seccomp filter that does not know the call;
    // E2BIG: a kernel that does not know this struct size. Only the walk can help.
    if (e == ENOSYS || e == EPERM || e == E2BIG) return false;
    // ELOOP is a link loop, or a magic link that RESOLVE_NO_MAGICLINKS refused: the walk
    // tells which (it reads a magic link as the absolute link it shows: Escapes).
    if (e == ELOOP) {
        out = walk_beneath(dirfd, path);
        if (out.status == Status::Opened) out = failure(Status::TooManyLinks, ELOOP);
        return true;
    }
    out = failure(status_of(e), e);
    return true;
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
        return open_checked(std::move(node), [&] {
            return UniqueFd(::openat(parent, name.c_str(), file_flags | O_NOFOLLOW));
        });
    }
    return failure(Status::NotRegular, EISDIR);  // the location named the directory itself
}

}  // namespace

ExternalOpen effective_open_method(ExternalOpen requested) noexcept {
    if (requested != ExternalOpen::Auto) return requested;
    const char* v = std::getenv("ONNXIMPORT_NO_OPENAT2");
    return v && *v && std::strcmp(v, "0") != 0 ? ExternalOpen::Walk : ExternalOpen::Openat2;
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

OpenOutcome open_beneath(int dirfd, std::string_view location, ExternalOpen method) {
    // The same limit for both paths (the kernel's, which the walk would not reach).
    if (location.size() >= PATH_MAX) return failure(Status::NameTooLong, ENAMETOOLONG);
    if (effective_open_method(method) == ExternalOpen::Openat2) {
        OpenOutcome out;
        if (open_with_openat2(dirfd, std::string(location), out)) return out;
        if (method == ExternalOpen::Openat2) return failure(Status::OsError, ENOSYS);
    }
    return walk_beneath(dirfd, location);
}

}  // namespace onnximport::detail
