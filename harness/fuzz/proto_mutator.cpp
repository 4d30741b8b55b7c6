// Structure-aware mutation for the fuzz targets: LLVMFuzzerCustomMutator and
// LLVMFuzzerCustomCrossOver that understand the protobuf wire layout (spec section 1),
// so mutated inputs stay valid protobuf often enough to reach the ONNX rules behind the
// wire reader (sections 2-4: attributes, tensors, graph resolution).
//
// The input is parsed into a tree of fields; a length-delimited payload that parses
// completely as a message becomes a subtree. One mutation is applied to a random node:
// change a varint (towards values the spec cares about: element types, attribute
// types, 0, -1, 2^31, 2^60, ...), change a fixed value, mutate a leaf payload with
// libFuzzer's byte mutator, duplicate / drop / reorder a field, re-nest a subtree
// elsewhere (a graph into an attribute, a node into a function, ...), change a field
// number or wire type, or insert a new field. Serialising recomputes every length.
// A share of mutations stay byte-level (LLVMFuzzerMutate on the whole input), so the
// wire reader itself is still fuzzed with lengths that lie.
//
// The build also makes each target without this file (TARGET_plain: libFuzzer's own
// mutators only), for the with/without comparison of `python3 -m gauntlet fuzz-compare`.
#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace {

struct Field {
    uint32_t number = 0;
    unsigned wire = 0;
    uint64_t value = 0;           ///< varint / fixed
    std::string payload;          ///< wire 2 leaf
    std::vector<Field> children;  ///< wire 2 parsed as a message
    bool is_message = false;
};

using Fields = std::vector<Field>;

constexpr int max_parse_depth = 40;
constexpr size_t max_nodes = 4096;

bool get_varint(const uint8_t*& p, const uint8_t* end, uint64_t& v) {
    v = 0;
    for (unsigned i = 0; i < 10 && p < end; ++i) {
        const uint8_t b = *p++;
        v |= static_cast<uint64_t>(b & 0x7F) << (7 * i);
        if (!(b & 0x80)) return true;
    }
    return false;
}

/// Strict parse; false when [p, end) is not a message of the four supported wire types.
bool parse(const uint8_t* p, const uint8_t* end, Fields& out, int depth, size_t& nodes) {
    while (p < end) {
        uint64_t key;
        if (!get_varint(p, end, key) || key > 0xFFFFFFFFu || (key >> 3) == 0) return false;
        if (++nodes > max_nodes) return false;
        Field f;
        f.number = static_cast<uint32_t>(key >> 3);
        f.wire = key & 7;
        switch (f.wire) {
        case 0:
            if (!get_varint(p, end, f.value)) return false;
            break;
        case 1:
        case 5: {
            const size_t w = f.wire == 1 ? 8 : 4;
            if (static_cast<size_t>(end - p) < w) return false;
            for (size_t i = 0; i < w; ++i) f.value |= static_cast<uint64_t>(p[i]) << (8 * i);
            p += w;
            break;
        }
        case 2: {
            uint64_t len;
            if (!get_varint(p, end, len) || len > static_cast<uint64_t>(end - p)) return false;
            const uint8_t* q = p + len;
            size_t before = nodes;
            if (len > 0 && depth < max_parse_depth && parse(p, q, f.children, depth + 1, nodes)) {
                f.is_message = true;
            } else {
                f.children.clear();
                nodes = before;
                f.payload.assign(reinterpret_cast<const char*>(p), len);
            }
            p = q;
            break;
        }
        default: return false;
        }
        out.push_back(std::move(f));
    }
    return true;
}

void put_varint(std::string& out, uint64_t v) {
    while (v >= 0x80) {
        out += static_cast<char>((v & 0x7F) | 0x80);
        v >>= 7;
    }
    out += static_cast<char>(v);
}

void serialize(const Fields& fields, std::string& out) {
    for (const Field& f : fields) {
        put_varint(out, uint64_t{f.number} << 3 | f.wire);
        switch (f.wire) {
        case 0: put_varint(out, f.value); break;
        case 1:
        case 5:
            for (unsigned i = 0; i < (f.wire == 1 ? 8u : 4u); ++i) out += static_cast<char>(f.value >> (8 * i));
            break;
        default:
            if (f.is_message) {
                std::string inner;
                serialize(f.children, inner);
                put_varint(out, inner.size());
                out += inner;
            } else {
                put_varint(out, f.payload.size());
                out += f.payload;
            }
        }
    }
}

/// Every field with the list that holds it, in tree order.
struct Site {
    Fields* list;
    size_t index;
};

void collect(Fields& fields, std::vector<Site>& sites, std::vector<Fields*>& lists) {
    lists.push_back(&fields);
    for (size_t i = 0; i < fields.size(); ++i) {
        sites.push_back({&fields, i});
        if (fields[i].is_message) collect(fields[i].children, sites, lists);
    }
}

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

bool structured_mutation(Fields& root, std::minstd_rand& rng, size_t max_size) {
    std::vector<Site> sites;
    std::vector<Fields*> lists;
    collect(root, sites, lists);
    if (sites.empty()) {
        Field f;
        f.number = some_field_number(rng);
        f.wire = 0;
        f.value = rng() % 16;
        root.push_back(f);
        return true;
    }
    Site s = sites[rng() % sites.size()];
    Field& f = (*s.list)[s.index];
    switch (rng() % 10) {
    case 0:  // a field's value
    case 1:
        if (f.wire == 0) f.value = interesting_varint(rng, f.value);
        else if (f.wire == 1 || f.wire == 5) {
            static const uint32_t floats[] = {0x7FC00000u, 0x7F800000u, 0xFF800000u, 0x80000000u, 0x3F800000u, 1u};
            f.value = rng() % 2 ? floats[rng() % 6] : (f.value ^ (uint64_t{1} << (rng() % (f.wire == 1 ? 64 : 32))));
        } else if (!f.is_message) {
            const size_t old = f.payload.size();
            f.payload.resize(old + 16);
            f.payload.resize(LLVMFuzzerMutate(reinterpret_cast<uint8_t*>(f.payload.data()), old, old + 16));
            (void)max_size;  // the whole result is checked against max_size after serialising
        } else if (!f.children.empty()) {  // earlier drops may have emptied it
            f.children.erase(f.children.begin() + static_cast<long>(rng() % f.children.size()));
        }
        return true;
    case 2: {  // duplicate next to itself or at the end of the message
        Field copy = f;
        if (rng() % 2) s.list->insert(s.list->begin() + static_cast<long>(s.index), std::move(copy));
        else s.list->push_back(std::move(copy));
        return true;
    }
    case 3:  // drop
        s.list->erase(s.list->begin() + static_cast<long>(s.index));
        return true;
    case 4: {  // reorder within the message
        Fields& l = *s.list;
        std::swap(l[s.index], l[rng() % l.size()]);
        return true;
    }
    case 5:
    case 6: {  // re-nest: a copy of this subtree into another message, maybe renumbered
        Field copy = f;
        Fields* target = lists[rng() % lists.size()];
        if (rng() % 3 == 0) copy.number = some_field_number(rng);
        target->insert(target->begin() + static_cast<long>(target->empty() ? 0 : rng() % (target->size() + 1)),
                       std::move(copy));
        return true;
    }
    case 7:  // renumber, or change the wire type (a known field with the wrong wire type)
        if (rng() % 4) {
            f.number = some_field_number(rng);
        } else {
            static const unsigned wires[] = {0, 1, 2, 5};
            f.wire = wires[rng() % 4];
            if (f.wire == 2 && !f.is_message && f.payload.empty()) f.payload = "x";
        }
        return true;
    case 8: {  // wrap: this field becomes the only child of a new message field
        Field outer;
        outer.number = some_field_number(rng);
        outer.wire = 2;
        outer.is_message = true;
        outer.children.push_back(f);
        f = std::move(outer);
        return true;
    }
    default: {  // a new field
        Field n;
        n.number = some_field_number(rng);
        static const unsigned wires[] = {0, 0, 2, 5, 1};
        n.wire = wires[rng() % 5];
        n.value = interesting_varint(rng, 0);
        if (n.wire == 2) n.payload = std::string(1 + rng() % 4, static_cast<char>('a' + rng() % 26));
        Fields* target = lists[rng() % lists.size()];
        target->push_back(std::move(n));
        return true;
    }
    }
}

}  // namespace

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
    std::minstd_rand rng(seed ? seed : 1);
    if (rng() % 5 == 0) return LLVMFuzzerMutate(data, size, max_size);
    Fields root;
    size_t nodes = 0;
    if (!parse(data, data + size, root, 0, nodes)) return LLVMFuzzerMutate(data, size, max_size);
    const unsigned rounds = 1 + rng() % 3;
    for (unsigned i = 0; i < rounds; ++i) structured_mutation(root, rng, max_size);
    std::string out;
    serialize(root, out);
    if (out.size() > max_size) return LLVMFuzzerMutate(data, size, max_size);
    std::memcpy(data, out.data(), out.size());
    return out.size();
}

extern "C" size_t LLVMFuzzerCustomCrossOver(const uint8_t* data1, size_t size1, const uint8_t* data2, size_t size2,
                                            uint8_t* out, size_t max_out_size, unsigned int seed) {
    std::minstd_rand rng(seed ? seed : 1);
    Fields a, b;
    size_t na = 0, nb = 0;
    const bool structured = parse(data1, data1 + size1, a, 0, na) && parse(data2, data2 + size2, b, 0, nb);
    if (!structured || b.empty()) {
        // Byte-level splice: a prefix of the first input, a suffix of the second.
        const size_t cut1 = size1 ? rng() % (size1 + 1) : 0;
        const size_t cut2 = size2 ? rng() % (size2 + 1) : 0;
        size_t n = std::min(max_out_size, cut1 + (size2 - cut2));
        size_t first = std::min(cut1, n);
        std::memcpy(out, data1, first);
        std::memcpy(out + first, data2 + cut2, n - first);
        return n;
    }
    // Graft a subtree of the second input into a message of the first.
    std::vector<Site> sites_b;
    std::vector<Fields*> lists_b, lists_a;
    std::vector<Site> sites_a;
    collect(b, sites_b, lists_b);
    collect(a, sites_a, lists_a);
    const Site from = sites_b[rng() % sites_b.size()];
    Fields* to = lists_a[rng() % lists_a.size()];
    to->insert(to->begin() + static_cast<long>(to->empty() ? 0 : rng() % (to->size() + 1)), (*from.list)[from.index]);
    std::string s;
    serialize(a, s);
    if (s.size() > max_out_size) s.resize(max_out_size);
    std::memcpy(out, s.data(), s.size());
    return s.size();
}
