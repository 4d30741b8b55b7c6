// AttributeProto. An attribute whose type was inferred (its `type` field absent) gets no
// `type` field again, and the field its type was inferred from is written even when it
// holds 0 or "": the re-import infers the same type (spec section 2, rule M3).
#include "write/onnx_encoder.hpp"

#include <onnx_fields.hpp>

#include <bit>

namespace onnximport::detail {

void OnnxEncoder::attribute(const Attribute& a) {
    using F = proto::Attribute;
    if (!a.name.empty()) text(+F::name, a.name);
    attribute_values(a);
    attribute_lists(a);
    if (!a.doc_string().empty()) text(+F::doc_string, a.doc_string());
    if (a.type_declared) e_.int_field(+F::type, static_cast<int64_t>(a.type));
    if (!a.ref_attr_name().empty()) text(+F::ref_attr_name, a.ref_attr_name());
}

void OnnxEncoder::attribute_values(const Attribute& a) {
    using F = proto::Attribute;
    using T = AttributeType;
    if (a.type == T::Float || std::bit_cast<uint32_t>(a.f) != 0) e_.fixed32_field(+F::f, std::bit_cast<uint32_t>(a.f));
    if (a.type == T::Int || a.i != 0) e_.int_field(+F::i, a.i);
    if (a.type == T::String || !a.s().empty()) e_.string_field(+F::s, a.s());  // bytes
    if (a.t()) e_.message(+F::t, [&] { tensor(*a.t()); });
    if (a.g()) e_.message(+F::g, [&] { graph(*a.g(), a.name); });
    if (a.tp()) e_.message(+F::tp, [&] { type(*a.tp()); });
    if (a.sparse_tensor()) e_.message(+F::sparse_tensor, [&] { sparse_tensor(*a.sparse_tensor()); });
}

void OnnxEncoder::attribute_lists(const Attribute& a) {
    using F = proto::Attribute;
    if (!a.floats().empty())
        e_.message(+F::floats, [&] {
            for (float f : a.floats()) {
                const uint32_t bits = std::bit_cast<uint32_t>(f);
                const std::byte le[4] = {std::byte(bits), std::byte(bits >> 8), std::byte(bits >> 16),
                                         std::byte(bits >> 24)};
                e_.raw_bytes(le);
            }
        });
    if (!a.ints().empty())
        e_.message(+F::ints, [&] {
            for (int64_t i : a.ints()) e_.raw_varint(static_cast<uint64_t>(i));
        });
    strings(+F::strings, a.strings(), false);  // bytes
    for (const auto& t : a.tensors()) e_.message(+F::tensors, [&] { tensor(t); });
    for (const auto& g : a.graphs()) e_.message(+F::graphs, [&] { graph(g, a.name); });
    for (const auto& t : a.type_protos()) e_.message(+F::type_protos, [&] { type(t); });
    for (const auto& s : a.sparse_tensors()) e_.message(+F::sparse_tensors, [&] { sparse_tensor(s); });
}

}  // namespace onnximport::detail
