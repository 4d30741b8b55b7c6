// The choice and the making of the protobuf mutations (proto_mutate.hpp).
#include "proto_mutate.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

namespace gauntlet_fuzz::proto {

namespace {

uint64_t interesting_varint(std::minstd_rand& rng, uint64_t old) {
    static const uint64_t values[] = {
        0, 1, 2, 3, 7, 8, 9, 13, 14, 15, 16, 21, 28, 29, 127, 128, 255, 256, 65535,
        0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu, uint64_t{1} << 32, uint64_t{1} << 60, (uint64_t{1} << 60) + 1,
        static_cast<uint64_t>(-1), static_cast<uint64_t>(-2), uint64_t{1} << 63,
    };
    switch (rng() % 4) {
    case 0: return values[rng() % (sizeof values / sizeof values[0])];
    case 1: return old + 1;
    case 2: return old - 1;
    default: return rng() % 32;  // element types, attribute types, small dims and counts
    }
}

/// Field numbers that onnx.proto uses, so inserted or renumbered fields hit real fields.
uint32_t some_field_number(std::minstd_rand& rng) {
    static const uint32_t numbers[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 20, 21, 22, 23, 25};
    return numbers[rng() % (sizeof numbers / sizeof numbers[0])];
}

size_t index(int32_t f) { return static_cast<size_t>(f); }

}  // namespace

void Mutator::insert(int32_t& head, size_t position, int32_t f) {
    tree_.link_after(head, tree_.before(head, position), f);
}

void Mutator::mutate_once(int32_t& root, std::minstd_rand& rng) {
    sites_.clear();
    lists_.clear();
    tree_.collect(root, {}, sites_, lists_);
    if (sites_.empty()) {  // an empty message: a first field
        Field f;
        f.number = some_field_number(rng);
        f.value = rng() % 16;
        root = tree_.add(f);
        return;
    }
    const Site s = sites_[rng() % sites_.size()];
    switch (rng() % 10) {
    case 0:
    case 1: return change_value(s, rng);
    case 2: return duplicate(root, s, rng);
    case 3: return tree_.unlink(tree_.head(s.list, root), s);
    case 4: return reorder(root, s, rng);
    case 5:
    case 6: return renest(root, s, rng);
    case 7: return renumber(s, rng);
    case 8: return wrap(s, rng);
    default: return add_field(root, rng);
    }
}

void Mutator::change_value(const Site& s, std::minstd_rand& rng) {
    Tree& t = tree_;
    Field& f = t.fields[index(s.field)];
    if (f.wire == 0) {
        f.value = interesting_varint(rng, f.value);
    } else if (f.wire == 1 || f.wire == 5) {
        static const uint32_t floats[] = {0x7FC00000u, 0x7F800000u, 0xFF800000u, 0x80000000u, 0x3F800000u, 1u};
        f.value = rng() % 2 ? floats[rng() % 6] : (f.value ^ (uint64_t{1} << (rng() % (f.wire == 1 ? 64 : 32))));
    } else if (!f.is_message) {  // the payload through the byte mutator, with room to grow
        const uint32_t old = f.payload_size;
        const uint32_t at = t.copy_payload(f.payload_at, old, 16);
        const size_t n = byte_mutator_(t.bytes.data() + at, old, old + 16);
        t.bytes.resize(at + n);
        f.payload_at = at;
        f.payload_size = static_cast<uint32_t>(n);
    } else if (f.first_child != none) {  // a message loses a field (earlier drops may have emptied it)
        const size_t k = rng() % t.length(f.first_child);
        const int32_t previous = t.before(f.first_child, k);
        const int32_t child = previous == none ? f.first_child : t.fields[index(previous)].next;
        t.unlink(f.first_child, {{s.field}, child, previous});
    }
}

void Mutator::duplicate(int32_t& root, const Site& s, std::minstd_rand& rng) {
    const int32_t copy = tree_.copy(s.field);
    int32_t& head = tree_.head(s.list, root);
    if (rng() % 2)
        tree_.link_after(head, s.previous, copy);  // next to itself
    else
        insert(head, tree_.length(head), copy);  // at the end of its message
}

void Mutator::reorder(int32_t& root, const Site& s, std::minstd_rand& rng) {
    Tree& t = tree_;
    const int32_t head = t.head(s.list, root);
    const int32_t previous = t.before(head, rng() % t.length(head));
    const size_t other = index(previous == none ? head : t.fields[index(previous)].next);
    std::swap(t.fields[index(s.field)], t.fields[other]);  // the two trade places: their links stay
    std::swap(t.fields[index(s.field)].next, t.fields[other].next);
}

void Mutator::renest(int32_t& root, const Site& s, std::minstd_rand& rng) {
    const int32_t copy = tree_.copy(s.field);
    const ListRef target = lists_[rng() % lists_.size()];
    if (rng() % 3 == 0) tree_.fields[index(copy)].number = some_field_number(rng);
    int32_t& head = tree_.head(target, root);
    insert(head, head == none ? 0 : rng() % (tree_.length(head) + 1), copy);
}

void Mutator::renumber(const Site& s, std::minstd_rand& rng) {
    Field& f = tree_.fields[index(s.field)];
    if (rng() % 4) {
        f.number = some_field_number(rng);
        return;
    }
    static const uint8_t wires[] = {0, 1, 2, 5};
    f.wire = wires[rng() % 4];
    if (f.wire == 2 && !f.is_message && f.payload_size == 0) {
        const uint8_t x = 'x';
        f.payload_at = tree_.add_payload(&x, 1);
        f.payload_size = 1;
    }
}

void Mutator::wrap(const Site& s, std::minstd_rand& rng) {
    const int32_t inner = tree_.add(tree_.fields[index(s.field)]);
    Field outer;
    outer.number = some_field_number(rng);
    outer.wire = 2;
    outer.is_message = true;
    outer.first_child = inner;
    outer.next = tree_.fields[index(s.field)].next;
    tree_.fields[index(s.field)] = outer;
}

void Mutator::add_field(int32_t& root, std::minstd_rand& rng) {
    Field n;
    n.number = some_field_number(rng);
    static const uint8_t wires[] = {0, 0, 2, 5, 1};
    n.wire = wires[rng() % 5];
    n.value = interesting_varint(rng, 0);
    if (n.wire == 2) {  // one to four of one letter
        const size_t length = 1 + rng() % 4;
        uint8_t letters[4];
        std::memset(letters, 'a' + static_cast<int>(rng() % 26), sizeof letters);
        n.payload_at = tree_.add_payload(letters, length);
        n.payload_size = static_cast<uint32_t>(length);
    }
    const int32_t f = tree_.add(n);
    int32_t& head = tree_.head(lists_[rng() % lists_.size()], root);
    insert(head, tree_.length(head), f);
}

size_t Mutator::mutate(uint8_t* data, size_t size, size_t max_size, unsigned seed) {
    std::minstd_rand rng(seed ? seed : 1);
    if (rng() % 5 == 0) return byte_mutator_(data, size, max_size);
    tree_.clear();
    int32_t root = none;
    if (!tree_.parse(data, size, root)) return byte_mutator_(data, size, max_size);
    const unsigned rounds = 1 + rng() % 3;
    for (unsigned i = 0; i < rounds; ++i) mutate_once(root, rng);
    const size_t n = tree_.encoded_size(root);
    if (n > max_size) return byte_mutator_(data, size, max_size);
    tree_.write(root, data);  // the tree holds its own copy of the input's bytes
    return n;
}

size_t Mutator::cross_over(const uint8_t* data1, size_t size1, const uint8_t* data2, size_t size2, uint8_t* out,
                           size_t max_out_size, unsigned seed) {
    std::minstd_rand rng(seed ? seed : 1);
    tree_.clear();
    int32_t a = none, b = none;
    const bool structured = tree_.parse(data1, size1, a) && tree_.parse(data2, size2, b);
    if (!structured || b == none) {
        // Byte-level splice: a prefix of the first input, a suffix of the second.
        const size_t cut1 = size1 ? rng() % (size1 + 1) : 0;
        const size_t cut2 = size2 ? rng() % (size2 + 1) : 0;
        const size_t n = std::min(max_out_size, cut1 + (size2 - cut2));
        const size_t first = std::min(cut1, n);
        if (first > 0) std::memcpy(out, data1, first);
        if (n > first) std::memcpy(out + first, data2 + cut2, n - first);
        return n;
    }
    // Graft a subtree of the second input into a message of the first.
    sites_.clear();
    lists_.clear();
    tree_.collect(b, {}, sites_, lists_);
    const int32_t from = sites_[rng() % sites_.size()].field;
    sites_.clear();
    lists_.clear();
    tree_.collect(a, {}, sites_, lists_);
    const ListRef to = lists_[rng() % lists_.size()];
    const int32_t copy = tree_.copy(from);
    int32_t& head = tree_.head(to, a);
    insert(head, head == none ? 0 : rng() % (tree_.length(head) + 1), copy);
    const size_t n = tree_.encoded_size(a);
    if (n <= max_out_size) {
        tree_.write(a, out);
        return n;
    }
    std::vector<uint8_t> whole(n);
    tree_.write(a, whole.data());
    std::memcpy(out, whole.data(), max_out_size);
    return max_out_size;
}

}  // namespace gauntlet_fuzz::proto
