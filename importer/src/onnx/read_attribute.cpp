// AttributeProto (spec section 2, "Attributes"): its fields, the type declared or inferred
// from the field that is set, and the value a declared type requires.
#include "core/text.hpp"
#include "format/attribute_type.hpp"
#include "onnx/fields.hpp"
#include "onnx/plain_attribute.hpp"

namespace onnximport::detail {

namespace {

/// What the field switch saw that the checks after it need.
struct AttributeSeen {
    bool f = false, i = false, s = false;
    int32_t declared = 0;
    const uint8_t* declared_at = nullptr;
};

/// The fields other than the name, f, i and type (read_attribute reads those four inline).
[[gnu::noinline]] void read_attribute_field(Context& c, Reader& r, Attribute& a, AttributeSeen& seen) {
    using F = proto::Attribute;
    auto tensor = [&](Reader& sub, const uint8_t* at, TensorView& t) { read_tensor(c, sub, at, t); };
    auto graph = [&](Reader& sub, const uint8_t* at, Graph& g) { read_graph(c, sub, at, g); };
    auto sparse = [&](Reader& sub, const uint8_t* at, SparseTensor& t) { read_sparse_tensor(c, sub, at, t); };
    auto type = [&](Reader& sub, const uint8_t*, TypeProto& t) { read_type(c, sub, t); };
    switch (r.field_as<F>()) {
    case F::s: if (r.expect(WireType::Len)) fields_of(c, a).s = read_bytes(r), seen.s = true; break;
    case F::t: if (r.expect(WireType::Len)) fields_of(c, a).t = read_singular<TensorView>(c, r, "t", tensor); break;
    case F::g: if (r.expect(WireType::Len)) fields_of(c, a).g = read_singular_graph(c, r, "g"); break;
    case F::floats: {
        List<float>& floats = fields_of(c, a).floats;
        read_repeated_fixed(r, WireType::Fixed32, [&](uint64_t v) {
            ListAccess::push_back(c.arena, floats, std::bit_cast<float>(uint32_t(v)));
        });
        break;
    }
    case F::ints: read_repeated_int64(c, r, fields_of(c, a).ints); break;
    case F::strings:
        if (r.expect(WireType::Len)) ListAccess::push_back(c.arena, fields_of(c, a).strings, read_bytes(r));
        break;
    case F::tensors: read_repeated_message(c, r, "tensors", fields_of(c, a).tensors, tensor); break;
    case F::graphs: read_repeated_message(c, r, "graphs", fields_of(c, a).graphs, graph); break;
    case F::doc_string:
        if (r.expect(WireType::Len)) fields_of(c, a).doc_string = read_string(c, r, "doc_string");
        break;
    case F::tp: if (r.expect(WireType::Len)) fields_of(c, a).tp = read_singular<TypeProto>(c, r, "tp", type); break;
    case F::type_protos: read_repeated_message(c, r, "type_protos", fields_of(c, a).type_protos, type); break;
    case F::ref_attr_name:
        if (r.expect(WireType::Len)) fields_of(c, a).ref_attr_name = read_string(c, r, "ref_attr_name");
        break;
    case F::sparse_tensor:
        if (r.expect(WireType::Len))
            fields_of(c, a).sparse_tensor = read_singular<SparseTensor>(c, r, "sparse_tensor", sparse);
        break;
    case F::sparse_tensors:
        read_repeated_message(c, r, "sparse_tensors", fields_of(c, a).sparse_tensors, sparse);
        break;
    default: r.skip();
    }
}

/// An undeclared type is inferred from the field that is set, in the spec's order.
AttributeType inferred_type(const Attribute& a, const AttributeSeen& seen) {
    using T = AttributeType;
    if (seen.f) return T::Float;
    if (seen.i) return T::Int;
    if (seen.s) return T::String;
    if (a.t()) return T::Tensor;
    if (a.g()) return T::Graph;
    if (a.sparse_tensor()) return T::SparseTensor;
    if (a.tp()) return T::TypeProto;
    if (!a.floats().empty()) return T::Floats;
    if (!a.ints().empty()) return T::Ints;
    if (!a.strings().empty()) return T::Strings;
    if (!a.tensors().empty()) return T::Tensors;
    if (!a.graphs().empty()) return T::Graphs;
    if (!a.sparse_tensors().empty()) return T::SparseTensors;
    if (!a.type_protos().empty()) return T::TypeProtos;
    return T::Undefined;
}

bool has_required_field(const Attribute& a) {
    switch (a.type) {
    case AttributeType::Tensor: return a.t();
    case AttributeType::Graph: return a.g();
    case AttributeType::SparseTensor: return a.sparse_tensor();
    default: return a.tp();
    }
}

void check_value(const Context& c, const Attribute& a, const uint8_t* key_at) {
    if (!a.ref_attr_name().empty()) return;  // a reference carries no value
    if (a.type == AttributeType::Undefined)
        c.fail(ErrorKind::InvalidModel, key_at,
               "attribute " + quoted(a.name, '\'') + " has neither a type nor a value");
    const char* field = required_field(a.type);
    if (field && !has_required_field(a))
        c.fail(ErrorKind::InvalidModel, key_at,
               "attribute " + quoted(a.name, '\'') + " is declared as " + field + " but that field is absent", field);
}

}  // namespace

bool read_plain_scalar_attribute(const Context& c, Reader& r, Attribute& a) {
    if (!plain_scalar_attribute_end(r.cursor(), r.end()) || !c.may_nest(1)) return false;
    read_plain_scalar_attribute_at(r.cursor(), a);
    r.bytes();
    return true;
}

void read_attribute(Context& c, Reader& r, const uint8_t* key_at, Attribute& a) {
    AttributeSeen seen;
    using F = proto::Attribute;
    // Nearly every attribute of a real graph is a name, one number and a type: read here,
    // without a call per field (docs/performance-history.md, "Small costs the profile hid").
    while (r.next()) {
        switch (r.field_as<F>()) {
        case F::name: if (r.expect(WireType::Len)) a.name = read_string(c, r, "name"); break;
        case F::f: if (r.expect(WireType::Fixed32)) a.f = read_float(r), seen.f = true; break;
        case F::i: if (r.expect(WireType::Varint)) a.i = read_int64(r), seen.i = true; break;
        case F::type:
            if (r.expect(WireType::Varint)) seen.declared_at = r.key_at(), seen.declared = read_int32(r);
            break;
        default: read_attribute_field(c, r, a, seen);
        }
    }
    if (seen.declared != 0) {
        if (!is_known_attribute_type(seen.declared))
            c.fail(ErrorKind::InvalidModel, seen.declared_at, "unknown attribute type " + std::to_string(seen.declared),
                   "type");
        a.type = static_cast<AttributeType>(seen.declared);
        a.type_declared = true;
    } else {
        a.type = inferred_type(a, seen);
    }
    check_value(c, a, key_at);
}

}  // namespace onnximport::detail
