// Node and NodeEdge tables (docs/ort.md, "Writing") of the nodes the lowering pass planned
// (lower.hpp: the operator version, a CastLike's Cast, the implicit inputs). ONNX Runtime's
// loader needs every node's inputs, outputs, implicit inputs and input_arg_counts present:
// the counts are one per input (its default before the operator's schema regroups them,
// which the writer does not have). An edge to an implicit input has the destination index
// inputs + its position, as ONNX Runtime numbers them.
#include "write/ort/put_node.hpp"

#include "core/hash.hpp"

#include <string>
#include <string_view>
#include <unordered_map>

namespace onnximport::detail {

namespace {

std::string_view ort_domain(std::string_view d) noexcept { return d == "ai.onnx" ? std::string_view() : d; }

// A node's attributes, implicit inputs and input_arg_counts repeat from node to node: each
// such vector is written once per content and shared (docs/ort.md, "Shared vectors"). A
// vector of offsets is keyed by the objects it points to (an Offset is an object's place,
// unique in the buffer), so equal keys mean equal vectors; `kind` keeps the kinds apart.
template <class T>
flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<T>>> shared_vector(
    OrtAssembly& a, char kind, const std::vector<flatbuffers::Offset<T>>& items) {
    std::string key(1, kind);
    for (const auto& item : items) key.append(reinterpret_cast<const char*>(&item.o), sizeof item.o);
    return a.vectors.get(key, [&] { return a.fbb.CreateVector(items).o; });
}

/// input_arg_counts: one per input, each 1 (the header says why).
flatbuffers::Offset<flatbuffers::Vector<int32_t>> ones(OrtAssembly& a, size_t inputs) {
    return a.vectors.get(std::string("c").append(std::to_string(inputs)), [&] {  // GCC 12 -Wrestrict: no "c" + string
        const std::vector<int32_t> items(inputs, 1);
        return a.fbb.CreateVector(items).o;
    });
}

flatbuffers::Offset<fb::Node> put_node(OrtAssembly& a, const PlannedNode& p, uint32_t index) {
    const Node& n = *p.node;
    std::vector<flatbuffers::Offset<fb::Attribute>> attribute_items;
    for (size_t i = 0; i < n.attributes.size(); ++i) {
        PathScope at(a.refusal.path, "attribute", static_cast<int64_t>(i));
        attribute_items.push_back(put_attribute(a, n.attributes[i]));
    }
    a.refuse_if(p.refused);  // after the attributes: their refusals come first
    if (p.appended) attribute_items.push_back(put_attribute(a, *p.appended));
    const auto attributes = shared_vector(a, 'a', attribute_items);
    const auto input_items = put_strings(a, p.inputs);
    const auto inputs = a.fbb.CreateVector(input_items);
    const auto output_items = put_strings(a, {n.outputs.data(), n.outputs.size()});
    const auto outputs = a.fbb.CreateVector(output_items);
    const auto implicit_items = put_strings(a, p.implicit_inputs);
    const auto implicit = shared_vector(a, 'i', implicit_items);
    const auto counts = ones(a, p.inputs.size());
    const auto name = a.fbb.CreateString(n.name.data(), n.name.size());
    const auto domain = a.names.get(ort_domain(n.domain));
    const auto op_type = a.names.get(p.op_type);
    const auto doc = n.doc_string().empty() ? flatbuffers::Offset<flatbuffers::String>()
                                            : a.fbb.CreateString(n.doc_string().data(), n.doc_string().size());
    fb::NodeBuilder b(a.fbb);
    b.add_name(name);
    if (!doc.IsNull()) b.add_doc_string(doc);
    b.add_domain(domain);
    b.add_since_version(p.signature->since_version);
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

std::vector<flatbuffers::Offset<fb::Node>> put_nodes(OrtAssembly& a, std::span<const PlannedNode> nodes) {
    std::vector<flatbuffers::Offset<fb::Node>> out;
    out.reserve(nodes.size());
    for (size_t i = 0; i < nodes.size(); ++i) {
        PathScope at(a.refusal.path, "node", nodes[i].node->file_index);
        out.push_back(put_node(a, nodes[i], static_cast<uint32_t>(i)));
        a.check_room(0);
    }
    return out;
}

std::vector<flatbuffers::Offset<fb::NodeEdge>> put_edges(OrtAssembly& a, std::span<const PlannedNode> nodes) {
    struct Producer {
        uint32_t node;
        int32_t output;
    };
    // Keyed by the input's names: keyed hash (core/hash.hpp).
    std::unordered_map<std::string_view, Producer, NameHash> producers(0, NameHash{random_hash_key()});
    for (size_t i = 0; i < nodes.size(); ++i)
        for (size_t k = 0; k < nodes[i].node->outputs.size(); ++k)
            if (!nodes[i].node->outputs[k].empty())
                producers.try_emplace(nodes[i].node->outputs[k],
                                      Producer{static_cast<uint32_t>(i), static_cast<int32_t>(k)});
    std::vector<std::vector<fb::EdgeEnd>> in(nodes.size()), out(nodes.size());
    for (size_t i = 0; i < nodes.size(); ++i) {
        std::vector<std::string_view> reads(nodes[i].inputs.begin(), nodes[i].inputs.end());
        for (std::string_view c : nodes[i].implicit_inputs) reads.push_back(c);
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
