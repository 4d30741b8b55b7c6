// The kernel type-string resolver (docs/ort.md, "The kernel type-string resolver"): for each
// operator version the graph's nodes are written as, ONNX Runtime's op_id and, per kernel type
// string, the formal inputs and outputs that carry it, from the generated operator table
// (op_signatures.hpp). ONNX Runtime's kernel look-up for a .ort reads it (minimal builds
// only it; full builds check it: "Failed to find op_id" otherwise). The op_ids are written
// sorted as strings and the type strings sorted in the table: FlatBuffers key order.
#include "write/ort/assembly.hpp"

#include <string>
#include <vector>

namespace onnximport::detail {

namespace {

std::string operator_name(const Node& n, std::string_view op_type) {
    const std::string_view d = n.domain == "ai.onnx" ? std::string_view() : n.domain;
    return "operator " + std::string(op_type) + (d.empty() ? std::string() : " of domain " + std::string(d)) +
           " at opset " + std::to_string(n.opset_version);
}

}  // namespace

const OpSignature& node_operator(OrtAssembly& a, const Node& n, std::string_view op_type) {
    const OpSignature* s = find_op_signature(n.domain, op_type, n.opset_version);
    if (!s)
        a.unsupported(operator_name(n, op_type) + " is not one of onnx 1.23's (ai.onnx, ai.onnx.ml, "
                      "ai.onnx.preview.training): the .ort's kernel type-string resolver needs its signature",
                      "op_type");
    if (s->status == OpStatus::Deprecated)
        a.unsupported(operator_name(n, op_type) + " is deprecated since version " +
                          std::to_string(s->since_version) + ": no operator to resolve",
                      "op_type");
    if (s->status == OpStatus::FunctionOnly)
        a.unsupported(operator_name(n, op_type) + " (version " + std::to_string(s->since_version) +
                          ") runs in ONNX Runtime only as its function, which ONNX Runtime expands when it loads a "
                          ".onnx, never a .ort: the .ort would not run (keep the .onnx)",
                      "op_type");
    a.operators.try_emplace(s->op_id(), s);
    return *s;
}

flatbuffers::Offset<fb::KernelTypeStrResolver> put_resolver(OrtAssembly& a) {
    std::vector<flatbuffers::Offset<fb::OpIdKernelTypeStrArgsEntry>> ops;
    for (const auto& [op_id, signature] : a.operators) {
        std::vector<flatbuffers::Offset<fb::KernelTypeStrArgsEntry>> strs;
        for (const KernelTypeStr& s : signature->type_strs()) {
            std::vector<flatbuffers::Offset<fb::ArgTypeAndIndex>> args;
            for (const KernelArg& arg : signature->args(s))
                args.push_back(fb::CreateArgTypeAndIndex(a.fbb, static_cast<fb::ArgType>(arg.is_output), arg.index));
            const auto args_at = a.fbb.CreateVector(args);
            const auto name = a.fbb.CreateString(s.name.data(), s.name.size());
            strs.push_back(fb::CreateKernelTypeStrArgsEntry(a.fbb, name, args_at));
        }
        const auto strs_at = a.fbb.CreateVector(strs);
        const auto id = a.fbb.CreateString(op_id);
        ops.push_back(fb::CreateOpIdKernelTypeStrArgsEntry(a.fbb, id, strs_at));
    }
    const auto all = a.fbb.CreateVector(ops);
    return fb::CreateKernelTypeStrResolver(a.fbb, all);
}

}  // namespace onnximport::detail
