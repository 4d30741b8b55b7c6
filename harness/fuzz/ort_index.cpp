// The index of a .ort buffer's objects (ort_index.hpp): a bounds-checked walk from the root
// that enters each object once, keyed by its start and type.
#include "ort_index.hpp"

#include <ort_generated.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <map>
#include <tuple>

namespace gauntlet_fuzz::ort {

bool ObjType::offsets() const noexcept {
    return shape == Vector && (element == flatbuffers::ET_STRING ||
                               (element == flatbuffers::ET_SEQUENCE && ref && ref->st == flatbuffers::ST_TABLE));
}

ObjType ObjType::entry() const noexcept {
    if (element == flatbuffers::ET_STRING) return {String, 0, nullptr};
    return {Table, 0, ref};
}

namespace {

constexpr int max_depth = 128;  // past ImportOptions::max_nesting: what the walk refuses is still indexed

uint8_t width_of(unsigned et) {
    static const uint8_t widths[] = {1, 1, 1, 1, 2, 2, 4, 4, 8, 8, 4, 8, 4, 4};
    return et < sizeof widths ? widths[et] : 4;
}

/// The objects entered so far, by start and type: open addressing in one array, as the
/// mutator indexes the buffer once or more per execution (a node-based set was half its cost).
class Seen {
public:
    explicit Seen(size_t size) : slots_(std::bit_ceil(size / 4 + 64)) {}
    /// True when (at, type) was not there yet; it is now.
    bool insert(uint32_t at, const ObjType& type) {
        if (2 * (used_ + 1) > slots_.size()) grow();
        return put({at, type});
    }

private:
    struct Key {
        uint32_t at = empty;
        ObjType type;
        bool operator==(const Key&) const = default;
    };
    static constexpr uint32_t empty = ~uint32_t{0};
    size_t home(const Key& k) const {
        const uint64_t h = (uint64_t{k.at} << 8 | k.type.shape << 4 | k.type.element) ^
                           static_cast<uint64_t>(reinterpret_cast<uintptr_t>(k.type.ref) >> 4);
        return static_cast<size_t>((h * 0x9E3779B97F4A7C15u) >> 20) & (slots_.size() - 1);
    }
    bool put(const Key& k) {
        for (size_t i = home(k);; i = (i + 1) & (slots_.size() - 1)) {
            if (slots_[i] == k) return false;
            if (slots_[i].at == empty) {
                slots_[i] = k;
                ++used_;
                return true;
            }
        }
    }
    void grow() {
        std::vector<Key> old(2 * slots_.size());
        old.swap(slots_);
        used_ = 0;
        for (const Key& k : old)
            if (k.at != empty) put(k);
    }
    std::vector<Key> slots_;
    size_t used_ = 0;
};

class Indexer {
public:
    Indexer(const uint8_t* buf, size_t size) : buf_(buf), size_(size), seen_(size) {}
    Index index;

    void root(const flatbuffers::TypeTable* tt) {
        if (size_ < 8 || size_ >= (size_t{1} << 31)) return void(index.complete = false);
        const ObjType type{ObjType::Table, 0, tt};
        if (const uint32_t t = follow(0, type)) table(t, tt, 0);
    }

private:
    template <class T>
    T read(uint32_t at) const {
        T v;
        std::memcpy(&v, buf_ + at, sizeof v);
        return v;
    }
    bool inside(uint64_t at, uint64_t length) const { return at <= size_ && length <= size_ - at; }
    bool fail() { return index.complete = false; }
    void add(Place::Kind k, uint8_t width, uint32_t at) {
        if (inside(at, width)) index.places.push_back({k, width, at});
    }
    /// The target of the uoffset at `slot` (0 when it leaves the buffer), recorded as a reference.
    uint32_t follow(uint32_t slot, const ObjType& type) {
        if (!inside(slot, 4)) return fail();
        const uint32_t v = read<uint32_t>(slot);
        if (v == 0 || v >= (1u << 31) || !inside(uint64_t{slot} + v, 4)) return fail();
        add(Place::UOffset, 4, slot);
        index.refs.push_back({slot, slot + v, type});
        return slot + v;
    }
    /// True the first time (at, type) is seen: the object is entered once.
    bool first(uint32_t at, const ObjType& type) { return seen_.insert(at, type); }
    void table(uint32_t at, const flatbuffers::TypeTable* tt, int depth);
    void fields(uint32_t at, uint32_t vt, uint16_t vsize, const flatbuffers::TypeTable* tt, int depth);
    void element(uint32_t at, flatbuffers::TypeCode tc, const flatbuffers::TypeTable* ref, uint8_t tag, int depth);
    void vector(uint32_t slot, flatbuffers::TypeCode tc, const flatbuffers::TypeTable* ref, uint8_t tag, int depth);
    void string(uint32_t slot);

    const uint8_t* buf_;
    size_t size_;
    Seen seen_;
};

void Indexer::table(uint32_t at, const flatbuffers::TypeTable* tt, int depth) {
    const ObjType type{ObjType::Table, 0, tt};
    if (depth > max_depth) return void(fail());
    if (!first(at, type)) return;
    const int64_t vt = int64_t{at} - read<int32_t>(at);
    if (vt < 0 || !inside(static_cast<uint64_t>(vt), 4)) return void(fail());
    const uint16_t vsize = read<uint16_t>(static_cast<uint32_t>(vt));
    const uint16_t tsize = read<uint16_t>(static_cast<uint32_t>(vt) + 2);
    if (vsize < 4 || vsize % 2 || !inside(static_cast<uint64_t>(vt), vsize) || !inside(at, tsize))
        return void(fail());
    add(Place::SOffset, 4, at);
    index.vtables.emplace_back(static_cast<uint32_t>(vt), static_cast<uint32_t>(vt) + vsize);
    index.objects.push_back({at, at + std::max<uint32_t>(tsize, 4), type, 0, 0});
    fields(at, static_cast<uint32_t>(vt), vsize, tt, depth);
}

void Indexer::fields(uint32_t at, uint32_t vt, uint16_t vsize, const flatbuffers::TypeTable* tt, int depth) {
    uint8_t last_tag = 0;
    for (size_t i = 0; i < tt->num_elems && 4 + 2 * i + 2 <= vsize; ++i) {
        const uint32_t entry = static_cast<uint32_t>(vt + 4 + 2 * i);
        add(Place::VtableEntry, 2, entry);
        const uint16_t off = read<uint16_t>(entry);
        if (!off) continue;
        const flatbuffers::TypeCode tc = tt->type_codes[i];
        const auto* ref = tc.sequence_ref >= 0 ? tt->type_refs[tc.sequence_ref]() : nullptr;
        if (!inside(uint64_t{at} + off, tc.is_repeating ? 4 : width_of(tc.base_type))) {
            fail();
            continue;
        }
        if (tc.base_type == flatbuffers::ET_UTYPE) last_tag = buf_[at + off];
        if (tc.is_repeating) vector(at + off, tc, ref, last_tag, depth);
        else element(at + off, tc, ref, last_tag, depth);
    }
}

void Indexer::element(uint32_t at, flatbuffers::TypeCode tc, const flatbuffers::TypeTable* ref, uint8_t tag,
                      int depth) {
    using namespace flatbuffers;
    if (tc.base_type == ET_STRING) return string(at);
    if (tc.base_type != ET_SEQUENCE || !ref) return add(Place::Scalar, width_of(tc.base_type), at);
    if (ref->st == ST_TABLE) {
        if (const uint32_t t = follow(at, {ObjType::Table, 0, ref})) table(t, ref, depth + 1);
    } else if (ref->st == ST_UNION) {
        if (tag == 0 || tag >= ref->num_elems || ref->type_codes[tag].sequence_ref < 0) return;
        const TypeTable* member = ref->type_refs[ref->type_codes[tag].sequence_ref]();
        if (const uint32_t t = follow(at, {ObjType::Table, 0, member})) table(t, member, depth + 1);
    } else if (ref->st == ST_STRUCT) {
        for (size_t k = 0; k < ref->num_elems; ++k)
            add(Place::Scalar, width_of(ref->type_codes[k].base_type), at + static_cast<uint32_t>(ref->values[k]));
    }
}

void Indexer::string(uint32_t slot) {
    const uint32_t s = follow(slot, {ObjType::String, 0, nullptr});
    if (!s || !first(s, {ObjType::String, 0, nullptr})) return;
    const uint32_t n = read<uint32_t>(s);
    if (!inside(uint64_t{s} + 4, uint64_t{n} + 1)) return void(fail());
    add(Place::Length, 4, s);
    index.objects.push_back({s, s + 4 + n, {ObjType::String, 0, nullptr}, n, 1});
}

void Indexer::vector(uint32_t slot, flatbuffers::TypeCode tc, const flatbuffers::TypeTable* ref, uint8_t tag,
                     int depth) {
    using namespace flatbuffers;
    const bool sequence = tc.base_type == ET_SEQUENCE;
    const ObjType type{ObjType::Vector, static_cast<uint8_t>(tc.base_type), sequence ? ref : nullptr};
    const uint32_t v = follow(slot, type);
    if (!v || !first(v, type)) return;
    uint32_t stride = width_of(tc.base_type);
    if (sequence && ref && ref->st == ST_STRUCT) stride = static_cast<uint32_t>(ref->values[ref->num_elems]);
    const uint32_t n = read<uint32_t>(v);
    if (!inside(uint64_t{v} + 4, uint64_t{n} * stride)) return void(fail());
    add(Place::Length, 4, v);
    index.objects.push_back({v, v + 4 + n * stride, type, n, stride});
    for (uint32_t k = 0; k < n; ++k) element(v + 4 + k * stride, tc, ref, tag, depth);
}

}  // namespace

Index::Sharing Index::sharing() const {
    std::map<std::tuple<uint32_t, uint8_t, uint8_t, const void*>, size_t> count;
    for (const Ref& r : refs) ++count[std::make_tuple(r.target, r.type.shape, r.type.element, r.type.ref)];
    Sharing s;
    for (const auto& [object, n] : count) {
        s.objects += n > 1;
        s.most = std::max(s.most, n);
    }
    return s;
}

size_t Index::overlapping() const {
    std::vector<std::pair<uint32_t, uint32_t>> spans;
    for (const Object& o : objects)
        if (o.type.shape != ObjType::Table) spans.emplace_back(o.at, o.end);
    std::sort(spans.begin(), spans.end());
    size_t pairs = 0;
    uint32_t reach = 0;  // the furthest end of the spans before
    for (size_t i = 0; i < spans.size(); ++i) {
        pairs += i > 0 && spans[i].first < reach && spans[i].first != spans[i - 1].first;
        reach = std::max(reach, spans[i].second);
    }
    return pairs;
}

const Object* Index::find(uint32_t at, const ObjType& type) const {
    for (const Object& o : objects)
        if (o.at == at && o.type == type) return &o;
    return nullptr;
}

bool Index::boundary(uint32_t at) const {
    for (const Object& o : objects)
        if (o.at < at && at < o.end) return false;
    for (const auto& [start, end] : vtables)
        if (start < at && at < end) return false;
    return true;
}

Index index_of(const uint8_t* data, size_t size) {
    Indexer walk(data, size);
    walk.root(onnximport::ortfb::InferenceSessionTypeTable());
    return std::move(walk.index);
}

}  // namespace gauntlet_fuzz::ort
