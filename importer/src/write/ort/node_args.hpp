// The NodeArgs of one graph (docs/ort.md, "Writing"): ONNX Runtime looks up every name a
// node reads or writes, and every graph input and output, among the graph's own NodeArgs
// (a subgraph's too, for the outer values its nodes read), so each gets one: inputs,
// outputs and value_info first, as declared, then initializers with their tensor's type,
// then the other names in node order, typed from the enclosing graphs where declared. A
// name with neither a declared type nor a tensor gets its inferred type (infer_types.hpp),
// if any. Part of the lowering pass (lower.hpp): put_graph.cpp writes the list.
#pragma once

#include "core/hash.hpp"
#include "write/ort/infer_types.hpp"
#include "write/ort/plan.hpp"

#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace onnximport::detail {

class NodeArgTable {
public:
    /// `scopes`: the enclosing graphs, outermost first.
    NodeArgTable(const Graph& g, std::span<const Graph* const> scopes) : graph_(g), scopes_(scopes) {}

    void add_declared(const ValueInfo& v);
    void add_tensor(std::string_view name, const TensorView& t);
    /// A name a node reads or writes: typed from this graph's values, then outer ones.
    void add_used(std::string_view name);

    /// The NodeArgs in order, each with the one type it is written with.
    std::vector<PlannedArg> plan(const InferredTypes& inferred) const;

private:
    struct Entry {
        std::string_view name;
        std::string_view doc;
        const TypeProto* declared = nullptr;
        const TensorView* tensor = nullptr;
        const Graph* owner = nullptr;  ///< the graph that defines the value: where its inferred type is
    };
    bool insert(const Entry& e);

    const Graph& graph_;
    std::span<const Graph* const> scopes_;
    std::vector<Entry> entries_;
    std::unordered_map<std::string_view, size_t, NameHash> index_{0, NameHash{random_hash_key()}};  // core/hash.hpp
};

}  // namespace onnximport::detail
