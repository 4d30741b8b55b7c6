// The subcommand table with each one's options and help, and what the subcommands share.
#include "commands.hpp"

#include "escape.hpp"

#include <iostream>

namespace onnximport::cli {

namespace {

constexpr OptionSpec check_specs[] = {{"--max-nesting", true}, {"--external-dir", true},        {"--threads", true},
                                      {"--ort-data", true},    {"--json", false},               {"--format", true},
                                      {"--onnxruntime-limits", false}};
constexpr OptionSpec bench_specs[] = {{"--max-nesting", true}, {"--external-dir", true}, {"--threads", true},
                                      {"--ort-data", true},    {"--json", false},        {"--repeat", true},
                                      {"--memory", false},     {"--steps", false}};
constexpr OptionSpec convert_specs[] = {{"--max-nesting", true},   {"--external-dir", true}, {"--ort-data", true},
                                        {"--alignment", true},     {"--external-data", true}, {"--threshold", true},
                                        {"--threads", true},       {"--onnxruntime-limits", false}};

constexpr std::string_view check_help =
    "usage: onnximport check [--max-nesting N] [--external-dir DIR] [--threads N] [--ort-data FILE] [--json]\n"
    "                        [--format onnx|ort] [--onnxruntime-limits] [--] FILE...\n"
    "  Imports each FILE (- is standard input) and prints one line per file:\n"
    "    FILE<TAB>ok\n"
    "    FILE<TAB>KIND<TAB>OFFSET<TAB>FIELD_PATH<TAB>MESSAGE   ('-' when unknown)\n"
    "  every field escaped (\\\\ \\t \\n \\r \\xHH), so a line is always one line of 2 or 5 fields.\n"
    "  --json: one JSON object per line instead.\n"
    "  --ort-data FILE: a .ort model's companion file (its external tensors' bytes), beneath the\n"
    "  external-data directory; default: the model's file name plus .data (docs/ort.md).\n"
    "  --format onnx|ort: read every FILE as that format; by default the content decides, and a\n"
    "  file valid as both is refused (docs/rules.md O1, O16).\n"
    "  --onnxruntime-limits: also refuse a .ort that ONNX Runtime's loader would refuse for its\n"
    "  verifier's limits (tables 64 deep, 1,000,000 tables; docs/rules.md O2).\n"
    "  Exit 0 if every file imported, 1 if any was refused, 2 for a usage error.\n";
constexpr std::string_view dump_help =
    "usage: onnximport dump [--max-nesting N] [--external-dir DIR] [--threads N] [--ort-data FILE] [--] FILE\n"
    "  Writes the structural dump (sweep/DUMP_FORMAT.md) of FILE (- is standard input).\n"
    "  --ort-data FILE: a .ort model's companion file (its external tensors' bytes), beneath the\n"
    "  external-data directory; default: the model's file name plus .data (docs/ort.md).\n"
    "  Exit 0 when dumped, 1 when refused (the reason on stderr), 2 for a usage error.\n";
constexpr std::string_view bench_help =
    "usage: onnximport bench [--json] [--repeat N] [--memory] [--steps] [--max-nesting N] [--external-dir DIR]\n"
    "                        [--threads N] [--ort-data FILE] [--] FILE\n"
    "  Import timings, mapped and read: median, min and max of N runs (default 5, 1..10000)\n"
    "  after a warm-up, and the peak resident size, each mode in its own child process whose\n"
    "  imports reuse one Workspace. --memory adds a mode that imports the file's bytes, read\n"
    "  once before the clock (import_bytes): the import without opening, reading or mapping.\n"
    "  --steps: also the median time of each step of the import (ImportOptions::times).\n"
    "  Exit 0 when every mode was measured, 1 when any failed, 2 for a usage error.\n";
constexpr std::string_view convert_help =
    "usage: onnximport convert [--alignment N] [--external-data FILE] [--threshold BYTES] [--threads N]\n"
    "                          [--max-nesting N] [--external-dir DIR] [--ort-data FILE] [--onnxruntime-limits]\n"
    "                          [--] IN OUT\n"
    "  Imports IN (.onnx or .ort) and writes OUT in the format of its extension (.onnx or .ort; for\n"
    "  .ort, FILE must be OUT.data).\n"
    "  --external-data FILE: tensors of more than BYTES (default 1024) go to FILE beside OUT, each at\n"
    "  an offset that is a multiple of N (a power of two, default 4096); --threads N read and write.\n"
    "  --onnxruntime-limits: refuse a .ort beyond what ONNX Runtime's loader verifies by default\n"
    "  (tables 64 deep, 1,000,000 tables) instead of writing it with a line on stderr.\n"
    "  No output replaces IN or a file IN reads (compared by device and inode).\n"
    "  OUT and FILE appear whole or not at all; no link is followed. A progress line on stderr for\n"
    "  inputs over 64 MiB. Exit 0 when written, 1 when refused (the reason on stderr), 2 for a usage error.\n";

constexpr Command table[] = {
    {"check", check_specs, check_help, run_check},
    {"dump", import_option_specs, dump_help, run_dump},
    {"bench", bench_specs, bench_help, run_bench},
    {"convert", convert_specs, convert_help, run_convert},
};

}  // namespace

std::span<const Command> commands() { return table; }

onnximport::ImportOptions import_options(const ParsedArgs& args) {
    onnximport::ImportOptions options;
    if (auto it = args.values.find("--max-nesting"); it != args.values.end())
        options.max_nesting = static_cast<int>(parse_integer("--max-nesting", it->second,
                                                             onnximport::ImportOptions::min_nesting_limit,
                                                             onnximport::ImportOptions::max_nesting_limit));
    if (auto it = args.values.find("--external-dir"); it != args.values.end()) {
        if (it->second.empty()) throw UsageError("--external-dir needs a directory");
        options.external_data_dir = it->second;
    }
    if (auto it = args.values.find("--ort-data"); it != args.values.end()) {
        if (it->second.empty()) throw UsageError("--ort-data needs a file name");
        options.ort_external_data = it->second;
    }
    if (auto it = args.values.find("--format"); it != args.values.end()) {
        if (it->second != "onnx" && it->second != "ort") throw UsageError("--format takes onnx or ort");
        options.format = it->second == "ort" ? onnximport::ModelFormat::Ort : onnximport::ModelFormat::Onnx;
    }
    options.onnxruntime_limits = args.has("--onnxruntime-limits");
    if (auto it = args.values.find("--threads"); it != args.values.end())
        options.threads =
            static_cast<unsigned>(parse_integer("--threads", it->second, 1, onnximport::ImportOptions::max_threads));
    return options;
}

void print_error(std::string_view text) { std::cerr << "onnximport: " << escape(text) << '\n'; }

}  // namespace onnximport::cli
