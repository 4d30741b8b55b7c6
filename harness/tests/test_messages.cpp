// Suite `messages`: the onnx.proto messages the importer reads (spec section 2) — the
// model checks, attribute type inference and its refusals, TypeProto members, and the
// fields of graphs, nodes, functions and training info as written.
#include "core_support.hpp"

#include <boost/test/unit_test.hpp>

#include <array>
#include <functional>
#include <optional>
#include <vector>

using namespace core_test;

namespace {

// The two messages whose fields this file names most (importer/schema/onnx_fields.hpp).
using A = proto::Attribute;
using M = proto::Model;

std::string graph_bytes() { return tb::minimal_graph().str(); }

int type_code(const Attribute& a) { return static_cast<int>(a.type); }
int kind_code(TypeProto::Kind k) { return static_cast<int>(k); }

/// A small sparse tensor: FLOAT values [1] at index 2 of a dense [4].
WireWriter sparse_tensor() {
    using T = proto::Tensor;
    return tb::sparse_tensor(tb::tensor_raw("sv", 1, {1}, "abcd"),
                             WireWriter().int_field(T::dims, 1).int_field(T::data_type, 7).int_field(T::int64_data, 2),
                             {4});
}

/// One value field of AttributeProto, in the spec's inference order, with the type it implies.
struct ValueField {
    const char* name;
    int type;
    std::function<void(WireWriter&)> write;
};

const std::array<ValueField, 14>& value_fields() {
    static const std::array<ValueField, 14> fields = {{
        {"f", 1, [](WireWriter& w) { w.float_field(A::f, 1.0f); }},
        {"i", 2, [](WireWriter& w) { w.int_field(A::i, 1); }},
        {"s", 3, [](WireWriter& w) { w.bytes_field(A::s, "x"); }},
        {"t", 4, [](WireWriter& w) { w.message(A::t, tb::tensor_raw("t", 1, {1}, "abcd")); }},
        {"g", 5, [](WireWriter& w) { w.message(A::g, WireWriter().bytes_field(proto::Graph::name, "sub")); }},
        {"sparse_tensor", 11, [](WireWriter& w) { w.message(A::sparse_tensor, sparse_tensor()); }},
        {"tp", 13, [](WireWriter& w) { w.message(A::tp, tb::tensor_type(1, {1})); }},
        {"floats", 6, [](WireWriter& w) { w.float_field(A::floats, 1.0f); }},
        {"ints", 7, [](WireWriter& w) { w.int_field(A::ints, 1); }},
        {"strings", 8, [](WireWriter& w) { w.bytes_field(A::strings, "a"); }},
        {"tensors", 9, [](WireWriter& w) { w.message(A::tensors, tb::tensor_raw("t", 1, {1}, "abcd")); }},
        {"graphs", 10,
         [](WireWriter& w) { w.message(A::graphs, WireWriter().bytes_field(proto::Graph::name, "sub")); }},
        {"sparse_tensors", 12, [](WireWriter& w) { w.message(A::sparse_tensors, sparse_tensor()); }},
        {"type_protos", 14, [](WireWriter& w) { w.message(A::type_protos, tb::tensor_type(1, {1})); }},
    }};
    return fields;
}

const Attribute& only_attribute(const Model& m) { return m.graph()->nodes.at(0).attributes.at(0); }

/// A model with one graph input "x" of the given TypeProto bytes.
std::string model_with_input_type(const WireWriter& type) {
    WireWriter vi = WireWriter().bytes_field(proto::ValueInfo::name, "x").message(proto::ValueInfo::type, type);
    return model_graph_last(WireWriter().message(proto::Graph::input, vi).str());
}
const TypeProto& input_type(const Model& m) { return m.graph()->inputs.at(0).type; }

}  // namespace

BOOST_AUTO_TEST_SUITE(messages)

// ---- Model checks ---------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(missing_ir_version_is_invalid_model) {
    std::string m = WireWriter()
                        .message(proto::Model::opset_import, tb::opset("", 21))
                        .bytes_field(proto::Model::graph, graph_bytes())
                        .str();
    expect_model_error(m, ErrorKind::InvalidModel, 0, "ModelProto.ir_version");
}

BOOST_AUTO_TEST_CASE(ir_version_below_3_is_invalid_model_at_its_field) {
    for (uint64_t v : {uint64_t{0}, uint64_t{1}, uint64_t{2}}) {
        BOOST_TEST_CONTEXT("ir_version " << v) {
            std::string m = WireWriter()
                                .bytes_field(M::producer_name, "p")
                                .int_field(M::ir_version, v)
                                .bytes_field(M::graph, graph_bytes())
                                .str();
            expect_model_error(m, ErrorKind::InvalidModel, 3, "ModelProto.ir_version");
        }
    }
    // int64 -1 (a ten-byte varint) is negative, so below 3 as well.
    std::string neg = WireWriter().int_field(M::ir_version, UINT64_MAX).bytes_field(M::graph, graph_bytes()).str();
    expect_model_error(neg, ErrorKind::InvalidModel, 0, "ModelProto.ir_version");
}

BOOST_AUTO_TEST_CASE(ir_version_3_and_any_larger_version_are_accepted) {
    for (uint64_t v : {uint64_t{3}, uint64_t{11}, uint64_t{1000}, uint64_t{1} << 62, uint64_t{INT64_MAX}}) {
        BOOST_TEST_CONTEXT("ir_version " << v) {
            auto m = import_model(model_graph_last(graph_bytes(), v));
            BOOST_TEST(m.proto().has_ir_version);
            BOOST_TEST(static_cast<uint64_t>(m.proto().ir_version) == v);
        }
    }
}

BOOST_AUTO_TEST_CASE(model_without_a_graph_is_invalid_model) {
    std::string m = WireWriter().int_field(M::ir_version, 9).message(M::opset_import, tb::opset("", 21)).str();
    expect_model_error(m, ErrorKind::InvalidModel, 0, "ModelProto.graph");
    // A graph field of the wrong wire type is skipped, so it does not count.
    std::string wrong = WireWriter().int_field(M::ir_version, 9).int_field(M::graph, 1).str();
    expect_model_error(wrong, ErrorKind::InvalidModel, 0, "ModelProto.graph");
}

BOOST_AUTO_TEST_CASE(an_empty_graph_message_is_a_graph) {
    auto m = import_model(model_graph_last(""));
    BOOST_REQUIRE(m.graph());
    BOOST_TEST(m.graph()->nodes.empty());
}

BOOST_AUTO_TEST_CASE(model_fields_are_read_as_written) {
    std::string m = WireWriter()
                        .int_field(M::ir_version, 10)
                        .bytes_field(M::producer_name, "prod")
                        .bytes_field(M::producer_version, "1.2")
                        .bytes_field(M::domain, "ai.example")
                        .int_field(M::model_version, 42)
                        .bytes_field(M::doc_string, "doc")
                        .bytes_field(M::graph, graph_bytes())
                        .message(M::opset_import, tb::opset("", 21))
                        .message(M::opset_import, tb::opset("com.example", 3))
                        .message(M::metadata_props, tb::string_entry("k", "v"))
                        .str();
    auto model = import_model(m);
    BOOST_TEST(model.proto().ir_version == 10);
    BOOST_TEST(model.proto().producer_name == "prod");
    BOOST_TEST(model.proto().producer_version == "1.2");
    BOOST_TEST(model.proto().domain == "ai.example");
    BOOST_TEST(model.proto().model_version == 42);
    BOOST_TEST(model.proto().doc_string == "doc");
    BOOST_REQUIRE(model.proto().opset_import.size() == 2u);
    BOOST_TEST(model.proto().opset_import[0].domain.empty());
    BOOST_TEST(model.proto().opset_import[0].version == 21);
    BOOST_TEST(model.proto().opset_import[1].domain == "com.example");
    BOOST_TEST(model.proto().opset_import[1].version == 3);
    BOOST_REQUIRE(model.proto().metadata_props.size() == 1u);
    BOOST_TEST(model.proto().metadata_props[0].key == "k");
    BOOST_TEST(model.proto().metadata_props[0].value == "v");
    BOOST_TEST(model.source_name() == "test.onnx");
    BOOST_TEST(model.input_size() == m.size());
}

BOOST_AUTO_TEST_CASE(minimal_model_imports_with_resolution_on) {
    std::string m = tb::minimal_model();
    auto model = import_model(m, ImportOptions{});
    BOOST_TEST(model.graph()->nodes.at(0).op_type == "Identity");
}

// ---- Graphs and nodes -----------------------------------------------------------------

BOOST_AUTO_TEST_CASE(graph_and_node_fields_are_read_as_written) {
    WireWriter node = tb::node("Add", {"X", "", "Z"}, {"Y", ""}, "n0");
    node.bytes_field(proto::Node::doc_string, "node doc")
        .bytes_field(proto::Node::domain, "com.example")
        .bytes_field(proto::Node::overload, "ov")
        .message(proto::Node::metadata_props, tb::string_entry("nk", "nv"));
    WireWriter sparse_init = sparse_tensor();
    std::string graph =
        WireWriter()
            .message(proto::Graph::node, node)
            .bytes_field(proto::Graph::name, "main")
            .message(proto::Graph::initializer, tb::tensor_raw("W", 1, {1}, "abcd"))
            .bytes_field(proto::Graph::doc_string, "graph doc")
            .message(proto::Graph::input, tb::value_info("X"))
            .message(proto::Graph::output, tb::value_info("Y"))
            .message(proto::Graph::value_info, tb::value_info("Z", 7, {2}))
            .message(
                proto::Graph::quantization_annotation,
                WireWriter().bytes_field(proto::TensorAnnotation::tensor_name, "quantization annotations are skipped"))
            .message(proto::Graph::sparse_initializer, sparse_init)
            .message(proto::Graph::metadata_props, WireWriter().bytes_field(proto::StringStringEntry::key, "gk"))
            .str();
    std::string m = model_graph_last(graph);
    auto model = import_model(m);
    const Graph& g = *model.graph();
    BOOST_TEST(g.name == "main");
    BOOST_TEST(g.doc_string == "graph doc");
    BOOST_TEST(g.offset == graph_payload_offset(graph) - len_header(proto::Model::graph, graph.size()));
    BOOST_REQUIRE(g.nodes.size() == 1u);
    const Node& n = g.nodes[0];
    BOOST_TEST(n.offset == graph_payload_offset(graph));
    BOOST_TEST((n.inputs.to_vector() == std::vector<std::string_view>{"X", "", "Z"}));
    BOOST_TEST((n.outputs.to_vector() == std::vector<std::string_view>{"Y", ""}));
    BOOST_TEST(n.name == "n0");
    BOOST_TEST(n.op_type == "Add");
    BOOST_TEST(n.doc_string() == "node doc");
    BOOST_TEST(n.domain == "com.example");
    BOOST_TEST(n.overload() == "ov");
    BOOST_TEST(n.metadata_props().at(0).key == "nk");
    BOOST_TEST(g.initializers.at(0).name == "W");
    BOOST_TEST(g.inputs.at(0).name == "X");
    BOOST_TEST(g.outputs.at(0).name == "Y");
    BOOST_TEST(g.value_info.at(0).name == "Z");
    BOOST_TEST(g.value_info[0].type.elem_type == 7);
    BOOST_TEST(g.sparse_initializers.size() == 1u);
    BOOST_TEST(g.metadata_props.at(0).key == "gk");
    BOOST_TEST(g.metadata_props[0].value.empty());
}

// ---- Attributes -----------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(attribute_type_is_inferred_from_each_value_field_alone) {
    for (const auto& field : value_fields()) {
        BOOST_TEST_CONTEXT("field " << field.name) {
            WireWriter attr = WireWriter().bytes_field(A::name, "a");
            field.write(attr);
            auto m = import_model(model_with_attribute(attr));
            BOOST_TEST(type_code(only_attribute(m)) == field.type);
            BOOST_TEST(!only_attribute(m).type_declared);
        }
    }
}

BOOST_AUTO_TEST_CASE(attribute_type_inference_follows_the_spec_order_not_the_file_order) {
    // For each neighbouring pair in f, i, s, t, g, sparse_tensor, tp, floats, ints,
    // strings, tensors, graphs, sparse_tensors, type_protos: the later one is written
    // first, and the earlier one still decides the type.
    const auto& fields = value_fields();
    for (size_t k = 0; k + 1 < fields.size(); ++k) {
        BOOST_TEST_CONTEXT(fields[k].name << " over " << fields[k + 1].name) {
            WireWriter attr = WireWriter().bytes_field(A::name, "a");
            fields[k + 1].write(attr);
            fields[k].write(attr);
            auto m = import_model(model_with_attribute(attr));
            BOOST_TEST(type_code(only_attribute(m)) == fields[k].type);
        }
    }
    // All fourteen, written in reverse order: f decides.
    WireWriter all = WireWriter().bytes_field(A::name, "a");
    for (size_t k = fields.size(); k-- > 0;) fields[k].write(all);
    auto m = import_model(model_with_attribute(all));
    BOOST_TEST(type_code(only_attribute(m)) == 1);
}

BOOST_AUTO_TEST_CASE(attribute_fields_of_the_wrong_wire_type_are_skipped) {
    // The name, f, i and type are read inline (read_attribute.cpp): each still skips a value of
    // another wire type, and the rest of the attribute decides.
    WireWriter attr = WireWriter()
                          .int_field(A::name, 5)          // name as a varint
                          .bytes_field(A::name, "a")
                          .int_field(A::f, 9)          // f as a varint
                          .bytes_field(A::i, "x")      // i as bytes
                          .float_field(A::type, 1.0f)    // type as a 32-bit value
                          .int_field(A::i, 7);
    auto m = import_model(model_with_attribute(attr));
    const Attribute& a = only_attribute(m);
    BOOST_TEST(a.name == "a");
    BOOST_TEST(type_code(a) == 2);  // inferred from i: f and type were skipped
    BOOST_TEST(!a.type_declared);
    BOOST_TEST(a.i == 7);
    BOOST_TEST(a.f == 0.0f);
}

BOOST_AUTO_TEST_CASE(declared_type_wins_over_inference) {
    WireWriter attr =
        WireWriter().bytes_field(A::name, "a").float_field(A::f, 1.0f).int_field(A::i, 7).int_field(A::type, 2);
    auto m = import_model(model_with_attribute(attr));
    BOOST_TEST(type_code(only_attribute(m)) == 2);
    BOOST_TEST(only_attribute(m).type_declared);
    BOOST_TEST(only_attribute(m).i == 7);
}

BOOST_AUTO_TEST_CASE(attribute_with_neither_type_nor_value_is_invalid_model) {
    WireWriter attr = WireWriter().bytes_field(A::name, "empty").bytes_field(A::doc_string, "doc");
    expect_model_error(model_with_attribute(attr), ErrorKind::InvalidModel, attribute_key_offset(attr),
                       "ModelProto.graph.node[0].attribute[0]");
    // type written as UNDEFINED (0) is no type either.
    WireWriter undefined = WireWriter().bytes_field(A::name, "u").int_field(A::type, 0);
    expect_model_error(model_with_attribute(undefined), ErrorKind::InvalidModel, attribute_key_offset(undefined),
                       "ModelProto.graph.node[0].attribute[0]");
}

BOOST_AUTO_TEST_CASE(attribute_with_ref_attr_name_carries_no_value_and_is_accepted) {
    WireWriter attr = WireWriter().bytes_field(A::name, "alpha").bytes_field(A::ref_attr_name, "outer_alpha");
    auto m = import_model(model_with_attribute(attr));
    BOOST_TEST(only_attribute(m).ref_attr_name() == "outer_alpha");
    BOOST_TEST(type_code(only_attribute(m)) == 0);
    // A reference with a declared tensor type needs no tensor either.
    WireWriter typed =
        WireWriter().bytes_field(A::name, "w").int_field(A::type, 4).bytes_field(A::ref_attr_name, "outer_w");
    auto n = import_model(model_with_attribute(typed));
    BOOST_TEST(type_code(only_attribute(n)) == 4);
    BOOST_TEST(!only_attribute(n).t());
}

BOOST_AUTO_TEST_CASE(declared_scalar_or_list_attribute_without_its_field_reads_zero_or_empty) {
    for (int type : {1, 2, 3, 6, 7, 8, 9, 10, 12, 14}) {
        BOOST_TEST_CONTEXT("type " << type) {
            WireWriter attr = WireWriter().bytes_field(A::name, "a").int_field(A::type, static_cast<uint64_t>(type));
            auto m = import_model(model_with_attribute(attr));
            const Attribute& a = only_attribute(m);
            BOOST_TEST(type_code(a) == type);
            BOOST_TEST(a.f == 0.0f);
            BOOST_TEST(a.i == 0);
            BOOST_TEST(a.s().empty());
            BOOST_TEST((a.floats().empty() && a.ints().empty() && a.strings().empty() && a.tensors().empty() &&
                        a.graphs().empty() && a.sparse_tensors().empty() && a.type_protos().empty()));
        }
    }
}

BOOST_AUTO_TEST_CASE(declared_tensor_graph_sparse_or_type_attribute_without_its_field_is_invalid_model) {
    struct Case {
        int type;
        const char* leaf;
    };
    for (Case c : {Case{4, "t"}, Case{5, "g"}, Case{11, "sparse_tensor"}, Case{13, "tp"}}) {
        BOOST_TEST_CONTEXT("type " << c.type) {
            // Another value field is present, just not the declared one.
            WireWriter attr = WireWriter()
                                  .bytes_field(A::name, "a")
                                  .int_field(A::i, 1)
                                  .int_field(A::type, static_cast<uint64_t>(c.type));
            expect_model_error(model_with_attribute(attr), ErrorKind::InvalidModel, attribute_key_offset(attr),
                               std::string("ModelProto.graph.node[0].attribute[0].") + c.leaf);
        }
    }
}

BOOST_AUTO_TEST_CASE(unknown_attribute_type_code_is_invalid_model_at_the_type_field) {
    for (uint64_t code : {uint64_t{15}, uint64_t{100}, UINT64_MAX}) {
        BOOST_TEST_CONTEXT("type " << code) {
            WireWriter attr = WireWriter().bytes_field(A::name, "a").int_field(A::i, 1);
            uint64_t type_at = attr.size();
            attr.int_field(A::type, code);
            expect_model_error(model_with_attribute(attr), ErrorKind::InvalidModel,
                               attribute_key_offset(attr) + len_header(proto::Node::attribute, attr.size()) + type_at,
                               "ModelProto.graph.node[0].attribute[0].type");
        }
    }
}

BOOST_AUTO_TEST_CASE(attribute_values_are_read_as_written) {
    WireWriter attr = WireWriter()
                          .bytes_field(A::name, "all")
                          .float_field(A::f, 2.5f)
                          .int_field(A::i, static_cast<uint64_t>(-7))
                          .bytes_field(A::s, "bytes")
                          .message(A::t, tb::tensor_raw("T", 1, {1}, "abcd"))
                          .message(A::g, WireWriter().bytes_field(proto::Graph::name, "G"))
                          .message(A::sparse_tensor, sparse_tensor())
                          .message(A::tp, tb::tensor_type(7, {3}))
                          .message(A::tensors, tb::tensor_raw("T0", 2, {2}, "xy"))
                          .message(A::graphs, WireWriter().bytes_field(proto::Graph::name, "G0"))
                          .message(A::graphs, WireWriter().bytes_field(proto::Graph::name, "G1"))
                          .message(A::sparse_tensors, sparse_tensor())
                          .message(A::type_protos, tb::tensor_type(1, {}))
                          .bytes_field(A::doc_string, "attr doc");
    auto m = import_model(model_with_attribute(attr));
    const Attribute& a = only_attribute(m);
    BOOST_TEST(a.name == "all");
    BOOST_TEST(a.doc_string() == "attr doc");
    BOOST_TEST(a.f == 2.5f);
    BOOST_TEST(a.i == -7);
    BOOST_TEST(a.s() == "bytes");
    BOOST_TEST(a.t()->name == "T");
    BOOST_TEST(a.g()->name == "G");
    BOOST_TEST(a.sparse_tensor()->dims.to_vector() == (std::vector<int64_t>{4}));
    BOOST_TEST(a.tp()->elem_type == 7);
    BOOST_TEST(a.tensors().at(0).name == "T0");
    BOOST_TEST(a.graphs().size() == 2u);
    BOOST_TEST(a.graphs().at(1).name == "G1");
    BOOST_TEST(a.sparse_tensors().size() == 1u);
    BOOST_TEST(a.type_protos().at(0).has_shape);
}

// ---- Types ----------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(a_plain_attribute_reads_as_the_same_attribute_written_any_other_way) {
    // read_plain_scalar_attribute (read_attribute.cpp) reads a name, one float or small
    // integer and its type without entering the message; the same attribute with an unknown
    // field after it, or with the type first, takes the general path: the same attribute.
    struct Case {
        std::string name;
        bool is_float;
        float f;
        uint64_t i;
        uint64_t declared;
    };
    const Case cases[] = {{"alpha", true, 1.0f, 0, 1},          {"beta", true, -0.5f, 0, 1},
                          {"", true, 0.0f, 0, 1},               {"transB", false, 0, 1, 2},
                          {"axis", false, 0, 127, 2},           {"axis", false, 0, 128, 2},
                          {"axis", false, 0, ~uint64_t{0}, 2},  {"mixed", true, 2.0f, 0, 2},
                          {"caf\xC3\xA9", false, 0, 3, 2},    {std::string(100, 'n'), true, 3.0f, 0, 1},
                          {std::string(125, 'n'), false, 0, 5, 2}};
    auto attribute_of = [](const Case& k, bool type_first, bool trailing_field) {
        WireWriter a;
        if (type_first) a.int_field(A::type, k.declared);
        a.bytes_field(A::name, k.name);
        if (k.is_float) a.float_field(A::f, k.f);
        else a.int_field(A::i, k.i);
        if (!type_first) a.int_field(A::type, k.declared);
        if (trailing_field) a.int_field(99, 0);  // no AttributeProto field: skipped
        return a;
    };
    for (const Case& k : cases) {
        BOOST_TEST_CONTEXT("attribute " << k.name.substr(0, 8) << ", declared " << k.declared) {
            auto plain = import_model(model_with_attribute(attribute_of(k, false, false)));
            const Attribute& a = only_attribute(plain);
            BOOST_TEST(a.name == k.name);
            BOOST_TEST(type_code(a) == static_cast<int>(k.declared));
            BOOST_TEST(a.type_declared);
            BOOST_TEST(a.f == (k.is_float ? k.f : 0.0f));
            BOOST_TEST(a.i == static_cast<int64_t>(k.is_float ? 0 : k.i));
            for (bool type_first : {false, true}) {
                auto other = import_model(model_with_attribute(attribute_of(k, type_first, !type_first)));
                const Attribute& b = only_attribute(other);
                BOOST_TEST((b.name == a.name && b.type == a.type && b.type_declared && b.f == a.f && b.i == a.i));
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(a_plain_attribute_with_a_name_that_is_not_utf8_is_malformed) {
    WireWriter attr = WireWriter().bytes_field(A::name, "a\xFF").float_field(A::f, 1.0f).int_field(A::type, 1);
    const std::string m = model_with_attribute(attr);
    expect_model_error(m, ErrorKind::Malformed, m.find("a\xFF") + 1,
                       "ModelProto.graph.node[0].attribute[0].name");
}

BOOST_AUTO_TEST_CASE(type_proto_with_no_member_is_no_type) {
    auto m = import_model(model_with_input_type(WireWriter()));
    BOOST_TEST(kind_code(input_type(m).kind) == kind_code(TypeProto::Kind::None));
    // Only a denotation is still no type.
    auto d = import_model(model_with_input_type(WireWriter().bytes_field(proto::Type::denotation, "IMAGE")));
    BOOST_TEST(kind_code(input_type(d).kind) == kind_code(TypeProto::Kind::None));
    BOOST_TEST(input_type(d).denotation() == "IMAGE");
    // A value_info without a type field at all.
    auto n = import_model(model_graph_last(
        WireWriter().message(proto::Graph::input, WireWriter().bytes_field(proto::ValueInfo::name, "x")).str()));
    BOOST_TEST(kind_code(input_type(n).kind) == kind_code(TypeProto::Kind::None));
}

BOOST_AUTO_TEST_CASE(a_plain_tensor_type_reads_as_the_same_type_written_any_other_way) {
    // read_plain_tensor_type (read_type.cpp) reads the commonest encoding without entering
    // its messages; the same type with an unknown field after it, or with the shape before
    // the element type, takes the general path. Both must give the same type.
    struct Case {
        int32_t elem_type;
        std::optional<std::vector<uint64_t>> dims;  // none: no shape field
    };
    std::vector<uint64_t> thirty(30);
    for (size_t i = 0; i < thirty.size(); ++i) thirty[i] = i * 4;
    const Case cases[] = {{1, std::nullopt}, {1, std::vector<uint64_t>{}}, {7, std::vector<uint64_t>{3}},
                          {0, std::vector<uint64_t>{5}}, {127, std::vector<uint64_t>{0, 127, 1}},
                          {128, std::vector<uint64_t>{2}}, {1, std::vector<uint64_t>{128, 3}}, {16, thirty}};
    auto type_of = [](const Case& k, bool shape_first, bool trailing_field) {
        constexpr uint32_t unknown_type_field = 15;  // no TypeProto field has this number: skipped
        WireWriter shape;
        if (k.dims)
            for (uint64_t d : *k.dims)
                shape.message(proto::Shape::dim, WireWriter().int_field(proto::Dimension::dim_value, d));
        WireWriter tensor;
        if (shape_first && k.dims) tensor.message(proto::TensorType::shape, shape);
        tensor.int_field(proto::TensorType::elem_type, static_cast<uint64_t>(k.elem_type));
        if (!shape_first && k.dims) tensor.message(proto::TensorType::shape, shape);
        WireWriter type = WireWriter().message(proto::Type::tensor_type, tensor);
        if (trailing_field) type.int_field(unknown_type_field, 0);
        return type;
    };
    auto same = [](const TypeProto& a, const TypeProto& b) {
        bool equal = a.kind == b.kind && a.elem_type == b.elem_type && a.has_shape == b.has_shape &&
                     a.shape.size() == b.shape.size() && !a.elem && !b.elem;
        for (size_t i = 0; equal && i < a.shape.size(); ++i)
            equal = a.shape[i].kind() == b.shape[i].kind() && a.shape[i].value() == b.shape[i].value();
        return equal;
    };
    for (const Case& k : cases) {
        BOOST_TEST_CONTEXT("elem_type " << k.elem_type << ", " << (k.dims ? k.dims->size() : 0) << " dims") {
            auto plain = import_model(model_with_input_type(type_of(k, false, false)));
            const TypeProto& t = input_type(plain);
            BOOST_TEST(kind_code(t.kind) == kind_code(TypeProto::Kind::Tensor));
            BOOST_TEST(t.elem_type == k.elem_type);
            BOOST_TEST(t.has_shape == k.dims.has_value());
            for (bool shape_first : {false, true}) {
                auto other = import_model(model_with_input_type(type_of(k, shape_first, !shape_first)));
                BOOST_TEST(same(t, input_type(other)));
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(a_plain_tensor_type_one_level_too_deep_is_malformed_too) {
    // In a subgraph's input, the dimension of a plain tensor type is at level 9: graph, node,
    // attribute, g, input, type, tensor_type, shape, dim.
    WireWriter sub = WireWriter().message(proto::Graph::input, tb::value_info("x", 1, {3}));
    WireWriter attr = WireWriter().bytes_field(A::name, "then_branch").int_field(A::type, 5).message(A::g, sub);
    WireWriter node = WireWriter().bytes_field(proto::Node::op_type, "If").message(proto::Node::attribute, attr);
    const std::string m = model_graph_last(WireWriter().message(proto::Graph::node, node).str());
    ImportOptions o = parse_only();
    o.max_nesting = 9;
    auto ok = import_model(m, o);
    BOOST_TEST(ok.graph()->nodes.at(0).attributes.at(0).g()->inputs.at(0).type.shape.at(0).value() == 3);
    o.max_nesting = 8;
    const std::string dim =
        WireWriter().message(proto::Shape::dim, WireWriter().int_field(proto::Dimension::dim_value, 3)).str();
    expect_model_error(m, ErrorKind::Malformed, m.rfind(dim),
                       "ModelProto.graph.node[0].attribute[0].g.input[0].type.tensor_type.shape.dim[0]", o);
}

BOOST_AUTO_TEST_CASE(tensor_type_with_a_shape_field_has_a_shape_possibly_rank_0) {
    WireWriter rank0 = WireWriter().message(
        proto::Type::tensor_type,
        WireWriter().int_field(proto::TensorType::elem_type, 1).message(proto::TensorType::shape, WireWriter()));
    auto m = import_model(model_with_input_type(rank0));
    BOOST_TEST(kind_code(input_type(m).kind) == kind_code(TypeProto::Kind::Tensor));
    BOOST_TEST(input_type(m).has_shape);
    BOOST_TEST(input_type(m).shape.empty());
}

BOOST_AUTO_TEST_CASE(tensor_type_without_a_shape_field_has_unknown_rank) {
    WireWriter unranked =
        WireWriter().message(proto::Type::tensor_type, WireWriter().int_field(proto::TensorType::elem_type, 1));
    auto m = import_model(model_with_input_type(unranked));
    BOOST_TEST(kind_code(input_type(m).kind) == kind_code(TypeProto::Kind::Tensor));
    BOOST_TEST(input_type(m).elem_type == 1);
    BOOST_TEST(!input_type(m).has_shape);
}

BOOST_AUTO_TEST_CASE(dimension_with_neither_value_nor_param_is_unknown) {
    using D = proto::Dimension;
    const auto dim = proto::Shape::dim;
    WireWriter shape = WireWriter()
                           .message(dim, WireWriter().int_field(D::dim_value, 3))
                           .message(dim, WireWriter().bytes_field(D::dim_param, "N"))
                           .message(dim, WireWriter())
                           .message(dim, WireWriter().bytes_field(D::denotation, "CHANNEL"))
                           // The last of value and param wins: a param, then a value of 0.
                           .message(dim, WireWriter().int_field(D::dim_value, 5).bytes_field(D::dim_param, "M"))
                           .message(dim, WireWriter().bytes_field(D::dim_param, "M").int_field(D::dim_value, 0));
    WireWriter type = WireWriter().message(
        proto::Type::tensor_type,
        WireWriter().int_field(proto::TensorType::elem_type, 1).message(proto::TensorType::shape, shape));
    auto m = import_model(model_with_input_type(type));
    const auto& dims = input_type(m).shape;
    BOOST_REQUIRE(dims.size() == 6u);
    using K = Dimension::Kind;
    BOOST_TEST((dims[0].kind() == K::Value && dims[0].value() == 3));
    BOOST_TEST((dims[1].kind() == K::Param && dims[1].param() == "N"));
    BOOST_TEST((dims[2].kind() == K::Unknown));
    BOOST_TEST((dims[3].kind() == K::Unknown && input_type(m).dim_denotation(3) == "CHANNEL"));
    BOOST_TEST((dims[4].kind() == K::Param && dims[4].param() == "M" && dims[4].value() == 0));
    BOOST_TEST((dims[5].kind() == K::Value && dims[5].value() == 0 && dims[5].param().empty()));
    BOOST_TEST(input_type(m).dim_denotation(2).empty());
    BOOST_TEST(input_type(m).dim_denotation(4).empty());  // past the last denotation read
}

BOOST_AUTO_TEST_CASE(a_repeated_shape_replaces_the_dimension_denotations_too) {
    // Singular messages are replaced, not merged: the second shape's dimension has no
    // denotation, though the first one's had (they live apart from the dimensions).
    using D = proto::Dimension;
    using TT = proto::TensorType;
    WireWriter first = WireWriter().message(
        proto::Shape::dim, WireWriter().int_field(D::dim_value, 3).bytes_field(D::denotation, "BATCH"));
    WireWriter second = WireWriter().message(proto::Shape::dim, WireWriter().int_field(D::dim_value, 4));
    WireWriter type = WireWriter().message(
        proto::Type::tensor_type,
        WireWriter().int_field(TT::elem_type, 1).message(TT::shape, first).message(TT::shape, second));
    auto m = import_model(model_with_input_type(type));
    BOOST_REQUIRE(input_type(m).shape.size() == 1u);
    BOOST_TEST(input_type(m).shape[0].value() == 4);
    BOOST_TEST(input_type(m).dim_denotation(0).empty());
}

BOOST_AUTO_TEST_CASE(every_type_proto_member_is_read) {
    using T = proto::Type;
    using TT = proto::TensorType;
    WireWriter tensor_f = tb::tensor_type(1, {2});
    const WireWriter sequence_of_f =
        WireWriter().message(T::sequence_type, WireWriter().message(proto::ElemType::elem_type, tensor_f));
    {  // sequence of tensor
        auto m = import_model(model_with_input_type(sequence_of_f));
        BOOST_TEST(kind_code(input_type(m).kind) == kind_code(TypeProto::Kind::Sequence));
        BOOST_REQUIRE(input_type(m).elem);
        BOOST_TEST(input_type(m).elem->elem_type == 1);
        BOOST_TEST(input_type(m).elem->shape.at(0).value() == 2);
    }
    {  // sequence without elem_type
        auto m = import_model(model_with_input_type(WireWriter().message(T::sequence_type, WireWriter())));
        BOOST_TEST(kind_code(input_type(m).kind) == kind_code(TypeProto::Kind::Sequence));
        BOOST_TEST(!input_type(m).elem);
    }
    {  // map<int64, tensor>
        WireWriter map =
            WireWriter().int_field(proto::MapType::key_type, 7).message(proto::MapType::value_type, tensor_f);
        auto m = import_model(model_with_input_type(WireWriter().message(T::map_type, map)));
        BOOST_TEST(kind_code(input_type(m).kind) == kind_code(TypeProto::Kind::Map));
        BOOST_TEST(input_type(m).elem_type == 7);
        BOOST_TEST(input_type(m).elem->elem_type == 1);
    }
    {  // optional of sequence of tensor
        WireWriter optional = WireWriter().message(proto::ElemType::elem_type, sequence_of_f);
        auto m = import_model(model_with_input_type(WireWriter().message(T::optional_type, optional)));
        BOOST_TEST(kind_code(input_type(m).kind) == kind_code(TypeProto::Kind::Optional));
        BOOST_TEST(kind_code(input_type(m).elem->kind) == kind_code(TypeProto::Kind::Sequence));
        BOOST_TEST(input_type(m).elem->elem->elem_type == 1);
    }
    {  // sparse tensor with and without shape
        WireWriter shape =
            WireWriter().message(proto::Shape::dim, WireWriter().int_field(proto::Dimension::dim_value, 9));
        WireWriter st = WireWriter().int_field(TT::elem_type, 11).message(TT::shape, shape);
        auto m = import_model(model_with_input_type(WireWriter().message(T::sparse_tensor_type, st)));
        BOOST_TEST(kind_code(input_type(m).kind) == kind_code(TypeProto::Kind::SparseTensor));
        BOOST_TEST(input_type(m).elem_type == 11);
        BOOST_TEST(input_type(m).has_shape);
        BOOST_TEST(input_type(m).shape.at(0).value() == 9);
        auto u = import_model(model_with_input_type(
            WireWriter().message(T::sparse_tensor_type, WireWriter().int_field(TT::elem_type, 1))));
        BOOST_TEST(!input_type(u).has_shape);
    }
    {  // opaque, with denotation on the TypeProto
        WireWriter opaque = WireWriter()
                                .bytes_field(proto::OpaqueType::domain, "com.example")
                                .bytes_field(proto::OpaqueType::name, "Blob");
        auto m = import_model(
            model_with_input_type(WireWriter().bytes_field(T::denotation, "TEXT").message(T::opaque_type, opaque)));
        BOOST_TEST(kind_code(input_type(m).kind) == kind_code(TypeProto::Kind::Opaque));
        BOOST_TEST(input_type(m).opaque_domain() == "com.example");
        BOOST_TEST(input_type(m).opaque_name() == "Blob");
        BOOST_TEST(input_type(m).denotation() == "TEXT");
    }
}

BOOST_AUTO_TEST_CASE(type_proto_members_are_a_oneof_and_the_last_wins) {
    // tensor_type with a shape, then sequence_type: no shape or elem_type is left over.
    WireWriter shape = WireWriter().message(proto::Shape::dim, WireWriter());
    WireWriter type =
        WireWriter()
            .message(proto::Type::tensor_type,
                     WireWriter().int_field(proto::TensorType::elem_type, 1).message(proto::TensorType::shape, shape))
            .message(proto::Type::sequence_type, WireWriter());
    auto m = import_model(model_with_input_type(type));
    BOOST_TEST(kind_code(input_type(m).kind) == kind_code(TypeProto::Kind::Sequence));
    BOOST_TEST(input_type(m).elem_type == 0);
    BOOST_TEST(!input_type(m).has_shape);
    BOOST_TEST(input_type(m).shape.empty());
}

// ---- Functions and training info ------------------------------------------------------

BOOST_AUTO_TEST_CASE(functions_are_read_with_attributes_and_attribute_defaults) {
    using F = proto::Function;
    WireWriter ref =
        WireWriter().bytes_field(A::name, "alpha").int_field(A::type, 1).bytes_field(A::ref_attr_name, "alpha");
    WireWriter body = tb::node("LeakyRelu", {"a"}, {"c"}, "inner").message(proto::Node::attribute, ref);
    WireWriter fn =
        WireWriter()
            .bytes_field(F::name, "MyFn")
            .bytes_field(F::input, "a")
            .bytes_field(F::input, "b")
            .bytes_field(F::output, "c")
            .bytes_field(F::attribute, "beta")
            .message(F::node, body)
            .bytes_field(F::doc_string, "fn doc")
            .message(F::opset_import, tb::opset("", 18))
            .bytes_field(F::domain, "com.example")
            .message(F::attribute_proto,
                     WireWriter().bytes_field(A::name, "alpha").float_field(A::f, 0.5f).int_field(A::type, 1))
            .message(F::value_info, tb::value_info("c"))
            .bytes_field(F::overload, "v2")
            .message(F::metadata_props, tb::string_entry("fk", "fv"));
    std::string m =
        WireWriter().int_field(M::ir_version, 9).bytes_field(M::graph, graph_bytes()).message(M::functions, fn).str();
    auto model = import_model(m);
    BOOST_REQUIRE(model.proto().functions.size() == 1u);
    const Function& f = model.proto().functions[0];
    BOOST_TEST(f.name == "MyFn");
    BOOST_TEST(f.domain == "com.example");
    BOOST_TEST(f.overload == "v2");
    BOOST_TEST((f.inputs.to_vector() == std::vector<std::string_view>{"a", "b"}));
    BOOST_TEST((f.outputs.to_vector() == std::vector<std::string_view>{"c"}));
    BOOST_TEST((f.attributes.to_vector() == std::vector<std::string_view>{"beta"}));
    BOOST_REQUIRE(f.attribute_protos.size() == 1u);
    BOOST_TEST(f.attribute_protos[0].name == "alpha");
    BOOST_TEST(f.attribute_protos[0].f == 0.5f);
    BOOST_TEST(type_code(f.attribute_protos[0]) == 1);
    BOOST_REQUIRE(f.nodes.size() == 1u);
    BOOST_TEST(f.nodes[0].op_type == "LeakyRelu");
    BOOST_TEST(f.nodes[0].attributes.at(0).ref_attr_name() == "alpha");
    BOOST_TEST(f.opset_import.at(0).version == 18);
    BOOST_TEST(f.value_info.at(0).name == "c");
    BOOST_TEST(f.doc_string == "fn doc");
    BOOST_TEST(f.metadata_props.at(0).value == "fv");
    BOOST_TEST(f.offset == m.size() - fn.size() - len_header(M::functions, fn.size()));
}

BOOST_AUTO_TEST_CASE(function_attribute_default_with_neither_type_nor_value_is_invalid_model) {
    WireWriter fn = WireWriter()
                        .bytes_field(proto::Function::name, "F")
                        .message(proto::Function::attribute_proto, WireWriter().bytes_field(A::name, "alpha"));
    std::string m =
        WireWriter().int_field(M::ir_version, 9).bytes_field(M::graph, graph_bytes()).message(M::functions, fn).str();
    uint64_t fn_payload = m.size() - fn.size();
    expect_model_error(m, ErrorKind::InvalidModel, fn_payload + 3, "ModelProto.functions[0].attribute_proto[0]");
}

BOOST_AUTO_TEST_CASE(training_info_is_read_as_written) {
    using TI = proto::TrainingInfo;
    WireWriter ti = WireWriter()
                        .message(TI::initialization, WireWriter().bytes_field(proto::Graph::name, "init"))
                        .message(TI::algorithm, WireWriter().bytes_field(proto::Graph::name, "algo"))
                        .message(TI::initialization_binding, tb::string_entry("W", "W_init"))
                        .message(TI::update_binding, tb::string_entry("W", "W_new"))
                        .message(TI::update_binding, tb::string_entry("B", "B_new"));
    std::string m = WireWriter()
                        .int_field(M::ir_version, 9)
                        .bytes_field(M::graph, graph_bytes())
                        .message(M::training_info, ti)
                        .message(M::training_info, WireWriter())
                        .str();
    auto model = import_model(m);
    BOOST_REQUIRE(model.proto().training_info.size() == 2u);
    const TrainingInfo& t = model.proto().training_info[0];
    BOOST_TEST(t.initialization()->name == "init");
    BOOST_TEST(t.algorithm()->name == "algo");
    BOOST_TEST(t.initialization_binding.at(0).value == "W_init");
    BOOST_TEST(t.update_binding.size() == 2u);
    BOOST_TEST(t.update_binding.at(1).key == "B");
    BOOST_TEST(!model.proto().training_info[1].initialization());
    BOOST_TEST(!model.proto().training_info[1].algorithm());
}

BOOST_AUTO_TEST_CASE(errors_inside_training_info_name_their_path) {
    WireWriter bad_node = WireWriter()
                              .bytes_field(proto::Node::op_type, "Op")
                              .message(proto::Node::attribute, WireWriter().bytes_field(A::name, "x"));
    WireWriter algorithm = WireWriter().message(proto::Graph::node, bad_node);
    WireWriter ti = WireWriter().message(proto::TrainingInfo::algorithm, algorithm);
    std::string m = WireWriter()
                        .int_field(M::ir_version, 9)
                        .bytes_field(M::graph, graph_bytes())
                        .message(M::training_info, ti)
                        .str();
    auto e = refusal_of([&] { import_model(m); });
    BOOST_TEST(to_string(e.kind()) == "InvalidModel");
    BOOST_TEST(e.field_path() == "ModelProto.training_info[0].algorithm.node[0].attribute[0]");
}

BOOST_AUTO_TEST_SUITE_END()
