// The name -> value table of a resolved graph (spec section 4, "Values"): open addressing
// with linear probing, each slot holding the value's index and a hash tag.
//
// Why not std::unordered_map: it allocates one node per name and a lookup follows bucket
// -> node -> name; here a lookup reads one slot, then the value's name. The slots live in
// the Model's arena, sized once by resolution (it knows how many names a graph defines),
// so the table never grows and needs no destructor. Names are hashed with the import's
// key (core/hash.hpp).
#pragma once

#include "core/hash.hpp"
#include "core/hash_key_reserve.hpp"
#include "core/strings.hpp"

#include <onnximport/model.hpp>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>

namespace onnximport::detail {

/// Name -> index into an array of records that have a `name` (Graph::values). A slot is four
/// bytes: the record's index in its low bits (as many as the table's size needs) and above them
/// as many high bits of the name's hash as are left, the tag; all ones is an empty slot.
/// A probe compares a name only when the tag matches. Four bytes rather than eight: half the
/// table for a large graph's definitions to miss on (docs/performance-history.md, "Four-byte slots").
///
/// A table of at most linear_records names has no slots and hashes nothing: a lookup compares
/// the names in turn, which costs less than hashing one, and no choice of names can make it
/// slower than that bound (docs/performance-history.md, "Small graphs without hashing"). Its records
/// must be inserted in index order (the i-th insertion names record i), as every caller does.
template <class Record>
class NameIndex {
public:
    /// Returned by find() for an absent name. A graph has fewer values than that, since
    /// a model is at most 2^31 - 1 bytes and each value costs at least one byte.
    static constexpr uint32_t npos = UINT32_MAX;
    /// A slot holding no index (attach says why no full slot is all ones).
    static constexpr uint32_t vacant = UINT32_MAX;

    struct Slot {
        uint32_t bits = vacant;  ///< tag | index
    };

    /// Names up to which the table compares names instead of hashing them.
    static constexpr size_t linear_records = 16;

    /// Slots needed for n names: none up to linear_records, else a power of two with at most
    /// half of them used.
    static size_t slots_for(size_t n) noexcept { return n <= linear_records ? 0 : std::bit_ceil(2 * n); }

    /// Importer use: the table over `count` (from slots_for) empty slots, naming records
    /// that stay where they are.
    void attach(Slot* slots, size_t count, const Record* records, const HashKey& key) noexcept {
        linear_ = count == 0;
        slots_ = linear_ ? nullptr : slots;
        mask_ = count - 1;
        // At most count / 2 records, so an index is below count - 1: never all ones in these
        // bits, so a full slot is never `vacant`. All 32 bits only for 2^32 slots, and then no
        // tag is left: every probe compares the name.
        index_bits_ = static_cast<uint32_t>(mask_);
        size_ = 0;
        records_ = records;
        key_ = key;
    }

    /// attach() under the import's key, drawn only for a table with slots: one without hashes
    /// no name (docs/performance-history.md, "The key drawn when a table needs it").
    void attach(Slot* slots, size_t count, const Record* records, ImportHashKey& key) {
        attach(slots, count, records, count ? key.get() : HashKey{});
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
        if (linear_) {
            if (const uint32_t found = scan(name); found != npos) return {found, false};
            ++size_;
            return {index, true};
        }
        const uint32_t tag = tag_of(h);
        for (size_t i = static_cast<size_t>(h) & mask_;; i = (i + 1) & mask_) {
            Slot& slot = slots_[i];
            if (slot.bits == vacant) {
                slot.bits = tag | index;
                ++size_;
                return {index, true};
            }
            if (uint32_t found = match(slot, tag, name); found != npos) return {found, false};
        }
    }

    /// The index of the record named `name`, or npos.
    uint32_t find(std::string_view name) const noexcept { return find(name, hash(name)); }

    /// find() with the name's hash() computed already (resolution computes it when it
    /// prefetches the slot, a few nodes ahead).
    uint32_t find(std::string_view name, uint64_t h) const noexcept {
        if (linear_) return scan(name);
        if (size_ == 0) return npos;
        const uint32_t tag = tag_of(h);
        // Terminates: at least half of the slots are empty.
        for (size_t i = static_cast<size_t>(h) & mask_;; i = (i + 1) & mask_) {
            const Slot& slot = slots_[i];
            if (slot.bits == vacant) return npos;
            if (uint32_t found = match(slot, tag, name); found != npos) return found;
        }
    }

    /// The index in hash h's first slot when its tag is h's, without comparing a name: the
    /// record find() will most likely compare, to load early; else npos. One slot, no probe
    /// loop: GCC 12 counts a prefetch as no side effect, and removed a loop whose answer only a
    /// prefetch used (docs/performance-history.md, ".ort files ONNX Runtime writes").
    uint32_t candidate(uint64_t h) const noexcept {
        if (linear_ || size_ == 0) return npos;
        const Slot slot = slots_[static_cast<size_t>(h) & mask_];
        if (slot.bits == vacant || (slot.bits & ~index_bits_) != tag_of(h)) return npos;
        return slot.bits & index_bits_;
    }

    /// The hash find() and try_emplace() use for `name` (keyed per import); 0 for a table
    /// without slots, which uses none.
    uint64_t hash(std::string_view name) const noexcept { return linear_ ? 0 : hash_name(name, key_); }

    /// Starts loading the slot of a name with hash h. Resolution calls it a few nodes
    /// ahead of each definition and of each read the neighbouring nodes do not answer: in a
    /// large graph every lookup is a cache miss, and with the loads under way side by side
    /// their latencies overlap.
    void prefetch(uint64_t h) const noexcept {
        if (slots_) __builtin_prefetch(&slots_[static_cast<size_t>(h) & mask_]);
    }

    /// How far ahead (in nodes) resolution's reads pass prefetches.
    static constexpr size_t prefetch_distance = 8;
    /// The definitions pass does less per node, so it looks further ahead for its loads to
    /// have landed as early (docs/performance-history.md, "Small costs the profile hid").
    static constexpr size_t define_prefetch_distance = 16;

private:
    /// The high bits of the hash above the index's bits (the probe starts from the low ones).
    uint32_t tag_of(uint64_t h) const noexcept { return static_cast<uint32_t>(h >> 32) & ~index_bits_; }

    /// The index of the record named `name` among the first size_, or npos (a table without slots).
    uint32_t scan(std::string_view name) const noexcept {
        for (uint32_t i = 0; i < size_; ++i)
            if (same_name(records_[i].name, name)) return i;
        return npos;
    }

    /// The index in a full slot whose tag is `tag` and whose record is named `name`, or npos.
    uint32_t match(Slot slot, uint32_t tag, std::string_view name) const noexcept {
        if ((slot.bits & ~index_bits_) != tag) return npos;
        const uint32_t index = slot.bits & index_bits_;
        return same_name(records_[index].name, name) ? index : npos;
    }

    Slot* slots_ = nullptr;
    size_t mask_ = 0;
    uint32_t index_bits_ = 0;  ///< the mask of a slot's index bits
    size_t size_ = 0;
    bool linear_ = false;  ///< no slots: scan() answers
    const Record* records_ = nullptr;
    HashKey key_;
};

/// Graph's table (model.hpp names it, opaque to users).
class ValueIndex : public NameIndex<Value> {};

}  // namespace onnximport::detail
