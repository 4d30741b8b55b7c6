// The one choke point for refusals while reading (spec section 7).
#include "onnx/context.hpp"

namespace onnximport::detail {

std::string Context::path_string(std::string_view leaf) const {
    std::string s;
    for (size_t i = 0; i < path_size && i < max_path; ++i) {
        if (i) s += '.';
        s.append(path[i].name, path[i].name_size);
        if (path[i].index >= 0) {
            s += '[';
            s += std::to_string(path[i].index);
            s += ']';
        }
    }
    if (!leaf.empty()) {
        s += '.';
        s += leaf;
    }
    return s;
}

void Context::fail(ErrorKind kind, const uint8_t* at, const std::string& message,
                   std::string_view leaf) const {
    std::optional<uint64_t> offset;
    if (at) offset = offset_of(at);
    throw ImportError(kind, storage.source_name, offset, path_string(leaf), message);
}

}  // namespace onnximport::detail
