// Node and Attribute of .ort (spec section 2, "Attributes"): names and strings as views,
// scalars inline, a declared type that .ort can represent (1..10) with the field it needs.
#include "core/text.hpp"
#include "format/attribute_type.hpp"
#include "ort/context.hpp"
#include "ort/node_facts.hpp"
#include "ort/reader.hpp"

namespace onnximport::detail {

namespace {

using A = fb::Attribute;
using N = fb::Node;

/// The names of a vector of strings, into `out` (placed in `arena`).
void read_names(OrtContext& c, Arena& arena, const FbVector& v, std::string_view field, List<std::string_view>& out,
                bool utf8 = true) {
    ListAccess::reserve(arena, out, v.count);
    for (uint32_t i = 0; i < v.count; ++i) ListAccess::push_back(arena, out, c.fb.string_at(v, i, field, utf8));
}

template <class T>
void copy_scalars(OrtContext& c, const FbVector& v, List<T>& out) {
    ListAccess::reserve(c.arena, out, v.count);
    for (uint32_t i = 0; i < v.count; ++i) ListAccess::push_back(c.arena, out, c.fb.scalar_at<T>(v, i));
}

void check_type(const OrtContext& c, const FbTable& fa, int32_t type, bool has_t, bool has_g, const Attribute& a) {
    const uint8_t* at = c.at(fa, A::VT_TYPE);
    if (is_known_attribute_type(type) && !ort_holds_attribute_type(type))
        c.fail(ErrorKind::Unsupported, at,
               "attribute " + quoted(a.name, '\'') + " has type " + std::to_string(type) + ", which .ort cannot hold",
               "type");
    if (!is_known_attribute_type(type))
        c.invalid(at, "attribute " + quoted(a.name, '\'') + " has unknown type " + std::to_string(type), "type");
    // Of the types with a required field, .ort holds only TENSOR (t) and GRAPH (g).
    const char* field = required_field(static_cast<AttributeType>(type));
    if (field && !(type == static_cast<int32_t>(AttributeType::Tensor) ? has_t : has_g))
        c.invalid(fa, "attribute " + quoted(a.name, '\'') + " is declared as " + field + " but that field is absent",
                  field);
}

void read_tensors(OrtContext& c, const FbVector& v, AttributeFields& f) {
    ListAccess::view(f.tensors, ListAccess::make_array<TensorView>(c.arena, v.count), v.count);
    for (uint32_t i = 0; i < v.count; ++i) {
        const FbTable ft = c.fb.table_at(v, i, "tensors");
        PathScope at(c.path, "tensors", i);
        read_ort_tensor(c, ft, f.tensors[i]);
    }
}

void read_graphs(OrtContext& c, const FbVector& v, AttributeFields& f) {
    ListAccess::view(f.graphs, ListAccess::make_array<Graph>(c.arena, v.count), v.count);
    for (uint32_t i = 0; i < v.count; ++i) {
        const FbTable fg = c.fb.table_at(v, i, "graphs");
        PathScope at(c.path, "graphs", i);
        read_ort_graph(c, fg, f.graphs[i]);
    }
}

/// The out-of-line fields, allocated only when one is present.
void read_rare_fields(OrtContext& c, const FbTable& fa, Attribute& a, const FbTable& t, const FbTable& g) {
    bool has_s = false;
    const std::string_view s = c.fb.bytes(fa, A::VT_S, "s", &has_s);  // bytes in AttributeProto
    const std::string_view doc = c.fb.string(fa, A::VT_DOC_STRING, "doc_string");
    const FbVector floats = c.fb.vector(fa, A::VT_FLOATS, 4, "floats");
    const FbVector ints = c.fb.vector(fa, A::VT_INTS, 8, "ints");
    const FbVector strings = c.fb.vector(fa, A::VT_STRINGS, 4, "strings");
    const FbVector tensors = c.fb.vector(fa, A::VT_TENSORS, 4, "tensors");
    const FbVector graphs = c.fb.vector(fa, A::VT_GRAPHS, 4, "graphs");
    if (!has_s && !t && !g && !floats.at && !ints.at && !strings.at && !tensors.at && !graphs.at && doc.empty())
        return;
    AttributeFields& f = ModelAccess::fields_in(c.arena, a);
    f.s = s;
    f.doc_string = doc;
    if (t) {
        PathScope at(c.path, "t");
        f.t = c.arena.make<TensorView>();
        read_ort_tensor(c, t, *f.t);
    }
    if (g) {
        PathScope at(c.path, "g");
        f.g = c.arena.make<Graph>();
        read_ort_graph(c, g, *f.g);
    }
    copy_scalars(c, floats, f.floats);
    copy_scalars(c, ints, f.ints);
    {
        PathScope at(c.path, "strings");
        read_names(c, c.arena, strings, "strings", f.strings, false);  // bytes in AttributeProto
    }
    read_tensors(c, tensors, f);
    read_graphs(c, graphs, f);
}

void read_attribute(OrtContext& c, const FbTable& fa, Attribute& a) {
    Nested nested(c, fa);
    c.fb.charge(sizeof(Attribute) + sizeof(AttributeFields), fa.at);
    a.name = c.fb.string(fa, A::VT_NAME, "name");
    const auto type = c.fb.scalar<int32_t>(fa, A::VT_TYPE, 0, "type");
    // Most attributes are scalars whose vtable ends before `s`: no rare field to look for.
    const bool scalar_only = fa.vtable_size <= A::VT_S;
    const FbTable t = scalar_only ? FbTable{} : c.fb.table(fa, A::VT_T, "t");
    const FbTable g = scalar_only ? FbTable{} : c.fb.table(fa, A::VT_G, "g");
    check_type(c, fa, type, bool(t), bool(g), a);
    a.type = static_cast<AttributeType>(type);
    a.type_declared = true;
    a.f = c.fb.scalar<float>(fa, A::VT_F, 0.0f, "f");
    a.i = c.fb.scalar<int64_t>(fa, A::VT_I, 0, "i");
    if (!scalar_only) return read_rare_fields(c, fa, a, t, g);
    if (const std::string_view doc = c.fb.string(fa, A::VT_DOC_STRING, "doc_string"); !doc.empty())
        ModelAccess::fields_in(c.arena, a).doc_string = doc;
}

/// Reads attribute `fa`; a scalar one (no rare field) is kept for the nodes after. Whether it
/// holds subgraphs.
bool read_new_attribute(OrtContext& c, const FbTable& fa, Attribute& a) {
    const uint64_t before = c.fb.used();
    read_attribute(c, fa, a);
    if (fa.vtable_size <= A::VT_S) c.read_attributes.add({fa.at, c.depth, c.fb.used() - before, a});
    return ModelAccess::holds_subgraphs(a);
}

/// A scalar attribute read before from the same place at the same depth is copied, its
/// table's start not checked again: the same bytes read the same, and the copy charges the
/// same work, the start's included (rule O15). A copy refuses nothing else, so it pushes no
/// path segment unless its charge is refused. Subgraphs are asked of the source: `a` was
/// just stored, and in a large graph its line is not in cache (docs/performance-history.md, ".ort
/// copies").
void read_attributes(OrtContext& c, const FbTable& fn, Node& n) {
    const FbVector v = c.fb.vector(fn, N::VT_ATTRIBUTES, 4, "attributes");
    ListAccess::view(n.attributes, ListAccess::make_array<Attribute>(c.arena, v.count), v.count);
    for (uint32_t i = 0; i < v.count; ++i) {
        const uint32_t place = c.fb.table_place(v, i, "attributes");
        Attribute& a = n.attributes[i];
        const ReadAttributes::Entry* e = c.read_attributes.find(place, c.depth);
        if (e && c.fb.affords(FbReader::table_work + e->work)) {
            ModelAccess::copy(e->value, a);
            c.fb.charge(FbReader::table_work + e->work, place);
            if (ModelAccess::holds_subgraphs(e->value)) ModelAccess::has_subgraphs(n) = true;
            continue;
        }
        const FbTable fa = c.fb.table_at_place(place, "attributes", i);
        PathScope at(c.path, "attributes", i);
        if (e) c.fb.charge(e->work, fa.at);  // over the budget: refused here, at the attribute's path
        if (read_new_attribute(c, fa, a)) ModelAccess::has_subgraphs(n) = true;
    }
}

/// input_arg_counts: one non-negative count per formal input, adding up to the inputs (rule O11).
void check_arg_counts(OrtContext& c, const FbTable& fn, const Node& n) {
    const FbVector counts = c.fb.vector(fn, N::VT_INPUT_ARG_COUNTS, 4, "input_arg_counts");
    if (!counts.at) return;
    uint64_t sum = 0;  // at most 2^32 entries below 2^31 each: no wrap
    for (uint32_t k = 0; k < counts.count; ++k) {
        const auto count = c.fb.scalar_at<int32_t>(counts, k);
        if (count < 0)
            c.invalid(c.fb.address(counts.entry(k)), "input_arg_counts holds a negative count", "input_arg_counts");
        sum += static_cast<uint64_t>(count);
    }
    if (sum != n.inputs.size())
        c.invalid(c.fb.address(counts.at),
                  "input_arg_counts sum to " + std::to_string(sum) + ", but the node has " +
                      std::to_string(n.inputs.size()) + " inputs",
                  "input_arg_counts");
}

/// What only the node-graph checks use: the index, the implicit inputs, and the places of
/// the strings its values name.
void gather_facts(OrtContext& c, const FbTable& fn, const Node& n, OrtNodeFacts& facts) {
    const auto index = c.fb.scalar<uint32_t>(fn, N::VT_INDEX, 0, "index");
    const FbVector implicit = c.fb.vector(fn, N::VT_IMPLICIT_INPUTS, 4, "implicit_inputs");
    const auto begin = static_cast<uint32_t>(facts.implicit_inputs.size());
    for (uint32_t i = 0; i < implicit.count; ++i)
        facts.implicit_inputs.push_back(c.fb.string_at(implicit, i, "implicit_inputs"));
    const uint8_t* index_at = c.at(fn, N::VT_INDEX);
    facts.nodes.push_back({index, static_cast<uint32_t>(index_at - c.base), begin, implicit.count});

    // Places and counts fit in 32 bits: read_ort_model refuses a buffer too large for them
    // (docs/performance-history.md, ".ort edges by place").
    auto place = [&](std::string_view name) {
        return name.empty() ? uint32_t{0} : static_cast<uint32_t>(c.offset_of(address_of(name.data())));
    };
    const auto first = static_cast<uint32_t>(facts.places.size());
    for (const std::string_view name : n.inputs) facts.places.push_back(place(name));
    for (uint32_t i = 0; i < implicit.count; ++i) facts.places.push_back(place(facts.implicit_inputs[begin + i]));
    for (const std::string_view name : n.outputs) facts.places.push_back(place(name));
    facts.values.push_back({first, static_cast<uint32_t>(n.inputs.size()) + implicit.count,
                            static_cast<uint32_t>(n.outputs.size())});
}

}  // namespace

void read_ort_node(OrtContext& c, const FbTable& fn, Node& n, OrtNodeFacts& facts) {
    Nested nested(c, fn);
    c.fb.charge(sizeof(Node), fn.at);
    n.offset = fn.at;
    n.name = c.fb.string(fn, N::VT_NAME, "name");
    n.op_type = c.fb.string(fn, N::VT_OP_TYPE, "op_type");
    n.domain = c.fb.string(fn, N::VT_DOMAIN, "domain");
    if (const std::string_view doc = c.fb.string(fn, N::VT_DOC_STRING, "doc_string"); !doc.empty())
        ModelAccess::fields_in(c.arena, n).doc_string = doc;
    c.fb.scalar<int32_t>(fn, N::VT_SINCE_VERSION, 0, "since_version");
    c.fb.string(fn, N::VT_EXECUTION_PROVIDER_TYPE, "execution_provider_type");
    const auto type = c.fb.scalar<int32_t>(fn, N::VT_TYPE, 0, "type");
    if (type != 0 && type != 1)
        c.invalid(c.at(fn, N::VT_TYPE), "unknown node type " + std::to_string(type) + " (Primitive 0, Fused 1)",
                  "type");
    // Inputs and outputs go to their own arena, as the .onnx reader places them.
    read_names(c, c.node_edges, c.fb.vector(fn, N::VT_INPUTS, 4, "inputs"), "inputs", n.inputs);
    read_names(c, c.node_edges, c.fb.vector(fn, N::VT_OUTPUTS, 4, "outputs"), "outputs", n.outputs);
    read_attributes(c, fn, n);
    check_arg_counts(c, fn, n);
    gather_facts(c, fn, n, facts);
}

}  // namespace onnximport::detail
