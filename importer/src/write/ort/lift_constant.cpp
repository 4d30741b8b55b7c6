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

LiftedConstant lift_constant(const Node& n, const Attribute& v) {
    using K = LiftedConstant::Kind;
    LiftedConstant c;
    c.node = &n;
    c.name = n.outputs[0];
    if (v.name == "value" || v.name == "sparse_value") {
        c.kind = v.name == "value" ? K::Tensor : K::Sparse;
        c.tensor = v.t();
        c.sparse = v.sparse_tensor();
        if (c.kind == K::Tensor && !c.tensor) c.refused = LoweringRefusal{"Constant's value has no tensor", {}};
        if (c.kind == K::Sparse && !c.sparse)
            c.refused = LoweringRefusal{"Constant's sparse_value has no sparse tensor", {}};
        return c;
    }
    if (v.name.ends_with('s'))
        c.dims.push_back(static_cast<int64_t>(std::max({v.floats().size(), v.ints().size(), v.strings().size()})));
    c.kind = v.name.starts_with("value_string") ? K::Strings : K::Owned;
    if (v.name == "value_float") c.bytes = bytes_of(&v.f, 1);
    if (v.name == "value_floats") c.bytes = bytes_of(v.floats().data(), v.floats().size());
    if (v.name == "value_int") c.bytes = bytes_of(&v.i, 1);
    if (v.name == "value_ints") c.bytes = bytes_of(v.ints().data(), v.ints().size());
    c.data_type = static_cast<int32_t>(c.kind == K::Strings ? DataType::String
                                       : v.name.starts_with("value_float") ? DataType::Float
                                                                           : DataType::Int64);
    if (v.name == "value_string") c.strings.push_back(v.s());
    if (v.name == "value_strings") c.strings.assign(v.strings().begin(), v.strings().end());
    return c;
}

}  // namespace onnximport::detail
