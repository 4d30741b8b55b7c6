// Attribute type rules of both formats (spec section 2, "Attributes"; docs/rules.md D3):
// which codes exist, which .ort can hold, and the field a declared type needs.
#pragma once

#include <onnximport/model.hpp>

#include <cstdint>

namespace onnximport::detail {

/// AttributeProto.AttributeType's codes are 1..14 (TYPE_PROTOS); 0 is no type (rule D3).
inline constexpr int32_t max_attribute_type = 14;
/// .ort's Attribute has fields for codes 1..10 (GRAPHS): none for sparse tensors or type protos.
inline constexpr int32_t max_ort_attribute_type = 10;

constexpr bool is_known_attribute_type(int32_t code) { return code >= 1 && code <= max_attribute_type; }

constexpr bool ort_holds_attribute_type(int32_t code) { return code >= 1 && code <= max_ort_attribute_type; }

/// The field a declared tensor, graph, sparse tensor or type attribute needs, or null for
/// the types whose absent field reads as 0 or empty.
constexpr const char* required_field(AttributeType t) {
    switch (t) {
    case AttributeType::Tensor: return "t";
    case AttributeType::Graph: return "g";
    case AttributeType::SparseTensor: return "sparse_tensor";
    case AttributeType::TypeProto: return "tp";
    default: return nullptr;
    }
}

}  // namespace onnximport::detail
