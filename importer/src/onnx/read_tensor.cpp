// TensorProto and SparseTensorProto (spec section 3). A first pass reads the metadata
// and counts the entries of every typed field; the limits are decided from the dims
// alone; only then is the one source converted, by a second pass over the same bytes.
#include "onnx/fields.hpp"
#include "onnx/tensor_layout.hpp"

namespace onnximport::detail {

namespace {

/// Field numbers of TensorProto's typed fields.
enum TypedField : uint32_t {
    FloatData = 4, Int32Data = 5, StringData = 6, Int64Data = 7, DoubleData = 10, Uint64Data = 11,
};

const char* typed_field_name(uint32_t field) {
    switch (field) {
    case FloatData: return "float_data";
    case Int32Data: return "int32_data";
    case StringData: return "string_data";
    case Int64Data: return "int64_data";
    case DoubleData: return "double_data";
    default: return "uint64_data";
    }
}

/// What the first pass learns.
struct Scan {
    Reader::Slice body{};
    bool has_raw = false;
    Reader::Slice raw{};
    const uint8_t* raw_at = nullptr;
    const uint8_t* segment_at = nullptr;
    const uint8_t* dims_at = nullptr;
    const uint8_t* location_at = nullptr;
    const uint8_t* data_type_at = nullptr;
    uint64_t entries[12] = {};             ///< by field number
    const uint8_t* first_at[12] = {};      ///< key of the first occurrence
};

void count_entry(Scan& s, uint32_t field, const uint8_t* at, uint64_t n) {
    if (!s.first_at[field]) s.first_at[field] = at;
    s.entries[field] += n;
}

[[noreturn]] void refuse(Context& c, ErrorKind kind, const uint8_t* at, const std::string& message,
                         std::string_view leaf = {}) {
    c.fail(kind, at, message, leaf);
}

}  // namespace

void read_tensor(Context& c, Reader& r, const uint8_t* key_at, TensorView& t) {
    t.offset = c.offset_of(key_at);
    Scan s;
    s.body = {r.cursor(), r.end()};
    while (r.next()) {
        const uint8_t* at = r.key_at();
        switch (r.field()) {
        case 1:
            if (!s.dims_at) s.dims_at = at;
            read_repeated_int64(c, r, t.dims);
            break;
        case 2: ONNXIMPORT_EXPECT(r, Varint) t.data_type = read_int32(r); s.data_type_at = at; break;
        case 3: ONNXIMPORT_EXPECT(r, Len) r.skip(); s.segment_at = at; break;
        case FloatData: read_repeated_fixed32(c, r, [&](uint32_t) { count_entry(s, FloatData, at, 1); }); break;
        case Int32Data: read_repeated_varint(c, r, [&](uint64_t) { count_entry(s, Int32Data, at, 1); }); break;
        case StringData:
            ONNXIMPORT_EXPECT(r, Len)
            ListAccess::push_back(c.arena, t.strings, read_bytes(r));
            count_entry(s, StringData, at, 1);
            break;
        case Int64Data: read_repeated_varint(c, r, [&](uint64_t) { count_entry(s, Int64Data, at, 1); }); break;
        // Copied, unlike other strings: a tensor's name sits next to its weights, whose
        // pages the reader releases behind it (Reader::bytes); a view would fault them back
        // in (64 KiB of fault-around each) when resolution reads the name.
        case 8: ONNXIMPORT_EXPECT(r, Len) t.name = c.keep(read_string(c, r, "name")); break;
        case 9:
            ONNXIMPORT_EXPECT(r, Len)
            s.has_raw = true;
            s.raw_at = at;
            s.raw = r.bytes();
            break;
        case DoubleData: read_repeated_fixed64(c, r, [&](uint64_t) { count_entry(s, DoubleData, at, 1); }); break;
        case Uint64Data: read_repeated_varint(c, r, [&](uint64_t) { count_entry(s, Uint64Data, at, 1); }); break;
        case 12: ONNXIMPORT_EXPECT(r, Len) t.doc_string = c.keep(read_string(c, r, "doc_string")); break;
        case 13: read_entries(c, r, "external_data", t.external_data); break;
        case 14: ONNXIMPORT_EXPECT(r, Varint) t.data_location = read_int32(r); s.location_at = at; break;
        case 16: read_entries(c, r, "metadata_props", t.metadata_props); break;
        default: r.skip();
        }
    }

    // Limits, from the dims alone, before any data is converted.
    if (s.segment_at) refuse(c, ErrorKind::Unsupported, s.segment_at, "tensor segments are not supported", "segment");
    // A value that was written is reported where it was written; an absent one at the tensor.
    const uint8_t* data_type_at = s.data_type_at ? s.data_type_at : key_at;
    if (t.data_type == 0) refuse(c, ErrorKind::InvalidModel, data_type_at, "tensor has no element type", "data_type");
    if (!is_known_data_type(t.data_type))
        refuse(c, ErrorKind::Unsupported, data_type_at, "unknown tensor element type " + std::to_string(t.data_type), "data_type");
    auto count = element_count({t.dims.data(), t.dims.size()});
    if (!count.ok) refuse(c, ErrorKind::InvalidModel, s.dims_at, count.error, "dims");
    t.element_count = count.value;
    const bool is_string = t.data_type == static_cast<int32_t>(DataType::String);
    uint64_t expected = 0;
    if (!is_string) {
        auto bytes = expected_byte_length(t.element_count, t.data_type);
        if (!bytes) refuse(c, ErrorKind::Unsupported, s.dims_at ? s.dims_at : key_at,
                           "tensor of " + std::to_string(t.element_count) + " " +
                               std::string(data_type_name(t.data_type)) + " elements needs more than 2^31-1 bytes",
                           "dims");
        expected = *bytes;
    }

    // The source, in the spec's order: external, raw_data, the typed field.
    const uint8_t* typed_at = nullptr;
    uint32_t typed_present = 0;
    for (uint32_t f : {FloatData, Int32Data, StringData, Int64Data, DoubleData, Uint64Data})
        if (s.entries[f] && (!typed_at || s.first_at[f] < typed_at)) typed_at = s.first_at[f], typed_present = f;

    if (t.data_location != 0 && t.data_location != 1)
        refuse(c, ErrorKind::InvalidModel, s.location_at, "unknown data_location " + std::to_string(t.data_location),
               "data_location");
    if (t.data_location == 1) {
        if (s.has_raw) refuse(c, ErrorKind::InvalidModel, s.raw_at, "external tensor also has raw_data", "raw_data");
        if (typed_at)
            refuse(c, ErrorKind::InvalidModel, typed_at,
                   std::string("external tensor also has ") + typed_field_name(typed_present), typed_field_name(typed_present));
        if (is_string) refuse(c, ErrorKind::InvalidModel, s.location_at, "string tensors cannot be external", "data_location");
        t.source = TensorSource::External;
        c.has_external_tensors = true;
        t.field_path = c.keep(c.path_string());
        t.set_expected_size(expected, &c.storage);
        return;
    }
    if (s.has_raw) {
        if (typed_at)
            refuse(c, ErrorKind::InvalidModel, typed_at,
                   std::string("tensor mixes raw_data and ") + typed_field_name(typed_present), typed_field_name(typed_present));
        if (is_string) refuse(c, ErrorKind::InvalidModel, s.raw_at, "string tensors keep their values in string_data", "raw_data");
        if (s.raw.size() != expected)
            refuse(c, ErrorKind::InvalidModel, s.raw_at,
                   "raw_data has " + std::to_string(s.raw.size()) + " bytes, expected " + std::to_string(expected),
                   "raw_data");
        t.source = TensorSource::Raw;
        t.set_bytes(reinterpret_cast<const std::byte*>(s.raw.begin), expected, &c.storage);
        return;
    }

    const uint32_t own = typed_field_for(t.data_type);
    for (uint32_t f : {FloatData, Int32Data, StringData, Int64Data, DoubleData, Uint64Data})
        if (f != own && s.entries[f])
            refuse(c, ErrorKind::InvalidModel, s.first_at[f],
                   std::string(typed_field_name(f)) + " does not belong to element type " +
                       std::string(data_type_name(t.data_type)),
                   typed_field_name(f));

    if (is_string) {
        if (s.entries[StringData] != t.element_count)
            refuse(c, ErrorKind::InvalidModel, s.first_at[StringData] ? s.first_at[StringData] : key_at,
                   "string_data has " + std::to_string(s.entries[StringData]) + " entries, expected " +
                       std::to_string(t.element_count),
                   "string_data");
        t.source = TensorSource::Strings;
        t.set_bytes(nullptr, 0, &c.storage);
        return;
    }
    if (s.entries[own] == 0) {
        if (t.element_count > 0)
            refuse(c, ErrorKind::InvalidModel, key_at,
                   "tensor has " + std::to_string(t.element_count) + " elements and no data");
        t.source = TensorSource::None;
        t.set_bytes(nullptr, 0, &c.storage);
        return;
    }
    // 6-bit elements share bytes, so a byte count can match with one entry too few or too
    // many (4 elements and 3 both fill 3 bytes): each entry is one element, so count them.
    if (bits_per_element(t.data_type) == 6 && s.entries[own] != t.element_count)
        refuse(c, ErrorKind::InvalidModel, s.first_at[own],
               std::string(typed_field_name(own)) + " has " + std::to_string(s.entries[own]) +
                   " entries, expected one per element (" + std::to_string(t.element_count) + ")",
               typed_field_name(own));
    uint64_t produced = typed_byte_length(own, t.data_type, s.entries[own]);
    if (produced != expected)
        refuse(c, ErrorKind::InvalidModel, s.first_at[own],
               std::string(typed_field_name(own)) + " gives " + std::to_string(produced) + " bytes, expected " +
                   std::to_string(expected),
               typed_field_name(own));
    std::byte* out = c.allocate_owned(expected);
    convert_typed_field(c, s.body.begin, s.body.end, own, t.data_type, out, expected);
    t.source = TensorSource::Typed;
    t.set_bytes(out, expected, &c.storage);
}

void read_sparse_tensor(Context& c, Reader& r, const uint8_t* key_at, SparseTensor& t) {
    t.offset = c.offset_of(key_at);
    while (r.next()) {
        switch (r.field()) {
        case 1:
            ONNXIMPORT_EXPECT(r, Len)
            t.values = TensorView{};
            read_message(c, r, "values", -1, [&](Reader& sub, const uint8_t* at) { read_tensor(c, sub, at, t.values); });
            break;
        case 2:
            ONNXIMPORT_EXPECT(r, Len)
            t.indices = TensorView{};
            read_message(c, r, "indices", -1, [&](Reader& sub, const uint8_t* at) { read_tensor(c, sub, at, t.indices); });
            break;
        case 3: read_repeated_int64(c, r, t.dims); break;
        default: r.skip();
        }
    }
}

}  // namespace onnximport::detail
