// What the .ort writer writes, decided before any table is built (docs/ort.md, "Writing"):
// the lowering pass (lower.hpp) turns a resolved Model into this plan from the operators'
// facts; the put_*.cpp files serialize it with the format's facts. No FlatBuffers here.
// A part the lowering refuses carries its refusal, raised when the serialization reaches it:
// of several problems of a model, the first in written order is the one reported.
#pragma once

#include "write/ort/op_signatures.hpp"
#include "write/ort/value_type.hpp"

#include <onnximport/model.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace onnximport::detail {

/// Why a part cannot be written: an ImportError(Unsupported) at the part's path, `leaf` after it.
struct LoweringRefusal {
    std::string message;
    std::string_view leaf;
};

/// A Constant node written as an initializer named after its output (lift_constant.hpp).
struct LiftedConstant {
    enum class Kind : uint8_t { Tensor, Owned, Strings, Sparse };
    const Node* node = nullptr;  ///< where a refusal of its tensor points
    std::string_view name;       ///< the node's output
    Kind kind = Kind::Tensor;
    const TensorView* tensor = nullptr;  ///< Tensor: `value`'s
    const SparseTensor* sparse = nullptr;  ///< Sparse: `sparse_value`'s
    int32_t data_type = 0;                 ///< Owned and Strings
    std::vector<int64_t> dims;             ///< Owned and Strings: rank 0 or 1
    std::vector<std::byte> bytes;          ///< Owned: the values, little-endian
    std::vector<std::string_view> strings;  ///< Strings
    std::optional<LoweringRefusal> refused;  ///< a `value` or `sparse_value` without its tensor
};

/// A node as written: its operator version, and for a CastLike the Cast it becomes.
struct PlannedNode {
    const Node* node = nullptr;
    std::string_view op_type;               ///< "Cast" for a CastLike rewritten (cast_like.hpp)
    const OpSignature* signature = nullptr;  ///< since_version, and the resolver's entry; null when refused
    std::optional<Attribute> appended;      ///< Cast's `to`, after the node's own attributes
    std::span<const std::string_view> inputs;  ///< written: a Cast reads the CastLike's first only
    std::vector<std::string_view> implicit_inputs;  ///< the captures of its subgraphs, each once
    std::optional<LoweringRefusal> refused;  ///< an operator the .ort cannot run (node_operator.hpp)
};

/// One NodeArg (node_args.hpp): at most one of the three types is set.
struct PlannedArg {
    std::string_view name;
    std::string_view doc;
    const TypeProto* declared = nullptr;  ///< a declared type (never of kind None)
    const TensorView* tensor = nullptr;   ///< an initializer's tensor type
    ValueType inferred;                   ///< otherwise; Unknown for none
};

struct GraphPlan {
    std::vector<PlannedNode> nodes;  ///< kept, file order; a node's index is its position
    std::vector<LiftedConstant> dense;   ///< after the graph's initializers, file order
    std::vector<LiftedConstant> sparse;  ///< after the graph's sparse initializers, file order
    std::vector<PlannedArg> args;
    std::vector<std::string_view> inputs;
    std::vector<std::string_view> outputs;
};

struct OrtPlan {
    std::unordered_map<const Graph*, GraphPlan> graphs;  ///< the main graph and every subgraph
    /// Every operator version a node is written as, by ONNX Runtime's op_id: the resolver's.
    std::map<std::string, const OpSignature*> operators;

    const GraphPlan& of(const Graph& g) const { return graphs.at(&g); }
};

}  // namespace onnximport::detail
