// The writer's shared strings (string_pool.hpp): open addressing over the builder's offsets.
#include "write/ort/string_pool.hpp"

#include <cstring>

namespace onnximport::detail {

StringPool::StringPool(flatbuffers::FlatBufferBuilder& fbb) : fbb_(fbb), key_(random_hash_key()), slots_(1024) {}

std::string_view StringPool::written(uint32_t offset) const {
    // The builder grows downwards: an object's offset counts from the end of what is built.
    const uint8_t* at = fbb_.GetCurrentBufferPointer() + fbb_.GetSize() - offset;
    uint32_t length;
    std::memcpy(&length, at, sizeof length);
    return {reinterpret_cast<const char*>(at + sizeof length), length};
}

flatbuffers::Offset<flatbuffers::String> StringPool::get(std::string_view s) {
    const auto hash = static_cast<uint32_t>(hash_name(s, key_));
    const size_t mask = slots_.size() - 1;
    size_t i = hash & mask;
    for (; slots_[i].offset; i = (i + 1) & mask)
        if (slots_[i].hash == hash && written(slots_[i].offset) == s) return slots_[i].offset;
    const auto made = fbb_.CreateString(s.data(), s.size());
    slots_[i] = {made.o, hash};
    if (++used_ * 2 > slots_.size()) grow();
    return made;
}

void StringPool::grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    const size_t mask = slots_.size() - 1;
    for (const Slot& s : old) {
        if (!s.offset) continue;
        size_t i = s.hash & mask;
        while (slots_[i].offset) i = (i + 1) & mask;
        slots_[i] = s;
    }
}

}  // namespace onnximport::detail
