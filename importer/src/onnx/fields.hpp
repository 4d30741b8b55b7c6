// Reading one field's value: strings (UTF-8 checked), bytes, integers with protobuf's
// truncation rules, repeated scalars packed or not, and nested messages with the
// nesting limit (spec section 1).
#pragma once

#include "onnx/context.hpp"
#include "wire/reader.hpp"
#include "wire/utf8.hpp"

#include <onnximport/model.hpp>
#include <onnximport/value_index.hpp>

#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>

namespace onnximport::detail {

/// In a field switch: skip a known field that arrived with the wrong wire type.
#define ONNXIMPORT_EXPECT(reader, w)          \
    if (!(reader).is(WireType::w)) {          \
        (reader).skip();                      \
        break;                                \
    }

/// True when every byte is below 0x80, eight at a time: names are almost always ASCII,
/// which is valid UTF-8 without the full check.
inline bool all_ascii(const uint8_t* p, const uint8_t* end) noexcept {
    uint64_t high = 0;
    for (; end - p >= 8; p += 8) {
        uint64_t w;
        std::memcpy(&w, p, 8);
        high |= w;
    }
    high |= load_short(p, static_cast<size_t>(end - p));
    return (high & 0x8080808080808080ull) == 0;
}

inline std::string_view as_view(Reader::Slice s) noexcept {
    return {reinterpret_cast<const char*>(s.begin), static_cast<size_t>(s.size())};
}

/// The full UTF-8 check of a string that is not all ASCII, and its refusal: out of line,
/// so that read_string (millions of calls) is a few instructions inlined.
[[gnu::noinline]] void check_utf8(Context& c, Reader::Slice s, std::string_view field);

/// A string field: valid UTF-8, a view into the input (zero-copy; the input lives as
/// long as the Model).
[[gnu::always_inline]] inline std::string_view read_string(Context& c, Reader& r, std::string_view field) {
    Reader::Slice s = r.bytes();
    if (!all_ascii(s.begin, s.end)) [[unlikely]]
        check_utf8(c, s, field);
    return as_view(s);
}

/// A bytes field: never decoded, a view into the input.
inline std::string_view read_bytes(Reader& r) { return as_view(r.bytes()); }

/// A repeated string field (a function's inputs, outputs and attribute names): the first
/// occurrence sizes the list to the occurrences present in the rest of the message, as
/// read_repeated_message does.
inline void read_repeated_string(Context& c, Reader& r, std::string_view field, List<std::string_view>& list) {
    if (!r.is(WireType::Len)) {
        r.skip();
        return;
    }
    if (ListAccess::capacity(list) == 0) ListAccess::reserve(c.arena, list, r.count_len_fields(r.field()));
    ListAccess::push_back(c.arena, list, read_string(c, r, field));
}

/// A repeated int64 field, packed or not, appended to `list`. A packed run is sized from
/// its bytes: each varint ends with the one byte below 0x80.
inline void read_repeated_int64(Context& c, Reader& r, List<int64_t>& list) {
    if (r.is(WireType::Len)) {
        Reader::Slice s = r.bytes();
        size_t ends = 0;
        for (const uint8_t* p = s.begin; p < s.end; ++p) ends += *p < 0x80;
        ListAccess::reserve_more(c.arena, list, ends);
        Reader packed(c, s.begin, s.end);
        while (!packed.at_end()) ListAccess::push_back(c.arena, list, static_cast<int64_t>(packed.varint()));
    } else if (r.is(WireType::Varint)) {
        ListAccess::push_back(c.arena, list, static_cast<int64_t>(r.varint()));
    } else {
        r.skip();
    }
}

/// A message's out-of-line fields block (model.hpp), allocated at the first such field.
template <class Message>
auto& fields_of(Context& c, Message& m) {
    using Fields = std::remove_pointer_t<decltype(m.fields)>;
    if (!m.fields) m.fields = c.arena.make<Fields>();
    return *m.fields;
}

inline int64_t read_int64(Reader& r) { return static_cast<int64_t>(r.varint()); }
/// int32 and enum fields keep the low 32 bits, as protobuf does.
inline int32_t read_int32(Reader& r) { return static_cast<int32_t>(static_cast<uint32_t>(r.varint())); }
inline float read_float(Reader& r) { return std::bit_cast<float>(r.fixed32()); }

/// A repeated varint field, packed (Len) or unpacked (Varint); other wire types skipped.
template <class Push>
void read_repeated_varint(Context& c, Reader& r, Push&& push) {
    if (r.is(WireType::Varint)) {
        push(r.varint());
    } else if (r.is(WireType::Len)) {
        Reader::Slice s = r.bytes();
        Reader packed(c, s.begin, s.end);
        while (!packed.at_end()) push(packed.varint());
    } else {
        r.skip();
    }
}

/// A repeated fixed32 field, packed or unpacked. A packed length that is not a
/// multiple of 4 is malformed.
template <class Push>
void read_repeated_fixed32(Context& c, Reader& r, Push&& push) {
    if (r.is(WireType::Fixed32)) {
        push(r.fixed32());
    } else if (r.is(WireType::Len)) {
        const uint8_t* at = r.cursor();
        Reader::Slice s = r.bytes();
        if (s.size() % 4) r.fail("packed 32-bit field length is not a multiple of 4", at);
        Reader packed(c, s.begin, s.end);
        while (!packed.at_end()) push(packed.fixed32());
    } else {
        r.skip();
    }
}

template <class Push>
void read_repeated_fixed64(Context& c, Reader& r, Push&& push) {
    if (r.is(WireType::Fixed64)) {
        push(r.fixed64());
    } else if (r.is(WireType::Len)) {
        const uint8_t* at = r.cursor();
        Reader::Slice s = r.bytes();
        if (s.size() % 8) r.fail("packed 64-bit field length is not a multiple of 8", at);
        Reader packed(c, s.begin, s.end);
        while (!packed.at_end()) push(packed.fixed64());
    } else {
        r.skip();
    }
}

/// A nested message: one more nesting level, one more path segment. body(Reader&,
/// const uint8_t* key_at) reads its fields.
template <class Body>
void read_message(Context& c, Reader& r, std::string_view field, int64_t index, Body&& body) {
    const uint8_t* key_at = r.key_at();
    Reader::Slice s = r.bytes();
    PathScope scope(c, field, index);
    if (c.depth + 1 > c.max_nesting)
        c.fail(ErrorKind::Malformed, key_at,
               "messages nested deeper than the limit of " + std::to_string(c.max_nesting) + " levels");
    ++c.depth;
    Reader sub(c, s.begin, s.end);
    body(sub, key_at);
    --c.depth;
}

// Message readers (one per onnx.proto message); each reads the fields of one message.
void read_graph(Context& c, Reader& r, const uint8_t* key_at, Graph& g);
void read_node(Context& c, Reader& r, const uint8_t* key_at, Node& n);
void read_attribute(Context& c, Reader& r, const uint8_t* key_at, Attribute& a);
void read_value_info(Context& c, Reader& r, const uint8_t* key_at, ValueInfo& v);
void read_type(Context& c, Reader& r, TypeProto& t);
void read_tensor(Context& c, Reader& r, const uint8_t* key_at, TensorView& t);
void read_sparse_tensor(Context& c, Reader& r, const uint8_t* key_at, SparseTensor& t);
void read_opset(Context& c, Reader& r, OperatorSetId& o);
void read_entry(Context& c, Reader& r, StringStringEntry& e);
void read_function(Context& c, Reader& r, const uint8_t* key_at, Function& f);
void read_training_info(Context& c, Reader& r, TrainingInfo& t);
void read_model(Context& c, Reader& r, Model& m);

/// Reads one repeated message field and appends to the list. At the first occurrence the
/// list is sized to the occurrences present in the rest of the message (one cheap scan
/// of the keys), so a 200,000-node graph is not grown and copied eighteen times. Tensors
/// are not counted: their keys sit between the weights, and walking them would touch a page
/// of a mapped model per tensor, and make the heap use depend on the weights' sizes (where
/// the scan stops). The item is read in place: nothing a nested read does can append to
/// this same list.
/// `index_base`: elements of the field that another thread reads (parallel_graph.hpp),
/// for the index in the field path.
template <class T, class Read>
void read_repeated_message(Context& c, Reader& r, std::string_view field, List<T>& list, Read&& read,
                           uint32_t index_base = 0) {
    if (!r.is(WireType::Len)) {
        r.skip();
        return;
    }
    if constexpr (!std::is_same_v<T, TensorView>) {
        if (ListAccess::capacity(list) == 0) ListAccess::reserve(c.arena, list, r.count_len_fields(r.field()));
    }
    const auto index = static_cast<int64_t>(index_base) + static_cast<int64_t>(list.size());
    T& item = ListAccess::append(c.arena, list);
    read_message(c, r, field, index, [&](Reader& sub, const uint8_t* key_at) { read(sub, key_at, item); });
}

inline void read_entries(Context& c, Reader& r, std::string_view field, List<StringStringEntry>& list,
                         uint32_t index_base = 0) {
    auto entry = [&](Reader& sub, const uint8_t*, StringStringEntry& e) { read_entry(c, sub, e); };
    read_repeated_message(c, r, field, list, entry, index_base);
}

/// What the scan of a GraphProto's keys found (read_graph).
struct GraphCounts {
    static constexpr uint32_t fields = 17;  ///< GraphProto's field numbers are below this
    uint32_t total[fields] = {};            ///< Len keys per field number (0: others)
    uint32_t before_split[fields] = {};     ///< of those, before the split position
    uint32_t index_base[fields] = {};       ///< elements read elsewhere before this range
    bool exact = false;                     ///< the scan got to the end: total is exact
};

/// Reads the fields of a GraphProto into g, up to the key at `stop` (or the end).
void read_graph_fields(Context& c, Reader& r, Graph& g, const GraphCounts& counts, const uint8_t* stop);

}  // namespace onnximport::detail
