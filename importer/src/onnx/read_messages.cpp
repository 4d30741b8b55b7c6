// The messages of onnx.proto that the importer reads (spec section 2): ModelProto,
// GraphProto, NodeProto, AttributeProto (with type inference), ValueInfoProto,
// OperatorSetIdProto, StringStringEntryProto, FunctionProto and TrainingInfoProto.
// Field numbers are those of onnx.proto; unknown fields are skipped.
#include "onnx/fields.hpp"
#include "onnx/parallel_graph.hpp"

#include <optional>
#include <system_error>

namespace onnximport::detail {

void read_entry(Context& c, Reader& r, StringStringEntry& e) {
    while (r.next()) {
        switch (r.field()) {
        case 1: ONNXIMPORT_EXPECT(r, Len) e.key = read_string(c, r, "key"); break;
        case 2: ONNXIMPORT_EXPECT(r, Len) e.value = read_string(c, r, "value"); break;
        default: r.skip();
        }
    }
}

void read_opset(Context& c, Reader& r, OperatorSetId& o) {
    while (r.next()) {
        switch (r.field()) {
        case 1: ONNXIMPORT_EXPECT(r, Len) o.domain = read_string(c, r, "domain"); break;
        case 2: ONNXIMPORT_EXPECT(r, Varint) o.version = read_int64(r); break;
        default: r.skip();
        }
    }
}

void read_value_info(Context& c, Reader& r, const uint8_t* key_at, ValueInfo& v) {
    v.offset = c.offset_of(key_at);
    while (r.next()) {
        switch (r.field()) {
        case 1: ONNXIMPORT_EXPECT(r, Len) v.name = read_string(c, r, "name"); break;
        case 2:
            ONNXIMPORT_EXPECT(r, Len)
            v.type = TypeProto{};  // singular messages are replaced, not merged
            read_message(c, r, "type", -1, [&](Reader& sub, const uint8_t*) { read_type(c, sub, v.type); });
            break;
        case 3: ONNXIMPORT_EXPECT(r, Len) fields_of(c, v).doc_string = read_string(c, r, "doc_string"); break;
        case 4: read_entries(c, r, "metadata_props", fields_of(c, v).metadata_props); break;
        default: r.skip();
        }
    }
}

namespace {

bool value_field_required(AttributeType t) {
    return t == AttributeType::Tensor || t == AttributeType::Graph || t == AttributeType::SparseTensor ||
           t == AttributeType::TypeProto;
}

/// A singular message field of type T: a fresh object replaces an earlier occurrence
/// (singular messages are not merged).
template <class T, class Read>
T* read_singular(Context& c, Reader& r, std::string_view field, Read&& read) {
    T* item = c.arena.make<T>();
    read_message(c, r, field, -1, [&](Reader& sub, const uint8_t* at) { read(sub, at, *item); });
    return item;
}

const char* value_field_name(AttributeType t) {
    switch (t) {
    case AttributeType::Tensor: return "t";
    case AttributeType::Graph: return "g";
    case AttributeType::SparseTensor: return "sparse_tensor";
    default: return "tp";
    }
}

}  // namespace

void read_attribute(Context& c, Reader& r, const uint8_t* key_at, Attribute& a) {
    bool has_f = false, has_i = false, has_s = false;
    int32_t declared = 0;
    const uint8_t* declared_at = key_at;
    while (r.next()) {
        switch (r.field()) {
        case 1: ONNXIMPORT_EXPECT(r, Len) a.name = read_string(c, r, "name"); break;
        case 2: ONNXIMPORT_EXPECT(r, Fixed32) a.f = read_float(r); has_f = true; break;
        case 3: ONNXIMPORT_EXPECT(r, Varint) a.i = read_int64(r); has_i = true; break;
        case 4: ONNXIMPORT_EXPECT(r, Len) fields_of(c, a).s = read_bytes(r); has_s = true; break;
        case 5:
            ONNXIMPORT_EXPECT(r, Len)
            fields_of(c, a).t = read_singular<TensorView>(
                c, r, "t", [&](Reader& sub, const uint8_t* at, TensorView& t) { read_tensor(c, sub, at, t); });
            break;
        case 6:
            ONNXIMPORT_EXPECT(r, Len)
            fields_of(c, a).g = read_singular<Graph>(
                c, r, "g", [&](Reader& sub, const uint8_t* at, Graph& g) { read_graph(c, sub, at, g); });
            break;
        case 7: {
            List<float>& floats = fields_of(c, a).floats;
            read_repeated_fixed32(c, r, [&](uint32_t v) { ListAccess::push_back(c.arena, floats, std::bit_cast<float>(v)); });
            break;
        }
        case 8: read_repeated_int64(c, r, fields_of(c, a).ints); break;
        case 9: ONNXIMPORT_EXPECT(r, Len) ListAccess::push_back(c.arena, fields_of(c, a).strings, read_bytes(r)); break;
        case 10:
            read_repeated_message(c, r, "tensors", fields_of(c, a).tensors,
                                  [&](Reader& sub, const uint8_t* at, TensorView& t) { read_tensor(c, sub, at, t); });
            break;
        case 11:
            read_repeated_message(c, r, "graphs", fields_of(c, a).graphs,
                                  [&](Reader& sub, const uint8_t* at, Graph& g) { read_graph(c, sub, at, g); });
            break;
        case 13: ONNXIMPORT_EXPECT(r, Len) fields_of(c, a).doc_string = read_string(c, r, "doc_string"); break;
        case 14:
            ONNXIMPORT_EXPECT(r, Len)
            fields_of(c, a).tp = read_singular<TypeProto>(
                c, r, "tp", [&](Reader& sub, const uint8_t*, TypeProto& t) { read_type(c, sub, t); });
            break;
        case 15:
            read_repeated_message(c, r, "type_protos", fields_of(c, a).type_protos,
                                  [&](Reader& sub, const uint8_t*, TypeProto& t) { read_type(c, sub, t); });
            break;
        case 20: ONNXIMPORT_EXPECT(r, Varint) declared_at = r.key_at(); declared = read_int32(r); break;
        case 21: ONNXIMPORT_EXPECT(r, Len) fields_of(c, a).ref_attr_name = read_string(c, r, "ref_attr_name"); break;
        case 22:
            ONNXIMPORT_EXPECT(r, Len)
            fields_of(c, a).sparse_tensor = read_singular<SparseTensor>(
                c, r, "sparse_tensor", [&](Reader& sub, const uint8_t* at, SparseTensor& t) { read_sparse_tensor(c, sub, at, t); });
            break;
        case 23:
            read_repeated_message(c, r, "sparse_tensors", fields_of(c, a).sparse_tensors,
                                  [&](Reader& sub, const uint8_t* at, SparseTensor& t) { read_sparse_tensor(c, sub, at, t); });
            break;
        default: r.skip();
        }
    }

    // The type: declared, else inferred from the field that is set (spec section 2).
    if (declared != 0) {
        if (declared < 1 || declared > 14)
            c.fail(ErrorKind::InvalidModel, declared_at, "unknown attribute type " + std::to_string(declared), "type");
        a.type = static_cast<AttributeType>(declared);
        a.type_declared = true;
    } else if (has_f) a.type = AttributeType::Float;
    else if (has_i) a.type = AttributeType::Int;
    else if (has_s) a.type = AttributeType::String;
    else if (a.t()) a.type = AttributeType::Tensor;
    else if (a.g()) a.type = AttributeType::Graph;
    else if (a.sparse_tensor()) a.type = AttributeType::SparseTensor;
    else if (a.tp()) a.type = AttributeType::TypeProto;
    else if (!a.floats().empty()) a.type = AttributeType::Floats;
    else if (!a.ints().empty()) a.type = AttributeType::Ints;
    else if (!a.strings().empty()) a.type = AttributeType::Strings;
    else if (!a.tensors().empty()) a.type = AttributeType::Tensors;
    else if (!a.graphs().empty()) a.type = AttributeType::Graphs;
    else if (!a.sparse_tensors().empty()) a.type = AttributeType::SparseTensors;
    else if (!a.type_protos().empty()) a.type = AttributeType::TypeProtos;

    if (!a.ref_attr_name().empty()) return;  // a reference carries no value
    if (a.type == AttributeType::Undefined)
        c.fail(ErrorKind::InvalidModel, key_at, "attribute '" + std::string(a.name) + "' has neither a type nor a value");
    if (value_field_required(a.type)) {
        bool present = (a.type == AttributeType::Tensor && a.t()) || (a.type == AttributeType::Graph && a.g()) ||
                       (a.type == AttributeType::SparseTensor && a.sparse_tensor()) ||
                       (a.type == AttributeType::TypeProto && a.tp());
        if (!present)
            c.fail(ErrorKind::InvalidModel, key_at,
                   "attribute '" + std::string(a.name) + "' is declared as " + value_field_name(a.type) +
                       " but that field is absent",
                   value_field_name(a.type));
    }
}

void read_node(Context& c, Reader& r, const uint8_t* key_at, Node& n) {
    n.offset = c.offset_of(key_at);
    // The inputs and outputs go to an arena of their own (Storage::node_edges); each list,
    // and the attributes, grow in place as read (ListAccess::append_in_place): no pass
    // over the node's keys counts them first.
    Arena& edges = c.node_edges;
    while (r.next()) {
        switch (r.field()) {
        case 1: ONNXIMPORT_EXPECT(r, Len) ListAccess::append_in_place(edges, n.inputs) = read_string(c, r, "input"); break;
        case 2: ONNXIMPORT_EXPECT(r, Len) ListAccess::append_in_place(edges, n.outputs) = read_string(c, r, "output"); break;
        case 3: ONNXIMPORT_EXPECT(r, Len) n.name = read_string(c, r, "name"); break;
        case 4: ONNXIMPORT_EXPECT(r, Len) n.op_type = read_string(c, r, "op_type"); break;
        case 5: {
            ONNXIMPORT_EXPECT(r, Len)
            const auto index = static_cast<int64_t>(n.attributes.size());
            Attribute& a = ListAccess::append_in_place(c.arena, n.attributes);
            read_message(c, r, "attribute", index, [&](Reader& sub, const uint8_t* at) {
                read_attribute(c, sub, at, a);
                if ((a.type == AttributeType::Graph && a.g()) || a.type == AttributeType::Graphs) n.has_subgraphs = true;
            });
            break;
        }
        case 6: ONNXIMPORT_EXPECT(r, Len) fields_of(c, n).doc_string = read_string(c, r, "doc_string"); break;
        case 7: ONNXIMPORT_EXPECT(r, Len) n.domain = read_string(c, r, "domain"); break;
        case 8: ONNXIMPORT_EXPECT(r, Len) fields_of(c, n).overload = read_string(c, r, "overload"); break;
        case 9: read_entries(c, r, "metadata_props", fields_of(c, n).metadata_props); break;
        default: r.skip();
        }
    }
}

void read_graph_fields(Context& c, Reader& r, Graph& g, const GraphCounts& counts, const uint8_t* stop) {
    auto presize = [&](auto& list) {
        if (counts.exact && ListAccess::capacity(list) == 0) ListAccess::reserve(c.arena, list, counts.total[r.field()]);
    };
    const uint32_t* base = counts.index_base;
    auto value_info = [&](Reader& sub, const uint8_t* at, ValueInfo& v) { read_value_info(c, sub, at, v); };
    auto tensor = [&](Reader& sub, const uint8_t* at, TensorView& t) { read_tensor(c, sub, at, t); };
    auto sparse_tensor = [&](Reader& sub, const uint8_t* at, SparseTensor& t) { read_sparse_tensor(c, sub, at, t); };
    while (r.next()) {
        if (r.key_at() == stop) return;  // a helper reads on from here
        switch (r.field()) {
        case 1:
            presize(g.nodes);
            read_repeated_message(c, r, "node", g.nodes, [&](Reader& sub, const uint8_t* at, Node& n) {
                read_node(c, sub, at, n);
                g.node_input_count += n.inputs.size();
                g.node_output_count += n.outputs.size();
            }, base[1]);
            break;
        case 2: ONNXIMPORT_EXPECT(r, Len) g.name = read_string(c, r, "name"); break;
        case 5: read_repeated_message(c, r, "initializer", g.initializers, tensor, base[5]); break;
        case 10: ONNXIMPORT_EXPECT(r, Len) g.doc_string = read_string(c, r, "doc_string"); break;
        case 11:
            presize(g.inputs);
            read_repeated_message(c, r, "input", g.inputs, value_info, base[11]);
            break;
        case 12:
            presize(g.outputs);
            read_repeated_message(c, r, "output", g.outputs, value_info, base[12]);
            break;
        case 13:
            presize(g.value_info);
            read_repeated_message(c, r, "value_info", g.value_info, value_info, base[13]);
            break;
        case 15: read_repeated_message(c, r, "sparse_initializer", g.sparse_initializers, sparse_tensor, base[15]); break;
        case 16: read_entries(c, r, "metadata_props", g.metadata_props, base[16]); break;
        default: r.skip();  // quantization_annotation (14) and anything newer
        }
    }
}

void read_graph(Context& c, Reader& r, const uint8_t* key_at, Graph& g) {
    g.offset = c.offset_of(key_at);
    // One pass counts the repeated fields. It stops before a large payload
    // (Reader::count_len_fields); then each list is counted at its first occurrence
    // instead. Either way a list is sized at its first occurrence, so the arena sees the
    // same requests whether or not the weights stopped the scan (heap use must not depend
    // on the weights' sizes). It also finds the first key past the middle of the bytes,
    // where a helper thread may take over (parallel_graph.hpp).
    GraphCounts counts;
    const uint8_t* const middle = r.cursor() + (r.end() - r.cursor()) / 2;
    const uint8_t* split = nullptr;
    counts.exact = r.scan_len_keys(r.cursor(), [&](uint32_t field, const uint8_t* at) {
        const uint32_t f = field < GraphCounts::fields ? field : 0;
        counts.total[f]++;
        if (at < middle) counts.before_split[f]++;
        else if (!split) split = at;
    });
    std::optional<GraphHelper> helper;
    if (c.may_split && counts.exact && split && counts.total[1] >= min_parallel_nodes) {
        c.may_split = false;
        try {
            helper.emplace(c, g, counts, split, r.end());
        } catch (const std::system_error&) {
            helper.reset();  // no thread to be had: this one reads it all
        }
    }
    read_graph_fields(c, r, g, counts, helper ? split : nullptr);
    if (helper) helper->finish(c, g);
}

void read_function(Context& c, Reader& r, const uint8_t* key_at, Function& f) {
    f.offset = c.offset_of(key_at);
    while (r.next()) {
        switch (r.field()) {
        case 1: ONNXIMPORT_EXPECT(r, Len) f.name = read_string(c, r, "name"); break;
        case 4: read_repeated_string(c, r, "input", f.inputs); break;
        case 5: read_repeated_string(c, r, "output", f.outputs); break;
        case 6: read_repeated_string(c, r, "attribute", f.attributes); break;
        case 7:
            read_repeated_message(c, r, "node", f.nodes,
                                  [&](Reader& sub, const uint8_t* at, Node& n) { read_node(c, sub, at, n); });
            break;
        case 8: ONNXIMPORT_EXPECT(r, Len) f.doc_string = read_string(c, r, "doc_string"); break;
        case 9:
            read_repeated_message(c, r, "opset_import", f.opset_import,
                                  [&](Reader& sub, const uint8_t*, OperatorSetId& o) { read_opset(c, sub, o); });
            break;
        case 10: ONNXIMPORT_EXPECT(r, Len) f.domain = read_string(c, r, "domain"); break;
        case 11:
            read_repeated_message(c, r, "attribute_proto", f.attribute_protos,
                                  [&](Reader& sub, const uint8_t* at, Attribute& a) { read_attribute(c, sub, at, a); });
            break;
        case 12:
            read_repeated_message(c, r, "value_info", f.value_info,
                                  [&](Reader& sub, const uint8_t* at, ValueInfo& v) { read_value_info(c, sub, at, v); });
            break;
        case 13: ONNXIMPORT_EXPECT(r, Len) f.overload = read_string(c, r, "overload"); break;
        case 14: read_entries(c, r, "metadata_props", f.metadata_props); break;
        default: r.skip();
        }
    }
}

void read_training_info(Context& c, Reader& r, TrainingInfo& t) {
    while (r.next()) {
        switch (r.field()) {
        case 1:
            ONNXIMPORT_EXPECT(r, Len)
            t.initialization = read_singular<Graph>(
                c, r, "initialization", [&](Reader& sub, const uint8_t* at, Graph& g) { read_graph(c, sub, at, g); });
            break;
        case 2:
            ONNXIMPORT_EXPECT(r, Len)
            t.algorithm = read_singular<Graph>(
                c, r, "algorithm", [&](Reader& sub, const uint8_t* at, Graph& g) { read_graph(c, sub, at, g); });
            break;
        case 3: read_entries(c, r, "initialization_binding", t.initialization_binding); break;
        case 4: read_entries(c, r, "update_binding", t.update_binding); break;
        default: r.skip();
        }
    }
}

void read_model(Context& c, Reader& r, Model& m) {
    const uint8_t* ir_version_at = c.base;  // the key of the occurrence that won
    while (r.next()) {
        switch (r.field()) {
        case 1:
            ONNXIMPORT_EXPECT(r, Varint)
            ir_version_at = r.key_at();
            m.ir_version = read_int64(r);
            m.has_ir_version = true;
            break;
        case 2: ONNXIMPORT_EXPECT(r, Len) m.producer_name = read_string(c, r, "producer_name"); break;
        case 3: ONNXIMPORT_EXPECT(r, Len) m.producer_version = read_string(c, r, "producer_version"); break;
        case 4: ONNXIMPORT_EXPECT(r, Len) m.domain = read_string(c, r, "domain"); break;
        case 5: ONNXIMPORT_EXPECT(r, Varint) m.model_version = read_int64(r); break;
        case 6: ONNXIMPORT_EXPECT(r, Len) m.doc_string = read_string(c, r, "doc_string"); break;
        case 7:
            ONNXIMPORT_EXPECT(r, Len)
            m.graph = read_singular<Graph>(
                c, r, "graph", [&](Reader& sub, const uint8_t* at, Graph& g) { read_graph(c, sub, at, g); });
            break;
        case 8:
            read_repeated_message(c, r, "opset_import", m.opset_import,
                                  [&](Reader& sub, const uint8_t*, OperatorSetId& o) { read_opset(c, sub, o); });
            break;
        case 14: read_entries(c, r, "metadata_props", m.metadata_props); break;
        case 20:
            read_repeated_message(c, r, "training_info", m.training_info,
                                  [&](Reader& sub, const uint8_t*, TrainingInfo& t) { read_training_info(c, sub, t); });
            break;
        case 25:
            read_repeated_message(c, r, "functions", m.functions,
                                  [&](Reader& sub, const uint8_t* at, Function& f) { read_function(c, sub, at, f); });
            break;
        default: r.skip();
        }
    }
    // Model checks (spec section 2).
    if (!m.has_ir_version) c.fail(ErrorKind::InvalidModel, c.base, "ir_version is missing", "ir_version");
    if (m.ir_version < 3)
        c.fail(ErrorKind::InvalidModel, ir_version_at,
               "ir_version " + std::to_string(m.ir_version) + " is below 3, the oldest version read", "ir_version");
    if (!m.graph) c.fail(ErrorKind::InvalidModel, c.base, "the model has no graph", "graph");
}

}  // namespace onnximport::detail
