// The operator version a node is written as (docs/ort.md, "The kernel type-string resolver"),
// and the refusal of an operator the .ort cannot run: part of the lowering pass (lower.hpp).
#pragma once

#include "write/ort/op_signatures.hpp"

#include <onnximport/model.hpp>

#include <map>
#include <string>
#include <string_view>

namespace onnximport::detail {

/// The operator version a node of `op_type` runs at, recorded in `operators` by op_id; null,
/// with `why` the refusal's message, for an operator outside the table, deprecated at the
/// node's opset, or one ONNX Runtime runs only as a function (op_signatures.hpp).
const OpSignature* node_operator(const Node& n, std::string_view op_type,
                                 std::map<std::string, const OpSignature*>& operators, std::string& why);

}  // namespace onnximport::detail
