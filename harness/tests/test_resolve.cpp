// Suite `resolve`: graph resolution (spec section 4). Values and their order of
// definition, every refusal with its kind, field path, offset and the names it must
// mention, nested scopes with shadowing and captures, types, opsets, node order and
// consumers.
#include <onnximport/import.hpp>
#include "core/strings.hpp"
#include "model/access.hpp"
#include "model/name_run.hpp"
#include "model/value_index.hpp"
#include <numbered.hpp>
#include <onnx_builders.hpp>
#include <wire_writer.hpp>

#include <boost/test/unit_test.hpp>

#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace resolve_test {

using onnximport::testing::numbered;
using namespace onnximport;
using onnximport::detail::ValueIndex;
using onnximport::testing::WireWriter;
namespace tb = onnximport::testing;

// ---- Building models ------------------------------------------------------------------

/// A GraphProto under construction; fields may come in any order on the wire.
struct G {
    using Field = proto::Graph;
    WireWriter w;
    explicit G(std::string_view name = "g") { w.bytes_field(Field::name, name); }

    G& in(std::string_view n, int32_t elem = 1) { w.message(Field::input, tb::value_info(n, elem)); return *this; }
    G& in_untyped(std::string_view n) { w.message(Field::input, untyped(n)); return *this; }
    G& out(std::string_view n, int32_t elem = 1, std::vector<int64_t> dims = {1}) {
        w.message(Field::output, tb::value_info(n, elem, dims));
        return *this;
    }
    G& out_untyped(std::string_view n) { w.message(Field::output, untyped(n)); return *this; }
    G& info(std::string_view n, int32_t elem = 1, std::vector<int64_t> dims = {1}) {
        w.message(Field::value_info, tb::value_info(n, elem, dims));
        return *this;
    }
    G& init(std::string_view n) {
        w.message(Field::initializer, tb::tensor_raw(n, 1, {1}, std::string(4, '\0')));
        return *this;
    }
    G& sparse(std::string_view n) {
        w.message(Field::sparse_initializer, tb::sparse_tensor(tb::tensor_raw(n, 1, {1}, std::string(4, '\0')),
                                                           tb::tensor_raw("", 7, {1}, std::string(8, '\0')), {4}));
        return *this;
    }
    G& node(std::string_view op, const std::vector<std::string>& ins, const std::vector<std::string>& outs,
            std::string_view name = {}) {
        w.message(Field::node, tb::node(op, ins, outs, name));
        return *this;
    }
    /// A node with extra fields already appended (attributes, domain).
    G& raw_node(const WireWriter& n) {
        w.message(Field::node, n);
        return *this;
    }

private:
    static WireWriter untyped(std::string_view n) { return WireWriter().bytes_field(proto::ValueInfo::name, n); }
};

/// NodeProto with one graph attribute.
WireWriter node_with_graph(std::string_view op, const std::vector<std::string>& ins,
                           const std::vector<std::string>& outs, std::string_view attr, const G& body,
                           std::string_view name = {}) {
    return tb::node(op, ins, outs, name).message(proto::Node::attribute, tb::attr_graph(attr, body.w));
}

/// An If: then_branch and else_branch.
WireWriter if_node(const std::vector<std::string>& ins, const std::vector<std::string>& outs, const G& then_g,
                   const G& else_g, std::string_view name = {}) {
    return tb::node("If", ins, outs, name)
        .message(proto::Node::attribute, tb::attr_graph("then_branch", then_g.w))
        .message(proto::Node::attribute, tb::attr_graph("else_branch", else_g.w));
}

/// An attribute of type GRAPHS.
WireWriter attr_graphs(std::string_view name, std::initializer_list<const G*> graphs) {
    WireWriter a;
    a.bytes_field(proto::Attribute::name, name);
    for (const G* g : graphs) a.message(proto::Attribute::graphs, g->w);
    return a.int_field(proto::Attribute::type, 10);
}

WireWriter node_in_domain(std::string_view op, const std::vector<std::string>& ins,
                          const std::vector<std::string>& outs, std::string_view domain, std::string_view name = {}) {
    return tb::node(op, ins, outs, name).bytes_field(proto::Node::domain, domain);
}

std::string model_of(const G& g) { return tb::model(g.w).str(); }

/// A model importing exactly the given opsets.
std::string model_with_opsets(const G& g, std::initializer_list<std::pair<std::string_view, int64_t>> opsets,
                              const WireWriter* function = nullptr) {
    WireWriter m;
    m.int_field(proto::Model::ir_version, 9).message(proto::Model::graph, g.w);
    for (auto& [domain, version] : opsets) m.message(proto::Model::opset_import, tb::opset(domain, version));
    if (function) m.message(proto::Model::functions, *function);
    return m.str();
}

// ---- Importing ------------------------------------------------------------------------

/// The bytes are used in place, so they live with the Model (and are destroyed after it).
struct Loaded {
    std::unique_ptr<std::string> bytes;
    Model model;
    const Graph& graph() { return *model.graph(); }
};

std::span<const uint8_t> span_of(const std::string& s) {
    return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

Loaded load(std::string bytes, bool resolve = true) {
    auto owned = std::make_unique<std::string>(std::move(bytes));
    ImportOptions o;
    o.resolve = resolve;
    o.load_external_data = false;
    Model m = import_bytes(span_of(*owned), "resolve.onnx", o);
    return Loaded{std::move(owned), std::move(m)};
}

ImportError refusal_of(const std::string& bytes) {
    try {
        load(bytes);
    } catch (const ImportError& e) {
        return e;
    }
    BOOST_FAIL("the model was accepted");
    throw;  // unreachable: BOOST_FAIL throws
}

/// Asserts an InvalidModel refusal at `path` whose message mentions every string given.
ImportError expect_invalid(const std::string& bytes, const std::string& path,
                           std::initializer_list<std::string_view> mentions) {
    ImportError e = refusal_of(bytes);
    BOOST_TEST((e.kind() == ErrorKind::InvalidModel), "kind is " << to_string(e.kind()) << ": " << e.what());
    BOOST_TEST(e.field_path() == path);
    for (std::string_view m : mentions)
        BOOST_TEST(e.message().find(m) != std::string::npos, "message \"" << e.message() << "\" lacks " << m);
    return e;
}

std::vector<uint32_t> file_order(const Graph& g) {
    std::vector<uint32_t> v;
    for (const Node& n : g.nodes) v.push_back(n.file_index);
    return v;
}

using Names = std::vector<std::string_view>;
using Indices = std::vector<uint32_t>;

const Value& value(const Graph& g, std::string_view name) {
    const Value* v = g.find_value(name);
    BOOST_REQUIRE_MESSAGE(v, "no value " << name);
    return *v;
}

}  // namespace resolve_test

using namespace resolve_test;

BOOST_AUTO_TEST_SUITE(resolve)

// ---- Values -----------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(values_are_defined_inputs_then_initializers_then_sparse_then_node_outputs) {
    G g;
    g.node("Add", {"X", "W"}, {"Y"}).init("W").sparse("S").in("X").out("Y");
    Loaded m = load(model_of(g));
    const Graph& gr = m.graph();
    BOOST_TEST(gr.resolved);
    BOOST_REQUIRE_EQUAL(gr.values.size(), 4u);
    BOOST_TEST(gr.values[0].name == "X");
    BOOST_TEST((gr.values[0].source == Value::Source::Input));
    BOOST_TEST(gr.values[1].name == "W");
    BOOST_TEST((gr.values[1].source == Value::Source::Initializer));
    BOOST_TEST(gr.values[1].initializer == &gr.initializers[0]);
    BOOST_TEST(gr.values[2].name == "S");
    BOOST_TEST((gr.values[2].source == Value::Source::SparseInitializer));
    BOOST_TEST(gr.values[2].sparse_initializer == &gr.sparse_initializers[0]);
    BOOST_TEST(gr.values[3].name == "Y");
    BOOST_TEST((gr.values[3].source == Value::Source::NodeOutput));
    BOOST_TEST(gr.values[3].producer == 0);
    BOOST_TEST(gr.captures.empty());
    BOOST_TEST(gr.nodes[0].opset_version == 21);
}

BOOST_AUTO_TEST_CASE(initializer_named_like_an_input_is_its_default_value) {
    // The IR < 4 layout: every initializer is also listed as an input.
    G g;
    g.in("X").in("W").init("W").node("Add", {"X", "W"}, {"Y"}).out("Y");
    Loaded m = load(tb::model(g.w, 3, 8).str());
    const Graph& gr = m.graph();
    BOOST_REQUIRE_EQUAL(gr.values.size(), 3u);
    const Value& w = value(gr, "W");
    BOOST_TEST((w.source == Value::Source::Input));
    BOOST_TEST(w.initializer == &gr.initializers[0]);
    BOOST_TEST(w.type == &gr.inputs[1].type);
    BOOST_TEST(value(gr, "X").initializer == nullptr);
}

BOOST_AUTO_TEST_CASE(omitted_optional_inputs_and_outputs_give_no_value) {
    G g;
    g.in("X").node("Dropout", {"X", "", ""}, {"Y", ""}, "drop").node("Clip", {"Y", "", "X"}, {"Z"}).out("Z");
    Loaded m = load(model_of(g));
    const Graph& gr = m.graph();
    BOOST_TEST(gr.values.size() == 3u);
    BOOST_TEST(gr.find_value("") == nullptr);
    BOOST_TEST(value(gr, "X").consumers == (Indices{0, 1}), boost::test_tools::per_element());
    // The reader's counts that size resolution's tables include the omitted ones.
    BOOST_TEST(detail::ModelAccess::node_input_count(gr) == 6u);
    BOOST_TEST(detail::ModelAccess::node_output_count(gr) == 3u);
}

BOOST_AUTO_TEST_CASE(a_read_of_a_neighbours_output_after_an_omitted_one_finds_its_value) {
    // Node reads are looked up among the neighbours' outputs first (resolve/scope.hpp,
    // defined_by): an omitted output defines no value, so the index must not count it.
    for (bool reversed : {false, true}) {
        BOOST_TEST_CONTEXT("written " << (reversed ? "last to first" : "in order")) {
            G g;
            g.in("X");
            if (reversed) g.node("Relu", {"B"}, {"Y"}).node("Split", {"X"}, {"", "A", "B"});
            else g.node("Split", {"X"}, {"", "A", "B"}).node("Relu", {"B"}, {"Y"});
            Loaded m = load(model_of(g.out("Y")));
            const Graph& gr = m.graph();
            BOOST_TEST(gr.values.size() == 4u);
            BOOST_TEST(value(gr, "B").producer == 0);
            BOOST_TEST(value(gr, "B").consumers == (Indices{1}), boost::test_tools::per_element());
            BOOST_TEST(value(gr, "A").consumers.empty());
            BOOST_TEST(value(gr, "Y").producer == 1);
        }
    }
}

BOOST_AUTO_TEST_CASE(empty_input_name_is_invalid) {
    G g;
    g.in("X").in("").node("Identity", {"X"}, {"Y"}).out("Y");
    std::string bytes = model_of(g);
    ImportError e = expect_invalid(bytes, "ModelProto.graph.input[1]", {"empty name"});
    BOOST_TEST(e.offset().value() == load(bytes, false).graph().inputs[1].offset);
}

BOOST_AUTO_TEST_CASE(repeated_input_name_is_invalid) {
    G g;
    g.in("X").in("X").node("Identity", {"X"}, {"Y"}).out("Y");
    std::string bytes = model_of(g);
    ImportError e = expect_invalid(bytes, "ModelProto.graph.input[1]", {"\"X\""});
    BOOST_TEST(e.offset().value() == load(bytes, false).graph().inputs[1].offset);
}

BOOST_AUTO_TEST_CASE(second_initializer_for_an_input_is_invalid) {
    G g;
    g.in("X").in("W").init("W").init("W").node("Add", {"X", "W"}, {"Y"}).out("Y");
    std::string bytes = model_of(g);
    ImportError e = expect_invalid(bytes, "ModelProto.graph.initializer[1]", {"\"W\"", "twice"});
    BOOST_TEST(e.offset().value() == load(bytes, false).graph().initializers[1].offset);
}

BOOST_AUTO_TEST_CASE(repeated_initializer_name_is_invalid) {
    G g;
    g.in("X").init("A").init("W").init("W").node("Add", {"X", "W"}, {"Y"}).out("Y");
    expect_invalid(model_of(g), "ModelProto.graph.initializer[2]", {"\"W\""});
}

BOOST_AUTO_TEST_CASE(sparse_initializer_repeating_a_name_is_invalid) {
    // Only dense initializers serve as an input's default (spec: "an initializer whose name is an input").
    G g;
    g.in("X").sparse("S").sparse("X").node("Identity", {"X"}, {"Y"}).out("Y");
    std::string bytes = model_of(g);
    ImportError e = expect_invalid(bytes, "ModelProto.graph.sparse_initializer[1]", {"\"X\"", "graph input"});
    BOOST_TEST(e.offset().value() == load(bytes, false).graph().sparse_initializers[1].offset);
}

BOOST_AUTO_TEST_CASE(node_output_repeating_an_initializer_is_invalid) {
    G g;
    g.in("X").init("W").node("Relu", {"X"}, {"W"}, "writer").out("W");
    expect_invalid(model_of(g), "ModelProto.graph.node[0]", {"\"writer\"", "\"W\"", "initializer"});
}

BOOST_AUTO_TEST_CASE(value_defined_by_two_nodes_is_invalid_naming_the_second) {
    G g;
    g.in("X").node("Relu", {"X"}, {"Y"}, "first").node("Neg", {"X"}, {"Y"}).out("Y");
    std::string bytes = model_of(g);
    ImportError e = expect_invalid(bytes, "ModelProto.graph.node[1]", {"node #1 (Neg)", "\"Y\"", "\"first\""});
    BOOST_TEST(e.offset().value() == load(bytes, false).graph().nodes[1].offset);
}

BOOST_AUTO_TEST_CASE(node_writing_one_name_twice_is_invalid) {
    G g;
    g.in("X").node("Split", {"X"}, {"A", "A"}, "split").out("A");
    expect_invalid(model_of(g), "ModelProto.graph.node[0]", {"\"split\"", "\"A\""});
}

// ---- References --------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(undefined_input_is_invalid_naming_the_node_and_the_value) {
    G g;
    g.in("X")
        .node("Relu", {"X"}, {"A"})
        .node("Relu", {"A"}, {"B"})
        .node("Relu", {"B"}, {"C"})
        .node("Add", {"C", "nowhere"}, {"Y"}, "adder")
        .out("Y");
    std::string bytes = model_of(g);
    ImportError e = expect_invalid(bytes, "ModelProto.graph.node[3]", {"\"adder\"", "\"nowhere\""});
    BOOST_TEST(e.offset().value() == load(bytes, false).graph().nodes[3].offset);
}

BOOST_AUTO_TEST_CASE(undefined_input_of_an_unnamed_node_names_op_type_and_file_index) {
    G g;
    g.in("X").node("Relu", {"X"}, {"A"}).node("Mul", {"A", "missing"}, {"Y"}).out("Y");
    expect_invalid(model_of(g), "ModelProto.graph.node[1]", {"node #1 (Mul)", "\"missing\""});
}

BOOST_AUTO_TEST_CASE(undefined_input_in_a_nested_subgraph_has_the_full_field_path) {
    G inner("inner");
    inner.node("Identity", {"X"}, {"I0"}).node("Add", {"I0", "ghost"}, {"I1"}, "deep").out("I1");
    G sub("sub");
    sub.raw_node(node_with_graph("Loop", {}, {"S0"}, "body", inner)).out("S0");
    G g;
    g.in("X").node("Relu", {"X"}, {"A"}).node("Relu", {"A"}, {"B"});
    g.raw_node(tb::node("If", {"B"}, {"Y"})
                   .message(proto::Node::attribute, tb::attr_int("unused", 1))
                   .message(proto::Node::attribute, tb::attr_graph("then_branch", sub.w)))
        .out("Y");
    std::string bytes = model_of(g);
    ImportError e = expect_invalid(bytes, "ModelProto.graph.node[2].attribute[1].g.node[0].attribute[0].g.node[1]",
                                   {"\"deep\"", "\"ghost\""});
    Loaded parsed = load(bytes, false);
    const Node& deep = parsed.graph().nodes[2].attributes[1].g()->nodes[0].attributes[0].g()->nodes[1];
    BOOST_TEST(e.offset().value() == deep.offset);
}

BOOST_AUTO_TEST_CASE(undefined_input_in_a_graphs_attribute_has_the_field_path) {
    G first("first");
    first.node("Identity", {"X"}, {"F"}).out("F");
    G second("second");
    second.node("Identity", {"nope"}, {"S"}).out("S");
    G g;
    g.in("X")
        .raw_node(tb::node("Custom", {"X"}, {"Y"})
                      .message(proto::Node::attribute, attr_graphs("branches", {&first, &second})))
        .out("Y");
    expect_invalid(model_of(g), "ModelProto.graph.node[0].attribute[0].graphs[1].node[0]",
                   {"node #0 (Identity)", "\"nope\""});
}

BOOST_AUTO_TEST_CASE(undefined_graph_output_is_invalid) {
    G g;
    g.in("X").node("Relu", {"X"}, {"Y"}).out("Y").out("Z");
    std::string bytes = model_of(g);
    ImportError e = expect_invalid(bytes, "ModelProto.graph.output[1]", {"\"Z\""});
    BOOST_TEST(e.offset().value() == load(bytes, false).graph().outputs[1].offset);
}

BOOST_AUTO_TEST_CASE(empty_graph_output_name_is_invalid) {
    G g;
    g.in("X").node("Relu", {"X"}, {"Y"}).out_untyped("");
    expect_invalid(model_of(g), "ModelProto.graph.output[0]", {"empty name"});
}

BOOST_AUTO_TEST_CASE(undefined_subgraph_output_is_invalid) {
    G then_g("then");
    then_g.node("Relu", {"X"}, {"T"}).out("T");
    G else_g("else");
    else_g.out("E");
    G g;
    g.in("C").in("X").raw_node(if_node({"C"}, {"Y"}, then_g, else_g)).out("Y");
    expect_invalid(model_of(g), "ModelProto.graph.node[0].attribute[1].g.output[0]", {"\"E\""});
}

BOOST_AUTO_TEST_CASE(value_defined_in_a_subgraph_is_not_visible_outside) {
    G body("body");
    body.node("Relu", {"X"}, {"inside"}).out("inside");
    G g;
    g.in("X")
        .raw_node(node_with_graph("Loop", {}, {"L"}, "body", body))
        .node("Add", {"L", "inside"}, {"Y"}, "reader")
        .out("Y");
    expect_invalid(model_of(g), "ModelProto.graph.node[1]", {"\"reader\"", "\"inside\""});
}

BOOST_AUTO_TEST_CASE(subgraph_does_not_see_a_sibling_subgraphs_values) {
    G then_g("then");
    then_g.node("Relu", {"X"}, {"only_then"}).out("only_then");
    G else_g("else");
    else_g.node("Neg", {"only_then"}, {"E"}, "sibling_reader").out("E");
    G g;
    g.in("C").in("X").raw_node(if_node({"C"}, {"Y"}, then_g, else_g)).out("Y");
    expect_invalid(model_of(g), "ModelProto.graph.node[0].attribute[1].g.node[0]",
                   {"\"sibling_reader\"", "\"only_then\""});
}

// ---- Opsets ---------------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(ai_onnx_and_the_empty_domain_are_the_same_domain) {
    {
        G g;
        g.in("X").node("Relu", {"X"}, {"A"}).raw_node(node_in_domain("Relu", {"A"}, {"Y"}, "ai.onnx")).out("Y");
        Loaded m = load(model_with_opsets(g, {{"ai.onnx", 17}}));
        BOOST_TEST(m.graph().nodes[0].opset_version == 17);
        BOOST_TEST(m.graph().nodes[1].opset_version == 17);
    }
    {
        G g;
        g.in("X").raw_node(node_in_domain("Relu", {"X"}, {"Y"}, "ai.onnx")).out("Y");
        Loaded m = load(model_with_opsets(g, {{"", 13}, {"com.example", 2}}));
        BOOST_TEST(m.graph().nodes[0].opset_version == 13);
    }
}

BOOST_AUTO_TEST_CASE(node_gets_the_version_imported_for_its_domain) {
    G body("body");
    body.raw_node(node_in_domain("Inner", {"X"}, {"B"}, "com.example")).out("B");
    G g;
    g.in("X")
        .raw_node(node_in_domain("Custom", {"X"}, {"A"}, "com.example"))
        .raw_node(node_with_graph("Loop", {}, {"Y"}, "body", body))
        .out("A")
        .out("Y");
    Loaded m = load(model_with_opsets(g, {{"", 21}, {"com.example", 3}}));
    BOOST_TEST(m.graph().nodes[0].opset_version == 3);
    BOOST_TEST(m.graph().nodes[1].opset_version == 21);
    BOOST_TEST(m.graph().nodes[1].attributes[0].g()->nodes[0].opset_version == 3);
}

BOOST_AUTO_TEST_CASE(node_in_a_domain_not_imported_is_invalid) {
    G g;
    g.in("X").node("Relu", {"X"}, {"A"}).raw_node(node_in_domain("Fancy", {"A"}, {"Y"}, "com.other", "fancy")).out("Y");
    std::string bytes = model_with_opsets(g, {{"", 21}, {"com.example", 1}});
    ImportError e = expect_invalid(bytes, "ModelProto.graph.node[1]", {"\"fancy\"", "\"com.other\""});
    BOOST_TEST(e.offset().value() == load(bytes, false).graph().nodes[1].offset);
}

BOOST_AUTO_TEST_CASE(default_domain_not_imported_is_invalid) {
    G g;
    g.in("X").node("Relu", {"X"}, {"Y"}).out("Y");
    expect_invalid(model_with_opsets(g, {{"com.example", 1}}), "ModelProto.graph.node[0]", {"node #0 (Relu)", "\"\""});
}

BOOST_AUTO_TEST_CASE(node_in_a_subgraph_with_a_domain_not_imported_is_invalid) {
    G body("body");
    body.node("Relu", {"X"}, {"B0"}).raw_node(node_in_domain("Fancy", {"B0"}, {"B"}, "com.other")).out("B");
    G g;
    g.in("X").raw_node(node_with_graph("Loop", {}, {"Y"}, "body", body)).out("Y");
    expect_invalid(model_of(g), "ModelProto.graph.node[0].attribute[0].g.node[1]",
                   {"node #1 (Fancy)", "\"com.other\""});
}

BOOST_AUTO_TEST_CASE(call_of_a_local_function_still_needs_its_domain_imported) {
    WireWriter fn;
    using F = proto::Function;
    fn.bytes_field(F::name, "Twice")
        .bytes_field(F::domain, "local")
        .bytes_field(F::input, "x")
        .bytes_field(F::output, "y");
    fn.message(F::node, tb::node("Add", {"x", "x"}, {"y"})).message(F::opset_import, tb::opset("", 21));
    G g;
    g.in("X").raw_node(node_in_domain("Twice", {"X"}, {"Y"}, "local", "call")).out("Y");
    expect_invalid(model_with_opsets(g, {{"", 21}}, &fn), "ModelProto.graph.node[0]", {"\"call\"", "\"local\""});
    Loaded m = load(model_with_opsets(g, {{"", 21}, {"local", 1}}, &fn));
    BOOST_TEST(m.graph().nodes[0].opset_version == 1);
}

BOOST_AUTO_TEST_CASE(function_bodies_are_imported_as_written_and_not_resolved) {
    // The body reads a name it never defines and uses a domain nobody imports: resolution
    // does not look inside functions.
    WireWriter fn;
    using F = proto::Function;
    fn.bytes_field(F::name, "Odd")
        .bytes_field(F::domain, "local")
        .bytes_field(F::input, "x")
        .bytes_field(F::output, "y");
    fn.message(F::node, node_in_domain("Strange", {"x", "undefined_in_body"}, {"y"}, "com.nowhere"));
    G g;
    g.in("X").raw_node(node_in_domain("Odd", {"X"}, {"Y"}, "local")).out("Y");
    Loaded m = load(model_with_opsets(g, {{"", 21}, {"local", 1}}, &fn));
    BOOST_REQUIRE_EQUAL(m.model.proto().functions.size(), 1u);
    const Function& f = m.model.proto().functions[0];
    BOOST_REQUIRE_EQUAL(f.nodes.size(), 1u);
    BOOST_TEST(f.nodes[0].inputs[1] == "undefined_in_body");
    BOOST_TEST(f.nodes[0].opset_version == 0);
}

BOOST_AUTO_TEST_CASE(training_info_graphs_are_left_unresolved) {
    G init("init");
    init.node("Constant", {}, {"W0"}).node("Identity", {"not_defined_anywhere"}, {"W1"}).out("W1");
    WireWriter ti;
    ti.message(proto::TrainingInfo::initialization, init.w);
    G g;
    g.in("X").node("Relu", {"X"}, {"Y"}).out("Y");
    std::string bytes = tb::model(g.w).message(proto::Model::training_info, ti).str();
    Loaded m = load(bytes);
    BOOST_TEST(m.graph().resolved);
    BOOST_REQUIRE_EQUAL(m.model.proto().training_info.size(), 1u);
    BOOST_TEST(!m.model.proto().training_info[0].initialization()->resolved);
}

// ---- Scope and captures -------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(if_branches_capture_outer_values_and_order_the_if_after_their_producers) {
    G then_g("then");
    then_g.node("Add", {"X", "A"}, {"T"}).out("T");
    G else_g("else");
    else_g.node("Identity", {"X"}, {"E"}).node("Add", {"E", "X"}, {"E2"}).out("E2");
    G g;
    g.in("C").in("X").raw_node(if_node({"C"}, {"Y"}, then_g, else_g, "if")).node("Relu", {"X"}, {"A"}, "relu").out("Y");
    Loaded m = load(model_of(g));
    const Graph& gr = m.graph();
    // The If reads A through its then-branch: it must come after the Relu.
    BOOST_TEST(gr.nodes_were_reordered);
    BOOST_TEST(file_order(gr) == (Indices{1, 0}), boost::test_tools::per_element());
    const Graph& then_r = *gr.nodes[1].attributes[0].g();
    const Graph& else_r = *gr.nodes[1].attributes[1].g();
    BOOST_TEST(then_r.resolved);
    BOOST_TEST(else_r.resolved);
    BOOST_TEST(then_r.captures == (Names{"X", "A"}), boost::test_tools::per_element());
    BOOST_TEST(else_r.captures == (Names{"X"}), boost::test_tools::per_element());
    BOOST_TEST(gr.captures.empty());
    BOOST_TEST(value(gr, "A").consumers == (Indices{1}), boost::test_tools::per_element());
    BOOST_TEST(value(gr, "X").consumers == (Indices{0, 1}), boost::test_tools::per_element());
    BOOST_TEST(value(gr, "C").consumers == (Indices{1}), boost::test_tools::per_element());
    BOOST_TEST(value(gr, "A").producer == 0);
    BOOST_TEST(value(gr, "Y").producer == 1);
    // Inside a branch, outer values are not values of the branch.
    BOOST_TEST(then_r.find_value("X") == nullptr);
    BOOST_TEST(value(else_r, "E").consumers == (Indices{1}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(loop_body_sees_its_own_inputs_and_captures_outer_initializers) {
    G body("body");
    body.in("i", 7).in("cond_in", 9).in("v")
        .node("Identity", {"cond_in"}, {"cond_out"})
        .node("Add", {"v", "W"}, {"v_out"})
        .out("cond_out", 9)
        .out("v_out");
    G g;
    g.in("v0").init("W").raw_node(node_with_graph("Loop", {"", "", "v0"}, {"v_final"}, "body", body)).out("v_final");
    Loaded m = load(model_of(g));
    const Graph& gr = m.graph();
    const Graph& b = *gr.nodes[0].attributes[0].g();
    BOOST_TEST(b.captures == (Names{"W"}), boost::test_tools::per_element());
    BOOST_TEST(b.values.size() == 5u);
    BOOST_TEST(value(b, "v").consumers == (Indices{1}), boost::test_tools::per_element());
    BOOST_TEST(value(gr, "W").consumers == (Indices{0}), boost::test_tools::per_element());
    BOOST_TEST(value(gr, "v0").consumers == (Indices{0}), boost::test_tools::per_element());
    BOOST_TEST(!gr.nodes_were_reordered);
}

BOOST_AUTO_TEST_CASE(capture_read_only_by_a_nested_subgraph_is_captured_at_every_level) {
    // main: A, Scan(body S); S: B = Neg(s_in), If(B, then T, else T2) -> R; T reads A and
    // B, T2 reads B. A is read only inside T, two levels down.
    G t("T");
    t.node("Add", {"A", "B"}, {"Z"}).out("Z");
    G t2("T2");
    t2.node("Identity", {"B"}, {"Z2"}).out("Z2");
    G s("S");
    s.in("s_in").node("Neg", {"s_in"}, {"B"}).raw_node(if_node({"B"}, {"R"}, t, t2, "inner_if")).out("R");
    G g;
    g.in("A")
        .in("X")
        .node("Relu", {"X"}, {"P"})
        .raw_node(node_with_graph("Scan", {"P"}, {"out"}, "body", s, "scan"))
        .out("out");
    Loaded m = load(model_of(g));
    const Graph& gr = m.graph();
    const Graph& sr = *gr.nodes[1].attributes[0].g();
    const Graph& tr = *sr.nodes[1].attributes[0].g();
    const Graph& t2r = *sr.nodes[1].attributes[1].g();
    BOOST_TEST(tr.captures == (Names{"A", "B"}), boost::test_tools::per_element());
    BOOST_TEST(t2r.captures == (Names{"B"}), boost::test_tools::per_element());
    BOOST_TEST(sr.captures == (Names{"A"}), boost::test_tools::per_element());
    // The Scan is a reader of A, through T; the If in S reads B directly and through both branches, once.
    BOOST_TEST(value(gr, "A").consumers == (Indices{1}), boost::test_tools::per_element());
    BOOST_TEST(value(sr, "B").consumers == (Indices{1}), boost::test_tools::per_element());
    BOOST_TEST(value(sr, "s_in").consumers == (Indices{0}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(nested_capture_orders_the_outer_node_after_the_producer) {
    // Same shape, with A produced by a node written after the Scan: only the nested read
    // of A ties the Scan to its producer.
    G t("T");
    t.node("Add", {"A", "B"}, {"Z"}).out("Z");
    G t2("T2");
    t2.node("Identity", {"B"}, {"Z2"}).out("Z2");
    G s("S");
    s.in("s_in").node("Neg", {"s_in"}, {"B"}).raw_node(if_node({"B"}, {"R"}, t, t2)).out("R");
    G g;
    g.in("X")
        .raw_node(node_with_graph("Scan", {"X"}, {"out"}, "body", s, "scan"))
        .node("Relu", {"X"}, {"A"}, "late")
        .out("out");
    Loaded m = load(model_of(g));
    const Graph& gr = m.graph();
    BOOST_TEST(gr.nodes_were_reordered);
    BOOST_TEST(file_order(gr) == (Indices{1, 0}), boost::test_tools::per_element());
    BOOST_TEST(value(gr, "A").consumers == (Indices{1}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(captures_are_listed_in_first_read_order_once_each) {
    G body("body");
    body.node("Add", {"C", "A"}, {"b0"})
        .node("Add", {"C", "b0"}, {"b1"})
        .node("Mul", {"A", "D"}, {"b2"})
        .out("b2")
        .out("b1");
    G g;
    g.in("A").in("C").in("D").raw_node(node_with_graph("Loop", {}, {"Y"}, "body", body)).out("Y");
    Loaded m = load(model_of(g));
    const Graph& b = *m.graph().nodes[0].attributes[0].g();
    BOOST_TEST(b.captures == (Names{"C", "A", "D"}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(subgraph_output_naming_an_outer_value_is_a_capture) {
    G then_g("then");
    then_g.out("X");
    G else_g("else");
    else_g.node("Neg", {"X"}, {"N"}).out("N");
    G g;
    g.in("C").in("X").raw_node(if_node({"C"}, {"Y"}, then_g, else_g)).out("Y");
    Loaded m = load(model_of(g));
    const Graph& then_r = *m.graph().nodes[0].attributes[0].g();
    BOOST_TEST(then_r.captures == (Names{"X"}), boost::test_tools::per_element());
    BOOST_TEST(value(m.graph(), "X").consumers == (Indices{0}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(names_defined_in_a_subgraph_shadow_outer_names) {
    // The body redefines X (as an input) and Y (as a node output): its reads of X and Y are
    // its own, so neither is captured and the Loop does not read the outer X or Y.
    G body("body");
    body.in("X").node("Neg", {"X"}, {"Y"}).node("Add", {"Y", "K"}, {"R"}).out("R");
    G g;
    g.in("X")
        .in("K")
        .node("Relu", {"X"}, {"Y"})
        .raw_node(node_with_graph("Loop", {}, {"L"}, "body", body))
        .out("L")
        .out("Y");
    Loaded m = load(model_of(g));
    const Graph& gr = m.graph();
    const Graph& b = *gr.nodes[1].attributes[0].g();
    BOOST_TEST(b.captures == (Names{"K"}), boost::test_tools::per_element());
    BOOST_TEST((value(b, "X").source == Value::Source::Input));
    BOOST_TEST(value(b, "Y").producer == 0);
    BOOST_TEST(value(b, "X").consumers == (Indices{0}), boost::test_tools::per_element());
    BOOST_TEST(value(gr, "X").consumers == (Indices{0}), boost::test_tools::per_element());
    BOOST_TEST(value(gr, "Y").consumers.empty());
    BOOST_TEST(value(gr, "K").consumers == (Indices{1}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(shadowing_in_a_middle_level_hides_the_outer_value_from_deeper_levels) {
    G inner("inner");
    inner.node("Identity", {"V"}, {"I"}).out("I");
    G mid("mid");
    mid.node("Relu", {"Z"}, {"V"}).raw_node(node_with_graph("Loop", {}, {"M"}, "body", inner)).out("M");
    G g;
    g.in("V").in("Z").raw_node(node_with_graph("Loop", {}, {"Y"}, "body", mid)).out("Y");
    Loaded m = load(model_of(g));
    const Graph& mr = *m.graph().nodes[0].attributes[0].g();
    const Graph& ir = *mr.nodes[1].attributes[0].g();
    BOOST_TEST(ir.captures == (Names{"V"}), boost::test_tools::per_element());
    BOOST_TEST(mr.captures == (Names{"Z"}), boost::test_tools::per_element());
    BOOST_TEST(value(mr, "V").consumers == (Indices{1}), boost::test_tools::per_element());
    BOOST_TEST(value(m.graph(), "V").consumers.empty());
}

// ---- Types ----------------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(types_come_from_declarations_then_value_info) {
    G g;
    g.in("X")
        .in_untyped("U")
        .init("W")
        .node("Add", {"X", "U"}, {"H"})
        .node("Mul", {"H", "W"}, {"Y"})
        .node("Neg", {"Y"}, {"Q"})
        .out("Y", 1, {3})
        .info("X", 7)            // X is declared as an input: ignored
        .info("U", 6)            // U's declaration has no type: this one counts
        .info("H", 1, {2})
        .info("Y", 1, {4})       // Y's output declaration came first
        .info("not_a_value", 1)  // names nothing: ignored
        .out("Q")
        .info("Q", 10);
    Loaded m = load(model_of(g));
    const Graph& gr = m.graph();
    BOOST_TEST(value(gr, "X").type == &gr.inputs[0].type);
    BOOST_TEST(value(gr, "U").type == &gr.value_info[1].type);
    BOOST_TEST(value(gr, "H").type == &gr.value_info[2].type);
    BOOST_TEST(value(gr, "Y").type == &gr.outputs[0].type);
    BOOST_TEST(value(gr, "Q").type == &gr.outputs[1].type);
    BOOST_TEST(value(gr, "W").type == nullptr);
    BOOST_TEST(value(gr, "U").type->elem_type == 6);
}

BOOST_AUTO_TEST_CASE(value_info_in_any_order_types_the_value_it_names) {
    // types.cpp tries the values after and before the last one found before the index:
    // reverse order, a jump, a repeat (the first declaration wins) and an unknown name.
    G g;
    g.in("X").node("Relu", {"X"}, {"H1"}).node("Relu", {"H1"}, {"H2"}).node("Relu", {"H2"}, {"H3"});
    g.node("Relu", {"H3"}, {"H4"}).out_untyped("H4");
    g.info("H4", 4).info("H3", 3).info("H2", 2).info("nothing", 5).info("H1", 11).info("H3", 9).info("H1", 9);
    Loaded m = load(model_of(g));
    const Graph& gr = m.graph();
    BOOST_TEST(value(gr, "H4").type == &gr.value_info[0].type);
    BOOST_TEST(value(gr, "H3").type == &gr.value_info[1].type);
    BOOST_TEST(value(gr, "H2").type == &gr.value_info[2].type);
    BOOST_TEST(value(gr, "H1").type == &gr.value_info[4].type);
    BOOST_TEST(value(gr, "H1").type->elem_type == 11);
}

BOOST_AUTO_TEST_CASE(value_info_in_no_order_types_each_value_with_its_first_declaration) {
    // Past eight misses in a row the run hashes ahead (model/name_run.hpp): answers still come in
    // the file's order, so the first value_info naming a value is still the one that types it.
    G g;
    g.in("X");
    constexpr int n = 300;
    for (int i = 0; i < n; ++i) g.node("Relu", {i ? numbered("h", i - 1) : "X"}, {numbered("h", i)});
    g.out_untyped(numbered("h", n - 1));
    std::vector<int> first(n, 0);
    for (int round = 0; round < 2; ++round)
        for (int k = 0; k < n; ++k) {
            const int i = (k * 7 + round) % n;  // 7 is prime to 300: each value once a round
            const int elem = round == 0 ? 1 + i % 10 : 11;
            if (round == 0) first[i] = elem;
            g.info(numbered("h", i), elem);
            if (k % 40 == 0) g.info(numbered("elsewhere", k), 6);
        }
    Loaded m = load(model_of(g));
    const Graph& gr = m.graph();
    bool first_wins = true;
    for (int i = 0; i < n; ++i) {
        const Value& v = value(gr, numbered("h", i));
        first_wins = first_wins && v.type && v.type->elem_type == first[i];
    }
    BOOST_TEST(first_wins);
}

BOOST_AUTO_TEST_CASE(subgraph_value_info_for_an_outer_name_is_ignored) {
    G body("body");
    body.node("Neg", {"X"}, {"B"}).info("X", 7).info("B", 10).out_untyped("B");
    G g;
    g.in("X").raw_node(node_with_graph("Loop", {}, {"Y"}, "body", body)).out("Y");
    Loaded m = load(model_of(g));
    const Graph& b = *m.graph().nodes[0].attributes[0].g();
    BOOST_TEST(b.find_value("X") == nullptr);
    BOOST_TEST(value(b, "B").type == &b.value_info[1].type);
    BOOST_TEST(value(m.graph(), "X").type == &m.graph().inputs[0].type);
}

// ---- Order and consumers --------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(topological_input_keeps_its_order) {
    G g;
    g.in("X").node("Relu", {"X"}, {"A"}).node("Neg", {"X"}, {"B"}).node("Add", {"A", "B"}, {"Y"}).out("Y");
    Loaded m = load(model_of(g));
    BOOST_TEST(!m.graph().nodes_were_reordered);
    BOOST_TEST(file_order(m.graph()) == (Indices{0, 1, 2}), boost::test_tools::per_element());
    BOOST_TEST(m.graph().nodes[2].op_type == "Add");
}

BOOST_AUTO_TEST_CASE(reordering_takes_the_ready_node_with_the_smallest_file_index) {
    // file: 0 C=Add(B,X)  1 B=Relu(A)  2 A=Relu(X)  3 D=Relu(X)  4 E=Neg(C)
    // ready at first: 2, 3. Take 2 -> 1 ready; take 1 (1 < 3) -> 0 ready; take 0 -> 4
    // ready; take 3 (3 < 4); take 4. A "sources first" sort would give 2, 3, 1, 0, 4.
    G g;
    g.in("X")
        .node("Add", {"B", "X"}, {"C"}, "n0")
        .node("Relu", {"A"}, {"B"}, "n1")
        .node("Relu", {"X"}, {"A"}, "n2")
        .node("Relu", {"X"}, {"D"}, "n3")
        .node("Neg", {"C"}, {"E"}, "n4")
        .out("E")
        .out("D");
    Loaded m = load(model_of(g));
    const Graph& gr = m.graph();
    BOOST_TEST(gr.nodes_were_reordered);
    BOOST_TEST(file_order(gr) == (Indices{2, 1, 0, 3, 4}), boost::test_tools::per_element());
    BOOST_TEST(gr.nodes[0].name == "n2");
    BOOST_TEST(gr.nodes[4].name == "n4");
    BOOST_TEST(value(gr, "A").producer == 0);
    BOOST_TEST(value(gr, "B").producer == 1);
    BOOST_TEST(value(gr, "C").producer == 2);
    BOOST_TEST(value(gr, "D").producer == 3);
    BOOST_TEST(value(gr, "X").consumers == (Indices{0, 2, 3}), boost::test_tools::per_element());
    BOOST_TEST(value(gr, "C").consumers == (Indices{4}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(consumers_are_in_resolved_order_each_node_once) {
    G g;
    g.in("X").node("Add", {"X", "X"}, {"A"}).node("Mul", {"A", "X"}, {"B"}).node("Add", {"X", "B"}, {"Y"}).out("Y");
    Loaded m = load(model_of(g));
    BOOST_TEST(value(m.graph(), "X").consumers == (Indices{0, 1, 2}), boost::test_tools::per_element());
    BOOST_TEST(value(m.graph(), "Y").consumers.empty());
}

BOOST_AUTO_TEST_CASE(consumers_of_a_reordered_graph_are_in_resolved_order_whatever_their_file_order) {
    // file: 0 C=Add(Z,B,X)  1 A=Relu(W,X)  2 D=Add(W,A,X)  3 B=Add(Z,Z,X); resolved 1, 2, 3, 0.
    // The readers are gathered in file order, then mapped: W's (files 1, 2) stay in order,
    // Z's (files 0, 3; 3 reads it twice) come out turned round, X's (all four) out of order.
    G g;
    g.in("X").in("W").in("Z")
        .node("Add", {"Z", "B", "X"}, {"C"}, "n0")
        .node("Relu", {"W", "X"}, {"A"}, "n1")
        .node("Add", {"W", "A", "X"}, {"D"}, "n2")
        .node("Add", {"Z", "Z", "X"}, {"B"}, "n3")
        .out("C")
        .out("D");
    Loaded m = load(model_of(g));
    const Graph& gr = m.graph();
    BOOST_TEST(file_order(gr) == (Indices{1, 2, 3, 0}), boost::test_tools::per_element());
    BOOST_TEST(value(gr, "W").consumers == (Indices{0, 1}), boost::test_tools::per_element());
    BOOST_TEST(value(gr, "Z").consumers == (Indices{2, 3}), boost::test_tools::per_element());
    BOOST_TEST(value(gr, "X").consumers == (Indices{0, 1, 2, 3}), boost::test_tools::per_element());
    BOOST_TEST(value(gr, "A").consumers == (Indices{1}), boost::test_tools::per_element());
    BOOST_TEST(value(gr, "B").consumers == (Indices{3}), boost::test_tools::per_element());
    BOOST_TEST(value(gr, "B").producer == 2);
}

BOOST_AUTO_TEST_CASE(cycle_is_invalid_naming_a_node_on_it) {
    // Node 0 only reads from the cycle {1, 2}: the node named must be on the cycle.
    G g;
    g.in("X")
        .node("Relu", {"A"}, {"D"}, "downstream")
        .node("Add", {"X", "B"}, {"A"}, "a")
        .node("Relu", {"A"}, {"B"}, "b")
        .out("D");
    std::string bytes = model_of(g);
    ImportError e = expect_invalid(bytes, "ModelProto.graph.node[1]", {"\"a\"", "cycle", "\"B\""});
    BOOST_TEST(e.offset().value() == load(bytes, false).graph().nodes[1].offset);
}

BOOST_AUTO_TEST_CASE(node_reading_its_own_output_is_a_cycle) {
    G g;
    g.in("X").node("Relu", {"X"}, {"P"}).node("Add", {"P", "S"}, {"S"}).out("S");
    expect_invalid(model_of(g), "ModelProto.graph.node[1]", {"node #1 (Add)", "cycle"});
}

BOOST_AUTO_TEST_CASE(cycle_through_a_subgraph_capture_is_invalid) {
    G body("body");
    body.node("Identity", {"B"}, {"I"}).out("I");
    G g;
    g.in("X").raw_node(node_with_graph("Loop", {}, {"A"}, "body", body, "loop")).node("Relu", {"A"}, {"B"}).out("B");
    expect_invalid(model_of(g), "ModelProto.graph.node[0]", {"\"loop\"", "cycle"});
}

BOOST_AUTO_TEST_CASE(subgraph_nodes_are_reordered_too) {
    G body("body");
    body.node("Neg", {"b0"}, {"b1"}).node("Relu", {"X"}, {"b0"}).out("b1");
    G g;
    g.in("X").raw_node(node_with_graph("Loop", {}, {"Y"}, "body", body)).out("Y");
    Loaded m = load(model_of(g));
    const Graph& b = *m.graph().nodes[0].attributes[0].g();
    BOOST_TEST(!m.graph().nodes_were_reordered);
    BOOST_TEST(b.nodes_were_reordered);
    BOOST_TEST(file_order(b) == (Indices{1, 0}), boost::test_tools::per_element());
    BOOST_TEST(value(b, "b0").consumers == (Indices{1}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(reversed_chain_of_200000_nodes_resolves) {
    // v{i+1} = Relu(v{i}); written last node first. Performance is measured by the
    // benchmarks; this checks the result at a size where a quadratic sort would not end.
    constexpr uint32_t n = 200000;
    G g;
    g.in("v0");
    for (uint32_t k = 0; k < n; ++k) {
        uint32_t i = n - 1 - k;
        g.node("Relu", {numbered("v", i)}, {numbered("v", i + 1)});
    }
    g.out(numbered("v", n));
    Loaded m = load(model_of(g));
    const Graph& gr = m.graph();
    BOOST_TEST(gr.nodes_were_reordered);
    BOOST_REQUIRE_EQUAL(gr.nodes.size(), n);
    bool reversed = true;
    for (uint32_t k = 0; k < n; ++k) reversed = reversed && gr.nodes[k].file_index == n - 1 - k;
    BOOST_TEST(reversed);
    BOOST_TEST(gr.nodes[0].inputs[0] == "v0");
    const Value& mid = value(gr, "v100000");
    BOOST_TEST(mid.producer == 99999);
    BOOST_TEST(mid.consumers == (Indices{100000}), boost::test_tools::per_element());
}

/// Values named `names` and an empty ValueIndex over them, sized for all (not to be moved).
struct IndexedValues {
    std::vector<Value> values;
    std::vector<ValueIndex::Slot> slots;
    ValueIndex index;
    explicit IndexedValues(const std::vector<std::string>& names)
        : values(names.size()), slots(ValueIndex::slots_for(names.size())) {
        for (size_t i = 0; i < names.size(); ++i) values[i].name = names[i];
        index.attach(slots.data(), slots.size(), values.data(), onnximport::detail::random_hash_key());
    }
};

BOOST_AUTO_TEST_CASE(value_index_finds_every_name_in_a_table_sized_once) {
    std::vector<std::string> keys;
    for (int i = 0; i < 5000; ++i) keys.push_back(numbered("name", i * 7919));
    IndexedValues table(keys);
    ValueIndex& index = table.index;
    BOOST_TEST(table.slots.size() >= 2 * keys.size());  // at most half full: probes end
    BOOST_TEST(index.find("name0") == ValueIndex::npos);
    for (uint32_t i = 0; i < keys.size(); ++i) BOOST_TEST_REQUIRE(index.try_emplace(keys[i], i).second);
    BOOST_TEST(index.size() == keys.size());
    bool all_found = true, repeats_refused = true;
    for (uint32_t i = 0; i < keys.size(); ++i) {
        all_found = all_found && index.find(keys[i]) == i;
        auto [existing, inserted] = index.try_emplace(keys[i], 999999);
        repeats_refused = repeats_refused && !inserted && existing == i;
    }
    BOOST_TEST(all_found);
    BOOST_TEST(repeats_refused);
    BOOST_TEST(index.size() == keys.size());
    BOOST_TEST(index.find("name1") == ValueIndex::npos);
    BOOST_TEST(index.find("") == ValueIndex::npos);
}

BOOST_AUTO_TEST_CASE(a_name_run_answers_every_name_as_the_index_does_in_every_order) {
    // model/name_run.hpp compares neighbours first, hashes names ahead once eight in a row
    // miss them, and goes back after eight answers in a row that follow each other: whatever
    // the order, each name gets the index's answer, in the order added.
    constexpr uint32_t n = 5000;
    std::vector<std::string> keys;
    for (uint32_t i = 0; i < n; ++i) keys.push_back(numbered("v", i));
    IndexedValues table(keys);
    const ValueIndex& index = table.index;
    for (uint32_t i = 0; i < n; ++i) BOOST_TEST_REQUIRE(table.index.try_emplace(keys[i], i).second);

    std::vector<uint32_t> in_order(n), scattered(n);
    for (uint32_t i = 0; i < n; ++i) in_order[i] = i;
    for (uint32_t i = 0; i < n; ++i) scattered[i] = (i * 2654435761u) % n;  // 2654435761 is prime to 5000
    std::vector<std::string> unknown;
    for (uint32_t i = 0; i < 100; ++i) unknown.push_back(numbered("absent", i));
    auto run_of = [&](const std::vector<uint32_t>& order, bool extras) {
        std::vector<std::string_view> names;
        for (size_t k = 0; k < order.size(); ++k) {
            names.push_back(keys[order[k]]);
            if (extras && k % 50 == 0) names.push_back(unknown[(k / 50) % unknown.size()]);
            if (extras && k % 70 == 0) names.push_back(keys[order[k / 2]]);  // a repeat
        }
        return names;
    };
    std::vector<uint32_t> mixed;  // in order, scattered, reversed, in order again
    for (uint32_t i = 0; i < 1000; ++i) mixed.push_back(i);
    for (uint32_t i = 0; i < 1000; ++i) mixed.push_back(scattered[i]);
    for (uint32_t i = 3000; i-- > 2000;) mixed.push_back(i);
    for (uint32_t i = 3000; i < n; ++i) mixed.push_back(i);
    std::vector<uint32_t> reversed(in_order.rbegin(), in_order.rend());

    for (const auto& order : {in_order, reversed, scattered, mixed}) {
        for (bool extras : {false, true}) {
            const std::vector<std::string_view> names = run_of(order, extras);
            std::vector<std::pair<uint32_t, uint32_t>> answers;
            bool names_given_back = true;
            auto answer = [&](uint32_t tag, std::string_view name, uint32_t found) {
                names_given_back = names_given_back && name.data() == names[tag].data();
                answers.emplace_back(tag, found);
            };
            onnximport::detail::NameRun run(index, table.values.data(), n, answer);
            for (uint32_t k = 0; k < names.size(); ++k) run.add(names[k], k);
            run.finish();
            BOOST_TEST_REQUIRE(answers.size() == names.size());
            bool as_the_index = true;
            for (uint32_t k = 0; k < names.size(); ++k)
                as_the_index = as_the_index && answers[k].first == k && answers[k].second == index.find(names[k]);
            BOOST_TEST(as_the_index);
            BOOST_TEST(names_given_back);
        }
    }
}

BOOST_AUTO_TEST_CASE(value_index_keeps_every_index_whole_beside_its_tag_at_every_table_size) {
    // A slot holds the index in its low bits and the tag above them (model/value_index.hpp):
    // the last index of a table filled to the most slots_for allows must come back whole.
    bool all_found = true;
    for (size_t n : {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 2047, 2048, 2049, 65536}) {
        std::vector<std::string> names;
        for (size_t i = 0; i < n; ++i) names.push_back(numbered("v", i));
        IndexedValues table(names);
        ValueIndex& index = table.index;
        for (uint32_t i = 0; i < n; ++i) all_found = all_found && index.try_emplace(names[i], i).second;
        for (uint32_t i = 0; i < n; ++i) all_found = all_found && index.find(names[i]) == i;
        for (uint32_t i = 0; i < n; ++i) all_found = all_found && index.try_emplace(names[i], 0) == std::pair{i, false};
        all_found = all_found && index.find(numbered("v", n)) == ValueIndex::npos;
    }
    BOOST_TEST(all_found);
}

BOOST_AUTO_TEST_CASE(value_index_of_a_small_graph_has_no_slots_and_hashes_no_name) {
    // Up to linear_records names the table compares names in turn (model/value_index.hpp,
    // docs/performance-history.md "Small graphs without hashing"): no slots, no hash, and still one
    // answer per name and every repeat refused.
    constexpr size_t n = ValueIndex::linear_records;
    BOOST_TEST(ValueIndex::slots_for(n) == 0u);
    BOOST_TEST(ValueIndex::slots_for(n + 1) >= 2 * (n + 1));
    std::vector<std::string> names;
    for (size_t i = 0; i < n; ++i) names.push_back(std::string(i % 3 + 1, static_cast<char>('a' + i)));
    std::vector<Value> values(n);
    for (size_t i = 0; i < n; ++i) values[i].name = names[i];
    ValueIndex index;
    index.attach(nullptr, 0, values.data(), onnximport::detail::random_hash_key());
    BOOST_TEST(index.hash("a") == 0u);
    BOOST_TEST(index.find("a") == ValueIndex::npos);
    bool all_new = true, all_found = true, repeats_refused = true;
    for (uint32_t i = 0; i < n; ++i) all_new = all_new && index.try_emplace(names[i], i, 0).second;
    for (uint32_t i = 0; i < n; ++i) {
        all_found = all_found && index.find(names[i]) == i;
        repeats_refused = repeats_refused && index.try_emplace(names[i], 99, 0) == std::pair{i, false};
    }
    BOOST_TEST(all_new);
    BOOST_TEST(all_found);
    BOOST_TEST(repeats_refused);
    BOOST_TEST(index.size() == n);
    BOOST_TEST(index.find("aa") == ValueIndex::npos);  // "a" is there: the length counts
}

BOOST_AUTO_TEST_CASE(names_differing_in_any_one_byte_are_different_names) {
    // same_name reads short names as overlapping words (core/strings.hpp): every
    // length and position must count. Names 0..40 bytes, each byte changed in turn.
    std::vector<std::string> names;
    for (size_t n = 0; n <= 40; ++n) {
        std::string base(n, 'a');
        for (size_t i = 0; i < n; ++i) base[i] = static_cast<char>('a' + i % 26);
        names.push_back(base);
        for (size_t i = 0; i < n; ++i) {
            std::string other = base;
            other[i] = '#';
            names.push_back(other);
        }
    }
    bool equal_to_itself = true, unequal_to_others = true;
    for (size_t i = 0; i < names.size(); ++i) {
        std::string copy = names[i];  // other storage, same bytes
        equal_to_itself = equal_to_itself && detail::same_name(names[i], copy);
        for (size_t j = 0; j < names.size(); ++j)
            if (i != j) unequal_to_others = unequal_to_others && !detail::same_name(names[i], names[j]);
    }
    BOOST_TEST(equal_to_itself);
    BOOST_TEST(unequal_to_others);

    IndexedValues table(names);
    ValueIndex& index = table.index;
    bool all_new = true, all_found = true;
    for (uint32_t i = 0; i < names.size(); ++i) all_new = all_new && index.try_emplace(names[i], i).second;
    for (uint32_t i = 0; i < names.size(); ++i) all_found = all_found && index.find(names[i]) == i;
    BOOST_TEST(all_new);
    BOOST_TEST(all_found);
}

BOOST_AUTO_TEST_CASE(resolution_can_be_switched_off) {
    G g;
    g.in("X").node("Relu", {"nowhere"}, {"Y"}).out("Y");
    Loaded m = load(model_of(g), false);
    BOOST_TEST(!m.graph().resolved);
    BOOST_TEST(m.graph().values.empty());
}

// ---- ImportOptions::times ------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(import_times_add_each_step_taken_and_leave_the_others) {
    // A reversed chain takes every step but external data: 20,000 nodes, each step well
    // above the clock's resolution.
    constexpr uint32_t n = 20000;
    G g;
    g.in("v0");
    for (uint32_t k = 0; k < n; ++k) g.node("Relu", {numbered("v", n - 1 - k)}, {numbered("v", n - k)});
    g.out(numbered("v", n));
    const std::string bytes = model_of(g);
    ImportTimes t;
    ImportOptions o;
    o.times = &t;
    const auto t0 = std::chrono::steady_clock::now();
    (void)import_bytes(span_of(bytes), "times.onnx", o);
    const double whole = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    BOOST_TEST(t.read > 0);
    BOOST_TEST(t.external >= 0);
    BOOST_TEST(t.define > 0);
    BOOST_TEST(t.references > 0);
    BOOST_TEST(t.order > 0);  // reordered: the sort ran
    BOOST_TEST(t.consumers > 0);
    BOOST_TEST(t.read + t.external + t.define + t.references + t.types + t.order + t.consumers <= whole);

    // Added to what is there; without resolution its steps are not taken.
    const ImportTimes first = t;
    o.resolve = false;
    (void)import_bytes(span_of(bytes), "times.onnx", o);
    BOOST_TEST(t.read > first.read);
    BOOST_TEST(t.define == first.define);
    BOOST_TEST(t.references == first.references);
    BOOST_TEST(t.order == first.order);
    BOOST_TEST(t.consumers == first.consumers);
}

BOOST_AUTO_TEST_SUITE_END()
