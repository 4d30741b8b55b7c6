// A mapped model file that another process truncates makes the next read of a page past
// the new end raise SIGBUS (docs/cli.md, "A file that shrinks"). The library leaves that
// signal to its user; the CLI catches it around each import and dump and reports the file
// as an `Io` refusal instead of dying.
#pragma once

namespace onnximport::cli {

/// While a guard is alive, a SIGBUS for a page of a file mapping that lies past the file's
/// end (BUS_ADRERR) does not kill the process: the page is replaced by a page of zeros, so
/// the faulting read, on whichever thread, goes on, and truncated() becomes true. The
/// caller then discards whatever that import or dump produced. Any other SIGBUS, or one
/// outside a guard, keeps its default action. One guard at a time.
class TruncationGuard {
public:
    TruncationGuard();
    ~TruncationGuard();
    TruncationGuard(const TruncationGuard&) = delete;
    TruncationGuard& operator=(const TruncationGuard&) = delete;

    /// True once a page past a file's end was read while this guard was alive.
    bool truncated() const noexcept;
};

}  // namespace onnximport::cli
