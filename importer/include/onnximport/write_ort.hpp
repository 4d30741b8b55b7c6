// The .ort writer: a Model as ONNX Runtime's FlatBuffers format, assembled by one
// FlatBufferBuilder. Inline (every tensor's bytes in the buffer: what ONNX Runtime loads) or
// external (tensors of more than `threshold` bytes in the companion file, each at an offset
// that is a multiple of `alignment`, the model naming the file: this project's extension).
// docs/ort.md.
#pragma once

#include <onnximport/model.hpp>
#include <onnximport/write.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace onnximport {

struct OrtWriteOptions {
    /// file empty: everything inline. Else it must be the companion file, OUT's name with
    /// ".data" appended (any other is refused as Unsupported): non-string tensors of more
    /// than `threshold` bytes go there, or under a generation name when that file exists
    /// (docs/write.md, "Generations"), `raw_data` absent; the model names the file written.
    ExternalData external_data;
    /// Threads that copy tensor bytes into place; 1 copies on the caller's thread.
    unsigned threads = 1;
    /// Called now and then with the bytes written so far and the total (files only).
    std::function<void(uint64_t done, uint64_t total)> progress;
    /// As WriteOptions::generation: the companion written under a generation name.
    std::function<void(const std::string& written)> generation;
    /// Called once for each value the writer leaves without a type (no declaration, no
    /// tensor, no inference rule: docs/ort.md, "What is written"), with the operator that
    /// makes it (empty for a subgraph input). ONNX Runtime refuses such a file.
    std::function<void(std::string_view value, std::string_view op_type)> untyped;
    /// A .ort beyond what ONNX Runtime's loader verifies by default (tables nested more than
    /// 64 deep, more than 1,000,000 tables; docs/ort.md, "No cap of ours") is written and
    /// reported through `beyond_onnxruntime_limits` (why, in a phrase); with this set, it is
    /// refused as Unsupported instead. Our reader reads it with ImportOptions' limits raised.
    bool onnxruntime_limits = false;
    std::function<void(std::string_view why)> beyond_onnxruntime_limits;
};

/// The .ort bytes of a resolved model, every tensor inline.
/// @throws ImportError(Unsupported) for what the format cannot hold or ONNX Runtime could not
///         run (docs/ort.md), a buffer of 2^31 - 1 bytes or more, options.external_data.file set
/// @throws std::invalid_argument for an unresolved model
std::vector<uint8_t> write_ort_bytes(const Model& model, const OrtWriteOptions& options = {});

/// Writes `path` (and, in external mode with a tensor over the threshold, its companion)
/// whole or not at all. An existing companion is never overwritten: the new one takes a
/// generation name, which the model names, and the model is renamed over the old one last,
/// so the folder holds the old pair or the new one (docs/write.md, "What a kill can leave").
/// Files are created as the output layer does (onnximport/write.hpp, "Safety").
/// @throws ImportError(Unsupported) for what the format cannot hold, a bad alignment, an
///         external file other than the companion or a metadata entry under the companion's
///         key, ExternalData or Unsupported for a refused output path, Io when writing fails
/// @throws std::invalid_argument for an unresolved model
void write_ort_file(const Model& model, const std::filesystem::path& path, const OrtWriteOptions& options = {});

}  // namespace onnximport
