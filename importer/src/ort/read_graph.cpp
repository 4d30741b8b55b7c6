// Graph of .ort into the Graph of the model (spec section 4's input): the NodeArgs (every
// value's declaration, names unique) become the inputs and outputs the graph names and,
// for the rest, value_info; every value the graph defines or names as an input or output
// must have a NodeArg (node inputs may read outer values, which have none here: they are
// checked by resolution, as for .onnx).
// Initializers, nodes and sparse initializers in file order; then the node graph checks.
#include "core/text.hpp"
#include "io/passed_pages.hpp"
#include "model/name_run.hpp"
#include "model/value_index.hpp"
#include "ort/context.hpp"
#include "ort/node_facts.hpp"
#include "ort/reader.hpp"

#include <array>

namespace onnximport::detail {

namespace {

using G = fb::Graph;

/// The graph's NodeArgs as ValueInfos, and a name -> NodeArg table over them.
class NodeArgs {
public:
    NodeArgs(OrtContext& c, const FbTable& fg) : c_(c), used_(&c.scratch), slots_(&c.scratch) {
        const FbVector v = c.fb.vector(fg, G::VT_NODE_ARGS, 4, "node_args");
        infos_ = ListAccess::make_array<ValueInfo>(c.arena, v.count);
        used_.assign(v.count, false);
        slots_.resize(NameIndex<ValueInfo>::slots_for(v.count));
        index_.attach(slots_.data(), slots_.size(), infos_, c.storage.hash_key);
        for (uint32_t i = 0; i < v.count; ++i) read(c.fb.table_at(v, i, "node_args"), i);
        count_ = v.count;
        index_names();
    }

    /// A run of names looked up in order (model/name_run.hpp), answered through `answer`.
    template <class Answer>
    NameRun<ValueInfo, Answer> run(Answer answer) const {
        return {index_, infos_, count_, answer};
    }

    /// Graph inputs or outputs: copies of their NodeArgs, which leave value_info.
    void take(const FbTable& fg, uint16_t vt, std::string_view field, List<ValueInfo>& out) {
        const FbVector names = c_.fb.vector(fg, vt, 4, field);
        ListAccess::reserve(c_.arena, out, names.count);
        auto copy = [&](uint32_t i, std::string_view name, uint32_t k) {
            if (k == NameIndex<ValueInfo>::npos) {
                PathScope at(c_.path, field, i);
                c_.invalid(address_of(name.data()),
                           "graph value " + quoted(name, '\'') + " has no NodeArg in node_args");
            }
            used_[k] = true;
            ListAccess::push_back(c_.arena, out, infos_[k]);
        };
        auto taken = run(copy);
        // string_at names entry i in its refusals, and the answer pushes its own path.
        for (uint32_t i = 0; i < names.count; ++i) taken.add(c_.fb.string_at(names, i, field), i);
        taken.finish();
    }

    /// The NodeArgs that are neither inputs nor outputs, in file order, moved to the front of
    /// their array for `out` to view (no copy). Last: find() no longer works afterwards.
    void rest(List<ValueInfo>& out) {
        uint32_t kept = 0;
        for (uint32_t i = 0; i < count_; ++i)
            if (!used_[i]) infos_[kept++] = infos_[i];
        ListAccess::view(out, infos_, kept);
    }

private:
    void read(const FbTable& fv, uint32_t i) {
        PathScope at(c_.path, "node_args", i);
        Nested nested(c_, fv);
        using V = fb::ValueInfo;
        ValueInfo& v = infos_[i];
        v.name = c_.fb.string(fv, V::VT_NAME, "name");
        v.offset = fv.at;
        if (const std::string_view doc = c_.fb.string(fv, V::VT_DOC_STRING, "doc_string"); !doc.empty())
            ModelAccess::fields_in(c_.arena, v).doc_string = doc;
        if (const FbTable type = c_.fb.table(fv, V::VT_TYPE, "type")) read_type(type, v.type);
    }

    /// A TypeInfo shared with the NodeArg before (docs/ort.md, "Shared tables") is copied
    /// from it: the same bytes at the same depth read the same. Its work is charged again,
    /// so the budget (rule O15) does not depend on the sharing.
    void read_type(const FbTable& type, TypeProto& t) {
        if (type.at == last_type_at_) {
            ModelAccess::copy(last_type_, t);
            c_.fb.charge(last_type_work_, type.at);
            return;
        }
        PathScope at_type(c_.path, "type");
        const uint64_t before = c_.fb.used();
        read_ort_type(c_, type, t);
        last_type_at_ = type.at;
        ModelAccess::copy(t, last_type_);
        last_type_work_ = c_.fb.used() - before;
    }

    /// Names -> NodeArgs, a duplicate refused; each name is hashed and its slot loaded a few
    /// names ahead of its insertion, since in a large graph every insertion is a cache miss
    /// (model/value_index.hpp; the distance of resolution's definitions, which do as little).
    void index_names() {
        constexpr uint32_t ahead = NameIndex<ValueInfo>::define_prefetch_distance;
        std::array<uint64_t, ahead> hashes{};  // name i's at i % ahead, from ahead names before it
        auto prepare = [&](uint32_t i) {
            hashes[i % ahead] = index_.hash(infos_[i].name);
            index_.prefetch(hashes[i % ahead]);
        };
        for (uint32_t i = 0; i < count_ && i < ahead; ++i) prepare(i);
        for (uint32_t i = 0; i < count_; ++i) {
            const uint64_t hash = hashes[i % ahead];
            if (i + ahead < count_) prepare(i + ahead);
            if (!index_.try_emplace(infos_[i].name, i, hash).second) {
                PathScope at(c_.path, "node_args", i);
                c_.invalid(c_.fb.address(static_cast<uint32_t>(infos_[i].offset)),
                           "NodeArg " + quoted(infos_[i].name, '\'') + " is declared twice", "name");
            }
        }
    }

    OrtContext& c_;
    ValueInfo* infos_ = nullptr;
    uint32_t count_ = 0;
    uint32_t last_type_at_ = 0;                     ///< the last TypeInfo read (0: none)
    TypeProto last_type_;
    uint64_t last_type_work_ = 0;
    ScratchVector<bool> used_;
    ScratchVector<NameIndex<ValueInfo>::Slot> slots_;
    NameIndex<ValueInfo> index_;
};

void read_initializers(OrtContext& c, const FbTable& fg, Graph& g) {
    const FbVector v = c.fb.vector(fg, G::VT_INITIALIZERS, 4, "initializers");
    ListAccess::view(g.initializers, ListAccess::make_array<TensorView>(c.arena, v.count), v.count);
    PassedPages pages(c.storage.input);  // a mapped import keeps no weight page resident
    for (uint32_t i = 0; i < v.count; ++i) {
        const FbTable ft = c.fb.table_at(v, i, "initializers");
        PathScope at(c.path, "initializers", i);
        const OrtExtent extent = read_ort_tensor(c, ft, g.initializers[i]);
        pages.passed(c.fb.address(extent.lo), c.fb.address(extent.hi));
    }
    const FbVector s = c.fb.vector(fg, G::VT_SPARSE_INITIALIZERS, 4, "sparse_initializers");
    ListAccess::view(g.sparse_initializers, ListAccess::make_array<SparseTensor>(c.arena, s.count), s.count);
    for (uint32_t i = 0; i < s.count; ++i) {
        const FbTable fs = c.fb.table_at(s, i, "sparse_initializers");
        PathScope at(c.path, "sparse_initializers", i);
        read_ort_sparse_tensor(c, fs, g.sparse_initializers[i]);
    }
}

void read_nodes(OrtContext& c, const FbTable& fg, Graph& g, const NodeArgs& args, OrtNodeFacts& facts) {
    const FbVector v = c.fb.vector(fg, G::VT_NODES, 4, "nodes");
    ListAccess::view(g.nodes, ListAccess::make_array<Node>(c.arena, v.count), v.count);
    facts.nodes.reserve(v.count);
    facts.values.reserve(v.count);
    // At least a value read and one defined per node in most graphs: one growth or none. The
    // scratch arena keeps what a vector outgrows until the walk ends.
    facts.places.reserve(2 * size_t{v.count});
    // Every non-empty output of a node has a NodeArg (empty: an omitted optional output),
    // answered a few outputs later when the NodeArgs are in no order (model/name_run.hpp).
    auto has_node_arg = [&](uint32_t node, std::string_view name, uint32_t k) {
        if (k != NameIndex<ValueInfo>::npos) return;
        PathScope at(c.path, "nodes", node);
        c.invalid(address_of(name.data()), "node output " + quoted(name, '\'') + " has no NodeArg in node_args");
    };
    auto defined = args.run(has_node_arg);
    // NodeArgs in no order of the nodes' are ONNX Runtime's, whose names lie where it first wrote
    // them: a node's input names are loaded a few nodes ahead (its outputs are the next nodes'
    // inputs; docs/performance-history.md, ".ort files ONNX Runtime writes").
    constexpr uint32_t names_ahead = 8;
    for (uint32_t i = 0; i < v.count; ++i) {
        if (defined.unordered()) c.fb.prefetch_strings(v, i + names_ahead, fb::Node::VT_INPUTS);
        Node& n = g.nodes[i];
        {
            const FbTable fn = c.fb.table_at(v, i, "nodes");
            PathScope at(c.path, "nodes", i);
            read_ort_node(c, fn, n, facts);
        }
        for (const std::string_view name : n.outputs)
            if (!name.empty()) defined.add(name, i);
        ModelAccess::node_input_count(g) += n.inputs.size();
        ModelAccess::node_output_count(g) += n.outputs.size();
    }
    defined.finish();
}

}  // namespace

void read_ort_graph(OrtContext& c, const FbTable& fg, Graph& g) {
    Nested nested(c, fg);
    c.fb.charge(sizeof(Graph), fg.at);  // the model's objects count as the walk's work (rule O15)
    g.offset = fg.at;
    NodeArgs args(c, fg);
    args.take(fg, G::VT_INPUTS, "inputs", g.inputs);
    args.take(fg, G::VT_OUTPUTS, "outputs", g.outputs);
    read_initializers(c, fg, g);
    OrtNodeFacts facts(c.scratch);
    facts.max_node_index = c.fb.scalar<uint32_t>(fg, G::VT_MAX_NODE_INDEX, 0, "max_node_index");
    read_nodes(c, fg, g, args, facts);
    args.rest(g.value_info);
    check_ort_node_graph(c, fg, g, facts);
    if (const FbTable ro = c.fb.table(fg, G::VT_RUNTIME_OPTIMIZATIONS, "runtime_optimizations")) {
        PathScope at(c.path, "runtime_optimizations");
        check_ort_runtime_optimizations(c, ro);
    }
}

}  // namespace onnximport::detail
