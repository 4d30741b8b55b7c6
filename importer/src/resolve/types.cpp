// Value types (spec section 4, "Types"): declarations of inputs and outputs first, then
// value_info for values that still have none. A TypeProto with no member set is "no
// type" (section 2) and leaves the value open for value_info. Value::type points into
// the graph's ValueInfo messages, which are not moved after reading.
#include "resolve/graph.hpp"

namespace onnximport::detail {

namespace {

bool has_type(const ValueInfo& vi) { return vi.type.kind != TypeProto::Kind::None; }

}  // namespace

void assign_types(Scope& s, const std::vector<ValueRef>& outputs) {
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
    // Exporters list value_info in the order the values are defined: the value after the
    // last one found is tried first (names are unique among values, so a match is the
    // value the index would give), the index only when that guess fails.
    uint32_t guess = 0;
    for (const ValueInfo& vi : g.value_info) {
        if (!has_type(vi)) continue;
        uint32_t index = guess;
        if (index >= g.values.size() || g.values[index].name != vi.name) {
            index = g.value_index.find(vi.name);
            if (index == ValueIndex::npos) continue;  // names nothing defined here: ignored
        }
        guess = index + 1;
        Value& v = g.values[index];
        if (!v.type) v.type = &vi.type;
    }
}

}  // namespace onnximport::detail
