// Value types (spec section 4, "Types"): declarations of inputs and outputs first, then
// value_info for values that still have none. A TypeProto with no member set is "no
// type" (section 2) and leaves the value open for value_info. Value::type points into
// the graph's ValueInfo messages, which are not moved after reading.
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
    // Exporters list value_info in the order the values are defined, or (nodes written
    // last to first) in the reverse order: the values after and before the last one found
    // are tried first (names are unique among values, so a match is the value the index
    // would give), the index only when both guesses fail.
    uint32_t last = ValueIndex::npos;
    auto named = [&](uint32_t v, std::string_view name) {
        return v < g.values.size() && same_name(g.values[v].name, name);
    };
    for (const ValueInfo& vi : g.value_info) {
        if (!has_type(vi)) continue;
        uint32_t index = last + 1;  // 0 for the first value_info
        if (!named(index, vi.name)) {
            index = last - 1;
            if (!named(index, vi.name)) {
                index = s.index->find(vi.name);
                if (index == ValueIndex::npos) continue;  // names nothing defined here: ignored
            }
        }
        last = index;
        Value& v = g.values[index];
        if (!v.type) v.type = &vi.type;
    }
}

}  // namespace onnximport::detail
