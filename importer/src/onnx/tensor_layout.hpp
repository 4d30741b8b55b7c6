// The typed fields of TensorProto (spec section 3): which one serves an element type, the
// bytes its entries give, and their conversion into the raw layout. The element count and
// byte length limits are both formats' (format/tensor_limits.hpp).
#pragma once

#include "format/tensor_limits.hpp"
#include "onnx/context.hpp"

#include <onnx_fields.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace onnximport::detail {

/// The typed field of TensorProto that serves the element type.
proto::Tensor typed_field_for(int32_t data_type);

/// Bytes the typed field's entries produce in the raw layout.
uint64_t typed_byte_length(proto::Tensor field, int32_t data_type, uint64_t entries);

/// Writes the entries of `field` found in the TensorProto body [begin, end) into `out`
/// (exactly `size` bytes, already checked against the entries' byte length).
void convert_typed_field(Context& c, const uint8_t* begin, const uint8_t* end, proto::Tensor field,
                         int32_t data_type, std::byte* out, uint64_t size);

}  // namespace onnximport::detail
