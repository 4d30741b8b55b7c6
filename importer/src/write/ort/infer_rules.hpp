// The operator rules of the .ort writer's type inference (docs/ort.md, "What is written"):
// for each operator of the domains "" (ai.onnx), ai.onnx.ml and ai.onnx.preview.training,
// where each output's element type comes from, as the ONNX operator documentation states
// it: an input's type, a fixed type, an attribute, or a sequence made of an input. The
// operators with subgraphs (If, Loop, Scan, SequenceMap) are infer_types.cpp's.
#pragma once

#include "write/ort/value_type.hpp"

#include <cstddef>
#include <span>

namespace onnximport::detail {

/// The type of output `k` of `n` from its operator's rule; `inputs[i]` is the type of
/// n.inputs[i] (Unknown when omitted or not known). Unknown when the operator has no rule,
/// the rule no output k, or what the rule reads is unknown: inference never guesses.
ValueType rule_output_type(const Node& n, size_t k, std::span<const ValueType> inputs);

}  // namespace onnximport::detail
