// Graph resolution (spec section 4): the entry point. Resolves the main graph and, in
// scope, every subgraph under it.
//
// Not resolved: function bodies (the spec imports them as written), and the graphs of
// training_info. Those follow rules of their own (the algorithm graph reads and updates
// the main graph's initializers through bindings), which section 4 does not state; they
// stay as read, with Graph::resolved false.
#include "resolve/resolve.hpp"

#include "resolve/graph.hpp"

namespace onnximport::detail {

void resolve_model(Storage& storage, ImportTimes* times) {
    Graph* graph = ModelAccess::graph(storage.proto);
    if (!graph) return;  // the reader refuses models without a graph
    // Resolution reads no bytes: refusals carry the offsets the reader recorded.
    Refusal c(storage.source_name, storage.input.data(), "ModelProto");
    PathScope at(c.path, "graph");
    OpsetTable opsets(storage.proto.opset_import, storage.hash_key);
    // Most small graphs' scratch fits here (docs/performance-history.md, "First bytes inside their owners").
    alignas(16) std::byte first_scratch[2048];
    Scratch scratch(graph->nodes.size(), storage.pool, first_scratch);
    Scope main(*graph, nullptr, storage, scratch);
    main.times = times;
    resolve_graph(c, main, opsets);
}

}  // namespace onnximport::detail
