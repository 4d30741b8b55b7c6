// The output formats table (formats.hpp).
#include "formats.hpp"

namespace onnximport::cli {

namespace {

void write_onnx_file(const onnximport::Model& model, const std::filesystem::path& out,
                     const onnximport::WriteOptions& options) {
    onnximport::write_onnx(model, out, options);
}

constexpr OutputFormat table[] = {
    {".onnx", write_onnx_file},
    {".ort", nullptr},  // the .ort writer (issue 18) goes here
};

}  // namespace

std::span<const OutputFormat> output_formats() { return table; }

const OutputFormat* format_of(const std::filesystem::path& out) {
    const std::string extension = out.extension().string();
    for (const auto& f : table)
        if (f.extension == extension) return &f;
    return nullptr;
}

}  // namespace onnximport::cli
