// Tensor bytes of the finished buffer: each inline raw_data vector was reserved by the
// single-threaded assembly and is copied afterwards, the tensors laid end to end and split
// into byte shares over the threads asked for (core/pool.hpp run_pieces; docs/ort.md,
// "Writing `.ort` files"). In memory they are copied into the buffer; into a file, straight from
// the model, so that the buffer's pages under them are never written and never resident.
#include "write/ort/assembly.hpp"

#include "core/pool.hpp"

#include <algorithm>
#include <cstring>

namespace onnximport::detail {

namespace {

/// Where a fill's bytes start in the finished buffer of `size` bytes: a vector's uoffset
/// counts from the buffer's end to its 4-byte length prefix.
uint64_t start_of(const PlacedBytes& f, uint64_t size) noexcept {
    return size - f.place + sizeof(flatbuffers::uoffset_t);
}

template <class CopyPart>
void copy_fills(std::span<const PlacedBytes> fills, unsigned threads, SourcePages& source, CopyPart&& copy_part) {
    std::vector<uint64_t> sizes;
    sizes.reserve(fills.size());
    for (const PlacedBytes& f : fills) sizes.push_back(f.bytes.size());
    run_pieces(threads, sizes, share_grain, [&](unsigned share, size_t i, uint64_t from, uint64_t to) {
        source.copy(share, fills[i].bytes.subspan(from, to - from),
                    [&](uint64_t at, std::span<const std::byte> part) { copy_part(fills[i], from + at, part); });
    });
}

}  // namespace

void fill_inline(std::span<const PlacedBytes> fills, uint8_t* buffer, uint64_t size, unsigned threads,
                 SourcePages& source) {
    copy_fills(fills, threads, source, [&](const PlacedBytes& f, uint64_t offset, std::span<const std::byte> part) {
        std::memcpy(buffer + start_of(f, size) + offset, part.data(), part.size());
    });
}

void write_inline(AtomicFile& file, std::span<const PlacedBytes> fills, const uint8_t* buffer, uint64_t size,
                  unsigned threads, Progress& progress, SourcePages& source) {
    std::vector<std::pair<uint64_t, uint64_t>> holes;  // [start, end) of each fill, in buffer order
    holes.reserve(fills.size());
    for (const PlacedBytes& f : fills) holes.emplace_back(start_of(f, size), start_of(f, size) + f.bytes.size());
    std::sort(holes.begin(), holes.end());
    uint64_t at = 0;
    const auto write_tables = [&](uint64_t to) {
        file.write_at(at, {reinterpret_cast<const std::byte*>(buffer + at), to - at});
        progress.advance(to - at);
    };
    for (const auto& [start, end] : holes) {
        write_tables(start);
        at = end;
    }
    write_tables(size);
    copy_fills(fills, threads, source, [&](const PlacedBytes& f, uint64_t offset, std::span<const std::byte> part) {
        file.write_at(start_of(f, size) + offset, part);
        progress.advance(part.size());
    });
}

}  // namespace onnximport::detail
