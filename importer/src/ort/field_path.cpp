// Resolution's field paths in the .ort schema's names (rule O13): resolution runs on the
// Model whatever it was read from and names ModelProto's fields; the segments it uses map
// one to one onto the .ort tables, whose lists keep the file's order.
#include "ort/reader.hpp"

#include <array>
#include <string>
#include <utility>

namespace onnximport::detail {

namespace {

/// ModelProto's segment -> the .ort schema's (the same index).
constexpr std::array<std::pair<std::string_view, std::string_view>, 8> renamed{{
    {"node", "nodes"},
    {"attribute", "attributes"},
    {"input", "inputs"},
    {"output", "outputs"},
    {"initializer", "initializers"},
    {"sparse_initializer", "sparse_initializers"},
    {"g", "g"},
    {"graphs", "graphs"},
}};

std::string_view renamed_segment(std::string_view name) {
    for (const auto& [onnx, ort] : renamed)
        if (name == onnx) return ort;
    return name;
}

}  // namespace

std::string ort_field_path(std::string_view onnx_path) {
    constexpr std::string_view root = "ModelProto.graph";
    if (onnx_path.substr(0, root.size()) != root) return std::string(onnx_path);
    std::string out = "InferenceSession.model.graph";
    std::string_view rest = onnx_path.substr(root.size());
    while (!rest.empty()) {  // ".name" or ".name[i]"
        rest.remove_prefix(1);
        const size_t end = rest.find('.');
        const std::string_view segment = rest.substr(0, end);
        const size_t bracket = segment.find('[');
        out.append(".").append(renamed_segment(segment.substr(0, bracket)));
        if (bracket != std::string_view::npos) out.append(segment.substr(bracket));
        rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end);
    }
    return out;
}

}  // namespace onnximport::detail
