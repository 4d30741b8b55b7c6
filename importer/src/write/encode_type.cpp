// TypeProto and its members. A member's message is written even when empty (a sequence
// without elem_type, an opaque type without names): its presence is the kind.
#include "write/onnx_encoder.hpp"

#include <onnx_fields.hpp>

namespace onnximport::detail {

void OnnxEncoder::type(const TypeProto& t) {
    using F = proto::Type;
    using K = TypeProto::Kind;
    auto elem = [&](uint32_t field) {
        if (t.elem) e_.message(field, [&] { type(*t.elem); });
    };
    switch (t.kind) {
    case K::None: break;
    case K::Tensor: e_.message(+F::tensor_type, [&] { tensor_type(t); }); break;
    case K::SparseTensor: e_.message(+F::sparse_tensor_type, [&] { tensor_type(t); }); break;
    case K::Sequence: e_.message(+F::sequence_type, [&] { elem(+proto::ElemType::elem_type); }); break;
    case K::Optional: e_.message(+F::optional_type, [&] { elem(+proto::ElemType::elem_type); }); break;
    case K::Map:
        e_.message(+F::map_type, [&] {
            if (t.elem_type != 0) e_.int_field(+proto::MapType::key_type, t.elem_type);
            elem(+proto::MapType::value_type);
        });
        break;
    case K::Opaque:
        e_.message(+F::opaque_type, [&] {
            if (!t.opaque_domain().empty()) e_.string_field(+proto::OpaqueType::domain, t.opaque_domain());
            if (!t.opaque_name().empty()) e_.string_field(+proto::OpaqueType::name, t.opaque_name());
        });
        break;
    }
    if (!t.denotation().empty()) e_.string_field(+F::denotation, t.denotation());
}

void OnnxEncoder::tensor_type(const TypeProto& t) {
    using F = proto::TensorType;
    using D = proto::Dimension;
    if (t.elem_type != 0) e_.int_field(+F::elem_type, t.elem_type);
    if (!t.has_shape) return;
    e_.message(+F::shape, [&] {
        for (size_t i = 0; i < t.shape.size(); ++i)
            e_.message(+proto::Shape::dim, [&] {
                const Dimension& d = t.shape[i];
                if (d.kind() == Dimension::Kind::Value) e_.int_field(+D::dim_value, d.value());
                if (d.kind() == Dimension::Kind::Param) e_.string_field(+D::dim_param, d.param());
                if (!t.dim_denotation(i).empty()) e_.string_field(+D::denotation, t.dim_denotation(i));
            });
    });
}

}  // namespace onnximport::detail
