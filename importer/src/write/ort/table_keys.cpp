// The keys of shared tables (table_keys.hpp). A key is a sequence of fixed-size numbers and
// length-prefixed byte strings, so two keys are equal only when every field is.
#include "write/ort/table_keys.hpp"

#include <bit>
#include <cstring>
#include <string_view>

namespace onnximport::detail {

namespace {

class Key {
public:
    template <class T>
    Key& number(T v) {
        char bytes[sizeof v];
        std::memcpy(bytes, &v, sizeof v);
        out.append(bytes, sizeof v);
        return *this;
    }
    Key& text(std::string_view s) {
        number(static_cast<uint64_t>(s.size()));
        out.append(s);
        return *this;
    }
    std::string out;
};

// The TypeInfo union's members, as the keys name them.
enum Tag : uint8_t { tensor_tag = 1, sequence_tag = 2, map_tag = 3, other_tag = 4 };

void put_dims_of(Key& k, const TypeProto& t) {
    k.number(static_cast<uint8_t>(t.has_shape));
    if (!t.has_shape) return;
    k.number(static_cast<uint64_t>(t.shape.size()));
    for (size_t i = 0; i < t.shape.size(); ++i) {
        const Dimension& d = t.shape[i];
        k.number(static_cast<uint8_t>(d.kind()));
        if (d.kind() == Dimension::Kind::Value) k.number(d.value());
        if (d.kind() == Dimension::Kind::Param) k.text(d.param());
        k.text(t.dim_denotation(i));
    }
}

void put_type(Key& k, const TypeProto* t) {
    using K = TypeProto::Kind;
    k.number(static_cast<uint8_t>(t != nullptr));
    if (!t) return;
    k.text(t->denotation());
    switch (t->kind) {
    case K::Tensor:
        k.number(tensor_tag).number(t->elem_type);
        put_dims_of(k, *t);
        return;
    case K::Sequence: k.number(sequence_tag); break;
    case K::Map: k.number(map_tag).number(t->elem_type); break;
    default: k.number(other_tag).number(static_cast<uint8_t>(t->kind)); return;  // refused when written
    }
    put_type(k, t->elem);
}

}  // namespace

std::string type_key(const TypeProto& t) {
    Key k;
    put_type(k, &t);
    return std::move(k.out);
}

std::string tensor_type_key(int32_t data_type, std::span<const int64_t> dims) {
    Key k;
    k.number(uint8_t{1}).text({}).number(tensor_tag).number(data_type).number(uint8_t{1});
    k.number(static_cast<uint64_t>(dims.size()));
    for (int64_t d : dims) k.number(static_cast<uint8_t>(Dimension::Kind::Value)).number(d).text({});
    return std::move(k.out);
}

std::string inferred_type_key(ValueType t) {
    Key k;
    k.number(uint8_t{1}).text({});
    if (t.kind == ValueType::Kind::Sequence) k.number(sequence_tag).number(uint8_t{1}).text({});
    k.number(tensor_tag).number(t.elem).number(uint8_t{0});
    return std::move(k.out);
}

bool shareable(const Attribute& at) noexcept {
    return !at.t() && !at.g() && at.tensors().empty() && at.graphs().empty();
}

std::string attribute_key(const Attribute& at) {
    Key k;
    k.text(at.name).text(at.doc_string()).text(at.ref_attr_name());
    k.number(static_cast<int32_t>(at.type)).number(std::bit_cast<uint32_t>(at.f)).number(at.i).text(at.s());
    k.number(static_cast<uint64_t>(at.floats().size()));
    for (float f : at.floats()) k.number(std::bit_cast<uint32_t>(f));
    k.number(static_cast<uint64_t>(at.ints().size()));
    for (int64_t i : at.ints()) k.number(i);
    k.number(static_cast<uint64_t>(at.strings().size()));
    for (std::string_view s : at.strings()) k.text(s);
    return std::move(k.out);
}

}  // namespace onnximport::detail
