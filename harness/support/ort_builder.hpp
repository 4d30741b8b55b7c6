// A builder of .ort buffers for tests, the hostile corpus and fuzz seeds: a plain
// description of a model (OrtModelSpec, every field a test may change) turned into bytes
// by FlatBuffers' generated builder of importer/schema/ort.fbs, plus the byte-level edits
// a builder cannot make (zero offsets, a vtable placed after its table). The kernel
// type-string resolver is the writer's (write/ort/put_resolver.hpp), so that ONNX Runtime's
// kernel look-up reaches the model (docs/ort.md, "The kernel type-string resolver").
#pragma once

#include <ort_generated.h>
#include <write/ort/put_resolver.hpp>

#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace onnximport::testing {

namespace ortfb = ::onnximport::ortfb;

struct OrtGraphSpec;

struct OrtTensorSpec {
    std::string name{};
    int32_t data_type = 1;
    std::vector<int64_t> dims{};
    std::optional<std::vector<uint8_t>> raw{};   ///< absent: no raw_data field
    std::vector<std::string> strings{};
    int64_t external_data_offset = -1;
    /// A field of a newer schema (id 7, int64): must be skipped.
    bool unknown_trailing_field = false;
};

struct OrtAttributeSpec {
    std::string name{};
    int32_t type = 2;  ///< INT
    float f = 0;
    int64_t i = 0;
    std::optional<std::string> s{};
    std::vector<int64_t> ints{};
    std::vector<float> floats{};
    std::vector<std::string> strings{};
    std::shared_ptr<OrtTensorSpec> t{};
    std::shared_ptr<OrtGraphSpec> g{};
    std::vector<OrtTensorSpec> tensors{};
};

struct OrtNodeSpec {
    std::string name{};
    std::string op_type = "Relu";
    std::string domain{};
    uint32_t index = 0;
    int32_t type = 0;
    std::vector<std::string> inputs{};
    std::vector<std::string> outputs{};
    std::vector<std::string> implicit_inputs{};
    std::vector<OrtAttributeSpec> attributes{};
    std::optional<std::vector<int32_t>> input_arg_counts{};  ///< absent: one per input
};

struct OrtValueSpec {
    std::string name{};
    uint8_t tag = 1;  ///< TypeInfoValue: tensor_type (0: no TypeInfo at all)
    int32_t elem_type = 1;
    std::optional<std::vector<int64_t>> dims = std::vector<int64_t>{2};  ///< absent: unknown rank
    int8_t dim_kind = 1;  ///< of every dimension: VALUE
};

struct OrtEdgeSpec {
    uint32_t node_index = 0;  ///< the NodeEdge's node
    bool output = true;       ///< an output edge (else an input edge)
    uint32_t other = 0;       ///< the node at the other end
    int32_t src_arg = 0, dst_arg = 0;
};

struct OrtGraphSpec {
    std::vector<OrtValueSpec> node_args{};
    std::vector<std::string> inputs{}, outputs{};
    std::vector<OrtTensorSpec> initializers{};
    std::vector<OrtNodeSpec> nodes{};
    std::optional<uint32_t> max_node_index{};  ///< absent: the node count
    std::vector<OrtEdgeSpec> edges{};
};

struct OrtModelSpec {
    std::optional<std::string> ort_version = std::string("6");
    bool has_model = true;
    int64_t ir_version = 8;
    std::vector<std::pair<std::string, int64_t>> opsets = {{"", 17}};
    std::string producer_name = "ort-builder";
    int64_t model_version = 0;
    std::vector<std::pair<std::string, std::string>> metadata{};  ///< Model.metadata_props, key and value
    bool has_graph = true;
    OrtGraphSpec graph{};
    /// Every string written once per content (FlatBuffers' CreateSharedString), as our writer
    /// and ONNX Runtime's place names: equal names are then one string of the buffer.
    bool share_strings = false;
    /// The kernel type-string resolver for the nodes' operators (absent: ONNX Runtime refuses
    /// the model at its kernel look-up, "Failed to find op_id").
    bool kernel_resolver = true;
};

/// X -> Relu -> Y, both FLOAT [2], and an initializer W (FLOAT [2], unused).
inline OrtModelSpec relu_model() {
    OrtModelSpec m;
    m.graph.node_args = {{"X"}, {"Y"}, {"W"}};
    m.graph.inputs = {"X"};
    m.graph.outputs = {"Y"};
    m.graph.initializers = {
        {.name = "W", .data_type = 1, .dims = {2}, .raw = std::vector<uint8_t>{0, 0, 128, 63, 0, 0, 0, 64}}};
    m.graph.nodes = {{.name = "relu", .index = 0, .inputs = {"X"}, .outputs = {"Y"}}};
    return m;
}

/// X -> Relu(a) -> T -> Relu(b) -> Y, with the edge between them.
inline OrtModelSpec chain_model() {
    OrtModelSpec m = relu_model();
    m.graph.node_args = {{"X"}, {"T"}, {"Y"}};
    m.graph.initializers.clear();
    m.graph.nodes = {{.name = "a", .index = 0, .inputs = {"X"}, .outputs = {"T"}},
                     {.name = "b", .index = 1, .inputs = {"T"}, .outputs = {"Y"}}};
    m.graph.edges = {{0, true, 1, 0, 0}, {1, false, 0, 0, 0}};
    return m;
}

class OrtBuilder {
public:
    std::vector<uint8_t> build(const OrtModelSpec& m) {
        share_strings_ = m.share_strings;
        opsets_ = &m.opsets;
        flatbuffers::Offset<ortfb::Model> model;
        if (m.has_model) model = build_model(m);
        flatbuffers::Offset<ortfb::KernelTypeStrResolver> resolver;
        if (m.has_model && m.kernel_resolver) resolver = onnximport::detail::put_resolver(fbb_, operators_);
        auto version = m.ort_version ? fbb_.CreateString(*m.ort_version) : flatbuffers::Offset<flatbuffers::String>();
        ortfb::InferenceSessionBuilder s(fbb_);
        if (m.ort_version) s.add_ort_version(version);
        if (m.has_model) s.add_model(model);
        if (!resolver.IsNull()) s.add_kernel_type_str_resolver(resolver);
        fbb_.Finish(s.Finish(), ortfb::InferenceSessionIdentifier());
        return {fbb_.GetBufferPointer(), fbb_.GetBufferPointer() + fbb_.GetSize()};
    }

private:
    using Str = flatbuffers::Offset<flatbuffers::String>;
    flatbuffers::FlatBufferBuilder fbb_;
    bool share_strings_ = false;
    const std::vector<std::pair<std::string, int64_t>>* opsets_ = nullptr;
    /// The operator versions the nodes were written as, by op_id (sorted: FlatBuffers key order).
    std::map<std::string, const onnximport::detail::OpSignature*> operators_;

    /// The opset the model imports for `domain` ("" and "ai.onnx" alike), or 0.
    int64_t opset_of(std::string_view domain) const {
        const auto plain = [](std::string_view d) { return d == "ai.onnx" ? std::string_view() : d; };
        for (const auto& [d, v] : *opsets_)
            if (plain(d) == plain(domain)) return v;
        return 0;
    }

    /// The operator's version at the model's opset, as ONNX Runtime keys its kernels (noted for
    /// the resolver); an operator the table lacks is written at the opset itself.
    int32_t since_version(const OrtNodeSpec& n) {
        const int64_t opset = opset_of(n.domain);
        const auto* op = onnximport::detail::find_op_signature(n.domain, n.op_type, opset);
        if (!op) return static_cast<int32_t>(opset);
        operators_.emplace(op->op_id(), op);
        return op->since_version;
    }

    Str str(const std::string& s) { return share_strings_ ? fbb_.CreateSharedString(s) : fbb_.CreateString(s); }
    flatbuffers::Offset<flatbuffers::Vector<Str>> strs(const std::vector<std::string>& v) {
        std::vector<Str> o;
        for (const auto& s : v) o.push_back(str(s));
        return fbb_.CreateVector(o);
    }

    flatbuffers::Offset<ortfb::Model> build_model(const OrtModelSpec& m) {
        flatbuffers::Offset<ortfb::Graph> graph;
        if (m.has_graph) graph = build_graph(m.graph);
        std::vector<flatbuffers::Offset<ortfb::OperatorSetId>> opsets;
        for (const auto& [d, v] : m.opsets) {
            auto domain = str(d);
            opsets.push_back(ortfb::CreateOperatorSetId(fbb_, domain, v));
        }
        auto ov = fbb_.CreateVector(opsets);
        auto producer = str(m.producer_name);
        std::vector<flatbuffers::Offset<ortfb::StringStringEntry>> entries;
        for (const auto& [k, v] : m.metadata) {
            auto key = str(k);
            auto value = str(v);
            entries.push_back(ortfb::CreateStringStringEntry(fbb_, key, value));
        }
        auto metadata = m.metadata.empty() ? flatbuffers::Offset<flatbuffers::Vector<
                                                 flatbuffers::Offset<ortfb::StringStringEntry>>>()
                                           : fbb_.CreateVector(entries);
        ortfb::ModelBuilder b(fbb_);
        b.add_ir_version(m.ir_version);
        b.add_opset_import(ov);
        b.add_producer_name(producer);
        b.add_model_version(m.model_version);
        if (!m.metadata.empty()) b.add_metadata_props(metadata);
        if (m.has_graph) b.add_graph(graph);
        return b.Finish();
    }

    flatbuffers::Offset<ortfb::TypeInfo> type(const OrtValueSpec& v) {
        flatbuffers::Offset<ortfb::Shape> shape;
        if (v.dims) {
            std::vector<flatbuffers::Offset<ortfb::Dimension>> dims;
            for (int64_t d : *v.dims) {
                auto value = ortfb::CreateDimensionValue(fbb_, v.dim_kind, d);
                dims.push_back(ortfb::CreateDimension(fbb_, value));
            }
            auto dim_vector = fbb_.CreateVector(dims);
            shape = ortfb::CreateShape(fbb_, dim_vector);
        }
        auto tt = ortfb::CreateTensorTypeAndShape(fbb_, v.elem_type, shape);
        return ortfb::CreateTypeInfo(fbb_, 0, static_cast<ortfb::TypeInfoValue>(v.tag), tt.Union());
    }

    flatbuffers::Offset<ortfb::Tensor> tensor(const OrtTensorSpec& t) {
        auto name = str(t.name);
        auto dims = fbb_.CreateVector(t.dims);
        flatbuffers::Offset<flatbuffers::Vector<uint8_t>> raw;
        if (t.raw) raw = fbb_.CreateVector(*t.raw);
        auto strings = t.strings.empty() ? flatbuffers::Offset<flatbuffers::Vector<Str>>() : strs(t.strings);
        ortfb::TensorBuilder b(fbb_);
        b.add_name(name);
        b.add_dims(dims);
        b.add_data_type(t.data_type);
        if (t.raw) b.add_raw_data(raw);
        if (!t.strings.empty()) b.add_string_data(strings);
        b.add_external_data_offset(t.external_data_offset);
        if (t.unknown_trailing_field) fbb_.AddElement<int64_t>(4 + 2 * 7, 0x1234, 0);
        return b.Finish();
    }

    flatbuffers::Offset<ortfb::Attribute> attribute(const OrtAttributeSpec& a) {
        auto name = str(a.name);
        Str s = a.s ? str(*a.s) : Str();
        auto t = a.t ? tensor(*a.t) : flatbuffers::Offset<ortfb::Tensor>();
        auto g = a.g ? build_graph(*a.g) : flatbuffers::Offset<ortfb::Graph>();
        auto ints = a.ints.empty() ? flatbuffers::Offset<flatbuffers::Vector<int64_t>>() : fbb_.CreateVector(a.ints);
        auto floats =
            a.floats.empty() ? flatbuffers::Offset<flatbuffers::Vector<float>>() : fbb_.CreateVector(a.floats);
        auto strings = a.strings.empty() ? flatbuffers::Offset<flatbuffers::Vector<Str>>() : strs(a.strings);
        std::vector<flatbuffers::Offset<ortfb::Tensor>> tensor_list;
        for (const auto& each : a.tensors) tensor_list.push_back(tensor(each));
        using TensorVector = decltype(fbb_.CreateVector(tensor_list));
        auto tensors = tensor_list.empty() ? TensorVector() : fbb_.CreateVector(tensor_list);
        return ortfb::CreateAttribute(fbb_, name, 0, a.type, a.f, a.i, s, t, g, floats, ints, strings, tensors);
    }

    flatbuffers::Offset<ortfb::Node> node(const OrtNodeSpec& n) {
        std::vector<flatbuffers::Offset<ortfb::Attribute>> attrs;
        for (const auto& a : n.attributes) attrs.push_back(attribute(a));
        std::vector<int32_t> counts =
            n.input_arg_counts ? *n.input_arg_counts : std::vector<int32_t>(n.inputs.size(), 1);
        // Each part made in its own statement: the order of function arguments' evaluation
        // is the compiler's, and the buffer's bytes must not depend on it.
        auto implicit = strs(n.implicit_inputs);
        auto count_vector = fbb_.CreateVector(counts);
        auto attr_vector = fbb_.CreateVector(attrs);
        auto outputs = strs(n.outputs);
        auto inputs = strs(n.inputs);
        auto op_type = str(n.op_type);
        auto domain = str(n.domain);
        auto name = str(n.name);
        return ortfb::CreateNode(fbb_, name, 0, domain, since_version(n), n.index, op_type, n.type, 0, inputs, outputs,
                                 attr_vector, count_vector, implicit);
    }

    flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<ortfb::NodeEdge>>> edges(const OrtGraphSpec& g) {
        std::vector<flatbuffers::Offset<ortfb::NodeEdge>> out;
        for (const auto& e : g.edges) {
            std::vector<ortfb::EdgeEnd> ends{ortfb::EdgeEnd(e.other, e.src_arg, e.dst_arg)};
            std::vector<ortfb::EdgeEnd> none;
            auto in = fbb_.CreateVectorOfStructs(e.output ? none : ends);
            auto outs = fbb_.CreateVectorOfStructs(e.output ? ends : none);
            out.push_back(ortfb::CreateNodeEdge(fbb_, e.node_index, in, outs));
        }
        return fbb_.CreateVector(out);
    }

    flatbuffers::Offset<ortfb::Graph> build_graph(const OrtGraphSpec& g) {
        std::vector<flatbuffers::Offset<ortfb::Tensor>> inits;
        for (const auto& t : g.initializers) inits.push_back(tensor(t));
        std::vector<flatbuffers::Offset<ortfb::ValueInfo>> args;
        for (const auto& v : g.node_args) {
            auto type_info = v.tag ? type(v) : flatbuffers::Offset<ortfb::TypeInfo>();
            auto name = str(v.name);
            args.push_back(ortfb::CreateValueInfo(fbb_, name, 0, type_info));
        }
        std::vector<flatbuffers::Offset<ortfb::Node>> nodes;
        for (const auto& n : g.nodes) nodes.push_back(node(n));
        const uint32_t max_index = g.max_node_index ? *g.max_node_index : static_cast<uint32_t>(g.nodes.size());
        auto outputs = strs(g.outputs);
        auto inputs = strs(g.inputs);
        auto edge_vector = edges(g);
        auto node_vector = fbb_.CreateVector(nodes);
        auto arg_vector = fbb_.CreateVector(args);
        auto init_vector = fbb_.CreateVector(inits);
        return ortfb::CreateGraph(fbb_, init_vector, arg_vector, node_vector, max_index, edge_vector, inputs, outputs);
    }
};

inline std::vector<uint8_t> build_ort(const OrtModelSpec& m) { return OrtBuilder().build(m); }

/// The offset of the first occurrence of `text` (a string's bytes) in the buffer, or npos.
inline size_t find_bytes(const std::vector<uint8_t>& b, const std::string& text) {
    for (size_t i = 0; i + text.size() <= b.size(); ++i)
        if (std::memcmp(b.data() + i, text.data(), text.size()) == 0) return i;
    return std::string::npos;
}

/// Moves the root table's vtable to the end of the buffer (a vtable after its table: a
/// negative soffset), as some writers place them.
inline std::vector<uint8_t> with_forward_root_vtable(std::vector<uint8_t> b) {
    uint32_t root;
    std::memcpy(&root, b.data(), 4);
    int32_t soffset;
    std::memcpy(&soffset, b.data() + root, 4);
    const size_t vtable = root - soffset;
    uint16_t vsize;
    std::memcpy(&vsize, b.data() + vtable, 2);
    while (b.size() % 4) b.push_back(0);
    const size_t moved = b.size();
    b.insert(b.end(), b.begin() + static_cast<ptrdiff_t>(vtable), b.begin() + static_cast<ptrdiff_t>(vtable + vsize));
    const int32_t fresh = static_cast<int32_t>(static_cast<int64_t>(root) - static_cast<int64_t>(moved));
    std::memcpy(b.data() + root, &fresh, 4);
    return b;
}

}  // namespace onnximport::testing
