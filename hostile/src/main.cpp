// build/bin/hostile-gen: writes the hostile corpus (hostile/README.md;
// spec section 8) into OUTDIR. --committed leaves out the generated-only files (the
// 2 GiB sparse files, hard-link-only and 10^6-node cases) as in hostile/corpus/.
#include "corpus.hpp"

#include <cstring>
#include <exception>
#include <iostream>

int main(int argc, char** argv) {
    bool committed = false;
    const char* out = nullptr;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--committed")) committed = true;
        else if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) {
            std::cout << "usage: hostile-gen [--committed] OUTDIR\n"
                         "  writes <kind>-<case>.onnx, accept-<case>.onnx, side files and manifest.json\n"
                         "  --committed  leave out the generated-only files (as in hostile/corpus/)\n";
            return 0;
        } else if (!out && argv[i][0] != '-') out = argv[i];
        else {
            std::cerr << "hostile-gen: unexpected argument " << argv[i] << "\n";
            return 2;
        }
    }
    if (!out) {
        std::cerr << "usage: hostile-gen [--committed] OUTDIR\n";
        return 2;
    }
    try {
        hostile::Corpus c = hostile::build_corpus();
        c.write(out, committed);
        std::cout << "hostile-gen: " << c.cases().size() << " cases in " << out << "\n";
    } catch (const std::exception& e) {
        std::cerr << e.what() << "\n";
        return 1;
    }
    return 0;
}
