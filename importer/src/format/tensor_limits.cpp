// The tensor limits of both formats (tensor_limits.hpp).
#include "format/tensor_limits.hpp"

#include <onnximport/data_type.hpp>

namespace onnximport::detail {

CountResult element_count(std::span<const int64_t> dims) {
    for (int64_t d : dims)
        if (d < 0) return {false, 0, "dimension " + std::to_string(d) + " is negative"};
    for (int64_t d : dims)
        if (d == 0) return {true, 0, {}};
    uint64_t count = 1;
    for (int64_t d : dims)
        if (!grow_element_count(count, static_cast<uint64_t>(d))) return {false, 0, "element count exceeds 2^60"};
    return {true, count, {}};
}

std::optional<uint64_t> expected_byte_length(uint64_t count, int32_t data_type) {
    // ceil(count * bits / 8) <= max  <=>  count * bits <= 8 * max: decide before multiplying.
    const uint64_t bits = bits_per_element(data_type);
    if (bits == 0 || count > (8 * max_tensor_bytes) / bits) return std::nullopt;
    return (count * bits + 7) / 8;
}

}  // namespace onnximport::detail
