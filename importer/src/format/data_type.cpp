// Names of tensor element types (spec section 3), as in onnx.proto: the one definition of
// the public data_type.hpp, shared by both readers, the writers and the dump.
#include <onnximport/data_type.hpp>

namespace onnximport {

std::string_view data_type_name(int32_t code) {
    static constexpr std::string_view names[] = {
        "UNDEFINED", "FLOAT", "UINT8", "INT8", "UINT16", "INT16", "INT32", "INT64", "STRING", "BOOL",
        "FLOAT16", "DOUBLE", "UINT32", "UINT64", "COMPLEX64", "COMPLEX128", "BFLOAT16", "FLOAT8E4M3FN",
        "FLOAT8E4M3FNUZ", "FLOAT8E5M2", "FLOAT8E5M2FNUZ", "UINT4", "INT4", "FLOAT4E2M1", "FLOAT8E8M0",
        "UINT2", "INT2", "FLOAT6E2M3", "FLOAT6E3M2",
    };
    if (code < 0 || code > max_data_type_code) return "?";
    return names[code];
}

}  // namespace onnximport
