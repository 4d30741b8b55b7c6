// The protobuf mutator's view of an input (proto_mutate.hpp): its fields as one tree, flat.
// Every field is an entry of one array, linked to the next field of its message and to its
// first child; payloads are ranges of one byte array. Nothing is allocated per field, and a
// Tree cleared and filled again reuses its arrays: the mutator runs once per execution, and
// a tree of vectors cost it more than the target's import (docs/fuzzing.md, "What the
// mutator costs").
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gauntlet_fuzz::proto {

inline constexpr int32_t none = -1;

struct Field {
    uint32_t number = 0;
    uint8_t wire = 0;
    /// The payload parsed completely as a message: its fields are the children. Kept when the
    /// wire type is changed, so a later change back finds them again.
    bool is_message = false;
    uint64_t value = 0;          ///< varint or fixed value
    uint32_t payload_at = 0;     ///< a leaf's payload: Tree::bytes[payload_at, + payload_size)
    uint32_t payload_size = 0;
    int32_t first_child = none;  ///< a message's first field
    int32_t next = none;         ///< the next field of the same message
};

/// A message's list of fields: the root list (owner none) or a message field's children.
struct ListRef {
    int32_t owner = none;
};

/// A field with the list that holds it and its predecessor there (none for the first).
struct Site {
    ListRef list;
    int32_t field = none;
    int32_t previous = none;
};

class Tree {
public:
    /// Parses fields this deep at most; a deeper payload stays a leaf.
    static constexpr int max_depth = 40;
    /// A parse of more fields than this fails (a mutation then falls back to bytes).
    static constexpr size_t max_fields = 4096;

    std::vector<Field> fields;
    std::vector<uint8_t> bytes;

    void clear() noexcept;

    /// Copies the bytes in and parses them strictly as a message of wire types 0, 1, 2 and 5;
    /// a length-delimited payload that parses completely becomes a message. Sets `root` to the
    /// root list's first field; false when the bytes are not such a message.
    bool parse(const uint8_t* data, size_t size, int32_t& root);

    /// The head of a list (the variable that holds its first field).
    int32_t& head(ListRef list, int32_t& root) noexcept {
        return list.owner == none ? root : fields[static_cast<size_t>(list.owner)].first_child;
    }
    /// The number of fields in a list.
    size_t length(int32_t first) const noexcept;
    /// The field before position `at` of a list (none for position 0).
    int32_t before(int32_t first, size_t at) const noexcept;
    /// Links field `f` into a list after `previous` (at the front for none).
    void link_after(int32_t& head, int32_t previous, int32_t f) noexcept;
    /// Unlinks the field of a site from its list.
    void unlink(int32_t& head, const Site& s) noexcept;

    /// A new field, copied from `f` with all its descendants; unlinked (next is none).
    int32_t copy(int32_t f);
    /// A new field, unlinked.
    int32_t add(const Field& f);
    /// A new leaf payload of `size` bytes copied from `from` (outside `bytes`); its offset.
    uint32_t add_payload(const uint8_t* from, size_t size);
    /// A copy of the payload at `from`, with `room` bytes after it to grow into; its offset.
    uint32_t copy_payload(uint32_t from, uint32_t size, size_t room);

    /// Every field of the list from `first`, in tree order, with its list; and every list
    /// (`first`'s and each message's), in the same order.
    void collect(int32_t first, ListRef list, std::vector<Site>& sites, std::vector<ListRef>& lists) const;

    /// The encoded size of the list from `first` (and of every message inside it, kept for write).
    size_t encoded_size(int32_t first);
    /// Writes the list from `first` at out, which has room for its encoded_size (called just before).
    uint8_t* write(int32_t first, uint8_t* out) const;

private:
    bool parse_list(const uint8_t* p, const uint8_t* end, int32_t& first, int depth, size_t& count);
    /// Each message field's encoded payload size, from the last encoded_size.
    std::vector<size_t> message_size_;
};

}  // namespace gauntlet_fuzz::proto
