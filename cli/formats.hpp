// The output formats of `onnximport convert` (docs/cli.md), chosen by OUT's extension.
// Each is a writer of onnximport/write.hpp; a format listed without one is refused as not
// supported yet.
#pragma once

#include <onnximport/model.hpp>
#include <onnximport/write.hpp>

#include <filesystem>
#include <span>
#include <string_view>

namespace onnximport::cli {

/// What convert asks of a writer: the .onnx writer's options, which the .ort one maps to its
/// own, and --onnxruntime-limits (.ort only).
struct ConvertOptions {
    onnximport::WriteOptions write;
    bool onnxruntime_limits = false;
};

struct OutputFormat {
    std::string_view extension;  ///< ".onnx", with the dot
    /// Null: the format is known but its writer is not built yet.
    void (*write)(const onnximport::Model&, const std::filesystem::path&, const ConvertOptions&);
};

std::span<const OutputFormat> output_formats();

/// The format of `out` by its extension, or null when none matches.
const OutputFormat* format_of(const std::filesystem::path& out);

}  // namespace onnximport::cli
