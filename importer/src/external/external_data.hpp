// External data (spec section 5): loading the bytes of every tensor with
// data_location = EXTERNAL. The rules live by concern: location.hpp (entries and
// location syntax), safe_open.hpp (opening beneath the directory), this file (loading).
//
// Buffer lifetime
// ---------------
// Each external file is opened once per Model and mapped read-only whole; the mapping
// is kept in Storage::external_files under the file's (dev, inode), shared by every
// tensor that reads from it, and released by Model::close() or the Model's destruction.
// Its descriptor is closed as soon as the mapping exists. Where mapping is unavailable
// (or ImportOptions::map_external_files is off), each tensor's range is read into an owned
// buffer and the descriptor closed when loading ends.
// A mapped file that is truncated by someone else while the Model lives makes reading
// the vanished pages fault (SIGBUS): a property of mapping that the spec accepts.
#pragma once

#include "model/storage.hpp"

#include <onnximport/options.hpp>

#include <filesystem>

namespace onnximport::detail {

/// Loads the bytes of every tensor with data_location = EXTERNAL, in the main graph,
/// subgraphs, attributes, functions and training info. `dir` is the external-data
/// directory, or null when there is none (bytes without a named directory).
/// @throws ImportError(ExternalData) for every refused reference, ImportError(Io) for OS
/// failures; the error names the location, the tensor's field path and offset.
void load_external_data(Storage& storage, const ImportOptions& options, const std::filesystem::path* dir);

}  // namespace onnximport::detail
