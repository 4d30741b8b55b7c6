// The name -> value table of a resolved graph (spec section 4, "Values"): open addressing
// with linear probing, each slot holding the value's index and a hash tag.
//
// Why not std::unordered_map: it allocates one node per name and a lookup follows bucket
// -> node -> name; here a lookup reads one slot, then the value's name. The slots live in
// the Model's arena, sized once by resolution (it knows how many names a graph defines),
// so the table never grows and needs no destructor.
//
// The hash is seeded per import (Storage::hash_seed, from the OS's random source): names
// crafted to collide under a fixed hash, which would turn every lookup into a long probe
// sequence, cannot be prepared without knowing the seed.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <utility>

namespace onnximport {

namespace detail {

/// The n < 8 bytes at p as one word, loaded without a byte loop and without reading past
/// p + n: two overlapping loads, or three bytes (some bytes may appear twice). For a given
/// n, different bytes give different words.
inline uint64_t load_short(const void* p, size_t n) noexcept {
    const auto* b = static_cast<const unsigned char*>(p);
    if (n >= 4) {
        uint32_t lo, hi;
        std::memcpy(&lo, b, 4);
        std::memcpy(&hi, b + n - 4, 4);
        return lo | uint64_t{hi} << 32;
    }
    if (n == 0) return 0;
    return b[0] | uint64_t{b[n / 2]} << 8 | uint64_t{b[n - 1]} << 16;
}

/// a == b, without a call to memcmp for names of up to 16 bytes (nearly all of them):
/// resolution compares a name with each value it finds.
inline bool same_name(std::string_view a, std::string_view b) noexcept {
    const size_t n = a.size();
    if (n != b.size()) return false;
    if (n < 8) return load_short(a.data(), n) == load_short(b.data(), n);
    if (n > 16) return std::memcmp(a.data(), b.data(), n) == 0;
    uint64_t a0, a1, b0, b1;  // two overlapping words each
    std::memcpy(&a0, a.data(), 8);
    std::memcpy(&b0, b.data(), 8);
    std::memcpy(&a1, a.data() + n - 8, 8);
    std::memcpy(&b1, b.data() + n - 8, 8);
    return a0 == b0 && a1 == b1;
}

}  // namespace detail

/// A fast 64-bit hash of short strings (names are mostly under 32 bytes): eight bytes at
/// a time, each folded in with a multiply, then a final avalanche.
inline uint64_t hash_name(std::string_view s, uint64_t seed) noexcept {
    constexpr uint64_t k = 0x9E3779B97F4A7C15ull;
    const char* p = s.data();
    size_t n = s.size();
    uint64_t h = seed ^ (n * k);
    for (; n >= 8; n -= 8, p += 8) {
        uint64_t w;
        std::memcpy(&w, p, 8);
        h = (h ^ w) * k;
        h ^= h >> 29;
    }
    if (n) h = (h ^ detail::load_short(p, n)) * k;
    h ^= h >> 32;
    h *= 0xD6E8FEB86659FD93ull;
    h ^= h >> 32;
    return h;
}

/// Name -> index into an array of records that have a `name` (Graph::values; model.hpp
/// names it ValueIndex). A slot holds the record's index and the high half of the name's
/// hash, 8 bytes: the table of a 200,000-value graph is 4 MiB, and a probe compares a name
/// only when the tag matches.
template <class Record>
class NameIndex {
public:
    /// Returned by find() for an absent name. A graph has fewer values than that, since
    /// a model is at most 2^31 - 1 bytes and each value costs at least one byte.
    static constexpr uint32_t npos = UINT32_MAX;

    struct Slot {
        uint32_t index = npos;  ///< npos marks an empty slot
        uint32_t tag = 0;
    };

    /// Slots needed for n names: a power of two with at most half of them used.
    static size_t slots_for(size_t n) noexcept {
        return std::bit_ceil(n < 4 ? size_t{8} : 2 * n);
    }

    /// Importer use: the table over `count` (from slots_for) empty slots, naming records
    /// that stay where they are.
    void attach(Slot* slots, size_t count, const Record* records, uint64_t seed) noexcept {
        slots_ = slots;
        mask_ = count - 1;
        size_ = 0;
        records_ = records;
        seed_ = seed;
    }

    size_t size() const noexcept { return size_; }
    bool empty() const noexcept { return size_ == 0; }

    /// Inserts name -> index unless the name is present; records[index] must be named
    /// `name` before the next call. Returns the index for the name and whether it was
    /// inserted. The caller sized the table for every insertion.
    std::pair<uint32_t, bool> try_emplace(std::string_view name, uint32_t index) noexcept {
        return try_emplace(name, index, hash(name));
    }

    /// try_emplace() with the name's hash() computed already.
    std::pair<uint32_t, bool> try_emplace(std::string_view name, uint32_t index, uint64_t h) noexcept {
        const uint32_t tag = static_cast<uint32_t>(h >> 32);
        for (size_t i = static_cast<size_t>(h) & mask_;; i = (i + 1) & mask_) {
            Slot& slot = slots_[i];
            if (slot.index == npos) {
                slot = {index, tag};
                ++size_;
                return {index, true};
            }
            if (slot.tag == tag && detail::same_name(records_[slot.index].name, name)) return {slot.index, false};
        }
    }

    /// The index of the record named `name`, or npos.
    uint32_t find(std::string_view name) const noexcept { return find(name, hash(name)); }

    /// find() with the name's hash() computed already (resolution computes it when it
    /// prefetches the slot, a few nodes ahead).
    uint32_t find(std::string_view name, uint64_t h) const noexcept {
        if (size_ == 0) return npos;
        const uint32_t tag = static_cast<uint32_t>(h >> 32);
        // Terminates: at least half of the slots are empty.
        for (size_t i = static_cast<size_t>(h) & mask_;; i = (i + 1) & mask_) {
            const Slot& slot = slots_[i];
            if (slot.index == npos) return npos;
            if (slot.tag == tag && detail::same_name(records_[slot.index].name, name)) return slot.index;
        }
    }

    /// The hash find() and try_emplace() use for `name` (seeded per import).
    uint64_t hash(std::string_view name) const noexcept { return hash_name(name, seed_); }

    /// Starts loading the slot of a name with hash h. Resolution calls it a few nodes
    /// ahead of each definition and of each read the neighbouring nodes do not answer: in a
    /// large graph every lookup is a cache miss, and with the loads under way side by side
    /// their latencies overlap.
    void prefetch(uint64_t h) const noexcept {
        if (slots_) __builtin_prefetch(&slots_[static_cast<size_t>(h) & mask_]);
    }

    /// How far ahead (in nodes) resolution prefetches.
    static constexpr size_t prefetch_distance = 8;

private:
    Slot* slots_ = nullptr;
    size_t mask_ = 0;
    size_t size_ = 0;
    const Record* records_ = nullptr;
    uint64_t seed_ = 0;
};

}  // namespace onnximport
