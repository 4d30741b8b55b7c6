// Each distinct string written once: every later use of the same bytes points at the first
// copy, as FlatBuffers allows any number of uoffsets to one object (docs/ort.md, "Shared
// strings"). Value names appear in a NodeArg, at their producer and at every consumer, and
// op types and domains repeat on every node; sharing them makes the file smaller and lets a
// reader compare two names by address. The output does not depend on the hash key: the first
// copy of a string is always the one shared.
#pragma once

#include "core/hash.hpp"

#include <flatbuffers/flatbuffers.h>

#include <cstdint>
#include <string_view>
#include <vector>

namespace onnximport::detail {

class StringPool {
public:
    explicit StringPool(flatbuffers::FlatBufferBuilder& fbb);

    /// The string `s`, written now if no earlier call wrote the same bytes.
    flatbuffers::Offset<flatbuffers::String> get(std::string_view s);

private:
    struct Slot {
        uint32_t offset = 0;  ///< the string's offset from the buffer's end; 0: empty
        uint32_t hash = 0;    ///< the low bits of its hash, compared before the bytes
    };
    /// The bytes of the string written at `offset`, read back from the builder.
    std::string_view written(uint32_t offset) const;
    void grow();

    flatbuffers::FlatBufferBuilder& fbb_;
    HashKey key_;  ///< keyed, as every table of names from the input (core/hash.hpp)
    std::vector<Slot> slots_;
    size_t used_ = 0;
};

}  // namespace onnximport::detail
