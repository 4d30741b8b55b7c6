// Opening an external-data file beneath its directory without a check-then-open race
// (spec section 5, rule 2; "TOCTOU-safe opening").
//
// The spec resolves every symbolic link and checks that the result lies inside the
// directory, and says a swap after the check is not defended against. On Linux we do
// better: the path is resolved by the kernel relative to a descriptor of the directory
// with openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS), so the check and the open are
// one step, and everything after (fstat, mmap, pread) uses that same descriptor.
//
// Where openat2 is missing (ENOSYS, or EPERM from a seccomp filter) a component-wise
// walk does the same job in user space; see walk_beneath in safe_open.cpp. Both give the
// same answers, the same statuses for the same trees (tested with both): the final object
// is opened as an O_PATH descriptor and fstat'ed first, so nothing but a regular file is
// ever opened for reading (a FIFO, socket or device is refused as NotRegular, never
// opened); a location of PATH_MAX bytes or more is NameTooLong before either runs; and a
// magic link (/proc/self/cwd) is Escapes in both. ImportOptions::external_open (or
// ONNXIMPORT_NO_OPENAT2=1 in Auto) forces the walk.
//
// Deliberate tightenings of the spec, shared by both paths:
// - a symbolic link with an absolute target is refused even if the target lies inside
//   the directory (its meaning depends on where the tree is mounted; RESOLVE_BENEATH
//   refuses it too);
// - a `..` in a link target may climb back up only as far as the directory itself.
// Not distinguishable, and accepted: a hard link inside the directory to a file that
// also has a name outside it. A hard link is the file; nothing on the path leaves.
#pragma once

#include "io/unique_fd.hpp"

#include <onnximport/options.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <string_view>

namespace onnximport::detail {

/// The method open_beneath uses for `requested`: Openat2 or Walk (Auto: openat2 unless the
/// environment sets ONNXIMPORT_NO_OPENAT2 to something other than 0).
ExternalOpen effective_open_method(ExternalOpen requested) noexcept;

/// What came of an open. Everything but OsError is a refusal of the reference itself.
struct OpenOutcome {
    enum class Status {
        Opened,         ///< fd is a regular file, st its fstat
        Missing,        ///< no such file
        NotADirectory,  ///< a component on the way is not a directory
        NotRegular,     ///< the final object is a directory, FIFO, device...
        Escapes,        ///< a link leads outside the directory (or is absolute)
        TooManyLinks,   ///< link loop, or more than 40 links
        NameTooLong,
        OsError,        ///< error holds errno (EIO, EMFILE, EACCES...)
    };
    Status status = Status::OsError;
    UniqueFd fd;
    struct stat st {};
    int error = 0;  ///< errno behind the status, when there was one
};

/// Opens the external-data directory itself (following links: it is "the resolved
/// directory"), as an O_PATH descriptor to resolve locations beneath.
OpenOutcome open_directory(const std::filesystem::path& dir);

/// Opens `location` (relative, already checked by check_location, no NUL) read-only
/// beneath the directory `dirfd`; links are followed only while they stay beneath.
/// On Opened, fd is a regular file and st describes that same descriptor. Where openat2 is
/// missing, Auto falls back to the walk (and asks again at the next call).
OpenOutcome open_beneath(int dirfd, std::string_view location, ExternalOpen method);

}  // namespace onnximport::detail
