// A file that appears whole or not at all: written unnamed (O_TMPFILE) where the
// kernel and /proc allow it, else under a fresh temporary name (O_CREAT | O_EXCL |
// O_NOFOLLOW) in the same folder; renamed over its name only once complete and fsync'ed.
// Destroyed without commit, it leaves nothing behind. An existing file of the same name is
// replaced by the rename (never written through); a link or folder there is refused.
#pragma once

#include "io/unique_fd.hpp"
#include "write/output_dir.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace onnximport::detail {

struct WriteFaults;

/// The OutputDir must outlive the file: it holds the folder's descriptor.
class AtomicFile {
public:
    /// Creates the unnamed file for `name` (checked by OutputDir::parent_of) in `dir`.
    /// @throws ImportError(ExternalData) for a refused name, Unsupported for a link on the
    ///         way or at the name, Io when the system refuses.
    AtomicFile(const OutputDir& dir, std::string_view name, WriteFaults* faults = nullptr,
               const std::string& field_path = {});
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    /// Appends `bytes` at the end, however many calls the kernel needs (short writes, EINTR).
    /// @throws ImportError(Io) on ENOSPC, EFBIG, EIO... with the offset reached.
    void write(std::span<const std::byte> bytes);
    /// Writes at `offset`; size() stays as it is. Safe from several threads (pwrite).
    void write_at(uint64_t offset, std::span<const std::byte> bytes);
    /// Bytes appended by write() so far.
    uint64_t size() const noexcept { return size_; }
    /// Shown in messages: the folder joined with the name.
    const std::string& display() const noexcept { return display_; }

    /// fsync, then a temporary name beside the final one: nothing is replaced yet.
    void prepare();
    /// Refuses (Unsupported) when a link, a non-file or a file the model reads (the
    /// OutputDir's kept files) now sits at the final name.
    void check_name() const;
    /// Renames the prepared file over its name and fsyncs the folder.
    void publish();
    /// publish() fails (Io) rather than replace a file that is at the name by then
    /// (renameat2 RENAME_NOREPLACE, else link and unlink): an external-data file (docs/write.md, "Generations").
    void never_replace() noexcept { never_replace_ = true; }
    /// prepare() and publish().
    void commit() {
        prepare();
        publish();
    }

private:
    void create_named();
    void discard() noexcept;
    void rename_without_replacing();

    const OutputDir& dir_;
    OutputDir::Parent parent_;
    std::string display_;
    std::string temp_name_;  ///< empty while unnamed (O_TMPFILE)
    UniqueFd fd_;
    uint64_t size_ = 0;
    bool published_ = false;
    bool never_replace_ = false;
    WriteFaults* faults_;
};

/// 16 random lowercase hex digits: the unique part of temporary and generation names.
std::string random_hex();

/// Commits several files so that none is renamed before all are complete and every name
/// is checked: prepare() each, check_name() each, then publish() each. Only the system
/// failing a rename can leave some published (whole) and the others not.
void commit_all(std::span<AtomicFile* const> files);

/// Commits a model file and its external-data file (null: none), the external one first:
/// a model in place never points at data that is not.
void commit_model(AtomicFile& model, AtomicFile* data);

}  // namespace onnximport::detail
