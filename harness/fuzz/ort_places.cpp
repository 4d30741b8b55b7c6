// Mutations of one place of a .ort buffer's layout (ort_mutate.hpp): scalars towards the
// values the reader checks (0, -1, 1, limits, element types, 2^32 - 1 ...), lengths, vtable
// entries dropped or pointed at another field, tables made to share a vtable, uoffsets set
// to 0 (the Verifier lets a zero entry through in vectors) or at an object of any type.
#include "ort_mutate.hpp"

namespace gauntlet_fuzz::ort {

namespace {

uint64_t interesting(std::mt19937& rng, uint8_t width) {
    static const uint64_t values[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 16, 20, 21, 28, 0x7F, 0x80, 0xFF, 0x7FFF, 0xFFFF,
                                      0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0xFFFFFFFE, uint64_t(1) << 60,
                                      0x7FFFFFFFFFFFFFFF, ~uint64_t{0}, ~uint64_t{1}};
    uint64_t v = values[rng() % (sizeof values / sizeof values[0])];
    if (rng() % 4 == 0) v = rng();
    return width == 8 ? v : v & ((uint64_t{1} << (8 * width)) - 1);
}

/// Another table's vtable (a shared one), or one after the table (a negative soffset).
uint64_t shared_vtable(const uint8_t* data, const Place& p, const Index& ix, std::mt19937& rng) {
    const uint32_t other = ix.objects[rng() % ix.objects.size()].at;
    const int32_t so = static_cast<int32_t>(get(data, other, 4));
    return static_cast<uint32_t>(static_cast<int64_t>(p.at) - (static_cast<int64_t>(other) - so));
}

}  // namespace

size_t mutate_place(uint8_t* data, size_t size, size_t, const Index& ix, std::mt19937& rng) {
    if (ix.places.empty() || ix.objects.empty()) return 0;
    const Place& p = ix.places[rng() % ix.places.size()];
    uint64_t v = get(data, p.at, p.width);
    switch (p.kind) {
    case Place::Scalar: v = rng() % 3 ? interesting(rng, p.width) : v + (rng() % 2 ? 1 : -1); break;
    case Place::UOffset:
        if (rng() % 3 == 0) v = 0;
        else v = ix.objects[rng() % ix.objects.size()].at - p.at;  // any type; wraps when backwards
        break;
    case Place::Length: v = rng() % 2 ? v + (rng() % 3) - 1 : interesting(rng, 4); break;
    case Place::VtableEntry: v = rng() % 2 ? 0 : ix.places[rng() % ix.places.size()].at % 64; break;
    case Place::SOffset: v = shared_vtable(data, p, ix, rng); break;
    }
    put(data, p.at, v, p.width);
    return size;
}

}  // namespace gauntlet_fuzz::ort
