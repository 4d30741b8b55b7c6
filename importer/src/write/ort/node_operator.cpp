// The operator version of a node, or its refusal (node_operator.hpp).
#include "write/ort/node_operator.hpp"

#include "core/text.hpp"

namespace onnximport::detail {

namespace {

/// The names as read, control bytes escaped (core/text.hpp): a refusal's message holds none.
std::string operator_name(const Node& n, std::string_view op_type) {
    const std::string_view d = n.domain == "ai.onnx" ? std::string_view() : n.domain;
    return "operator " + escaped(op_type) + (d.empty() ? std::string() : " of domain " + escaped(d)) +
           " at opset " + std::to_string(n.opset_version);
}

}  // namespace

const OpSignature* node_operator(const Node& n, std::string_view op_type,
                                 std::map<std::string, const OpSignature*>& operators, std::string& why) {
    const OpSignature* s = find_op_signature(n.domain, op_type, n.opset_version);
    if (!s)
        why = operator_name(n, op_type) + " is not one of onnx 1.23's (ai.onnx, ai.onnx.ml, "
                                          "ai.onnx.preview.training): the .ort's kernel type-string resolver "
                                          "needs its signature";
    else if (s->status == OpStatus::Deprecated)
        why = operator_name(n, op_type) + " is deprecated since version " + std::to_string(s->since_version) +
              ": no operator to resolve";
    else if (s->status == OpStatus::FunctionOnly)
        why = operator_name(n, op_type) + " (version " + std::to_string(s->since_version) +
              ") runs in ONNX Runtime only as its function, which ONNX Runtime expands when it loads a .onnx, "
              "never a .ort: the .ort would not run (keep the .onnx)";
    else
        return operators.try_emplace(s->op_id(), s).first->second;
    return nullptr;
}

}  // namespace onnximport::detail
