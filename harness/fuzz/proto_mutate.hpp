// Structure-aware mutation of protobuf inputs (spec section 1), so mutated inputs stay valid
// protobuf often enough to reach the ONNX rules behind the wire reader (sections 2-4:
// attributes, tensors, graph resolution). proto_mutator.cpp is libFuzzer's entry point for
// the .onnx targets; the unit tests call this directly (suite proto_mutator).
//
// The input is parsed into a tree of fields (proto_tree.hpp); a length-delimited payload that
// parses completely as a message becomes a subtree. One to three mutations are applied, each
// to a random field: change a varint (towards values the spec cares about: element types,
// attribute types, 0, -1, 2^31, 2^60, ...), change a fixed value, mutate a leaf payload with
// the byte mutator, duplicate / drop / reorder a field, re-nest a subtree elsewhere (a graph
// into an attribute, a node into a function, ...), change a field number or wire type, wrap a
// field in a new message, or insert a new field. Writing recomputes every length. A share of
// mutations stay byte-level (the whole input to the byte mutator), so the wire reader itself
// is still fuzzed with lengths that lie.
#pragma once

#include "proto_tree.hpp"

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

namespace gauntlet_fuzz::proto {

/// libFuzzer's byte mutator (LLVMFuzzerMutate) or a test's stand-in: mutates `size` bytes at
/// `data` with room for `max_size`, returns the new size.
using ByteMutator = size_t (*)(uint8_t* data, size_t size, size_t max_size);

/// Keeps its tree and lists between calls: one per process, as libFuzzer calls it in turn.
class Mutator {
public:
    explicit Mutator(ByteMutator byte_mutator) : byte_mutator_(byte_mutator) {}

    /// LLVMFuzzerCustomMutator: the new size of the input at `data` (room for `max_size`).
    size_t mutate(uint8_t* data, size_t size, size_t max_size, unsigned seed);
    /// LLVMFuzzerCustomCrossOver: a subtree of the second input grafted into a message of the
    /// first (cut to max_out_size), or a prefix of one spliced to a suffix of the other when
    /// either is not a message; the size written to `out`.
    size_t cross_over(const uint8_t* data1, size_t size1, const uint8_t* data2, size_t size2, uint8_t* out,
                      size_t max_out_size, unsigned seed);

private:
    /// One mutation of a random field of the tree rooted at `root` (the ten kinds below, by weight).
    void mutate_once(int32_t& root, std::minstd_rand& rng);
    /// A varint towards a value the spec cares about, a fixed value to a float's edge or a bit
    /// flipped, a leaf payload through the byte mutator, or a message's field dropped.
    void change_value(const Site& s, std::minstd_rand& rng);
    /// A copy next to the field or at the end of its message.
    void duplicate(int32_t& root, const Site& s, std::minstd_rand& rng);
    /// The field and another of its message trade places.
    void reorder(int32_t& root, const Site& s, std::minstd_rand& rng);
    /// A copy into any message (a graph into an attribute, a node into a function), maybe renumbered.
    void renest(int32_t& root, const Site& s, std::minstd_rand& rng);
    /// Another field number, or another wire type (a known field with the wrong one).
    void renumber(const Site& s, std::minstd_rand& rng);
    /// The field becomes the only child of a new message field.
    void wrap(const Site& s, std::minstd_rand& rng);
    /// A new field at the end of any message.
    void add_field(int32_t& root, std::minstd_rand& rng);
    /// Links field `f` into a list at `position` (its length for the end).
    void insert(int32_t& head, size_t position, int32_t f);

    ByteMutator byte_mutator_;
    Tree tree_;
    std::vector<Site> sites_;
    std::vector<ListRef> lists_;
};

}  // namespace gauntlet_fuzz::proto
