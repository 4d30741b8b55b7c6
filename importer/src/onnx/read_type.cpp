// TypeProto with all its members (spec section 2, "Types"): no member set is "no
// type"; a tensor type without a shape field has unknown rank; a dimension with
// neither dim_value nor dim_param is unknown. The value oneof: the last member wins.
#include "onnx/fields.hpp"

namespace onnximport::detail {

namespace {

/// A dimension's denotation goes to the type's out-of-line fields, at the dimension's
/// index (the dimensions before it exist, so the list is bounded by the input).
void set_dim_denotation(Context& c, TypeProto& t, size_t index, std::string_view denotation) {
    List<std::string_view>& denotations = fields_of(c, t).dim_denotations;
    while (denotations.size() <= index) ListAccess::append(c.arena, denotations);
    denotations[index] = denotation;
}

void read_dimension(Context& c, Reader& r, TypeProto& t, Dimension& d) {
    while (r.next()) {
        using F = proto::Dimension;
        switch (r.field_as<F>()) {
        case F::dim_value: if (r.expect(WireType::Varint)) ModelAccess::set_value(d, read_int64(r)); break;
        case F::dim_param:
            if (r.expect(WireType::Len)) ModelAccess::set_param(d, read_string(c, r, "dim_param"));
            break;
        case F::denotation:
            if (r.expect(WireType::Len))
                set_dim_denotation(c, t, static_cast<size_t>(&d - t.shape.data()), read_string(c, r, "denotation"));
            break;
        default: r.skip();
        }
    }
}

/// A Dimension of one dim_value below 128, from its length on: the bytes 02 08 vv, the
/// commonest dimension there is.
bool is_small_dim_value(const uint8_t* p) noexcept {
    constexpr uint8_t dim_value_key = +proto::Dimension::dim_value << 3;  // wire type 0: varint
    return p[0] == 2 && p[1] == dim_value_key && p[2] < 0x80;
}

/// A small dimension (is_small_dim_value) read without entering its message: what
/// read_dimension would set. Not when the message would be nested too deep, which
/// read_message refuses (docs/performance-history.md, "Small dimensions").
bool read_small_dim_value(const Context& c, Reader& r, Dimension& d) {
    const uint8_t* p = r.cursor();
    if (r.end() - p < 3 || !is_small_dim_value(p)) return false;
    if (!c.may_nest(1)) return false;
    ModelAccess::set_value(d, p[2]);
    r.bytes();
    return true;
}

/// The dimensions grow in place (ListAccess::append_in_place): a dimension places nothing
/// in the arena unless it has a denotation, so no pass over the shape counts them first.
void read_shape(Context& c, Reader& r, TypeProto& t) {
    while (r.next()) {
        if (r.field_as<proto::Shape>() != proto::Shape::dim || !r.is(WireType::Len)) {
            r.skip();
            continue;
        }
        const auto index = static_cast<int64_t>(t.shape.size());
        Dimension& d = ListAccess::append_in_place(c.arena, t.shape);
        if (read_small_dim_value(c, r, d)) continue;
        read_message(c, r, "dim", index, [&](Reader& sub, const uint8_t*) { read_dimension(c, sub, t, d); });
    }
}

/// TypeProto.Tensor and TypeProto.SparseTensor share their layout.
void read_tensor_type(Context& c, Reader& r, TypeProto& t) {
    while (r.next()) {
        using F = proto::TensorType;
        switch (r.field_as<F>()) {
        case F::elem_type: if (r.expect(WireType::Varint)) t.elem_type = read_int32(r); break;
        case F::shape:
            if (!r.expect(WireType::Len)) break;
            t.has_shape = true;
            t.shape = {};  // singular messages are replaced, not merged
            if (auto* f = ModelAccess::fields(t)) f->dim_denotations = {};
            read_message(c, r, "shape", -1, [&](Reader& sub, const uint8_t*) { read_shape(c, sub, t); });
            break;
        default: r.skip();
        }
    }
}

/// Reads a TypeProto-valued field into a fresh arena object.
const TypeProto* read_inner_type(Context& c, Reader& r, std::string_view field) {
    TypeProto* inner = c.arena.make<TypeProto>();
    read_message(c, r, field, -1, [&](Reader& sub, const uint8_t*) { read_type(c, sub, *inner); });
    return inner;
}

/// Sequence and Optional: one elem_type field.
void read_elem_only(Context& c, Reader& r, TypeProto& t) {
    while (r.next()) {
        if (r.field_as<proto::ElemType>() == proto::ElemType::elem_type && r.is(WireType::Len))
            t.elem = read_inner_type(c, r, "elem_type");
        else r.skip();
    }
}

void read_map(Context& c, Reader& r, TypeProto& t) {
    while (r.next()) {
        using F = proto::MapType;
        switch (r.field_as<F>()) {
        case F::key_type: if (r.expect(WireType::Varint)) t.elem_type = read_int32(r); break;
        case F::value_type: if (r.expect(WireType::Len)) t.elem = read_inner_type(c, r, "value_type"); break;
        default: r.skip();
        }
    }
}

void read_opaque(Context& c, Reader& r, TypeProto& t) {
    while (r.next()) {
        using F = proto::OpaqueType;
        switch (r.field_as<F>()) {
        case F::domain: if (r.expect(WireType::Len)) fields_of(c, t).opaque_domain = read_string(c, r, "domain"); break;
        case F::name: if (r.expect(WireType::Len)) fields_of(c, t).opaque_name = read_string(c, r, "name"); break;
        default: r.skip();
        }
    }
}

/// Starts a new oneof member: whatever an earlier member set is dropped.
void reset_member(TypeProto& t, TypeProto::Kind kind) {
    t.kind = kind;
    t.elem_type = 0;
    t.has_shape = false;
    t.shape = {};
    t.elem = nullptr;
    if (auto* f = ModelAccess::fields(t)) {
        f->opaque_domain = {};
        f->opaque_name = {};
        f->dim_denotations = {};
    }
}

}  // namespace

bool read_plain_tensor_type(const Context& c, Reader& r, TypeProto& t) {
    // The field's length, then TypeProto { tensor_type (0a L) { elem_type (08 et), shape (12 L')
    // { dim (0a 02 08 vv) ... } } }: every length and value one byte.
    constexpr uint8_t tensor_type_key = +proto::Type::tensor_type << 3 | 2;
    constexpr uint8_t elem_type_key = +proto::TensorType::elem_type << 3;
    constexpr uint8_t shape_key = +proto::TensorType::shape << 3 | 2;
    constexpr uint8_t dim_key = +proto::Shape::dim << 3 | 2;
    const uint8_t* p = r.cursor();
    const auto left = static_cast<size_t>(r.end() - p);
    if (left < 5 || p[0] < 4 || p[0] >= 0x80 || p[0] > left - 1) return false;
    const uint8_t* q = p + 1;  // the TypeProto's fields, p[0] bytes
    const size_t n = p[0];
    if (q[0] != tensor_type_key || q[1] != n - 2 || q[2] != elem_type_key || q[3] >= 0x80) return false;
    const uint8_t* shape = q + 4;
    const size_t shape_bytes = n - 4;  // 0 (no shape), or its key, its length and its dims
    size_t dims = 0;
    if (shape_bytes != 0) {
        if (shape_bytes < 2 || shape[0] != shape_key || shape[1] != shape_bytes - 2 || shape[1] % 4 != 0) return false;
        dims = shape[1] / 4;
        for (size_t i = 0; i < dims; ++i) {
            const uint8_t* d = shape + 2 + 4 * i;
            if (d[0] != dim_key || !is_small_dim_value(d + 1)) return false;
        }
    }
    if (!c.may_nest(4)) return false;  // type, tensor_type, shape and dim
    t = TypeProto{};
    t.kind = TypeProto::Kind::Tensor;
    t.elem_type = q[3];
    t.has_shape = shape_bytes != 0;
    if (dims != 0) ListAccess::reserve(c.arena, t.shape, dims);
    for (size_t i = 0; i < dims; ++i) ModelAccess::set_value(ListAccess::append(c.arena, t.shape), shape[5 + 4 * i]);
    r.bytes();
    return true;
}

void read_type(Context& c, Reader& r, TypeProto& t) {
    while (r.next()) {
        TypeProto::Kind kind;
        const char* field;
        using F = proto::Type;
        switch (r.field_as<F>()) {
        case F::tensor_type: kind = TypeProto::Kind::Tensor; field = "tensor_type"; break;
        case F::sequence_type: kind = TypeProto::Kind::Sequence; field = "sequence_type"; break;
        case F::map_type: kind = TypeProto::Kind::Map; field = "map_type"; break;
        case F::opaque_type: kind = TypeProto::Kind::Opaque; field = "opaque_type"; break;
        case F::sparse_tensor_type: kind = TypeProto::Kind::SparseTensor; field = "sparse_tensor_type"; break;
        case F::optional_type: kind = TypeProto::Kind::Optional; field = "optional_type"; break;
        case F::denotation:
            if (r.is(WireType::Len)) fields_of(c, t).denotation = read_string(c, r, "denotation");
            else r.skip();
            continue;
        default: r.skip(); continue;
        }
        if (!r.expect(WireType::Len)) continue;
        reset_member(t, kind);
        read_message(c, r, field, -1, [&](Reader& sub, const uint8_t*) {
            switch (kind) {
            case TypeProto::Kind::Tensor:
            case TypeProto::Kind::SparseTensor: read_tensor_type(c, sub, t); break;
            case TypeProto::Kind::Sequence:
            case TypeProto::Kind::Optional: read_elem_only(c, sub, t); break;
            case TypeProto::Kind::Map: read_map(c, sub, t); break;
            default: read_opaque(c, sub, t); break;
            }
        });
    }
}

}  // namespace onnximport::detail
