// Hostile cases for spec section 4 (the graph): value definitions and their duplicates,
// omitted optionals, subgraph scope, shadowing and captures, references, opsets and the
// ai.onnx alias, types, order (kept, sorted by the smallest-file-index rule, cycles),
// consumers, functions (cycles among them are fine: not expanded), and inputs built to
// be slow: a reversed chain, a value with 10^5 consumers, deep If nesting with captures.
#include "build.hpp"
#include "rules.hpp"

namespace hostile {

namespace r = rules;

namespace {

using Names = std::vector<std::string>;

WireWriter node(std::string_view op, const Names& in, const Names& out, std::string_view name) {
    return ob::node(op, in, out, name);
}

std::string model_of(const std::vector<WireWriter>& nodes, const Names& inputs, const Names& outputs,
                     const std::vector<WireWriter>& extra_graph_fields = {}) {
    WireWriter g = graph_of(nodes, inputs, outputs);
    for (const auto& e : extra_graph_fields) g.raw(e.str());
    return ob::model(g).str();
}

WireWriter init_field(std::string_view name) {
    return WireWriter().message(p::Graph::initializer, ob::tensor_raw(name, 1, {1}, floats_le({1})));
}
WireWriter sparse_field(std::string_view name) {
    return WireWriter().message(p::Graph::sparse_initializer,
                                ob::sparse_tensor(ob::tensor_raw(name, 1, {1}, floats_le({1})),
                                                  ob::tensor_raw("", 7, {1}, std::string(8, '\0')), {4}));
}
WireWriter with_graph_attr(WireWriter n, std::string_view attr, const WireWriter& g) {
    n.message(p::Node::attribute, ob::attr_graph(attr, g));
    return n;
}

std::string base36(uint64_t v) {
    static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
    std::string s;
    do {
        s.insert(s.begin(), digits[v % 36]);
        v /= 36;
    } while (v);
    return s;
}

/// c0 -> c1 -> ... -> cN written last node first; only the two ends are named.
std::string reversed_chain(uint64_t n) {
    WireWriter g;
    for (uint64_t j = 0; j < n; ++j) {
        uint64_t k = n - 1 - j;  // file index j holds chain step k
        WireWriter nd;
        nd.bytes_field(p::Node::input, "c" + base36(k)).bytes_field(p::Node::output, "c" + base36(k + 1));
        if (k == 0) nd.bytes_field(p::Node::name, "first");
        if (k == n - 1) nd.bytes_field(p::Node::name, "last");
        nd.bytes_field(p::Node::op_type, "Neg");
        g.message(p::Graph::node, nd);
    }
    g.bytes_field(p::Graph::name, "chain")
        .message(p::Graph::input, ob::value_info("c0"))
        .message(p::Graph::output, ob::value_info("c" + base36(n)));
    return ob::model(g).str();
}

}  // namespace

void add_graph_cases(Corpus& c) {
    // Values.
    c.refuse("InvalidModel", "input-empty-name", r::values, "a graph input with an empty name",
             model_of({node("Identity", {"X"}, {"Y"}, "n0")}, {"X", ""}, {"Y"}));
    c.refuse("InvalidModel", "input-duplicate", r::values, "two graph inputs named X",
             model_of({node("Identity", {"X"}, {"Y"}, "n0")}, {"X", "X"}, {"Y"}));
    c.accept(
        "initializer-is-input-default", r::values,
        "an initializer named like an input becomes its default value (IR < 4 style)",
        ob::model(graph_of({node("Identity", {"X"}, {"Y"}, "n0")}, {"X"}, {"Y"}).raw(init_field("X").str()), 3).str(),
        {{"input_has_default", {{"X", true}}}});
    c.refuse("InvalidModel", "initializer-duplicate", r::values, "two initializers W (no input W)",
             model_of({node("Identity", {"X"}, {"Y"}, "n0")}, {"X"}, {"Y"}, {init_field("W"), init_field("W")}));
    c.refuse("InvalidModel", "initializer-twice-for-input", r::values,
             "input X with two initializers X: the second is not the first default",
             model_of({node("Identity", {"X"}, {"Y"}, "n0")}, {"X"}, {"Y"}, {init_field("X"), init_field("X")}));
    c.refuse("InvalidModel", "sparse-initializer-same-as-initializer", r::twice,
             "initializer W and sparse initializer W",
             model_of({node("Identity", {"X"}, {"Y"}, "n0")}, {"X"}, {"Y"}, {init_field("W"), sparse_field("W")}));
    c.refuse("InvalidModel", "sparse-initializer-same-as-input", r::twice,
             "a sparse initializer named like an input: only dense initializers become defaults",
             model_of({node("Identity", {"X"}, {"Y"}, "n0")}, {"X"}, {"Y"}, {sparse_field("X")}));
    c.refuse("InvalidModel", "sparse-initializer-duplicate", r::twice, "two sparse initializers S",
             model_of({node("Identity", {"X"}, {"Y"}, "n0")}, {"X"}, {"Y"}, {sparse_field("S"), sparse_field("S")}));
    c.refuse("InvalidModel", "node-output-redefines-input", r::twice, "a node writes the graph input X",
             model_of({node("Identity", {"X"}, {"Y"}, "n0"), node("Neg", {"Y"}, {"X"}, "n1")}, {"X"}, {"Y"}));
    c.refuse("InvalidModel", "node-output-redefines-initializer", r::twice, "a node writes the initializer W",
             model_of({node("Identity", {"X"}, {"Y"}, "n0"), node("Neg", {"X"}, {"W"}, "n1")}, {"X"}, {"Y"},
                      {init_field("W")}));
    c.refuse("InvalidModel", "two-nodes-same-output", r::twice, "two nodes write Y",
             model_of({node("Identity", {"X"}, {"Y"}, "n0"), node("Neg", {"X"}, {"Y"}, "n1")}, {"X"}, {"Y"}));
    c.refuse("InvalidModel", "node-output-twice", r::twice, "one node lists Y twice among its outputs",
             model_of({node("Split", {"X"}, {"Y", "Y"}, "n0")}, {"X"}, {"Y"}));
    c.accept(
        "node-empty-optional-names", r::empty_name,
        "empty input and output names are omitted optionals, defined nowhere",
        model_of({node("Clip", {"X", "", ""}, {"Y", ""}, "n0"), node("Dropout", {"X"}, {"Z", ""}, "n1")}, {"X"}, {"Y"}),
        {{"node_order", {"n0", "n1"}}});
    c.refuse("InvalidModel", "node-input-undefined", r::refs, "node n1 reads Q, defined nowhere",
             model_of({node("Identity", {"X"}, {"Y"}, "n0"), node("Neg", {"Q"}, {"Z"}, "n1")}, {"X"}, {"Y"}));
    c.refuse("InvalidModel", "graph-output-undefined", r::refs, "graph output Q is defined nowhere",
             model_of({node("Identity", {"X"}, {"Y"}, "n0")}, {"X"}, {"Y", "Q"}));
    c.accept("graph-output-is-input", r::refs, "a graph output that names a graph input directly",
             model_of({node("Identity", {"X"}, {"Y"}, "n0")}, {"X"}, {"Y", "X"}), {{"node_order", {"n0"}}});
    c.accept("graph-output-is-initializer", r::refs, "a graph output that names an initializer",
             model_of({node("Identity", {"X"}, {"Y"}, "n0")}, {"X"}, {"Y", "W"}, {init_field("W")}),
             {{"node_order", {"n0"}}});

    // Scope and captures.
    WireWriter reads_x = bare_graph({node("Neg", {"X"}, {"t"}, "inner")}, {}, {"t"});
    c.accept("subgraph-reads-outer", r::captures, "then_branch reads the outer input X: captured",
             model_of({with_graph_attr(node("If", {"X"}, {"Y"}, "ifn"), "then_branch", reads_x)}, {"X"}, {"Y"}),
             {{"captures", {{"ifn/then_branch", {"X"}}}}, {"consumers", {{"X", {"ifn"}}}}});
    c.accept("subgraph-shadows-outer", r::scope, "the subgraph's own input X shadows the outer X: nothing captured",
             model_of({with_graph_attr(node("Loop", {}, {"Y"}, "loop"), "body",
                                       bare_graph({node("Neg", {"X"}, {"t"}, "inner")}, {"X"}, {"t"}))},
                      {"X"}, {"Y"}),
             {{"captures", {{"loop/body", json::array()}}}});
    c.accept(
        "subgraph-node-output-shadows-outer", r::scope, "a subgraph node output named like an outer value shadows it",
        model_of(
            {node("Identity", {"X"}, {"Z"}, "n0"),
             with_graph_attr(node("If", {}, {"Y"}, "ifn"), "then_branch",
                             bare_graph({node("Neg", {"X"}, {"Z"}, "a"), node("Neg", {"Z"}, {"t"}, "b")}, {}, {"t"}))},
            {"X"}, {"Y"}),
        {{"captures", {{"ifn/then_branch", {"X"}}}}});
    c.refuse("InvalidModel", "subgraph-reads-undefined", r::refs, "the subgraph reads Q, defined in no scope",
             model_of({with_graph_attr(node("If", {"X"}, {"Y"}, "ifn"), "then_branch",
                                       bare_graph({node("Neg", {"Q"}, {"t"}, "inner")}, {}, {"t"}))},
                      {"X"}, {"Y"}));
    c.refuse("InvalidModel", "outer-reads-subgraph-value", r::scope,
             "the outer graph reads t, defined only inside a subgraph",
             model_of({with_graph_attr(node("If", {"X"}, {"Y"}, "ifn"), "then_branch", reads_x),
                       node("Neg", {"t"}, {"Z"}, "n1")},
                      {"X"}, {"Y"}));
    c.refuse("InvalidModel", "subgraph-reads-sibling", r::scope, "else_branch reads t, defined by then_branch",
             model_of({with_graph_attr(with_graph_attr(node("If", {"X"}, {"Y"}, "ifn"), "then_branch", reads_x),
                                       "else_branch", bare_graph({node("Neg", {"t"}, {"u"}, "e")}, {}, {"u"}))},
                      {"X"}, {"Y"}));
    c.refuse("InvalidModel", "subgraph-defines-twice", r::twice, "a subgraph where two nodes write t",
             model_of({with_graph_attr(
                          node("If", {"X"}, {"Y"}, "ifn"), "then_branch",
                          bare_graph({node("Neg", {"X"}, {"t"}, "a"), node("Neg", {"X"}, {"t"}, "b")}, {}, {"t"}))},
                      {"X"}, {"Y"}));
    c.accept(
        "subgraph-reads-later-outer-value", r::order_sort,
        "the If comes first in the file but its subgraph reads Z, made by the next node: sorted after it",
        model_of({with_graph_attr(node("If", {"X"}, {"Y"}, "ifn"), "then_branch",
                                  bare_graph({node("Neg", {"Z"}, {"t"}, "inner")}, {}, {"t"})),
                  node("Neg", {"X"}, {"Z"}, "mk")},
                 {"X"}, {"Y"}),
        {{"nodes_were_reordered", true}, {"node_order", {"mk", "ifn"}}, {"captures", {{"ifn/then_branch", {"Z"}}}}});
    c.accept(
        "captures-propagate", r::captures, "a grandchild subgraph reads X: both subgraph levels capture it",
        model_of({with_graph_attr(
                     node("If", {}, {"Y"}, "outer"), "then_branch",
                     bare_graph({with_graph_attr(node("If", {}, {"t"}, "mid"), "then_branch", reads_x)}, {}, {"t"}))},
                 {"X"}, {"Y"}),
        {{"captures", {{"outer/then_branch", {"X"}}, {"outer/then_branch/mid/then_branch", {"X"}}}},
         {"consumers", {{"X", {"outer"}}}}});
    c.accept("subgraph-in-graphs-attribute", r::scope, "a graphs (plural) attribute is a subgraph too: it captures X",
             [] {
                 WireWriter n = node("Custom", {}, {"Y"}, "multi");
                 n.message(p::Node::attribute,
                           WireWriter()
                               .bytes_field(p::Attribute::name, "bodies")
                               .message(p::Attribute::graphs, bare_graph({node("Neg", {"X"}, {"t"}, "i0")}, {}, {"t"}))
                               .int_field(p::Attribute::type, 10));
                 return model_of({n}, {"X"}, {"Y"});
             }(),
             {{"consumers", {{"X", {"multi"}}}}});

    // Opsets.
    c.refuse("InvalidModel", "domain-not-imported", r::domain, "a node in domain com.example, which is not imported",
             [] {
                 WireWriter n = node("Foo", {"X"}, {"Z"}, "n1");
                 n.bytes_field(p::Node::domain, "com.example");
                 return model_of({node("Identity", {"X"}, {"Y"}, "n0"), n}, {"X"}, {"Y"});
             }());
    c.refuse("InvalidModel", "no-opset-import", r::domain, "no opset_import at all: the default domain is not imported",
             WireWriter().int_field(p::Model::ir_version, 9).message(p::Model::graph, base_graph()).str());
    c.accept("ai-onnx-alias-node", r::opset, "a node in domain ai.onnx, the model imports the empty domain at 17",
             [] {
                 WireWriter n = node("Neg", {"X"}, {"Y"}, "n0");
                 n.bytes_field(p::Node::domain, "ai.onnx");
                 return ob::model(graph_of({n}, {"X"}, {"Y"}), 9, 17).str();
             }(),
             {{"opset_version", {{"n0", 17}}}});
    c.accept("ai-onnx-alias-import", r::opset, "a node in the empty domain, the model imports ai.onnx at 13",
             WireWriter()
                 .int_field(p::Model::ir_version, 9)
                 .message(p::Model::graph, graph_of({node("Neg", {"X"}, {"Y"}, "n0")}, {"X"}, {"Y"}))
                 .message(p::Model::opset_import, ob::opset("ai.onnx", 13))
                 .str(),
             {{"opset_version", {{"n0", 13}}}});
    c.accept("custom-domain-imported", r::opset, "a node in com.example, imported at version 2",
             [] {
                 WireWriter n = node("Foo", {"X"}, {"Y"}, "n0");
                 n.bytes_field(p::Node::domain, "com.example");
                 return ob::model(graph_of({n}, {"X"}, {"Y"})).str() +
                        WireWriter().message(p::Model::opset_import, ob::opset("com.example", 2)).str();
             }(),
             {{"opset_version", {{"n0", 2}}}});
    c.refuse("InvalidModel", "domain-not-imported-in-subgraph", r::domain, "a subgraph node in an unimported domain",
             [] {
                 WireWriter inner = node("Foo", {"X"}, {"t"}, "inner");
                 inner.bytes_field(p::Node::domain, "com.example");
                 return model_of(
                     {with_graph_attr(node("If", {"X"}, {"Y"}, "ifn"), "then_branch", bare_graph({inner}, {}, {"t"}))},
                     {"X"}, {"Y"});
             }());

    // Functions.
    auto function = [](std::string_view name, std::string_view calls, bool broken_body) {
        WireWriter body = node(calls, {"a"}, {"b"}, "call");
        body.bytes_field(p::Node::domain, "local");
        WireWriter fn;
        fn.bytes_field(p::Function::name, name)
            .bytes_field(p::Function::input, "a")
            .bytes_field(p::Function::output, "b")
            .message(p::Function::node, body);
        if (broken_body) {
            WireWriter bad = node("Foo", {"nowhere"}, {"c"}, "dangling");
            bad.bytes_field(p::Node::domain, "not.imported");
            fn.message(p::Function::node, bad);
        }
        fn.message(p::Function::opset_import, ob::opset("", 21))
            .message(p::Function::opset_import, ob::opset("local", 1))
            .bytes_field(p::Function::domain, "local");
        return WireWriter().message(p::Model::functions, fn);
    };
    auto calls_f = [] {
        WireWriter n = node("f", {"X"}, {"Y"}, "n0");
        n.bytes_field(p::Node::domain, "local");
        return ob::model(graph_of({n}, {"X"}, {"Y"})).str() +
               WireWriter().message(p::Model::opset_import, ob::opset("local", 1)).str();
    };
    c.accept("function-call-cycle", r::functions,
             "function f calls g, g calls f: a cycle, but functions are not expanded",
             calls_f() + function("f", "g", false).str() + function("g", "f", false).str(),
             {{"function_names", {"f", "g"}}, {"opset_version", {{"n0", 1}}}});
    c.accept("function-self-recursive", r::functions, "function f calls itself",
             calls_f() + function("f", "f", false).str(), {{"function_names", {"f"}}});
    c.accept("function-body-unresolved", r::fn_body,
             "a body node reads an undefined name in an unimported domain: bodies are not resolved",
             calls_f() + function("f", "Neg", true).str(), {{"function_names", {"f"}}});
    c.refuse("InvalidModel", "function-domain-not-imported", r::domain,
             "the graph calls local.f but the model does not import local",
             ob::model(graph_of({[] {
                                    WireWriter n = node("f", {"X"}, {"Y"}, "n0");
                                    n.bytes_field(p::Node::domain, "local");
                                    return n;
                                }()},
                                {"X"}, {"Y"}))
                     .str() +
                 function("f", "Neg", false).str());

    // Types.
    c.accept("type-from-declaration-first", r::types, "input X declared float, value_info X says int64: float wins",
             model_of({node("Identity", {"X"}, {"Y"}, "n0")}, {"X"}, {"Y"},
                      {WireWriter().message(p::Graph::value_info, ob::value_info("X", 7))}),
             {{"value_elem_type", {{"X", 1}}}});
    c.accept("type-from-value-info", r::types, "the untyped intermediate Z gets its type (int8) from value_info",
             model_of({node("Identity", {"X"}, {"Z"}, "n0"), node("Identity", {"Z"}, {"Y"}, "n1")}, {"X"}, {"Y"},
                      {WireWriter().message(p::Graph::value_info, ob::value_info("Z", 3))}),
             {{"value_elem_type", {{"Z", 3}, {"Y", 1}}}});
    c.accept("value-info-undefined-ignored", r::vi_ignored, "value_info for Ghost, which nothing defines",
             model_of({node("Identity", {"X"}, {"Y"}, "n0")}, {"X"}, {"Y"},
                      {WireWriter().message(p::Graph::value_info, ob::value_info("Ghost"))}),
             {{"node_order", {"n0"}}});

    // Order.
    c.accept(
        "order-sorted-kept", r::order_kept, "three nodes already in order",
        model_of({node("Neg", {"X"}, {"a"}, "n0"), node("Neg", {"a"}, {"b"}, "n1"), node("Neg", {"b"}, {"Y"}, "n2")},
                 {"X"}, {"Y"}),
        {{"nodes_were_reordered", false}, {"node_order", {"n0", "n1", "n2"}}});
    c.accept(
        "order-reversed", r::order_sort, "three nodes in reverse order",
        model_of({node("Neg", {"b"}, {"Y"}, "n2"), node("Neg", {"a"}, {"b"}, "n1"), node("Neg", {"X"}, {"a"}, "n0")},
                 {"X"}, {"Y"}),
        {{"nodes_were_reordered", true}, {"node_order", {"n0", "n1", "n2"}}});
    c.accept("order-smallest-file-index", r::order_sort,
             "file order p(b->c), q(a->b), r(X->a), s(X->d): the rule gives r, q, p, s (a FIFO of ready nodes gives r, "
             "s, q, p)",
             model_of({node("Neg", {"b"}, {"c"}, "p"), node("Neg", {"a"}, {"b"}, "q"), node("Neg", {"X"}, {"a"}, "r"),
                       node("Neg", {"X"}, {"d"}, "s")},
                      {"X"}, {"c"}),
             {{"nodes_were_reordered", true}, {"node_order", {"r", "q", "p", "s"}}});
    c.accept("order-initializer-and-optional-inputs-ready", r::order_kept,
             "inputs from initializers and omitted optionals are available at once: order kept",
             model_of({node("Add", {"X", "W"}, {"a"}, "n0"), node("Clip", {"a", "", ""}, {"Y"}, "n1")}, {"X"}, {"Y"},
                      {init_field("W")}),
             {{"nodes_were_reordered", false}, {"node_order", {"n0", "n1"}}});
    c.refuse(
        "InvalidModel", "cycle-two-nodes", r::cycle, "a reads b's output and b reads a's",
        model_of({node("Neg", {"q"}, {"p"}, "a"), node("Neg", {"p"}, {"q"}, "b"), node("Identity", {"X"}, {"Y"}, "n0")},
                 {"X"}, {"Y"}));
    c.refuse("InvalidModel", "cycle-self-loop", r::cycle, "a node that reads its own output",
             model_of({node("Identity", {"X"}, {"Y"}, "n0"), node("Add", {"X", "s"}, {"s"}, "self")}, {"X"}, {"Y"}));
    c.refuse("InvalidModel", "cycle-through-subgraph", r::cycle, "If's subgraph reads m's output, m reads If's output",
             model_of({with_graph_attr(node("If", {"X"}, {"Y"}, "ifn"), "then_branch",
                                       bare_graph({node("Neg", {"M"}, {"t"}, "i")}, {}, {"t"})),
                       node("Neg", {"Y"}, {"M"}, "m")},
                      {"X"}, {"Y"}));
    c.refuse("InvalidModel", "cycle-long", r::cycle, "a 1000-node ring hanging off nothing",
             [] {
                 std::vector<WireWriter> nodes{node("Identity", {"X"}, {"Y"}, "n0")};
                 for (int i = 0; i < 1000; ++i)
                     nodes.push_back(node("Neg", {"r" + std::to_string(i)}, {"r" + std::to_string((i + 1) % 1000)},
                                          "ring" + std::to_string(i)));
                 return model_of(nodes, {"X"}, {"Y"});
             }());

    // Consumers.
    c.accept("consumers-once-per-node", r::consumers, "n0 reads X twice, n1 once: X's consumers are n0, n1",
             model_of({node("Add", {"X", "X"}, {"a"}, "n0"), node("Neg", {"X"}, {"Y"}, "n1")}, {"X"}, {"Y"}),
             {{"consumers", {{"X", {"n0", "n1"}}}}});
    c.accept("consumers-in-sorted-order", r::consumers, "readers listed in sorted order, not file order",
             model_of({node("Add", {"X", "a"}, {"Y"}, "late"), node("Neg", {"X"}, {"a"}, "early")}, {"X"}, {"Y"}),
             {{"consumers", {{"X", {"early", "late"}}}}, {"nodes_were_reordered", true}});

    // Slow by construction.
    c.accept(
        "slow-reversed-chain-100k", r::order_sort,
        "a chain of 10^5 nodes written last first: sorting must be near-linear (the 10^6 version is generated only)",
        reversed_chain(100000),
        {{"nodes_were_reordered", true}, {"node_count", 100000}, {"node_order_ends", {"first", "last"}}});
    c.accept("slow-reversed-chain-1m", r::order_sort,
             "a chain of 10^6 nodes written last first (about 20 MB: generated at test time, not committed)",
             reversed_chain(1000000),
             {{"nodes_were_reordered", true}, {"node_count", 1000000}, {"node_order_ends", {"first", "last"}}})
        .generated_only = true;
    c.accept("slow-100k-consumers", r::consumers, "one value X read by 10^5 nodes",
             [] {
                 WireWriter g;
                 for (int i = 0; i < 100000; ++i) {
                     WireWriter n;
                     n.bytes_field(p::Node::input, "X")
                         .bytes_field(p::Node::output, "o" + base36(static_cast<uint64_t>(i)))
                         .bytes_field(p::Node::op_type, "Neg");
                     g.message(p::Graph::node, n);
                 }
                 g.bytes_field(p::Graph::name, "fan")
                     .message(p::Graph::input, ob::value_info("X"))
                     .message(p::Graph::output, ob::value_info("o0"));
                 return ob::model(g).str();
             }(),
             {{"consumer_count", {{"X", 100000}}}, {"nodes_were_reordered", false}});
    c.accept("slow-deep-if-captures", r::captures,
             "42 nested If graphs (the default nesting limit); each level reads every outer level's value, the "
             "innermost has 10^4 readers of X",
             [] {
                 const int levels = 42;
                 WireWriter g;
                 for (int i = 0; i < 10000; ++i) {
                     WireWriter n;
                     n.bytes_field(p::Node::input, "X")
                         .bytes_field(p::Node::input, "v0")
                         .bytes_field(p::Node::output, "w" + base36(static_cast<uint64_t>(i)))
                         .bytes_field(p::Node::op_type, "Add");
                     g.message(p::Graph::node, n);
                 }
                 for (int k = levels - 1; k >= 0; --k) {
                     // Level k's graph: a node reading X and v0..v(k-1), defining vk, then the If.
                     Names reads{"X"};
                     for (int j = 0; j < k; ++j) reads.push_back("v" + std::to_string(j));
                     WireWriter level;
                     level.message(p::Graph::node,
                                   node("Sum", reads, {"v" + std::to_string(k)}, "sum" + std::to_string(k)));
                     level.message(p::Graph::node,
                                   with_graph_attr(node("If", {}, {k == 0 ? "Y" : "y" + std::to_string(k)},
                                                        "if" + std::to_string(k)),
                                                   "then_branch", g));
                     g = std::move(level);
                 }
                 g.bytes_field(p::Graph::name, "deep")
                     .message(p::Graph::input, ob::value_info("X"))
                     .message(p::Graph::output, ob::value_info("Y"));
                 return ob::model(g).str();
             }(),
             {{"captures", {{"if0/then_branch", {"X", "v0"}}}}, {"node_order", {"sum0", "if0"}}});
}

}  // namespace hostile
