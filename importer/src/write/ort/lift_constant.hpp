// Constant nodes lifted to initializers, as ONNX Runtime runs them (lift_constant.cpp).
#pragma once

#include "write/ort/assembly.hpp"

namespace onnximport::detail {

/// The value attribute of a Constant node that becomes an initializer, or null: domain
/// "" or ai.onnx, no input, one named output, one value attribute.
const Attribute* constant_value(const Node& n) noexcept;
/// sparse_value: a sparse initializer rather than a dense one.
bool lifts_to_sparse(const Attribute& value) noexcept;
/// The dense initializer of a Constant (not sparse_value), named after its output.
flatbuffers::Offset<fb::Tensor> put_lifted(OrtAssembly& a, const Node& n, const Attribute& value);

}  // namespace onnximport::detail
