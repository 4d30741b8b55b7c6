// Attribute tables (spec section 2, "Attributes"): every attribute with its declared (or
// inferred) type, since ONNX Runtime reads the value by the type. Sparse tensor and type
// proto attributes (11..14) have no field in the format and are refused.
#include "core/text.hpp"
#include "format/attribute_type.hpp"
#include "write/ort/assembly.hpp"
#include "write/ort/table_keys.hpp"

#include <bit>
#include <cstdint>
#include <vector>

namespace onnximport::detail {

namespace {

using Tensors = flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fb::Tensor>>>;
using Graphs = flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fb::Graph>>>;

Tensors put_tensors(OrtAssembly& a, const List<TensorView>& list) {
    if (list.empty()) return {};
    std::vector<flatbuffers::Offset<fb::Tensor>> items;
    for (size_t i = 0; i < list.size(); ++i) {
        PathScope at(a.refusal.path, "tensors", static_cast<int64_t>(i));
        items.push_back(put_tensor(a, list[i], list[i].name));
    }
    return a.fbb.CreateVector(items);
}

Graphs put_graphs(OrtAssembly& a, const List<Graph>& list) {
    if (list.empty()) return {};
    std::vector<flatbuffers::Offset<fb::Graph>> items;
    for (size_t i = 0; i < list.size(); ++i) {
        PathScope at(a.refusal.path, "graphs", static_cast<int64_t>(i));
        items.push_back(put_graph(a, list[i]));
    }
    return a.fbb.CreateVector(items);
}

void check_type(const OrtAssembly& a, const Attribute& at) {
    const auto code = static_cast<int32_t>(at.type);
    auto name = [&at] { return quoted(at.name, '\''); };  // built only for a refusal
    if (code == 0) a.unsupported("attribute " + name() + " has no type (a reference)", "type");
    if (!ort_holds_attribute_type(code))
        a.unsupported("attribute " + name() + " has type " + std::to_string(code) +
                      " (sparse tensor or type proto), which .ort cannot hold", "type");
    // No field holds a reference; a TENSOR or GRAPH one would be written without its value.
    if (!at.ref_attr_name().empty())
        a.unsupported("attribute " + name() + " refers to the function attribute " + quoted(at.ref_attr_name(), '\'') +
                          ", which .ort cannot hold",
                      "ref_attr_name");
}

flatbuffers::Offset<flatbuffers::String> string_or_null(OrtAssembly& a, std::string_view s) {
    return s.empty() ? flatbuffers::Offset<flatbuffers::String>() : a.fbb.CreateString(s.data(), s.size());
}

/// The attribute's table, written now.
flatbuffers::Offset<fb::Attribute> put_attribute_table(OrtAssembly& a, const Attribute& at) {
    flatbuffers::Offset<fb::Tensor> t;
    if (at.t()) {
        PathScope in(a.refusal.path, "t");
        t = put_tensor(a, *at.t(), at.t()->name);
    }
    flatbuffers::Offset<fb::Graph> g;
    if (at.g()) {
        PathScope in(a.refusal.path, "g");
        g = put_graph(a, *at.g());
    }
    const Tensors tensors = put_tensors(a, at.tensors());
    const Graphs graphs = put_graphs(a, at.graphs());
    const auto name = a.names.get(at.name);
    const auto doc = string_or_null(a, at.doc_string());
    const auto s = at.type == AttributeType::String || !at.s().empty()
                       ? a.fbb.CreateString(at.s().data(), at.s().size())
                       : flatbuffers::Offset<flatbuffers::String>();
    const auto floats = at.floats().empty() ? flatbuffers::Offset<flatbuffers::Vector<float>>()
                                            : a.fbb.CreateVector(at.floats().data(), at.floats().size());
    const auto ints = at.ints().empty() ? flatbuffers::Offset<flatbuffers::Vector<int64_t>>()
                                        : a.fbb.CreateVector(at.ints().data(), at.ints().size());
    const StringOffsets string_items = put_strings(a, {at.strings().data(), at.strings().size()});
    const auto strings = string_items.empty()
                             ? flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<flatbuffers::String>>>()
                             : a.fbb.CreateVector(string_items);
    fb::AttributeBuilder b(a.fbb);
    b.add_name(name);
    if (!doc.IsNull()) b.add_doc_string(doc);
    b.add_type(static_cast<int32_t>(at.type));
    // A bit pattern other than +0 is forced in: the builder drops a value equal to the
    // default, and -0.0 compares equal to it.
    a.fbb.ForceDefaults(std::bit_cast<uint32_t>(at.f) != 0);
    b.add_f(at.f);
    a.fbb.ForceDefaults(false);
    b.add_i(at.i);
    if (!s.IsNull()) b.add_s(s);
    if (!t.IsNull()) b.add_t(t);
    if (!g.IsNull()) b.add_g(g);
    if (!floats.IsNull()) b.add_floats(floats);
    if (!ints.IsNull()) b.add_ints(ints);
    if (!strings.IsNull()) b.add_strings(strings);
    if (!tensors.IsNull()) b.add_tensors(tensors);
    if (!graphs.IsNull()) b.add_graphs(graphs);
    return b.Finish();
}

}  // namespace

flatbuffers::Offset<fb::Attribute> put_attribute(OrtAssembly& a, const Attribute& at) {
    check_type(a, at);
    if (shareable(at))  // a plain attribute is written once (write/ort/table_pool.hpp)
        return a.tables.get(attribute_key(at), [&] { return put_attribute_table(a, at).o; });
    return put_attribute_table(a, at);
}

}  // namespace onnximport::detail
