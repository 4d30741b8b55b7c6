// Node and Attribute of .ort (spec section 2, "Attributes"): names and strings as views,
// scalars inline, a declared type that .ort can represent (1..10) with the field it needs.
#include "core/text.hpp"
#include "ort/context.hpp"
#include "ort/reader.hpp"

namespace onnximport::detail {

namespace {

using A = fb::Attribute;

/// The names of a vector of strings, into `out` (placed in `arena`).
void read_names(const OrtContext& c, Arena& arena,
                const flatbuffers::Vector<flatbuffers::Offset<flatbuffers::String>>* v, std::string_view field,
                List<std::string_view>& out) {
    ListAccess::reserve(arena, out, size_of(v));
    for (uint32_t i = 0; i < size_of(v); ++i) ListAccess::push_back(arena, out, text_of(element(c, v, i, field)));
}

void copy_floats(Arena& arena, const flatbuffers::Vector<float>* v, List<float>& out) {
    ListAccess::reserve(arena, out, size_of(v));
    for (uint32_t i = 0; i < size_of(v); ++i) ListAccess::push_back(arena, out, v->Get(i));  // 4-byte aligned
}

void copy_ints(Arena& arena, const flatbuffers::Vector<int64_t>* v, List<int64_t>& out) {
    ListAccess::reserve(arena, out, size_of(v));
    for (uint32_t i = 0; i < size_of(v); ++i) ListAccess::push_back(arena, out, int64_at(v, i));
}

void check_type(const OrtContext& c, const fb::Attribute* fa, const Attribute& a) {
    const uint8_t* at = field_at(fa, A::VT_TYPE);
    const int32_t type = fa->type();
    if (type >= 11 && type <= 14)
        c.fail(ErrorKind::Unsupported, at,
               "attribute " + quoted(a.name, '\'') + " has type " + std::to_string(type) + ", which .ort cannot hold",
               "type");
    if (type < 1 || type > 14)
        c.invalid(at, "attribute " + quoted(a.name, '\'') + " has unknown type " + std::to_string(type), "type");
    if (type == 4 && !fa->t())
        c.invalid(fa, "attribute " + quoted(a.name, '\'') + " is declared as t but that field is absent", "t");
    if (type == 5 && !fa->g())
        c.invalid(fa, "attribute " + quoted(a.name, '\'') + " is declared as g but that field is absent", "g");
}

void read_tensors(OrtContext& c, const fb::Attribute* fa, AttributeFields& f) {
    const auto* v = fa->tensors();
    ListAccess::view(f.tensors, ListAccess::make_array<TensorView>(c.arena, size_of(v)), size_of(v));
    for (uint32_t i = 0; i < size_of(v); ++i) {
        const fb::Tensor* ft = element(c, v, i, "tensors");
        PathScope at(c.path, "tensors", i);
        read_ort_tensor(c, ft, f.tensors[i]);
    }
}

void read_graphs(OrtContext& c, const fb::Attribute* fa, AttributeFields& f) {
    const auto* v = fa->graphs();
    ListAccess::view(f.graphs, ListAccess::make_array<Graph>(c.arena, size_of(v)), size_of(v));
    for (uint32_t i = 0; i < size_of(v); ++i) {
        const fb::Graph* fg = element(c, v, i, "graphs");
        PathScope at(c.path, "graphs", i);
        read_ort_graph(c, fg, f.graphs[i]);
    }
}

/// The out-of-line fields, allocated only when one is present.
void read_rare_fields(OrtContext& c, const fb::Attribute* fa, Attribute& a) {
    if (!fa->s() && !fa->t() && !fa->g() && !fa->floats() && !fa->ints() && !fa->strings() && !fa->tensors() &&
        !fa->graphs() && !fa->doc_string())
        return;
    AttributeFields& f = ModelAccess::fields_in(c.arena, a);
    f.s = text_of(fa->s());
    f.doc_string = text_of(fa->doc_string());
    if (fa->t()) {
        PathScope at(c.path, "t");
        f.t = c.arena.make<TensorView>();
        read_ort_tensor(c, fa->t(), *f.t);
    }
    if (fa->g()) {
        PathScope at(c.path, "g");
        f.g = c.arena.make<Graph>();
        read_ort_graph(c, fa->g(), *f.g);
    }
    copy_floats(c.arena, fa->floats(), f.floats);
    copy_ints(c.arena, fa->ints(), f.ints);
    read_names(c, c.arena, fa->strings(), "strings", f.strings);
    read_tensors(c, fa, f);
    read_graphs(c, fa, f);
}

void read_attribute(OrtContext& c, const fb::Attribute* fa, Attribute& a) {
    a.name = text_of(fa->name());
    check_type(c, fa, a);
    a.type = static_cast<AttributeType>(fa->type());
    a.type_declared = true;
    a.f = fa->f();
    a.i = fa->i();
    read_rare_fields(c, fa, a);
}

}  // namespace

void read_ort_node(OrtContext& c, const fb::Node* fn, Node& n) {
    n.offset = c.offset_of_object(fn);
    n.name = text_of(fn->name());
    n.op_type = text_of(fn->op_type());
    n.domain = text_of(fn->domain());
    if (const std::string_view doc = text_of(fn->doc_string()); !doc.empty())
        ModelAccess::fields_in(c.arena, n).doc_string = doc;
    if (fn->type() != 0 && fn->type() != 1)
        c.invalid(field_at(fn, fb::Node::VT_TYPE),
                  "unknown node type " + std::to_string(fn->type()) + " (Primitive 0, Fused 1)", "type");
    // Inputs and outputs go to their own arena, as the .onnx reader places them.
    read_names(c, c.node_edges, fn->inputs(), "inputs", n.inputs);
    read_names(c, c.node_edges, fn->outputs(), "outputs", n.outputs);
    const auto* v = fn->attributes();
    ListAccess::view(n.attributes, ListAccess::make_array<Attribute>(c.arena, size_of(v)), size_of(v));
    for (uint32_t i = 0; i < size_of(v); ++i) {
        const fb::Attribute* fa = element(c, v, i, "attributes");
        PathScope at(c.path, "attributes", i);
        read_attribute(c, fa, n.attributes[i]);
        const Attribute& a = n.attributes[i];
        if ((a.type == AttributeType::Graph && a.g()) || a.type == AttributeType::Graphs)
            ModelAccess::has_subgraphs(n) = true;
    }
}

}  // namespace onnximport::detail
