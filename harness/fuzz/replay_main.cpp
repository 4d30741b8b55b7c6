// The standalone replay driver: a main() for the fuzz targets built without
// libFuzzer, with the normal compiler. It runs LLVMFuzzerTestOneInput once per file, so
// `make test` replays the regression corpus and the seeds; a broken invariant or a
// sanitizer finding aborts with the file's name printed just before.
//
// usage: TARGET_replay FILE_OR_DIR...   (directories recursively; *.txt, *.md and
// dot-files are skipped so reproducer notes can sit next to their inputs; so are
// symbolic links)
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);

namespace fs = std::filesystem;

namespace {

bool is_input(const fs::path& p) {
    const std::string name = p.filename().string();
    if (name.empty() || name[0] == '.') return false;
    const std::string ext = p.extension().string();
    return ext != ".txt" && ext != ".md";
}

}  // namespace

int main(int argc, char** argv) {
    if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
    std::vector<fs::path> files;
    for (int i = 1; i < argc; ++i) {
        const fs::path arg = argv[i];
        std::error_code ec;
        if (fs::is_directory(arg, ec)) {
            // Symbolic links are not inputs (the hostile corpus holds loops and links
            // that lead outside, for the external-data checks); only regular files are.
            for (const auto& entry : fs::recursive_directory_iterator(arg)) {
                std::error_code entry_ec;
                if (entry.is_symlink(entry_ec) || !entry.is_regular_file(entry_ec)) continue;
                if (is_input(entry.path())) files.push_back(entry.path());
            }
        } else if (fs::is_regular_file(arg, ec)) {
            files.push_back(arg);
        } else {
            std::fprintf(stderr, "replay: no such file or directory: %s\n", argv[i]);
            return 2;
        }
    }
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
        std::ifstream in(f, std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (!in.good() && !in.eof()) {
            std::fprintf(stderr, "replay: cannot read %s\n", f.c_str());
            return 2;
        }
        // An exact-size heap copy, so ASan sees any read past the end of the input.
        std::unique_ptr<uint8_t[]> copy(new uint8_t[bytes.size() ? bytes.size() : 1]);
        std::copy(bytes.begin(), bytes.end(), copy.get());
        std::fprintf(stderr, "replay: %s\n", f.c_str());
        LLVMFuzzerTestOneInput(copy.get(), bytes.size());
    }
    std::printf("replayed %zu inputs\n", files.size());
    return 0;
}
