// The helper thread of a graph read by two threads (parallel_graph.hpp).
#include "onnx/parallel_graph.hpp"

namespace onnximport::detail {

namespace {

HelperHeap& new_heap(Storage& s) {
    s.helper_heaps.push_back(std::make_unique<HelperHeap>());
    return *s.helper_heaps.back();
}

/// Sizes `list` (still empty) for all `total` elements and points `tail` at the room
/// after the first `before` of them.
template <class T>
void share(Arena& arena, List<T>& list, List<T>& tail, uint32_t total, uint32_t before) {
    ListAccess::reserve(arena, list, total);
    ListAccess::room(tail, list.data() + before, total - before);
}

/// Counts in the helper's elements of `list`, which follow the importing thread's.
template <class T>
void adopt(List<T>& list, const List<T>& tail) {
    ListAccess::adopt(list, list.size() + tail.size());
}

}  // namespace

GraphHelper::GraphHelper(const Context& c, Graph& g, const GraphCounts& counts, const uint8_t* split,
                         const uint8_t* end)
    : counts_(counts), context_(c, new_heap(c.storage)) {
    const uint32_t* total = counts.total;
    const uint32_t* before = counts.before_split;
    share(c.arena, g.nodes, tail_.nodes, total[1], before[1]);
    share(c.arena, g.initializers, tail_.initializers, total[5], before[5]);
    share(c.arena, g.inputs, tail_.inputs, total[11], before[11]);
    share(c.arena, g.outputs, tail_.outputs, total[12], before[12]);
    share(c.arena, g.value_info, tail_.value_info, total[13], before[13]);
    share(c.arena, g.sparse_initializers, tail_.sparse_initializers, total[15], before[15]);
    share(c.arena, g.metadata_props, tail_.metadata_props, total[16], before[16]);
    std::copy_n(before, GraphCounts::fields, counts_.index_base);
    thread_ = std::thread([this, split, end] { read(split, end); });
}

GraphHelper::~GraphHelper() {
    if (thread_.joinable()) thread_.join();
}

void GraphHelper::read(const uint8_t* split, const uint8_t* end) noexcept {
    try {
        Reader r(context_, split, end);
        read_graph_fields(context_, r, tail_, counts_, nullptr);
    } catch (...) {
        error_ = std::current_exception();
    }
}

void GraphHelper::finish(Context& c, Graph& g) {
    thread_.join();
    if (error_) std::rethrow_exception(error_);
    adopt(g.nodes, tail_.nodes);
    adopt(g.initializers, tail_.initializers);
    adopt(g.inputs, tail_.inputs);
    adopt(g.outputs, tail_.outputs);
    adopt(g.value_info, tail_.value_info);
    adopt(g.sparse_initializers, tail_.sparse_initializers);
    adopt(g.metadata_props, tail_.metadata_props);
    g.node_input_count += tail_.node_input_count;
    g.node_output_count += tail_.node_output_count;
    // Singular fields: a later occurrence wins (a view of the input is never null).
    if (tail_.name.data()) g.name = tail_.name;
    if (tail_.doc_string.data()) g.doc_string = tail_.doc_string;
    if (context_.has_external_tensors) c.has_external_tensors = true;
}

}  // namespace onnximport::detail
