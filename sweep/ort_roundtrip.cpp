// build/bin/ort-roundtrip: the C++ side of the .ort round trip (conformance 3).
// For every DATA_DIR/<rel>/model.onnx: import it, write it as .ort with our writer, import
// that .ort with our reader, and dump both (sweep/DUMP_FORMAT.md); python/gauntlet/ort/roundtrip.py
// compares the dumps after the normalizations of docs/ort-normalizations.md.
//
//   ort-roundtrip [--external ALIGNMENT] DATA_DIR OUT_DIR
//
// Writes OUT_DIR/onnx/<rel>.dump and OUT_DIR/ort/<rel>.dump, and the .ort files in
// OUT_DIR/files/<rel>/model.ort (with model.ort.data in external mode: tensors of 64 bytes
// and more, at multiples of ALIGNMENT). A refusal is a .refused file instead of the dump
// (KIND OFFSET FIELD_PATH MESSAGE); one by the writer is OUT_DIR/ort/<rel>.write-refused.
// The values the writer leaves without a type (docs/ort.md, "What is written") are listed
// in OUT_DIR/ort/<rel>.untyped, one "VALUE<TAB>OPERATOR" a line, when there are any.
// Exit 0, or 2 on a usage or I/O error. The last line gives the counts.
#include <onnximport/dump.hpp>
#include <onnximport/import.hpp>
#include <onnximport/write_ort.hpp>

#include "sweep_files.hpp"

#include <iostream>
#include <sstream>
#include <string>

namespace fs = std::filesystem;

namespace {

constexpr int exit_ok = 0, exit_usage = 2;

std::string dump_of(const onnximport::Model& m) {
    std::ostringstream os;
    onnximport::write_dump(m, os);
    return std::move(os).str();
}

struct Counts {
    size_t models = 0, onnx_refused = 0, write_refused = 0, read_refused = 0, untyped_models = 0;
};

/// One model: false on an I/O error of this program.
bool round_trip(const fs::path& data, const fs::path& out, const std::string& rel,
                onnximport::OrtWriteOptions options, Counts& n) {
    onnximport::Model original;
    try {
        original = onnximport::import_file(data / rel / "model.onnx");
    } catch (const onnximport::ImportError& e) {
        ++n.onnx_refused;
        return sweep::write_file(out / "onnx" / (rel + ".refused"), sweep::refusal_record(e));
    }
    if (!sweep::write_file(out / "onnx" / (rel + ".dump"), dump_of(original))) return false;
    const fs::path file = out / "files" / rel / "model.ort";
    fs::create_directories(file.parent_path());
    std::string untyped;
    options.untyped = [&](std::string_view value, std::string_view op) {
        untyped.append(value).append("\t").append(op).append("\n");
    };
    try {
        onnximport::write_ort_file(original, file, options);
    } catch (const onnximport::ImportError& e) {
        ++n.write_refused;
        return sweep::write_file(out / "ort" / (rel + ".write-refused"), sweep::refusal_record(e));
    }
    if (!untyped.empty()) {
        ++n.untyped_models;
        if (!sweep::write_file(out / "ort" / (rel + ".untyped"), untyped)) return false;
    }
    try {
        return sweep::write_file(out / "ort" / (rel + ".dump"), dump_of(onnximport::import_file(file)));
    } catch (const onnximport::ImportError& e) {
        ++n.read_refused;
        return sweep::write_file(out / "ort" / (rel + ".refused"), sweep::refusal_record(e));
    }
}

}  // namespace

int main(int argc, char** argv) {
    onnximport::OrtWriteOptions options;
    if (argc == 5 && std::string(argv[1]) == "--external") {
        options.external_data.file = "model.ort.data";  // every model is written as model.ort
        options.external_data.threshold = 64;
        options.external_data.alignment = std::stoull(argv[2]);
        argv += 2;
        argc -= 2;
    }
    if (argc != 3) {
        std::cerr << "usage: ort-roundtrip [--external ALIGNMENT] DATA_DIR OUT_DIR\n";
        return exit_usage;
    }
    const fs::path data = argv[1], out = argv[2];
    Counts n;
    try {
        for (const auto& rel : sweep::find_models(data, "model.onnx")) {
            ++n.models;
            if (!round_trip(data, out, rel, options, n)) {
                std::cerr << "ort-roundtrip: cannot write under " << out.string() << '\n';
                return exit_usage;
            }
        }
    } catch (const fs::filesystem_error& e) {
        std::cerr << "ort-roundtrip: " << e.what() << '\n';
        return exit_usage;
    }
    std::cout << "ort-roundtrip: " << n.models << " models, " << n.onnx_refused << " refused by the importer, "
              << n.write_refused << " by the writer, " << n.read_refused << " .ort refused by the reader, "
              << n.untyped_models << " written with untyped values\n";
    return exit_ok;
}
