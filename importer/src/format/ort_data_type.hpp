// The element types of the .ort format (docs/ort.md; ONNX Runtime's TensorDataType), read
// by ort/ and written by write/ort/: ONNX codes 1..20, the float8 ones from format version 6.
#pragma once

#include <cstdint>

namespace onnximport::detail {

/// The highest element type code TensorDataType holds (FLOAT8E5M2FNUZ).
inline constexpr int32_t max_ort_data_type = 20;
/// The float8 element types (FLOAT8E4M3FN..FLOAT8E5M2FNUZ), which need format version 6.
inline constexpr int32_t first_float8_data_type = 17;

}  // namespace onnximport::detail
