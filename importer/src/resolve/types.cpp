// Value types (spec section 4, "Types"): declarations of inputs and outputs first, then
// value_info for values that still have none. A TypeProto with no member set is "no
// type" (section 2) and leaves the value open for value_info. Value::type points into
// the graph's ValueInfo messages, which are not moved after reading.
#include "model/name_run.hpp"
#include "resolve/graph.hpp"

namespace onnximport::detail {

namespace {

bool has_type(const ValueInfo& vi) { return vi.type.kind != TypeProto::Kind::None; }

}  // namespace

void assign_types(Scope& s, std::span<const ValueRef> outputs) {
    Graph& g = s.graph;
    // Inputs are defined first and are unique, so input i is value i.
    for (size_t i = 0; i < g.inputs.size(); ++i)
        if (has_type(g.inputs[i])) g.values[i].type = &g.inputs[i].type;
    for (size_t i = 0; i < g.outputs.size(); ++i) {
        // An output naming an enclosing graph's value declares nothing about this graph's values.
        if (outputs[i].scope != &s || !has_type(g.outputs[i])) continue;
        Value& v = g.values[outputs[i].value];
        if (!v.type) v.type = &g.outputs[i].type;
    }
    // value_info answers in its own order (model/name_run.hpp: neighbours first, the index for
    // the rest); a name that nothing here defines is ignored.
    NameRun run(*s.index, g.values.data(), static_cast<uint32_t>(g.values.size()),
                [&](uint32_t entry, std::string_view, uint32_t index) {
                    if (index == ValueIndex::npos) return;
                    Value& v = g.values[index];
                    if (!v.type) v.type = &g.value_info[entry].type;
                });
    for (uint32_t i = 0; i < g.value_info.size(); ++i)
        if (has_type(g.value_info[i])) run.add(g.value_info[i].name, i);
    run.finish();
}

}  // namespace onnximport::detail
