// Hostile .ort cases of shared objects: a FlatBuffers offset may point at any object, so
// many entries can reach one tensor, list or subgraph. A reader that reads per reference
// grows with the references, not with the file; this one bounds its work by the file's
// size (docs/rules.md O15) and refuses such files quickly. And a file valid beyond ONNX
// Runtime's table cap, which this reader accepts by default (O2).
#include "corpus.hpp"

#include <ort_builder.hpp>

#include <string>
#include <vector>

namespace hostile {

namespace {

namespace ofb = onnximport::ortfb;
using FB = flatbuffers::FlatBufferBuilder;
template <class T>
using Offsets = std::vector<flatbuffers::Offset<T>>;

constexpr Rule budget{"O15", "ort"};
constexpr Rule no_table_cap{"O2", "ort"};
constexpr Rule node_args{"O10", "ort"};

// Every builder call is a statement of its own: the order in which a function's arguments
// are evaluated differs between compilers, and with it the bytes of the corpus.

std::string bytes_of(const FB& fbb) {
    return {reinterpret_cast<const char*>(fbb.GetBufferPointer()), fbb.GetSize()};
}

/// InferenceSession "6" > Model (ir 8, opset ai.onnx 21) > graph.
std::string finish(FB& fbb, flatbuffers::Offset<ofb::Graph> graph) {
    const auto domain = fbb.CreateString("");
    const Offsets<ofb::OperatorSetId> opsets{ofb::CreateOperatorSetId(fbb, domain, 21)};
    const auto opset_vector = fbb.CreateVector(opsets);
    const auto model = ofb::CreateModel(fbb, 8, opset_vector, 0, 0, 0, 0, 0, graph);
    const auto version = fbb.CreateString("6");
    fbb.Finish(ofb::CreateInferenceSession(fbb, version, model), ofb::InferenceSessionIdentifier());
    return bytes_of(fbb);
}

// ONNX Runtime reads every NodeArg's type before the nodes, and every name vector of a node,
// and stops at one that is missing: the cases carry them, so that its reader reaches what they
// share (docs/matrix.md, "Memory").

/// One FLOAT tensor type, for every NodeArg of a case.
flatbuffers::Offset<ofb::TypeInfo> float_type(FB& fbb) {
    const auto tensor_type = ofb::CreateTensorTypeAndShape(fbb, 1);
    return ofb::CreateTypeInfo(fbb, 0, ofb::TypeInfoValue::tensor_type, tensor_type.Union());
}

using Names = flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<flatbuffers::String>>>;

/// What the nodes of a case share: input_arg_counts (one formal input of `input_count` names)
/// and empty implicit_inputs, written once as a writer that shares vectors writes them.
struct NodeLists {
    flatbuffers::Offset<flatbuffers::Vector<int32_t>> counts;
    Names implicit;
};

NodeLists node_lists(FB& fbb, int32_t input_count) {
    const auto counts = fbb.CreateVector(std::vector<int32_t>{input_count});
    const auto implicit = fbb.CreateVector(std::vector<flatbuffers::Offset<flatbuffers::String>>{});
    return {counts, implicit};
}

flatbuffers::Offset<ofb::Node> node(FB& fbb, const NodeLists& lists, uint32_t index,
                                    flatbuffers::Offset<flatbuffers::String> op, Names inputs, Names outputs,
                                    flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<ofb::Attribute>>>
                                        attributes = 0) {
    return ofb::CreateNode(fbb, 0, 0, 0, 0, index, op, 0, 0, inputs, outputs, attributes, lists.counts,
                           lists.implicit);
}

/// A graph X -> Y of one node `op` with `attributes`.
flatbuffers::Offset<ofb::Graph> one_node(FB& fbb, std::string_view op_type, const Offsets<ofb::Attribute>& attributes) {
    const auto x = fbb.CreateString("X");
    const auto y = fbb.CreateString("Y");
    const auto type = float_type(fbb);
    const auto vx = ofb::CreateValueInfo(fbb, x, 0, type);
    const auto vy = ofb::CreateValueInfo(fbb, y, 0, type);
    const auto args = fbb.CreateVector(Offsets<ofb::ValueInfo>{vx, vy});
    const auto op = fbb.CreateString(op_type);
    const auto xs = fbb.CreateVector(std::vector{x});
    const auto ys = fbb.CreateVector(std::vector{y});
    const auto attribute_vector = fbb.CreateVector(attributes);
    const NodeLists lists = node_lists(fbb, 1);
    const auto one = node(fbb, lists, 0, op, xs, ys, attribute_vector);
    const auto nodes = fbb.CreateVector(Offsets<ofb::Node>{one});
    return ofb::CreateGraph(fbb, 0, args, nodes, 1, 0, xs, ys);
}

std::string tensor_shared_by_attributes() {
    FB fbb;
    const auto tensor_name = fbb.CreateString(std::string(1 << 20, 'n'));
    const auto dims = fbb.CreateVector(std::vector<int64_t>{});
    const auto raw = fbb.CreateVector(std::vector<uint8_t>(4, 0));
    const auto tensor = ofb::CreateTensor(fbb, tensor_name, 0, dims, 1, raw);
    const auto name = fbb.CreateString("t");
    const Offsets<ofb::Attribute> attributes(16'384, ofb::CreateAttribute(fbb, name, 0, 4, 0, 0, 0, tensor));
    const auto graph = one_node(fbb, "Identity", attributes);
    return finish(fbb, graph);
}

/// One FLOAT tensor's raw_data held by many differently named attributes of one node: a reader
/// that copies each attribute's tensor grows with the references (its sizes: docs/performance.md,
/// "Sizes the tests rely on"); the walk charges the bytes at each reference, as it would copy
/// them (rule O15).
std::string raw_tensor_shared_by_attributes() {
    FB fbb;
    const auto dims = fbb.CreateVector(std::vector<int64_t>{1 << 18});
    const auto raw = fbb.CreateVector(std::vector<uint8_t>(1 << 20, 0));
    const auto tensor_name = fbb.CreateString("w");
    const auto tensor = ofb::CreateTensor(fbb, tensor_name, 0, dims, 1, raw);
    Offsets<ofb::Attribute> attributes;
    for (int i = 0; i < 16'384; ++i) {
        const auto name = fbb.CreateString("t" + std::to_string(i));
        attributes.push_back(ofb::CreateAttribute(fbb, name, 0, 4, 0, 0, 0, tensor));
    }
    const auto graph = one_node(fbb, "Identity", attributes);
    return finish(fbb, graph);
}

/// One FLOAT attribute with a long name, the same table in every entry of a node's attributes:
/// the reader copies a scalar attribute it has read (docs/ort.md, "Shared tables"), and each
/// copy must still be charged (rule O15) for the file to be refused.
std::string scalar_attribute_shared() {
    FB fbb;
    const auto name = fbb.CreateString(std::string(1 << 20, 'a'));
    const Offsets<ofb::Attribute> attributes(16'384, ofb::CreateAttribute(fbb, name, 0, 1, 0.5f));
    const auto graph = one_node(fbb, "Identity", attributes);
    return finish(fbb, graph);
}

/// One TypeInfo with a long denotation, the type of every NodeArg: copied after the first
/// read, each copy charged as the attribute's above.
std::string type_shared_by_node_args() {
    FB fbb;
    const auto denotation = fbb.CreateString(std::string(1 << 20, 'd'));
    const auto tensor = ofb::CreateTensorTypeAndShape(fbb, 1);
    const auto type = ofb::CreateTypeInfo(fbb, denotation, ofb::TypeInfoValue::tensor_type, tensor.Union());
    Offsets<ofb::ValueInfo> args;
    for (int i = 0; i < 16'384; ++i) {
        const auto arg_name = fbb.CreateString("v" + std::to_string(i));
        args.push_back(ofb::CreateValueInfo(fbb, arg_name, 0, type));
    }
    const auto arg_vector = fbb.CreateVector(args);
    const auto graph = ofb::CreateGraph(fbb, 0, arg_vector);
    return finish(fbb, graph);
}

std::string ints_shared_by_attributes() {
    FB fbb;
    const auto ints = fbb.CreateVector(std::vector<int64_t>(1 << 18, 7));
    const auto name = fbb.CreateString("ints");
    Offsets<ofb::Attribute> attributes;
    for (int i = 0; i < 8'192; ++i)  // distinct attributes, one list
        attributes.push_back(ofb::CreateAttribute(fbb, name, 0, 7, 0, 0, 0, 0, 0, 0, ints));
    const auto graph = one_node(fbb, "Identity", attributes);
    return finish(fbb, graph);
}

std::string inputs_shared_by_nodes() {
    FB fbb;
    const auto x = fbb.CreateString("X");
    const auto y = fbb.CreateString("Y");
    const auto inputs = fbb.CreateVector(std::vector(50'000, x));
    const auto none = fbb.CreateVector(std::vector<flatbuffers::Offset<flatbuffers::String>>{});
    const auto op = fbb.CreateString("Sum");
    Offsets<ofb::Node> nodes;
    const NodeLists lists = node_lists(fbb, 50'000);
    for (uint32_t i = 0; i < 20'000; ++i) nodes.push_back(node(fbb, lists, i, op, inputs, none));
    const auto type = float_type(fbb);
    const auto vx = ofb::CreateValueInfo(fbb, x, 0, type);
    const auto vy = ofb::CreateValueInfo(fbb, y, 0, type);
    const auto args = fbb.CreateVector(Offsets<ofb::ValueInfo>{vx, vy});
    const auto node_vector = fbb.CreateVector(nodes);
    const auto xs = fbb.CreateVector(std::vector{x});
    const auto ys = fbb.CreateVector(std::vector{y});
    const auto graph = ofb::CreateGraph(fbb, 0, args, node_vector, 20'000, 0, xs, ys);
    return finish(fbb, graph);
}

/// 60,000 nodes reading v, which node 0 writes; every NodeEdge lists one vector of
/// 200,000 valid edges from node 0.
std::string edges_shared_by_node_edges() {
    FB fbb;
    const auto v = fbb.CreateString("v");
    const auto reads = fbb.CreateVector(std::vector{v});
    const auto none = fbb.CreateVector(std::vector<flatbuffers::Offset<flatbuffers::String>>{});
    const auto op = fbb.CreateString("Identity");
    const NodeLists lists = node_lists(fbb, 1);
    Offsets<ofb::Node> nodes{node(fbb, lists, 0, op, reads, reads)};
    for (uint32_t i = 1; i < 60'000; ++i) nodes.push_back(node(fbb, lists, i, op, reads, none));
    const auto edges = fbb.CreateVectorOfStructs(std::vector<ofb::EdgeEnd>(200'000, ofb::EdgeEnd(0, 0, 0)));
    Offsets<ofb::NodeEdge> node_edges;
    for (uint32_t i = 0; i < 60'000; ++i) node_edges.push_back(ofb::CreateNodeEdge(fbb, i, edges));
    const auto type = float_type(fbb);
    const auto arg = ofb::CreateValueInfo(fbb, v, 0, type);
    const auto args = fbb.CreateVector(Offsets<ofb::ValueInfo>{arg});
    const auto node_vector = fbb.CreateVector(nodes);
    const auto edge_vector = fbb.CreateVector(node_edges);
    const auto graph = ofb::CreateGraph(fbb, 0, args, node_vector, 60'000, edge_vector);
    return finish(fbb, graph);
}

/// Graph k has one node whose two attributes both hold graph k-1: 2^40 graphs by reference.
std::string diamond_of_subgraphs() {
    FB fbb;
    auto inner = ofb::CreateGraph(fbb);
    const auto then_name = fbb.CreateString("then_branch");
    const auto else_name = fbb.CreateString("else_branch");
    const auto op = fbb.CreateString("If");
    for (int level = 0; level < 40; ++level) {
        const auto then_branch = ofb::CreateAttribute(fbb, then_name, 0, 5, 0, 0, 0, 0, inner);
        const auto else_branch = ofb::CreateAttribute(fbb, else_name, 0, 5, 0, 0, 0, 0, inner);
        const auto both = fbb.CreateVector(Offsets<ofb::Attribute>{then_branch, else_branch});
        const auto node = ofb::CreateNode(fbb, 0, 0, 0, 0, 0, op, 0, 0, 0, 0, both);
        const auto nodes = fbb.CreateVector(Offsets<ofb::Node>{node});
        inner = ofb::CreateGraph(fbb, 0, 0, nodes, 1);
    }
    return finish(fbb, inner);
}

/// 1,000,001 distinct NodeArgs besides X and Y: valid, beyond ONNX Runtime's 1,000,000 tables.
std::string over_a_million_tables() {
    FB fbb(40u << 20);
    const auto x = fbb.CreateString("X");
    const auto y = fbb.CreateString("Y");
    Offsets<ofb::ValueInfo> args{ofb::CreateValueInfo(fbb, x), ofb::CreateValueInfo(fbb, y)};
    for (int i = 0; i < 1'000'001; ++i) {
        const auto name = fbb.CreateString("v" + std::to_string(i));
        args.push_back(ofb::CreateValueInfo(fbb, name));
    }
    const auto arg_vector = fbb.CreateVector(args);
    const auto op = fbb.CreateString("Relu");
    const auto xs = fbb.CreateVector(std::vector{x});
    const auto ys = fbb.CreateVector(std::vector{y});
    const auto node = ofb::CreateNode(fbb, 0, 0, 0, 0, 0, op, 0, 0, xs, ys);
    const auto nodes = fbb.CreateVector(Offsets<ofb::Node>{node});
    const auto graph = ofb::CreateGraph(fbb, 0, arg_vector, nodes, 1, 0, xs, ys);
    return finish(fbb, graph);
}

/// 1,000,001 entries of node_args all pointing at one ValueInfo: a NodeArg declared twice.
std::string one_nodearg_a_million_times() {
    FB fbb;
    const auto x = fbb.CreateString("X");
    const auto vi = ofb::CreateValueInfo(fbb, x);
    const auto args = fbb.CreateVector(Offsets<ofb::ValueInfo>(1'000'001, vi));
    const auto graph = ofb::CreateGraph(fbb, 0, args);
    return finish(fbb, graph);
}

}  // namespace

void add_ort_shared_cases(Corpus& c) {
    const std::string why = ": the walk's work would exceed 16 times the file, refused before it grows";
    c.refuse("Unsupported", "ort-shared-tensor-1mib-name.ort", budget,
             "one tensor with a 1 MiB name held by 16,384 attributes" + why, tensor_shared_by_attributes());
    c.refuse("Unsupported", "ort-shared-raw-tensor-1mib.ort", budget,
             "one tensor of 1 MiB of raw_data held by 16,384 attributes" + why, raw_tensor_shared_by_attributes());
    c.refuse("Unsupported", "ort-shared-scalar-attribute.ort", budget,
             "one FLOAT attribute with a 1 MiB name held 16,384 times" + why, scalar_attribute_shared());
    c.refuse("Unsupported", "ort-shared-type-1mib-denotation.ort", budget,
             "one type with a 1 MiB denotation held by 16,384 NodeArgs" + why, type_shared_by_node_args());
    c.refuse("Unsupported", "ort-shared-ints-list.ort", budget,
             "one 2 MiB ints list held by 8,192 attributes" + why, ints_shared_by_attributes());
    c.refuse("Unsupported", "ort-shared-node-inputs.ort", budget,
             "one inputs vector of 50,000 names held by 20,000 nodes" + why, inputs_shared_by_nodes());
    c.refuse("Unsupported", "ort-shared-input-edges.ort", budget,
             "one vector of 200,000 valid edges held by 60,000 NodeEdges" + why, edges_shared_by_node_edges())
        .generated_only = true;  // 7 MB
    c.refuse("Unsupported", "ort-diamond-of-subgraphs.ort", budget,
             "each of 40 levels holds the level below twice: 2^40 graphs by reference" + why, diamond_of_subgraphs());
    c.refuse("InvalidModel", "ort-one-nodearg-a-million-times.ort", node_args,
             "1,000,001 references to one ValueInfo: NodeArg X is declared twice", one_nodearg_a_million_times())
        .generated_only = true;  // 4 MB
    c.accept("ort-tables-over-a-million.ort", no_table_cap,
             "1,000,003 NodeArgs: valid; ONNX Runtime's Verifier caps tables at 1,000,000 by default, this reader "
             "bounds its work by the file's size instead",
             over_a_million_tables(), {{"node_count", 1}})
        .generated_only = true;  // 40 MB
}

}  // namespace hostile
