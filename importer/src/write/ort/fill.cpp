// Tensor bytes into the finished buffer: each inline raw_data vector was reserved by the
// single-threaded assembly and is filled here, the tensors laid end to end and split into
// byte shares over the threads asked for (core/pool.hpp run_pieces; spec 003, "Parallelization").
#include "write/ort/assembly.hpp"

#include "core/pool.hpp"

#include <cstring>

namespace onnximport::detail {

void fill_inline(std::span<const PlacedBytes> fills, uint8_t* buffer, uint64_t size, unsigned threads,
                 SourcePages& source) {
    std::vector<uint64_t> sizes;
    sizes.reserve(fills.size());
    for (const PlacedBytes& f : fills) sizes.push_back(f.bytes.size());
    // A page-sized grain: no two threads write one page of the buffer.
    run_pieces(threads, sizes, 4096, [&](unsigned share, size_t i, uint64_t from, uint64_t to) {
        // A vector's uoffset counts from the buffer's end to its 4-byte length prefix.
        uint8_t* data = buffer + (size - fills[i].place) + sizeof(flatbuffers::uoffset_t) + from;
        source.copy(share, fills[i].bytes.subspan(from, to - from),
                    [&](uint64_t at, std::span<const std::byte> part) { std::memcpy(data + at, part.data(), part.size()); });
    });
}

}  // namespace onnximport::detail
