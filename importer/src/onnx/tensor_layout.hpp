// The raw layout of tensor data (spec section 3): element counts, byte lengths, and the
// conversion of typed fields into the raw layout.
#pragma once

#include "onnx/context.hpp"

#include <onnx_fields.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace onnximport::detail {

/// Largest element count accepted (spec section 3).
constexpr uint64_t max_element_count = uint64_t{1} << 60;
/// Largest tensor byte length accepted: protobuf's own 2^31 - 1.
constexpr uint64_t max_tensor_bytes = 0x7FFFFFFFu;

struct CountResult {
    bool ok;
    uint64_t value;
    std::string error;
};

/// The product of non-negative dims, refused beyond 2^60 (without wrapping).
CountResult element_count(std::span<const int64_t> dims);

/// ceil(count * bits / 8), or nothing when above max_tensor_bytes.
std::optional<uint64_t> expected_byte_length(uint64_t count, int32_t data_type);

/// The typed field of TensorProto that serves the element type.
proto::Tensor typed_field_for(int32_t data_type);

/// Bytes the typed field's entries produce in the raw layout.
uint64_t typed_byte_length(proto::Tensor field, int32_t data_type, uint64_t entries);

/// Writes the entries of `field` found in the TensorProto body [begin, end) into `out`
/// (exactly `size` bytes, already checked against the entries' byte length).
void convert_typed_field(Context& c, const uint8_t* begin, const uint8_t* end, proto::Tensor field,
                         int32_t data_type, std::byte* out, uint64_t size);

}  // namespace onnximport::detail
