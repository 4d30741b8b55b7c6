// The state of one .ort walk: where refusals come from (the field path in the schema's
// names, from InferenceSession), and the Model storage the walk fills through ModelAccess.
#pragma once

#include "core/refusal.hpp"
#include "model/access.hpp"
#include "model/storage.hpp"
#include "ort/schema.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace onnximport::detail {

struct OrtContext : Refusal {
    explicit OrtContext(Storage& s) noexcept
        : Refusal(s.source_name, s.input.data(), "InferenceSession"), storage(s), arena(s.arena),
          node_edges(s.node_edges) {}

    Storage& storage;
    Arena& arena;       ///< the Model's objects
    Arena& node_edges;  ///< nodes' inputs and outputs (Storage::node_edges)

    uint64_t offset_of_object(const void* p) const noexcept { return offset_of(address_of(p)); }
    /// A buffer that verified but is not a valid model.
    [[noreturn]] void invalid(const void* at, const std::string& message, std::string_view leaf = {}) const {
        fail(ErrorKind::InvalidModel, address_of(at), message, leaf);
    }
};

/// Element i of a vector of tables or strings, refusing a zero offset: the Verifier
/// accepts one (it reads the slot itself as the element), ONNX Runtime's loader did not.
template <class T>
const T* element(const OrtContext& c, const flatbuffers::Vector<flatbuffers::Offset<T>>* v, uint32_t i,
                 std::string_view field) {
    const uint8_t* slot = v->Data() + size_t{i} * sizeof(flatbuffers::uoffset_t);
    if (flatbuffers::ReadScalar<flatbuffers::uoffset_t>(slot) == 0)
        c.fail(ErrorKind::InvalidModel, slot,
               "entry " + std::to_string(i) + " of " + std::string(field) + " is a zero offset (no object)", field);
    return v->Get(i);
}

/// The number of entries of an optional vector.
template <class V>
uint32_t size_of(const V* v) noexcept {
    return v ? v->size() : 0;
}

}  // namespace onnximport::detail
