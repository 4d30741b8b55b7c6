// `onnximport convert IN OUT`: imports IN (.onnx or .ort) and writes OUT in the format its
// extension names (formats.hpp), with external data at aligned offsets when asked.
#include "commands.hpp"
#include "formats.hpp"
#include "input.hpp"

#include <bit>
#include <climits>
#include <filesystem>
#include <iostream>
#include <sys/stat.h>
#include <unistd.h>

namespace onnximport::cli {

namespace {

/// Inputs above this get a progress line on stderr.
constexpr uint64_t progress_above = uint64_t{64} << 20;

onnximport::WriteOptions write_options(const ParsedArgs& args) {
    onnximport::WriteOptions o;
    if (auto it = args.values.find("--alignment"); it != args.values.end()) {
        o.external_data.alignment = static_cast<uint64_t>(parse_integer("--alignment", it->second, 1, long{1} << 30));
        if (!std::has_single_bit(o.external_data.alignment))
            throw UsageError("--alignment must be a power of two, not " + it->second);
    }
    if (auto it = args.values.find("--external-data"); it != args.values.end()) {
        if (it->second.empty()) throw UsageError("--external-data needs a file name");
        o.external_data.file = it->second;
    }
    if (auto it = args.values.find("--threshold"); it != args.values.end())
        o.external_data.threshold = static_cast<uint64_t>(parse_integer("--threshold", it->second, 0, LONG_MAX));
    return o;
}

/// "onnximport: convert: 42% (300 of 700 MiB)", rewritten in place on a terminal, ended once
/// complete; elsewhere (a log) only the complete line.
void show_progress(uint64_t done, uint64_t total) {
    const bool terminal = ::isatty(STDERR_FILENO) == 1;
    if (!terminal && done < total) return;
    std::cerr << (terminal ? "\r" : "") << "onnximport: convert: " << (total ? done * 100 / total : 100) << "% ("
              << (done >> 20) << " of " << (total >> 20) << " MiB)";
    if (done >= total) std::cerr << '\n';
    std::cerr << std::flush;
}

bool is_large(const std::string& operand) {
    struct stat st {};
    return operand != "-" && ::stat(operand.c_str(), &st) == 0 && static_cast<uint64_t>(st.st_size) > progress_above;
}

}  // namespace

int run_convert(const ParsedArgs& args) {
    const onnximport::ImportOptions options = import_options(args);
    ConvertOptions convert{write_options(args), args.has("--onnxruntime-limits")};
    onnximport::WriteOptions& write = convert.write;
    write.threads = options.threads;  // --threads: the reader's and the writer's
    if (args.operands.size() != 2) throw UsageError("convert: exactly IN and OUT");
    const std::string& in = args.operands[0];
    const std::filesystem::path out = args.operands[1];
    const OutputFormat* format = format_of(out);
    if (!format) throw UsageError("convert: OUT must end in .onnx or .ort, not '" + out.string() + "'");
    if (is_large(in)) write.progress = show_progress;
    auto refusal = refusal_of(in, [&] {
        onnximport::Model model = load_model(in, options);
        if (!format->write)
            throw onnximport::ImportError(onnximport::ErrorKind::Unsupported, out.string(), std::nullopt, {},
                                          "writing " + std::string(format->extension) + " is not supported yet");
        format->write(model, out, convert);
    });
    if (refusal) {
        print_error(refusal->what());
        return exit_refused;
    }
    return exit_ok;
}

}  // namespace onnximport::cli
