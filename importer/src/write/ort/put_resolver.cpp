// The kernel type-string resolver (docs/ort.md, "The kernel type-string resolver"): for each
// operator version the graph's nodes are written as (chosen by the lowering pass,
// node_operator.hpp), ONNX Runtime's op_id and, per kernel type string, the formal inputs and
// outputs that carry it, from the generated operator table (op_signatures.hpp). ONNX Runtime's
// kernel look-up for a .ort reads it (minimal builds only it; full builds check it: "Failed to
// find op_id" otherwise). The op_ids are written
// sorted as strings and the type strings sorted in the table: FlatBuffers key order.
#include "write/ort/put_resolver.hpp"

#include <vector>

namespace onnximport::detail {

namespace fb = ::onnximport::ortfb;

flatbuffers::Offset<fb::KernelTypeStrResolver> put_resolver(
    flatbuffers::FlatBufferBuilder& fbb, const std::map<std::string, const OpSignature*>& operators) {
    std::vector<flatbuffers::Offset<fb::OpIdKernelTypeStrArgsEntry>> ops;
    for (const auto& [op_id, signature] : operators) {
        std::vector<flatbuffers::Offset<fb::KernelTypeStrArgsEntry>> strs;
        for (const KernelTypeStr& s : signature->type_strs()) {
            std::vector<flatbuffers::Offset<fb::ArgTypeAndIndex>> args;
            for (const KernelArg& arg : signature->args(s))
                args.push_back(fb::CreateArgTypeAndIndex(fbb, static_cast<fb::ArgType>(arg.is_output), arg.index));
            const auto args_at = fbb.CreateVector(args);
            const auto name = fbb.CreateString(s.name.data(), s.name.size());
            strs.push_back(fb::CreateKernelTypeStrArgsEntry(fbb, name, args_at));
        }
        const auto strs_at = fbb.CreateVector(strs);
        const auto id = fbb.CreateString(op_id);
        ops.push_back(fb::CreateOpIdKernelTypeStrArgsEntry(fbb, id, strs_at));
    }
    const auto all = fbb.CreateVector(ops);
    return fb::CreateKernelTypeStrResolver(fbb, all);
}

}  // namespace onnximport::detail
