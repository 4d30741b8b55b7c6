// External data (spec section 5): loading the bytes of every tensor with
// data_location = EXTERNAL, and of .ort tensors in their companion file (docs/ort.md).
// The rules live by concern: location.hpp (entries and location syntax), safe_open.hpp
// (opening beneath the directory), files.hpp (opening, mapping and binding, shared by
// both formats), external_data.cpp and ort_companion.cpp (each format's references).
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

/// Where an import looks for external data.
struct ExternalPlace {
    /// The external-data directory, or null when there is none (bytes without a named one).
    const std::filesystem::path* dir = nullptr;
    /// The model's file, whose name plus ".data" names the .ort companion file beneath `dir`
    /// when neither ImportOptions::ort_external_data nor the model names one (docs/ort.md);
    /// null for bytes. Made into that name only for a .ort that needs it.
    const std::filesystem::path* model_file = nullptr;
};

/// Loads the bytes of every tensor with data_location = EXTERNAL, in the main graph,
/// subgraphs, attributes, functions and training info (.onnx), and of every .ort tensor
/// whose bytes are in the companion file.
/// @throws ImportError(ExternalData) for every refused reference, ImportError(Io) for OS
/// failures; the error names the location, the tensor's field path and offset.
void load_external_data(Storage& storage, const ImportOptions& options, const ExternalPlace& place);

/// The .ort part (ort_companion.cpp): Storage::ort_external from the one companion file.
void load_ort_companion(Storage& storage, const ImportOptions& options, const ExternalPlace& place);

}  // namespace onnximport::detail
