// The importer's entry points: a file, or bytes (borrowed or owned).
#pragma once

#include <onnximport/error.hpp>
#include <onnximport/model.hpp>
#include <onnximport/options.hpp>

#include <cstdint>
#include <filesystem>
#include <span>
#include <string_view>
#include <vector>

namespace onnximport {

/// Imports a model file: mapped when over options.map_threshold (Auto), else read.
/// External data is resolved against the model's directory unless options say otherwise.
/// @throws ImportError with the kind, offset and field path of the first problem.
Model import_file(const std::filesystem::path& path, const ImportOptions& options = {});

/// Imports bytes the caller owns and keeps alive for the Model's lifetime (used in
/// place, not copied). `name` appears in errors.
/// @throws ImportError
Model import_bytes(std::span<const uint8_t> bytes, std::string_view name, const ImportOptions& options = {});

/// Imports bytes the Model then owns (moved in, not copied).
/// @throws ImportError
Model import_bytes(std::vector<uint8_t>&& bytes, std::string_view name, const ImportOptions& options = {});

}  // namespace onnximport
