// fuzz_ort's structure-aware mutations of a .ort buffer (docs/fuzzing.md, "Shared and aliased .ort
// objects"), each driven by the buffer's index (ort_index.hpp). ort_mutator.cpp is libFuzzer's
// entry point; the unit tests call these directly (suite ort_mutator).
#pragma once

#include "ort_index.hpp"

#include <cstddef>
#include <cstdint>
#include <random>

namespace gauntlet_fuzz::ort {

/// A mutation of `size` bytes at `data` (room for `max_size`): the new size, or 0 when the
/// buffer offers it nothing to change (then `data` is untouched).
using Mutation = size_t (*)(uint8_t* data, size_t size, size_t max_size, const Index& ix, std::mt19937& rng);

/// A scalar towards a value the reader cares about, a length, a vtable entry, a table's
/// vtable, or a uoffset set to 0 or at any object whatever its type (ort_places.cpp).
size_t mutate_place(uint8_t* data, size_t size, size_t max_size, const Index& ix, std::mt19937& rng);

/// A uoffset pointed at another existing object of its type: tables of one type, vectors of
/// one element type, strings (ort_alias.cpp). Only forward, as uoffsets are unsigned.
size_t retarget(uint8_t* data, size_t size, size_t max_size, const Index& ix, std::mt19937& rng);
/// The tail of a vector of scalars or structs, or of a string, made an object of its own (a
/// length written over one entry) and a uoffset of that type pointed at it: two objects
/// sharing bytes (ort_alias.cpp).
size_t overlap(uint8_t* data, size_t size, size_t max_size, const Index& ix, std::mt19937& rng);
/// Entries of a vector of tables or strings pointed at one object: many references, one
/// target, in place (ort_alias.cpp).
size_t duplicate(uint8_t* data, size_t size, size_t max_size, const Index& ix, std::mt19937& rng);
/// A new vector of 2 to thousands of uoffsets to one to three existing objects, inserted
/// before them, in place of a vector of that type: references grown in number (ort_grow.cpp).
size_t grow(uint8_t* data, size_t size, size_t max_size, const Index& ix, std::mt19937& rng);

/// Opens `gap` zero bytes at `at`, which must be a boundary of `ix` (Index::boundary) and
/// `gap` a multiple of 8: what follows moves, and every uoffset and soffset that crosses
/// `at` is rewritten, so the buffer reads as before (ort_grow.cpp). `size + gap` bytes must fit.
void open_gap(uint8_t* data, size_t size, uint32_t at, uint32_t gap, const Index& ix);

/// One to three of the mutations above on a buffer its index walks completely; the new size,
/// or 0 when the buffer does not read as an InferenceSession (ort_mutate.cpp).
size_t mutate(uint8_t* data, size_t size, size_t max_size, std::mt19937& rng);

/// The little-endian value of `width` bytes at `at`, and its write.
inline uint64_t get(const uint8_t* data, uint32_t at, uint8_t width) {
    uint64_t v = 0;
    for (uint8_t i = 0; i < width; ++i) v |= uint64_t{data[at + i]} << (8 * i);
    return v;
}
inline void put(uint8_t* data, uint32_t at, uint64_t v, uint8_t width) {
    for (uint8_t i = 0; i < width; ++i) data[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

}  // namespace gauntlet_fuzz::ort
