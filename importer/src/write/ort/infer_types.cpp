// Element-type inference (infer_types.hpp). The bodies follow the ONNX operator
// documentation: a Loop body reads (iteration INT64, condition BOOL, the carried values) and
// returns (condition, the carried values, the scan outputs); a Scan body reads the states
// and one slice of each scan input and returns the states and the scan outputs' slices; a
// SequenceMap body reads one element of each sequence input (and the tensors as they are)
// and returns one element of each output sequence; both If branches return the outputs.
#include "write/ort/infer_types.hpp"

#include "format/ort_data_type.hpp"
#include "write/ort/infer_rules.hpp"

#include <onnximport/data_type.hpp>

#include <cstddef>
#include <utility>

namespace onnximport::detail {

namespace {

bool default_domain(const Node& n) noexcept { return n.domain.empty() || n.domain == "ai.onnx"; }

const Graph* graph_attribute(const Node& n, std::string_view name) {
    for (const Attribute& a : n.attributes)
        if (a.name == name && a.g()) return a.g();
    return nullptr;
}

int64_t int_attribute(const Node& n, std::string_view name, int64_t otherwise) {
    for (const Attribute& a : n.attributes)
        if (a.name == name && a.type == AttributeType::Int) return a.i;
    return otherwise;
}

/// A tensor of what a scan slices or stacks: the same element type, one dimension more or less.
ValueType as_tensor(ValueType t) { return t.kind == ValueType::Kind::Tensor ? t : ValueType{}; }

ValueType at(std::span<const ValueType> types, size_t i) { return i < types.size() ? types[i] : ValueType{}; }

}  // namespace

InferredTypes::InferredTypes(const Graph& main, Untyped untyped) : untyped_(std::move(untyped)) {
    Scopes scopes{&main};
    infer_graph(main, scopes);
}

ValueType InferredTypes::find(const Graph& g, std::string_view name) const {
    const auto graph = types_.find(&g);
    const Value* v = graph == types_.end() ? nullptr : g.find_value(name);
    return v ? graph->second[static_cast<size_t>(v - g.values.data())] : ValueType{};
}

ValueType InferredTypes::type_of(std::string_view name, std::span<const Graph* const> scopes) const {
    if (name.empty()) return {};
    for (size_t i = scopes.size(); i > 0; --i) {
        const Graph& g = *scopes[i - 1];
        const Value* v = g.find_value(name);
        if (!v) continue;
        if (const ValueType t = value_type_of(v->type); t.known()) return t;
        if (v->initializer) return ValueType::tensor(v->initializer->data_type);
        if (v->sparse_initializer) return ValueType::tensor(v->sparse_initializer->values.data_type);
        return find(g, name);
    }
    return {};
}

void InferredTypes::set(const Graph& g, std::string_view name, ValueType t, std::string_view op_type) {
    if (name.empty()) return;
    const Value* v = g.find_value(name);
    if (v && (value_type_of(v->type).known() || v->initializer || v->sparse_initializer)) return;
    // What a TypeInfo cannot hold is left untyped, as an unknown type is.
    if (t.elem > max_ort_data_type) t = {};
    if (t.known() && v) {
        std::vector<ValueType>& types = types_[&g];
        types.resize(g.values.size());
        types[static_cast<size_t>(v - g.values.data())] = t;
    } else if (untyped_) {
        untyped_(name, op_type);
    }
}

void InferredTypes::infer_graph(const Graph& g, Scopes& scopes) {
    for (const Node& n : g.nodes) infer_node(n, scopes);
}

void InferredTypes::infer_body(const Graph& body, std::span<const ValueType> inputs, Scopes& scopes) {
    for (size_t i = 0; i < body.inputs.size(); ++i) set(body, body.inputs[i].name, at(inputs, i), {});
    scopes.push_back(&body);
    infer_graph(body, scopes);
    scopes.pop_back();
}

ValueType InferredTypes::body_output(const Graph& body, size_t k, Scopes& scopes) {
    if (k >= body.outputs.size()) return ValueType{};
    if (const ValueType t = value_type_of(&body.outputs[k].type); t.known()) return t;
    scopes.push_back(&body);
    const ValueType t = type_of(body.outputs[k].name, scopes);
    scopes.pop_back();
    return t;
}

void InferredTypes::if_outputs(const Graph& then_branch, const Graph& else_branch, Types& out, Scopes& scopes) {
    infer_body(then_branch, {}, scopes);
    infer_body(else_branch, {}, scopes);
    for (size_t k = 0; k < out.size(); ++k) {
        out[k] = body_output(then_branch, k, scopes);
        if (!out[k].known()) out[k] = body_output(else_branch, k, scopes);
    }
}

void InferredTypes::loop_outputs(const Graph& body, const Types& in, Types& out, Scopes& scopes) {
    // Inputs: max trip count, condition, the carried values' initial values.
    const size_t carried = in.size() > 2 ? in.size() - 2 : 0;
    Types seeds{ValueType::tensor(static_cast<int32_t>(DataType::Int64)),
                ValueType::tensor(static_cast<int32_t>(DataType::Bool))};
    seeds.insert(seeds.end(), in.begin() + static_cast<std::ptrdiff_t>(in.size() - carried), in.end());
    infer_body(body, seeds, scopes);
    for (size_t k = 0; k < out.size(); ++k) {
        if (k < carried) {
            out[k] = body_output(body, 1 + k, scopes);
            if (!out[k].known()) out[k] = in[2 + k];
        } else {
            out[k] = as_tensor(body_output(body, 1 + k, scopes));
        }
    }
}

void InferredTypes::scan_outputs(const Node& n, const Graph& body, const Types& in, Types& out, Scopes& scopes) {
    // Version 8 has sequence_lens first; num_scan_inputs of the rest are scanned.
    const size_t first = n.opset_version < 9 ? 1 : 0;
    const size_t rest = in.size() > first ? in.size() - first : 0;
    const int64_t m = int_attribute(n, "num_scan_inputs", -1);
    if (m < 0 || static_cast<uint64_t>(m) > rest) return infer_body(body, {}, scopes);
    const size_t states = rest - static_cast<size_t>(m);
    Types seeds;
    for (size_t i = 0; i < rest; ++i) seeds.push_back(i < states ? in[first + i] : as_tensor(in[first + i]));
    infer_body(body, seeds, scopes);
    for (size_t k = 0; k < out.size(); ++k) {
        out[k] = k < states ? body_output(body, k, scopes) : as_tensor(body_output(body, k, scopes));
        if (k < states && !out[k].known()) out[k] = in[first + k];
    }
}

void InferredTypes::sequence_map_outputs(const Graph& body, const Types& in, Types& out, Scopes& scopes) {
    Types seeds;
    for (const ValueType& t : in)
        seeds.push_back(t.kind == ValueType::Kind::Sequence ? ValueType::tensor(t.elem) : as_tensor(t));
    infer_body(body, seeds, scopes);
    for (size_t k = 0; k < out.size(); ++k) {
        const ValueType t = as_tensor(body_output(body, k, scopes));
        out[k] = t.known() ? ValueType::sequence(t.elem) : ValueType{};
    }
}

bool InferredTypes::body_outputs(const Node& n, const Types& in, Types& out, Scopes& scopes) {
    const std::string_view op = default_domain(n) ? n.op_type : std::string_view();
    const Graph* body = graph_attribute(n, "body");
    const Graph* then_branch = graph_attribute(n, "then_branch");
    const Graph* else_branch = graph_attribute(n, "else_branch");
    if (op == "If" && then_branch && else_branch) if_outputs(*then_branch, *else_branch, out, scopes);
    else if (op == "Loop" && body) loop_outputs(*body, in, out, scopes);
    else if (op == "Scan" && body) scan_outputs(n, *body, in, out, scopes);
    else if (op == "SequenceMap" && body) sequence_map_outputs(*body, in, out, scopes);
    else return false;
    return true;
}

void InferredTypes::infer_node(const Node& n, Scopes& scopes) {
    Types in(n.inputs.size());
    for (size_t i = 0; i < n.inputs.size(); ++i) in[i] = type_of(n.inputs[i], scopes);
    Types out(n.outputs.size());
    if (!body_outputs(n, in, out, scopes)) {
        // Another operator's subgraphs: their own values are still typed where rules allow.
        for (const Attribute& a : n.attributes) {
            if (a.g()) infer_body(*a.g(), {}, scopes);
            for (const Graph& sub : a.graphs()) infer_body(sub, {}, scopes);
        }
        for (size_t k = 0; k < out.size(); ++k) out[k] = rule_output_type(n, k, in);
    }
    for (size_t k = 0; k < out.size(); ++k) set(*scopes.back(), n.outputs[k], out[k], n.op_type);
}

}  // namespace onnximport::detail
