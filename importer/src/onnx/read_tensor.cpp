// TensorProto and SparseTensorProto (spec section 3). A first pass reads the metadata
// and counts the entries of every typed field; the limits are decided from the dims
// alone; only then is the one source bound, the typed field converted by a second pass.
#include "onnx/fields.hpp"
#include "onnx/tensor_layout.hpp"

#include <algorithm>

namespace onnximport::detail {

namespace {

using F = proto::Tensor;

constexpr F typed_fields[] = {F::float_data, F::int32_data,  F::string_data,
                              F::int64_data, F::double_data, F::uint64_data};

const char* typed_field_name(F field) {
    switch (field) {
    case F::float_data: return "float_data";
    case F::int32_data: return "int32_data";
    case F::string_data: return "string_data";
    case F::int64_data: return "int64_data";
    case F::double_data: return "double_data";
    default: return "uint64_data";
    }
}

/// What the first pass learns.
struct Scan {
    const uint8_t* key_at = nullptr;  ///< the tensor's own key
    Reader::Slice body{};
    bool has_raw = false;
    Reader::Slice raw{};
    const uint8_t* raw_at = nullptr;
    const uint8_t* segment_at = nullptr;
    const uint8_t* dims_at = nullptr;
    const uint8_t* location_at = nullptr;
    const uint8_t* data_type_at = nullptr;
    /// The typed fields' numbers index these.
    static constexpr size_t typed_slots = [] {
        size_t most = 0;
        for (F f : typed_fields) most = std::max<size_t>(most, +f);
        return most + 1;
    }();
    uint64_t entries[typed_slots] = {};         ///< by field number
    const uint8_t* first_at[typed_slots] = {};  ///< key of the first occurrence
    uint64_t expected = 0;  ///< byte length from the dims (not for strings)

    void count(F field, const uint8_t* at, uint64_t n) {
        if (!first_at[+field]) first_at[+field] = at;
        entries[+field] += n;
    }
    /// The typed field that occurs first, or nothing.
    std::pair<const uint8_t*, F> first_typed() const {
        std::pair<const uint8_t*, F> first{nullptr, F::float_data};
        for (F f : typed_fields)
            if (entries[+f] && (!first.first || first_at[+f] < first.first)) first = {first_at[+f], f};
        return first;
    }
};

void scan_field(Context& c, Reader& r, TensorView& t, Scan& s) {
    const uint8_t* at = r.key_at();
    switch (r.field_as<F>()) {
    case F::dims: if (!s.dims_at) s.dims_at = at; read_repeated_int64(c, r, t.dims); break;
    case F::data_type:
        if (!r.expect(WireType::Varint)) break;
        t.data_type = read_int32(r);
        s.data_type_at = at;
        break;
    case F::segment:
        if (!r.expect(WireType::Len)) break;
        r.skip();
        s.segment_at = at;
        break;
    case F::float_data:
        read_repeated_fixed(r, WireType::Fixed32, [&](uint64_t) { s.count(F::float_data, at, 1); });
        break;
    case F::int32_data: read_repeated_varint(r, [&](uint64_t) { s.count(F::int32_data, at, 1); }); break;
    case F::string_data:
        if (!r.expect(WireType::Len)) break;
        ListAccess::push_back(c.arena, t.strings, read_bytes(r));
        s.count(F::string_data, at, 1);
        break;
    case F::int64_data: read_repeated_varint(r, [&](uint64_t) { s.count(F::int64_data, at, 1); }); break;
    // Copied, unlike other strings: a tensor's name sits next to its weights, whose pages
    // are released behind the reader (io/input.hpp); a view would fault them in again.
    case F::name: if (r.expect(WireType::Len)) t.name = c.keep(read_string(c, r, "name")); break;
    case F::raw_data:
        if (!r.expect(WireType::Len)) break;
        s.has_raw = true;
        s.raw_at = at;
        s.raw = r.bytes();
        break;
    case F::double_data:
        read_repeated_fixed(r, WireType::Fixed64, [&](uint64_t) { s.count(F::double_data, at, 1); });
        break;
    case F::uint64_data: read_repeated_varint(r, [&](uint64_t) { s.count(F::uint64_data, at, 1); }); break;
    case F::doc_string: if (r.expect(WireType::Len)) t.doc_string = c.keep(read_string(c, r, "doc_string")); break;
    case F::external_data: read_entries(c, r, "external_data", t.external_data); break;
    case F::data_location:
        if (!r.expect(WireType::Varint)) break;
        t.data_location = read_int32(r);
        s.location_at = at;
        break;
    case F::metadata_props: read_entries(c, r, "metadata_props", t.metadata_props); break;
    default: r.skip();
    }
}

/// Limits, from the dims alone, before any data is bound or converted.
void check_limits(const Context& c, TensorView& t, Scan& s) {
    if (s.segment_at) c.fail(ErrorKind::Unsupported, s.segment_at, "tensor segments are not supported", "segment");
    // A value that was written is reported where it was written; an absent one at the tensor.
    const uint8_t* data_type_at = s.data_type_at ? s.data_type_at : s.key_at;
    if (t.data_type == 0) c.fail(ErrorKind::InvalidModel, data_type_at, "tensor has no element type", "data_type");
    if (!is_known_data_type(t.data_type))
        c.fail(ErrorKind::Unsupported, data_type_at, "unknown tensor element type " + std::to_string(t.data_type),
               "data_type");
    auto count = element_count({t.dims.data(), t.dims.size()});
    if (!count.ok) c.fail(ErrorKind::InvalidModel, s.dims_at, count.error, "dims");
    t.element_count = count.value;
    if (t.data_type == static_cast<int32_t>(DataType::String)) return;
    auto bytes = expected_byte_length(t.element_count, t.data_type);
    if (!bytes)
        c.fail(ErrorKind::Unsupported, s.dims_at ? s.dims_at : s.key_at,
               "tensor of " + std::to_string(t.element_count) + " " + std::string(data_type_name(t.data_type)) +
                   " elements needs more than 2^31-1 bytes",
               "dims");
    s.expected = *bytes;
}

bool is_string(const TensorView& t) { return t.data_type == static_cast<int32_t>(DataType::String); }

void bind_external(Context& c, TensorView& t, const Scan& s) {
    if (s.has_raw) c.fail(ErrorKind::InvalidModel, s.raw_at, "external tensor also has raw_data", "raw_data");
    if (auto [at, f] = s.first_typed(); at)
        c.fail(ErrorKind::InvalidModel, at, std::string("external tensor also has ") + typed_field_name(f),
               typed_field_name(f));
    if (is_string(t))
        c.fail(ErrorKind::InvalidModel, s.location_at, "string tensors cannot be external", "data_location");
    t.source = TensorSource::External;
    c.storage.has_external_tensors = true;
    ModelAccess::expect(t, s.expected, c.storage, c.keep(c.path.str()));
}

void bind_raw(Context& c, TensorView& t, const Scan& s) {
    if (auto [at, f] = s.first_typed(); at)
        c.fail(ErrorKind::InvalidModel, at, std::string("tensor mixes raw_data and ") + typed_field_name(f),
               typed_field_name(f));
    if (is_string(t))
        c.fail(ErrorKind::InvalidModel, s.raw_at, "string tensors keep their values in string_data", "raw_data");
    if (s.raw.size() != s.expected)
        c.fail(ErrorKind::InvalidModel, s.raw_at,
               "raw_data has " + std::to_string(s.raw.size()) + " bytes, expected " + std::to_string(s.expected),
               "raw_data");
    t.source = TensorSource::Raw;
    ModelAccess::bind(t, reinterpret_cast<const std::byte*>(s.raw.begin), s.expected, c.storage);
    if (s.raw.size() >= Reader::large_payload) c.passed_pages.passed(s.raw.begin, s.raw.end);
}

void bind_strings(Context& c, TensorView& t, const Scan& s) {
    const uint64_t n = s.entries[+F::string_data];
    if (n != t.element_count)
        c.fail(ErrorKind::InvalidModel, s.first_at[+F::string_data] ? s.first_at[+F::string_data] : s.key_at,
               "string_data has " + std::to_string(n) + " entries, expected " + std::to_string(t.element_count),
               "string_data");
    t.source = TensorSource::Strings;
    ModelAccess::bind(t, nullptr, 0, c.storage);
}

/// Zeroed room for n bytes of a typed tensor in raw layout. Up to small_typed_bytes (the
/// scalars and short vectors of Constant nodes) in the arena: a heap buffer each cost more than
/// their conversion (docs/performance-history.md, "Small typed tensors in the arena"). Larger ones get
/// a buffer of their own, which Model::close() drops.
std::byte* typed_room(Context& c, uint64_t n) {
    constexpr uint64_t small_typed_bytes = 64;
    if (n > small_typed_bytes) return c.storage.allocate_owned(n);
    auto* room = static_cast<std::byte*>(c.storage.arena.allocate(n, 16));  // as new aligns
    std::memset(room, 0, n);
    return room;
}

void bind_typed(Context& c, TensorView& t, const Scan& s, F own) {
    const uint64_t n = s.entries[+own];
    const char* name = typed_field_name(own);
    // 6-bit elements share bytes, so a byte count can match with one entry too few or too
    // many (4 elements and 3 both fill 3 bytes): each entry is one element, so count them.
    if (bits_per_element(t.data_type) == 6 && n != t.element_count)
        c.fail(ErrorKind::InvalidModel, s.first_at[+own],
               std::string(name) + " has " + std::to_string(n) + " entries, expected one per element (" +
                   std::to_string(t.element_count) + ")",
               name);
    const uint64_t produced = typed_byte_length(own, t.data_type, n);
    if (produced != s.expected)
        c.fail(
            ErrorKind::InvalidModel, s.first_at[+own],
            std::string(name) + " gives " + std::to_string(produced) + " bytes, expected " + std::to_string(s.expected),
            name);
    std::byte* out = typed_room(c, s.expected);
    convert_typed_field(c, s.body.begin, s.body.end, own, t.data_type, out, s.expected);
    t.source = TensorSource::Typed;
    ModelAccess::bind(t, out, s.expected, c.storage);
}

/// No external data and no raw_data: the typed field of the element type, or nothing.
void bind_typed_or_none(Context& c, TensorView& t, const Scan& s) {
    const F own = typed_field_for(t.data_type);
    for (F f : typed_fields)
        if (f != own && s.entries[+f])
            c.fail(ErrorKind::InvalidModel, s.first_at[+f],
                   std::string(typed_field_name(f)) + " does not belong to element type " +
                       std::string(data_type_name(t.data_type)),
                   typed_field_name(f));
    if (is_string(t)) return bind_strings(c, t, s);
    if (s.entries[+own]) return bind_typed(c, t, s, own);
    if (t.element_count > 0)
        c.fail(ErrorKind::InvalidModel, s.key_at,
               "tensor has " + std::to_string(t.element_count) + " elements and no data");
    t.source = TensorSource::None;
    ModelAccess::bind(t, nullptr, 0, c.storage);
}

}  // namespace

void read_tensor(Context& c, Reader& r, const uint8_t* key_at, TensorView& t) {
    t.offset = c.offset_of(key_at);
    Scan s;
    s.key_at = key_at;
    s.body = {r.cursor(), r.end()};
    while (r.next()) scan_field(c, r, t, s);
    check_limits(c, t, s);
    // The source, in the spec's order: external, raw_data, the typed field.
    if (t.data_location != 0 && t.data_location != 1)
        c.fail(ErrorKind::InvalidModel, s.location_at, "unknown data_location " + std::to_string(t.data_location),
               "data_location");
    if (t.data_location == 1) bind_external(c, t, s);
    else if (s.has_raw) bind_raw(c, t, s);
    else bind_typed_or_none(c, t, s);
}

void read_sparse_tensor(Context& c, Reader& r, const uint8_t* key_at, SparseTensor& t) {
    using S = proto::SparseTensor;
    t.offset = c.offset_of(key_at);
    while (r.next()) {
        switch (r.field_as<S>()) {
        case S::values:
            if (!r.expect(WireType::Len)) break;
            t.values = TensorView{};
            read_message(c, r, "values", -1,
                         [&](Reader& sub, const uint8_t* at) { read_tensor(c, sub, at, t.values); });
            break;
        case S::indices:
            if (!r.expect(WireType::Len)) break;
            t.indices = TensorView{};
            read_message(c, r, "indices", -1,
                         [&](Reader& sub, const uint8_t* at) { read_tensor(c, sub, at, t.indices); });
            break;
        case S::dims: read_repeated_int64(c, r, t.dims); break;
        default: r.skip();
        }
    }
}

}  // namespace onnximport::detail
