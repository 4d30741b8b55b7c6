// Graph resolution (spec section 4): the entry point. Resolves the main graph and, in
// scope, every subgraph under it.
//
// Not resolved: function bodies (the spec imports them as written), and the graphs of
// training_info. Those follow rules of their own (the algorithm graph reads and updates
// the main graph's initializers through bindings), which section 4 does not state; they
// stay as read, with Graph::resolved false.
#include "resolve/resolve.hpp"

#include "resolve/graph.hpp"
#include "storage.hpp"

namespace onnximport::detail {

void resolve_model(Model& model) {
    if (!model.graph) return;  // the reader refuses models without a graph
    Storage& storage = model.storage();
    // Resolution reads no bytes; the context carries the field path and the offsets'
    // base. The nesting limit was enforced by the reader.
    Context c(storage, storage.input, storage.input_size, 0, "ModelProto");
    PathScope at(c, "graph");
    OpsetTable opsets(model.opset_import);
    Scratch scratch(model.graph->nodes.size());
    Scope main(*model.graph, nullptr, storage, scratch);
    resolve_graph(c, main, opsets);
}

}  // namespace onnximport::detail
