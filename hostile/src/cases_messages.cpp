// Hostile cases for spec section 2 (messages and fields used): model checks, attribute
// type inference and its errors, ref_attr_name, and TypeProto's "no type", unknown rank
// and unknown dimensions.
#include "build.hpp"
#include "rules.hpp"

namespace hostile {

namespace r = rules;

namespace {

WireWriter named(std::string_view name) { return WireWriter().bytes_field(p::Attribute::name, name); }

WireWriter small_tensor(std::string_view name = "t") { return ob::tensor_raw(name, 1, {1}, floats_le({1})); }
WireWriter small_graph() { return bare_graph({ob::node("Identity", {"X"}, {"q"}, "inner")}, {}, {"q"}); }
WireWriter small_sparse() {
    return ob::sparse_tensor(ob::tensor_raw("v", 1, {1}, floats_le({1})),
                             ob::tensor_raw("i", 7, {1}, std::string(8, '\0')), {4});
}
WireWriter small_type() { return ob::tensor_type(1, {2}); }

/// One value_info for input X with the given TypeProto bytes.
std::string model_with_input_type(const WireWriter& type) {
    WireWriter g;
    g.message(p::Graph::node, ob::node("Identity", {"X"}, {"Y"}, "n0")).bytes_field(p::Graph::name, "g");
    g.message(p::Graph::input, WireWriter().bytes_field(p::ValueInfo::name, "X").message(p::ValueInfo::type, type));
    g.message(p::Graph::output, ob::value_info("Y"));
    return ob::model(g).str();
}

}  // namespace

void add_message_cases(Corpus& c) {
    const WireWriter g = base_graph();
    auto opset = ob::opset("", 21);

    // Model checks.
    c.refuse("InvalidModel", "ir-version-missing", r::ir, "no ir_version field at all",
             WireWriter().message(p::Model::graph, g).message(p::Model::opset_import, opset).str());
    c.refuse("InvalidModel", "ir-version-2", r::ir, "ir_version 2: below 3", ob::model(g, 2).str());
    c.accept("ir-version-3", r::ir, "ir_version 3: the oldest accepted", ob::model(g, 3).str(), {{"ir_version", 3}});
    c.refuse("InvalidModel", "ir-version-0", r::ir, "ir_version 0 (present but zero)", ob::model(g, 0).str());
    c.refuse("InvalidModel", "ir-version-negative", r::ir, "ir_version -1", ob::model(g, -1).str());
    c.refuse("InvalidModel", "ir-version-2pow63", r::ir, "ir_version 2^63 is negative as int64",
             ob::model(g, static_cast<int64_t>(uint64_t{1} << 63)).str());
    c.accept("ir-version-future", r::ir, "ir_version 1000 with new fields everywhere: accepted, the new fields skipped",
             [&] {
                 WireWriter gg = base_graph();
                 gg.bytes_field(40, "future graph field");
                 return ob::model(gg, 1000).str() +
                        WireWriter().bytes_field(60, "future model field").int_field(61, 1).str();
             }(),
             {{"ir_version", 1000}});
    c.refuse("InvalidModel", "empty-file", r::ir, "zero bytes: valid protobuf (no fields), so no ir_version", "");
    c.refuse("InvalidModel", "no-graph", r::no_graph, "ir_version and opsets but no graph",
             WireWriter().int_field(p::Model::ir_version, 9).message(p::Model::opset_import, opset).str());
    c.accept("graph-empty", r::no_graph, "an empty graph message is a graph (no nodes, no values)",
             WireWriter()
                 .int_field(p::Model::ir_version, 9)
                 .message(p::Model::graph, WireWriter())
                 .message(p::Model::opset_import, opset)
                 .str(),
             {{"node_count", 0}});

    // Attribute type inference: one file per field, so each inferred type is its own case.
    struct Infer { const char* name; WireWriter attr; int type; };
    const Infer infer[] = {
        {"f", named("a").float_field(p::Attribute::f, 0.5f), 1},
        {"i", named("a").int_field(p::Attribute::i, 3), 2},
        {"s", named("a").bytes_field(p::Attribute::s, "x"), 3},
        {"t", named("a").message(p::Attribute::t, small_tensor()), 4},
        {"g", named("a").message(p::Attribute::g, small_graph()), 5},
        {"sparse-tensor", named("a").message(p::Attribute::sparse_tensor, small_sparse()), 11},
        {"tp", named("a").message(p::Attribute::tp, small_type()), 13},
        {"floats", named("a").float_field(p::Attribute::floats, 1).float_field(p::Attribute::floats, 2), 6},
        {"ints", named("a").int_field(p::Attribute::ints, 1), 7},
        {"strings", named("a").bytes_field(p::Attribute::strings, "x"), 8},
        {"tensors", named("a").message(p::Attribute::tensors, small_tensor()), 9},
        {"graphs", named("a").message(p::Attribute::graphs, small_graph()), 10},
        {"sparse-tensors", named("a").message(p::Attribute::sparse_tensors, small_sparse()), 12},
        {"type-protos", named("a").message(p::Attribute::type_protos, small_type()), 14},
    };
    for (const auto& k : infer)
        c.accept(std::string("attribute-inferred-") + k.name, r::infer,
                 std::string("no type; only ") + k.name + " is set: the type is inferred from it",
                 model_with_attributes({k.attr}), {{"attribute_type", {{"n1/a", k.type}}}});
    c.accept(
        "attribute-inferred-priority", r::infer,
        "several fields without a type: f beats i, i beats s, t beats g, tp beats floats, floats beat ints, strings "
        "beat tensors",
        model_with_attributes(
            {named("fi").int_field(p::Attribute::i, 1).float_field(p::Attribute::f, 1),
             named("is").bytes_field(p::Attribute::s, "x").int_field(p::Attribute::i, 1),
             named("tg").message(p::Attribute::g, small_graph()).message(p::Attribute::t, small_tensor()),
             named("tpf").float_field(p::Attribute::floats, 1).message(p::Attribute::tp, small_type()),
             named("fl").int_field(p::Attribute::ints, 1).float_field(p::Attribute::floats, 1),
             named("st").message(p::Attribute::tensors, small_tensor()).bytes_field(p::Attribute::strings, "x")}),
        {{"attribute_type", {{"n1/fi", 1}, {"n1/is", 2}, {"n1/tg", 4}, {"n1/tpf", 13}, {"n1/fl", 6}, {"n1/st", 8}}}});
    c.accept("attribute-declared-type-wins", r::infer,
             "type INT declared, only f set: the declared type stands, i reads 0",
             model_with_attributes({named("a").float_field(p::Attribute::f, 2).int_field(p::Attribute::type, 2)}),
             {{"attribute_type", {{"n1/a", 2}}}, {"attribute_int", {{"n1/a", 0}}}});
    c.accept("attribute-type-zero-is-absent", r::infer, "type 0 (UNDEFINED) written explicitly: inferred from i",
             model_with_attributes({named("a").int_field(p::Attribute::i, 4).int_field(p::Attribute::type, 0)}),
             {{"attribute_type", {{"n1/a", 2}}}});
    c.refuse("InvalidModel", "attribute-no-type-no-value", r::no_value, "an attribute with a name only",
             model_with_attributes({named("a")}));
    c.refuse("InvalidModel", "attribute-nothing-at-all", r::no_value, "an empty attribute message",
             model_with_attributes({WireWriter()}));
    c.refuse("InvalidModel", "attribute-empty-repeated-only", r::no_value,
             "an empty packed ints field sets nothing: still neither type nor value",
             model_with_attributes({named("a").bytes_field(p::Attribute::ints, "")}));

    // Scalar fields absent.
    c.accept("attribute-int-absent", r::scalar_absent, "type INT with no i: reads 0",
             model_with_attributes({named("a").int_field(p::Attribute::type, 2)}), {{"attribute_int", {{"n1/a", 0}}}});
    c.accept("attribute-float-absent", r::scalar_absent, "type FLOAT with no f: reads 0",
             model_with_attributes({named("a").int_field(p::Attribute::type, 1)}), {{"attribute_type", {{"n1/a", 1}}}});
    c.accept("attribute-string-absent", r::scalar_absent, "type STRING with no s: reads empty",
             model_with_attributes({named("a").int_field(p::Attribute::type, 3)}), {{"attribute_type", {{"n1/a", 3}}}});
    c.accept("attribute-graphs-absent", r::scalar_absent, "type GRAPHS with no graphs: an empty list",
             model_with_attributes({named("a").int_field(p::Attribute::type, 10)}),
             {{"attribute_type", {{"n1/a", 10}}}});

    // Declared but absent.
    struct Declared { const char* name; int type; };
    for (const Declared& d :
         {Declared{"tensor", 4}, Declared{"graph", 5}, Declared{"sparse-tensor", 11}, Declared{"type-proto", 13}})
        c.refuse("InvalidModel", std::string("attribute-declared-") + d.name + "-absent", r::declared_absent,
                 std::string("type ") + std::to_string(d.type) + " with no value field",
                 model_with_attributes({named("a").int_field(p::Attribute::type, static_cast<uint64_t>(d.type))}));
    c.refuse(
        "InvalidModel", "attribute-declared-tensor-has-graph", r::declared_absent,
        "declared TENSOR, but only g is set: the tensor field is absent",
        model_with_attributes({named("a").message(p::Attribute::g, small_graph()).int_field(p::Attribute::type, 4)}));

    // Unknown codes.
    c.refuse("InvalidModel", "attribute-type-15", r::attr_code, "type 15: one past TYPE_PROTOS",
             model_with_attributes({named("a").int_field(p::Attribute::i, 1).int_field(p::Attribute::type, 15)}));
    c.refuse(
        "InvalidModel", "attribute-type-negative", r::attr_code, "type -1",
        model_with_attributes({named("a").int_field(p::Attribute::i, 1).int_field(p::Attribute::type, ~uint64_t{0})}));

    // ref_attr_name.
    c.accept("attribute-ref-attr-name-in-function", r::ref_attr,
             "a function body node attribute with ref_attr_name and no value or type",
             [] {
                 WireWriter body = ob::node("Relu", {"a"}, {"b"}, "fb");
                 body.message(p::Node::attribute, named("alpha").bytes_field(p::Attribute::ref_attr_name, "alpha"));
                 WireWriter fn;
                 fn.bytes_field(p::Function::name, "MyFn")
                     .bytes_field(p::Function::input, "a")
                     .bytes_field(p::Function::output, "b")
                     .bytes_field(p::Function::attribute, "alpha")
                     .message(p::Function::node, body)
                     .message(p::Function::opset_import, ob::opset("", 21))
                     .bytes_field(p::Function::domain, "local");
                 WireWriter gg = base_graph();
                 return ob::model(gg).str() + WireWriter().message(p::Model::functions, fn).str();
             }(),
             {{"function_names", {"MyFn"}}});
    c.accept("attribute-ref-attr-name-in-graph", r::ref_attr,
             "ref_attr_name alone is not 'neither type nor value': the error sentence excludes it",
             model_with_attributes({named("a").bytes_field(p::Attribute::ref_attr_name, "outer")}),
             {{"node_count", 2}});

    // Types.
    c.accept("type-no-member", r::no_type, "an empty TypeProto on input X", model_with_input_type(WireWriter()),
             {{"value_type_kind", {{"X", "none"}}}});
    c.accept("type-only-denotation", r::no_type, "a TypeProto with only a denotation has no member: no type",
             model_with_input_type(WireWriter().bytes_field(p::Type::denotation, "IMAGE")),
             {{"value_type_kind", {{"X", "none"}}}});
    c.accept("type-tensor-no-shape", r::shape, "tensor type without a shape field: unknown rank",
             model_with_input_type(
                 WireWriter().message(p::Type::tensor_type, WireWriter().int_field(p::TensorType::elem_type, 1))),
             {{"value_shape", {{"X", nullptr}}}, {"value_type_kind", {{"X", "tensor"}}}});
    c.accept("type-tensor-empty-shape", r::shape, "tensor type with an empty shape field: rank 0",
             model_with_input_type(WireWriter().message(
                 p::Type::tensor_type,
                 WireWriter().int_field(p::TensorType::elem_type, 1).message(p::TensorType::shape, WireWriter()))),
             {{"value_shape", {{"X", json::array()}}}});
    c.accept("type-dims-unknown-value-param", r::dim_unknown, "dims: empty (unknown), dim_value 3, dim_param N",
             model_with_input_type(WireWriter().message(
                 p::Type::tensor_type,
                 WireWriter()
                     .int_field(p::TensorType::elem_type, 1)
                     .message(p::TensorType::shape,
                              WireWriter()
                                  .message(p::Shape::dim, WireWriter())
                                  .message(p::Shape::dim, WireWriter().int_field(p::Dimension::dim_value, 3))
                                  .message(p::Shape::dim, WireWriter().bytes_field(p::Dimension::dim_param, "N"))))),
             {{"value_shape", {{"X", {nullptr, 3, "N"}}}}});
    c.accept("type-sparse-and-sequence", r::shape, "a sequence of sparse tensors with unknown rank",
             model_with_input_type(WireWriter().message(
                 p::Type::sequence_type,
                 WireWriter().message(p::ElemType::elem_type,
                                      WireWriter().message(p::Type::sparse_tensor_type,
                                                           WireWriter().int_field(p::TensorType::elem_type, 1))))),
             {{"value_type_kind", {{"X", "sequence"}}}});
}

}  // namespace hostile
