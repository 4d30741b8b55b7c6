// Suite `plain_node`: read_plain_node (importer/src/onnx/read_plain_node.cpp) reads a node
// of short ASCII strings and plain scalar attributes in one scan of its bytes. Every node
// must read as the general path reads it, and every refusal must be the general path's.
#include "core_support.hpp"

#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

using namespace core_test;
using N = onnximport::proto::Node;

namespace {

/// A node's fields in the order written; an attribute is a plain scalar one (name, value, type).
struct Field {
    N number;
    std::string text;  ///< a string field, or an attribute's name
    bool is_float = false;
    uint64_t i = 0;
};

WireWriter node_of(const std::vector<Field>& fields, bool trailing_field) {
    WireWriter n;
    for (const Field& f : fields) {
        if (f.number != N::attribute) {
            n.bytes_field(f.number, f.text);
            continue;
        }
        WireWriter a;
        a.bytes_field(proto::Attribute::name, f.text);
        if (f.is_float) a.float_field(proto::Attribute::f, 0.5f);
        else a.int_field(proto::Attribute::i, f.i);
        a.int_field(proto::Attribute::type, f.is_float ? 1 : 2);
        n.message(N::attribute, a);
    }
    if (trailing_field) n.int_field(99, 0);  // no NodeProto field: the general path skips it
    return n;
}

/// `count` fields of one number, each named by its position after `prefix`.
std::vector<Field> numbered(N number, const std::string& prefix, int count) {
    std::vector<Field> fields;
    for (int i = 0; i < count; ++i) fields.push_back({number, prefix + std::to_string(i), false, 1});
    return fields;
}

std::vector<Field> joined(std::vector<std::vector<Field>> parts) {
    std::vector<Field> all;
    for (auto& part : parts) all.insert(all.end(), part.begin(), part.end());
    return all;
}

/// The node inside `depth` If nodes, each holding the next in its then_branch graph.
WireWriter wrapped(const WireWriter& node, int depth) {
    WireWriter inner = node;
    for (int i = 0; i < depth; ++i) {
        const WireWriter graph = WireWriter().message(onnximport::proto::Graph::node, inner);
        const WireWriter branch = WireWriter()
                                      .bytes_field(proto::Attribute::name, "then_branch")
                                      .int_field(proto::Attribute::type, 5)
                                      .message(proto::Attribute::g, graph);
        inner = WireWriter().bytes_field(N::op_type, "If").message(N::attribute, branch);
    }
    return inner;
}

std::string model_of(const WireWriter& node) {
    return model_graph_last(WireWriter().message(onnximport::proto::Graph::node, node).str());
}

bool same_strings(const List<std::string_view>& a, const List<std::string_view>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (a[i] != b[i]) return false;
    return true;
}

bool same_node(const Node& a, const Node& b) {
    bool same = same_strings(a.inputs, b.inputs) && same_strings(a.outputs, b.outputs) && a.name == b.name &&
                a.op_type == b.op_type && a.domain == b.domain && a.offset == b.offset &&
                a.attributes.size() == b.attributes.size() && a.doc_string() == b.doc_string() &&
                a.overload() == b.overload() && a.metadata_props().size() == b.metadata_props().size() &&
                a.opset_version == b.opset_version && a.file_index == b.file_index;
    for (size_t i = 0; same && i < a.attributes.size(); ++i) {
        const Attribute &x = a.attributes[i], &y = b.attributes[i];
        same = x.name == y.name && x.type == y.type && x.type_declared == y.type_declared && x.f == y.f && x.i == y.i;
    }
    return same;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(plain_node)

BOOST_AUTO_TEST_CASE(a_plain_node_reads_as_the_same_node_written_any_other_way) {
    // Each case once as written and once with an unknown field at its end, which only the
    // general path reads. Some are not plain as written either (a long or non-ASCII string, a
    // two-byte length): they check that the fast path leaves them alone.
    const std::string long_name(127, 'n'), longer_name(128, 'n');
    const std::vector<std::vector<Field>> cases = {
        {{N::input, "c0"}, {N::output, "c1"}, {N::op_type, "Relu"}},
        {{N::input, "v5"}, {N::input, "v3"}, {N::input, "bias"}, {N::output, "v6"}, {N::name, "gemm_6"},
         {N::op_type, "Gemm"}, {N::attribute, "alpha", true}, {N::attribute, "transB", false, 1}},
        {},
        {{N::input, ""}, {N::input, "x"}, {N::output, ""}, {N::domain, "ai.onnx.ml"}, {N::op_type, "Op"}},
        {{N::name, "first"}, {N::op_type, "A"}, {N::name, "last"}, {N::op_type, "B"}, {N::domain, "d"}},
        {{N::name, long_name}, {N::op_type, "Op"}},
        {{N::name, longer_name}, {N::op_type, "Op"}},
        {{N::input, "caf\xC3\xA9"}, {N::op_type, "Op"}},
        {{N::attribute, "axis", false, 128}, {N::op_type, "Op"}},
        {{N::input, long_name}, {N::input, long_name}, {N::output, "y"}, {N::op_type, "Op"}},
        // Eight of each list fit the scan's arrays, nine of any do not.
        joined({numbered(N::input, "in", 8), numbered(N::output, "out", 8), numbered(N::attribute, "a", 8)}),
        joined({numbered(N::input, "in", 9), {{N::op_type, "Concat"}}}),
        joined({numbered(N::output, "out", 9), {{N::op_type, "Split"}}}),
        joined({numbered(N::attribute, "a", 9), {{N::op_type, "Op"}}}),
        // A 129-byte name: its length's first byte (0x81) taken alone would end the name on its
        // last byte, an input's key, and make an input of the bytes after; ASCII checks refuse it.
        {{N::name, std::string(128, 'n') + "\n"}, {N::input, "123456789"}, {N::op_type, "Op"}},
        // Strings after an attribute are checked for ASCII as well as those before it.
        {{N::input, "x"}, {N::attribute, "axis", false, 1}, {N::domain, "d\xC3\xA9"}, {N::op_type, "Op"}},
        {{N::input, "x"}, {N::attribute, "alpha", true}, {N::attribute, "axis", false, 1}, {N::output, "y"}},
    };
    for (size_t k = 0; k < cases.size(); ++k) {
        BOOST_TEST_CONTEXT("case " << k) {
            auto as_written = import_model(model_of(node_of(cases[k], false)));
            auto general = import_model(model_of(node_of(cases[k], true)));
            const Node& a = as_written.graph()->nodes.at(0);
            BOOST_TEST(same_node(a, general.graph()->nodes.at(0)));
            size_t inputs = 0;
            for (const Field& f : cases[k]) inputs += f.number == N::input;
            BOOST_TEST(a.inputs.size() == inputs);
        }
    }
}

BOOST_AUTO_TEST_CASE(a_plain_node_string_that_is_not_utf8_is_malformed_at_its_field) {
    // Alone, before an attribute and after one: the scan checks each run of strings.
    const Field bad{N::input, "a\xFF"}, op{N::op_type, "Op"}, axis{N::attribute, "axis", false, 1};
    for (const std::vector<Field>& fields : {std::vector<Field>{bad, op}, {bad, axis, op}, {op, axis, bad}}) {
        const std::string m = model_of(node_of(fields, false));
        expect_model_error(m, ErrorKind::Malformed, m.find("a\xFF") + 1, "ModelProto.graph.node[0].input");
    }
}

BOOST_AUTO_TEST_CASE(a_node_longer_than_its_graph_is_malformed_though_the_bytes_after_look_plain) {
    // The node's length runs 4 bytes past its graph, into the model's producer_name field,
    // which read as a node field would be an output: the length is checked against the graph.
    const std::string node = WireWriter().bytes_field(N::op_type, "Op").str();
    const std::string graph = "\x0a" + std::string(1, static_cast<char>(node.size() + 4)) + node;
    const std::string m = WireWriter()
                              .int_field(onnximport::proto::Model::ir_version, 9)
                              .bytes_field(onnximport::proto::Model::graph, graph)
                              .bytes_field(onnximport::proto::Model::producer_name, "xy")
                              .str();
    expect_model_error(m, ErrorKind::Malformed, m.find(graph) + 1, "ModelProto.graph");  // at the node's length
}

BOOST_AUTO_TEST_CASE(a_plain_node_field_longer_than_its_node_is_malformed_at_its_length) {
    // op_type claims 5 bytes where the node has 2 left, and the node ends the input, held in a
    // buffer of its exact size: a scan that followed the length would read past the buffer
    // (AddressSanitizer's run of make test reports it).
    const std::string node = "\x22\x05Op";
    const std::string m = model_graph_last("\x0a\x04" + node);
    const std::vector<uint8_t> exact(m.begin(), m.end());
    const ImportError e = refusal_of([&] { onnximport::import_bytes(exact, "test.onnx", parse_only()); });
    check_error(e, ErrorKind::Malformed, m.find(node) + 1, "ModelProto.graph.node[0]");  // as the general path
}

BOOST_AUTO_TEST_CASE(a_plain_node_nested_too_deep_is_malformed_where_the_general_path_says) {
    // Wrapped twice, the node is at level 8 (graph, node, attribute, g, node, attribute, g,
    // node) and its attribute at 9; wrapped three times, the node is at 11.
    const WireWriter bare = node_of({{N::op_type, "Op"}}, false);
    const WireWriter with_attribute = node_of({{N::op_type, "Op"}, {N::attribute, "axis", false, 1}}, false);
    const std::string wrap = ".node[0].attribute[0].g";
    ImportOptions o = parse_only();
    o.max_nesting = 8;
    BOOST_TEST(import_model(model_of(wrapped(bare, 2)), o).graph()->nodes.size() == 1u);
    const std::string m = model_of(wrapped(with_attribute, 2));
    using A = proto::Attribute;
    const std::string axis = WireWriter().bytes_field(A::name, "axis").int_field(A::i, 1).int_field(A::type, 2).str();
    const size_t attribute_key = m.rfind(axis) - 2;  // its key and one-byte length
    const std::string attribute_path = "ModelProto.graph" + wrap + wrap + ".node[0].attribute[0]";
    expect_model_error(m, ErrorKind::Malformed, attribute_key, attribute_path, o);
    o.max_nesting = 10;
    const std::string b = model_of(wrapped(bare, 3));
    expect_model_error(b, ErrorKind::Malformed, b.rfind("\x0a\x04\x22\x02Op"),
                       "ModelProto.graph" + wrap + wrap + wrap + ".node[0]", o);
}

BOOST_AUTO_TEST_CASE(a_graphs_nodes_read_as_a_run_whatever_comes_between_them) {
    // read_graph reads consecutive node keys without its field loop (Reader::next_if): nodes of
    // either path, split by another field or by a node whose key is written in two bytes,
    // keep their order, offsets and indices, and the field between them is still read.
    using G = onnximport::proto::Graph;
    const WireWriter a = node_of({{N::name, "a"}}, false), b = node_of({{N::name, "b"}}, true);
    const WireWriter c = node_of({{N::name, "c"}}, false), d = node_of({{N::name, "d"}}, false);
    const WireWriter e = node_of({{N::name, "e"}, {N::input, "x\xFF"}}, false);
    WireWriter graph;
    graph.message(G::node, a).message(G::node, b).bytes_field(G::name, "g").message(G::node, c);
    graph.raw(std::string_view("\x8a\x00", 2)).varint(d.str().size()).raw(d.str());  // node's key 0x0a in two bytes
    const std::string good = graph.str();
    graph.message(G::node, e);
    const std::string m = model_graph_last(good);
    const Model model = import_model(m);
    const Graph& g = *model.graph();
    BOOST_TEST(g.name == "g");
    BOOST_REQUIRE(g.nodes.size() == 4u);
    const uint64_t at = graph_payload_offset(good);
    const std::vector<std::pair<std::string, uint64_t>> expected = {
        {"a", at}, {"b", at + 2 + a.str().size()}, {"c", good.find(c.str()) + at - 2},
        {"d", good.find(d.str()) + at - 3}};
    for (size_t i = 0; i < expected.size(); ++i) {
        BOOST_TEST(g.nodes[i].name == expected[i].first);
        BOOST_TEST(g.nodes[i].offset == expected[i].second);
    }
    // The fifth node, right after the two-byte key's, is refused at its index.
    const std::string bad = model_graph_last(graph.str());
    expect_model_error(bad, ErrorKind::Malformed, bad.rfind("x\xFF") + 1, "ModelProto.graph.node[4].input");
}

BOOST_AUTO_TEST_SUITE_END()
