// The protozero floor: the fields the importer reads, decoded and summed, with
// the field numbers of onnx_fields.hpp. Nothing is stored: this is the cost of the wire
// walk alone, below which no importer of these fields can go.
#include "protozero_walk.hpp"

#include <onnx_fields.hpp>
#include <protozero/pbf_reader.hpp>

namespace gauntlet::bench {

namespace {

namespace P = onnximport::proto;
using onnximport::proto::operator+;
using protozero::pbf_reader;

/// What a walk has read: lengths of strings and values of numbers, summed.
struct Sum {
    uint64_t v = 0;
    void str(pbf_reader& r) { v += r.get_view().size(); }
    void num(pbf_reader& r) { v += static_cast<uint64_t>(r.get_int64()); }
    void f32(pbf_reader& r) { v += static_cast<uint64_t>(r.get_float()); }
    /// A repeated int64 field, packed or not.
    void ints(pbf_reader& r) {
        if (r.wire_type() != protozero::pbf_wire_type::length_delimited) return num(r);
        for (int64_t x : r.get_packed_int64()) v += static_cast<uint64_t>(x);
    }
    void floats(pbf_reader& r) {
        if (r.wire_type() != protozero::pbf_wire_type::length_delimited) return f32(r);
        for (float x : r.get_packed_float()) v += static_cast<uint64_t>(x);
    }
};

void graph(Sum& s, pbf_reader r);
void type(Sum& s, pbf_reader r);

void entry(Sum& s, pbf_reader r) {
    while (r.next()) {
        switch (r.tag()) {
        case +P::StringStringEntry::key:
        case +P::StringStringEntry::value: s.str(r); break;
        default: r.skip();
        }
    }
}

void opset(Sum& s, pbf_reader r) {
    while (r.next()) {
        switch (r.tag()) {
        case +P::OperatorSetId::domain: s.str(r); break;
        case +P::OperatorSetId::version: s.num(r); break;
        default: r.skip();
        }
    }
}

void dimension(Sum& s, pbf_reader r) {
    while (r.next()) {
        switch (r.tag()) {
        case +P::Dimension::dim_value: s.num(r); break;
        case +P::Dimension::dim_param:
        case +P::Dimension::denotation: s.str(r); break;
        default: r.skip();
        }
    }
}

void shape(Sum& s, pbf_reader r) {
    while (r.next(+P::Shape::dim)) dimension(s, r.get_message());
}

/// TypeProto.Tensor and TypeProto.SparseTensor.
void tensor_type(Sum& s, pbf_reader r) {
    while (r.next()) {
        switch (r.tag()) {
        case +P::TensorType::elem_type: s.num(r); break;
        case +P::TensorType::shape: shape(s, r.get_message()); break;
        default: r.skip();
        }
    }
}

/// TypeProto.Sequence and TypeProto.Optional.
void elem_type(Sum& s, pbf_reader r) {
    while (r.next(+P::ElemType::elem_type)) type(s, r.get_message());
}

void map_type(Sum& s, pbf_reader r) {
    while (r.next()) {
        switch (r.tag()) {
        case +P::MapType::key_type: s.num(r); break;
        case +P::MapType::value_type: type(s, r.get_message()); break;
        default: r.skip();
        }
    }
}

void opaque_type(Sum& s, pbf_reader r) {
    while (r.next()) {
        switch (r.tag()) {
        case +P::OpaqueType::domain:
        case +P::OpaqueType::name: s.str(r); break;
        default: r.skip();
        }
    }
}

void type(Sum& s, pbf_reader r) {
    while (r.next()) {
        switch (r.tag()) {
        case +P::Type::tensor_type:
        case +P::Type::sparse_tensor_type: tensor_type(s, r.get_message()); break;
        case +P::Type::sequence_type:
        case +P::Type::optional_type: elem_type(s, r.get_message()); break;
        case +P::Type::map_type: map_type(s, r.get_message()); break;
        case +P::Type::opaque_type: opaque_type(s, r.get_message()); break;
        case +P::Type::denotation: s.str(r); break;
        default: r.skip();
        }
    }
}

void value_info(Sum& s, pbf_reader r) {
    while (r.next()) {
        switch (r.tag()) {
        case +P::ValueInfo::name:
        case +P::ValueInfo::doc_string: s.str(r); break;
        case +P::ValueInfo::type: type(s, r.get_message()); break;
        case +P::ValueInfo::metadata_props: entry(s, r.get_message()); break;
        default: r.skip();
        }
    }
}

/// A tensor's metadata; its data fields are skipped, as the importer leaves them in place.
void tensor(Sum& s, pbf_reader r) {
    while (r.next()) {
        switch (r.tag()) {
        case +P::Tensor::dims: s.ints(r); break;
        case +P::Tensor::data_type:
        case +P::Tensor::data_location: s.num(r); break;
        case +P::Tensor::name:
        case +P::Tensor::doc_string: s.str(r); break;
        case +P::Tensor::segment: {
            pbf_reader seg = r.get_message();
            while (seg.next()) seg.wire_type() == protozero::pbf_wire_type::varint ? s.num(seg) : seg.skip();
            break;
        }
        case +P::Tensor::external_data:
        case +P::Tensor::metadata_props: entry(s, r.get_message()); break;
        default: r.skip();
        }
    }
}

void sparse_tensor(Sum& s, pbf_reader r) {
    while (r.next()) {
        switch (r.tag()) {
        case +P::SparseTensor::values:
        case +P::SparseTensor::indices: tensor(s, r.get_message()); break;
        case +P::SparseTensor::dims: s.ints(r); break;
        default: r.skip();
        }
    }
}

void attribute(Sum& s, pbf_reader r) {
    using A = P::Attribute;
    while (r.next()) {
        switch (r.tag()) {
        case +A::name:
        case +A::s:
        case +A::doc_string:
        case +A::ref_attr_name:
        case +A::strings: s.str(r); break;
        case +A::f: s.f32(r); break;
        case +A::i:
        case +A::type: s.num(r); break;
        case +A::floats: s.floats(r); break;
        case +A::ints: s.ints(r); break;
        case +A::t:
        case +A::tensors: tensor(s, r.get_message()); break;
        case +A::g:
        case +A::graphs: graph(s, r.get_message()); break;
        case +A::tp:
        case +A::type_protos: type(s, r.get_message()); break;
        case +A::sparse_tensor:
        case +A::sparse_tensors: sparse_tensor(s, r.get_message()); break;
        default: r.skip();
        }
    }
}

void node(Sum& s, pbf_reader r) {
    while (r.next()) {
        switch (r.tag()) {
        case +P::Node::input:
        case +P::Node::output:
        case +P::Node::name:
        case +P::Node::op_type:
        case +P::Node::doc_string:
        case +P::Node::domain:
        case +P::Node::overload: s.str(r); break;
        case +P::Node::attribute: attribute(s, r.get_message()); break;
        case +P::Node::metadata_props: entry(s, r.get_message()); break;
        default: r.skip();
        }
    }
}

void graph(Sum& s, pbf_reader r) {
    while (r.next()) {
        switch (r.tag()) {
        case +P::Graph::node: node(s, r.get_message()); break;
        case +P::Graph::name:
        case +P::Graph::doc_string: s.str(r); break;
        case +P::Graph::initializer: tensor(s, r.get_message()); break;
        case +P::Graph::sparse_initializer: sparse_tensor(s, r.get_message()); break;
        case +P::Graph::input:
        case +P::Graph::output:
        case +P::Graph::value_info: value_info(s, r.get_message()); break;
        case +P::Graph::quantization_annotation: {
            pbf_reader q = r.get_message();  // tensor_name = 1, quant_parameter_tensor_names = 2
            while (q.next()) q.tag() == 1 ? s.str(q) : q.tag() == 2 ? entry(s, q.get_message()) : q.skip();
            break;
        }
        case +P::Graph::metadata_props: entry(s, r.get_message()); break;
        default: r.skip();
        }
    }
}

void function(Sum& s, pbf_reader r) {
    using F = P::Function;
    while (r.next()) {
        switch (r.tag()) {
        case +F::name:
        case +F::input:
        case +F::output:
        case +F::attribute:
        case +F::doc_string:
        case +F::domain:
        case +F::overload: s.str(r); break;
        case +F::node: node(s, r.get_message()); break;
        case +F::opset_import: opset(s, r.get_message()); break;
        case +F::attribute_proto: attribute(s, r.get_message()); break;
        case +F::value_info: value_info(s, r.get_message()); break;
        case +F::metadata_props: entry(s, r.get_message()); break;
        default: r.skip();
        }
    }
}

void training_info(Sum& s, pbf_reader r) {
    using T = P::TrainingInfo;
    while (r.next()) {
        switch (r.tag()) {
        case +T::initialization:
        case +T::algorithm: graph(s, r.get_message()); break;
        case +T::initialization_binding:
        case +T::update_binding: entry(s, r.get_message()); break;
        default: r.skip();
        }
    }
}

}  // namespace

uint64_t protozero_walk(const char* data, size_t size) {
    Sum s;
    pbf_reader r(data, size);
    while (r.next()) {
        switch (r.tag()) {
        case +P::Model::ir_version:
        case +P::Model::model_version: s.num(r); break;
        case +P::Model::producer_name:
        case +P::Model::producer_version:
        case +P::Model::domain:
        case +P::Model::doc_string: s.str(r); break;
        case +P::Model::graph: graph(s, r.get_message()); break;
        case +P::Model::opset_import: opset(s, r.get_message()); break;
        case +P::Model::metadata_props: entry(s, r.get_message()); break;
        case +P::Model::training_info: training_info(s, r.get_message()); break;
        case +P::Model::functions: function(s, r.get_message()); break;
        default: r.skip();
        }
    }
    return s.v;
}

}  // namespace gauntlet::bench
