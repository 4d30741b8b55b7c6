// Element-type inference for the .ort writer (docs/ort.md, "What is written"): ONNX Runtime
// refuses a NodeArg without a type, and a .onnx need not declare its intermediate values.
// One walk over the resolved model, graphs in topological node order, subgraphs before the
// node that holds them: each value without a declared type, initializer or sparse
// initializer gets the type its producer's rule (infer_rules.hpp) gives from the types
// known so far; If, Loop, Scan and SequenceMap take their outputs from their bodies, whose
// untyped inputs they type first. What no rule types stays Unknown and is counted.
#pragma once

#include "write/ort/value_type.hpp"

#include <cstdint>
#include <functional>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace onnximport::detail {

class InferredTypes {
public:
    /// Called once for every value left untyped: its name and the operator that makes it
    /// (empty for a subgraph input).
    using Untyped = std::function<void(std::string_view value, std::string_view op_type)>;

    /// Infers the types of `main` and every graph inside it.
    explicit InferredTypes(const Graph& main, Untyped untyped = {});

    /// The inferred type of the value `name` that graph `g` itself defines; Unknown when
    /// none was inferred (declared, initializer, or no rule).
    ValueType find(const Graph& g, std::string_view name) const;
    /// The type of `name` as the innermost of `scopes` (enclosing graphs, outermost first)
    /// sees it: declared, an initializer's, or inferred; Unknown otherwise.
    ValueType type_of(std::string_view name, std::span<const Graph* const> scopes) const;

private:
    using Scopes = std::vector<const Graph*>;  ///< enclosing graphs, outermost first, the graph last

    void infer_graph(const Graph& g, Scopes& scopes);
    using Types = std::vector<ValueType>;

    void infer_node(const Node& n, Scopes& scopes);
    /// The outputs of the operators whose outputs come from their bodies, from the types of
    /// their inputs `in`; false when `n` is none of them (or lacks its body).
    bool body_outputs(const Node& n, const Types& in, Types& out, Scopes& scopes);
    void if_outputs(const Graph& then_branch, const Graph& else_branch, Types& out, Scopes& scopes);
    void loop_outputs(const Graph& body, const Types& in, Types& out, Scopes& scopes);
    void scan_outputs(const Node& n, const Graph& body, const Types& in, Types& out, Scopes& scopes);
    void sequence_map_outputs(const Graph& body, const Types& in, Types& out, Scopes& scopes);
    /// A body's output k as seen from inside the body.
    ValueType body_output(const Graph& body, size_t k, Scopes& scopes);
    /// Types a body's inputs that declare none; then infers the body.
    void infer_body(const Graph& body, std::span<const ValueType> inputs, Scopes& scopes);
    /// Sets what `g` defines as `name` when it has no type of its own.
    void set(const Graph& g, std::string_view name, ValueType t, std::string_view op_type);

    /// Per graph, by the value's position in Graph::values (resolution's table).
    std::unordered_map<const Graph*, std::vector<ValueType>> types_;
    Untyped untyped_;
};

}  // namespace onnximport::detail
