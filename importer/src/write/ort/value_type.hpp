// What the .ort writer's type inference knows of a value (docs/ort.md, "What is written"):
// its kind and element type, never a shape. A declared TypeProto is reduced to this; a
// value the inference cannot type stays Unknown and its NodeArg stays untyped.
#pragma once

#include <onnximport/model.hpp>

#include <cstdint>

namespace onnximport::detail {

struct ValueType {
    /// Optional kinds feed OptionalGetElement; .ort has no table for them, so none is written.
    enum class Kind : uint8_t { Unknown, Tensor, Sequence, Optional, OptionalSequence };
    Kind kind = Kind::Unknown;
    int32_t elem = 0;  ///< the tensor's element type (of the sequence's or optional's tensor)

    // A code of 0 or below (undefined, or a hostile file's) is no element type.
    bool known() const noexcept { return kind != Kind::Unknown && elem > 0; }
    static ValueType tensor(int32_t e) noexcept { return e > 0 ? ValueType{Kind::Tensor, e} : ValueType{}; }
    static ValueType sequence(int32_t e) noexcept { return e > 0 ? ValueType{Kind::Sequence, e} : ValueType{}; }
    friend bool operator==(const ValueType&, const ValueType&) = default;
};

/// A declared type as inference sees it: Unknown for None, maps, sparse, opaque, nested
/// sequences and a missing element type.
inline ValueType value_type_of(const TypeProto* t) noexcept {
    using K = TypeProto::Kind;
    if (!t) return {};
    const TypeProto* inner = t->elem;
    switch (t->kind) {
    case K::Tensor: return ValueType::tensor(t->elem_type);
    case K::Sequence:
        return inner && inner->kind == K::Tensor ? ValueType::sequence(inner->elem_type) : ValueType{};
    case K::Optional:
        if (inner && inner->kind == K::Tensor && inner->elem_type > 0)
            return {ValueType::Kind::Optional, inner->elem_type};
        if (inner && inner->kind == K::Sequence && inner->elem && inner->elem->kind == K::Tensor &&
            inner->elem->elem_type > 0)
            return {ValueType::Kind::OptionalSequence, inner->elem->elem_type};
        return {};
    default: return {};
    }
}

}  // namespace onnximport::detail
