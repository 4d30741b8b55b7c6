// Suite `write_ort`: the .ort writer. A model of every field kind .ort holds,
// written and read back by our .ort reader, dumps the same after the normalizations our
// writer's format forces (docs/ort-normalizations.md, "Our writer"); Constants lifted to
// initializers; external mode's offsets aligned for 1, 64 and 4096 with zero padding; the
// refusals of what .ort cannot hold; the same bytes every time, on any number of threads;
// errors that leave nothing behind.
#include "core_support.hpp"
#include "ort_write_models.hpp"
#include "write_support.hpp"

#include "write/faults.hpp"
#include "write/generations.hpp"
#include "write/ort/assembly.hpp"
#include "write/ort/write_ort.hpp"

#include <numbered.hpp>
#include <onnximport/dump.hpp>
#include <onnximport/write_ort.hpp>

#include <boost/test/unit_test.hpp>

#include <cstring>
#include <functional>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

using onnximport::testing::numbered;
using namespace core_test;
using namespace write_test;
namespace fb = onnximport::ortfb;

namespace {

std::string dump_of(const Model& m) {
    std::ostringstream out;
    write_dump(m, out);
    return out.str();
}

Model import_onnx(const std::string& bytes) { return import_bytes(bytes_of(bytes), "m.onnx", ImportOptions{}); }

std::vector<uint8_t> ort_of(const Model& m, OrtWriteOptions o = {}) { return write_ort_bytes(m, o); }

Model reimport(const std::vector<uint8_t>& ort) {
    return import_bytes(std::vector<uint8_t>(ort), "m.ort", ImportOptions{});
}

size_t indent_of(const std::string& line) { return line.find_first_not_of(' '); }

/// The dump with our writer's normalizations applied (docs/ort-normalizations.md): typed and
/// element-less tensors read as raw, attribute types as declared, graph names "g" gone, and
/// value_info blocks that `declared` does not name dropped (NodeArgs of every value).
std::string normalized(const std::string& dump, const std::set<std::string>& declared) {
    std::istringstream in(dump);
    std::string out, line;
    size_t skip_deeper_than = std::string::npos;
    while (std::getline(in, line)) {
        const size_t at = indent_of(line);
        if (skip_deeper_than != std::string::npos && at > skip_deeper_than) continue;
        skip_deeper_than = std::string::npos;
        std::string rest = line.substr(at);
        if (rest.starts_with("value_info ") && !declared.contains(rest)) {
            skip_deeper_than = at;
            continue;
        }
        if (rest == "source typed" || rest == "source none") rest = "source raw";
        if (rest.starts_with("attr_type ") && rest.ends_with(" inferred")) rest.replace(rest.size() - 8, 8, "declared");
        if (rest == "name \"g\"") rest = "name \"\"";
        out += line.substr(0, at) + rest + "\n";
    }
    return out;
}

std::set<std::string> value_infos(const std::string& dump) {
    std::set<std::string> names;
    std::istringstream in(dump);
    for (std::string line; std::getline(in, line);)
        if (line.substr(indent_of(line)).starts_with("value_info ")) names.insert(line.substr(indent_of(line)));
    return names;
}

const fb::InferenceSession* session_of(const std::vector<uint8_t>& b) { return fb::GetInferenceSession(b.data()); }

/// Every tensor table of the main graph's initializers and node attributes (t, tensors).
std::vector<const fb::Tensor*> tensors_of(const fb::Graph* g) {
    std::vector<const fb::Tensor*> out(g->initializers()->begin(), g->initializers()->end());
    for (const fb::Node* n : *g->nodes())
        for (const fb::Attribute* a : *n->attributes()) {
            if (a->t()) out.push_back(a->t());
            if (a->tensors()) out.insert(out.end(), a->tensors()->begin(), a->tensors()->end());
        }
    return out;
}

/// A graph output without a type.
WireWriter untyped_output(std::string_view name) { return WireWriter().bytes_field(P::ValueInfo::name, name); }

/// A model of `nodes` over float[2] X and int64[2] I; the outputs named declare no type.
std::string typing_model(std::initializer_list<WireWriter> nodes, std::initializer_list<std::string_view> outputs) {
    WireWriter g;
    for (const WireWriter& n : nodes) g.message(P::Graph::node, n);
    g.message(P::Graph::input, tb::value_info("X", 1, {2}));
    g.message(P::Graph::input, tb::value_info("I", 7, {2}));
    for (std::string_view o : outputs) g.message(P::Graph::output, untyped_output(o));
    return tb::model(g).message(P::Model::opset_import, tb::opset("ai.onnx.preview.training", 1)).str();
}

/// Gradient: an operator of the table with no type rule (its outputs' types are those of
/// the values its `xs` attribute names).
WireWriter ruleless(std::string_view input, std::string_view output) {
    return tb::node("Gradient", {std::string(input)}, {std::string(output)})
        .bytes_field(P::Node::domain, "ai.onnx.preview.training");
}

/// The resolver of a .ort, one line per operator: "op_id STR=i0,o1 STR=...".
std::vector<std::string> resolver_of(const std::vector<uint8_t>& b) {
    std::vector<std::string> out;
    const fb::KernelTypeStrResolver* r = session_of(b)->kernel_type_str_resolver();
    BOOST_REQUIRE(r && r->op_kernel_type_str_args());
    for (const fb::OpIdKernelTypeStrArgsEntry* op : *r->op_kernel_type_str_args()) {
        std::string line = op->op_id()->str();
        for (const fb::KernelTypeStrArgsEntry* s : *op->kernel_type_str_args()) {
            line += ' ';
            line += s->kernel_type_str()->str();
            line += '=';
            for (const fb::ArgTypeAndIndex* a : *s->args())
                line += std::string(line.back() == '=' ? "" : ",") +
                        (a->arg_type() == fb::ArgType::OUTPUT ? "o" : "i") + std::to_string(a->index());
        }
        out.push_back(line);
    }
    return out;
}

/// The NodeArg `name` of graph g; fails the test when there is none.
const fb::TypeInfo* arg_type(const fb::Graph* g, std::string_view name) {
    for (const fb::ValueInfo* v : *g->node_args())
        if (v->name()->string_view() == name) return v->type();
    BOOST_FAIL("no NodeArg " << name);
    return nullptr;
}

/// The element type of the tensor NodeArg `name`: 0 when untyped, -1 when not a tensor;
/// an inferred type has no shape.
int32_t tensor_elem(const fb::Graph* g, std::string_view name) {
    const fb::TypeInfo* t = arg_type(g, name);
    if (!t) return 0;
    if (!t->value_as_tensor_type()) return -1;
    return t->value_as_tensor_type()->elem_type();
}

/// The element type of the sequence-of-tensor NodeArg `name`; 0 when untyped, -1 when not one.
int32_t sequence_elem(const fb::Graph* g, std::string_view name) {
    const fb::TypeInfo* t = arg_type(g, name);
    if (!t) return 0;
    const fb::SequenceType* s = t->value_as_sequence_type();
    if (!s || !s->elem_type() || !s->elem_type()->value_as_tensor_type()) return -1;
    return s->elem_type()->value_as_tensor_type()->elem_type();
}

WireWriter attr_body(std::string_view name, const WireWriter& body) { return tb::attr_graph(name, body); }

/// The subgraph of attribute `name` of the main graph's node `node`.
const fb::Graph* subgraph(const fb::Graph* g, uint32_t node, std::string_view name) {
    for (const fb::Attribute* a : *g->nodes()->Get(node)->attributes())
        if (a->name()->string_view() == name) return a->g();
    BOOST_FAIL("no graph attribute " << name);
    return nullptr;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(write_ort)

BOOST_AUTO_TEST_CASE(a_model_of_every_kind_ort_holds_reads_back_with_the_same_dump) {
    const Model original = import_onnx(ort_rich_model());
    const std::string before = dump_of(original);
    const std::string after = dump_of(reimport(ort_of(original)));
    BOOST_TEST(normalized(after, value_infos(before)) == normalized(before, value_infos(before)));
}

BOOST_AUTO_TEST_CASE(the_version_is_5_the_identifier_ortm_and_the_resolver_names_every_operator_once) {
    const auto b = ort_of(import_onnx(ort_rich_model()));
    BOOST_TEST(fb::InferenceSessionBufferHasIdentifier(b.data()));
    BOOST_TEST(session_of(b)->ort_version()->str() == "5");
    // Add and Identity at opset 21 (Identity also in subgraphs), LabelEncoder at ai.onnx.ml 4:
    // each operator version once, sorted as strings.
    BOOST_TEST(resolver_of(b) == (std::vector<std::string>{":Add:14 T=i0,i1,o0", ":Identity:21 V=i0,o0",
                                                           "ai.onnx.ml:LabelEncoder:4 T1=i0 T2=o0"}),
               boost::test_tools::per_element());
    const fb::Graph* g = session_of(b)->model()->graph();
    BOOST_TEST(g->nodes()->Get(1)->since_version() == 14);  // Add's version, not the opset's 21
}

BOOST_AUTO_TEST_CASE(a_fixed_type_parameter_is_its_own_kernel_type_string_and_float8_needs_version_6) {
    const auto b = ort_of(import_onnx(typing_model(
        {tb::node("ArgMax", {"X"}, {"A"}), tb::node("Cast", {"X"}, {"F"}).message(P::Node::attribute,
                                                                               tb::attr_int("to", 17))},
        {"A", "F"})));
    BOOST_TEST(session_of(b)->ort_version()->str() == "6");  // F is FLOAT8E4M3FN
    BOOST_TEST(resolver_of(b) == (std::vector<std::string>{":ArgMax:13 T=i0 reduced=o0", ":Cast:21 T1=i0 T2=o0"}),
               boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(operators_outside_the_table_or_deprecated_at_the_opset_are_refused_by_name) {
    WireWriter custom = tb::minimal_graph();
    custom.message(P::Graph::node, tb::node("Custom", {"X"}, {"Z"}));
    ImportError e = refusal_of([&] { ort_of(import_onnx(tb::model(custom).str())); });
    check_error(e, ErrorKind::Unsupported, std::nullopt, "ModelProto.graph.node[1].op_type");
    BOOST_TEST(e.message().find("operator Custom at opset 21 is not one of onnx 1.23's") != std::string::npos);
    WireWriter escaped = tb::minimal_graph();  // a name read from the input: its control bytes escaped
    escaped.message(P::Graph::node, tb::node("Cu\x01stom", {"X"}, {"Z"}));
    e = refusal_of([&] { ort_of(import_onnx(tb::model(escaped).str())); });
    BOOST_TEST(e.message().find("operator Cu\\x01stom at opset 21") != std::string::npos, e.message());
    WireWriter upsample = tb::minimal_graph();
    upsample.message(P::Graph::node, tb::node("Upsample", {"X", "X"}, {"Z"}));
    e = refusal_of([&] { ort_of(import_onnx(tb::model(upsample, 9, 10).str())); });
    check_error(e, ErrorKind::Unsupported, std::nullopt, "ModelProto.graph.node[1].op_type");
    BOOST_TEST(e.message().find("operator Upsample at opset 10 is deprecated since version 10") != std::string::npos);
    // At opset 9 the same node has its version 9.
    BOOST_TEST(!ort_of(import_onnx(tb::model(upsample, 9, 9).str())).empty());
}

BOOST_AUTO_TEST_CASE(every_name_a_node_uses_has_a_node_arg_and_edges_join_producer_and_reader) {
    const auto b = ort_of(import_onnx(ort_rich_model()));
    const fb::Graph* g = session_of(b)->model()->graph();
    std::set<std::string> args;
    for (const fb::ValueInfo* v : *g->node_args()) args.insert(v->name()->str());
    for (const fb::Node* n : *g->nodes()) {
        for (const auto* s : *n->inputs()) BOOST_TEST(args.contains(s->str()), "NodeArg of input " << s->str());
        for (const auto* s : *n->outputs()) BOOST_TEST(args.contains(s->str()), "NodeArg of output " << s->str());
        BOOST_TEST(n->input_arg_counts()->size() == n->inputs()->size());
    }
    // File order kept: node 0 is Identity(B), fed by node 1, Add(X, W_two).
    const fb::NodeEdge* e = g->node_edges()->Get(0);
    BOOST_REQUIRE(e->input_edges()->size() == 1u);
    BOOST_TEST(e->input_edges()->Get(0)->node_index() == 1u);
    BOOST_TEST(g->node_edges()->Get(1)->output_edges()->Get(0)->node_index() == 0u);
    // The LabelEncoder node's subgraph reads X from outside: an implicit input.
    const fb::Node* custom = g->nodes()->Get(2);
    BOOST_REQUIRE(custom->implicit_inputs()->size() == 1u);
    BOOST_TEST(custom->implicit_inputs()->Get(0)->str() == "X");
}

BOOST_AUTO_TEST_CASE(value_and_operator_names_are_written_once_and_read_back_as_one_view) {
    const auto b = ort_of(import_onnx(ort_rich_model()));
    const fb::Graph* g = session_of(b)->model()->graph();
    // Node 1 (Add) writes B, node 0 (Identity) reads it, and B has a NodeArg: one string.
    const auto* written = g->nodes()->Get(1)->outputs()->Get(0);
    const auto* read = g->nodes()->Get(0)->inputs()->Get(0);
    BOOST_REQUIRE(written->str() == "B");
    BOOST_TEST(static_cast<const void*>(written) == static_cast<const void*>(read));
    for (const fb::ValueInfo* v : *g->node_args())
        if (v->name()->str() == "B") BOOST_TEST(static_cast<const void*>(v->name()) == static_cast<const void*>(read));
    // The reader's views of the shared name point at the same bytes.
    const Model m = reimport(b);
    const void* add_output = nullptr;
    const void* identity_input = nullptr;
    for (const Node& n : m.graph()->nodes) {
        if (n.op_type == "Add") add_output = n.outputs[0].data();
        if (n.op_type == "Identity") identity_input = n.inputs[0].data();
    }
    BOOST_TEST((add_output && add_output == identity_input));
    // The same op type on two nodes is one string too; node names are not pooled.
    std::set<const void*> domains;
    for (const fb::Node* n : *g->nodes())
        if (n->domain()->str().empty()) domains.insert(n->domain());
    BOOST_TEST(domains.size() == 1u);
}

namespace {

/// X -> LeakyRelu (alpha 0.5) -> LeakyRelu (0.5) -> LeakyRelu (0.25) -> Add (with X) -> Z.
std::vector<uint8_t> leaky_chain() {
    using A = P::Attribute;
    auto leaky = [](const std::string& in, const std::string& out, float alpha) {
        const WireWriter a = WireWriter().bytes_field(A::name, "alpha").float_field(A::f, alpha).int_field(A::type, 1);
        return tb::node("LeakyRelu", {in}, {out}).message(P::Node::attribute, a);
    };
    WireWriter g;
    g.message(P::Graph::node, leaky("X", "Y1", 0.5f)).message(P::Graph::node, leaky("Y1", "Y2", 0.5f));
    g.message(P::Graph::node, leaky("Y2", "Y3", 0.25f)).message(P::Graph::node, tb::node("Add", {"Y3", "X"}, {"Z"}));
    g.message(P::Graph::input, tb::value_info("X", 1, {4})).message(P::Graph::output, tb::value_info("Z", 1, {4}));
    return ort_of(import_onnx(tb::model(g).str()));
}

}  // namespace

BOOST_AUTO_TEST_CASE(equal_types_and_plain_attributes_are_written_once) {
    const auto b = ort_of(import_onnx(ort_rich_model()));
    std::map<std::string, const void*> type_of;
    for (const fb::ValueInfo* v : *session_of(b)->model()->graph()->node_args())
        type_of[v->name()->str()] = v->type();
    // X, Y and B declare float [100]; the initializer W_two is a float tensor of dims {100}.
    BOOST_TEST(type_of.at("X") == type_of.at("Y"));
    BOOST_TEST(type_of.at("X") == type_of.at("B"));
    BOOST_TEST(type_of.at("X") == type_of.at("W_two"));
    BOOST_TEST(type_of.at("X") != type_of.at("W_raw"));  // float [500]
    BOOST_TEST(type_of.at("X") != type_of.at("C"));      // a map
    const auto chain = leaky_chain();
    const auto* nodes = session_of(chain)->model()->graph()->nodes();
    BOOST_TEST(nodes->Get(0)->attributes()->Get(0) == nodes->Get(1)->attributes()->Get(0));
    BOOST_TEST(nodes->Get(0)->attributes()->Get(0) != nodes->Get(2)->attributes()->Get(0));
    const Model back = reimport(chain);
    BOOST_TEST(back.graph()->nodes[1].attributes[0].f == 0.5f);
    BOOST_TEST(back.graph()->nodes[2].attributes[0].f == 0.25f);
}

BOOST_AUTO_TEST_CASE(equal_attribute_lists_input_counts_and_implicit_inputs_are_written_once) {
    const auto chain = leaky_chain();
    const auto* nodes = session_of(chain)->model()->graph()->nodes();
    const fb::Node* add = nodes->Get(3);
    BOOST_TEST(nodes->Get(0)->attributes() == nodes->Get(1)->attributes());  // alpha 0.5 both
    BOOST_TEST(nodes->Get(0)->attributes() != nodes->Get(2)->attributes());  // alpha 0.25
    BOOST_TEST(nodes->Get(0)->input_arg_counts() == nodes->Get(2)->input_arg_counts());  // [1]
    BOOST_TEST(nodes->Get(0)->input_arg_counts() != add->input_arg_counts());
    BOOST_TEST(add->input_arg_counts()->size() == 2u);
    BOOST_TEST(nodes->Get(0)->implicit_inputs() == add->implicit_inputs());  // none
    BOOST_TEST(add->attributes()->size() == 0u);
    const Model back = reimport(chain);  // each node reads its own
    BOOST_TEST(back.graph()->nodes[1].attributes.size() == 1u);
    BOOST_TEST(back.graph()->nodes[3].attributes.size() == 0u);
}

namespace {

/// X -> Relu -> ... -> Y, `n` nodes; the values between them declared as a float tensor
/// without a shape, or left to the writer's inference, which gives them that type.
std::vector<uint8_t> relu_chain(int n, bool declared) {
    const WireWriter elem = WireWriter().int_field(P::TensorType::elem_type, 1);
    const WireWriter type = WireWriter().message(P::Type::tensor_type, elem);
    WireWriter g;
    for (int i = 0; i < n; ++i) {
        const std::string in = i == 0 ? "X" : numbered("V", i);
        const std::string out = i + 1 == n ? "Y" : numbered("V", i + 1);
        g.message(P::Graph::node, tb::node("Relu", {in}, {out}));
        if (declared && i + 1 < n)
            g.message(P::Graph::value_info,
                      WireWriter().bytes_field(P::ValueInfo::name, out).message(P::ValueInfo::type, type));
    }
    g.message(P::Graph::input, tb::value_info("X", 1, {4})).message(P::Graph::output, tb::value_info("Y", 1, {4}));
    return ort_of(import_onnx(tb::model(g).str()));
}

}  // namespace

BOOST_AUTO_TEST_CASE(an_inferred_type_is_written_once_like_a_declared_one) {
    // Ten more values of one type cost the same whether the type is declared or inferred: each is
    // a NodeArg pointing at the one table, with no copy of the type written beside it.
    const auto growth = [](bool declared) {
        return static_cast<long>(relu_chain(21, declared).size()) - static_cast<long>(relu_chain(11, declared).size());
    };
    BOOST_TEST(growth(false) == growth(true));
}

BOOST_AUTO_TEST_CASE(constant_nodes_become_initializers_named_after_their_output) {
    using A = P::Attribute;
    const WireWriter attributes[] = {
        WireWriter().bytes_field(A::name, "value").message(A::t, tb::tensor_raw("t", 1, {2}, ramp(8))),
        WireWriter().bytes_field(A::name, "value_float").float_field(A::f, 2.5f),
        WireWriter().bytes_field(A::name, "value_floats").float_field(A::floats, 1.0f).float_field(A::floats, -1.0f),
        WireWriter().bytes_field(A::name, "value_int").int_field(A::i, 42),
        WireWriter().bytes_field(A::name, "value_ints").packed_varints(A::ints, {1, 2, 3}),
        WireWriter().bytes_field(A::name, "value_string").bytes_field(A::s, "hi"),
        WireWriter().bytes_field(A::name, "value_strings").bytes_field(A::strings, "a").bytes_field(A::strings, "bc"),
    };
    const int32_t types[] = {1, 1, 1, 7, 7, 8, 8};
    const std::vector<int64_t> dims[] = {{2}, {}, {2}, {}, {3}, {}, {2}};
    for (size_t which = 0; which < std::size(attributes); ++which) {
        BOOST_TEST_CONTEXT("value attribute " << which) {
            const auto b = ort_of(import_onnx(constant_model(attributes[which])));
            // The output declares no type: its NodeArg has the lifted tensor's (ONNX Runtime needs one).
            BOOST_TEST(tensor_elem(session_of(b)->model()->graph(), "Y") == types[which]);
            const Model back = reimport(b);
            BOOST_TEST(back.graph()->nodes.size() == 0u);
            BOOST_REQUIRE(back.graph()->initializers.size() == 1u);
            const TensorView& t = back.graph()->initializers[0];
            BOOST_TEST(t.name == "Y");
            BOOST_TEST(t.data_type == types[which]);
            BOOST_TEST(t.dims.to_vector() == dims[which], boost::test_tools::per_element());
            if (which == 3) {
                int64_t v = 0;
                std::memcpy(&v, t.bytes().data(), 8);
                BOOST_TEST(v == 42);
            }
            if (which == 6) BOOST_TEST(t.strings[1] == "bc");
        }
    }
}

/// The external write of the rich model at `alignment`, checked.
static void check_external_layout(uint64_t alignment) {
    TempDir dir;
    const Model original = import_onnx(ort_rich_model());
    OrtWriteOptions o;
    o.external_data = {"m.ort.data", 100, alignment};
    write_ort_file(original, dir.root / "m.ort", o);
    const std::string file = read_all(dir.root / "m.ort"), data = read_all(dir.root / "m.ort.data");
    const std::vector<uint8_t> b(file.begin(), file.end());
    std::vector<bool> used(data.size(), false);
    size_t external = 0;
    for (const fb::Tensor* t : tensors_of(session_of(b)->model()->graph())) {
        if (t->external_data_offset() < 0) continue;
        ++external;
        const auto offset = static_cast<uint64_t>(t->external_data_offset());
        BOOST_TEST(offset % alignment == 0u, t->name()->str() << " at " << offset);
        BOOST_TEST(!t->raw_data(), t->name()->str() << " has raw_data as well");
        const size_t size = t->name()->str() == "W_raw" ? 2000 : t->name()->str() == "W_two" ? 400 : 1500;
        BOOST_REQUIRE(offset + size <= data.size());
        for (size_t i = offset; i < offset + size; ++i) used[i] = true;
    }
    BOOST_TEST(external == 3u);  // W_raw, W_two, the attribute tensor; the small ones stay inline
    for (size_t i = 0; i < data.size(); ++i)
        if (!used[i]) BOOST_TEST_REQUIRE(data[i] == '\0', "padding byte " << i);
}

BOOST_AUTO_TEST_CASE(external_offsets_are_multiples_of_the_alignment_and_the_padding_is_zeros) {
    for (uint64_t alignment : {uint64_t{1}, uint64_t{64}, uint64_t{4096}})
        BOOST_TEST_CONTEXT("alignment " << alignment) check_external_layout(alignment);
}

/// The companion the .ort at `path` names under its key (rule O7), empty for none.
std::string companion_named(const fs::path& path) {
    const std::string file = read_all(path);
    const std::vector<uint8_t> b(file.begin(), file.end());
    const auto* metadata = session_of(b)->model()->metadata_props();
    std::string named;
    for (uint32_t i = 0; metadata && i < metadata->size(); ++i)
        if (metadata->Get(i)->key()->str() == "onnximport.ort_external_data") named = metadata->Get(i)->value()->str();
    return named;
}

BOOST_AUTO_TEST_CASE(tensors_below_the_threshold_stay_inline_and_no_companion_is_written_or_named) {
    TempDir dir;
    OrtWriteOptions o;
    o.external_data = {"m.ort.data", 1 << 20};
    write_ort_file(import_onnx(ort_rich_model()), dir.root / "m.ort", o);
    BOOST_TEST(listing(dir.root) == std::set<std::string>{"m.ort"});
    BOOST_TEST(companion_named(dir.root / "m.ort").empty());
    const std::string file = read_all(dir.root / "m.ort");
    const std::vector<uint8_t> b(file.begin(), file.end());
    for (const fb::Tensor* t : tensors_of(session_of(b)->model()->graph())) BOOST_TEST(t->external_data_offset() == -1);
}

BOOST_AUTO_TEST_CASE(an_existing_companion_is_never_overwritten_the_model_names_a_new_generation) {
    TempDir dir;
    const Model m = import_onnx(ort_rich_model());
    OrtWriteOptions o;
    o.external_data = {"m.ort.data", 1024};
    std::vector<std::string> generations;
    o.generation = [&](const std::string& written) { generations.push_back(written); };
    write_ort_file(m, dir.root / "m.ort", o);
    BOOST_TEST(companion_named(dir.root / "m.ort") == "m.ort.data");  // the requested name was free
    BOOST_TEST(generations.empty());
    const std::string first_data = read_all(dir.root / "m.ort.data");
    write_ort_file(m, dir.root / "m.ort", o);
    const std::string named = companion_named(dir.root / "m.ort");
    BOOST_TEST_REQUIRE(onnximport::detail::is_generation_name(named));
    BOOST_TEST(generations == std::vector<std::string>{named});
    BOOST_TEST(listing(dir.root) == (std::set<std::string>{"m.ort", named}));  // m.ort.data superseded
    BOOST_TEST(read_all(dir.root / named) == first_data);
    const auto bytes_of_all = [](const Model& read) {
        std::vector<std::string> out;
        for (const auto& t : read.graph()->initializers)
            out.emplace_back(reinterpret_cast<const char*>(t.bytes().data()), t.bytes().size());
        return out;
    };
    BOOST_TEST(bytes_of_all(import_file(dir.root / "m.ort")) == bytes_of_all(reimport(ort_of(m))));
}

BOOST_AUTO_TEST_CASE(a_onnx_writer_beside_keeps_the_generation_a_ort_names) {
    // The clean-up of superseded generations reads *.ort as well as *.onnx (rule O7).
    TempDir dir;
    const Model m = import_onnx(ort_rich_model());
    OrtWriteOptions o;
    o.external_data = {"m.ort.data", 1024};
    for (int i = 0; i < 2; ++i) write_ort_file(m, dir.root / "m.ort", o);
    const std::string named = companion_named(dir.root / "m.ort");
    BOOST_TEST_REQUIRE(onnximport::detail::is_generation_name(named));
    WriteOptions onnx;
    onnx.external_data = {"w.bin", 1024};
    for (int i = 0; i < 2; ++i) write_onnx_file(m, dir.root / "n.onnx", onnx);  // the second supersedes
    BOOST_TEST(fs::exists(dir.root / named));
    BOOST_TEST(import_file(dir.root / "m.ort").graph()->initializers.size() == m.graph()->initializers.size());
}

BOOST_AUTO_TEST_CASE(a_metadata_entry_under_the_companion_key_is_refused_by_name) {
    using E = P::StringStringEntry;
    const WireWriter entry =
        WireWriter().bytes_field(E::key, "onnximport.ort_external_data").bytes_field(E::value, "w.bin");
    WireWriter model = tb::model(tb::minimal_graph());
    model.message(P::Model::metadata_props, entry);
    const ImportError e = refusal_of([&] { ort_of(import_onnx(model.str())); });
    BOOST_TEST(to_string(e.kind()) == "Unsupported");
    BOOST_TEST(e.field_path() == "ModelProto.metadata_props[0].key");
    BOOST_TEST(e.message().find("onnximport.ort_external_data") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_threshold_means_more_than_its_bytes_for_both_writers) {
    // W_raw holds 2000 bytes: kept inline at threshold 2000, external at 1999, .ort and .onnx alike.
    TempDir dir;
    const Model m = import_onnx(ort_rich_model());
    for (uint64_t threshold : {uint64_t{2000}, uint64_t{1999}}) {
        BOOST_TEST_CONTEXT("threshold " << threshold) {
            OrtWriteOptions o;
            o.external_data = {"m.ort.data", threshold};
            write_ort_file(m, dir.root / "m.ort", o);
            const std::string file = read_all(dir.root / "m.ort");
            const std::vector<uint8_t> b(file.begin(), file.end());
            for (const fb::Tensor* t : tensors_of(session_of(b)->model()->graph()))
                if (t->name()->str() == "W_raw") BOOST_TEST((t->external_data_offset() >= 0) == (threshold < 2000));
            WriteOptions onnx;
            onnx.external_data = {"m.bin", threshold};
            write_onnx_file(m, dir.root / "m.onnx", onnx);
            const Model back = import_file(dir.root / "m.onnx");
            for (const TensorView& t : back.graph()->initializers)
                if (t.name == "W_raw") BOOST_TEST((t.data_location == 1) == (threshold < 2000));
        }
    }
}

BOOST_AUTO_TEST_CASE(option_misuse_is_unsupported_from_both_writers_and_writes_nothing) {
    TempDir dir;
    const Model m = import_onnx(ort_rich_model());
    auto unsupported = [&](const std::string& what, const std::function<void()>& write) {
        const ImportError e = refusal_of(write);
        BOOST_TEST((e.kind() == ErrorKind::Unsupported), what << ": " << e.what());
        BOOST_TEST(listing(dir.root).empty(), what);
        return std::string(e.what());
    };
    OrtWriteOptions ort;
    ort.external_data.file = "m.ort.data";
    WriteOptions onnx;
    onnx.external_data.file = "m.bin";
    unsupported("ort bytes with a file", [&] { write_ort_bytes(m, ort); });
    unsupported("onnx bytes with a file", [&] { write_onnx_bytes(m, onnx); });
    ort.external_data.file = "other.data";
    const std::string why = unsupported("another companion", [&] { write_ort_file(m, dir.root / "m.ort", ort); });
    BOOST_TEST(why.find("'m.ort.data'") != std::string::npos);
    for (unsigned threads : {0u, ImportOptions::max_threads + 1}) {
        OrtWriteOptions ort_threads;
        ort_threads.threads = threads;
        WriteOptions onnx_threads;
        onnx_threads.threads = threads;
        unsupported("ort threads", [&] { write_ort_file(m, dir.root / "m.ort", ort_threads); });
        unsupported("ort bytes threads", [&] { write_ort_bytes(m, ort_threads); });
        unsupported("onnx threads", [&] { write_onnx_file(m, dir.root / "m.onnx", onnx_threads); });
        unsupported("onnx bytes threads", [&] { write_onnx_bytes(m, onnx_threads); });
    }
}

BOOST_AUTO_TEST_CASE(the_same_model_gives_the_same_bytes_on_any_number_of_threads_and_through_a_file) {
    TempDir dir;
    const Model m = import_onnx(ort_rich_model());
    OrtWriteOptions three;
    three.threads = 3;
    const auto one = ort_of(m);
    BOOST_TEST(ort_of(m) == one);
    BOOST_TEST(ort_of(m, three) == one);
    // A file takes the tensor bytes from the model, not the buffer (write/ort/fill.cpp): also in short writes.
    for (const OrtWriteOptions& o : {OrtWriteOptions{}, three}) {
        for (size_t max_chunk : {size_t{7}, std::numeric_limits<size_t>::max()}) {
            detail::WriteFaults faults;
            faults.max_chunk = max_chunk;
            detail::write_ort(m, dir.root / "m.ort", o, &faults);
            const std::string file = read_all(dir.root / "m.ort");
            BOOST_TEST((std::vector<uint8_t>(file.begin(), file.end()) == one),
                       o.threads << " thread(s), " << max_chunk);
        }
    }
}

BOOST_AUTO_TEST_CASE(element_types_above_20_are_unsupported) {
    const Model m =
        import_onnx(identity_with(WireWriter().message(P::Graph::initializer, tb::tensor_raw("i4", 22, {2}, "\x12"))));
    check_error(refusal_of([&] { ort_of(m); }), ErrorKind::Unsupported, std::nullopt,
                "ModelProto.graph.initializer[0].data_type");
}

BOOST_AUTO_TEST_CASE(types_the_format_lacks_are_unsupported) {
    const WireWriter optional = WireWriter().bytes_field(P::ValueInfo::name, "opt").message(
        P::ValueInfo::type, WireWriter().message(P::Type::optional_type, WireWriter()));
    const WireWriter sparse_type = WireWriter().bytes_field(P::ValueInfo::name, "sp").message(
        P::ValueInfo::type, WireWriter().message(P::Type::sparse_tensor_type, WireWriter()));
    for (const WireWriter& v : {optional, sparse_type}) {
        const Model m = import_onnx(identity_with(WireWriter().message(P::Graph::value_info, v)));
        const ImportError e = refusal_of([&] { ort_of(m); });
        BOOST_TEST((e.kind() == ErrorKind::Unsupported));
        BOOST_TEST(e.field_path() == "ModelProto.graph.node_arg[2].type");
    }
}

BOOST_AUTO_TEST_CASE(sparse_tensor_attributes_functions_and_training_info_are_unsupported) {
    const Model rich = import_onnx(rich_model());  // write_models.hpp: functions first
    check_error(refusal_of([&] { ort_of(rich); }), ErrorKind::Unsupported, std::nullopt, "ModelProto.functions");
    WireWriter n = tb::node("Custom", {"X"}, {"Z"});
    n.message(P::Node::attribute,
              WireWriter().bytes_field(P::Attribute::name, "sp").message(P::Attribute::sparse_tensor, sparse("s")));
    WireWriter g = tb::minimal_graph();
    g.message(P::Graph::node, n);
    const Model m = import_onnx(tb::model(g).str());
    check_error(refusal_of([&] { ort_of(m); }), ErrorKind::Unsupported, std::nullopt,
                "ModelProto.graph.node[1].attribute[0].type");
}

BOOST_AUTO_TEST_CASE(references_to_function_attributes_are_unsupported) {
    // The .onnx reader takes them outside functions too (fuzz_roundtrip); .ort has no field
    // for one, and a GRAPH one has no value to write.
    const auto with_attribute = [](const WireWriter& attribute) {
        WireWriter n = tb::node("Custom", {"X"}, {"Z"});
        n.message(P::Node::attribute, attribute);
        WireWriter g = tb::minimal_graph();
        g.message(P::Graph::node, n);
        return import_onnx(tb::model(g).str());
    };
    const Model reference = with_attribute(WireWriter()
                                               .bytes_field(P::Attribute::name, "k")
                                               .int_field(P::Attribute::type, 2)
                                               .bytes_field(P::Attribute::ref_attr_name, "outer_k"));
    check_error(refusal_of([&] { ort_of(reference); }), ErrorKind::Unsupported, std::nullopt,
                "ModelProto.graph.node[1].attribute[0].ref_attr_name");
    const Model no_graph = with_attribute(WireWriter()
                                              .bytes_field(P::Attribute::name, "body")
                                              .int_field(P::Attribute::type, 5)
                                              .bytes_field(P::Attribute::ref_attr_name, "outer_body"));
    check_error(refusal_of([&] { ort_of(no_graph); }), ErrorKind::Unsupported, std::nullopt,
                "ModelProto.graph.node[1].attribute[0].ref_attr_name");
    // Both names come from the input: quoted with control bytes escaped (core/text.hpp).
    const Model escaped = with_attribute(WireWriter()
                                             .bytes_field(P::Attribute::name, "k\x1b")
                                             .int_field(P::Attribute::type, 2)
                                             .bytes_field(P::Attribute::ref_attr_name, "outer\x07"));
    const std::string message = refusal_of([&] { ort_of(escaped); }).message();
    BOOST_TEST(message.find("attribute 'k\\x1b' refers to the function attribute 'outer\\x07'") != std::string::npos,
               message);
}

BOOST_AUTO_TEST_CASE(a_model_nested_deeper_than_onnxruntime_verifies_is_written_and_reported_or_refused_on_request) {
    // Each subgraph level is three tables (Graph, Node, Attribute): 25 levels pass 64, while
    // the .onnx reader's nesting limit (128 messages, three a level) takes them. Our reader
    // reads the file with its depth limit raised.
    const auto nested = [](int levels) {
        WireWriter g = tb::minimal_graph();
        for (int i = 0; i < levels; ++i) {
            WireWriter n = tb::node("Identity", {"X"}, {"Y"});
            n.message(P::Node::attribute, WireWriter()
                                              .bytes_field(P::Attribute::name, "body")
                                              .int_field(P::Attribute::type, 5)
                                              .message(P::Attribute::g, g));
            g = WireWriter().message(P::Graph::node, n).bytes_field(P::Graph::name, "g")
                    .message(P::Graph::input, tb::value_info("X")).message(P::Graph::output, tb::value_info("Y"));
        }
        return import_onnx(tb::model(g).str());
    };
    std::vector<std::string> reported;
    OrtWriteOptions o;
    o.beyond_onnxruntime_limits = [&](std::string_view why) { reported.emplace_back(why); };
    BOOST_TEST(!ort_of(nested(10), o).empty());
    BOOST_TEST(reported.empty());
    const Model deep = nested(25);
    const auto b = ort_of(deep, o);
    BOOST_TEST(reported == std::vector<std::string>{"it nests tables more than 64 deep"},
               boost::test_tools::per_element());
    ImportOptions deeper;
    deeper.ort_max_depth = 128;
    const Model back = import_bytes(b, "deep.ort", deeper);
    BOOST_TEST(dump_of(import_bytes(ort_of(back, o), "again.ort", deeper)) == dump_of(back));
    o.onnxruntime_limits = true;
    check_error(refusal_of([&] { ort_of(deep, o); }), ErrorKind::Unsupported, std::nullopt, "ModelProto");
}

BOOST_AUTO_TEST_CASE(a_graph_of_200000_nodes_is_written_beyond_the_table_limit_and_reads_back_the_same) {
    // docs/ort.md, "No cap of ours": 200,000 Identity nodes are some 1.4 million tables.
    WireWriter g;
    constexpr int nodes = 200'000;
    for (int i = 0; i < nodes; ++i)
        g.message(P::Graph::node, tb::node("Identity", {numbered("v", i)}, {numbered("v", i + 1)}));
    g.message(P::Graph::input, tb::value_info("v0", 1, {2}));
    g.message(P::Graph::output, tb::value_info(numbered("v", nodes), 1, {2}));
    const Model m = import_onnx(tb::model(g).str());
    std::vector<std::string> reported;
    OrtWriteOptions o;
    o.beyond_onnxruntime_limits = [&](std::string_view why) { reported.emplace_back(why); };
    const auto b = ort_of(m, o);
    BOOST_TEST(reported == std::vector<std::string>{"it holds more than 1,000,000 tables"},
               boost::test_tools::per_element());
    ImportOptions more;
    more.ort_max_tables = 4'000'000;
    const Model back = import_bytes(b, "big.ort", more);
    BOOST_TEST(back.graph()->nodes.size() == static_cast<size_t>(nodes));
    BOOST_TEST(dump_of(import_bytes(ort_of(back, o), "again.ort", more)) == dump_of(back));
}

BOOST_AUTO_TEST_CASE(an_inline_buffer_that_would_reach_the_limit_is_unsupported_and_external_mode_holds_it) {
    // The limit is 2 GiB; the seam lowers it to 1000 bytes above what external mode needs.
    const Model m = import_onnx(ort_rich_model());
    OrtWriteOptions external;
    external.external_data = {"m.ort.data", 1000};
    detail::OrtAssembly sized(external, "m.ort");
    detail::put_session(sized, m.proto());
    const uint64_t cap = sized.fbb.GetSize() + 1000;
    detail::OrtAssembly b(external, "m.ort");
    b.max_buffer = cap;
    detail::put_session(b, m.proto());
    OrtWriteOptions inline_mode;
    detail::OrtAssembly a(inline_mode, "m.ort");
    a.max_buffer = cap;
    const ImportError e = refusal_of([&] { detail::put_session(a, m.proto()); });
    BOOST_TEST((e.kind() == ErrorKind::Unsupported));
    BOOST_TEST(e.message().find("2 GiB") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_disk_full_in_either_file_or_the_inline_one_leaves_nothing_behind) {
    const Model m = import_onnx(ort_rich_model());
    OrtWriteOptions o;
    o.external_data.threshold = 100;
    for (bool external : {true, false}) {
        o.external_data.file = external ? "m.ort.data" : "";
        for (uint64_t fail_after : {uint64_t{0}, uint64_t{100}, uint64_t{3000}, uint64_t{6000}}) {
            TempDir dir;
            detail::WriteFaults faults;
            faults.fail_after = fail_after;
            const ImportError e = refusal_of([&] { detail::write_ort(m, dir.root / "m.ort", o, &faults); });
            BOOST_TEST((e.kind() == ErrorKind::Io));
            BOOST_TEST(listing(dir.root).empty(), "after " << fail_after << " bytes, external " << external);
        }
    }
}

BOOST_AUTO_TEST_CASE(a_target_folder_that_is_a_link_out_is_refused_and_nothing_written) {
    TempDir dir;
    fs::create_directory(dir.root / "outside");
    fs::create_directory_symlink(dir.root / "outside", dir.root / "link");
    const Model m = import_onnx(ort_rich_model());
    const ImportError e = refusal_of([&] { write_ort_file(m, dir.root / "link" / "m.ort"); });
    BOOST_TEST((e.kind() == ErrorKind::Unsupported));
    BOOST_TEST(listing(dir.root / "outside").empty());
}

BOOST_AUTO_TEST_CASE(a_link_planted_at_the_external_name_is_refused_and_not_written_through) {
    // As for the .onnx writer (test_write_onnx.cpp): the link's target is never written, nothing is.
    TempDir dir;
    write_text(dir.root / "victim", "keep");
    fs::create_symlink(dir.root / "victim", dir.root / "m.ort.data");
    OrtWriteOptions o;
    o.external_data = {"m.ort.data", 64, 64};
    const ImportError e = refusal_of([&] { write_ort_file(import_onnx(ort_rich_model()), dir.root / "m.ort", o); });
    BOOST_TEST((e.kind() == ErrorKind::Unsupported));
    BOOST_TEST(read_all(dir.root / "victim") == "keep");
    BOOST_TEST(listing(dir.root) == (std::set<std::string>{"victim", "m.ort.data"}));
}

BOOST_AUTO_TEST_CASE(an_alignment_that_is_not_a_power_of_two_is_refused) {
    TempDir dir;
    OrtWriteOptions o;
    o.external_data = {"m.ort.data", 1024, 48};
    const ImportError e = refusal_of([&] { write_ort_file(import_onnx(ort_rich_model()), dir.root / "m.ort", o); });
    BOOST_TEST((e.kind() == ErrorKind::Unsupported));
    BOOST_TEST(listing(dir.root).empty());
}

// ---- Types of undeclared values (infer_types.hpp) ----------------------------------

BOOST_AUTO_TEST_CASE(a_cast_output_without_value_info_has_the_type_of_its_to_attribute_and_no_shape) {
    const auto b = ort_of(
        import_onnx(typing_model({tb::node("Cast", {"X"}, {"T"}).message(P::Node::attribute, tb::attr_int("to", 3)),
                                  tb::node("Neg", {"T"}, {"Y"})},
                                 {"Y"})));
    const fb::Graph* g = session_of(b)->model()->graph();
    BOOST_TEST(tensor_elem(g, "T") == 3);  // INT8
    BOOST_TEST(tensor_elem(g, "Y") == 3);  // Neg keeps its input's
    BOOST_TEST(!arg_type(g, "T")->value_as_tensor_type()->shape());
    const Model back = reimport(b);
    const Value* t = back.graph()->find_value("T");
    BOOST_REQUIRE((t && t->type));
    BOOST_TEST(t->type->elem_type == 3);
}

BOOST_AUTO_TEST_CASE(comparisons_shape_and_argmax_have_their_fixed_types) {
    const auto b = ort_of(import_onnx(typing_model(
        {tb::node("Less", {"X", "X"}, {"C"}), tb::node("Shape", {"X"}, {"S"}), tb::node("ArgMax", {"X"}, {"A"}),
         tb::node("TopK", {"X", "I"}, {"V", "K"})},
        {"C", "S", "A", "V", "K"})));
    const fb::Graph* g = session_of(b)->model()->graph();
    BOOST_TEST(tensor_elem(g, "C") == 9);  // BOOL
    BOOST_TEST(tensor_elem(g, "S") == 7);  // INT64
    BOOST_TEST(tensor_elem(g, "A") == 7);
    BOOST_TEST(tensor_elem(g, "V") == 1);  // the values are X's
    BOOST_TEST(tensor_elem(g, "K") == 7);  // the indices INT64
}

BOOST_AUTO_TEST_CASE(rules_take_the_input_the_operator_names_not_the_first) {
    // A rule that used input 0 would give BOOL (Where), FLOAT (CastLike) and FLOAT (QuantizeLinear).
    WireWriter q = tb::node("QuantizeLinear", {"X", "scale", "zero"}, {"Q"});
    const auto b = ort_of(
        import_onnx(typing_model({tb::node("Less", {"X", "X"}, {"C"}), tb::node("Where", {"C", "I", "I"}, {"W"}),
                                  tb::node("CastLike", {"X", "I"}, {"L"}),
                                  tb::node("Cast", {"X"}, {"zero"}).message(P::Node::attribute, tb::attr_int("to", 3)),
                                  tb::node("Cast", {"X"}, {"scale"}).message(P::Node::attribute, tb::attr_int("to", 1)),
                                  q, tb::node("QuantizeLinear", {"X", "scale"}, {"Q8"})},
                                 {"W", "L", "Q", "Q8"})));
    const fb::Graph* g = session_of(b)->model()->graph();
    BOOST_TEST(tensor_elem(g, "W") == 7);   // X and Y of Where: INT64
    BOOST_TEST(tensor_elem(g, "L") == 7);   // CastLike: target_type's
    BOOST_TEST(tensor_elem(g, "Q") == 3);   // y_zero_point's INT8
    BOOST_TEST(tensor_elem(g, "Q8") == 2);  // no zero point: UINT8
}

BOOST_AUTO_TEST_CASE(an_operator_without_a_rule_stays_untyped_is_counted_and_nothing_after_it_guesses) {
    // QuantizeLinear's zero point comes from an unknown operator: no fallback to UINT8.
    const Model m = import_onnx(typing_model(
        {ruleless("X", "U"), tb::node("QuantizeLinear", {"X", "X", "U"}, {"Q"}),
         tb::node("Identity", {"U"}, {"Y"})},
        {"Q", "Y"}));
    OrtWriteOptions o;
    std::vector<std::string> untyped;
    o.untyped = [&](std::string_view value, std::string_view op) {
        untyped.push_back(std::string(value) + ":" + std::string(op));
    };
    const auto b = ort_of(m, o);
    const fb::Graph* g = session_of(b)->model()->graph();
    BOOST_TEST(tensor_elem(g, "U") == 0);
    BOOST_TEST(tensor_elem(g, "Q") == 0);
    BOOST_TEST(tensor_elem(g, "Y") == 0);
    const std::vector<std::string> expected{"U:Gradient", "Q:QuantizeLinear", "Y:Identity"};
    BOOST_TEST(untyped == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(an_inferred_type_the_format_cannot_hold_or_no_type_code_stays_untyped_and_the_file_is_written) {
    // INT4 (22) has no .ort code: a declared one is refused, an inferred one only left out.
    const Model m = import_onnx(typing_model(
        {tb::node("Cast", {"X"}, {"A"}).message(P::Node::attribute, tb::attr_int("to", 22)),
         tb::node("Cast", {"X"}, {"B"}).message(P::Node::attribute, tb::attr_int("to", 99)),
         tb::node("Cast", {"X"}, {"C"}).message(P::Node::attribute, tb::attr_int("to", -1))},
        {"A", "B", "C"}));
    OrtWriteOptions o;
    size_t untyped = 0;
    o.untyped = [&](std::string_view, std::string_view op) { untyped += op == "Cast"; };
    const auto b = ort_of(m, o);
    const fb::Graph* g = session_of(b)->model()->graph();
    for (std::string_view v : {"A", "B", "C"}) BOOST_TEST(tensor_elem(g, v) == 0, v);
    BOOST_TEST(untyped == 3u);
}

BOOST_AUTO_TEST_CASE(sequence_operators_make_sequence_types_and_their_elements_tensors) {
    WireWriter empty = tb::node("SequenceEmpty", {}, {"E"});
    empty.message(P::Node::attribute, tb::attr_int("dtype", 6));
    const auto b = ort_of(import_onnx(typing_model(
        {tb::node("SequenceConstruct", {"I", "I"}, {"S"}), tb::node("SequenceAt", {"S", "I"}, {"A"}),
         tb::node("SequenceLength", {"S"}, {"N"}), empty, tb::node("SplitToSequence", {"X"}, {"P"})},
        {"A", "N", "E", "P"})));
    const fb::Graph* g = session_of(b)->model()->graph();
    BOOST_TEST(sequence_elem(g, "S") == 7);
    BOOST_TEST(tensor_elem(g, "A") == 7);
    BOOST_TEST(tensor_elem(g, "N") == 7);
    BOOST_TEST(sequence_elem(g, "E") == 6);  // dtype INT32
    BOOST_TEST(sequence_elem(g, "P") == 1);
    BOOST_TEST(tensor_elem(g, "S") == -1);   // not a tensor
}

BOOST_AUTO_TEST_CASE(loop_outputs_come_from_the_body_whose_untyped_inputs_are_typed_first) {
    // The body declares nothing: iteration INT64, condition BOOL, the carried value as its initial INT64.
    WireWriter body;
    body.message(P::Graph::node, tb::node("Identity", {"cond"}, {"cond_out"}));
    body.message(P::Graph::node, tb::node("Add", {"v", "i"}, {"v_out"}));
    body.message(P::Graph::node,
                 tb::node("Cast", {"v"}, {"scan_out"}).message(P::Node::attribute, tb::attr_int("to", 10)));
    body.message(P::Graph::input, untyped_output("i"));
    body.message(P::Graph::input, untyped_output("cond"));
    body.message(P::Graph::input, untyped_output("v"));
    for (std::string_view o : {"cond_out", "v_out", "scan_out"}) body.message(P::Graph::output, untyped_output(o));
    WireWriter loop = tb::node("Loop", {"", "", "I"}, {"v_final", "scanned"});
    loop.message(P::Node::attribute, attr_body("body", body));
    const auto b = ort_of(import_onnx(typing_model({loop}, {"v_final", "scanned"})));
    const fb::Graph* g = session_of(b)->model()->graph();
    BOOST_TEST(tensor_elem(g, "v_final") == 7);
    BOOST_TEST(tensor_elem(g, "scanned") == 10);  // the body's FLOAT16 slices, stacked
    const fb::Graph* sub = subgraph(g, 0, "body");
    BOOST_TEST(tensor_elem(sub, "i") == 7);
    BOOST_TEST(tensor_elem(sub, "cond") == 9);
    BOOST_TEST(tensor_elem(sub, "cond_out") == 9);
    BOOST_TEST(tensor_elem(sub, "v_out") == 7);
}

BOOST_AUTO_TEST_CASE(if_and_scan_outputs_come_from_their_bodies) {
    auto branch = [](std::string_view op) {
        WireWriter b;
        b.message(P::Graph::node, tb::node(op, {"X"}, {"r"}));  // reads X from outside
        b.message(P::Graph::output, untyped_output("r"));
        return b;
    };
    WireWriter cond = tb::node("Less", {"I", "I"}, {"c"});
    WireWriter iff = tb::node("If", {"c"}, {"branch_out"});
    iff.message(P::Node::attribute, attr_body("then_branch", branch("Shape")));
    iff.message(P::Node::attribute, attr_body("else_branch", branch("Size")));
    WireWriter body;  // state s (INT64), one scan slice x (FLOAT)
    body.message(P::Graph::node, tb::node("Identity", {"s"}, {"s_out"}));
    body.message(P::Graph::node, tb::node("IsNaN", {"x"}, {"x_out"}));
    body.message(P::Graph::input, untyped_output("s"));
    body.message(P::Graph::input, untyped_output("x"));
    body.message(P::Graph::output, untyped_output("s_out"));
    body.message(P::Graph::output, untyped_output("x_out"));
    WireWriter scan = tb::node("Scan", {"I", "X"}, {"state", "stacked"});
    scan.message(P::Node::attribute, attr_body("body", body))
        .message(P::Node::attribute, tb::attr_int("num_scan_inputs", 1));
    const auto b = ort_of(import_onnx(typing_model({cond, iff, scan}, {"branch_out", "state", "stacked"})));
    const fb::Graph* g = session_of(b)->model()->graph();
    BOOST_TEST(tensor_elem(g, "branch_out") == 7);
    BOOST_TEST(tensor_elem(g, "state") == 7);
    BOOST_TEST(tensor_elem(g, "stacked") == 9);
    BOOST_TEST(tensor_elem(subgraph(g, 2, "body"), "x") == 1);
}

BOOST_AUTO_TEST_CASE(a_declared_type_wins_over_the_inferred_one) {
    WireWriter g;
    g.message(P::Graph::node, tb::node("Shape", {"X"}, {"S"}));
    g.message(P::Graph::input, tb::value_info("X", 1, {2}));
    g.message(P::Graph::output, tb::value_info("S", 6, {1}));  // declared INT32, as a file may have it
    const auto b = ort_of(import_onnx(tb::model(g).str()));
    const fb::Graph* fg = session_of(b)->model()->graph();
    BOOST_TEST(tensor_elem(fg, "S") == 6);
    BOOST_TEST(arg_type(fg, "S")->value_as_tensor_type()->shape());  // declared: with its shape
}

BOOST_AUTO_TEST_CASE(a_name_declared_twice_takes_the_type_of_the_declaration_that_has_one) {
    // fuzz_roundtrip: outputs repeating a name, the first untyped; the NodeArg took the first
    // and was written untyped, then typed when its own .ort was written again.
    WireWriter g;
    g.message(P::Graph::node, tb::node("Shape", {"X"}, {"S"}));
    g.message(P::Graph::input, tb::value_info("X", 1, {2}));
    g.message(P::Graph::output, untyped_output("S"));
    g.message(P::Graph::output, tb::value_info("S", 6, {1}));
    const Model m = import_onnx(tb::model(g).str());
    const auto b = ort_of(m);
    const fb::Graph* fg = session_of(b)->model()->graph();
    BOOST_TEST(tensor_elem(fg, "S") == 6);  // the second declaration's, not the inferred INT64
    BOOST_TEST(dump_of(reimport(ort_of(reimport(b)))) == dump_of(reimport(b)));
}

BOOST_AUTO_TEST_CASE(a_castlike_of_known_target_type_is_written_as_its_cast_and_one_of_unknown_type_is_refused) {
    // ONNX Runtime has no CastLike kernel: the function body, Cast to target_type's element type.
    WireWriter like = tb::node("CastLike", {"X", "S"}, {"L"});
    like.message(P::Node::attribute, tb::attr_int("saturate", 0));
    const auto b = ort_of(import_onnx(typing_model({tb::node("Shape", {"X"}, {"S"}), like}, {"L"})));
    const fb::Graph* g = session_of(b)->model()->graph();
    const fb::Node* cast = g->nodes()->Get(1);
    BOOST_TEST(cast->op_type()->str() == "Cast");
    BOOST_TEST(cast->since_version() == 21);  // Cast's version at opset 21
    BOOST_REQUIRE(cast->inputs()->size() == 1u);
    BOOST_TEST(cast->inputs()->Get(0)->str() == "X");
    BOOST_TEST(cast->input_arg_counts()->size() == 1u);
    BOOST_REQUIRE(cast->attributes()->size() == 2u);
    BOOST_TEST(cast->attributes()->Get(0)->name()->str() == "saturate");
    BOOST_TEST(cast->attributes()->Get(1)->name()->str() == "to");
    BOOST_TEST(cast->attributes()->Get(1)->i() == 7);
    BOOST_TEST(tensor_elem(g, "L") == 7);
    // Shape no longer feeds it: no edge from node 0.
    BOOST_TEST(g->node_edges()->Get(1)->input_edges()->size() == 0u);
    BOOST_TEST(g->node_edges()->Get(0)->output_edges()->size() == 0u);
    // One whose target type nothing gives stays a CastLike, which ONNX Runtime runs only as a function.
    const Model unknown =
        import_onnx(typing_model({ruleless("X", "U"), tb::node("CastLike", {"X", "U"}, {"M"})}, {"M"}));
    const ImportError e = refusal_of([&] { ort_of(unknown); });
    check_error(e, ErrorKind::Unsupported, std::nullopt, "ModelProto.graph.node[1].op_type");
    BOOST_TEST(e.message().find("operator CastLike at opset 21 (version 21) runs in ONNX Runtime only as its "
                                "function") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
