// TypeInfo of .ort into the TypeProto of the model (spec section 2, "Types"): the union
// tag must be a known member (ONNX Runtime refuses NONE as well), a tensor type without a
// shape has unknown rank, a Dimension is a value, a parameter or unknown (kind 0..2).
#include "ort/context.hpp"
#include "ort/reader.hpp"

namespace onnximport::detail {

namespace {

void read_dimension(OrtContext& c, const fb::Dimension* fd, Dimension& d) {
    const fb::DimensionValue* v = fd->value();
    if (!v) return;  // unknown
    PathScope at(c.path, "value");
    switch (v->dim_type()) {
    case 0: return;
    case 1: ModelAccess::set_value(d, v->dim_value()); return;
    case 2: ModelAccess::set_param(d, text_of(v->dim_param())); return;
    default:
        c.invalid(field_at(v, fb::DimensionValue::VT_DIM_TYPE),
                  "unknown dimension kind " + std::to_string(v->dim_type()) + " (UNKNOWN 0, VALUE 1, PARAM 2)",
                  "dim_type");
    }
}

void read_shape(OrtContext& c, const fb::Shape* fs, TypeProto& t) {
    t.has_shape = true;
    const auto* dims = fs->dim();
    const uint32_t n = size_of(dims);
    ListAccess::view(t.shape, ListAccess::make_array<Dimension>(c.arena, n), n);
    PathScope at(c.path, "shape");
    for (uint32_t i = 0; i < n; ++i) {
        const fb::Dimension* fd = element(c, dims, i, "dim");
        PathScope at_dim(c.path, "dim", i);
        read_dimension(c, fd, t.shape[i]);
        if (const std::string_view denotation = text_of(fd->denotation()); !denotation.empty()) {
            List<std::string_view>& all = ModelAccess::fields_in(c.arena, t).dim_denotations;
            if (all.empty()) ListAccess::view(all, ListAccess::make_array<std::string_view>(c.arena, n), n);
            all[i] = denotation;
        }
    }
}

/// An inner TypeInfo (sequence element, map value): null stays "type absent".
const TypeProto* read_inner(OrtContext& c, const fb::TypeInfo* inner, std::string_view field) {
    if (!inner) return nullptr;
    TypeProto* t = c.arena.make<TypeProto>();
    PathScope at(c.path, field);
    read_ort_type(c, inner, *t);
    return t;
}

}  // namespace

void read_ort_type(OrtContext& c, const fb::TypeInfo* ft, TypeProto& t) {
    if (const std::string_view d = text_of(ft->denotation()); !d.empty())
        ModelAccess::fields_in(c.arena, t).denotation = d;
    const uint8_t* tag_at = field_at(ft, fb::TypeInfo::VT_VALUE_TYPE);
    const auto tag = static_cast<uint8_t>(ft->value_type());
    // NONE is refused as ONNX Runtime does; a known tag without its value too (the Verifier allows it).
    if (tag < 1 || tag > 3)
        c.invalid(tag_at,
                  "unknown type union tag " + std::to_string(tag) + " (tensor_type 1, sequence_type 2, map_type 3)",
                  "value_type");
    if (!ft->value()) c.invalid(tag_at, "the type's value is absent", "value");
    PathScope at(c.path, "value");
    switch (ft->value_type()) {
    case fb::TypeInfoValue::tensor_type: {
        const fb::TensorTypeAndShape* tt = ft->value_as_tensor_type();
        t.kind = TypeProto::Kind::Tensor;
        t.elem_type = tt->elem_type();
        if (tt->shape()) read_shape(c, tt->shape(), t);
        return;
    }
    case fb::TypeInfoValue::sequence_type:
        t.kind = TypeProto::Kind::Sequence;
        t.elem = read_inner(c, ft->value_as_sequence_type()->elem_type(), "elem_type");
        return;
    case fb::TypeInfoValue::map_type: {
        const fb::MapType* mt = ft->value_as_map_type();
        t.kind = TypeProto::Kind::Map;
        t.elem_type = mt->key_type();
        t.elem = read_inner(c, mt->value_type(), "value_type");
        return;
    }
    default: return;  // refused above
    }
}

}  // namespace onnximport::detail
