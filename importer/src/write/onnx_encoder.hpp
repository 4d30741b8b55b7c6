// A Model's messages back to onnx.proto's wire format, field numbers from
// importer/schema/onnx_fields.hpp, each message's fields in one fixed order, so the same
// model gives the same bytes. What the importer keeps is written so that a re-import reads it back
// the same: a field whose presence matters (an attribute's inferred type, a dimension's
// value 0, a shape of rank 0, a tensor's empty typed field) is written even when empty.
// Run once per pass of the ProtoEncoder (proto_encoder.hpp).
#pragma once

#include "write/proto_encoder.hpp"
#include "write/tensor_router.hpp"

#include <onnximport/model.hpp>

namespace onnximport::detail {

class OnnxEncoder {
public:
    OnnxEncoder(ProtoEncoder& e, TensorRouter& router) : e_(e), router_(router) {}

    /// The whole model; one read from a .ort is written as docs/write.md "From a .ort" says.
    void model(const Model& m);
    void model(const ModelProto& m);

    // The messages, each the body of its field (encode_messages.cpp).
    /// `name_if_none`: the name a graph of a .ort gets (that format has no graph names).
    void graph(const Graph& g, std::string_view name_if_none = {});
    void node(const Node& n);
    void function(const Function& f);
    void training_info(const TrainingInfo& t);
    void value_info(const ValueInfo& v);
    void entries(uint32_t field, const List<StringStringEntry>& list);
    /// A `string` field of onnx.proto: UTF-8, checked in the size pass (a .ort input's
    /// names are not checked by its reader). @throws ImportError(Unsupported)
    void text(uint32_t field, std::string_view s);
    /// Repeated `string` fields (text) or `bytes` fields (not checked).
    void strings(uint32_t field, const List<std::string_view>& list, bool is_text = true);
    void opsets(uint32_t field, const List<OperatorSetId>& list);
    void nodes(uint32_t field, const List<Node>& list);

    // encode_attribute.cpp
    void attribute(const Attribute& a);

    // encode_type.cpp
    void type(const TypeProto& t);

    // encode_tensor.cpp
    void tensor(const TensorView& t);
    void sparse_tensor(const SparseTensor& s);

private:
    void attribute_values(const Attribute& a);
    void attribute_lists(const Attribute& a);
    void tensor_type(const TypeProto& t);
    void tensor_data(const TensorView& t);
    void external_entries(const TensorView& t, uint64_t offset);
    void typed_data(const TensorView& t, std::span<const std::byte> bytes);
    void int32_entries(const TensorView& t, std::span<const std::byte> bytes);

    ProtoEncoder& e_;
    TensorRouter& router_;
    /// True inside ModelProto.graph, where the onnx package looks for external tensors.
    bool external_allowed_ = false;
    /// The model was read from a .ort: graphs get names and nodes their resolved order.
    bool from_ort_ = false;
    bool in_sparse_ = false;
};

}  // namespace onnximport::detail
