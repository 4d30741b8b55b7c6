// External data (spec section 5).
#pragma once

#include <onnximport/model.hpp>
#include <onnximport/options.hpp>

#include <filesystem>

namespace onnximport::detail {

/// Loads the bytes of every tensor with data_location = EXTERNAL, in the main graph,
/// subgraphs, attributes, functions and training info. `dir` is the external-data
/// directory, or null when there is none (bytes without a named directory).
/// @throws ImportError(ExternalData or Io)
void load_external_data(Model& model, const ImportOptions& options, const std::filesystem::path* dir);

}  // namespace onnximport::detail
