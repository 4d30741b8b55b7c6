// Graph of .ort into the Graph of the model (spec section 4's input): the NodeArgs (every
// value's declaration, names unique) become the inputs and outputs the graph names and,
// for the rest, value_info; every value the graph defines or names as an input or output
// must have a NodeArg (node inputs may read outer values, which have none here: they are
// checked by resolution, as for .onnx).
// Initializers, nodes and sparse initializers in file order; then the node graph checks.
#include "core/text.hpp"
#include "io/passed_pages.hpp"
#include "model/value_index.hpp"
#include "ort/context.hpp"
#include "ort/reader.hpp"

#include <vector>

namespace onnximport::detail {

namespace {

using Names = flatbuffers::Vector<flatbuffers::Offset<flatbuffers::String>>;

/// The graph's NodeArgs as ValueInfos, and a name -> NodeArg table over them.
class NodeArgs {
public:
    NodeArgs(OrtContext& c, const fb::Graph* fg) : c_(c) {
        const auto* v = fg->node_args();
        const uint32_t n = size_of(v);
        infos_ = ListAccess::make_array<ValueInfo>(c.arena, n);
        used_.assign(n, false);
        slots_.resize(NameIndex<ValueInfo>::slots_for(n));
        index_.attach(slots_.data(), slots_.size(), infos_, c.storage.hash_key);
        for (uint32_t i = 0; i < n; ++i) read(element(c, v, i, "node_args"), i);
        count_ = n;
    }

    /// The NodeArg named `name`; refused when there is none.
    uint32_t find(std::string_view name, const void* at, std::string_view what) const {
        const uint32_t i = index_.find(name);
        if (i == NameIndex<ValueInfo>::npos)
            c_.invalid(at, std::string(what) + " " + quoted(name, '\'') + " has no NodeArg in node_args");
        return i;
    }

    /// Graph inputs or outputs: copies of their NodeArgs, which leave value_info.
    void take(const Names* names, std::string_view field, List<ValueInfo>& out) {
        ListAccess::reserve(c_.arena, out, size_of(names));
        for (uint32_t i = 0; i < size_of(names); ++i) {
            const flatbuffers::String* s = element(c_, names, i, field);
            PathScope at(c_.path, field, i);
            const uint32_t k = find(text_of(s), s, "graph value");
            used_[k] = true;
            ListAccess::push_back(c_.arena, out, infos_[k]);
        }
    }

    /// The NodeArgs that are neither inputs nor outputs, in file order.
    void rest(List<ValueInfo>& out) const {
        for (uint32_t i = 0; i < count_; ++i)
            if (!used_[i]) ListAccess::push_back(c_.arena, out, infos_[i]);
    }

private:
    void read(const fb::ValueInfo* fv, uint32_t i) {
        PathScope at(c_.path, "node_args", i);
        ValueInfo& v = infos_[i];
        v.name = text_of(fv->name());
        v.offset = c_.offset_of_object(fv);
        if (const std::string_view doc = text_of(fv->doc_string()); !doc.empty())
            ModelAccess::fields_in(c_.arena, v).doc_string = doc;
        if (fv->type()) {
            PathScope at_type(c_.path, "type");
            read_ort_type(c_, fv->type(), v.type);
        }
        if (!index_.try_emplace(v.name, i).second)
            c_.invalid(fv, "NodeArg " + quoted(v.name, '\'') + " is declared twice", "name");
    }

    OrtContext& c_;
    ValueInfo* infos_ = nullptr;
    uint32_t count_ = 0;
    std::vector<bool> used_;
    std::vector<NameIndex<ValueInfo>::Slot> slots_;
    NameIndex<ValueInfo> index_;
};

void read_initializers(OrtContext& c, const fb::Graph* fg, Graph& g) {
    const auto* v = fg->initializers();
    ListAccess::view(g.initializers, ListAccess::make_array<TensorView>(c.arena, size_of(v)), size_of(v));
    PassedPages pages(c.storage.input);  // as in verification (verify.cpp)
    for (uint32_t i = 0; i < size_of(v); ++i) {
        const fb::Tensor* ft = element(c, v, i, "initializers");
        PathScope at(c.path, "initializers", i);
        read_ort_tensor(c, ft, g.initializers[i]);
        const auto [lo, hi] = extent_of(ft);
        pages.passed(lo, hi);
    }
    const auto* s = fg->sparse_initializers();
    ListAccess::view(g.sparse_initializers, ListAccess::make_array<SparseTensor>(c.arena, size_of(s)), size_of(s));
    for (uint32_t i = 0; i < size_of(s); ++i) {
        const fb::SparseTensor* fs = element(c, s, i, "sparse_initializers");
        PathScope at(c.path, "sparse_initializers", i);
        read_ort_sparse_tensor(c, fs, g.sparse_initializers[i]);
    }
}

/// Every non-empty name of `names` has a NodeArg (empty: an omitted optional output).
void check_defined(const OrtContext& c, const NodeArgs& args, const Names* names, std::string_view field) {
    for (uint32_t i = 0; i < size_of(names); ++i) {
        const flatbuffers::String* s = element(c, names, i, field);
        if (s->size()) args.find(text_of(s), s, "node output");
    }
}

void read_nodes(OrtContext& c, const fb::Graph* fg, Graph& g, const NodeArgs& args) {
    const auto* v = fg->nodes();
    ListAccess::view(g.nodes, ListAccess::make_array<Node>(c.arena, size_of(v)), size_of(v));
    for (uint32_t i = 0; i < size_of(v); ++i) {
        const fb::Node* fn = element(c, v, i, "nodes");
        PathScope at(c.path, "nodes", i);
        Node& n = g.nodes[i];
        read_ort_node(c, fn, n);
        check_defined(c, args, fn->outputs(), "outputs");
        ModelAccess::node_input_count(g) += n.inputs.size();
        ModelAccess::node_output_count(g) += n.outputs.size();
    }
}

}  // namespace

void read_ort_graph(OrtContext& c, const fb::Graph* fg, Graph& g) {
    g.offset = c.offset_of_object(fg);
    NodeArgs args(c, fg);
    args.take(fg->inputs(), "inputs", g.inputs);
    args.take(fg->outputs(), "outputs", g.outputs);
    args.rest(g.value_info);
    read_initializers(c, fg, g);
    read_nodes(c, fg, g, args);
    check_ort_node_graph(c, fg);
}

}  // namespace onnximport::detail
