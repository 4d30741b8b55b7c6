// build/bin/dump-all: the C++ side of the backend-test sweep (spec section 8). Imports
// every model.onnx under a data directory in one process and writes one dump per model
// (sweep/DUMP_FORMAT.md), so the sweep's C++ side pays no process start per model.
//
//   dump-all [--file NAME] DATA_DIR OUT_DIR
//
// NAME (default model.onnx; model.ort for tools/ort_conformance.sh) is the file looked for.
// For DATA_DIR/<rel>/model.onnx it writes OUT_DIR/<rel>.dump, or, when the importer
// refuses the model, OUT_DIR/<rel>.refused holding KIND<TAB>OFFSET<TAB>FIELD_PATH<TAB>
// MESSAGE. Exit 0 when every model imported, 1 when any was refused, 2 on a usage or
// I/O error or when DATA_DIR holds no model. The last line on stdout gives the count
// and the wall time.
#include <onnximport/dump.hpp>
#include <onnximport/import.hpp>

#include "sweep_files.hpp"

#include <chrono>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>

namespace fs = std::filesystem;

namespace {

constexpr int exit_ok = 0, exit_refused = 1, exit_usage = 2;

}  // namespace

int main(int argc, char** argv) {
    std::string file = "model.onnx";
    if (argc == 5 && std::string(argv[1]) == "--file") {
        file = argv[2];
        argv += 2;
        argc -= 2;
    }
    if (argc != 3 || std::string(argv[1]) == "--help") {
        std::cerr << "usage: dump-all [--file NAME] DATA_DIR OUT_DIR\n"
                     "  dumps DATA_DIR/<rel>/NAME (default model.onnx) to OUT_DIR/<rel>.dump (or <rel>.refused)\n";
        return argc == 2 ? exit_ok : exit_usage;
    }
    const fs::path data = argv[1], out = argv[2];
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::string> rels;
    try {
        rels = sweep::find_models(data, file);
    } catch (const fs::filesystem_error& e) {
        std::cerr << "dump-all: " << e.what() << '\n';
        return exit_usage;
    }
    if (rels.empty()) {  // an empty sweep must not look like a clean one
        std::cerr << "dump-all: no " << file << " under " << data.string() << '\n';
        return exit_usage;
    }
    size_t refused = 0;
    for (const auto& rel : rels) {
        std::string text, ext = ".dump";
        try {
            auto model = onnximport::import_file(data / rel / file);
            std::ostringstream os;
            onnximport::write_dump(model, os);
            text = std::move(os).str();
        } catch (const onnximport::ImportError& e) {
            ++refused;
            ext = ".refused";
            text = sweep::refusal_record(e);
        }
        if (!sweep::write_file(out / (rel + ext), text)) {
            std::cerr << "dump-all: cannot write " << (out / (rel + ext)).string() << '\n';
            return exit_usage;
        }
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << "dump-all: " << rels.size() << " models, " << refused << " refused, " << seconds << " s\n";
    return refused ? exit_refused : exit_ok;
}
