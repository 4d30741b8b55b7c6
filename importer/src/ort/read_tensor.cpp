// Tensor and SparseTensor of .ort (spec section 3 applied to the .ort fields): dims >= 0,
// the element count and byte length computed without wrapping, raw_data exactly that
// long (a view into the buffer, only 4-byte aligned), STRING tensors in string_data only;
// or, with external_data_offset >= 0 (the project's extension, docs/ort.md), that many
// bytes in the companion file, recorded here and loaded after the walk.
#include "core/text.hpp"
#include "format/ort_data_type.hpp"
#include "format/tensor_limits.hpp"
#include "ort/context.hpp"
#include "ort/reader.hpp"

#include <onnximport/data_type.hpp>

namespace onnximport::detail {

namespace {

using T = fb::Tensor;

/// The dims (non-negative, rule O6) and the element count they give, without wrapping.
void read_dims(OrtContext& c, const FbVector& dims, TensorView& t) {
    ListAccess::reserve(c.arena, t.dims, dims.count);
    bool empty = false;
    for (uint32_t i = 0; i < dims.count; ++i) {
        const auto d = c.fb.scalar_at<int64_t>(dims, i);
        if (d < 0)
            c.invalid(c.fb.address(dims.entry(i)),
                      "dimension " + std::to_string(i) + " is negative (" + std::to_string(d) + ")", "dims");
        empty = empty || d == 0;
        ListAccess::push_back(c.arena, t.dims, d);
    }
    // A zero dimension makes no elements whatever the others are, as for .onnx (fuzz_roundtrip).
    uint64_t count = empty ? 0 : 1;
    for (uint32_t i = 0; i < dims.count && !empty; ++i) {
        if (!grow_element_count(count, static_cast<uint64_t>(t.dims[i])))
            c.invalid(c.fb.address(dims.entry(i)), "the element count exceeds 2^60", "dims");
    }
    t.element_count = count;
}

void check_data_type(const OrtContext& c, const FbTable& ft, int32_t code) {
    const uint8_t* at = c.at(ft, T::VT_DATA_TYPE);
    if (code == 0) c.invalid(at, "tensor has no element type", "data_type");
    if (code < 0 || code > max_ort_data_type)
        c.fail(ErrorKind::Unsupported, at,
               "element type " + std::to_string(code) + " is not in the .ort schema (1..20)", "data_type");
}

/// The fields of one Tensor table, each read once.
struct TensorFields {
    FbTable table;
    FbVector dims;
    FbVector raw;
    FbVector strings;
    int64_t external_offset;
};

/// external_data_offset -1: inline; >= 0: the bytes are in the companion file, loaded
/// after the walk (external/ort_companion.cpp). Each refusal names the tensor's offset.
bool is_external(const OrtContext& c, const TensorFields& f, const TensorView& t) {
    const int64_t offset = f.external_offset;
    if (offset == -1) return false;
    const auto refuse = [&](const std::string& message) {
        c.fail(ErrorKind::ExternalData, c.fb.address(f.table.at), message, "external_data_offset");
    };
    if (offset < -1) refuse("external_data_offset " + std::to_string(offset) + " is below -1");
    if (f.raw.at) refuse("external_data_offset " + std::to_string(offset) + " is set together with raw_data");
    if (t.data_type == static_cast<int32_t>(DataType::String))
        refuse("a STRING tensor cannot be external: its values are strings, not a byte range");
    return true;
}

void check_no_strings(const OrtContext& c, const TensorFields& f, const TensorView& t) {
    if (f.strings.count)
        c.invalid(c.at(f.table, T::VT_STRING_DATA),
                  "string_data belongs to STRING tensors, not " + std::string(data_type_name(t.data_type)),
                  "string_data");
}

/// The raw layout's length, decided from the dims before any data (rule T6; the type is
/// one of 1..20 and not STRING here, so it has a bit width).
uint64_t raw_length(const OrtContext& c, const FbTable& ft, const TensorView& t) {
    const std::optional<uint64_t> bytes = expected_byte_length(t.element_count, t.data_type);
    if (!bytes)
        c.fail(ErrorKind::Unsupported, c.at(ft, T::VT_DIMS),
               "tensor of " + std::to_string(t.element_count) + " elements needs more than 2^31-1 bytes", "dims");
    return *bytes;
}

/// An external tensor before loading: its expected length, and the path refusals name.
void bind_external(OrtContext& c, const TensorFields& f, TensorView& t) {
    check_no_strings(c, f, t);
    const uint64_t expected = raw_length(c, f.table, t);
    t.source = TensorSource::External;
    t.data_location = 1;  // EXTERNAL, as TensorProto would say
    ModelAccess::expect(t, expected, c.storage, c.arena.copy(c.path.str()));
    c.storage.ort_external.push_back({&t, static_cast<uint64_t>(f.external_offset)});
}

void bind_strings(OrtContext& c, const TensorFields& f, TensorView& t) {
    if (f.raw.at)
        c.invalid(c.at(f.table, T::VT_RAW_DATA), "a STRING tensor keeps its values in string_data", "raw_data");
    if (f.strings.count != t.element_count)
        c.invalid(c.at(f.table, T::VT_STRING_DATA),
                  "string_data has " + std::to_string(f.strings.count) + " entries, expected " +
                      std::to_string(t.element_count),
                  "string_data");
    ListAccess::reserve(c.arena, t.strings, f.strings.count);
    for (uint32_t i = 0; i < f.strings.count; ++i)
        ListAccess::push_back(c.arena, t.strings, c.fb.string_at(f.strings, i, "string_data", false));
    t.source = TensorSource::Strings;
    ModelAccess::bind(t, nullptr, 0, c.storage);
}

void bind_raw(OrtContext& c, const TensorFields& f, TensorView& t) {
    check_no_strings(c, f, t);
    const uint64_t expected = raw_length(c, f.table, t);
    if (!f.raw.at) {
        if (t.element_count > 0)
            c.invalid(f.table, "tensor has " + std::to_string(t.element_count) + " elements and no raw_data");
        t.source = TensorSource::None;
        ModelAccess::bind(t, nullptr, 0, c.storage);
        return;
    }
    if (f.raw.count != expected)
        c.invalid(c.at(f.table, T::VT_RAW_DATA),
                  "raw_data has " + std::to_string(f.raw.count) + " bytes, expected " + std::to_string(expected),
                  "raw_data");
    t.source = TensorSource::Raw;
    ModelAccess::bind(t, reinterpret_cast<const std::byte*>(c.fb.address(f.raw.data())), expected, c.storage);
}

/// The table, its vtable and every part read: what the walk has passed.
OrtExtent extent_of(const TensorFields& f, uint32_t name_at, uint32_t name_size) {
    OrtExtent e{std::min(f.table.at, f.table.vtable), std::max(f.table.at + 4, f.table.vtable + f.table.vtable_size)};
    const auto cover = [&e](uint32_t at, uint64_t bytes) {
        if (!at) return;
        e.lo = std::min(e.lo, at);
        e.hi = std::max<uint32_t>(e.hi, static_cast<uint32_t>(at + bytes));  // checked inside the buffer
    };
    cover(name_at, 4 + uint64_t{name_size} + 1);
    cover(f.dims.at, 4 + uint64_t{f.dims.count} * 8);
    cover(f.raw.at, 4 + uint64_t{f.raw.count});
    return e;
}

}  // namespace

OrtExtent read_ort_tensor(OrtContext& c, const FbTable& ft, TensorView& t) {
    Nested nested(c, ft);
    c.fb.charge(sizeof(TensorView), ft.at);
    t.offset = ft.at;
    bool has_name = false;
    const std::string_view name = c.fb.string(ft, T::VT_NAME, "name", &has_name);
    // Copied, as the .onnx reader does: the name sits beside the weights, whose pages are
    // dropped behind the walk (io/passed_pages.hpp); resolution would fault them in again.
    t.name = c.arena.copy(name);
    t.doc_string = c.fb.string(ft, T::VT_DOC_STRING, "doc_string");
    t.data_type = c.fb.scalar<int32_t>(ft, T::VT_DATA_TYPE, 0, "data_type");
    TensorFields f{ft, c.fb.vector(ft, T::VT_DIMS, 8, "dims"), c.fb.vector(ft, T::VT_RAW_DATA, 1, "raw_data"),
                   c.fb.vector(ft, T::VT_STRING_DATA, 4, "string_data"),
                   c.fb.scalar<int64_t>(ft, T::VT_EXTERNAL_DATA_OFFSET, -1, "external_data_offset")};
    check_data_type(c, ft, t.data_type);
    read_dims(c, f.dims, t);
    if (is_external(c, f, t)) bind_external(c, f, t);
    else if (t.data_type == static_cast<int32_t>(DataType::String)) bind_strings(c, f, t);
    else bind_raw(c, f, t);
    const auto name_at = has_name ? static_cast<uint32_t>(c.offset_of(address_of(name.data())) - 4) : 0;
    return extent_of(f, name_at, static_cast<uint32_t>(name.size()));
}

void read_ort_sparse_tensor(OrtContext& c, const FbTable& fs, SparseTensor& s) {
    Nested nested(c, fs);
    using S = fb::SparseTensor;
    s.offset = fs.at;
    const FbTable values = c.fb.table(fs, S::VT_VALUES, "values");
    const FbTable indices = c.fb.table(fs, S::VT_INDICES, "indices");
    const FbVector dims = c.fb.vector(fs, S::VT_DIMS, 8, "dims");
    if (!values) c.invalid(fs, "sparse tensor has no values", "values");
    if (!indices) c.invalid(fs, "sparse tensor has no indices", "indices");
    {
        PathScope at(c.path, "values");
        read_ort_tensor(c, values, s.values);
    }
    {
        PathScope at(c.path, "indices");
        read_ort_tensor(c, indices, s.indices);
    }
    ListAccess::reserve(c.arena, s.dims, dims.count);
    for (uint32_t i = 0; i < dims.count; ++i) ListAccess::push_back(c.arena, s.dims, c.fb.scalar_at<int64_t>(dims, i));
}

}  // namespace onnximport::detail
