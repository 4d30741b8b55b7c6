// The output formats table (formats.hpp).
#include "formats.hpp"

#include <onnximport/error.hpp>
#include <onnximport/write_ort.hpp>

#include "escape.hpp"

#include <cstdint>
#include <iostream>
#include <string>
#include <string_view>

namespace onnximport::cli {

namespace {

void write_onnx_file(const onnximport::Model& model, const std::filesystem::path& out, const ConvertOptions& options) {
    onnximport::write_onnx(model, out, options.write);
}

/// .ort: --external-data, when given, must name OUT's companion file, by its name or as OUT
/// plus `.data` (the one file the .ort reader looks for); --threshold keeps convert's
/// meaning (more than BYTES).
void write_ort_file(const onnximport::Model& model, const std::filesystem::path& out, const ConvertOptions& convert) {
    const onnximport::WriteOptions& options = convert.write;
    onnximport::OrtWriteOptions o;
    o.external = !options.external_data.empty();
    const std::string companion = out.filename().string() + ".data";
    if (o.external && options.external_data != companion && options.external_data != out.string() + ".data")
        throw onnximport::ImportError(onnximport::ErrorKind::Unsupported, out.string(), std::nullopt, {},
                                      "the external data of a .ort is always its companion file '" + companion +
                                          "', not '" + options.external_data + "'");
    o.threshold = options.threshold == UINT64_MAX ? UINT64_MAX : options.threshold + 1;
    o.alignment = options.alignment;
    o.threads = options.threads;
    o.progress = options.progress;
    // ONNX Runtime refuses a NodeArg without a type: say how many, and the first one.
    uint64_t untyped = 0;
    std::string first;
    o.untyped = [&](std::string_view value, std::string_view op) {
        if (untyped++ == 0)
            first = "'" + escape(value) + "'" + (op.empty() ? std::string(", a subgraph input") : " of " + escape(op));
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
