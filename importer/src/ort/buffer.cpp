// The checked reads of ort/buffer.hpp. Each check is the one FlatBuffers' Verifier makes
// at the same place (bounds as len < size && at <= size - len, alignment to the scalar's
// width, offsets non-zero and below 2^31, vtables of even size), located.
#include "ort/buffer.hpp"

#include "core/utf8.hpp"

#include <string>

namespace onnximport::detail {

namespace {

constexpr uint32_t min_buffer_size = 12;  // root offset, identifier, a vtable's two sizes (FlatBuffers)

std::string at_text(uint64_t at) { return std::to_string(at); }

}  // namespace

std::string entry_name(std::string_view name, uint32_t i) {
    return std::string(name) + "[" + std::to_string(i) + "]";
}

void FbReader::malformed(uint64_t at, const std::string& message, std::string_view name) const {
    r_.fail(ErrorKind::Malformed, base_ + at, message, name);  // callers pass a place inside the buffer
}

void FbReader::over_budget(uint32_t at) const {
    r_.fail(ErrorKind::Unsupported, base_ + at,
            "the buffer's objects are referenced so often that its model would exceed " + std::to_string(budget_) +
                " bytes, 16 times the buffer's size (rule O15: shared objects may not amplify the model)");
}

FbTable FbReader::root() {
    if (size_ < min_buffer_size)
        r_.fail(ErrorKind::Malformed, base_, "a .ort buffer has at least 12 bytes; this one has " + at_text(size_));
    if (std::memcmp(base_ + 4, "ORTM", 4) != 0)
        r_.fail(ErrorKind::Malformed, base_ + 4, "the file identifier at bytes 4..7 is not ORTM");
    return table_start(target(0, "root", 0), {});
}

uint32_t FbReader::field(const FbTable& t, uint16_t vt) const noexcept {
    if (vt >= t.vtable_size) return 0;  // the vtable's extent was checked at the table's start
    const auto offset = read<uint16_t>(t.vtable + vt);
    return offset ? t.at + offset : 0;  // t.at < 2^31, offset < 2^16: no wrap
}

const uint8_t* FbReader::field_address(const FbTable& t, uint16_t vt) const noexcept {
    const uint32_t at = field(t, vt);
    return base_ + (at && at < size_ ? at : t.at);
}

void FbReader::check_scalar(uint32_t at, uint32_t width, std::string_view name, uint32_t anchor) const {
    // A place outside the buffer came from the bytes at `anchor` (a vtable entry, an offset).
    const uint32_t blame = at < size_ ? at : anchor;
    if (!aligned(at, width))
        malformed(blame, "a " + std::to_string(width) + "-byte scalar at byte " + at_text(at) + " is misaligned", name);
    if (!fits(at, width))
        malformed(blame, "a " + std::to_string(width) + "-byte scalar at byte " + at_text(at) +
                             " runs past the end of the buffer (" + at_text(size_) + " bytes)", name);
}

uint32_t FbReader::target(uint32_t slot, std::string_view name, uint32_t anchor) const {
    check_scalar(slot, 4, name, anchor);
    const auto offset = read<uint32_t>(slot);
    if (offset == 0) malformed(slot, "the offset at byte " + at_text(slot) + " is zero (no object)", name);
    if (offset >= 0x80000000u)
        malformed(slot, "the offset at byte " + at_text(slot) + " is negative as a signed 32-bit value", name);
    const uint64_t to = uint64_t{slot} + offset;
    if (!fits(to, 1))
        malformed(slot, "the offset at byte " + at_text(slot) + " points to byte " + at_text(to) +
                            ", past the end of the buffer (" + at_text(size_) + " bytes)", name);
    return static_cast<uint32_t>(to);
}

FbTable FbReader::table_start(uint32_t at, std::string_view name) {
    charge(32, at);
    check_scalar(at, 4, name, at);  // `at` is inside: its offset was checked
    const uint64_t vtable = uint64_t{at} - static_cast<int64_t>(read<int32_t>(at));  // a vtable may follow
    if (vtable >= size_ || !aligned(vtable, 2) || !fits(vtable, 2))
        malformed(at, "the table at byte " + at_text(at) + " names its vtable at byte " +
                          std::to_string(static_cast<int64_t>(vtable)) + ", outside the buffer or misaligned", name);
    const auto vsize = read<uint16_t>(static_cast<uint32_t>(vtable));
    if ((vsize & 1) != 0 || !fits(vtable, vsize))
        malformed(vtable, "the vtable at byte " + at_text(vtable) + " (of the table at byte " + at_text(at) +
                              ") declares " + std::to_string(vsize) + " bytes: odd, or past the end", name);
    return {at, static_cast<uint32_t>(vtable), vsize};
}

FbVector FbReader::vector_start(uint32_t at, uint32_t element_size, std::string_view name) const {
    check_scalar(at, 4, name, at);
    const auto count = read<uint32_t>(at);
    const uint64_t bytes = 4 + uint64_t{count} * element_size;  // count < 2^32, size <= 12: no wrap
    if (count >= 0x7FFFFFFFu / element_size || !fits(at, bytes))
        malformed(at, "the vector at byte " + at_text(at) + " declares " + std::to_string(count) + " entries of " +
                          std::to_string(element_size) + " bytes, past the end of the buffer (" + at_text(size_) +
                          " bytes)", name);
    return {at, count, element_size};
}

std::string_view FbReader::string_start(uint32_t at, std::string_view name, bool utf8) {
    const FbVector v = vector_start(at, 1, name);
    const uint32_t end = v.data() + v.count;
    if (!fits(end, 1) || base_[end] != 0)
        malformed(at, "the string at byte " + at_text(at) + " has no terminating zero byte", name);
    charge(16 + v.count, at);
    const uint8_t* bytes = base_ + v.data();
    if (const uint8_t* bad = utf8 ? find_invalid_utf8(bytes, bytes + v.count) : nullptr)
        r_.fail(ErrorKind::InvalidModel, bad, "the string is not valid UTF-8 (rule W11)", name);
    return {reinterpret_cast<const char*>(bytes), v.count};
}

std::string_view FbReader::string(const FbTable& t, uint16_t vt, std::string_view name, bool* present) {
    const uint32_t slot = field(t, vt);
    if (present) *present = slot != 0;
    if (!slot) return {"", 0};
    return string_start(target(slot, name, entry_of(t, vt)), name, true);
}

std::string_view FbReader::bytes(const FbTable& t, uint16_t vt, std::string_view name, bool* present) {
    const uint32_t slot = field(t, vt);
    if (present) *present = slot != 0;
    if (!slot) return {"", 0};
    return string_start(target(slot, name, entry_of(t, vt)), name, false);
}

FbTable FbReader::table(const FbTable& t, uint16_t vt, std::string_view name) {
    const uint32_t slot = field(t, vt);
    return slot ? table_start(target(slot, name, entry_of(t, vt)), name) : FbTable{};
}

FbVector FbReader::vector(const FbTable& t, uint16_t vt, uint32_t element_size, std::string_view name) {
    const uint32_t slot = field(t, vt);
    if (!slot) return {};
    FbVector v = vector_start(target(slot, name, entry_of(t, vt)), element_size, name);
    charge(8 + uint64_t{v.count} * element_size, v.at);
    return v;
}

FbTable FbReader::table_at(const FbVector& v, uint32_t i, std::string_view name) {
    const uint32_t slot = v.entry(i);
    const auto offset = read<uint32_t>(slot);
    if (offset == 0)
        r_.fail(ErrorKind::InvalidModel, base_ + slot,
                "entry " + std::to_string(i) + " of " + std::string(name) + " is a zero offset (no object)",
                entry_name(name, i));
    const uint64_t to = uint64_t{slot} + offset;  // unchecked sign, as the Verifier reads an entry
    if (to >= size_)
        malformed(slot, "entry " + std::to_string(i) + " points to byte " + at_text(to) +
                            ", past the end of the buffer (" + at_text(size_) + " bytes)", entry_name(name, i));
    return table_start(static_cast<uint32_t>(to), entry_name(name, i));
}

std::string_view FbReader::string_at(const FbVector& v, uint32_t i, std::string_view name, bool utf8) {
    const uint32_t slot = v.entry(i);
    const auto offset = read<uint32_t>(slot);
    if (offset == 0) {
        // The Verifier reads the slot itself as the string (length 0): Malformed where that
        // has no terminator, a missing string otherwise (rule O4).
        if (!fits(uint64_t{slot} + 4, 1) || base_[slot + 4] != 0)
            malformed(slot, "entry " + std::to_string(i) + " is a zero offset, and the slot read as a string has "
                            "no terminating zero byte", entry_name(name, i));
        r_.fail(ErrorKind::InvalidModel, base_ + slot,
                "entry " + std::to_string(i) + " of " + std::string(name) + " is a zero offset (no string)",
                entry_name(name, i));
    }
    const uint64_t to = uint64_t{slot} + offset;
    if (to >= size_)
        malformed(slot, "entry " + std::to_string(i) + " points to byte " + at_text(to) +
                            ", past the end of the buffer (" + at_text(size_) + " bytes)", entry_name(name, i));
    return string_start(static_cast<uint32_t>(to), entry_name(name, i), utf8);
}

}  // namespace onnximport::detail
