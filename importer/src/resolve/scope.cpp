// The values of one graph and name lookup through enclosing graphs (spec section 4,
// "Values" and "Scope"). Each name is hashed once when it is defined (try_emplace) and
// once per lookup level when it is read.
#include "resolve/scope.hpp"

#include "core/text.hpp"

#include <array>

namespace onnximport::detail {

std::string quoted_name(std::string_view name) { return quoted(name, '"'); }

std::string describe_node(const Node& n, uint32_t file_index) {
    if (!n.name.empty()) return "node " + quoted_name(n.name);
    std::string s = "node #" + std::to_string(file_index) + " (";
    s += n.op_type.empty() ? std::string("no op_type") : escaped(n.op_type);
    s += ')';
    return s;
}

namespace {

/// What first defined value v, for "defined twice" messages.
std::string first_definition(const Scope& s, uint32_t v) {
    const Value& value = s.graph.values[v];
    switch (value.source) {
    case Value::Source::Input: return "a graph input";
    case Value::Source::Initializer: return "an initializer";
    case Value::Source::SparseInitializer: return "a sparse initializer";
    case Value::Source::NodeOutput: {
        uint32_t f = s.producer[v];
        return describe_node(s.graph.nodes[f], f);
    }
    }
    return "an earlier definition";
}

/// Defines the values of one graph, one phase per kind of definition (spec section 4,
/// "Values"): the table is sized once for all of them.
class Definer {
public:
    Definer(Refusal& c, Scope& s) : c_(c), s_(s), g_(s.graph), arena_(s.storage.arena) {
        const size_t total = size_t{g_.inputs.size()} + g_.initializers.size() + g_.sparse_initializers.size() +
                             ModelAccess::node_output_count(g_);
        // Sized once: the table never grows, and the values stay where Value pointers see them.
        g_.values = {};
        ListAccess::reserve(arena_, g_.values, total);
        const size_t slots = ValueIndex::slots_for(total);
        s.index = arena_.make<ValueIndex>();
        s.index->attach(ListAccess::make_array<ValueIndex::Slot>(arena_, slots), slots, g_.values.data(),
                        s.storage.hash_key);
        ModelAccess::value_index(g_) = s.index;
        s.producer.reserve(total);
    }

    void inputs() {
        for (size_t i = 0; i < g_.inputs.size(); ++i) {
            const ValueInfo& in = g_.inputs[i];
            PathScope at(c_.path, "input", static_cast<int64_t>(i));
            if (in.name.empty())
                c_.fail_at(ErrorKind::InvalidModel, in.offset,
                           "graph input " + std::to_string(i) + " has an empty name");
            auto [v, fresh] = define(in.name, Value::Source::Input, no_producer, s_.index->hash(in.name));
            if (!fresh)
                c_.fail_at(ErrorKind::InvalidModel, in.offset,
                           "graph input " + quoted_name(in.name) + " is declared more than once");
        }
    }

    void initializers() {
        for (size_t i = 0; i < g_.initializers.size(); ++i) {
            const TensorView& t = g_.initializers[i];
            if (t.name.empty()) continue;  // names nothing, so nothing can read it
            auto [v, fresh] = define(t.name, Value::Source::Initializer, no_producer, s_.index->hash(t.name));
            Value& value = g_.values[v];
            // Fresh, or the IR < 4 layout: an input listed with its initializer as default value.
            if (fresh || (value.source == Value::Source::Input && !value.initializer)) {
                value.initializer = &t;
                continue;
            }
            PathScope at(c_.path, "initializer", static_cast<int64_t>(i));
            c_.fail_at(ErrorKind::InvalidModel, t.offset,
                       "initializer " + quoted_name(t.name) + " is defined twice (first by " + first_definition(s_, v) +
                           (value.source == Value::Source::Input ? ", which already has an initializer)" : ")"));
        }
    }

    void sparse_initializers() {
        for (size_t i = 0; i < g_.sparse_initializers.size(); ++i) {
            const SparseTensor& t = g_.sparse_initializers[i];
            std::string_view name = t.values.name;  // a sparse tensor is named by its values
            if (name.empty()) continue;
            auto [v, fresh] = define(name, Value::Source::SparseInitializer, no_producer, s_.index->hash(name));
            if (fresh) {
                g_.values[v].sparse_initializer = &t;
                continue;
            }
            PathScope at(c_.path, "sparse_initializer", static_cast<int64_t>(i));
            c_.fail_at(ErrorKind::InvalidModel, t.offset,
                       "sparse initializer " + quoted_name(name) + " is defined twice (first by " +
                           first_definition(s_, v) + ")");
        }
    }

    /// A node's first output (most have one) is hashed a few nodes ahead, when its slot is
    /// prefetched, and defined with that hash.
    void node_outputs() {
        auto prepare = [&](size_t f) {
            const List<std::string_view>& outs = g_.nodes[f].outputs;
            if (outs.empty()) return;
            first_hash_[f % first_hash_.size()] = s_.index->hash(outs[0]);
            s_.index->prefetch(first_hash_[f % first_hash_.size()]);
        };
        s_.node_values.reserve(g_.nodes.size() + 1);
        for_each_node_ahead<distance>(g_, prepare, [&](size_t f) {
            s_.node_values.push_back(static_cast<uint32_t>(g_.values.size()));
            node(f);
        });
        s_.node_values.push_back(static_cast<uint32_t>(g_.values.size()));
    }

private:
    static constexpr size_t distance = ValueIndex::define_prefetch_distance;

    void node(size_t f) {
        const Node& n = g_.nodes[f];
        // Loaded once: for all the compiler knows, define()'s stores could change the list.
        const std::string_view* outputs = n.outputs.data();
        const size_t count = n.outputs.size();
        for (size_t k = 0; k < count; ++k) {
            std::string_view out = outputs[k];
            if (out.empty()) continue;  // an omitted optional output
            const uint64_t hash = k == 0 ? first_hash_[f % first_hash_.size()] : s_.index->hash(out);
            auto [v, fresh] = define(out, Value::Source::NodeOutput, static_cast<uint32_t>(f), hash);
            if (fresh) continue;
            PathScope at(c_.path, "node", static_cast<int64_t>(f));
            c_.fail_at(ErrorKind::InvalidModel, n.offset,
                       describe_node(n, static_cast<uint32_t>(f)) + " defines " + quoted_name(out) +
                           ", which is already defined by " + first_definition(s_, v));
        }
    }

    /// The value's index and whether the name was new. Inlined: a call per definition
    /// cost more than its body (docs/performance-history.md, "Resolution in proportion to the parse").
    [[gnu::always_inline]] std::pair<uint32_t, bool> define(std::string_view name, Value::Source source,
                                                            uint32_t producer, uint64_t hash) {
        auto [index, inserted] = s_.index->try_emplace(name, static_cast<uint32_t>(g_.values.size()), hash);
        if (inserted) {
            Value& v = ListAccess::append(arena_, g_.values);
            v.name = name;
            v.source = source;
            s_.producer.push_back(producer);
        }
        return {index, inserted};
    }

    Refusal& c_;
    Scope& s_;
    Graph& g_;
    Arena& arena_;
    std::array<uint64_t, 2 * distance> first_hash_{};
};

}  // namespace

void define_values(Refusal& c, Scope& s) {
    Definer d(c, s);
    d.inputs();
    d.initializers();
    d.sparse_initializers();
    d.node_outputs();
}

ValueRef find_value(Scope& s, std::string_view name) {
    if (uint32_t v = s.index->find(name); v != ValueIndex::npos) return {&s, v};
    return find_outside(s, name);
}

ValueRef find_outside(Scope& s, std::string_view name) {
    if (!s.outer) return {};
    if (!s.captured) s.captured.emplace(0, NameHash{s.storage.hash_key.get()});
    if (auto it = s.captured->find(name); it != s.captured->end()) return it->second;
    // Recursion depth is the graph nesting depth, bounded by the reader's nesting limit.
    ValueRef found = find_value(*s.outer, name);
    if (found.scope) {
        s.captured->emplace(name, found);
        ListAccess::push_back(s.storage.arena, s.graph.captures, name);
        s.capture_refs.push_back(found);
    }
    return found;
}

}  // namespace onnximport::detail
