// The generated operator table (op_signatures.hpp) and its look-up.
#include "write/ort/op_signatures.hpp"

#include <algorithm>
#include <tuple>

namespace onnximport::detail {

namespace {

#include <op_signatures.inc>  // generated into the build tree (CMakeLists.txt)

}  // namespace

std::string OpSignature::op_id() const {
    return std::string(domain) + ":" + std::string(op_type) + ":" + std::to_string(since_version);
}

std::span<const KernelTypeStr> OpSignature::type_strs() const noexcept {
    return std::span<const KernelTypeStr>(kernel_type_strs).subspan(first_str, str_count);
}

std::span<const KernelArg> OpSignature::args(const KernelTypeStr& s) const noexcept {
    return std::span<const KernelArg>(kernel_args).subspan(s.first_arg, s.arg_count);
}

const OpSignature* find_op_signature(std::string_view domain, std::string_view op_type, int64_t opset_version) {
    if (domain == "ai.onnx") domain = {};
    const auto key = [](const OpSignature& s) { return std::tuple(s.domain, s.op_type, int64_t{s.since_version}); };
    const auto after = std::upper_bound(std::begin(op_signatures), std::end(op_signatures),
                                        std::tuple(domain, op_type, opset_version),
                                        [&](const auto& k, const OpSignature& s) { return k < key(s); });
    if (after == std::begin(op_signatures)) return nullptr;
    const OpSignature& found = *(after - 1);
    return found.domain == domain && found.op_type == op_type ? &found : nullptr;
}

std::span<const OpSignature> all_op_signatures() noexcept { return op_signatures; }

}  // namespace onnximport::detail
