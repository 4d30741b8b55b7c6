// The metadata key by which a .ort names its companion file (rule O7, docs/ort.md "External
// data"): this project's extension. The writer names a generation file with it, so that the
// model's rename alone switches model and data (docs/write.md, "What a kill can leave").
// For ONNX Runtime it is an ordinary entry: it reads no companion (docs/ort.md).
#pragma once

#include <string_view>

namespace onnximport::detail {

inline constexpr std::string_view ort_companion_key = "onnximport.ort_external_data";

}  // namespace onnximport::detail
