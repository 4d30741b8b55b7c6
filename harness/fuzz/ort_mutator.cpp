// Structure-aware mutation for fuzz_ort: LLVMFuzzerCustomMutator that
// understands the FlatBuffers layout of .ort, so mutated buffers still verify often
// enough to reach the reader's semantic checks (versions, tensors, node indices, edges,
// NodeArgs, union tags) rather than stopping at the Verifier.
//
// A buffer that verifies is walked with the mini-reflection type tables flatc generates
// for importer/schema/ort.fbs (--reflect-names); every place of the layout is recorded:
// scalars (with their width), uoffsets (table fields, vector elements), vector and
// string lengths, vtable entries and tables' soffsets. One mutation is applied to a
// random place: a scalar towards values the reader cares about (0, -1, 1, limits,
// element types, 2^32 - 1 ...), a uoffset set to 0 or retargeted at another object of
// the buffer, a length changed, a vtable entry dropped or pointed at another field,
// a table made to share another table's vtable. A share of mutations stay byte-level
// (LLVMFuzzerMutate), and buffers that do not verify get only those.
#include <ort_generated.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace {

struct Place {
    enum Kind : uint8_t { Scalar, UOffset, Length, VtableEntry, SOffset } kind;
    uint8_t width;
    uint32_t at;
};

constexpr size_t max_places = 1 << 16;

class Collector {
public:
    Collector(const uint8_t* buf, size_t size) : buf_(buf), size_(size) {}

    std::vector<Place> places;
    std::vector<uint32_t> objects;  ///< starts of tables, vectors and strings

    void table(uint32_t at, const flatbuffers::TypeTable* tt, int depth) {
        if (depth > 64 || places.size() > max_places) return;
        objects.push_back(at);
        add(Place::SOffset, 4, at);
        const uint32_t vt = at - static_cast<uint32_t>(read<int32_t>(at));
        const uint16_t vsize = read<uint16_t>(vt);
        uint8_t last_tag = 0;
        for (size_t i = 0; i < tt->num_elems && 4 + 2 * i < vsize; ++i) {
            add(Place::VtableEntry, 2, static_cast<uint32_t>(vt + 4 + 2 * i));
            const uint16_t off = read<uint16_t>(static_cast<uint32_t>(vt + 4 + 2 * i));
            if (!off) continue;
            const flatbuffers::TypeCode tc = tt->type_codes[i];
            const auto* ref = tc.sequence_ref >= 0 ? tt->type_refs[tc.sequence_ref]() : nullptr;
            if (tc.base_type == flatbuffers::ET_UTYPE) last_tag = buf_[at + off];
            field(at + off, tc, ref, last_tag, depth);
        }
    }

private:
    template <class T>
    T read(uint32_t at) const {
        T v;
        std::memcpy(&v, buf_ + at, sizeof v);
        return v;
    }
    void add(Place::Kind k, uint8_t width, uint32_t at) {
        if (at + width <= size_) places.push_back({k, width, at});
    }
    uint32_t follow(uint32_t at) {
        add(Place::UOffset, 4, at);
        return at + read<uint32_t>(at);
    }

    static uint8_t width_of(unsigned et) {
        static const uint8_t widths[] = {1, 1, 1, 1, 2, 2, 4, 4, 8, 8, 4, 8, 4, 4};
        return widths[et];
    }

    void element(uint32_t at, flatbuffers::TypeCode tc, const flatbuffers::TypeTable* ref, uint8_t tag, int depth) {
        if (tc.base_type == flatbuffers::ET_STRING) {
            const uint32_t s = follow(at);
            objects.push_back(s);
            add(Place::Length, 4, s);
        } else if (tc.base_type == flatbuffers::ET_SEQUENCE && ref && ref->st == flatbuffers::ST_TABLE) {
            table(follow(at), ref, depth + 1);
        } else if (tc.base_type == flatbuffers::ET_SEQUENCE && ref && ref->st == flatbuffers::ST_UNION) {
            if (tag == 0 || tag >= ref->num_elems) return;
            const flatbuffers::TypeCode member = ref->type_codes[tag];
            if (member.sequence_ref >= 0) table(follow(at), ref->type_refs[member.sequence_ref](), depth + 1);
        } else if (tc.base_type == flatbuffers::ET_SEQUENCE && ref && ref->st == flatbuffers::ST_STRUCT) {
            for (size_t k = 0; k < ref->num_elems; ++k)
                add(Place::Scalar, width_of(ref->type_codes[k].base_type), at + static_cast<uint32_t>(ref->values[k]));
        } else if (tc.base_type != flatbuffers::ET_SEQUENCE) {
            add(Place::Scalar, width_of(tc.base_type), at);
        }
    }

    void field(uint32_t at, flatbuffers::TypeCode tc, const flatbuffers::TypeTable* ref, uint8_t tag, int depth) {
        if (!tc.is_repeating) return element(at, tc, ref, tag, depth);
        const uint32_t v = follow(at);
        objects.push_back(v);
        add(Place::Length, 4, v);
        const uint32_t n = read<uint32_t>(v);
        uint32_t stride = 4;
        if (tc.base_type == flatbuffers::ET_SEQUENCE && ref && ref->st == flatbuffers::ST_STRUCT)
            stride = static_cast<uint32_t>(ref->values[ref->num_elems]);
        else if (tc.base_type != flatbuffers::ET_STRING && tc.base_type != flatbuffers::ET_SEQUENCE)
            stride = width_of(tc.base_type);
        for (uint32_t k = 0; k < n && k < 64 && places.size() < max_places; ++k)  // a sample of long vectors
            element(v + 4 + k * stride, tc, ref, tag, depth);
    }

    const uint8_t* buf_;
    size_t size_;
};

uint64_t interesting(std::mt19937& rng, uint8_t width) {
    static const uint64_t values[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 16, 20, 21, 28, 0x7F, 0x80, 0xFF, 0x7FFF, 0xFFFF,
                                      0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0xFFFFFFFE, uint64_t(1) << 60,
                                      0x7FFFFFFFFFFFFFFF, ~uint64_t{0}, ~uint64_t{1}};
    uint64_t v = values[rng() % (sizeof values / sizeof values[0])];
    if (rng() % 4 == 0) v = rng();
    return width == 8 ? v : v & ((uint64_t{1} << (8 * width)) - 1);
}

void put(uint8_t* data, uint32_t at, uint64_t v, uint8_t width) { std::memcpy(data + at, &v, width); }

void mutate_place(uint8_t* data, const Collector& c, const Place& p, std::mt19937& rng) {
    uint64_t v = 0;
    std::memcpy(&v, data + p.at, p.width);
    switch (p.kind) {
    case Place::Scalar: v = rng() % 3 ? interesting(rng, p.width) : v + (rng() % 2 ? 1 : -1); break;
    case Place::UOffset:
        if (rng() % 3 == 0) v = 0;  // the zero offset the Verifier lets through in vectors
        else if (!c.objects.empty()) v = c.objects[rng() % c.objects.size()] - p.at;  // retarget (wraps if backwards)
        else v += 4;
        break;
    case Place::Length: v = rng() % 2 ? v + (rng() % 3) - 1 : interesting(rng, 4); break;
    case Place::VtableEntry: v = rng() % 2 ? 0 : c.places[rng() % c.places.size()].at % 64; break;
    case Place::SOffset: {
        // Another table's vtable (a shared one), or one after the table (negative soffset).
        const uint32_t other = c.objects[rng() % c.objects.size()];
        int32_t so;
        std::memcpy(&so, data + other, 4);
        v = static_cast<uint32_t>(static_cast<int64_t>(p.at) - (static_cast<int64_t>(other) - so));
        break;
    }
    }
    put(data, p.at, v, p.width);
}

}  // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
    std::mt19937 rng(seed);
    flatbuffers::Verifier verifier(data, size);
    if (size < 8 || rng() % 5 == 0 || !onnximport::ortfb::VerifyInferenceSessionBuffer(verifier))
        return LLVMFuzzerMutate(data, size, max_size);
    Collector c(data, size);
    c.table(flatbuffers::ReadScalar<uint32_t>(data), onnximport::ortfb::InferenceSessionTypeTable(), 0);
    if (c.places.empty() || c.objects.empty()) return LLVMFuzzerMutate(data, size, max_size);
    const unsigned n = 1 + rng() % 3;
    for (unsigned i = 0; i < n; ++i) mutate_place(data, c, c.places[rng() % c.places.size()], rng);
    return size;
}
