// The .ort buffer as FlatBuffers lays it out (docs/ort.md, "Verification"), read by the
// walk itself: every offset, length and count is read once, checked where it is used and
// then only its checked value is used, so no byte judged earlier is trusted again (a file
// rewritten while it is mapped changes what is read, never where). A refusal names the
// offending bytes and the schema path to them. The checks are FlatBuffers' Verifier's
// (harness/tests/test_ort_verify.cpp holds the verdicts equal); its depth and table
// limits are not: depth is bounded by ImportOptions::max_nesting, and the work the walk
// does by a budget proportional to the buffer's size (rule O15), whatever is shared.
#pragma once

#include "core/refusal.hpp"

#include <cstdint>
#include <cstring>
#include <string_view>

namespace onnximport::detail {

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
        : r_(refusal), base_(base), size_(size), check_alignment_(check_alignment), budget_(budget) {}

    /// The root InferenceSession (identifier ORTM, root offset).
    FbTable root();

    /// Where field `vt` of `t` is stored; 0 when absent (beyond the vtable or zero).
    uint32_t field(const FbTable& t, uint16_t vt) const noexcept;
    /// The address a refusal about field `vt` of `t` reports: the field, else the table.
    const uint8_t* field_address(const FbTable& t, uint16_t vt) const noexcept;

    template <class T>
    T scalar(const FbTable& t, uint16_t vt, T absent, std::string_view name) const {
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

    /// The walk's work, in bytes of model it builds, at the object `at` it reads; refused
    /// there past the budget (rule O15).
    void charge(uint64_t units, uint32_t at) {
        used_ += units;
        if (used_ > budget_) over_budget(at);
    }
    uint64_t used() const noexcept { return used_; }

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
    bool aligned(uint64_t at, uint32_t alignment) const noexcept {
        return !check_alignment_ || (at & (alignment - 1)) == 0;
    }
    /// Where field `vt`'s entry of the table's vtable is: what placed a field badly.
    static uint32_t entry_of(const FbTable& t, uint16_t vt) noexcept { return t.vtable + vt; }
    void check_scalar(uint32_t at, uint32_t width, std::string_view name, uint32_t anchor) const;
    /// The target of the uoffset stored at `slot` (non-zero, non-negative, inside); a bad
    /// slot is blamed on `anchor`.
    uint32_t target(uint32_t slot, std::string_view name, uint32_t anchor) const;
    FbTable table_start(uint32_t at, std::string_view name);
    std::string_view string_start(uint32_t at, std::string_view name, bool utf8);
    FbVector vector_start(uint32_t at, uint32_t element_size, std::string_view name) const;
    [[noreturn]] void malformed(uint64_t at, const std::string& message, std::string_view name) const;
    [[noreturn]] void over_budget(uint32_t at) const;

    const Refusal& r_;
    const uint8_t* base_;
    uint32_t size_;
    bool check_alignment_;
    uint64_t budget_;
    uint64_t used_ = 0;
};

/// The name of entry `i` of the field `name`, for a refusal's path: "nodes[3]".
std::string entry_name(std::string_view name, uint32_t i);

}  // namespace onnximport::detail
