// Hostile cases for spec section 1 (protobuf reading): keys, wire types, varints and
// their tenth byte, lengths (including 64-bit wrap), integer truncation, UTF-8, packed
// and unpacked scalars, unknown fields, last-one-wins, nesting limits and the size limit.
#include "build.hpp"
#include "rules.hpp"

#include <string>

namespace hostile {

namespace r = rules;

namespace {

std::string base() { return ob::minimal_model(); }

std::string with(const WireWriter& tail) { return base() + tail.str(); }

/// A model written field by field so a case can change one of them.
WireWriter model_head(uint64_t ir = 9) { return WireWriter().int_field(p::Model::ir_version, ir); }
WireWriter model_tail(WireWriter m) {
    m.message(p::Model::graph, base_graph()).message(p::Model::opset_import, ob::opset("", 21));
    return m;
}

/// K If nodes nested inside each other's then_branch; the innermost subgraph (at level
/// 1 + 3K) holds nothing (inner 0), one node (inner 1, level 2 + 3K) or one node with an
/// attribute (inner 2, level 3 + 3K). The leaf reads the main input X, so every level
/// captures it.
std::string nested_ifs(int k_levels, int inner) {
    WireWriter g;
    if (inner >= 1) {
        WireWriter n = ob::node("Identity", {"X"}, {"leaf"}, "leaf");
        if (inner == 2) n.message(p::Node::attribute, ob::attr_int("a", 1));
        g.message(p::Graph::node, n);
    }
    for (int k = 0; k < k_levels; ++k) {
        bool top = k + 1 == k_levels;
        WireWriter n = ob::node("If", {}, {top ? "Y" : "y" + std::to_string(k)}, "if" + std::to_string(k));
        n.message(p::Node::attribute, ob::attr_graph("then_branch", g));
        g = WireWriter().message(p::Graph::node, n);
    }
    g.bytes_field(p::Graph::name, "g")
        .message(p::Graph::input, ob::value_info("X"))
        .message(p::Graph::output, ob::value_info("Y"));
    return ob::model(g).str();
}

/// Input X typed as sequence(sequence(...(tensor))) with `wraps` sequences; the
/// innermost tensor type sits at level 4 + 2*wraps, with_shape adds one level.
std::string nested_types(int wraps, bool with_shape) {
    WireWriter tt = WireWriter().int_field(p::TensorType::elem_type, 1);
    if (with_shape) tt.message(p::TensorType::shape, WireWriter());
    WireWriter t = WireWriter().message(p::Type::tensor_type, tt);
    for (int i = 0; i < wraps; ++i)
        t = WireWriter().message(p::Type::sequence_type, WireWriter().message(p::ElemType::elem_type, t));
    WireWriter g = ob::minimal_graph();
    WireWriter gg;
    gg.message(p::Graph::node, ob::node("Identity", {"X2"}, {"Y2"}, "n1"));
    gg.message(p::Graph::input, WireWriter().bytes_field(p::ValueInfo::name, "X2").message(p::ValueInfo::type, t));
    gg.message(p::Graph::output, WireWriter().bytes_field(p::ValueInfo::name, "Y2"));
    return ob::model(g).str() + WireWriter().message(p::Model::graph, gg).str();  // second graph wins
}

}  // namespace

void add_wire_cases(Corpus& c) {
    // Keys.
    c.refuse("Malformed", "key-field-zero", r::field0, "a key of 0x00 (field 0, varint) after a valid model",
             with(WireWriter().u8(0x00).u8(0x00)));
    c.refuse("Malformed", "key-field-zero-length-delimited", r::field0, "field 0 with wire type 2",
             with(WireWriter().u8(0x02).u8(0x00)));
    c.refuse("Malformed", "key-over-32-bits", r::key32, "a key of 2^32 (field 2^29): 33 bits",
             with(WireWriter().varint(uint64_t{1} << 32).varint(0)));
    c.refuse("Malformed", "key-64-bits", r::key32, "a ten-byte key whose value needs all 64 bits",
             with(WireWriter().raw("\xf8\xff\xff\xff\xff\xff\xff\xff\xff\x01").varint(0)));
    c.accept("key-largest-field-number", r::key32,
             "field 2^29-1 with wire 0 is the largest key that fits 32 bits; unknown, so skipped",
             with(WireWriter().key((1u << 29) - 1, 0).varint(7)), {{"ir_version", 9}});
    for (unsigned w : {3u, 4u, 6u, 7u})
        c.refuse("Malformed", "wire-type-" + std::to_string(w) + "-unknown-field", r::wire_bad,
                 "an unknown field with wire type " + std::to_string(w) + " cannot be skipped: its size is unknown",
                 with(WireWriter().key(99, w).varint(0)));
    c.refuse("Malformed", "wire-type-3-on-graph-field", r::wire_bad,
             "the graph field (7) sent as a start-group: groups are not read",
             WireWriter().int_field(p::Model::ir_version, 9).key(p::Model::graph, 3).str() + ob::minimal_graph().str() +
                 WireWriter().key(p::Model::graph, 4).str());
    c.accept("wire-types-all-readable-unknown", r::wire_read,
             "unknown fields of each readable wire type (0, 1, 2, 5) at model, graph and node level are skipped",
             [] {
                 WireWriter extra;
                 extra.int_field(900, 1).fixed64_field(901, 2).bytes_field(902, "x").fixed32_field(903, 4);
                 WireWriter g;
                 WireWriter n = ob::node("Identity", {"X"}, {"Y"}, "n0");
                 n.raw(extra.str());
                 g.message(p::Graph::node, n)
                     .bytes_field(p::Graph::name, "g")
                     .message(p::Graph::input, ob::value_info("X"));
                 g.message(p::Graph::output, ob::value_info("Y")).raw(extra.str());
                 return ob::model(g).str() + extra.str();
             }(),
             {{"node_order", {"n0"}}});

    // Varints.
    c.accept("varint-tenth-byte-1", r::tenth,
             "model_version = -1 is ten bytes whose last is 0x01: the largest legal varint",
             with(WireWriter().key(p::Model::model_version, 0).raw("\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01")),
             {{"model_version", -1}});
    c.refuse("Malformed", "varint-tenth-byte-2", r::tenth, "the tenth byte 0x02 overflows 64 bits",
             with(WireWriter().key(p::Model::model_version, 0).raw("\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02")));
    c.refuse("Malformed", "varint-tenth-byte-0x7f", r::tenth, "the tenth byte 0x7f overflows 64 bits",
             with(WireWriter().key(p::Model::model_version, 0).raw("\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f")));
    c.refuse("Malformed", "varint-eleven-bytes", r::tenth,
             "the tenth byte 0x81 asks for an eleventh: more than 10 bytes",
             with(WireWriter()
                      .key(p::Model::model_version, 0)
                      .raw(std::string_view("\xff\xff\xff\xff\xff\xff\xff\xff\xff\x81\x00", 11))));
    c.accept("varint-overlong-ten-bytes-zero-tail", r::tenth,
             "ir_version 9 written in ten bytes, the tenth 0x00: legal (overlong, and the tenth byte is 0)",
             model_tail(WireWriter()
                            .key(p::Model::ir_version, 0)
                            .raw(std::string_view("\x89\x80\x80\x80\x80\x80\x80\x80\x80\x00", 10)))
                 .str(),
             {{"ir_version", 9}});
    c.refuse("Malformed", "varint-cut-off-in-value", r::varint_cut, "the model ends inside a varint value",
             with(WireWriter().key(p::Model::model_version, 0).raw("\xff\xff")));
    c.refuse("Malformed", "varint-cut-off-in-key", r::varint_cut, "the model ends inside a key",
             with(WireWriter().raw("\xff")));
    c.refuse("Malformed", "varint-cut-off-in-length", r::varint_cut, "the model ends inside a length prefix",
             with(WireWriter().key(99, 2).raw("\x80\x80")));
    c.refuse("Malformed", "varint-cut-off-at-slice-end", r::range,
             "a varint inside a graph runs past the graph's slice though the file goes on",
             WireWriter().int_field(p::Model::ir_version, 9).key(p::Model::graph, 2).varint(2).raw("\x28\xff").str() +
                 ob::minimal_model());
    c.accept("varint-overlong-value", r::overlong, "ir_version 9 as 0x89 0x80 0x00",
             model_tail(WireWriter().key(p::Model::ir_version, 0).raw(std::string_view("\x89\x80\x00", 3))).str(),
             {{"ir_version", 9}});
    c.accept("varint-overlong-key", r::overlong, "the ir_version key 0x08 written as 0x88 0x80 0x00",
             model_tail(WireWriter().raw(std::string_view("\x88\x80\x00", 3)).varint(9)).str(), {{"ir_version", 9}});
    c.accept("varint-overlong-length", r::overlong, "the graph's length prefix written overlong (three bytes)",
             [] {
                 WireWriter g = base_graph();
                 WireWriter m = model_head();
                 m.key(p::Model::graph, 2).u8(static_cast<uint8_t>(0x80 | (g.size() & 0x7F)))
                     .u8(static_cast<uint8_t>(0x80 | (g.size() >> 7))).u8(0x00).raw(g.str());
                 m.message(p::Model::opset_import, ob::opset("", 21));
                 return m.str();
             }(),
             {{"node_order", {"n0"}}});

    // Lengths.
    c.refuse("Malformed", "length-one-past-end", r::len_big, "an unknown bytes field claims 4 bytes, 3 remain",
             with(WireWriter().key(99, 2).varint(4).raw("abc")));
    c.refuse("Malformed", "length-graph-one-past-end", r::len_big, "the graph's length is one more than the bytes left",
             [] {
                 WireWriter g = base_graph();
                 return WireWriter()
                     .int_field(p::Model::ir_version, 9)
                     .key(p::Model::graph, 2)
                     .varint(g.size() + 1)
                     .raw(g.str())
                     .str();
             }());
    c.refuse("Malformed", "length-2pow64-minus-1", r::len64,
             "length 2^64-1: cursor + length wraps to cursor - 1 if added before comparing",
             with(WireWriter().key(99, 2).varint(~uint64_t{0}).raw("x")));
    c.refuse("Malformed", "length-2pow63", r::len64, "length 2^63: negative as a signed 64-bit length",
             with(WireWriter().key(99, 2).varint(uint64_t{1} << 63).raw("x")));
    c.refuse("Malformed", "length-2pow32-plus-1", r::len64,
             "length 2^32+1: a reader that truncates lengths to 32 bits sees 1 and reads on",
             with(WireWriter().key(99, 2).varint((uint64_t{1} << 32) + 1).raw("x")));
    c.refuse("Malformed", "length-nested-past-parent", r::range,
             "a node's length fits the file but not its graph's slice",
             [] {
                 WireWriter n = ob::node("Identity", {"X"}, {"Y"}, "n0");
                 WireWriter g = WireWriter().key(p::Graph::node, 2).varint(n.size() + 3).raw(n.str());
                 return WireWriter()
                     .int_field(p::Model::ir_version, 9)
                     .message(p::Model::graph, g)
                     .message(p::Model::opset_import, ob::opset("", 21))
                     .str();
             }());
    c.refuse("Malformed", "truncated-in-graph", r::len_big, "the minimal model cut in the middle of its graph",
             base().substr(0, base().size() / 2));
    c.refuse("Malformed", "fixed32-cut-off", r::range, "a 32-bit field with 2 of its 4 bytes",
             with(WireWriter().key(99, 5).raw("ab")));
    c.refuse("Malformed", "fixed64-cut-off", r::range, "a 64-bit field with 4 of its 8 bytes",
             with(WireWriter().key(99, 1).raw("abcd")));
    c.refuse("Malformed", "float-attribute-cut-off", r::range,
             "an attribute's f (32-bit) cut off by the attribute's end",
             model_with_attributes(
                 {WireWriter().bytes_field(p::Attribute::name, "f").key(p::Attribute::f, 5).raw("\x01\x02")}));

    // Integers.
    c.accept(
        "int32-keeps-low-32-bits", r::int32, "data_type 2^32+1 is FLOAT once truncated to 32 bits",
        model_with_initializer(
            ob::tensor_raw("T", 0, {1}, floats_le({1.5f})).int_field(p::Tensor::data_type, (uint64_t{1} << 32) + 1)),
        {{"tensor_data_type", {{"T", 1}}}});
    c.refuse("InvalidModel", "int32-truncates-to-zero-data-type", r::int32,
             "data_type 2^32 is 0 (undefined) once truncated: not a valid element type",
             model_with_initializer(tensor_head("T", 0, {1})
                                        .int_field(p::Tensor::data_type, uint64_t{1} << 32)
                                        .bytes_field(p::Tensor::raw_data, "abcd")));
    c.accept("int32-attribute-type-truncated", r::int32, "attribute type 2^32+2 is INT once truncated",
             model_with_attributes({WireWriter()
                                        .bytes_field(p::Attribute::name, "k")
                                        .int_field(p::Attribute::i, 5)
                                        .int_field(p::Attribute::type, (uint64_t{1} << 32) + 2)}),
             {{"attribute_type", {{"n1/k", 2}}}, {"attribute_int", {{"n1/k", 5}}}});
    c.accept("int64-keeps-all-bits", r::int64, "ir_version 2^32+9 stays 4294967305 (truncating importers see 9)",
             model_tail(model_head((uint64_t{1} << 32) + 9)).str(), {{"ir_version", 4294967305LL}});
    c.accept("int64-model-version-2pow40", r::int64, "model_version 2^40",
             with(WireWriter().int_field(p::Model::model_version, uint64_t{1} << 40)),
             {{"model_version", 1099511627776LL}});

    // UTF-8.
    struct Utf8Case { const char* name; std::string bytes; const char* why; };
    const Utf8Case bad[] = {
        {"utf8-invalid-byte-ff", "a\xff", "0xFF never occurs in UTF-8"},
        {"utf8-overlong-nul", "\xc0\x80", "C0 80 is an overlong NUL"},
        {"utf8-overlong-three-byte", "\xe0\x80\xaf", "E0 80 AF is an overlong '/'"},
        {"utf8-surrogate", "\xed\xa0\x80", "ED A0 80 encodes the surrogate U+D800"},
        {"utf8-above-10ffff", "\xf4\x90\x80\x80", "F4 90 80 80 is U+110000, beyond Unicode"},
        {"utf8-truncated-sequence", "ab\xe2\x82", "a three-byte sequence cut off by the end of the string"},
        {"utf8-lone-continuation", "\x80", "a continuation byte with no lead"},
        {"utf8-f5-lead", "\xf5\x80\x80\x80", "F5 is never a lead byte"},
    };
    for (const auto& u : bad)
        c.refuse("Malformed", u.name, r::utf8, std::string(u.why) + " (in producer_name)",
                 with(WireWriter().bytes_field(p::Model::producer_name, u.bytes)));
    c.refuse("Malformed", "utf8-invalid-in-node-input", r::utf8, "a node input name with C3 28 (bad continuation)",
             [] {
                 WireWriter g = base_graph();
                 g.message(p::Graph::node, ob::node("Identity", {"\xc3\x28"}, {"Z"}, "n1"));
                 return ob::model(g).str();
             }());
    c.refuse("Malformed", "utf8-invalid-in-doc-string", r::utf8, "doc_string is a string field too",
             with(WireWriter().bytes_field(p::Model::doc_string, "\xfe\xff")));
    c.accept("utf8-boundaries-valid", r::utf8,
             "U+D7FF (ED 9F BF), U+E000, U+10FFFF (F4 8F BF BF), a BOM and an emoji are valid UTF-8",
             with(WireWriter().bytes_field(p::Model::producer_name,
                                           "\xed\x9f\xbf\xee\x80\x80\xf4\x8f\xbf\xbf\xef\xbb\xbf\xf0\x9f\x98\x80")),
             {{"producer_name_hex", "ed9fbfee8080f48fbfbfefbbbff09f9880"}});
    c.accept("bytes-field-not-decoded", r::bytes, "attribute s (bytes) holding FF FE C0 is not UTF-8 checked",
             model_with_attributes({WireWriter()
                                        .bytes_field(p::Attribute::name, "s")
                                        .bytes_field(p::Attribute::s, "\xff\xfe\xc0")
                                        .int_field(p::Attribute::type, 3)}),
             {{"attribute_type", {{"n1/s", 3}}}});
    c.accept("string-data-not-decoded", r::bytes, "string_data is repeated bytes: FF is accepted",
             model_with_initializer(tensor_head("S", 8, {1}).bytes_field(p::Tensor::string_data, "\xff")),
             {{"tensor_dims", {{"S", {1}}}}});

    // Repeated scalars.
    c.accept("packed-and-unpacked-dims", r::packed, "dims [2] packed then 3 unpacked: dims [2, 3]",
             model_with_initializer(WireWriter()
                                        .packed_varints(p::Tensor::dims, {2})
                                        .int_field(p::Tensor::dims, 3)
                                        .int_field(p::Tensor::data_type, 2)
                                        .bytes_field(p::Tensor::name, "T")
                                        .bytes_field(p::Tensor::raw_data, pattern(6))),
             {{"tensor_dims", {{"T", {2, 3}}}}, {"tensor_sha256", {{"T", sha256_hex(pattern(6))}}}});
    c.accept("packed-and-unpacked-float-data", r::packed, "float_data 1,2 packed, 3 unpacked, 4 packed: 1,2,3,4",
             [] {
                 WireWriter t = tensor_head("T", 1, {4});
                 t.bytes_field(p::Tensor::float_data, floats_le({1, 2}))
                     .float_field(p::Tensor::float_data, 3)
                     .bytes_field(p::Tensor::float_data, floats_le({4}));
                 return model_with_initializer(t);
             }(),
             {{"tensor_sha256", {{"T", sha256_hex(floats_le({1, 2, 3, 4}))}}}});
    c.accept("packed-and-unpacked-attribute-ints", r::packed, "ints 1 unpacked, then 2,3 packed",
             model_with_attributes({WireWriter()
                                        .bytes_field(p::Attribute::name, "v")
                                        .int_field(p::Attribute::ints, 1)
                                        .packed_varints(p::Attribute::ints, {2, 3})}),
             {{"attribute_ints", {{"n1/v", {1, 2, 3}}}}});
    c.refuse("Malformed", "packed-fixed32-not-multiple-of-4", r::range,
             "packed float_data of 6 bytes: the second float is cut off",
             model_with_initializer(tensor_head("T", 1, {2}).bytes_field(p::Tensor::float_data, "abcdef")));
    c.refuse(
        "Malformed", "packed-fixed64-not-multiple-of-8", r::range, "packed double_data of 12 bytes",
        model_with_initializer(tensor_head("T", 11, {2}).bytes_field(p::Tensor::double_data, std::string(12, 'a'))));
    c.refuse("Malformed", "packed-varint-cut-off", r::varint_cut,
             "packed int64_data whose last varint runs past the packed slice",
             model_with_initializer(tensor_head("T", 7, {1}).bytes_field(p::Tensor::int64_data, "\x80\x80")));

    // Unknown fields and wrong wire types.
    c.refuse("InvalidModel", "ir-version-wrong-wire-type", r::unknown,
             "ir_version sent length-delimited is skipped, so the model has no ir_version",
             model_tail(WireWriter().bytes_field(p::Model::ir_version, "\x09")).str());
    c.refuse("InvalidModel", "graph-wrong-wire-type", r::unknown, "the graph sent as a varint is skipped: no graph",
             WireWriter()
                 .int_field(p::Model::ir_version, 9)
                 .int_field(p::Model::graph, 5)
                 .message(p::Model::opset_import, ob::opset("", 21))
                 .str());
    c.accept("node-name-wrong-wire-type", r::unknown, "a node name sent as fixed32 is skipped; the node keeps no name",
             [] {
                 WireWriter n = ob::node("Identity", {"X"}, {"Y"});
                 n.fixed32_field(p::Node::name, 7);
                 return ob::model(graph_of({n}, {"X"}, {"Y"})).str();
             }(),
             {{"node_count", 1}});
    c.accept("dims-wrong-wire-type", r::unknown, "dims sent as fixed64 are skipped: a scalar of 4 bytes",
             model_with_initializer(WireWriter()
                                        .fixed64_field(p::Tensor::dims, 5)
                                        .int_field(p::Tensor::data_type, 1)
                                        .bytes_field(p::Tensor::name, "T")
                                        .bytes_field(p::Tensor::raw_data, floats_le({2.0f}))),
             {{"tensor_dims", {{"T", json::array()}}}});
    c.accept("unknown-field-max-number-length-delimited", r::unknown, "field 2^29-1, length-delimited, unknown",
             with(WireWriter().key((1u << 29) - 1, 2).varint(3).raw("abc")), {{"ir_version", 9}});
    c.accept("nesting-inside-unknown-field", r::unknown,
             "10000 nested length-delimited levels inside an unknown field are skipped, never parsed",
             [] {
                 constexpr uint32_t opaque_field = 1;  // inside the unknown field: bytes no reader parses
                 std::string s;
                 for (int i = 0; i < 10000; ++i) s = WireWriter().key(opaque_field, 2).varint(s.size()).raw(s).str();
                 return with(WireWriter().key(99, 2).varint(s.size()).raw(s));
             }(),
             {{"ir_version", 9}});

    // Last one wins; messages are not merged.
    c.accept("ir-version-last-wins", r::last_wins, "ir_version 2 then 9: 9",
             model_tail(WireWriter().int_field(p::Model::ir_version, 2).int_field(p::Model::ir_version, 9)).str(),
             {{"ir_version", 9}});
    c.refuse("InvalidModel", "ir-version-last-wins-too-low", r::last_wins, "ir_version 9 then 2: 2 is too low",
             model_tail(WireWriter().int_field(p::Model::ir_version, 9).int_field(p::Model::ir_version, 2)).str());
    c.accept("graph-twice-not-merged", r::no_merge,
             "two graph fields: the second replaces the first wholesale (its initializer and node vanish)",
             [] {
                 WireWriter g1 = base_graph();
                 g1.message(p::Graph::initializer, ob::tensor_raw("W", 1, {1}, floats_le({1})));
                 g1.message(p::Graph::node, ob::node("Identity", {"X"}, {"Z"}, "first"));
                 WireWriter g2 = graph_of({ob::node("Identity", {"X"}, {"Y"}, "second")}, {"X"}, {"Y"});
                 return WireWriter()
                     .int_field(p::Model::ir_version, 9)
                     .message(p::Model::graph, g1)
                     .message(p::Model::graph, g2)
                     .message(p::Model::opset_import, ob::opset("", 21))
                     .str();
             }(),
             {{"node_order", {"second"}}, {"initializer_count", 0}});
    c.accept("type-twice-not-merged", r::no_merge,
             "a value_info type with a shape, then one without: unknown rank, nothing of the first kept",
             [] {
                 WireWriter vi =
                     WireWriter()
                         .bytes_field(p::ValueInfo::name, "X")
                         .message(p::ValueInfo::type, ob::tensor_type(1, {3}))
                         .message(p::ValueInfo::type,
                                  WireWriter().message(p::Type::tensor_type,
                                                       WireWriter().int_field(p::TensorType::elem_type, 7)));
                 WireWriter g;
                 g.message(p::Graph::node, ob::node("Identity", {"X"}, {"Y"}, "n0")).bytes_field(p::Graph::name, "g");
                 g.message(p::Graph::input, vi).message(p::Graph::output, ob::value_info("Y"));
                 return ob::model(g).str();
             }(),
             {{"value_shape", {{"X", nullptr}}}, {"value_decl_elem_type", {{"X", 7}}}});
    c.accept("tensor-data-type-last-wins", r::last_wins, "data_type INT64 then FLOAT with 4 raw bytes: FLOAT",
             model_with_initializer(tensor_head("T", 7, {1})
                                        .int_field(p::Tensor::data_type, 1)
                                        .bytes_field(p::Tensor::raw_data, floats_le({3}))),
             {{"tensor_data_type", {{"T", 1}}}});

    // Nesting.
    c.accept("nesting-128-at-default", r::nesting3, "42 nested If graphs: the innermost node is at level 128",
             nested_ifs(42, 1), {{"node_order", {"if41"}}});
    c.refuse("Malformed", "nesting-129-at-default", r::nesting3,
             "the same with an attribute on the innermost node: level 129", nested_ifs(42, 2));
    c.accept("nesting-8-at-min-limit", r::nesting, "2 nested If graphs, innermost node at level 8, with max_nesting 8",
             nested_ifs(2, 1), {{"node_order", {"if1"}}})
        .options = {{"max_nesting", 8}};
    c.refuse("Malformed", "nesting-9-at-min-limit", r::nesting, "level 9 with max_nesting 8", nested_ifs(2, 2))
        .options = {{"max_nesting", 8}};
    c.accept("nesting-250-at-max-limit", r::nesting,
             "83 nested If graphs, the innermost graph at level 250, max_nesting 250", nested_ifs(83, 0),
             {{"node_order", {"if82"}}})
        .options = {{"max_nesting", 250}};
    c.refuse("Malformed", "nesting-251-at-max-limit", r::nesting, "a node inside it is at level 251", nested_ifs(83, 1))
        .options = {{"max_nesting", 250}};
    c.accept("nesting-128-in-types", r::nesting, "62 nested sequence types: the tensor type sits at level 128",
             nested_types(62, false), {{"ir_version", 9}});
    c.refuse("Malformed", "nesting-129-in-types", r::nesting, "a shape under that tensor type is at level 129",
             nested_types(62, true));
    c.refuse("Malformed", "nesting-deep-ifs-far-beyond", r::nesting,
             "1000 nested If graphs (level 3000): refused, not a stack overflow", nested_ifs(1000, 1));

    // Size: 2^31-1 bytes is the largest model; both files are sparse (holes) and generated only.
    auto sized = [](uint64_t size) {
        WireWriter head = WireWriter().raw(base()).key(99, 2);
        uint64_t payload = size - head.size() - 5;  // the length itself takes 5 bytes here
        head.varint(payload);
        return head.str();
    };
    c.sparse_case(true, "", "model-2gib-minus-1-bytes", r::size,
                  "2^31-1 bytes: a valid model whose last field is an unknown 2 GiB field of zeros (sparse file)",
                  sized(0x7FFFFFFFu), 0x7FFFFFFFu, {{"ir_version", 9}});
    c.sparse_case(false, "Unsupported", "model-2gib-bytes", r::size,
                  "2^31 bytes: one byte over protobuf's limit (sparse file)", sized(0x80000000u), 0x80000000u);
}

}  // namespace hostile
