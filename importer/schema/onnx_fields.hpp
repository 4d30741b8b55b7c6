// The field numbers of onnx.proto, one enum class per message: the only place they are
// written. The readers switch on them; the test, hostile-corpus and bench builders write
// with them. `+f` gives the number (the unary plus below).
#pragma once

#include <cstdint>
#include <type_traits>

namespace onnximport::proto {

enum class Model : uint32_t {
    ir_version = 1, producer_name = 2, producer_version = 3, domain = 4, model_version = 5, doc_string = 6,
    graph = 7, opset_import = 8, metadata_props = 14, training_info = 20, functions = 25,
};
enum class Graph : uint32_t {
    node = 1, name = 2, initializer = 5, doc_string = 10, input = 11, output = 12, value_info = 13,
    quantization_annotation = 14, sparse_initializer = 15, metadata_props = 16,
};
enum class Node : uint32_t {
    input = 1, output = 2, name = 3, op_type = 4, attribute = 5, doc_string = 6, domain = 7, overload = 8,
    metadata_props = 9,
};
enum class Attribute : uint32_t {
    name = 1, f = 2, i = 3, s = 4, t = 5, g = 6, floats = 7, ints = 8, strings = 9, tensors = 10, graphs = 11,
    doc_string = 13, tp = 14, type_protos = 15, type = 20, ref_attr_name = 21, sparse_tensor = 22,
    sparse_tensors = 23,
};
enum class ValueInfo : uint32_t { name = 1, type = 2, doc_string = 3, metadata_props = 4 };
enum class Tensor : uint32_t {
    dims = 1, data_type = 2, segment = 3, float_data = 4, int32_data = 5, string_data = 6, int64_data = 7,
    name = 8, raw_data = 9, double_data = 10, uint64_data = 11, doc_string = 12, external_data = 13,
    data_location = 14, metadata_props = 16,
};
enum class TensorSegment : uint32_t { begin = 1, end = 2 };  // TensorProto.Segment, refused (rule T18)
enum class SparseTensor : uint32_t { values = 1, indices = 2, dims = 3 };
enum class TensorAnnotation : uint32_t { tensor_name = 1, quant_parameter_tensor_names = 2 };  // skipped
enum class OperatorSetId : uint32_t { domain = 1, version = 2 };
enum class StringStringEntry : uint32_t { key = 1, value = 2 };
enum class Function : uint32_t {
    name = 1, input = 4, output = 5, attribute = 6, node = 7, doc_string = 8, opset_import = 9, domain = 10,
    attribute_proto = 11, value_info = 12, overload = 13, metadata_props = 14,
};
enum class TrainingInfo : uint32_t {
    initialization = 1,
    algorithm = 2,
    initialization_binding = 3,
    update_binding = 4
};
enum class Type : uint32_t {
    tensor_type = 1, sequence_type = 4, map_type = 5, denotation = 6, opaque_type = 7, sparse_tensor_type = 8,
    optional_type = 9,
};
/// TypeProto.Tensor and TypeProto.SparseTensor.
enum class TensorType : uint32_t { elem_type = 1, shape = 2 };
/// TypeProto.Sequence and TypeProto.Optional.
enum class ElemType : uint32_t { elem_type = 1 };
enum class MapType : uint32_t { key_type = 1, value_type = 2 };
enum class OpaqueType : uint32_t { domain = 1, name = 2 };
enum class Shape : uint32_t { dim = 1 };
enum class Dimension : uint32_t { dim_value = 1, dim_param = 2, denotation = 3 };

/// The number of a field: `+proto::Node::input` is 1.
template <class E>
    requires std::is_enum_v<E>
constexpr uint32_t operator+(E field) noexcept {
    return static_cast<uint32_t>(field);
}

}  // namespace onnximport::proto
