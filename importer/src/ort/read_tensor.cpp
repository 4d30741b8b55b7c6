// Tensor and SparseTensor of .ort (spec section 3 applied to the .ort fields): dims >= 0,
// the element count and byte length computed without wrapping, raw_data exactly that
// long (a view into the buffer, only 4-byte aligned), STRING tensors in string_data only;
// or, with external_data_offset >= 0 (the project's extension, docs/ort.md), that many
// bytes in the companion file, recorded here and loaded after the walk.
#include "core/text.hpp"
#include "ort/context.hpp"
#include "ort/reader.hpp"

#include <onnximport/data_type.hpp>

namespace onnximport::detail {

namespace {

using T = fb::Tensor;

/// Element types of the .ort schema: ONNX codes 1..20 (float8 from format version 6).
constexpr int32_t max_ort_data_type = 20;
/// The same limits as .onnx (spec section 3).
constexpr uint64_t max_elements = uint64_t{1} << 60;
constexpr uint64_t max_bytes = 0x7FFFFFFFu;

void read_dims(OrtContext& c, const fb::Tensor* ft, TensorView& t) {
    const auto* dims = ft->dims();
    const uint32_t n = size_of(dims);
    ListAccess::reserve(c.arena, t.dims, n);
    bool empty = false;
    for (uint32_t i = 0; i < n; ++i) {
        const int64_t d = int64_at(dims, i);
        if (d < 0)
            c.invalid(dims->Data() + size_t{i} * sizeof(int64_t),
                      "dimension " + std::to_string(i) + " is negative (" + std::to_string(d) + ")", "dims");
        empty = empty || d == 0;
        ListAccess::push_back(c.arena, t.dims, d);
    }
    // A zero dimension makes no elements whatever the others are, as for .onnx (fuzz_roundtrip).
    uint64_t count = empty ? 0 : 1;
    for (uint32_t i = 0; i < n && !empty; ++i) {
        const auto d = static_cast<uint64_t>(int64_at(dims, i));
        if (count > max_elements / d)
            c.invalid(dims->Data() + size_t{i} * sizeof(int64_t), "the element count exceeds 2^60", "dims");
        count *= d;
    }
    t.element_count = count;
}

void check_data_type(const OrtContext& c, const fb::Tensor* ft, int32_t code) {
    const uint8_t* at = field_at(ft, T::VT_DATA_TYPE);
    if (code == 0) c.invalid(at, "tensor has no element type", "data_type");
    if (code < 0 || code > max_ort_data_type)
        c.fail(ErrorKind::Unsupported, at,
               "element type " + std::to_string(code) + " is not in the .ort schema (1..20)", "data_type");
}

/// external_data_offset -1: inline; >= 0: the bytes are in the companion file, loaded
/// after the walk (external/ort_companion.cpp). Each refusal names the tensor's offset.
bool is_external(const OrtContext& c, const fb::Tensor* ft, const TensorView& t) {
    const int64_t offset = ft->external_data_offset();
    if (offset == -1) return false;
    const auto refuse = [&](const std::string& message) {
        c.fail(ErrorKind::ExternalData, address_of(ft), message, "external_data_offset");
    };
    if (offset < -1) refuse("external_data_offset " + std::to_string(offset) + " is below -1");
    if (ft->raw_data()) refuse("external_data_offset " + std::to_string(offset) + " is set together with raw_data");
    if (t.data_type == static_cast<int32_t>(DataType::String))
        refuse("a STRING tensor cannot be external: its values are strings, not a byte range");
    return true;
}

void check_no_strings(const OrtContext& c, const fb::Tensor* ft, const TensorView& t) {
    if (size_of(ft->string_data()))
        c.invalid(field_at(ft, T::VT_STRING_DATA),
                  "string_data belongs to STRING tensors, not " + std::string(data_type_name(t.data_type)),
                  "string_data");
}

/// The raw layout's length, decided from the dims before any data: count * bits stays
/// below 2^35, no wrap.
uint64_t raw_length(const OrtContext& c, const fb::Tensor* ft, const TensorView& t) {
    const uint64_t bits = bits_per_element(t.data_type);
    if (t.element_count > (max_bytes * 8) / bits)
        c.fail(ErrorKind::Unsupported, field_at(ft, T::VT_DIMS),
               "tensor of " + std::to_string(t.element_count) + " elements needs more than 2^31-1 bytes", "dims");
    return (t.element_count * bits + 7) / 8;
}

/// An external tensor before loading: its expected length, and the path refusals name.
void bind_external(OrtContext& c, const fb::Tensor* ft, TensorView& t) {
    check_no_strings(c, ft, t);
    const uint64_t expected = raw_length(c, ft, t);
    t.source = TensorSource::External;
    t.data_location = 1;  // EXTERNAL, as TensorProto would say
    ModelAccess::expect(t, expected, c.storage, c.arena.copy(c.path.str()));
    c.storage.ort_external.push_back({&t, static_cast<uint64_t>(ft->external_data_offset())});
}

void bind_strings(OrtContext& c, const fb::Tensor* ft, TensorView& t) {
    if (ft->raw_data())
        c.invalid(field_at(ft, T::VT_RAW_DATA), "a STRING tensor keeps its values in string_data", "raw_data");
    const auto* v = ft->string_data();
    if (size_of(v) != t.element_count)
        c.invalid(
            field_at(ft, T::VT_STRING_DATA),
            "string_data has " + std::to_string(size_of(v)) + " entries, expected " + std::to_string(t.element_count),
            "string_data");
    ListAccess::reserve(c.arena, t.strings, size_of(v));
    for (uint32_t i = 0; i < size_of(v); ++i)
        ListAccess::push_back(c.arena, t.strings, text_of(element(c, v, i, "string_data")));
    t.source = TensorSource::Strings;
    ModelAccess::bind(t, nullptr, 0, c.storage);
}

void bind_raw(OrtContext& c, const fb::Tensor* ft, TensorView& t) {
    check_no_strings(c, ft, t);
    const uint64_t expected = raw_length(c, ft, t);
    const auto* raw = ft->raw_data();
    if (!raw) {
        if (t.element_count > 0)
            c.invalid(ft, "tensor has " + std::to_string(t.element_count) + " elements and no raw_data");
        t.source = TensorSource::None;
        ModelAccess::bind(t, nullptr, 0, c.storage);
        return;
    }
    if (raw->size() != expected)
        c.invalid(field_at(ft, T::VT_RAW_DATA),
                  "raw_data has " + std::to_string(raw->size()) + " bytes, expected " + std::to_string(expected),
                  "raw_data");
    t.source = TensorSource::Raw;
    ModelAccess::bind(t, reinterpret_cast<const std::byte*>(raw->Data()), expected, c.storage);
}

}  // namespace

void read_ort_tensor(OrtContext& c, const fb::Tensor* ft, TensorView& t) {
    t.offset = c.offset_of_object(ft);
    // Copied, as the .onnx reader does: the name sits beside the weights, whose pages are
    // dropped behind the walk (io/passed_pages.hpp); resolution would fault them in again.
    t.name = c.arena.copy(text_of(ft->name()));
    t.doc_string = text_of(ft->doc_string());
    t.data_type = ft->data_type();
    check_data_type(c, ft, t.data_type);
    read_dims(c, ft, t);
    if (is_external(c, ft, t)) bind_external(c, ft, t);
    else if (t.data_type == static_cast<int32_t>(DataType::String)) bind_strings(c, ft, t);
    else bind_raw(c, ft, t);
}

void read_ort_sparse_tensor(OrtContext& c, const fb::SparseTensor* fs, SparseTensor& s) {
    s.offset = c.offset_of_object(fs);
    if (!fs->values()) c.invalid(fs, "sparse tensor has no values", "values");
    if (!fs->indices()) c.invalid(fs, "sparse tensor has no indices", "indices");
    {
        PathScope at(c.path, "values");
        read_ort_tensor(c, fs->values(), s.values);
    }
    {
        PathScope at(c.path, "indices");
        read_ort_tensor(c, fs->indices(), s.indices);
    }
    const auto* dims = fs->dims();
    ListAccess::reserve(c.arena, s.dims, size_of(dims));
    for (uint32_t i = 0; i < size_of(dims); ++i) ListAccess::push_back(c.arena, s.dims, int64_at(dims, i));
}

}  // namespace onnximport::detail
