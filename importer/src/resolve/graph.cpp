// References, opsets and subgraphs of one graph (spec section 4, "References", "Opsets",
// "Scope"), then the steps that need all of them: types, order, consumers.
#include "resolve/graph.hpp"

#include "core/step_clock.hpp"
#include "resolve/consumers.hpp"

#include <array>

namespace onnximport::detail {

namespace {

/// Records that node f reads value v of its own graph (inlined: once per read).
[[gnu::always_inline]] inline void record_read(const Scope& s, ReadLists& reads, uint32_t f, uint32_t v) {
    reads.values.push_back(v);
    const uint32_t p = s.producer[v];
    if (p != no_producer && p >= f) reads.file_order_topological = false;
}

/// Resolves one subgraph of node f and adds what it captures from this graph to the node's
/// reads: a node reads what its subgraphs read.
void resolve_subgraph(Refusal& c, Scope& s, const OpsetTable& opsets, Graph& sub, uint32_t f, ReadLists& reads) {
    Scope inner(sub, &s, s.storage, s.scratch);
    resolve_graph(c, inner, opsets);
    for (const ValueRef& r : inner.capture_refs)
        if (r.scope == &s) record_read(s, reads, f, r.value);
}

/// Inputs prepared per node, ahead of resolve_node (scope.hpp); later ones are prepared
/// when they are read.
constexpr uint32_t prepared_per_node = 4;
/// The nodes in flight: the one being resolved and those prepared ahead of it.
constexpr uint32_t prepared_nodes = 16;
static_assert(prepared_nodes > ValueIndex::prefetch_distance);
using PreparedNode = std::array<PreparedInput, prepared_per_node>;

using NodeMemo = std::array<HashMemo, prepared_per_node>;

[[gnu::always_inline]] inline void prepare_node(const Scope& s, uint32_t f, PreparedNode& prepared, NodeMemo& memo) {
    const List<std::string_view>& inputs = s.graph.nodes[f].inputs;
    for (uint32_t k = 0; k < inputs.size() && k < prepared_per_node; ++k)
        prepared[k] = prepare_input(s, f, inputs[k], memo[k]);
}

[[noreturn]] void refuse_node(Refusal& c, const Node& node, uint32_t f, const std::string& what) {
    PathScope at(c.path, "node", f);
    c.fail_at(ErrorKind::InvalidModel, node.offset, describe_node(node, f) + what);
}

/// The subgraphs of node f, resolved in scope, with the node's path (the node's own checks
/// push it only when they refuse: it costs a push and a pop per node).
void resolve_subgraphs(Refusal& c, Scope& s, const OpsetTable& opsets, uint32_t f, ReadLists& reads) {
    Node& node = s.graph.nodes[f];
    PathScope at(c.path, "node", f);
    for (size_t j = 0; j < node.attributes.size(); ++j) {
        Attribute& a = node.attributes[j];
        AttributeFields* fields = ModelAccess::fields(a);
        if (!fields) continue;  // a GRAPHS attribute may hold no graph at all
        if (a.type == AttributeType::Graph && fields->g) {
            PathScope at_attribute(c.path, "attribute", static_cast<int64_t>(j));
            PathScope at_graph(c.path, "g");
            resolve_subgraph(c, s, opsets, *fields->g, f, reads);
        } else if (a.type == AttributeType::Graphs) {
            PathScope at_attribute(c.path, "attribute", static_cast<int64_t>(j));
            List<Graph>& graphs = fields->graphs;
            for (size_t k = 0; k < graphs.size(); ++k) {
                PathScope at_graph(c.path, "graphs", static_cast<int64_t>(k));
                resolve_subgraph(c, s, opsets, graphs[k], f, reads);
            }
        }
    }
}

/// Inlined into the walk with the lambda calling it (resolve_graph): Release builds otherwise call one per node.
[[gnu::always_inline]] inline void resolve_node(Refusal& c, Scope& s, const OpsetTable& opsets, uint32_t f,
                                                const PreparedNode& prepared, ReadLists& reads) {
    Node& node = s.graph.nodes[f];
    node.file_index = f;

    const int64_t* version = opsets.find(node.domain);
    if (!version)
        refuse_node(c, node, f,
                    " uses domain " + quoted_name(node.domain) + ", which the model does not import (opset_import)");
    node.opset_version = *version;

    reads.begin.push_back(static_cast<uint32_t>(reads.values.size()));
    for (uint32_t k = 0; k < node.inputs.size(); ++k) {
        std::string_view in = node.inputs[k];
        if (in.empty()) continue;  // an omitted optional input
        ValueRef r = find_input(s, in, k < prepared_per_node ? prepared[k] : prepare_input(s, f, in));
        if (!r.scope)
            refuse_node(c, node, f,
                        " reads " + quoted_name(in) + ", which is not defined in its graph or an enclosing one");
        if (r.scope == &s) record_read(s, reads, f, r.value);
    }
    if (ModelAccess::has_subgraphs(node)) resolve_subgraphs(c, s, opsets, f, reads);
}

}  // namespace

void resolve_graph(Refusal& c, Scope& s, const OpsetTable& opsets) {
    Graph& g = s.graph;
    StepClock clock(s.times);
    define_values(c, s);
    clock.lap(&ImportTimes::define);

    // Node f's reads are recorded while its subgraphs resolve, so the rows are built in
    // file order, one node after the other.
    const uint32_t n = static_cast<uint32_t>(g.nodes.size());
    ReadLists reads(s.scratch);
    reads.begin.reserve(size_t{n} + 1);
    reads.values.reserve(ModelAccess::node_input_count(g));
    std::array<PreparedNode, prepared_nodes> prepared;
    const HashMemo empty(s);
    NodeMemo memo{empty, empty, empty, empty};
    static_assert(prepared_per_node == 4);
    for_each_node_ahead<ValueIndex::prefetch_distance>(
        g, [&](size_t f) { prepare_node(s, static_cast<uint32_t>(f), prepared[f % prepared_nodes], memo); },
        [&](size_t f) __attribute__((always_inline)) {
            resolve_node(c, s, opsets, static_cast<uint32_t>(f), prepared[f % prepared_nodes], reads);
        });
    reads.begin.push_back(static_cast<uint32_t>(reads.values.size()));

    ScratchVector<ValueRef> outputs(g.outputs.size(), &s.scratch);
    for (size_t i = 0; i < g.outputs.size(); ++i) {
        const ValueInfo& out = g.outputs[i];
        PathScope at(c.path, "output", static_cast<int64_t>(i));
        if (out.name.empty())
            c.fail_at(ErrorKind::InvalidModel, out.offset, "graph output " + std::to_string(i) + " has an empty name");
        outputs[i] = find_value(s, out.name);
        if (!outputs[i].scope)
            c.fail_at(ErrorKind::InvalidModel, out.offset,
                      "graph output " + quoted_name(out.name) + " is not defined in its graph or an enclosing one");
    }

    clock.lap(&ImportTimes::references);

    assign_types(s, outputs);
    clock.lap(&ImportTimes::types);

    ValueReaders readers = read_by_value(s, reads);
    clock.lap(&ImportTimes::consumers);
    NodeOrder order = order_nodes(reads, readers, s.producer, s.node_values, s.scratch);
    if (order.cycle) {
        const Node& node = g.nodes[order.cycle_node];
        PathScope at(c.path, "node", order.cycle_node);
        c.fail_at(ErrorKind::InvalidModel, node.offset,
                  describe_node(node, order.cycle_node) + " is on a cycle: it reads " +
                      quoted_name(g.values[order.cycle_value].name) + ", which depends on its own outputs");
    }
    clock.lap(&ImportTimes::order);
    apply_order(s, readers, order);
    clock.lap(&ImportTimes::consumers);
    g.resolved = true;
}

}  // namespace onnximport::detail
