// One TensorProto read without a model around it, as the importer reads every tensor:
// the entry point of the tensor fuzzer and the tensor tests (not public API).
#pragma once

#include <onnximport/model.hpp>
#include <onnximport/options.hpp>

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace onnximport::detail {

/// The returned Model owns the storage; the tensor is `graph()->initializers[0]` of an
/// otherwise empty graph.
/// @throws ImportError
Model import_tensor_bytes(std::span<const uint8_t> bytes, std::string_view name, const ImportOptions& options = {});
/// The same, the Model owning the bytes.
Model import_tensor_bytes(std::vector<uint8_t>&& bytes, std::string_view name, const ImportOptions& options = {});

}  // namespace onnximport::detail
