// Reading one field's value: strings (UTF-8 checked), bytes, integers with protobuf's
// truncation rules, repeated scalars packed or not, and nested messages with the
// nesting limit (spec section 1).
#pragma once

#include "core/strings.hpp"
#include "onnx/context.hpp"
#include "wire/packed.hpp"
#include "wire/reader.hpp"
#include "core/utf8.hpp"

#include <onnx_fields.hpp>
#include <onnximport/model.hpp>

#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>

namespace onnximport::detail {

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
    if (!r.expect(WireType::Len)) return;
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
        Reader packed = r.sub(s);
        while (!packed.at_end()) ListAccess::push_back(c.arena, list, static_cast<int64_t>(packed.varint()));
    } else if (r.expect(WireType::Varint)) {
        ListAccess::push_back(c.arena, list, static_cast<int64_t>(r.varint()));
    }
}

/// A message's out-of-line fields block (model.hpp), allocated at the first such field.
template <class Message>
auto& fields_of(Context& c, Message& m) {
    return ModelAccess::fields_in(c.arena, m);
}

inline int64_t read_int64(Reader& r) { return static_cast<int64_t>(r.varint()); }
/// int32 and enum fields keep the low 32 bits, as protobuf does.
inline int32_t read_int32(Reader& r) { return static_cast<int32_t>(static_cast<uint32_t>(r.varint())); }
inline float read_float(Reader& r) { return std::bit_cast<float>(r.fixed32()); }

/// A nested message: one more nesting level, one more path segment. body(Reader&,
/// const uint8_t* key_at) reads its fields.
template <class Body>
void read_message(Context& c, Reader& r, std::string_view field, int64_t index, Body&& body) {
    const uint8_t* key_at = r.key_at();
    Reader::Slice s = r.bytes();
    PathScope scope(c.path, field, index);
    // The path holds the root and one segment per message entered (the reader pushes none
    // elsewhere): its size is the nesting depth, with no counter of its own to keep.
    if (c.path.size() - 1 > static_cast<size_t>(c.max_nesting))
        c.fail(ErrorKind::Malformed, key_at,
               "messages nested deeper than the limit of " + std::to_string(c.max_nesting) + " levels");
    Reader sub(c, s.begin, s.end);
    body(sub, key_at);
}

// Message readers (one per onnx.proto message); each reads the fields of one message.
void read_graph(Context& c, Reader& r, const uint8_t* key_at, Graph& g);
void read_node(Context& c, Reader& r, const uint8_t* key_at, Node& n);
/// The node field at r (its key read) when it holds only input, output, name, op_type and
/// domain strings of one-byte lengths in ASCII and plain scalar attributes: appended to
/// `nodes` as read_repeated_message with read_node would, and returned (docs/performance-history.md,
/// "Plain nodes"). Null, nothing read, for anything else, and when it would nest too deep.
Node* read_plain_node(Context& c, Reader& r, List<Node>& nodes);
void read_attribute(Context& c, Reader& r, const uint8_t* key_at, Attribute& a);
/// The AttributeProto field at r (its key read) when it is an ASCII name, one float or one
/// integer below 128, and the matching declared type, in field-number order: read as
/// read_attribute would without entering it (docs/performance-history.md, "Plain attributes").
/// False, nothing read, for anything else, and when the attribute would be nested too deep.
bool read_plain_scalar_attribute(const Context& c, Reader& r, Attribute& a);
void read_value_info(Context& c, Reader& r, const uint8_t* key_at, ValueInfo& v);
void read_type(Context& c, Reader& r, TypeProto& t);
/// The TypeProto field at r (its key read) when it is a tensor type of one-byte element type
/// and dimensions, in the order exporters write them, read as read_type would without
/// entering its messages (docs/performance-history.md, "Plain tensor types"). False, nothing read,
/// for anything else, and when a dimension would be nested deeper than the limit.
bool read_plain_tensor_type(const Context& c, Reader& r, TypeProto& t);
void read_tensor(Context& c, Reader& r, const uint8_t* key_at, TensorView& t);
void read_sparse_tensor(Context& c, Reader& r, const uint8_t* key_at, SparseTensor& t);
void read_opset(Context& c, Reader& r, OperatorSetId& o);
void read_entry(Context& c, Reader& r, StringStringEntry& e);
void read_function(Context& c, Reader& r, const uint8_t* key_at, Function& f);
void read_training_info(Context& c, Reader& r, TrainingInfo& t);
void read_model(Context& c, Reader& r, ModelProto& m);

/// A singular message field of type T: a fresh object replaces an earlier occurrence
/// (singular messages are not merged). read(Reader&, const uint8_t* key_at, T&).
template <class T, class Read>
T* read_singular(Context& c, Reader& r, std::string_view field, Read&& read) {
    T* item = c.arena.make<T>();
    read_message(c, r, field, -1, [&](Reader& sub, const uint8_t* at) { read(sub, at, *item); });
    return item;
}
Graph* read_singular_graph(Context& c, Reader& r, std::string_view field);

/// At the first occurrence of a repeated message field (r at its key): room in `list` for
/// the occurrences present in the rest of the message.
template <class T>
void reserve_repeated(Context& c, Reader& r, List<T>& list) {
    if (ListAccess::capacity(list) == 0) ListAccess::reserve(c.arena, list, r.count_len_fields(r.field()));
}

/// Reads one repeated message field and appends to the list. At the first occurrence the
/// list is sized to the occurrences present in the rest of the message (one cheap scan of
/// the keys), so a large graph's lists are not grown and copied again and again. Tensors
/// are not counted: their keys sit between the weights, and walking them would touch a
/// page of a mapped model per tensor. The item is read in place: nothing a nested read
/// does can append to this same list.
template <class T, class Read>
void read_repeated_message(Context& c, Reader& r, std::string_view field, List<T>& list, Read&& read) {
    if (!r.expect(WireType::Len)) return;
    if constexpr (!std::is_same_v<T, TensorView>) reserve_repeated(c, r, list);
    const auto index = static_cast<int64_t>(list.size());
    T& item = ListAccess::append(c.arena, list);
    read_message(c, r, field, index, [&](Reader& sub, const uint8_t* key_at) { read(sub, key_at, item); });
}

inline void read_entries(Context& c, Reader& r, std::string_view field, List<StringStringEntry>& list) {
    auto entry = [&](Reader& sub, const uint8_t*, StringStringEntry& e) { read_entry(c, sub, e); };
    read_repeated_message(c, r, field, list, entry);
}

}  // namespace onnximport::detail
