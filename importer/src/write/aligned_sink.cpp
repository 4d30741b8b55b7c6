// Blobs at aligned offsets, zero padding between them.
#include "write/aligned_sink.hpp"

#include "write/write_error.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <string>

namespace onnximport::detail {

namespace {

/// Pages of zeros, written as often as a gap needs.
constexpr std::array<std::byte, 4096> zeros{};

void write_zeros(AtomicFile& file, uint64_t from, uint64_t to) {
    while (from < to) {
        const uint64_t n = std::min<uint64_t>(to - from, zeros.size());
        file.write_at(from, std::span(zeros.data(), static_cast<size_t>(n)));
        from += n;
    }
}

}  // namespace

bool valid_alignment(uint64_t alignment) noexcept {
    return alignment != 0 && alignment <= (uint64_t{1} << 30) && std::has_single_bit(alignment);
}

AlignedLayout::AlignedLayout(uint64_t alignment, std::string_view shown) : alignment_(alignment) {
    if (!valid_alignment(alignment))
        fail_request(shown, "alignment " + std::to_string(alignment) + " is not a power of two from 1 to 2^30");
}

uint64_t AlignedLayout::next_offset() const noexcept { return (end_ + alignment_ - 1) & ~(alignment_ - 1); }

uint64_t AlignedLayout::reserve(uint64_t size) noexcept {
    const uint64_t offset = next_offset();
    end_ = offset + size;
    return offset;
}

AlignedSink::AlignedSink(AtomicFile& file, uint64_t alignment) : file_(file), layout_(alignment, file.display()) {}

uint64_t AlignedSink::append(std::span<const std::byte> bytes) {
    const uint64_t from = layout_.end();
    const uint64_t offset = layout_.reserve(bytes.size());
    write_zeros(file_, from, offset);
    file_.write_at(offset, bytes);
    return offset;
}

void AlignedSink::write_reserved(uint64_t from, uint64_t offset, std::span<const std::byte> bytes) {
    write_zeros(file_, from, offset);
    file_.write_at(offset, bytes);
}

}  // namespace onnximport::detail
