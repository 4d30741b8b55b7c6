// Suite `write_ort_lower`: the .ort writer's lowering pass on its own (write/ort/lower.hpp,
// docs/ort.md "Writing"): the plan of a model, read without serializing it. A Constant is
// lifted, a CastLike becomes its Cast, an undeclared value gets its inferred type, the
// resolver's set names each operator version once, and a function operator is marked
// refused in the plan, the refusal raised only when the serialization reaches the node.
#include "core_support.hpp"
#include "write_models.hpp"

#include "write/ort/lower.hpp"

#include <onnximport/write_ort.hpp>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

using namespace core_test;
using namespace write_test;
using onnximport::detail::GraphPlan;
using onnximport::detail::LiftedConstant;
using onnximport::detail::lower_model;
using onnximport::detail::OrtPlan;
using onnximport::detail::PlannedArg;
using onnximport::detail::Refusal;
using onnximport::detail::ValueType;

namespace {

/// X float[2], I int64[2]; K = Constant(value_floats [1.5, -2]), L = CastLike(X, I),
/// N1 = Neg(L), N2 = Neg(N1), H = HardSwish(X) (run only as a function at opset 21).
std::string lowering_model() {
    using A = P::Attribute;
    WireWriter constant = tb::node("Constant", {}, {"K"});
    constant.message(P::Node::attribute, WireWriter()
                                             .bytes_field(A::name, "value_floats")
                                             .float_field(A::floats, 1.5f)
                                             .float_field(A::floats, -2.0f)
                                             .int_field(A::type, 6));
    WireWriter g;
    g.message(P::Graph::node, constant);
    g.message(P::Graph::node, tb::node("CastLike", {"X", "I"}, {"L"}));
    g.message(P::Graph::node, tb::node("Neg", {"L"}, {"N1"}));
    g.message(P::Graph::node, tb::node("Neg", {"N1"}, {"N2"}));
    g.message(P::Graph::node, tb::node("HardSwish", {"X"}, {"H"}));
    g.message(P::Graph::input, tb::value_info("X", 1, {2}));
    g.message(P::Graph::input, tb::value_info("I", 7, {2}));
    for (std::string_view o : {"K", "N2", "H"})
        g.message(P::Graph::output, WireWriter().bytes_field(P::ValueInfo::name, o));
    return tb::model(g).str();
}

Model lowering_input() { return import_bytes(bytes_of(lowering_model()), "m.onnx", ImportOptions{}); }

const PlannedArg* arg_named(const GraphPlan& p, std::string_view name) {
    const auto at = std::find_if(p.args.begin(), p.args.end(), [&](const PlannedArg& a) { return a.name == name; });
    return at == p.args.end() ? nullptr : &*at;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(write_ort_lower)

BOOST_AUTO_TEST_CASE(a_constant_is_lifted_as_a_float_initializer_and_is_no_node) {
    const Model m = lowering_input();
    const Refusal refusal("m.ort", nullptr, "ModelProto");
    const OrtPlan plan = lower_model(m.proto(), refusal, {});
    const GraphPlan& p = plan.of(*m.graph());
    BOOST_REQUIRE(p.dense.size() == 1u);
    BOOST_TEST(p.sparse.empty());
    const LiftedConstant& k = p.dense[0];
    BOOST_TEST(k.name == "K");
    BOOST_TEST((k.kind == LiftedConstant::Kind::Owned));
    BOOST_TEST(k.data_type == 1);  // FLOAT
    BOOST_TEST(k.dims == std::vector<int64_t>{2}, boost::test_tools::per_element());
    BOOST_REQUIRE(k.bytes.size() == 8u);
    float second = 0;
    std::memcpy(&second, k.bytes.data() + 4, 4);
    BOOST_TEST(second == -2.0f);
    BOOST_TEST(!k.refused);
    BOOST_REQUIRE(p.nodes.size() == 4u);
    for (const auto& n : p.nodes) BOOST_TEST(n.node->op_type != "Constant");
}

BOOST_AUTO_TEST_CASE(a_castlike_becomes_the_cast_of_its_input_to_the_target_type) {
    const Model m = lowering_input();
    const OrtPlan plan = lower_model(m.proto(), Refusal("m.ort", nullptr, "ModelProto"), {});
    const auto& cast = plan.of(*m.graph()).nodes[0];
    BOOST_TEST(cast.node->op_type == "CastLike");
    BOOST_TEST(cast.op_type == "Cast");
    BOOST_REQUIRE(cast.signature);
    BOOST_TEST(cast.signature->since_version == 21);
    BOOST_REQUIRE(cast.appended.has_value());
    BOOST_TEST(cast.appended->name == "to");
    BOOST_TEST(cast.appended->i == 7);  // I's INT64
    BOOST_TEST(cast.inputs.size() == 1u);
    BOOST_TEST(cast.inputs[0] == "X");
    BOOST_TEST(!plan.of(*m.graph()).nodes[1].appended.has_value());  // Neg stays itself
}

BOOST_AUTO_TEST_CASE(undeclared_values_get_their_inferred_type_and_declared_ones_keep_theirs) {
    const Model m = lowering_input();
    const OrtPlan plan = lower_model(m.proto(), Refusal("m.ort", nullptr, "ModelProto"), {});
    const GraphPlan& p = plan.of(*m.graph());
    for (std::string_view name : {"L", "N1", "N2"}) {
        const PlannedArg* a = arg_named(p, name);
        BOOST_REQUIRE_MESSAGE(a, name);
        BOOST_TEST(!a->declared);
        BOOST_TEST(!a->tensor);
        BOOST_TEST((a->inferred == ValueType::tensor(7)), name);
    }
    const PlannedArg* x = arg_named(p, "X");
    BOOST_REQUIRE(x);
    BOOST_TEST(x->declared);
    BOOST_TEST(!x->inferred.known());
    BOOST_TEST(p.inputs == (std::vector<std::string_view>{"X", "I"}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(the_resolver_set_names_each_operator_version_once) {
    const Model m = lowering_input();
    const OrtPlan plan = lower_model(m.proto(), Refusal("m.ort", nullptr, "ModelProto"), {});
    std::vector<std::string> ids;
    for (const auto& [id, signature] : plan.operators) ids.push_back(id);
    // Two Negs, one entry; the CastLike as Cast; the refused HardSwish none.
    BOOST_TEST(ids == (std::vector<std::string>{":Cast:21", ":Neg:13"}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_function_operator_is_marked_refused_and_raised_when_serialized) {
    const Model m = lowering_input();
    const OrtPlan plan = lower_model(m.proto(), Refusal("m.ort", nullptr, "ModelProto"), {});
    const auto& hard_swish = plan.of(*m.graph()).nodes[3];
    BOOST_TEST(!hard_swish.signature);
    BOOST_REQUIRE(hard_swish.refused.has_value());
    BOOST_TEST(hard_swish.refused->leaf == "op_type");
    BOOST_TEST(hard_swish.refused->message.starts_with("operator HardSwish at opset 21 (version 14) runs in ONNX "
                                                       "Runtime only as its function"));
    const ImportError e = refusal_of([&] { write_ort_bytes(m, {}); });
    check_error(e, ErrorKind::Unsupported, std::nullopt, "ModelProto.graph.node[4].op_type");
    BOOST_TEST(e.message().find(hard_swish.refused->message) != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
