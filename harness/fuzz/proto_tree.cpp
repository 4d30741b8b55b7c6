// The flat field tree of the protobuf mutator (proto_tree.hpp): parse, edit, write.
#include "proto_tree.hpp"

#include <cstring>

namespace gauntlet_fuzz::proto {

namespace {

bool get_varint(const uint8_t*& p, const uint8_t* end, uint64_t& v) {
    v = 0;
    for (unsigned i = 0; i < 10 && p < end; ++i) {
        const uint8_t b = *p++;
        v |= static_cast<uint64_t>(b & 0x7F) << (7 * i);
        if (!(b & 0x80)) return true;
    }
    return false;
}

size_t varint_size(uint64_t v) {
    size_t n = 1;
    for (; v >= 0x80; v >>= 7) ++n;
    return n;
}

uint8_t* put_varint(uint8_t* out, uint64_t v) {
    for (; v >= 0x80; v >>= 7) *out++ = static_cast<uint8_t>((v & 0x7F) | 0x80);
    *out++ = static_cast<uint8_t>(v);
    return out;
}

uint64_t key_of(const Field& f) { return uint64_t{f.number} << 3 | f.wire; }

}  // namespace

void Tree::clear() noexcept {
    fields.clear();
    bytes.clear();
}

bool Tree::parse(const uint8_t* data, size_t size, int32_t& root) {
    const size_t at = bytes.size();
    bytes.insert(bytes.end(), data, data + size);
    const uint8_t* start = bytes.data() + at;
    size_t count = 0;
    root = none;
    return parse_list(start, start + size, root, 0, count);
}

bool Tree::parse_list(const uint8_t* p, const uint8_t* end, int32_t& first, int depth, size_t& count) {
    int32_t last = none;
    while (p < end) {
        uint64_t key;
        if (!get_varint(p, end, key) || key > 0xFFFFFFFFu || (key >> 3) == 0) return false;
        if (++count > max_fields) return false;
        Field f;
        f.number = static_cast<uint32_t>(key >> 3);
        f.wire = static_cast<uint8_t>(key & 7);
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
            f.payload_at = static_cast<uint32_t>(p - bytes.data());
            f.payload_size = static_cast<uint32_t>(len);
            const size_t fields_before = fields.size(), count_before = count;
            if (len > 0 && depth < max_depth && parse_list(p, p + len, f.first_child, depth + 1, count)) {
                f.is_message = true;
                f.payload_at = f.payload_size = 0;  // its bytes are its children's
            } else {  // not a message: a leaf, and what the attempt added is dropped
                fields.resize(fields_before);
                count = count_before;
                f.first_child = none;
            }
            p += len;
            break;
        }
        default: return false;
        }
        const int32_t index = add(f);
        if (last == none) first = index;
        else fields[static_cast<size_t>(last)].next = index;
        last = index;
    }
    return true;
}

size_t Tree::length(int32_t first) const noexcept {
    size_t n = 0;
    for (int32_t f = first; f != none; f = fields[static_cast<size_t>(f)].next) ++n;
    return n;
}

int32_t Tree::before(int32_t first, size_t at) const noexcept {
    int32_t previous = none;
    for (int32_t f = first; at > 0; --at, f = fields[static_cast<size_t>(f)].next) previous = f;
    return previous;
}

void Tree::link_after(int32_t& head, int32_t previous, int32_t f) noexcept {
    int32_t& slot = previous == none ? head : fields[static_cast<size_t>(previous)].next;
    fields[static_cast<size_t>(f)].next = slot;
    slot = f;
}

void Tree::unlink(int32_t& head, const Site& s) noexcept {
    int32_t& slot = s.previous == none ? head : fields[static_cast<size_t>(s.previous)].next;
    slot = fields[static_cast<size_t>(s.field)].next;
    fields[static_cast<size_t>(s.field)].next = none;
}

int32_t Tree::add(const Field& f) {
    fields.push_back(f);
    fields.back().next = none;
    return static_cast<int32_t>(fields.size() - 1);
}

int32_t Tree::copy(int32_t f) {
    Field top = fields[static_cast<size_t>(f)];
    top.first_child = none;
    const int32_t out = add(top);
    int32_t last = none;
    for (int32_t c = fields[static_cast<size_t>(f)].first_child; c != none; c = fields[static_cast<size_t>(c)].next) {
        const int32_t child = copy(c);  // fields may grow: indices only across this call
        if (last == none) fields[static_cast<size_t>(out)].first_child = child;
        else fields[static_cast<size_t>(last)].next = child;
        last = child;
    }
    return out;
}

uint32_t Tree::add_payload(const uint8_t* from, size_t size) {
    const size_t at = bytes.size();
    bytes.insert(bytes.end(), from, from + size);
    return static_cast<uint32_t>(at);
}

uint32_t Tree::copy_payload(uint32_t from, uint32_t size, size_t room) {
    const size_t at = bytes.size();
    bytes.resize(at + size + room);
    if (size > 0) std::memcpy(bytes.data() + at, bytes.data() + from, size);
    return static_cast<uint32_t>(at);
}

void Tree::collect(int32_t first, ListRef list, std::vector<Site>& sites, std::vector<ListRef>& lists) const {
    lists.push_back(list);
    int32_t previous = none;
    for (int32_t f = first; f != none; previous = f, f = fields[static_cast<size_t>(f)].next) {
        sites.push_back({list, f, previous});
        const Field& field = fields[static_cast<size_t>(f)];
        if (field.is_message) collect(field.first_child, {f}, sites, lists);
    }
}

size_t Tree::encoded_size(int32_t first) {
    if (message_size_.size() < fields.size()) message_size_.resize(fields.size());
    size_t total = 0;
    for (int32_t f = first; f != none; f = fields[static_cast<size_t>(f)].next) {
        const Field& field = fields[static_cast<size_t>(f)];
        total += varint_size(key_of(field));
        switch (field.wire) {
        case 0: total += varint_size(field.value); break;
        case 1: total += 8; break;
        case 5: total += 4; break;
        default: {
            const size_t inner = field.is_message ? encoded_size(field.first_child) : field.payload_size;
            if (field.is_message) message_size_[static_cast<size_t>(f)] = inner;
            total += varint_size(inner) + inner;
        }
        }
    }
    return total;
}

uint8_t* Tree::write(int32_t first, uint8_t* out) const {
    for (int32_t f = first; f != none; f = fields[static_cast<size_t>(f)].next) {
        const Field& field = fields[static_cast<size_t>(f)];
        out = put_varint(out, key_of(field));
        switch (field.wire) {
        case 0: out = put_varint(out, field.value); break;
        case 1:
        case 5:
            for (unsigned i = 0; i < (field.wire == 1 ? 8u : 4u); ++i)
                *out++ = static_cast<uint8_t>(field.value >> (8 * i));
            break;
        default:
            if (field.is_message) {
                out = put_varint(out, message_size_[static_cast<size_t>(f)]);
                out = write(field.first_child, out);
            } else {
                out = put_varint(out, field.payload_size);
                if (field.payload_size > 0) std::memcpy(out, bytes.data() + field.payload_at, field.payload_size);
                out += field.payload_size;
            }
        }
    }
    return out;
}

}  // namespace gauntlet_fuzz::proto
