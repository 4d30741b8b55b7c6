// Tensor bytes into the finished buffer: each inline raw_data vector was reserved by the
// single-threaded assembly and is filled here, a disjoint range per tensor, so the copies
// can run on several threads (spec 003, "Parallelization").
#include "write/ort/assembly.hpp"
#include "write/striped.hpp"

#include <cstring>

namespace onnximport::detail {

void fill_inline(std::span<const PlacedBytes> fills, uint8_t* buffer, uint64_t size, unsigned threads) {
    run_striped(fills.size(), threads, [&](size_t i) {
        const PlacedBytes& f = fills[i];
        // A vector's uoffset counts from the buffer's end to its 4-byte length prefix.
        uint8_t* data = buffer + (size - f.place) + sizeof(flatbuffers::uoffset_t);
        if (!f.bytes.empty()) std::memcpy(data, f.bytes.data(), f.bytes.size());
    });
}

uint64_t tensor_bytes(std::span<const PlacedBytes> placed, bool external) noexcept {
    uint64_t n = 0;
    for (const PlacedBytes& p : placed) n += p.bytes.size() + (external ? p.place - p.from : 0);
    return n;
}

}  // namespace onnximport::detail
