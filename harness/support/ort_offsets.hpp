// Where a .ort buffer holds offsets, for tests that rewrite them: every uoffset (a table's
// field, an entry of a vector of tables or strings) and every table's soffset to its
// vtable, found by walking a buffer that verifies with the mini-reflection tables flatc
// generates for importer/schema/ort.fbs (docs/ort.md, "The schema"). Each table and vector
// is visited once, however many references reach it.
#pragma once

#include <ort_generated.h>

#include <cstdint>
#include <cstring>
#include <set>
#include <vector>

namespace onnximport::testing {

struct OrtOffsets {
    std::vector<uint32_t> uoffsets;  ///< slots that hold a uoffset (forward, from the slot), 0 first
    std::vector<uint32_t> soffsets;  ///< tables' starts: an soffset (the vtable is at start - soffset)
    /// The root table and its vtable: the bytes of the root itself, with bytes 0..7.
    uint32_t root = 0, root_vtable = 0, root_vtable_size = 0;
};

namespace offsets_detail {

class Walk {
public:
    Walk(const std::vector<uint8_t>& b, OrtOffsets& out) : b_(b), out_(out) {}

    void table(uint32_t at, const flatbuffers::TypeTable* tt) {
        if (!tables_.insert(at).second) return;
        out_.soffsets.push_back(at);
        const uint32_t vt = at - static_cast<uint32_t>(read<int32_t>(at));
        const uint16_t vsize = read<uint16_t>(vt);
        uint8_t tag = 0;  // a union's tag field precedes its value field
        for (size_t i = 0; i < tt->num_elems && 4 + 2 * i < vsize; ++i) {
            const uint16_t field = read<uint16_t>(static_cast<uint32_t>(vt + 4 + 2 * i));
            if (!field) continue;
            const flatbuffers::TypeCode tc = tt->type_codes[i];
            const flatbuffers::TypeTable* ref = tc.sequence_ref >= 0 ? tt->type_refs[tc.sequence_ref]() : nullptr;
            if (tc.base_type == flatbuffers::ET_UTYPE) tag = b_[at + field];
            if (tc.is_repeating) vector(follow(at + field), tc, ref);
            else element(at + field, tc, ref, tag);
        }
    }

private:
    template <class T>
    T read(uint32_t at) const {
        T v;
        std::memcpy(&v, b_.data() + at, sizeof v);
        return v;
    }
    uint32_t follow(uint32_t slot) {
        out_.uoffsets.push_back(slot);
        return slot + read<uint32_t>(slot);
    }
    static bool holds_offsets(flatbuffers::TypeCode tc, const flatbuffers::TypeTable* ref) {
        return tc.base_type == flatbuffers::ET_STRING ||
               (tc.base_type == flatbuffers::ET_SEQUENCE && ref && ref->st != flatbuffers::ST_STRUCT);
    }

    void element(uint32_t at, flatbuffers::TypeCode tc, const flatbuffers::TypeTable* ref, uint8_t tag) {
        if (!holds_offsets(tc, ref)) return;  // scalars and structs are inline
        if (tc.base_type == flatbuffers::ET_STRING) {
            follow(at);
        } else if (ref->st == flatbuffers::ST_TABLE) {
            table(follow(at), ref);
        } else if (ref->st == flatbuffers::ST_UNION && tag > 0 && tag < ref->num_elems) {
            const flatbuffers::TypeCode member = ref->type_codes[tag];
            if (member.sequence_ref >= 0) table(follow(at), ref->type_refs[member.sequence_ref]());
        }
    }

    void vector(uint32_t at, flatbuffers::TypeCode tc, const flatbuffers::TypeTable* ref) {
        if (!vectors_.insert(at).second || !holds_offsets(tc, ref)) return;
        const uint32_t n = read<uint32_t>(at);
        for (uint32_t k = 0; k < n; ++k) element(at + 4 + 4 * k, tc, ref, 0);
    }

    const std::vector<uint8_t>& b_;
    OrtOffsets& out_;
    std::set<uint32_t> tables_, vectors_;
};

}  // namespace offsets_detail

/// The offsets of `b`, which must verify as an InferenceSession (the walk trusts it).
inline OrtOffsets find_ort_offsets(const std::vector<uint8_t>& b) {
    OrtOffsets out;
    out.uoffsets.push_back(0);  // the root offset
    std::memcpy(&out.root, b.data(), 4);
    int32_t soffset;
    std::memcpy(&soffset, b.data() + out.root, 4);
    out.root_vtable = out.root - static_cast<uint32_t>(soffset);
    uint16_t vsize;
    std::memcpy(&vsize, b.data() + out.root_vtable, 2);
    out.root_vtable_size = vsize;
    offsets_detail::Walk(b, out).table(out.root, ortfb::InferenceSessionTypeTable());
    return out;
}

}  // namespace onnximport::testing
