// CastLike written as the Cast of its function body (docs/ort-normalizations.md,
// "castlike-as-cast"): ONNX defines CastLike as Cast with `to` the element type of its
// second input, target_type. ONNX Runtime has no CastLike kernel; it expands the function
// when it loads a .onnx, not when it loads a .ort. Part of the lowering pass (lower.hpp).
#pragma once

#include "write/ort/infer_types.hpp"

#include <cstdint>
#include <span>
#include <string_view>

namespace onnximport::detail {

/// The `to` of the Cast a CastLike node becomes: target_type's element type as the type
/// inference sees it from the innermost of `scopes` (the node's graph last); 0 when `n` is
/// not a CastLike of domain "" or ai.onnx, or target_type's type is not a known tensor type.
int32_t cast_like_to(const InferredTypes& inferred, const Node& n, std::span<const Graph* const> scopes);

/// Cast's `to` attribute, appended to a CastLike's own attributes when it is written as Cast.
Attribute cast_to_attribute(int32_t to);

/// The inputs written for `n`: a CastLike written as Cast reads its input only.
std::span<const std::string_view> written_inputs(const Node& n, int32_t cast_to) noexcept;

}  // namespace onnximport::detail
