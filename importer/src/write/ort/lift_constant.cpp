// Constant nodes as initializers (docs/ort-normalizations.md, "constant-to-initializer"):
// ONNX Runtime lifts them when it loads a model and has no kernel for Constant, so an
// .ort it runs holds them as initializers named after the node's output. The values are
// converted as ONNX defines them: value_float(s) FLOAT, value_int(s) INT64, value_string(s)
// STRING, scalars of rank 0 and lists of rank 1; sparse_value becomes a sparse initializer.
#include "write/ort/lift_constant.hpp"

#include <onnximport/data_type.hpp>

#include <algorithm>
#include <bit>
#include <cstring>

namespace onnximport::detail {

namespace {

// The raw layout is little-endian; a host's values are copied as they are.
static_assert(std::endian::native == std::endian::little);

template <class T>
std::vector<std::byte> bytes_of(const T* values, size_t n) {
    std::vector<std::byte> out(n * sizeof(T));
    if (n) std::memcpy(out.data(), values, out.size());
    return out;
}

constexpr std::string_view value_attributes[] = {"value",        "value_float",  "value_floats", "value_int",
                                                 "value_ints",   "value_string", "value_strings", "sparse_value"};

}  // namespace

const Attribute* constant_value(const Node& n) noexcept {
    if (n.op_type != "Constant" || (!n.domain.empty() && n.domain != "ai.onnx")) return nullptr;
    if (!n.inputs.empty() || n.outputs.size() != 1 || n.outputs[0].empty() || n.attributes.size() != 1) return nullptr;
    const Attribute& at = n.attributes[0];
    if (!at.ref_attr_name().empty()) return nullptr;
    for (std::string_view name : value_attributes)
        if (at.name == name) return &at;
    return nullptr;
}

bool lifts_to_sparse(const Attribute& value) noexcept { return value.name == "sparse_value"; }

flatbuffers::Offset<fb::Tensor> put_lifted(OrtAssembly& a, const Node& n, const Attribute& v) {
    const std::string_view name = n.outputs[0];
    const int64_t count = static_cast<int64_t>(v.name.ends_with('s') ? std::max({v.floats().size(), v.ints().size(),
                                                                                 v.strings().size()})
                                                                     : 1);
    const std::span<const int64_t> scalar, list(&count, 1);
    const auto dims = v.name.ends_with('s') ? list : scalar;
    if (v.name == "value") {
        if (!v.t()) a.unsupported("Constant's value has no tensor");
        return put_tensor(a, *v.t(), name);
    }
    if (v.name == "value_float") return put_owned_tensor(a, name, 1, dims, bytes_of(&v.f, 1));
    if (v.name == "value_floats")
        return put_owned_tensor(a, name, 1, dims, bytes_of(v.floats().data(), v.floats().size()));
    if (v.name == "value_int") return put_owned_tensor(a, name, 7, dims, bytes_of(&v.i, 1));
    if (v.name == "value_ints") return put_owned_tensor(a, name, 7, dims, bytes_of(v.ints().data(), v.ints().size()));
    if (v.name == "value_string") {
        const std::string_view s = v.s();
        return put_string_tensor(a, name, dims, {&s, 1});
    }
    return put_string_tensor(a, name, dims, {v.strings().data(), v.strings().size()});
}

}  // namespace onnximport::detail
