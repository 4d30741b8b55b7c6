// Tensor bytes into the finished buffer: each inline raw_data vector was reserved by the
// single-threaded assembly and is filled here, a disjoint range per tensor, so the copies
// can run on several threads (spec 003, "Parallelization").
#include "write/ort/assembly.hpp"

#include <cstring>

namespace onnximport::detail {

namespace {

void fill_range(std::span<const PlacedBytes> fills, uint8_t* buffer, uint64_t size) {
    for (const PlacedBytes& f : fills) {
        // A vector's uoffset counts from the buffer's end to its 4-byte length prefix.
        uint8_t* data = buffer + (size - f.place) + sizeof(flatbuffers::uoffset_t);
        if (!f.bytes.empty()) std::memcpy(data, f.bytes.data(), f.bytes.size());
    }
}

}  // namespace

void fill_inline(std::span<const PlacedBytes> fills, uint8_t* buffer, uint64_t size, unsigned threads) {
    (void)threads;  // the pool (core/pool.hpp) runs fill_range over slices when it lands
    fill_range(fills, buffer, size);
}

}  // namespace onnximport::detail
