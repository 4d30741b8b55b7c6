// Node and NodeEdge tables (docs/ort.md, "Writing"). ONNX Runtime's loader needs every
// node's inputs, outputs, implicit inputs and input_arg_counts present: the counts are one
// per input (its default before the operator's schema regroups them, which the writer does
// not have). A node's implicit inputs are the outer values its subgraphs read (their
// captures); an edge to one has the destination index inputs + its position, as ONNX
// Runtime numbers them. since_version is the operator's version at the opset imported for
// the node's domain (put_resolver.cpp), the one ONNX Runtime's kernel look-up keys on.
// A CastLike whose target type is known is written as its Cast (cast_like.hpp).
#include "write/ort/put_node.hpp"

#include "write/ort/cast_like.hpp"

#include <algorithm>
#include <string_view>
#include <unordered_map>

namespace onnximport::detail {

namespace {

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

std::string_view ort_domain(std::string_view d) noexcept { return d == "ai.onnx" ? std::string_view() : d; }

/// Cast's `to`, appended to a CastLike's own attributes when it is written as Cast.
Attribute cast_to_attribute(int32_t to) {
    Attribute at;
    at.name = "to";
    at.i = to;
    at.type = AttributeType::Int;
    at.type_declared = true;
    return at;
}

flatbuffers::Offset<fb::Node> put_node(OrtAssembly& a, const Node& n, uint32_t index,
                                       std::vector<const Graph*>& scopes) {
    const int32_t cast_to = cast_like_to(a, n, scopes);
    std::vector<flatbuffers::Offset<fb::Attribute>> attribute_items;
    for (size_t i = 0; i < n.attributes.size(); ++i) {
        PathScope at(a.refusal.path, "attribute", static_cast<int64_t>(i));
        attribute_items.push_back(put_attribute(a, n.attributes[i], scopes));
    }
    if (cast_to) attribute_items.push_back(put_attribute(a, cast_to_attribute(cast_to), scopes));
    const auto attributes = a.fbb.CreateVector(attribute_items);
    const std::span<const std::string_view> written = written_inputs(n, cast_to);
    const auto input_items = put_strings(a, written);
    const auto inputs = a.fbb.CreateVector(input_items);
    const auto output_items = put_strings(a, {n.outputs.data(), n.outputs.size()});
    const auto outputs = a.fbb.CreateVector(output_items);
    const auto implicit_items = put_strings(a, implicit_inputs(n));
    const auto implicit = a.fbb.CreateVector(implicit_items);
    const std::vector<int32_t> ones(written.size(), 1);
    const auto counts = a.fbb.CreateVector(ones);
    const auto name = a.fbb.CreateString(n.name.data(), n.name.size());
    const std::string_view d = ort_domain(n.domain);
    const auto domain = a.names.get(d);
    const std::string_view op = cast_to ? std::string_view("Cast") : n.op_type;
    const OpSignature& signature = node_operator(a, n, op);
    const auto op_type = a.names.get(op);
    const auto doc = n.doc_string().empty() ? flatbuffers::Offset<flatbuffers::String>()
                                            : a.fbb.CreateString(n.doc_string().data(), n.doc_string().size());
    fb::NodeBuilder b(a.fbb);
    b.add_name(name);
    if (!doc.IsNull()) b.add_doc_string(doc);
    b.add_domain(domain);
    b.add_since_version(signature.since_version);
    b.add_index(index);
    b.add_op_type(op_type);
    b.add_inputs(inputs);
    b.add_outputs(outputs);
    b.add_attributes(attributes);
    b.add_input_arg_counts(counts);
    b.add_implicit_inputs(implicit);
    return b.Finish();
}

}  // namespace

std::vector<flatbuffers::Offset<fb::Node>> put_nodes(OrtAssembly& a, std::span<const Node* const> nodes,
                                                     std::vector<const Graph*>& scopes) {
    std::vector<flatbuffers::Offset<fb::Node>> out;
    out.reserve(nodes.size());
    for (size_t i = 0; i < nodes.size(); ++i) {
        PathScope at(a.refusal.path, "node", nodes[i]->file_index);
        out.push_back(put_node(a, *nodes[i], static_cast<uint32_t>(i), scopes));
        a.check_room(0);
    }
    return out;
}

std::vector<flatbuffers::Offset<fb::NodeEdge>> put_edges(OrtAssembly& a, std::span<const Node* const> nodes,
                                                         std::span<const Graph* const> scopes) {
    struct Producer {
        uint32_t node;
        int32_t output;
    };
    std::unordered_map<std::string_view, Producer> producers;
    for (size_t i = 0; i < nodes.size(); ++i)
        for (size_t k = 0; k < nodes[i]->outputs.size(); ++k)
            if (!nodes[i]->outputs[k].empty())
                producers.try_emplace(nodes[i]->outputs[k],
                                      Producer{static_cast<uint32_t>(i), static_cast<int32_t>(k)});
    std::vector<std::vector<fb::EdgeEnd>> in(nodes.size()), out(nodes.size());
    for (size_t i = 0; i < nodes.size(); ++i) {
        const auto inputs = written_inputs(*nodes[i], cast_like_to(a, *nodes[i], scopes));
        std::vector<std::string_view> reads(inputs.begin(), inputs.end());
        for (std::string_view c : implicit_inputs(*nodes[i])) reads.push_back(c);
        for (size_t j = 0; j < reads.size(); ++j) {
            const auto p = reads[j].empty() ? producers.end() : producers.find(reads[j]);
            if (p == producers.end()) continue;
            const auto dst = static_cast<int32_t>(j);
            in[i].emplace_back(p->second.node, p->second.output, dst);
            out[p->second.node].emplace_back(static_cast<uint32_t>(i), p->second.output, dst);
        }
    }
    std::vector<flatbuffers::Offset<fb::NodeEdge>> edges;
    for (size_t i = 0; i < nodes.size(); ++i) {
        const auto ins = a.fbb.CreateVectorOfStructs(in[i]);
        const auto outs = a.fbb.CreateVectorOfStructs(out[i]);
        edges.push_back(fb::CreateNodeEdge(a.fbb, static_cast<uint32_t>(i), ins, outs));
    }
    return edges;
}

}  // namespace onnximport::detail
