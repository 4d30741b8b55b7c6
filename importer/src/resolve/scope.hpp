// Names and scopes of one graph under resolution (spec section 4, "Values" and "Scope"):
// the values a graph defines, and name lookup through the enclosing graphs, which is
// what records a subgraph's captures.
#pragma once

#include "core/hash.hpp"
#include "core/refusal.hpp"
#include "model/access.hpp"
#include "model/value_index.hpp"
#include "core/scratch.hpp"
#include "core/strings.hpp"

#include <onnximport/model.hpp>
#include <onnximport/options.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace onnximport::detail {

struct Scope;

/// Where a name was found: the scope whose graph defines it, and the value's index in
/// that graph's `values`. A null scope means "not defined".
struct ValueRef {
    Scope* scope = nullptr;
    uint32_t value = 0;
};

/// A value that no node of its own graph produces (input, initializer, sparse).
inline constexpr uint32_t no_producer = UINT32_MAX;

/// The state of one graph while it and its subgraphs resolve. Lives on the stack of the
/// resolution of its graph; subgraph scopes point to their enclosing scope.
struct Scope {
    Scope(Graph& g, Scope* enclosing, Storage& storage, Scratch& scratch)
        : graph(g), outer(enclosing), storage(storage), scratch(scratch), producer(&scratch), node_values(&scratch),
          capture_refs(&scratch) {}
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

    Graph& graph;
    Scope* outer;
    Storage& storage;  ///< the Model's: its arena holds what resolution adds to the graph
    Scratch& scratch;  ///< what resolution needs only while it runs
    /// The graph's name -> value table, in the Model's arena (define_values).
    ValueIndex* index = nullptr;
    /// Per value of `graph`: the file index of the node that produces it, or no_producer.
    ScratchVector<uint32_t> producer;
    /// Per node (file index) and one past the last: the first of the values its outputs
    /// define, which are consecutive (defined_next_to looks there first).
    ScratchVector<uint32_t> node_values;
    /// Outer names already read in this graph. Both the cache that keeps a repeated outer
    /// read from walking the scopes again and the set that keeps Graph::captures unique.
    /// Keyed by input bytes: hashed with the import's key (core/hash.hpp). Made at the first
    /// outer read, so a graph that reads nothing outside (every main graph) neither allocates
    /// nor draws the key.
    std::optional<std::unordered_map<std::string_view, ValueRef, NameHash>> captured;
    /// Parallel to graph.captures: where each captured value lives.
    ScratchVector<ValueRef> capture_refs;
    /// The main graph's: where its steps' times go (ImportOptions::times), or null.
    ImportTimes* times = nullptr;
};

/// Defines the values of s.graph in the spec's order: inputs, initializers (an initializer
/// named like an input without one is that input's default), sparse initializers, node
/// outputs. Empty names among initializers and node outputs give no value.
/// @throws ImportError(InvalidModel) for an empty or repeated input name, or a name
///         defined twice.
void define_values(Refusal& c, Scope& s);

/// Looks a name up in s, then in the enclosing scopes. A name found outside s is added
/// to the captures of s and of every scope between s and the one defining it, in the
/// order of first read.
ValueRef find_value(Scope& s, std::string_view name);

/// find_value for a name s itself does not define.
ValueRef find_outside(Scope& s, std::string_view name);

/// The value named `name` (not empty) among those node `node` defined, or no_producer.
/// Compared where the node's output names are, next to the reading node's own in the edges'
/// arena, not in the graph's large array of values (docs/performance-history.md, "Neighbours' names
/// where they were read"): an omitted output, empty, defines no value.
inline uint32_t defined_by(const Scope& s, uint32_t node, std::string_view name) {
    uint32_t v = s.node_values[node];
    for (std::string_view out : s.graph.nodes[node].outputs) {
        if (same_name(out, name)) return v;
        v += !out.empty();
    }
    return no_producer;
}

/// The value named `name` among those node f - 1 defined, else among those node f + 1
/// defined, or no_producer: what most nodes read (exporters write nodes in order, some
/// last to first, and a chain reads its neighbour), found with no hashing and no random
/// access.
/// Inline, as prepare_input and find_input: called once per read, a call cost as much as
/// the work (docs/performance-history.md, "Resolution in proportion to the parse"). `after_first`
/// tries node f + 1 first: the answer is the same (names are unique among node outputs),
/// found with one comparison in a graph written last to first.
inline uint32_t defined_next_to(const Scope& s, uint32_t f, std::string_view name, bool after_first = false) {
    // Node outputs define fresh values only (a repeat is refused), so a name equal to one
    // of them is that value: the index would answer the same. node_values has one entry
    // per node and one past the last; f - 1 for f = 0 wraps past every node.
    const size_t nodes = s.node_values.size() - 1;
    const uint32_t first = after_first ? f + 1 : f - 1, second = after_first ? f - 1 : f + 1;
    if (first < nodes)
        if (uint32_t v = defined_by(s, first, name); v != no_producer) return v;
    if (second < nodes) return defined_by(s, second, name);
    return no_producer;
}

/// Starts loading the bytes of the message of node n in the input, where its names are:
/// resolution compares and hashes them, and by then they have long left the cache.
inline void prefetch_names(const Node& n) noexcept {
    const List<std::string_view>& names = !n.inputs.empty() ? n.inputs : n.outputs;
    if (names.empty()) return;
    const auto at = reinterpret_cast<uintptr_t>(names[0].data());  // the next line may lie past the input
    __builtin_prefetch(reinterpret_cast<const void*>(at));
    __builtin_prefetch(reinterpret_cast<const void*>(at + 64));
}

/// The nodes of g in file order, looking d nodes ahead (each pass its own d, value_index.hpp):
/// node f + 2d's names start loading and node f + d is prepared (its hashes computed, its
/// slots prefetched) before node f is visited, so that the lookups' cache misses overlap.
/// In a large graph node f + 4d starts loading too, for prefetch_names to read 2d nodes
/// later: the hardware's prefetcher does not run so far ahead (docs/performance-history.md, "Nodes ahead").
template <size_t d, class Prepare, class Visit>
void for_each_node_ahead(const Graph& g, Prepare&& prepare, Visit&& visit) {
    const size_t n = g.nodes.size();
    for (size_t f = 0; f < n && f < d; ++f) prepare(f);
    size_t f = 0;
    for (; f + 4 * d < n; ++f) {
        __builtin_prefetch(&g.nodes[f + 4 * d]);
        prefetch_names(g.nodes[f + 2 * d]);
        prepare(f + d);
        visit(f);
    }
    for (; f < n; ++f) {
        if (f + 2 * d < n) prefetch_names(g.nodes[f + 2 * d]);
        if (f + d < n) prepare(f + d);
        visit(f);
    }
}

/// An input of node f looked up in two steps: prepare_input a few nodes ahead of its use
/// (NameIndex::prefetch_distance), so that the slot it needs is loading meanwhile, then
/// find_input. Each name is compared with the neighbours' outputs and hashed once.
/// No member initializers: resolution keeps 64 of them on the stack per graph, and zeroing
/// them cost more than resolving a one-node graph's reads (docs/performance-history.md, "Small graphs
/// without hashing"); prepare_input sets both.
struct PreparedInput {
    uint32_t value;  ///< defined_next_to's answer
    uint64_t hash;   ///< when it had none: the value index's hash of the name (else 0)
};
inline PreparedInput prepare_input(const Scope& s, uint32_t f, std::string_view name) {
    PreparedInput p{defined_next_to(s, f, name), 0};
    if (p.value == no_producer) {
        p.hash = s.index->hash(name);
        s.index->prefetch(p.hash);
    }
    return p;
}

/// What an input position learned from the node before: the last name it hashed and its
/// hash (many nodes read what the node before read at the same position: a shared weight, a
/// bias), found again with one comparison instead of a hash; and which neighbour answered
/// last. The hash is the name's under the key and the neighbour's answer is the only one, so
/// no answer changes.
struct HashMemo {
    explicit HashMemo(const Scope& s) : hash(s.index->hash({})) {}
    std::string_view name;  ///< "" at first, with its hash: a memo is never wrong
    uint64_t hash;
    bool after_first = false;  ///< node f + 1 answered last: try it first
};

/// prepare_input, hashing only a name other than the memo's.
inline PreparedInput prepare_input(const Scope& s, uint32_t f, std::string_view name, HashMemo& memo) {
    PreparedInput p{defined_next_to(s, f, name, memo.after_first), 0};
    if (p.value != no_producer) {
        memo.after_first = p.value >= s.node_values[f];  // node f + 1's values come after node f's
    } else {
        if (!same_name(memo.name, name)) {
            memo.name = name;
            memo.hash = s.index->hash(name);
        }
        p.hash = memo.hash;
        s.index->prefetch(p.hash);
    }
    return p;
}

/// find_value for a prepared input.
inline ValueRef find_input(Scope& s, std::string_view name, const PreparedInput& prepared) {
    if (prepared.value != no_producer) return {&s, prepared.value};
    if (uint32_t v = s.index->find(name, prepared.hash); v != ValueIndex::npos) return {&s, v};
    return find_outside(s, name);  // an enclosing graph's, or undefined: rare
}

/// "node \"conv1\"" or, for a node without a name, "node #3 (Conv)" (file index).
std::string describe_node(const Node& n, uint32_t file_index);

/// "\"name\"" for messages.
std::string quoted_name(std::string_view name);

}  // namespace onnximport::detail
