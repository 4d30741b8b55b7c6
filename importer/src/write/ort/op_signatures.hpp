// The operator facts the .ort writer needs (docs/ort.md, "The kernel type-string resolver"):
// for every operator version of onnx 1.23 (default domain, ai.onnx.ml,
// ai.onnx.preview.training), its kernel type strings and the formal inputs and outputs that
// carry each, and whether ONNX Runtime runs it only as a function. Generated at build time
// by importer/schema/gen_op_signatures.py from importer/schema/*.tsv, never edited by hand.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace onnximport::detail {

/// One formal parameter that carries a kernel type string.
struct KernelArg {
    uint8_t is_output;  ///< ArgType: INPUT 0, OUTPUT 1
    uint32_t index;     ///< the formal parameter's position
};

struct KernelTypeStr {
    std::string_view name;  ///< a type-constraint name, or the parameter's own for a fixed type
    uint32_t first_arg;
    uint32_t arg_count;
};

enum class OpStatus : uint8_t {
    Kernel,        ///< ONNX Runtime may have a kernel for it
    FunctionOnly,  ///< ONNX Runtime expands its function when it loads a .onnx, and has no kernel
    Deprecated,    ///< no operator at this version: ONNX's schema is deprecated
};

struct OpSignature {
    std::string_view domain;  ///< "" for ai.onnx
    std::string_view op_type;
    int32_t since_version;
    uint32_t first_str;
    uint32_t str_count;
    OpStatus status;

    /// ONNX Runtime's key of the operator: "domain:op_type:since_version".
    std::string op_id() const;
    std::span<const KernelTypeStr> type_strs() const noexcept;
    std::span<const KernelArg> args(const KernelTypeStr& s) const noexcept;
};

/// The operator version a node of `op_type` in `domain` ("" or "ai.onnx" for the default)
/// runs at under opset `opset_version`: the highest since_version not above it; null when
/// the table has none.
const OpSignature* find_op_signature(std::string_view domain, std::string_view op_type, int64_t opset_version);

/// The whole table, sorted by (domain, op_type, since_version).
std::span<const OpSignature> all_op_signatures() noexcept;

}  // namespace onnximport::detail
