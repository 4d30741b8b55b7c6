// Mutations that make a .ort buffer share and alias its objects (ort_mutate.hpp): what a
// verifier that checks each object once, and a walk that must not copy an object once per
// reference, are to be tested on (docs/ort.md, "One walk that checks where it reads").
#include "ort_mutate.hpp"

#include <flatbuffers/flatbuffers.h>

#include <vector>

namespace gauntlet_fuzz::ort {

namespace {

constexpr int tries = 8;  // random picks before a mutation gives up on a buffer

/// Starts of the objects of `type` a uoffset at `slot` can reach (forward, below 2^31).
std::vector<uint32_t> reachable(const Index& ix, const ObjType& type, uint32_t slot) {
    std::vector<uint32_t> out;
    for (const Object& o : ix.objects)
        if (o.type == type && o.at > slot && o.at - slot < (1u << 31)) out.push_back(o.at);
    return out;
}

/// A vector of scalars or structs, or a string: bytes another object of its type may start in.
bool plain(const Object& o) {
    if (o.type.shape == ObjType::String) return true;
    return o.type.shape == ObjType::Vector && !o.type.offsets();
}

template <class Keep>
std::vector<const Object*> candidates(const Index& ix, Keep keep) {
    std::vector<const Object*> out;
    for (const Object& o : ix.objects)
        if (keep(o)) out.push_back(&o);
    return out;
}

}  // namespace

size_t retarget(uint8_t* data, size_t size, size_t, const Index& ix, std::mt19937& rng) {
    for (int t = 0; t < tries && !ix.refs.empty(); ++t) {
        const Ref& r = ix.refs[rng() % ix.refs.size()];
        std::vector<uint32_t> to = reachable(ix, r.type, r.slot);
        std::erase(to, r.target);
        if (to.empty()) continue;
        put(data, r.slot, to[rng() % to.size()] - r.slot, 4);
        return size;
    }
    return 0;
}

size_t overlap(uint8_t* data, size_t size, size_t, const Index& ix, std::mt19937& rng) {
    const std::vector<const Object*> cut = candidates(ix, [](const Object& o) { return plain(o) && o.count > 0; });
    for (int t = 0; t < tries && !cut.empty(); ++t) {
        const Object& b = *cut[rng() % cut.size()];
        // The new length prefix over entry k, 4-aligned as the Verifier wants it, inside b.
        const uint32_t k = static_cast<uint32_t>(rng() % b.count);
        const uint32_t p = (b.at + 4 + k * b.stride + 3) & ~3u;
        if (uint64_t{p} + 4 > b.end) continue;
        std::vector<const Ref*> refs;
        for (const Ref& r : ix.refs)
            if (r.type == b.type && r.slot < p && p - r.slot < (1u << 31)) refs.push_back(&r);
        if (refs.empty()) continue;
        put(data, p, (b.end - p - 4) / b.stride, 4);  // a string's terminator stays b's
        const Ref& r = *refs[rng() % refs.size()];
        put(data, r.slot, p - r.slot, 4);
        return size;
    }
    return 0;
}

size_t duplicate(uint8_t* data, size_t size, size_t, const Index& ix, std::mt19937& rng) {
    const std::vector<const Object*> lists =
        candidates(ix, [](const Object& o) { return o.type.offsets() && o.count >= 2; });
    for (int t = 0; t < tries && !lists.empty(); ++t) {
        const Object& v = *lists[rng() % lists.size()];
        // One target for a run of entries: an entry's own, or any object of the entry type after v.
        std::vector<uint32_t> to = reachable(ix, v.type.entry(), v.end);
        const uint32_t i = static_cast<uint32_t>(rng() % v.count), slot_i = v.at + 4 + 4 * i;
        to.push_back(slot_i + static_cast<uint32_t>(get(data, slot_i, 4)));
        const uint32_t target = rng() % 2 ? to.back() : to[rng() % to.size()];
        const uint32_t lo = rng() % 2 ? 0 : static_cast<uint32_t>(rng() % v.count);
        const uint32_t hi = rng() % 2 ? v.count : lo + 1 + static_cast<uint32_t>(rng() % (v.count - lo));
        bool changed = false;
        for (uint32_t j = lo; j < hi; ++j) {
            const uint32_t slot = v.at + 4 + 4 * j;
            if (target <= slot || target - slot >= (1u << 31)) continue;
            changed |= get(data, slot, 4) != target - slot;
            put(data, slot, target - slot, 4);
        }
        if (changed) return size;
    }
    return 0;
}

}  // namespace gauntlet_fuzz::ort
