// The output formats table (formats.hpp).
#include "formats.hpp"

#include <onnximport/error.hpp>
#include <onnximport/write_ort.hpp>

#include "escape.hpp"

#include <cstdint>
#include <functional>
#include <iostream>
#include <string>
#include <string_view>

namespace onnximport::cli {

namespace {

/// One line on stderr when the external file went under a generation name (docs/write.md, "Generations").
std::function<void(const std::string&)> say_generation(const std::filesystem::path& requested) {
    return [requested](const std::string& written) {
        std::cerr << "onnximport: convert: external data written as '" << escape(written) << "': '"
                  << escape(requested.string()) << "' exists and is never overwritten (the model names the new file)\n";
    };
}

void write_onnx_file(const onnximport::Model& model, const std::filesystem::path& out, const ConvertOptions& options) {
    onnximport::WriteOptions o = options.write;
    o.generation = say_generation(o.external_data.file);
    onnximport::write_onnx_file(model, out, o);
}

/// .ort: --external-data, when given, names OUT's companion file by its name or as OUT plus
/// `.data` (the writer refuses any other).
void write_ort_file(const onnximport::Model& model, const std::filesystem::path& out, const ConvertOptions& convert) {
    const onnximport::WriteOptions& options = convert.write;
    onnximport::OrtWriteOptions o;
    o.external_data = options.external_data;
    if (o.external_data.file == out.string() + ".data") o.external_data.file = out.filename().string() + ".data";
    o.threads = options.threads;
    o.progress = options.progress;
    o.generation = say_generation(o.external_data.file);
    // ONNX Runtime refuses a NodeArg without a type: say how many, and the first one.
    uint64_t untyped = 0;
    std::string first;
    o.untyped = [&](std::string_view value, std::string_view op) {
        if (untyped++ != 0) return;
        // Appends only: GCC 12 at -O3 warns (-Wrestrict) on "x" + std::string, a false positive.
        first.append("'").append(escape(value)).append("'");
        if (op.empty()) first.append(", a subgraph input");
        else first.append(" of ").append(escape(op));
    };
    o.onnxruntime_limits = convert.onnxruntime_limits;
    o.beyond_onnxruntime_limits = [&](std::string_view why) {
        std::cerr << "onnximport: convert: " << escape(out.string()) << " is beyond what ONNX Runtime's loader "
                  << "verifies by default (" << why << "): ONNX Runtime will not load it; written anyway\n";
    };
    onnximport::write_ort_file(model, out, o);
    if (untyped)
        std::cerr << "onnximport: convert: " << untyped
                  << " value(s) written without a type (ONNX Runtime refuses such a .ort), the first " << first << '\n';
}

constexpr OutputFormat table[] = {
    {".onnx", write_onnx_file},
    {".ort", write_ort_file},
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
