// The typed fields of TensorProto (tensor_layout.hpp): their byte lengths and their
// conversion into the raw layout, little-endian.
#include "onnx/tensor_layout.hpp"

#include "onnx/fields.hpp"

#include <onnximport/data_type.hpp>

#include <cstring>

namespace onnximport::detail {

proto::Tensor typed_field_for(int32_t data_type) {
    using F = proto::Tensor;
    switch (static_cast<DataType>(data_type)) {
    case DataType::Float: case DataType::Complex64: return F::float_data;
    case DataType::Double: case DataType::Complex128: return F::double_data;
    case DataType::Int64: return F::int64_data;
    case DataType::Uint64: case DataType::Uint32: return F::uint64_data;
    case DataType::String: return F::string_data;
    default: return F::int32_data;
    }
}

uint64_t typed_byte_length(proto::Tensor field, int32_t data_type, uint64_t n) {
    using F = proto::Tensor;
    switch (field) {
    case F::float_data: return n * 4;
    case F::double_data: case F::int64_data: return n * 8;
    case F::uint64_data: return data_type == static_cast<int32_t>(DataType::Uint32) ? n * 4 : n * 8;
    default: break;
    }
    // int32_data: one element per entry; 4- and 2-bit types: one packed byte per entry.
    switch (bits_per_element(data_type)) {
    case 32: return n * 4;
    case 16: return n * 2;
    case 6: return (n * 6 + 7) / 8;
    default: return n;  // 8-bit types, bool, and the packed 4- and 2-bit bytes
    }
}

namespace {

void put_le(std::byte* out, uint64_t v, unsigned bytes) {
    for (unsigned i = 0; i < bytes; ++i) out[i] = static_cast<std::byte>(v >> (8 * i));
}

}  // namespace

void convert_typed_field(Context& c, const uint8_t* begin, const uint8_t* end, proto::Tensor field,
                         int32_t data_type, std::byte* out, uint64_t size) {
    using F = proto::Tensor;
    const bool is_bool = data_type == static_cast<int32_t>(DataType::Bool);
    const unsigned bits = bits_per_element(data_type);
    unsigned width;  // bytes written per entry (0: the 6-bit bit stream)
    switch (field) {
    case F::float_data: width = 4; break;
    case F::double_data: case F::int64_data: width = 8; break;
    case F::uint64_data: width = bits == 32 ? 4 : 8; break;
    default: width = bits == 32 ? 4 : bits == 16 ? 2 : bits == 6 ? 0 : 1; break;
    }
    uint64_t index = 0;
    auto put = [&](uint64_t v) {
        if (width == 0) {  // 6-bit: element k at bit 6k of a little-endian bit stream
            uint64_t bit = index * 6;
            uint32_t six = static_cast<uint32_t>(v) & 0x3F;
            uint64_t byte = bit / 8;
            unsigned shift = bit % 8;
            out[byte] |= static_cast<std::byte>(six << shift);
            if (shift > 2 && byte + 1 < size) out[byte + 1] |= static_cast<std::byte>(six >> (8 - shift));
        } else {
            if (is_bool) v = static_cast<uint32_t>(v) != 0;
            put_le(out + index * width, v, width);
        }
        ++index;
    };
    Reader r(c, begin, end);
    while (r.next()) {
        if (r.field_as<F>() != field) {
            r.skip();
            continue;
        }
        if (field == F::float_data) read_repeated_fixed(r, WireType::Fixed32, put);
        else if (field == F::double_data) read_repeated_fixed(r, WireType::Fixed64, put);
        else read_repeated_varint(r, put);
    }
}

}  // namespace onnximport::detail
