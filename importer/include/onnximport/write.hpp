// The writers: a Model back to a file. Everything they refuse or fail at is the
// importer's one ImportError (onnximport/error.hpp), so a caller catches one type for
// reading and writing: Io when the system fails (a full disk: nothing is left behind),
// Unsupported for a request the writer refuses (a link in the way, an alignment that is
// not a power of two, a model beyond protobuf's size limit without external data (docs/rules.md
// W19), options a writer cannot
// take, as an external file for bytes in memory), ExternalData for an
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

/// Tensors written outside the model file, for both writers: the .onnx writer's external
/// file, anywhere beneath the output's folder; the .ort writer's companion, always OUT.data.
struct ExternalData {
    /// Relative to the output's folder (existing subfolders allowed, no `..`). Empty: every
    /// tensor stays inside the model file. A .ort accepts only its companion, OUT's name
    /// with ".data" appended (the one file the .ort reader looks for).
    std::filesystem::path file;
    /// Tensors of more bytes than this go to the file. 1024, the onnx package's own default:
    /// small constants stay readable in the model.
    uint64_t threshold = 1024;
    /// Offsets in the file are multiples of this: a power of two from 1 to 2^30. 4096, a
    /// page, lets a reader map each tensor on its own pages.
    uint64_t alignment = 4096;
};

struct WriteOptions {
    ExternalData external_data;
    /// Threads that write the external file, each a share of its bytes (started and joined
    /// within the call); 1: the calling thread only. Up to ImportOptions::max_threads.
    unsigned threads = 1;
    /// Called now and then with the bytes written so far and the total to write.
    std::function<void(uint64_t done, uint64_t total)> progress;
    /// Called once the model is in place when its external file was written under a
    /// generation name (`w.<16 hex digits>.bin` beside external_data.file, which was taken:
    /// docs/write.md, "Generations"), with that name relative to the output's folder.
    std::function<void(const std::string& written)> generation;
};

/// Writes `model` as an `.onnx` file at `path`: protobuf, every field the importer keeps,
/// the same bytes for the same model and options. Tensors from raw_data or external data
/// of more than options.external_data.threshold bytes go to options.external_data.file
/// (when set) at aligned offsets, with location, offset and length entries and
/// data_location EXTERNAL; tensors from typed fields stay typed, as the onnx package does.
/// Nodes are written in file order. An existing external file is never overwritten: the
/// model names a new generation of it, and is renamed over the old model last, so the
/// folder holds the old model and data or the new ones (docs/write.md, "Generations").
/// @throws ImportError(Io | Unsupported | ExternalData); nothing is left behind.
void write_onnx_file(const Model& model, const std::filesystem::path& path, const WriteOptions& options = {});

/// The `.onnx` bytes of `model`, every tensor inline (options.external_data.file must be empty).
/// @throws ImportError(Unsupported) for a model beyond protobuf's size limit (rule W19), external
///         tensors not loaded, or
///         an external file asked for.
std::vector<uint8_t> write_onnx_bytes(const Model& model, const WriteOptions& options = {});

}  // namespace onnximport
