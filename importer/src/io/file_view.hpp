// A read-only view of an opened regular file (spec sections 5 and 6): the whole file
// mapped PROT_READ, or, where mapping is unavailable or not wanted, the descriptor kept to
// read ranges from.
#pragma once

#include "io/unique_fd.hpp"

#include <cstddef>
#include <cstdint>

namespace onnximport::detail {

class FileView {
public:
    /// `size` is the file's size from fstat of the same descriptor. With `map`, the file is
    /// mapped and the descriptor closed at once (a mapping holds the file by itself, so a
    /// model of thousands of external files holds no descriptors); without a mapping the
    /// descriptor stays open for read_exact.
    FileView(UniqueFd fd, uint64_t size, bool map);
    ~FileView();
    FileView(const FileView&) = delete;
    FileView& operator=(const FileView&) = delete;

    uint64_t size() const noexcept { return size_; }
    /// The mapping, or null where mapping was unavailable or not requested.
    const uint8_t* data() const noexcept { return static_cast<const uint8_t*>(addr_); }
    /// Unmaps the file and closes the descriptor (UniqueFd::release, by contrast, gives the descriptor up).
    void unmap_and_close() noexcept;
    bool has_descriptor() const noexcept { return static_cast<bool>(fd_); }
    /// Closes the descriptor (the mapping, if any, stays): read_exact fails afterwards.
    void close_descriptor() noexcept { fd_ = UniqueFd(); }
    /// Asks the kernel not to read ahead: resident size stays what is touched.
    void advise_random() const noexcept;
    /// Drops the resident pages of [begin, end) of the mapping (whole pages within it);
    /// views stay valid: a read faults the page in again from the file.
    void drop_pages(const uint8_t* begin, const uint8_t* end) const noexcept;
    /// Reads exactly `length` bytes at `offset` with pread (where there is no mapping).
    /// Returns 0, an errno, or ENODATA when the file ended first.
    int read_exact(uint64_t offset, void* dst, uint64_t length) const noexcept;

private:
    UniqueFd fd_;
    uint64_t size_ = 0;
    void* addr_ = nullptr;
};

}  // namespace onnximport::detail
