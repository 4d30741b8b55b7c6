// Reading a model from a file or from standard input (docs/cli.md, "Options").
#include "input.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace onnximport::cli {

namespace {

/// Standard input, up to one byte past the largest model so the importer refuses an
/// oversized one with its own kind instead of this reading without end.
std::vector<uint8_t> read_stdin() {
    constexpr size_t limit = (size_t{1} << 31);
    std::vector<uint8_t> bytes;
    uint8_t buffer[1 << 16];
    while (bytes.size() < limit) {
        ssize_t n = ::read(STDIN_FILENO, buffer, std::min(sizeof buffer, limit - bytes.size()));
        if (n == 0) break;
        if (n < 0 && errno == EINTR) continue;
        if (n < 0)
            throw onnximport::ImportError(onnximport::ErrorKind::Io, "-", bytes.size(), {},
                                          std::string("reading standard input failed: ") + std::strerror(errno));
        bytes.insert(bytes.end(), buffer, buffer + n);
    }
    return bytes;
}

}  // namespace

onnximport::Model load_model(const std::string& operand, const onnximport::ImportOptions& options) {
    if (operand == "-") return onnximport::import_bytes(read_stdin(), "-", options);
    return onnximport::import_file(operand, options);
}

onnximport::ImportError truncated_error(const std::string& operand) {
    return onnximport::ImportError(onnximport::ErrorKind::Io, operand, std::nullopt, {},
                                   "the file shrank while it was mapped (another process truncated it)");
}

}  // namespace onnximport::cli
