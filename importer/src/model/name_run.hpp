// A run of names looked up in a NameIndex in one pass, their answers given in the run's order
// (resolution's value_info, a .ort graph's node outputs against its NodeArgs).
//
// Writers mostly list such names in the order of the records they name, or in reverse: the
// records after and before the last one found are compared first, and the index is asked only
// when both differ. ONNX Runtime lists a .ort's NodeArgs in its hash table's order, so there
// every name misses both and every lookup waits on memory twice (the slot, then the record).
// After `switch_after` misses in a row the run is taken as unordered: each name is hashed and
// its slot loaded `ahead` names before it is answered, its record half-way, so that the loads
// of many names overlap; `switch_after` answers in a row that follow the one before switch
// back (docs/performance-history.md, ".ort files ONNX Runtime writes").
#pragma once

#include "model/value_index.hpp"

#include <array>
#include <cstdint>
#include <string_view>

namespace onnximport::detail {

/// `Answer` is called as answer(tag, name, record index or NameIndex::npos) for every name
/// added, in the order added; tags are the caller's (which entry, which node).
template <class Record, class Answer>
class NameRun {
public:
    static constexpr uint32_t npos = NameIndex<Record>::npos;

    NameRun(const NameIndex<Record>& index, const Record* records, uint32_t count, Answer answer)
        : index_(index), records_(records), count_(count), answer_(answer) {}

    void add(std::string_view name, uint32_t tag) {
        if (!unordered_) return add_ordered(name, tag);
        const uint64_t h = index_.hash(name);
        index_.prefetch(h);
        ring_[head_ % ring_size] = {name, h, tag};
        ++head_;
        if (head_ - tail_ > ahead / 2) load_record(ring_[(head_ - 1 - ahead / 2) % ring_size]);
        if (head_ - tail_ > ahead) answer_next();
        if (neighbours_in_a_row_ >= switch_after) switch_back();
    }

    /// Whether the run takes its names as unordered now (it hashes them ahead).
    bool unordered() const noexcept { return unordered_; }

    /// Answers the names still pending: call once after the last add().
    void finish() {
        while (tail_ != head_) answer_next();
    }

private:
    static constexpr uint32_t ahead = 16;        ///< names between a slot's load and its answer
    static constexpr uint32_t ring_size = 32;    ///< more than `ahead`, a power of two
    static constexpr uint32_t switch_after = 8;  ///< misses (or neighbours) in a row that change the mode
    static_assert(ring_size > ahead && (ring_size & (ring_size - 1)) == 0);

    struct Pending {
        std::string_view name;
        uint64_t hash;
        uint32_t tag;
    };

    bool named(uint32_t i, std::string_view name) const noexcept {
        return i < count_ && same_name(records_[i].name, name);
    }

    void add_ordered(std::string_view name, uint32_t tag) {
        uint32_t i = last_ + 1;  // 0 for the first name
        if (!named(i, name)) i = last_ - 1;
        if (named(i, name)) {
            misses_in_a_row_ = 0;
        } else {
            i = index_.find(name);
            if (++misses_in_a_row_ == switch_after) {
                unordered_ = true;
                misses_in_a_row_ = 0;
            }
        }
        if (i != npos) last_ = i;
        answer_(tag, name, i);
    }

    /// Inlined: a function that only prefetches is pure to GCC 12, which drops calls to it.
    [[gnu::always_inline]] void load_record(const Pending& p) const noexcept {
        if (const uint32_t i = index_.candidate(p.hash); i != npos) __builtin_prefetch(records_ + i);
    }

    void answer_next() {
        const Pending p = ring_[tail_ % ring_size];
        ++tail_;
        const uint32_t i = index_.find(p.name, p.hash);
        if (i != npos) {
            neighbours_in_a_row_ = (i == last_ + 1 || i == last_ - 1) ? neighbours_in_a_row_ + 1 : 0;
            last_ = i;
        }
        answer_(p.tag, p.name, i);
    }

    /// Ordered again: what is pending is answered, then neighbours are compared first.
    void switch_back() {
        finish();
        unordered_ = false;
        neighbours_in_a_row_ = 0;
    }

    const NameIndex<Record>& index_;
    const Record* records_;
    uint32_t count_;
    Answer answer_;
    uint32_t last_ = npos;  ///< the record the last answer found
    uint32_t misses_in_a_row_ = 0;      ///< ordered: names that neither neighbour was
    uint32_t neighbours_in_a_row_ = 0;  ///< unordered: answers next to the one before
    bool unordered_ = false;
    uint32_t head_ = 0;  ///< names added in the unordered mode
    uint32_t tail_ = 0;  ///< of those, answered
    std::array<Pending, ring_size> ring_{};
};

}  // namespace onnximport::detail
