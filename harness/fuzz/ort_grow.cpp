// References grown in number (ort_mutate.hpp): a new vector of many uoffsets to a few
// existing objects. FlatBuffers' uoffsets only point forward, so the vector is inserted
// before its targets, and the bytes after it move: every uoffset and soffset across the
// insertion point is rewritten from the buffer's index.
#include "ort_mutate.hpp"

#include <algorithm>
#include <cstring>
#include <set>
#include <vector>

namespace gauntlet_fuzz::ort {

namespace {

/// A position moved by a gap of `gap` bytes opened at `at`.
uint64_t moved(uint64_t pos, uint32_t at, uint32_t gap) { return pos >= at ? pos + gap : pos; }

/// How many entries the new vector gets: mostly a few, sometimes as many as fit.
uint32_t entries(size_t room, std::mt19937& rng) {
    static const uint32_t counts[] = {2, 3, 4, 8, 16, 64, 256, 1024, 4096};
    const uint64_t fit = room / 4;
    const uint64_t n = rng() % 8 == 0 ? fit : counts[rng() % (sizeof counts / sizeof counts[0])];
    return static_cast<uint32_t>(n < fit ? n : fit);
}

}  // namespace

void open_gap(uint8_t* data, size_t size, uint32_t at, uint32_t gap, const Index& ix) {
    std::set<uint32_t> done;
    for (const Ref& r : ix.refs)  // a slot before the gap whose target moves
        if (r.slot < at && done.insert(r.slot).second) {
            const uint64_t v = get(data, r.slot, 4);
            if (r.slot + v >= at) put(data, r.slot, v + gap, 4);
        }
    done.clear();
    for (const Object& o : ix.objects) {  // a table and its vtable on either side of the gap
        if (o.type.shape != ObjType::Table || !done.insert(o.at).second) continue;
        const int64_t vt = int64_t{o.at} - static_cast<int32_t>(get(data, o.at, 4));
        const int64_t so = static_cast<int64_t>(moved(o.at, at, gap)) - static_cast<int64_t>(moved(vt, at, gap));
        put(data, o.at, static_cast<uint32_t>(static_cast<int32_t>(so)), 4);
    }
    std::memmove(data + at + gap, data + at, size - at);
    std::memset(data + at, 0, gap);
}

size_t grow(uint8_t* data, size_t size, size_t max_size, const Index& ix, std::mt19937& rng) {
    if (!ix.complete || max_size < size + 16 || ix.refs.empty()) return 0;
    // Sixteen tries: with eight, grow made 240 mutants in 300 tries of suite ort_mutator once its
    // buffer carried a kernel type-string resolver (the test asks for more than 250).
    for (int t = 0; t < 16; ++t) {
        const Ref& r = ix.refs[rng() % ix.refs.size()];
        if (!r.type.offsets()) continue;
        std::vector<uint32_t> to;  // objects of the entry type after the slot
        for (const Object& o : ix.objects)
            if (o.type == r.type.entry() && o.at > r.slot + 4) to.push_back(o.at);
        if (to.empty()) continue;
        const uint32_t at = to[rng() % to.size()];  // the first target, where the gap opens
        if (!ix.boundary(at)) continue;
        std::erase_if(to, [at](uint32_t o) { return o < at; });
        std::sort(to.begin(), to.end());  // to[0] is `at`, the first target
        const uint32_t n = entries(max_size - size - 8, rng);
        if (n < 2) return 0;
        const uint32_t gap = (4 + 4 * n + 7) & ~7u, v = at + gap - 4 - 4 * n;  // v: the new length prefix
        open_gap(data, size, at, gap, ix);
        put(data, v, n, 4);
        const size_t targets = 1 + rng() % 3;
        for (uint32_t k = 0; k < n; ++k) {
            const uint32_t slot = v + 4 + 4 * k, target = to[k % targets % to.size()] + gap;
            put(data, slot, target - slot, 4);
        }
        put(data, r.slot, v - r.slot, 4);
        return size + gap;
    }
    return 0;
}

}  // namespace gauntlet_fuzz::ort
