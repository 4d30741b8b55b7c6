// Where a .ort buffer holds offsets, for tests that rewrite them: every uoffset (the root
// offset, a table's field, an entry of a vector of tables or strings) and every table's
// soffset to its vtable, from fuzz_ort's index of the buffer's objects (harness/fuzz/
// ort_index.hpp: one walk with flatc's type tables, each object entered once).
#pragma once

#include <ort_index.hpp>

#include <cstdint>
#include <cstring>
#include <vector>

namespace onnximport::testing {

struct OrtOffsets {
    std::vector<uint32_t> uoffsets;  ///< slots that hold a uoffset (forward, from the slot), 0 first
    std::vector<uint32_t> soffsets;  ///< tables' starts: an soffset (the vtable is at start - soffset)
    /// The root table and its vtable: the bytes of the root itself, with bytes 0..7.
    uint32_t root = 0, root_vtable = 0, root_vtable_size = 0;
};

/// The offsets of `b`, which must verify as an InferenceSession.
inline OrtOffsets find_ort_offsets(const std::vector<uint8_t>& b) {
    const gauntlet_fuzz::ort::Index index = gauntlet_fuzz::ort::index_of(b.data(), b.size());
    OrtOffsets out;
    for (const auto& ref : index.refs) out.uoffsets.push_back(ref.slot);
    for (const auto& object : index.objects)
        if (object.type.shape == gauntlet_fuzz::ort::ObjType::Table) out.soffsets.push_back(object.at);
    std::memcpy(&out.root, b.data(), 4);
    int32_t soffset;
    std::memcpy(&soffset, b.data() + out.root, 4);
    out.root_vtable = out.root - static_cast<uint32_t>(soffset);
    uint16_t vsize;
    std::memcpy(&vsize, b.data() + out.root_vtable, 2);
    out.root_vtable_size = vsize;
    return out;
}

}  // namespace onnximport::testing
