// CastLike as Cast (cast_like.hpp).
#include "write/ort/cast_like.hpp"

#include "format/ort_data_type.hpp"

namespace onnximport::detail {

int32_t cast_like_to(const InferredTypes& inferred, const Node& n, std::span<const Graph* const> scopes) {
    if (n.op_type != "CastLike" || (!n.domain.empty() && n.domain != "ai.onnx")) return 0;
    if (n.inputs.size() != 2 || n.inputs[0].empty() || n.inputs[1].empty()) return 0;
    const ValueType t = inferred.type_of(n.inputs[1], scopes);
    return t.kind == ValueType::Kind::Tensor && t.elem <= max_ort_data_type ? t.elem : 0;
}

Attribute cast_to_attribute(int32_t to) {
    Attribute at;
    at.name = "to";
    at.i = to;
    at.type = AttributeType::Int;
    at.type_declared = true;
    return at;
}

std::span<const std::string_view> written_inputs(const Node& n, int32_t cast_to) noexcept {
    return {n.inputs.data(), cast_to ? size_t{1} : n.inputs.size()};
}

}  // namespace onnximport::detail
