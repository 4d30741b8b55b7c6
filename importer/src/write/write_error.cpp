// The writers' refusals, through the importer's one choke point.
#include "write/write_error.hpp"

#include "core/refusal.hpp"

#include <onnximport/options.hpp>

#include <cstring>
#include <string>

namespace onnximport::detail {

void fail_io(std::string_view path, const std::string& what, int error, std::optional<uint64_t> offset) {
    refuse(ErrorKind::Io, path, offset, {}, what + ": " + std::strerror(error));
}

void fail_request(std::string_view path, const std::string& message, ErrorKind kind, std::string field_path) {
    refuse(kind, path, std::nullopt, std::move(field_path), message);
}

void check_threads(std::string_view path, unsigned threads) {
    if (threads < 1 || threads > ImportOptions::max_threads)
        fail_request(path, "threads must be 1 to " + std::to_string(ImportOptions::max_threads) + ", not " +
                               std::to_string(threads));
}

}  // namespace onnximport::detail
