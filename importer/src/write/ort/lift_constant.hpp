// Constant nodes lifted to initializers, as ONNX Runtime runs them (lift_constant.cpp).
// Part of the lowering pass (lower.hpp): put_graph.cpp writes what it decides.
#pragma once

#include "write/ort/plan.hpp"

namespace onnximport::detail {

/// The value attribute of a Constant node that becomes an initializer, or null: domain
/// "" or ai.onnx, no input, one named output, one value attribute.
const Attribute* constant_value(const Node& n) noexcept;
/// sparse_value: a sparse initializer rather than a dense one.
bool lifts_to_sparse(const Attribute& value) noexcept;
/// The initializer a Constant becomes, named after its output; refused for a `value` without
/// a tensor or a `sparse_value` without a sparse tensor.
LiftedConstant lift_constant(const Node& n, const Attribute& value);

}  // namespace onnximport::detail
