// The lowering pass (lower.hpp): each graph's Constants, its NodeArgs, then its nodes, each
// node's subgraphs lowered before the node.
#include "write/ort/lower.hpp"

#include "write/ort/cast_like.hpp"
#include "write/ort/lift_constant.hpp"
#include "write/ort/node_args.hpp"
#include "write/ort/node_operator.hpp"

#include <algorithm>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace onnximport::detail {

namespace {

void check_model(const Refusal& refusal, const ModelProto& m) {
    if (!m.functions.empty())
        refusal.fail(ErrorKind::Unsupported, nullptr,
                     "the model defines " + std::to_string(m.functions.size()) +
                         " functions; .ort has no table for them",
                     "functions");
    if (!m.training_info.empty())
        refusal.fail(ErrorKind::Unsupported, nullptr, "the model carries training_info; .ort has no table for it",
                     "training_info");
}

/// The outer values a node's subgraphs read, each once, in order.
std::vector<std::string_view> implicit_inputs(const Node& n) {
    std::vector<std::string_view> out;
    auto add = [&](const Graph& sub) {
        for (std::string_view c : sub.captures)
            if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
    };
    for (const Attribute& at : n.attributes) {
        if (at.g()) add(*at.g());
        for (const Graph& sub : at.graphs()) add(sub);
    }
    return out;
}

/// The graph's nodes in file order, the Constants that lift apart from the rest.
void split(const Graph& g, std::vector<const Node*>& kept, std::vector<const Node*>& lifted) {
    std::vector<const Node*> all;
    for (const Node& n : g.nodes) all.push_back(&n);
    std::sort(all.begin(), all.end(), [](const Node* x, const Node* y) { return x->file_index < y->file_index; });
    for (const Node* n : all) (constant_value(*n) ? lifted : kept).push_back(n);
}

std::vector<PlannedArg> plan_args(const Graph& g, std::span<const Node* const> kept,
                                  std::span<const Node* const> lifted, std::span<const Graph* const> scopes,
                                  const InferredTypes& inferred) {
    NodeArgTable args(g, scopes);
    for (const ValueInfo& v : g.inputs) args.add_declared(v);
    for (const ValueInfo& v : g.outputs) args.add_declared(v);
    for (const ValueInfo& v : g.value_info) args.add_declared(v);
    for (const TensorView& t : g.initializers) args.add_tensor(t.name, t);
    for (const SparseTensor& s : g.sparse_initializers) args.add_used(s.values.name);
    for (const Node* n : lifted) args.add_used(n->outputs[0]);
    for (const Node* n : kept) {
        for (std::string_view i : n->inputs) args.add_used(i);
        for (std::string_view o : n->outputs) args.add_used(o);
    }
    return args.plan(inferred);
}

class Lowering {
public:
    Lowering(const InferredTypes& inferred, OrtPlan& plan) : inferred_(inferred), plan_(plan) {}

    /// `scopes`: the enclosing graphs, outermost first.
    void graph(const Graph& g, std::vector<const Graph*>& scopes);

private:
    void constants(std::span<const Node* const> lifted, GraphPlan& p);
    /// `scopes` ends with the node's graph.
    PlannedNode node(const Node& n, std::vector<const Graph*>& scopes);
    void subgraphs(const Node& n, std::vector<const Graph*>& scopes);

    const InferredTypes& inferred_;
    OrtPlan& plan_;
};

void Lowering::graph(const Graph& g, std::vector<const Graph*>& scopes) {
    GraphPlan& p = plan_.graphs[&g];  // a reference stays valid while subgraphs are added
    std::vector<const Node*> kept, lifted;
    split(g, kept, lifted);
    constants(lifted, p);
    p.args = plan_args(g, kept, lifted, scopes, inferred_);
    scopes.push_back(&g);
    for (const Node* n : kept) p.nodes.push_back(node(*n, scopes));
    scopes.pop_back();
    for (const ValueInfo& v : g.inputs) p.inputs.push_back(v.name);
    for (const ValueInfo& v : g.outputs) p.outputs.push_back(v.name);
}

void Lowering::constants(std::span<const Node* const> lifted, GraphPlan& p) {
    for (const Node* n : lifted) {
        const Attribute& v = *constant_value(*n);
        (lifts_to_sparse(v) ? p.sparse : p.dense).push_back(lift_constant(*n, v));
    }
}

PlannedNode Lowering::node(const Node& n, std::vector<const Graph*>& scopes) {
    PlannedNode out;
    out.node = &n;
    const int32_t cast_to = cast_like_to(inferred_, n, scopes);
    out.op_type = cast_to ? std::string_view("Cast") : n.op_type;
    if (cast_to) out.appended = cast_to_attribute(cast_to);
    out.inputs = written_inputs(n, cast_to);
    out.implicit_inputs = implicit_inputs(n);
    subgraphs(n, scopes);
    std::string why;
    out.signature = node_operator(n, out.op_type, plan_.operators, why);
    if (!out.signature) out.refused = LoweringRefusal{std::move(why), "op_type"};
    return out;
}

void Lowering::subgraphs(const Node& n, std::vector<const Graph*>& scopes) {
    for (const Attribute& at : n.attributes) {
        if (at.g()) graph(*at.g(), scopes);
        for (const Graph& sub : at.graphs()) graph(sub, scopes);
    }
}

}  // namespace

OrtPlan lower_model(const ModelProto& m, const Refusal& refusal, const InferredTypes::Untyped& untyped) {
    check_model(refusal, m);
    const InferredTypes inferred(*m.graph(), untyped);
    OrtPlan plan;
    Lowering lowering(inferred, plan);
    std::vector<const Graph*> scopes;
    lowering.graph(*m.graph(), scopes);
    return plan;
}

}  // namespace onnximport::detail
