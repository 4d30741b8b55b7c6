// TensorProto and SparseTensorProto. Bytes are written as their source held them: raw_data
// as raw_data, a typed field back into the same typed field (the inverse of spec section
// 3's conversion, rules T10 to T14), strings as string_data; external data, loaded, goes
// to the external file again or, below the threshold or without one, into raw_data.
#include "write/onnx_encoder.hpp"

#include <onnx_fields.hpp>

#include <onnximport/data_type.hpp>

#include <string>

namespace onnximport::detail {

namespace {

using F = proto::Tensor;

uint64_t load_le(const std::byte* p, unsigned width) {
    uint64_t v = 0;
    for (unsigned i = 0; i < width; ++i) v |= static_cast<uint64_t>(p[i]) << (8 * i);
    return v;
}

/// The low `width` bytes of v as a signed number, widened to 64 bits (a varint of an
/// int32 field holds the sign-extended value).
uint64_t sign_extend(uint64_t v, unsigned width) {
    const unsigned shift = 64 - 8 * width;
    return static_cast<uint64_t>(static_cast<int64_t>(v << shift) >> shift);
}

/// The typed field that holds values of `data_type` (rules T10 to T12).
F typed_field(int32_t data_type) {
    switch (static_cast<DataType>(data_type)) {
    case DataType::Float: case DataType::Complex64: return F::float_data;
    case DataType::Double: case DataType::Complex128: return F::double_data;
    case DataType::Int64: return F::int64_data;
    case DataType::Uint32: case DataType::Uint64: return F::uint64_data;
    default: return F::int32_data;
    }
}

}  // namespace

void OnnxEncoder::tensor(const TensorView& t) {
    if (!t.dims.empty())
        e_.message(+F::dims, [&] {
            for (int64_t d : t.dims) e_.raw_varint(static_cast<uint64_t>(d));
        });
    if (t.data_type != 0) e_.int_field(+F::data_type, t.data_type);
    if (!t.name.empty()) e_.string_field(+F::name, t.name);
    if (!t.doc_string.empty()) e_.string_field(+F::doc_string, t.doc_string);
    tensor_data(t);
    entries(+F::metadata_props, t.metadata_props);
}

void OnnxEncoder::tensor_data(const TensorView& t) {
    if (auto offset = router_.route(t, external_allowed_ && !in_sparse_)) {
        external_entries(t, *offset);
        return;
    }
    switch (t.source) {
    case TensorSource::None: break;
    case TensorSource::Raw:
    case TensorSource::External: e_.bytes_field(+F::raw_data, router_.inline_bytes(t)); break;
    case TensorSource::Typed: typed_data(t, router_.inline_bytes(t)); break;
    case TensorSource::Strings: strings(+F::string_data, t.strings); break;
    }
}

void OnnxEncoder::external_entries(const TensorView& t, uint64_t offset) {
    using E = proto::StringStringEntry;
    auto entry = [&](std::string_view key, std::string_view value) {
        e_.message(+F::external_data, [&] {
            e_.string_field(+E::key, key);
            e_.string_field(+E::value, value);
        });
    };
    entry("location", router_.location());
    entry("offset", std::to_string(offset));
    entry("length", std::to_string(t.byte_size()));
    e_.int_field(+F::data_location, 1);  // EXTERNAL
}

void OnnxEncoder::typed_data(const TensorView& t, std::span<const std::byte> bytes) {
    const F field = typed_field(t.data_type);
    if (field == F::float_data || field == F::double_data) {
        // A packed fixed32 or fixed64 field's payload is the raw layout itself.
        e_.bytes_field(+field, bytes);
        return;
    }
    if (field == F::int32_data) {
        e_.message(+field, [&] { int32_entries(t, bytes); });
        return;
    }
    const unsigned width = t.data_type == static_cast<int32_t>(DataType::Uint32) ? 4 : 8;
    e_.message(+field, [&] {
        for (size_t at = 0; at + width <= bytes.size(); at += width) e_.raw_varint(load_le(bytes.data() + at, width));
    });
}

/// int32_data: one element an entry, but one packed byte an entry for the 4- and 2-bit
/// types and the low 6 bits for the 6-bit types (rules T12 to T14).
void OnnxEncoder::int32_entries(const TensorView& t, std::span<const std::byte> bytes) {
    const unsigned bits = bits_per_element(t.data_type);
    if (bits == 6) {
        for (uint64_t k = 0; k < t.element_count; ++k) {
            const uint64_t bit = 6 * k;
            const uint64_t pair = load_le(bytes.data() + bit / 8, bit / 8 + 1 < bytes.size() ? 2 : 1);
            e_.raw_varint((pair >> (bit % 8)) & 0x3F);
        }
        return;
    }
    const unsigned width = bits >= 8 ? bits / 8 : 1;
    const bool is_signed = t.data_type == static_cast<int32_t>(DataType::Int32) ||
                           t.data_type == static_cast<int32_t>(DataType::Int16) ||
                           t.data_type == static_cast<int32_t>(DataType::Int8);
    for (size_t at = 0; at + width <= bytes.size(); at += width) {
        const uint64_t v = load_le(bytes.data() + at, width);
        e_.raw_varint(is_signed ? sign_extend(v, width) : v);
    }
}

void OnnxEncoder::sparse_tensor(const SparseTensor& s) {
    using S = proto::SparseTensor;
    const bool was = in_sparse_;
    in_sparse_ = true;
    e_.message(+S::values, [&] { tensor(s.values); });
    e_.message(+S::indices, [&] { tensor(s.indices); });
    if (!s.dims.empty())
        e_.message(+S::dims, [&] {
            for (int64_t d : s.dims) e_.raw_varint(static_cast<uint64_t>(d));
        });
    in_sparse_ = was;
}

}  // namespace onnximport::detail
