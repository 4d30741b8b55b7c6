// The messages of onnx.proto that the importer reads (spec section 2): ModelProto,
// GraphProto, NodeProto, ValueInfoProto, OperatorSetIdProto, StringStringEntryProto,
// FunctionProto and TrainingInfoProto (AttributeProto: read_attribute.cpp). Field numbers
// come from importer/schema/onnx_fields.hpp; unknown fields are skipped.
#include "onnx/fields.hpp"

namespace onnximport::detail {

void read_entry(Context& c, Reader& r, StringStringEntry& e) {
    using F = proto::StringStringEntry;
    while (r.next()) {
        switch (r.field_as<F>()) {
        case F::key: if (r.expect(WireType::Len)) e.key = read_string(c, r, "key"); break;
        case F::value: if (r.expect(WireType::Len)) e.value = read_string(c, r, "value"); break;
        default: r.skip();
        }
    }
}

void read_opset(Context& c, Reader& r, OperatorSetId& o) {
    using F = proto::OperatorSetId;
    while (r.next()) {
        switch (r.field_as<F>()) {
        case F::domain: if (r.expect(WireType::Len)) o.domain = read_string(c, r, "domain"); break;
        case F::version: if (r.expect(WireType::Varint)) o.version = read_int64(r); break;
        default: r.skip();
        }
    }
}

void read_value_info(Context& c, Reader& r, const uint8_t* key_at, ValueInfo& v) {
    using F = proto::ValueInfo;
    v.offset = c.offset_of(key_at);
    while (r.next()) {
        switch (r.field_as<F>()) {
        case F::name: if (r.expect(WireType::Len)) v.name = read_string(c, r, "name"); break;
        case F::type:
            if (!r.expect(WireType::Len) || read_plain_tensor_type(c, r, v.type)) break;
            v.type = TypeProto{};  // singular messages are replaced, not merged
            read_message(c, r, "type", -1, [&](Reader& sub, const uint8_t*) { read_type(c, sub, v.type); });
            break;
        case F::doc_string:
            if (r.expect(WireType::Len)) fields_of(c, v).doc_string = read_string(c, r, "doc_string");
            break;
        case F::metadata_props: read_entries(c, r, "metadata_props", fields_of(c, v).metadata_props); break;
        default: r.skip();
        }
    }
}

void read_node(Context& c, Reader& r, const uint8_t* key_at, Node& n) {
    using F = proto::Node;
    n.offset = c.offset_of(key_at);
    // The inputs and outputs go to an arena of their own (Storage::node_edges); each list,
    // and the attributes, grow in place as read: no pass over the node's keys counts them.
    Arena& edges = c.node_edges;
    while (r.next()) {
        switch (r.field_as<F>()) {
        case F::input:
            if (r.expect(WireType::Len)) ListAccess::append_in_place(edges, n.inputs) = read_string(c, r, "input");
            break;
        case F::output:
            if (r.expect(WireType::Len)) ListAccess::append_in_place(edges, n.outputs) = read_string(c, r, "output");
            break;
        case F::name: if (r.expect(WireType::Len)) n.name = read_string(c, r, "name"); break;
        case F::op_type: if (r.expect(WireType::Len)) n.op_type = read_string(c, r, "op_type"); break;
        case F::attribute: {
            if (!r.expect(WireType::Len)) break;
            const auto index = static_cast<int64_t>(n.attributes.size());
            Attribute& a = ListAccess::append_in_place(c.arena, n.attributes);
            if (read_plain_scalar_attribute(c, r, a)) break;
            read_message(c, r, "attribute", index, [&](Reader& sub, const uint8_t* at) {
                read_attribute(c, sub, at, a);
                if (ModelAccess::holds_subgraphs(a)) ModelAccess::has_subgraphs(n) = true;
            });
            break;
        }
        case F::doc_string:
            if (r.expect(WireType::Len)) fields_of(c, n).doc_string = read_string(c, r, "doc_string");
            break;
        case F::domain: if (r.expect(WireType::Len)) n.domain = read_string(c, r, "domain"); break;
        case F::overload: if (r.expect(WireType::Len)) fields_of(c, n).overload = read_string(c, r, "overload"); break;
        case F::metadata_props: read_entries(c, r, "metadata_props", fields_of(c, n).metadata_props); break;
        default: r.skip();
        }
    }
}

namespace {

/// Len keys per GraphProto field number, from one scan of the graph's keys.
struct GraphCounts {
    static constexpr uint32_t fields = 17;  ///< GraphProto's field numbers are below this
    uint32_t total[fields] = {};            ///< (0: all others)
    bool exact = false;                     ///< the scan got to the end: total is exact
};

void read_graph_fields(Context& c, Reader& r, Graph& g, const GraphCounts& counts) {
    using F = proto::Graph;
    constexpr uint8_t node_key = +F::node << 3 | 2;
    auto presize = [&](auto& list) {
        if (counts.exact && ListAccess::capacity(list) == 0)
            ListAccess::reserve(c.arena, list, counts.total[r.field()]);
    };
    auto node = [&](Reader& sub, const uint8_t* at, Node& n) {
        read_node(c, sub, at, n);
        ModelAccess::node_input_count(g) += n.inputs.size();
        ModelAccess::node_output_count(g) += n.outputs.size();
    };
    auto value_info = [&](Reader& sub, const uint8_t* at, ValueInfo& v) { read_value_info(c, sub, at, v); };
    auto tensor = [&](Reader& sub, const uint8_t* at, TensorView& t) { read_tensor(c, sub, at, t); };
    auto sparse_tensor = [&](Reader& sub, const uint8_t* at, SparseTensor& t) { read_sparse_tensor(c, sub, at, t); };
    while (r.next()) {
        switch (r.field_as<F>()) {
        case F::node:
            presize(g.nodes);
            // Exporters write the nodes as one run of keys: read as one (docs/performance-history.md,
            // "A graph's nodes as one run").
            do {
                if (const Node* n = read_plain_node(c, r, g.nodes)) {
                    ModelAccess::node_input_count(g) += n->inputs.size();
                    ModelAccess::node_output_count(g) += n->outputs.size();
                } else {
                    read_repeated_message(c, r, "node", g.nodes, node);
                }
            } while (r.next_if(node_key));
            break;
        case F::name: if (r.expect(WireType::Len)) g.name = read_string(c, r, "name"); break;
        case F::initializer: read_repeated_message(c, r, "initializer", g.initializers, tensor); break;
        case F::doc_string: if (r.expect(WireType::Len)) g.doc_string = read_string(c, r, "doc_string"); break;
        case F::input: presize(g.inputs); read_repeated_message(c, r, "input", g.inputs, value_info); break;
        case F::output: presize(g.outputs); read_repeated_message(c, r, "output", g.outputs, value_info); break;
        case F::value_info:
            presize(g.value_info);
            read_repeated_message(c, r, "value_info", g.value_info, value_info);
            break;
        case F::sparse_initializer:
            read_repeated_message(c, r, "sparse_initializer", g.sparse_initializers, sparse_tensor);
            break;
        case F::metadata_props: read_entries(c, r, "metadata_props", g.metadata_props); break;
        default: r.skip();  // quantization_annotation and anything newer
        }
    }
}

}  // namespace

void read_graph(Context& c, Reader& r, const uint8_t* key_at, Graph& g) {
    g.offset = c.offset_of(key_at);
    // One pass counts the repeated fields. It stops before a large payload
    // (Reader::count_len_fields); then each list is counted at its first occurrence
    // instead. Either way a list is sized at its first occurrence, so the arena sees the
    // same requests whether or not the weights stopped the scan (heap use must not depend
    // on the weights' sizes).
    GraphCounts counts;
    counts.exact = r.scan_len_keys(r.cursor(), [&](uint32_t field, const uint8_t*) {
        counts.total[field < GraphCounts::fields ? field : 0]++;
    });
    read_graph_fields(c, r, g, counts);
}

void read_function(Context& c, Reader& r, const uint8_t* key_at, Function& f) {
    using F = proto::Function;
    f.offset = c.offset_of(key_at);
    auto node = [&](Reader& sub, const uint8_t* at, Node& n) { read_node(c, sub, at, n); };
    auto opset = [&](Reader& sub, const uint8_t*, OperatorSetId& o) { read_opset(c, sub, o); };
    auto attribute = [&](Reader& sub, const uint8_t* at, Attribute& a) { read_attribute(c, sub, at, a); };
    auto value_info = [&](Reader& sub, const uint8_t* at, ValueInfo& v) { read_value_info(c, sub, at, v); };
    while (r.next()) {
        switch (r.field_as<F>()) {
        case F::name: if (r.expect(WireType::Len)) f.name = read_string(c, r, "name"); break;
        case F::input: read_repeated_string(c, r, "input", f.inputs); break;
        case F::output: read_repeated_string(c, r, "output", f.outputs); break;
        case F::attribute: read_repeated_string(c, r, "attribute", f.attributes); break;
        case F::node:
            if (!read_plain_node(c, r, f.nodes)) read_repeated_message(c, r, "node", f.nodes, node);
            break;
        case F::doc_string: if (r.expect(WireType::Len)) f.doc_string = read_string(c, r, "doc_string"); break;
        case F::opset_import: read_repeated_message(c, r, "opset_import", f.opset_import, opset); break;
        case F::domain: if (r.expect(WireType::Len)) f.domain = read_string(c, r, "domain"); break;
        case F::attribute_proto: read_repeated_message(c, r, "attribute_proto", f.attribute_protos, attribute); break;
        case F::value_info: read_repeated_message(c, r, "value_info", f.value_info, value_info); break;
        case F::overload: if (r.expect(WireType::Len)) f.overload = read_string(c, r, "overload"); break;
        case F::metadata_props: read_entries(c, r, "metadata_props", f.metadata_props); break;
        default: r.skip();
        }
    }
}

void read_training_info(Context& c, Reader& r, TrainingInfo& t) {
    using F = proto::TrainingInfo;
    while (r.next()) {
        switch (r.field_as<F>()) {
        case F::initialization:
            if (r.expect(WireType::Len)) ModelAccess::initialization(t) = read_singular_graph(c, r, "initialization");
            break;
        case F::algorithm:
            if (r.expect(WireType::Len)) ModelAccess::algorithm(t) = read_singular_graph(c, r, "algorithm");
            break;
        case F::initialization_binding: read_entries(c, r, "initialization_binding", t.initialization_binding); break;
        case F::update_binding: read_entries(c, r, "update_binding", t.update_binding); break;
        default: r.skip();
        }
    }
}

namespace {

/// Model checks (spec section 2). `ir_version_at`: the key of the occurrence that won.
void check_model(const Context& c, const ModelProto& m, const uint8_t* ir_version_at) {
    if (!m.has_ir_version) c.fail(ErrorKind::InvalidModel, c.base, "ir_version is missing", "ir_version");
    if (m.ir_version < 3)
        c.fail(ErrorKind::InvalidModel, ir_version_at,
               "ir_version " + std::to_string(m.ir_version) + " is below 3, the oldest version read", "ir_version");
    if (!m.graph()) c.fail(ErrorKind::InvalidModel, c.base, "the model has no graph", "graph");
}

}  // namespace

void read_model(Context& c, Reader& r, ModelProto& m) {
    using F = proto::Model;
    const uint8_t* ir_version_at = c.base;
    auto opset = [&](Reader& sub, const uint8_t*, OperatorSetId& o) { read_opset(c, sub, o); };
    auto training = [&](Reader& sub, const uint8_t*, TrainingInfo& t) { read_training_info(c, sub, t); };
    auto function = [&](Reader& sub, const uint8_t* at, Function& f) { read_function(c, sub, at, f); };
    while (r.next()) {
        switch (r.field_as<F>()) {
        case F::ir_version:
            if (!r.expect(WireType::Varint)) break;
            ir_version_at = r.key_at();
            m.ir_version = read_int64(r);
            m.has_ir_version = true;
            break;
        case F::producer_name: if (r.expect(WireType::Len)) m.producer_name = read_string(c, r, "producer_name"); break;
        case F::producer_version:
            if (r.expect(WireType::Len)) m.producer_version = read_string(c, r, "producer_version");
            break;
        case F::domain: if (r.expect(WireType::Len)) m.domain = read_string(c, r, "domain"); break;
        case F::model_version: if (r.expect(WireType::Varint)) m.model_version = read_int64(r); break;
        case F::doc_string: if (r.expect(WireType::Len)) m.doc_string = read_string(c, r, "doc_string"); break;
        case F::graph: if (r.expect(WireType::Len)) ModelAccess::graph(m) = read_singular_graph(c, r, "graph"); break;
        case F::opset_import: read_repeated_message(c, r, "opset_import", m.opset_import, opset); break;
        case F::metadata_props: read_entries(c, r, "metadata_props", m.metadata_props); break;
        case F::training_info: read_repeated_message(c, r, "training_info", m.training_info, training); break;
        case F::functions: read_repeated_message(c, r, "functions", m.functions, function); break;
        default: r.skip();
        }
    }
    check_model(c, m, ir_version_at);
}

}  // namespace onnximport::detail
