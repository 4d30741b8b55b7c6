// TypeInfo tables (spec section 2, "Types"): tensor, sequence and map types with their
// shapes and denotations. Sparse tensor, optional and opaque types have no table in the
// format and are refused; so are element types above 20. Inferred types (infer_types.hpp)
// are an element type without a shape, which the format allows.
#include "write/ort/assembly.hpp"

#include <vector>

namespace onnximport::detail {

namespace {

flatbuffers::Offset<fb::Dimension> put_dimension(OrtAssembly& a, const TypeProto& t, size_t i) {
    const Dimension& d = t.shape[i];
    flatbuffers::Offset<fb::DimensionValue> value;
    if (d.kind() != Dimension::Kind::Unknown) {
        const auto param = d.kind() == Dimension::Kind::Param ? a.fbb.CreateString(d.param().data(), d.param().size())
                                                              : flatbuffers::Offset<flatbuffers::String>();
        fb::DimensionValueBuilder b(a.fbb);
        b.add_dim_type(d.kind() == Dimension::Kind::Value ? 1 : 2);
        if (d.kind() == Dimension::Kind::Value) b.add_dim_value(d.value());
        if (!param.IsNull()) b.add_dim_param(param);
        value = b.Finish();
    }
    const std::string_view den = t.dim_denotation(i);
    const auto den_at =
        den.empty() ? flatbuffers::Offset<flatbuffers::String>() : a.fbb.CreateString(den.data(), den.size());
    fb::DimensionBuilder b(a.fbb);
    if (!value.IsNull()) b.add_value(value);
    if (!den_at.IsNull()) b.add_denotation(den_at);
    return b.Finish();
}

flatbuffers::Offset<fb::TensorTypeAndShape> put_tensor_shape(OrtAssembly& a, const TypeProto& t) {
    check_element_type(a, t.elem_type, "elem_type");
    flatbuffers::Offset<fb::Shape> shape;
    if (t.has_shape) {
        std::vector<flatbuffers::Offset<fb::Dimension>> dims;
        dims.reserve(t.shape.size());
        for (size_t i = 0; i < t.shape.size(); ++i) dims.push_back(put_dimension(a, t, i));
        const auto v = a.fbb.CreateVector(dims);
        shape = fb::CreateShape(a.fbb, v);
    }
    fb::TensorTypeAndShapeBuilder b(a.fbb);
    b.add_elem_type(t.elem_type);
    if (!shape.IsNull()) b.add_shape(shape);
    return b.Finish();
}

/// The type's value and its union tag.
std::pair<fb::TypeInfoValue, flatbuffers::Offset<void>> put_value(OrtAssembly& a, const TypeProto& t) {
    using K = TypeProto::Kind;
    switch (t.kind) {
    case K::Tensor: return {fb::TypeInfoValue::tensor_type, put_tensor_shape(a, t).Union()};
    case K::Sequence: {
        PathScope at(a.refusal.path, "sequence_type");
        const auto elem = t.elem ? put_type(a, *t.elem) : flatbuffers::Offset<fb::TypeInfo>();
        return {fb::TypeInfoValue::sequence_type, fb::CreateSequenceType(a.fbb, elem).Union()};
    }
    case K::Map: {
        PathScope at(a.refusal.path, "map_type");
        const auto value = t.elem ? put_type(a, *t.elem) : flatbuffers::Offset<fb::TypeInfo>();
        return {fb::TypeInfoValue::map_type, fb::CreateMapType(a.fbb, t.elem_type, value).Union()};
    }
    case K::Optional: a.unsupported("an optional type has no representation in .ort");
    case K::SparseTensor: a.unsupported("a sparse tensor type has no representation in .ort");
    case K::Opaque: a.unsupported("an opaque type has no representation in .ort");
    case K::None: break;
    }
    return {fb::TypeInfoValue::NONE, {}};
}

}  // namespace

flatbuffers::Offset<fb::TypeInfo> put_type(OrtAssembly& a, const TypeProto& t) {
    if (t.kind == TypeProto::Kind::None) return {};
    PathScope at(a.refusal.path, "type");
    const auto [tag, value] = put_value(a, t);
    const std::string_view den = t.denotation();
    const auto den_at =
        den.empty() ? flatbuffers::Offset<flatbuffers::String>() : a.fbb.CreateString(den.data(), den.size());
    fb::TypeInfoBuilder b(a.fbb);
    if (!den_at.IsNull()) b.add_denotation(den_at);
    b.add_value_type(tag);
    b.add_value(value);
    return b.Finish();
}

bool has_inferred_table(ValueType t) noexcept {
    using K = ValueType::Kind;
    return t.known() && t.elem <= max_ort_data_type && (t.kind == K::Tensor || t.kind == K::Sequence);
}

flatbuffers::Offset<fb::TypeInfo> put_inferred_type(OrtAssembly& a, ValueType t) {
    using K = ValueType::Kind;
    if (!has_inferred_table(t)) return {};
    if (t.elem >= first_float8_data_type) a.uses_float8 = true;
    const auto tensor = fb::CreateTensorTypeAndShape(a.fbb, t.elem);
    const auto info = fb::CreateTypeInfo(a.fbb, 0, fb::TypeInfoValue::tensor_type, tensor.Union());
    if (t.kind == K::Tensor) return info;
    const auto seq = fb::CreateSequenceType(a.fbb, info);
    return fb::CreateTypeInfo(a.fbb, 0, fb::TypeInfoValue::sequence_type, seq.Union());
}

flatbuffers::Offset<fb::TypeInfo> put_tensor_type(OrtAssembly& a, const TensorView& t) {
    std::vector<flatbuffers::Offset<fb::Dimension>> dims;
    dims.reserve(t.dims.size());
    for (int64_t d : t.dims) {
        const auto v = fb::CreateDimensionValue(a.fbb, 1, d);
        dims.push_back(fb::CreateDimension(a.fbb, v));
    }
    const auto v = a.fbb.CreateVector(dims);
    const auto shape = fb::CreateShape(a.fbb, v);
    const auto tt = fb::CreateTensorTypeAndShape(a.fbb, t.data_type, shape);
    return fb::CreateTypeInfo(a.fbb, 0, fb::TypeInfoValue::tensor_type, tt.Union());
}

}  // namespace onnximport::detail
