// The tensor limits of both formats (docs/rules.md T3 and T6, O6 for .ort): the element
// count of the dims and the byte length of the raw layout, each decided without wrapping.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace onnximport::detail {

/// Largest element count accepted (rule T3).
inline constexpr uint64_t max_element_count = uint64_t{1} << 60;
/// Largest tensor byte length accepted: protobuf's own 2^31 - 1 (rule T6).
inline constexpr uint64_t max_tensor_bytes = 0x7FFFFFFFu;

/// count *= dim for a dim >= 1, or false (count unchanged) when the product passes
/// max_element_count: the one step of the count, so a reader can locate the dim that fails.
constexpr bool grow_element_count(uint64_t& count, uint64_t dim) {
    if (dim > max_element_count || count > max_element_count / dim) return false;
    count *= dim;
    return true;
}

struct CountResult {
    bool ok;
    uint64_t value;
    std::string error;
};

/// The product of non-negative dims, refused beyond 2^60 (without wrapping); a zero dim
/// makes no elements whatever the others are.
CountResult element_count(std::span<const int64_t> dims);

/// ceil(count * bits / 8), or nothing when above max_tensor_bytes or the type has no bit
/// width (STRING, unknown codes).
std::optional<uint64_t> expected_byte_length(uint64_t count, int32_t data_type);

}  // namespace onnximport::detail
