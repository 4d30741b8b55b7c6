// The external-data file of a writer: blobs appended at offsets that are
// multiples of a power-of-two alignment, the gaps filled with zeros. Offsets can be
// reserved first and the bytes written later, from several threads (write_at).
#pragma once

#include "write/atomic_file.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace onnximport::detail {

/// True for 1, 2, 4, ... 2^30: the alignments a writer accepts.
bool valid_alignment(uint64_t alignment) noexcept;

/// The offsets of an aligned layout, without a file: writers plan with it before writing.
class AlignedLayout {
public:
    /// @throws ImportError(Unsupported) when `alignment` is not a power of two up to 2^30.
    AlignedLayout(uint64_t alignment, std::string_view shown);
    /// The offset of the next blob of `size` bytes; the end moves past it.
    uint64_t reserve(uint64_t size) noexcept;
    /// Where the next blob would start, and the end of the last one.
    uint64_t next_offset() const noexcept;
    uint64_t end() const noexcept { return end_; }
    uint64_t alignment() const noexcept { return alignment_; }

private:
    uint64_t alignment_;
    uint64_t end_ = 0;
};

class AlignedSink {
public:
    AlignedSink(AtomicFile& file, uint64_t alignment);

    /// Pads with zeros to the next multiple of the alignment, writes `bytes`, returns
    /// their offset.
    uint64_t append(std::span<const std::byte> bytes);
    /// Zeros from `from` up to `offset`, then `bytes` at `offset` (a blob reserved in a
    /// layout of the same alignment, `from` the end of the blob before it).
    void write_reserved(uint64_t from, uint64_t offset, std::span<const std::byte> bytes);
    AtomicFile& file() noexcept { return file_; }

private:
    AtomicFile& file_;
    AlignedLayout layout_;
};

}  // namespace onnximport::detail
