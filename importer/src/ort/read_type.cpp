// TypeInfo of .ort into the TypeProto of the model (spec section 2, "Types"): the union
// tag must be a known member (ONNX Runtime refuses NONE as well), a tensor type without a
// shape has unknown rank, a Dimension is a value, a parameter or unknown (kind 0..2).
#include "ort/context.hpp"
#include "ort/reader.hpp"

namespace onnximport::detail {

namespace {

void read_dimension(OrtContext& c, const FbTable& fd, Dimension& d) {
    using D = fb::DimensionValue;
    const FbTable v = c.fb.table(fd, fb::Dimension::VT_VALUE, "value");
    if (!v) return;  // unknown
    PathScope at(c.path, "value");
    Nested nested(c, v);
    const auto kind = c.fb.scalar<int8_t>(v, D::VT_DIM_TYPE, 0, "dim_type");
    const auto value = c.fb.scalar<int64_t>(v, D::VT_DIM_VALUE, 0, "dim_value");
    const std::string_view param = c.fb.string(v, D::VT_DIM_PARAM, "dim_param");
    switch (kind) {
    case 0: return;
    case 1: ModelAccess::set_value(d, value); return;
    case 2: ModelAccess::set_param(d, param); return;
    default:
        c.invalid(c.at(v, D::VT_DIM_TYPE),
                  "unknown dimension kind " + std::to_string(kind) + " (UNKNOWN 0, VALUE 1, PARAM 2)", "dim_type");
    }
}

void read_shape(OrtContext& c, const FbTable& fs, TypeProto& t) {
    t.has_shape = true;
    PathScope at(c.path, "shape");
    Nested nested(c, fs);
    const FbVector dims = c.fb.vector(fs, fb::Shape::VT_DIM, 4, "dim");
    ListAccess::view(t.shape, ListAccess::make_array<Dimension>(c.arena, dims.count), dims.count);
    for (uint32_t i = 0; i < dims.count; ++i) {
        const FbTable fd = c.fb.table_at(dims, i, "dim");
        PathScope at_dim(c.path, "dim", i);
        Nested nested_dim(c, fd);
        read_dimension(c, fd, t.shape[i]);
        const std::string_view denotation = c.fb.string(fd, fb::Dimension::VT_DENOTATION, "denotation");
        if (!denotation.empty()) {
            List<std::string_view>& all = ModelAccess::fields_in(c.arena, t).dim_denotations;
            if (all.empty()) ListAccess::view(all, ListAccess::make_array<std::string_view>(c.arena, dims.count),
                                              dims.count);
            all[i] = denotation;
        }
    }
}

/// An inner TypeInfo (sequence element, map value): absent stays "type absent".
const TypeProto* read_inner(OrtContext& c, const FbTable& holder, uint16_t vt, std::string_view field) {
    const FbTable inner = c.fb.table(holder, vt, field);
    if (!inner) return nullptr;
    TypeProto* t = c.arena.make<TypeProto>();
    PathScope at(c.path, field);
    read_ort_type(c, inner, *t);
    return t;
}

void read_value(OrtContext& c, uint8_t tag, const FbTable& value, TypeProto& t) {
    switch (tag) {
    case 1: {
        using TT = fb::TensorTypeAndShape;
        t.kind = TypeProto::Kind::Tensor;
        t.elem_type = c.fb.scalar<int32_t>(value, TT::VT_ELEM_TYPE, 0, "elem_type");
        if (const FbTable shape = c.fb.table(value, TT::VT_SHAPE, "shape")) read_shape(c, shape, t);
        return;
    }
    case 2:
        t.kind = TypeProto::Kind::Sequence;
        t.elem = read_inner(c, value, fb::SequenceType::VT_ELEM_TYPE, "elem_type");
        return;
    default: {
        using MT = fb::MapType;
        t.kind = TypeProto::Kind::Map;
        t.elem_type = c.fb.scalar<int32_t>(value, MT::VT_KEY_TYPE, 0, "key_type");
        t.elem = read_inner(c, value, MT::VT_VALUE_TYPE, "value_type");
        return;
    }
    }
}

}  // namespace

void read_ort_type(OrtContext& c, const FbTable& ft, TypeProto& t) {
    using TI = fb::TypeInfo;
    Nested nested(c, ft);
    if (const std::string_view d = c.fb.string(ft, TI::VT_DENOTATION, "denotation"); !d.empty())
        ModelAccess::fields_in(c.arena, t).denotation = d;
    const uint8_t* tag_at = c.at(ft, TI::VT_VALUE_TYPE);
    const auto tag = c.fb.scalar<uint8_t>(ft, TI::VT_VALUE_TYPE, 0, "value_type");
    // NONE is refused as ONNX Runtime does; a known tag without its value too (rule O12).
    if (tag < 1 || tag > 3)
        c.invalid(tag_at,
                  "unknown type union tag " + std::to_string(tag) + " (tensor_type 1, sequence_type 2, map_type 3)",
                  "value_type");
    const FbTable value = c.fb.table(ft, TI::VT_VALUE, "value");
    if (!value) c.invalid(tag_at, "the type's value is absent", "value");
    PathScope at(c.path, "value");
    Nested nested_value(c, value);
    read_value(c, tag, value, t);
}

}  // namespace onnximport::detail
