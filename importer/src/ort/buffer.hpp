// The .ort buffer as FlatBuffers lays it out (docs/ort.md, "One walk that checks where it reads"),
// read by the walk itself: every offset, length and count is read once, checked where it is used
// and then only its checked value is used, so no byte judged earlier is trusted again (a file
// rewritten while it is mapped changes what is read, never where). A refusal names the offending
// bytes and the schema path to them. The checks are FlatBuffers' Verifier's
// (harness/tests/test_ort_verify.cpp holds the verdicts equal); its depth and table limits are not:
// depth is bounded by ImportOptions::max_nesting, and the work the walk does by a budget
// proportional to the buffer's size (rule O15), whatever is shared.
#pragma once

#include "core/refusal.hpp"
#include "core/strings.hpp"
#include "core/utf8.hpp"

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace onnximport::detail {

/// What a refusal calls a field, or entry `index` of it ("nodes[3]"). Formatted only when a
/// refusal is made: the walk names every object it reads, and almost none is refused. Sixteen
/// bytes, so that it is passed in registers: a larger one was stored to the stack at every read,
/// ready for a refusal that does not come (docs/performance-history.md, ".ort checks in one test").
struct FbName {
    FbName(const char* field) noexcept : FbName(std::string_view(field)) {}  // NOLINT: names are passed as literals
    // An index fits in 32 bits: read_ort_model refuses a buffer too large for that
    // (docs/performance-history.md, ".ort checks in one test").
    FbName(std::string_view field, int64_t index = -1) noexcept  // NOLINT
        : data(field.data()), size(static_cast<uint32_t>(field.size())), index(static_cast<int32_t>(index)) {}
    std::string str() const;

    const char* data;
    uint32_t size;  ///< of the field's name
    int32_t index;  ///< -1: the field itself
};
static_assert(sizeof(FbName) == 16);

/// A table whose start and vtable were checked. `at` 0: the field was absent.
struct FbTable {
    uint32_t at = 0;
    uint32_t vtable = 0;
    uint16_t vtable_size = 0;
    explicit operator bool() const noexcept { return at != 0; }
};

/// A vector whose length prefix and extent were checked. `at` 0: absent (no entries).
struct FbVector {
    uint32_t at = 0;  ///< the 4-byte length prefix
    uint32_t count = 0;
    uint32_t element_size = 0;
    uint32_t data() const noexcept { return at + 4; }
    uint32_t entry(uint32_t i) const noexcept { return at + 4 + i * element_size; }  // i < count: no wrap
};

class FbReader {
public:
    FbReader(const Refusal& refusal, const uint8_t* base, uint32_t size, bool check_alignment,
             uint64_t budget) noexcept
        : r_(refusal), base_(base), size_(size), plain_size_(size > 8 ? size : 0), check_alignment_(check_alignment),
          budget_(budget) {}

    /// The root InferenceSession (identifier ORTM, root offset).
    FbTable root();

    /// Where field `vt` of `t` is stored; 0 when absent (beyond the vtable or zero).
    uint32_t field(const FbTable& t, uint16_t vt) const noexcept {
        if (vt >= t.vtable_size) return 0;  // the vtable's extent was checked at the table's start
        const auto offset = read<uint16_t>(t.vtable + vt);
        return offset ? t.at + offset : 0;  // t.at < 2^31, offset < 2^16: no wrap
    }
    /// The address a refusal about field `vt` of `t` reports: the field, else the table.
    const uint8_t* field_address(const FbTable& t, uint16_t vt) const noexcept;

    template <class T>
    T scalar(const FbTable& t, uint16_t vt, T absent, FbName name) const {
        const uint32_t at = field(t, vt);
        if (!at) return absent;
        check_scalar(at, sizeof(T), name, entry_of(t, vt));
        return read<T>(at);
    }
    /// A string field, valid UTF-8 as a .onnx string field (rule W11); absent: an empty
    /// view with a non-null pointer, `present` false.
    std::string_view string(const FbTable& t, uint16_t vt, std::string_view name, bool* present = nullptr);
    /// A string field that .onnx declares as bytes (attribute s): any bytes.
    std::string_view bytes(const FbTable& t, uint16_t vt, std::string_view name, bool* present = nullptr);
    /// A table field (unchecked until now); absent: a false FbTable.
    FbTable table(const FbTable& t, uint16_t vt, std::string_view name);
    /// A vector field of `element_size`-byte entries; absent: no entries.
    FbVector vector(const FbTable& t, uint16_t vt, uint32_t element_size, std::string_view name);

    /// Entry i of a vector of tables or strings: a zero offset is refused (InvalidModel),
    /// as ONNX Runtime's loader refuses it (the Verifier lets one through).
    FbTable table_at(const FbVector& v, uint32_t i, std::string_view name);
    /// table_at in two steps: where entry i's table starts, then its start checked (charged
    /// `table_work`). A walk that has read the table at that place before may copy what it read.
    uint32_t table_place(const FbVector& v, uint32_t i, std::string_view name) const {
        return entry_target(v, i, name, false);
    }
    FbTable table_at_place(uint32_t at, std::string_view name, uint32_t i) { return table_start(at, FbName(name, i)); }
    static constexpr uint64_t table_work = 32;  ///< what reading a table's start charges (rule O15)
    std::string_view string_at(const FbVector& v, uint32_t i, std::string_view name, bool utf8 = true);
    template <class T>
    T scalar_at(const FbVector& v, uint32_t i) const noexcept {
        return read<T>(v.entry(i));  // the vector's extent was checked; entries may be unaligned
    }
    /// The member at byte `offset` of struct entry i (offset + sizeof(T) <= the entry's size).
    template <class T>
    T member_at(const FbVector& v, uint32_t i, uint32_t offset) const noexcept {
        return read<T>(v.entry(i) + offset);
    }

    /// A hint, checking nothing and refusing nothing: starts loading the start of the table at
    /// entry i of `tables` when it lies inside the buffer. Inlined, as prefetch_strings.
    [[gnu::always_inline]] void prefetch_table(const FbVector& tables, uint32_t i) const noexcept {
        if (i >= tables.count) return;
        const uint32_t slot = tables.entry(i);
        const uint64_t table = uint64_t{slot} + read<uint32_t>(slot);
        if (table < size_) __builtin_prefetch(base_ + table);
    }

    /// A hint, checking nothing and refusing nothing: starts loading the first strings that
    /// vector field `vt` of the table at entry i of `tables` names, reading only bytes inside the
    /// buffer. ONNX Runtime writes a name where it first used it, so a node's names lie scattered
    /// over the buffer; the walk asks a few nodes ahead (docs/performance-history.md, ".ort files
    /// ONNX Runtime writes"). Inlined: a function that only prefetches is pure to GCC 12, which
    /// drops calls to it.
    [[gnu::always_inline]] void prefetch_strings(const FbVector& tables, uint32_t i, uint16_t vt) const noexcept {
        if (i >= tables.count) return;
        const int64_t slot = tables.entry(i);
        const int64_t table = slot + read<uint32_t>(static_cast<uint32_t>(slot));
        if (table + 4 > size_) return;
        const int64_t vtable = table - read<int32_t>(static_cast<uint32_t>(table));
        if (vtable < 0 || vtable + vt + 2 > size_ || read<uint16_t>(static_cast<uint32_t>(vtable)) < vt + 2) return;
        const auto field = read<uint16_t>(static_cast<uint32_t>(vtable + vt));
        if (field == 0 || table + field + 4 > size_) return;
        const int64_t vector = table + field + read<uint32_t>(static_cast<uint32_t>(table + field));
        if (vector + 4 > size_) return;
        const uint32_t count = read<uint32_t>(static_cast<uint32_t>(vector));
        for (uint32_t k = 0; k < count && k < 4 && vector + 8 + 4 * k <= size_; ++k) {
            const int64_t entry = vector + 4 + 4 * k;
            const int64_t string = entry + read<uint32_t>(static_cast<uint32_t>(entry));
            if (string < size_) __builtin_prefetch(base_ + string);
        }
    }

    /// The walk's work, in bytes of model it builds, at the object `at` it reads; refused
    /// there past the budget (rule O15).
    void charge(uint64_t units, uint32_t at) {
        used_ += units;
        if (used_ > budget_) over_budget(at);
    }
    uint64_t used() const noexcept { return used_; }
    /// Whether `units` more work stays within the budget.
    bool affords(uint64_t units) const noexcept { return used_ + units <= budget_; }

    const uint8_t* address(uint32_t at) const noexcept { return base_ + at; }
    uint32_t size() const noexcept { return size_; }

private:
    template <class T>
    T read(uint32_t at) const noexcept {
        T x;
        std::memcpy(&x, base_ + at, sizeof x);
        return x;
    }
    /// FlatBuffers' Verify(elem, len): len < size and elem <= size - len.
    bool fits(uint64_t at, uint64_t length) const noexcept { return length < size_ && at <= size_ - length; }
    /// Whether `width` (at most 8) bytes at `at` are inside and aligned to `width`, as in every
    /// well-formed buffer: true only where fits and aligned are, whatever the alignment option.
    /// The reads below test this first and the checks one by one, for their refusal, only when
    /// it fails (docs/performance-history.md, ".ort checks in one test").
    bool plain(uint32_t at, uint32_t width) const noexcept {
        return (at & (width - 1)) == 0 && uint64_t{at} + width <= plain_size_;  // 64 bits: no wrap
    }
    bool aligned(uint64_t at, uint32_t alignment) const noexcept {
        return !check_alignment_ || (at & (alignment - 1)) == 0;
    }
    /// Where field `vt`'s entry of the table's vtable is: what placed a field badly.
    static uint32_t entry_of(const FbTable& t, uint16_t vt) noexcept { return t.vtable + vt; }
    void check_scalar(uint32_t at, uint32_t width, FbName name, uint32_t anchor) const {
        if (plain(at, width)) [[likely]]
            return;
        if (!aligned(at, width) || !fits(at, width)) [[unlikely]]
            bad_scalar(at, width, name, anchor);
    }
    /// The target of the uoffset stored at `slot` (non-zero, non-negative, inside); a bad
    /// slot is blamed on `anchor`.
    uint32_t target(uint32_t slot, FbName name, uint32_t anchor) const {
        check_scalar(slot, 4, name, anchor);
        const auto offset = read<uint32_t>(slot);
        const uint64_t to = uint64_t{slot} + offset;
        if (offset == 0 || offset >= 0x80000000u || !fits(to, 1)) [[unlikely]]
            bad_offset(slot, name);
        return static_cast<uint32_t>(to);
    }
    FbTable table_start(uint32_t at, FbName name);
    std::string_view string_start(uint32_t at, FbName name, bool utf8);
    FbVector vector_start(uint32_t at, uint32_t element_size, FbName name) const;
    /// The entry's target; a zero offset refused as InvalidModel (of a vector of strings
    /// when `strings`, which the Verifier reads differently: zero_entry).
    uint32_t entry_target(const FbVector& v, uint32_t i, std::string_view name, bool strings) const;
    // The refusals, out of line: the checks above stay small enough to inline at every read.
    [[noreturn]] void bad_scalar(uint32_t at, uint32_t width, FbName name, uint32_t anchor) const;
    [[noreturn]] void bad_offset(uint32_t slot, FbName name) const;
    [[noreturn]] void bad_vtable_place(uint32_t at, uint64_t vtable, FbName name) const;
    [[noreturn]] void bad_vtable_size(uint32_t at, uint64_t vtable, uint16_t vsize, FbName name) const;
    [[noreturn]] void bad_vector(uint32_t at, uint32_t count, uint32_t element_size, FbName name) const;
    [[noreturn]] void unterminated(uint32_t at, FbName name) const;
    [[noreturn]] void invalid_utf8(const uint8_t* bad, FbName name) const;
    [[noreturn]] void zero_entry(uint32_t slot, uint32_t i, std::string_view name, bool strings) const;
    [[noreturn]] void entry_outside(uint32_t slot, uint64_t to, uint32_t i, std::string_view name) const;
    [[noreturn]] void malformed(uint64_t at, const std::string& message, FbName name) const;
    [[noreturn]] void over_budget(uint32_t at) const;

    const Refusal& r_;
    const uint8_t* base_;
    uint32_t size_;
    uint32_t plain_size_;  ///< size_, or 0 below 9 bytes, where plain() must not judge widths up to 8
    bool check_alignment_;
    uint64_t budget_;
    uint64_t used_ = 0;
};

// The reads of every field, inline: a call site's element size and names fold in, and the
// refusals stay out of line (docs/performance-history.md, ".ort against .onnx, mapped").

inline FbTable FbReader::table_start(uint32_t at, FbName name) {
    charge(table_work, at);
    check_scalar(at, 4, name, at);  // `at` is inside: its offset was checked
    const uint64_t vtable = uint64_t{at} - static_cast<int64_t>(read<int32_t>(at));  // a vtable may follow
    if (vtable > UINT32_MAX || !plain(static_cast<uint32_t>(vtable), 2)) [[unlikely]]
        if (!aligned(vtable, 2) || !fits(vtable, 2)) bad_vtable_place(at, vtable, name);
    const auto vsize = read<uint16_t>(static_cast<uint32_t>(vtable));
    // vtable + vsize < size: fits(vtable, vsize) (an end exactly at the buffer's end takes the checks).
    if ((vsize & 1) != 0 || vtable + vsize >= size_) [[unlikely]]
        if ((vsize & 1) != 0 || !fits(vtable, vsize)) bad_vtable_size(at, vtable, vsize, name);
    return {at, static_cast<uint32_t>(vtable), vsize};
}

inline FbVector FbReader::vector_start(uint32_t at, uint32_t element_size, FbName name) const {
    check_scalar(at, 4, name, at);
    const auto count = read<uint32_t>(at);
    const uint64_t bytes = 4 + uint64_t{count} * element_size;  // count < 2^32, size <= 12: no wrap
    // at + bytes < size < 2^31 - 1 (read_session.cpp): both checks hold.
    if (at + bytes >= size_) [[unlikely]]
        if (count >= 0x7FFFFFFFu / element_size || !fits(at, bytes)) bad_vector(at, count, element_size, name);
    return {at, count, element_size};
}

inline std::string_view FbReader::string_start(uint32_t at, FbName name, bool utf8) {
    const FbVector v = vector_start(at, 1, name);
    const uint32_t end = v.data() + v.count;
    if (end >= size_ || base_[end] != 0) [[unlikely]]  // end < size: fits(end, 1), as the vector fits
        unterminated(at, name);
    charge(16 + v.count, at);
    const uint8_t* bytes = base_ + v.data();
    if (utf8 && !all_ascii(bytes, bytes + v.count)) [[unlikely]]  // ASCII needs no full check
        if (const uint8_t* bad = find_invalid_utf8(bytes, bytes + v.count)) invalid_utf8(bad, name);
    return {reinterpret_cast<const char*>(bytes), v.count};
}

inline std::string_view FbReader::string(const FbTable& t, uint16_t vt, std::string_view name, bool* present) {
    const uint32_t slot = field(t, vt);
    if (present) *present = slot != 0;
    if (!slot) return {"", 0};
    return string_start(target(slot, name, entry_of(t, vt)), name, true);
}

inline std::string_view FbReader::bytes(const FbTable& t, uint16_t vt, std::string_view name, bool* present) {
    const uint32_t slot = field(t, vt);
    if (present) *present = slot != 0;
    if (!slot) return {"", 0};
    return string_start(target(slot, name, entry_of(t, vt)), name, false);
}

inline FbTable FbReader::table(const FbTable& t, uint16_t vt, std::string_view name) {
    const uint32_t slot = field(t, vt);
    return slot ? table_start(target(slot, name, entry_of(t, vt)), name) : FbTable{};
}

inline FbVector FbReader::vector(const FbTable& t, uint16_t vt, uint32_t element_size, std::string_view name) {
    const uint32_t slot = field(t, vt);
    if (!slot) return {};
    FbVector v = vector_start(target(slot, name, entry_of(t, vt)), element_size, name);
    charge(8 + uint64_t{v.count} * element_size, v.at);
    return v;
}

inline uint32_t FbReader::entry_target(const FbVector& v, uint32_t i, std::string_view name, bool strings) const {
    const uint32_t slot = v.entry(i);
    const auto offset = read<uint32_t>(slot);
    if (offset == 0) [[unlikely]]
        zero_entry(slot, i, name, strings);
    const uint64_t to = uint64_t{slot} + offset;  // unchecked sign, as the Verifier reads an entry
    if (to >= size_) [[unlikely]]
        entry_outside(slot, to, i, name);
    return static_cast<uint32_t>(to);
}

inline FbTable FbReader::table_at(const FbVector& v, uint32_t i, std::string_view name) {
    return table_start(entry_target(v, i, name, false), FbName(name, i));
}

inline std::string_view FbReader::string_at(const FbVector& v, uint32_t i, std::string_view name, bool utf8) {
    return string_start(entry_target(v, i, name, true), FbName(name, i), utf8);
}

}  // namespace onnximport::detail
