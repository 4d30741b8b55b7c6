// A read-only memory mapping of an opened file descriptor (spec sections 5 and 6).
#pragma once

#include <cstddef>
#include <cstdint>

namespace onnximport::detail {

/// Owns an open descriptor and, where the platform allows, a private mapping of the whole
/// file. Where mapping fails the descriptor stays open so ranges can be read.
class MappedFile {
public:
    /// Takes ownership of fd. size is the file size (from fstat of the same fd). The
    /// mapping is read-only unless `copy_on_write` is asked for and granted: then a write
    /// changes this process's copy of a page, never the file (fault_in_alone in import.cpp).
    MappedFile(int fd, uint64_t size, bool map, bool copy_on_write = false);
    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    int fd() const noexcept { return fd_; }
    uint64_t size() const noexcept { return size_; }
    /// The mapping, or null where mapping was unavailable or not requested.
    const uint8_t* data() const noexcept { return static_cast<const uint8_t*>(addr_); }
    /// True when the mapping is writable (copy-on-write).
    bool copy_on_write() const noexcept { return copy_on_write_; }
    /// Releases the mapping and the descriptor.
    void release() noexcept;
    /// Advise the kernel not to read ahead (keeps resident size to what is touched).
    void advise_random() const noexcept;
    /// Drops the resident pages and keeps the mapping: views stay valid (a read faults the
    /// page in again from the file) and the memory is returned.
    void drop_pages() const noexcept;
    /// Closes the descriptor and keeps the mapping (which holds the file by itself), so a
    /// model with thousands of external files does not hold thousands of descriptors.
    void drop_descriptor() noexcept;
    /// Reads exactly `length` bytes at `offset` with pread (the path where mapping is
    /// unavailable). Returns 0, an errno, or ENODATA when the file ended first.
    int read_exact(uint64_t offset, void* dst, uint64_t length) const noexcept;

private:
    int fd_ = -1;
    uint64_t size_ = 0;
    void* addr_ = nullptr;
    bool copy_on_write_ = false;
};

}  // namespace onnximport::detail
