// The refusals of ort/buffer.hpp's checked reads, and the root. Each check is the one
// FlatBuffers' Verifier makes at the same place (bounds as len < size && at <= size - len,
// alignment to the scalar's width, offsets non-zero and below 2^31, vtables of even size);
// the refusal names the bytes and the field.
#include "ort/buffer.hpp"

#include <string>

namespace onnximport::detail {

namespace {

constexpr uint32_t min_buffer_size = 12;  // root offset, identifier, a vtable's two sizes (FlatBuffers)

std::string at_text(uint64_t at) { return std::to_string(at); }

}  // namespace

std::string FbName::str() const {
    const std::string field(data, size);
    return index < 0 ? field : field + "[" + std::to_string(index) + "]";
}

void FbReader::malformed(uint64_t at, const std::string& message, FbName name) const {
    r_.fail(ErrorKind::Malformed, base_ + at, message, name.str());  // callers pass a place inside the buffer
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
    return table_start(target(0, "root", 0), FbName(std::string_view{}));
}

const uint8_t* FbReader::field_address(const FbTable& t, uint16_t vt) const noexcept {
    const uint32_t at = field(t, vt);
    return base_ + (at && at < size_ ? at : t.at);
}

void FbReader::bad_scalar(uint32_t at, uint32_t width, FbName name, uint32_t anchor) const {
    // A place outside the buffer came from the bytes at `anchor` (a vtable entry, an offset).
    const uint32_t blame = at < size_ ? at : anchor;
    if (!aligned(at, width))
        malformed(blame, "a " + std::to_string(width) + "-byte scalar at byte " + at_text(at) + " is misaligned", name);
    malformed(blame, "a " + std::to_string(width) + "-byte scalar at byte " + at_text(at) +
                         " runs past the end of the buffer (" + at_text(size_) + " bytes)", name);
}

void FbReader::bad_offset(uint32_t slot, FbName name) const {
    const auto offset = read<uint32_t>(slot);
    if (offset == 0) malformed(slot, "the offset at byte " + at_text(slot) + " is zero (no object)", name);
    if (offset >= 0x80000000u)
        malformed(slot, "the offset at byte " + at_text(slot) + " is negative as a signed 32-bit value", name);
    malformed(slot, "the offset at byte " + at_text(slot) + " points to byte " + at_text(uint64_t{slot} + offset) +
                        ", past the end of the buffer (" + at_text(size_) + " bytes)", name);
}

void FbReader::bad_vtable_place(uint32_t at, uint64_t vtable, FbName name) const {
    malformed(at, "the table at byte " + at_text(at) + " names its vtable at byte " +
                      std::to_string(static_cast<int64_t>(vtable)) + ", outside the buffer or misaligned", name);
}

void FbReader::bad_vtable_size(uint32_t at, uint64_t vtable, uint16_t vsize, FbName name) const {
    malformed(vtable, "the vtable at byte " + at_text(vtable) + " (of the table at byte " + at_text(at) +
                          ") declares " + std::to_string(vsize) + " bytes: odd, or past the end", name);
}

void FbReader::bad_vector(uint32_t at, uint32_t count, uint32_t element_size, FbName name) const {
    malformed(at, "the vector at byte " + at_text(at) + " declares " + std::to_string(count) + " entries of " +
                      std::to_string(element_size) + " bytes, past the end of the buffer (" + at_text(size_) +
                      " bytes)", name);
}

void FbReader::unterminated(uint32_t at, FbName name) const {
    malformed(at, "the string at byte " + at_text(at) + " has no terminating zero byte", name);
}

void FbReader::invalid_utf8(const uint8_t* bad, FbName name) const {
    r_.fail(ErrorKind::InvalidModel, bad, "the string is not valid UTF-8 (rule W11)", name.str());
}

void FbReader::zero_entry(uint32_t slot, uint32_t i, std::string_view name, bool strings) const {
    // For a string the Verifier reads the slot itself as one (length 0): Malformed where that
    // has no terminator, a missing string otherwise (rule O4).
    if (strings && (!fits(uint64_t{slot} + 4, 1) || base_[slot + 4] != 0))
        malformed(slot, "entry " + std::to_string(i) + " is a zero offset, and the slot read as a string has "
                        "no terminating zero byte", FbName(name, i));
    const std::string what = strings ? "string" : "object";
    r_.fail(ErrorKind::InvalidModel, base_ + slot,
            "entry " + std::to_string(i) + " of " + std::string(name) + " is a zero offset (no " + what + ")",
            FbName(name, i).str());
}

void FbReader::entry_outside(uint32_t slot, uint64_t to, uint32_t i, std::string_view name) const {
    malformed(slot, "entry " + std::to_string(i) + " points to byte " + at_text(to) + ", past the end of the buffer (" +
                        at_text(size_) + " bytes)", FbName(name, i));
}

}  // namespace onnximport::detail
