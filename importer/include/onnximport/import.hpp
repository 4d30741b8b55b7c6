// The importer's entry points: a file, or bytes the caller owns.
#pragma once

#include <onnximport/error.hpp>
#include <onnximport/model.hpp>
#include <onnximport/options.hpp>

#include <cstdint>
#include <filesystem>
#include <span>
#include <string_view>

namespace onnximport {

/// Imports a model file: mapped when over options.map_threshold (Auto), else read.
/// External data is resolved against the model's directory unless options say otherwise.
/// @throws ImportError with the kind, offset and field path of the first problem.
Model import_file(const std::filesystem::path& path, const ImportOptions& options = {});

/// Imports bytes the caller owns and keeps alive for the Model's lifetime (used in
/// place, not copied). `name` appears in errors.
/// @throws ImportError
Model import_bytes(std::span<const uint8_t> bytes, std::string_view name, const ImportOptions& options = {});

/// Reads one TensorProto (no model around it) and converts it to the raw layout, as
/// the importer does for every tensor. The returned Model owns the storage; the tensor
/// is `graph->initializers[0]` of an otherwise empty graph.
/// @throws ImportError
Model import_tensor_bytes(std::span<const uint8_t> bytes, std::string_view name, const ImportOptions& options = {});

}  // namespace onnximport
