// The metadata key by which a .ort names its companion file (rule O7, docs/ort.md "External
// data"): this project's extension. The writer names a generation file with it, so that the
// model's rename alone switches model and data (docs/write.md, "What a kill can leave");
// ONNX Runtime keeps it as plain metadata and reads no companion.
#pragma once

#include <string_view>

namespace onnximport::detail {

inline constexpr std::string_view ort_companion_key = "onnximport.ort_external_data";

}  // namespace onnximport::detail
