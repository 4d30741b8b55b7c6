// Tensor element types 1..28 and their bit widths (spec section 3).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace onnximport {

/// TensorProto.DataType codes.
enum class DataType : int32_t {
    Undefined = 0,
    Float = 1,
    Uint8 = 2,
    Int8 = 3,
    Uint16 = 4,
    Int16 = 5,
    Int32 = 6,
    Int64 = 7,
    String = 8,
    Bool = 9,
    Float16 = 10,
    Double = 11,
    Uint32 = 12,
    Uint64 = 13,
    Complex64 = 14,
    Complex128 = 15,
    Bfloat16 = 16,
    Float8E4M3FN = 17,
    Float8E4M3FNUZ = 18,
    Float8E5M2 = 19,
    Float8E5M2FNUZ = 20,
    Uint4 = 21,
    Int4 = 22,
    Float4E2M1 = 23,
    Float8E8M0 = 24,
    Uint2 = 25,
    Int2 = 26,
    Float6E2M3 = 27,
    Float6E3M2 = 28,
};

constexpr int32_t max_data_type_code = 28;

constexpr bool is_known_data_type(int32_t code) { return code >= 1 && code <= max_data_type_code; }

/// Bits per element in the raw layout; 0 for String and unknown codes.
/// complex64 is 64 bits (two floats), complex128 128 bits (two doubles).
constexpr unsigned bits_per_element(int32_t code) {
    switch (static_cast<DataType>(code)) {
    case DataType::Float: case DataType::Int32: case DataType::Uint32: return 32;
    case DataType::Uint8: case DataType::Int8: case DataType::Bool:
    case DataType::Float8E4M3FN: case DataType::Float8E4M3FNUZ: case DataType::Float8E5M2:
    case DataType::Float8E5M2FNUZ: case DataType::Float8E8M0: return 8;
    case DataType::Uint16: case DataType::Int16: case DataType::Float16: case DataType::Bfloat16: return 16;
    case DataType::Int64: case DataType::Uint64: case DataType::Double: case DataType::Complex64: return 64;
    case DataType::Complex128: return 128;
    case DataType::Uint4: case DataType::Int4: case DataType::Float4E2M1: return 4;
    case DataType::Uint2: case DataType::Int2: return 2;
    case DataType::Float6E2M3: case DataType::Float6E3M2: return 6;
    default: return 0;
    }
}

/// "FLOAT", "UINT8", ... as in onnx.proto; "?" for unknown codes.
std::string_view data_type_name(int32_t code);

}  // namespace onnximport
