// The writers: a Model back to a file. Everything they refuse or fail at is the
// importer's one ImportError (onnximport/error.hpp), so a caller catches one type for
// reading and writing: Io when the system fails (a full disk: nothing is left behind),
// Unsupported for a request the writer refuses (a link in the way, an alignment that is
// not a power of two, a model over 2 GiB without external data), ExternalData for an
// external-data name that would leave the output folder. The source name of such an
// error is the output path; its offset, when given, is where in that file writing failed.
//
// Safety: files are created only beneath the output file's folder, never through a
// symbolic link (that folder's own path may not pass through one either), written under
// a temporary name or none, and renamed into place once complete and fsync'ed.
#pragma once

#include <onnximport/model.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace onnximport {

struct WriteOptions {
    /// Offsets of tensors in the external-data file are multiples of this: a power of two
    /// from 1 to 2^30. 4096, a page, lets a reader map each tensor on its own pages.
    uint64_t alignment = 4096;
    /// The external-data file, relative to the output's folder (existing subfolders
    /// allowed, no `..`). Empty: every tensor stays inside the model file.
    std::string external_data;
    /// Tensors of more bytes than this go to the external file (when there is one). 1024,
    /// the onnx package's own default: small constants stay readable in the model.
    uint64_t threshold = 1024;
    /// Threads that write the external file, each a share of its bytes (started and joined
    /// within the call); 1: the calling thread only. Up to ImportOptions::max_threads.
    unsigned threads = 1;
    /// Called now and then with the bytes written so far and the total to write.
    std::function<void(uint64_t done, uint64_t total)> progress;
};

/// Writes `model` as an `.onnx` file at `path`: protobuf, every field the importer keeps,
/// the same bytes for the same model and options. Tensors from raw_data or external data
/// of more than options.threshold bytes go to options.external_data (when set) at aligned
/// offsets, with location, offset and length entries and data_location EXTERNAL; tensors
/// from typed fields stay typed, as the onnx package does. Nodes are written in file order.
/// @throws ImportError(Io | Unsupported | ExternalData); nothing is left behind.
void write_onnx(const Model& model, const std::filesystem::path& path, const WriteOptions& options = {});

/// The `.onnx` bytes of `model`, every tensor inline (options.external_data must be empty).
/// @throws ImportError(Unsupported) for a model over 2 GiB or external tensors not loaded.
std::vector<uint8_t> write_onnx_bytes(const Model& model, const WriteOptions& options = {});

}  // namespace onnximport
