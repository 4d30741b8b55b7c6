// The operator version of a node, or its refusal (node_operator.hpp).
#include "write/ort/node_operator.hpp"

namespace onnximport::detail {

namespace {

std::string operator_name(const Node& n, std::string_view op_type) {
    const std::string_view d = n.domain == "ai.onnx" ? std::string_view() : n.domain;
    return "operator " + std::string(op_type) + (d.empty() ? std::string() : " of domain " + std::string(d)) +
           " at opset " + std::to_string(n.opset_version);
}

[[noreturn]] void unsupported(const Refusal& refusal, const std::string& message) {
    refusal.fail(ErrorKind::Unsupported, nullptr, message, "op_type");
}

}  // namespace

const OpSignature& node_operator(const Refusal& refusal, const Node& n, std::string_view op_type,
                                 std::map<std::string, const OpSignature*>& operators) {
    const OpSignature* s = find_op_signature(n.domain, op_type, n.opset_version);
    if (!s)
        unsupported(refusal, operator_name(n, op_type) + " is not one of onnx 1.23's (ai.onnx, ai.onnx.ml, "
                             "ai.onnx.preview.training): the .ort's kernel type-string resolver needs its signature");
    if (s->status == OpStatus::Deprecated)
        unsupported(refusal, operator_name(n, op_type) + " is deprecated since version " +
                                 std::to_string(s->since_version) + ": no operator to resolve");
    if (s->status == OpStatus::FunctionOnly)
        unsupported(refusal, operator_name(n, op_type) + " (version " + std::to_string(s->since_version) +
                             ") runs in ONNX Runtime only as its function, which ONNX Runtime expands when it "
                             "loads a .onnx, never a .ort: the .ort would not run (keep the .onnx)");
    operators.try_emplace(s->op_id(), s);
    return *s;
}

}  // namespace onnximport::detail
