// Suite `wire`: the protobuf reader (spec section 1) — keys, varints, lengths, integer
// truncation, UTF-8, repeated scalars, skipping, last-wins, nesting and the size limit.
// Every input is built byte by byte with WireWriter; refusals are checked for kind,
// exact offset and field path.
#include "core_support.hpp"

#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fcntl.h>
#include <stdexcept>
#include <sys/mman.h>
#include <unistd.h>

using namespace core_test;

namespace {

const std::string base = tb::minimal_model();

/// A model whose deepest message sits at `level` (ModelProto is level 0): graph (1),
/// input (2), type (3), then sequence_type and elem_type alternately. Every message is
/// the last field of its parent, so the deepest field's key and zero length are the
/// input's last two bytes. `path` receives that field's path.
std::string nested_type_model(int level, std::string* path = nullptr) {
    std::string msg;  // payload of the deepest message: empty
    // Even levels are a TypeProto's sequence_type, odd ones a TypeProto.Sequence's elem_type.
    for (int k = level; k > 3; --k)
        msg = k % 2 == 0 ? WireWriter().bytes_field(proto::Type::sequence_type, msg).str()
                         : WireWriter().bytes_field(proto::ElemType::elem_type, msg).str();
    std::string vi =
        WireWriter().bytes_field(proto::ValueInfo::name, "x").bytes_field(proto::ValueInfo::type, msg).str();
    if (path) {
        *path = "ModelProto.graph.input[0].type";
        for (int k = 4; k <= level; ++k) *path += k % 2 == 0 ? ".sequence_type" : ".elem_type";
    }
    return model_graph_last(WireWriter().bytes_field(proto::Graph::input, vi).str());
}

/// A sparse file of `size` bytes (all zeros, no blocks written).
std::filesystem::path sparse_file(uint64_t size, const char* tag) {
    auto p = std::filesystem::temp_directory_path() /
             ("onnx-gauntlet-" + std::string(tag) + "-" + std::to_string(::getpid()) + ".onnx");
    int fd = ::open(p.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0600);
    BOOST_REQUIRE(fd >= 0);
    BOOST_REQUIRE(::ftruncate(fd, static_cast<off_t>(size)) == 0);
    ::close(fd);
    return p;
}

/// An If node whose graph attribute holds `inner_node` alone: three nesting levels (attribute, g,
/// node) around it.
std::string if_around(const std::string& inner_node) {
    using A = proto::Attribute;
    const std::string body = WireWriter().bytes_field(proto::Graph::node, inner_node).str();
    const std::string attr =
        WireWriter().bytes_field(A::name, "body").int_field(A::type, 5).bytes_field(A::g, body).str();
    return WireWriter().bytes_field(proto::Node::op_type, "If").bytes_field(proto::Node::attribute, attr).str();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(wire)

// ---- Keys -----------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(field_number_zero_is_malformed) {
    expect_model_error(base + std::string("\x00\x01", 2), ErrorKind::Malformed, base.size(), "ModelProto");
    // Also inside a nested message: the path names the message being read.
    std::string graph = std::string("\x02\x00", 2);  // field 0, wire 2
    std::string m = model_graph_last(graph);
    expect_model_error(m, ErrorKind::Malformed, graph_payload_offset(graph), "ModelProto.graph");
}

BOOST_AUTO_TEST_CASE(group_and_reserved_wire_types_are_malformed) {
    for (unsigned wire : {3u, 4u, 6u, 7u}) {
        BOOST_TEST_CONTEXT("wire type " << wire) {
            std::string m = base + WireWriter().key(1000, wire).varint(0).str();
            expect_model_error(m, ErrorKind::Malformed, base.size(), "ModelProto");
        }
    }
}

BOOST_AUTO_TEST_CASE(wire_types_0_1_2_5_are_read) {
    std::string m = base + WireWriter()
                               .int_field(1000, 7)
                               .fixed64_field(1001, 7)
                               .bytes_field(1002, "seven")
                               .fixed32_field(1003, 7)
                               .str();
    BOOST_CHECK_NO_THROW(import_model(m));
}

BOOST_AUTO_TEST_CASE(key_above_32_bits_is_malformed) {
    // 2^32 as a key: field 2^29, wire 0, one bit beyond what a key may hold.
    std::string m = base + WireWriter().varint(uint64_t{1} << 32).varint(0).str();
    expect_model_error(m, ErrorKind::Malformed, base.size(), "ModelProto");
}

BOOST_AUTO_TEST_CASE(largest_32_bit_key_is_accepted_and_skipped) {
    // Field 2^29 - 1 with wire 0: key 0xFFFFFFF8, the largest legal field number.
    std::string m = base + WireWriter().varint(0xFFFFFFF8u).varint(5).str();
    BOOST_CHECK_NO_THROW(import_model(m));
}

BOOST_AUTO_TEST_CASE(key_encoded_overlong_is_accepted) {
    // ir_version's key 0x08 written in three bytes.
    std::string m = base + std::string("\x88\x80\x00\x0B", 4);
    BOOST_TEST(import_model(m).proto().ir_version == 11);
}

// ---- Varints --------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(ten_byte_varint_with_tenth_byte_1_is_accepted) {
    // model_version (int64): nine continuation bytes of zeros then 1 -> bit 63 alone.
    std::string v =
        base + WireWriter().key(proto::Model::model_version, tb::VARINT).str() + std::string(9, '\x80') + "\x01";
    BOOST_TEST(import_model(v).proto().model_version == INT64_MIN);
    std::string all =
        base + WireWriter().key(proto::Model::model_version, tb::VARINT).str() + std::string(9, '\xFF') + "\x01";
    BOOST_TEST(import_model(all).proto().model_version == -1);
    std::string zero = base + WireWriter().key(proto::Model::model_version, tb::VARINT).str() + std::string(9, '\x85') +
                       std::string(1, '\0');
    BOOST_CHECK_NO_THROW(import_model(zero));
}

BOOST_AUTO_TEST_CASE(tenth_varint_byte_above_1_is_malformed_at_that_byte) {
    std::string prefix =
        base + WireWriter().key(proto::Model::model_version, tb::VARINT).str() + std::string(9, '\x80');
    expect_model_error(prefix + "\x02", ErrorKind::Malformed, prefix.size(), "ModelProto");
    // An eleven-byte varint (the tenth byte continues) fails at the same byte.
    expect_model_error(prefix + "\x81\x00", ErrorKind::Malformed, prefix.size(), "ModelProto");
}

BOOST_AUTO_TEST_CASE(truncated_varint_in_key_is_malformed) {
    expect_model_error(base + "\x80", ErrorKind::Malformed, base.size(), "ModelProto");
    expect_model_error(base + "\xFF\xFF", ErrorKind::Malformed, base.size(), "ModelProto");
}

BOOST_AUTO_TEST_CASE(truncated_varint_in_value_is_malformed) {
    std::string m = base + "\x28\x80\x80";  // model_version, cut off
    expect_model_error(m, ErrorKind::Malformed, base.size() + 1, "ModelProto");
}

BOOST_AUTO_TEST_CASE(truncated_varint_in_length_is_malformed) {
    std::string m = base + "\x12\x80";  // producer_name, length cut off
    expect_model_error(m, ErrorKind::Malformed, base.size() + 1, "ModelProto");
}

BOOST_AUTO_TEST_CASE(varint_cut_off_by_the_end_of_its_message_is_malformed_even_if_the_file_goes_on) {
    // The graph's payload ends in the middle of a varint; the bytes after the graph
    // would complete it, but the reader must not look past the graph's end.
    std::string graph = "\x12\x01g\x08\x80";  // name "g", then a cut-off varint field
    std::string m = model_graph_last(graph) + std::string("\x01", 1);
    expect_model_error(m, ErrorKind::Malformed, graph_payload_offset(graph) + 4, "ModelProto.graph");
}

BOOST_AUTO_TEST_CASE(overlong_varint_encodings_are_accepted) {
    // 0x81 0x80 0x00 is 1 written in three bytes; ir_version 9 likewise.
    std::string m = base + std::string("\x08\x89\x80\x00", 4) + std::string("\x28\x81\x80\x00", 4);
    auto model = import_model(m);
    BOOST_TEST(model.proto().ir_version == 9);
    BOOST_TEST(model.proto().model_version == 1);
    // The ten-byte overlong form of 0.
    std::string z = base + "\x28" + std::string(9, '\x80') + std::string(1, '\0');
    BOOST_TEST(import_model(z).proto().model_version == 0);
}

// ---- Lengths --------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(length_larger_than_the_remainder_is_malformed) {
    std::string m = base + "\x12\x05" + "abcd";  // producer_name: 5 announced, 4 remain
    expect_model_error(m, ErrorKind::Malformed, base.size() + 1, "ModelProto");
    // Exactly the remainder is fine.
    BOOST_CHECK_NO_THROW(import_model(base + "\x12\x04" + "abcd"));
}

BOOST_AUTO_TEST_CASE(length_of_2_pow_64_minus_1_is_malformed) {
    std::string m = base + WireWriter().key(proto::Model::producer_name, tb::LEN).varint(UINT64_MAX).raw("abc").str();
    expect_model_error(m, ErrorKind::Malformed, base.size() + 1, "ModelProto");
    // 2^63 and 2^32 lengths too: nothing wraps when compared.
    for (uint64_t len : {uint64_t{1} << 63, uint64_t{1} << 32, uint64_t{0x7FFFFFFF}}) {
        BOOST_TEST_CONTEXT("length " << len) {
            std::string n = base + WireWriter().key(1000, tb::LEN).varint(len).raw("abc").str();
            expect_model_error(n, ErrorKind::Malformed, base.size() + 2, "ModelProto");
        }
    }
}

BOOST_AUTO_TEST_CASE(length_is_bounded_by_the_enclosing_message_not_the_file) {
    // The graph's name announces 10 bytes; the file has them, the graph does not.
    std::string graph = "\x12\x0A" + std::string("ab");
    std::string m = model_graph_last(graph) + std::string(20, 'x');
    // Unknown trailing bytes after the graph would be read as fields, but the error comes first.
    expect_model_error(m, ErrorKind::Malformed, graph_payload_offset(graph) + 1, "ModelProto.graph");
}

BOOST_AUTO_TEST_CASE(fixed_width_values_cut_off_are_malformed) {
    expect_model_error(base + WireWriter().key(1000, tb::I32).raw("abc").str(), ErrorKind::Malformed,
                       base.size() + 2, "ModelProto");
    expect_model_error(base + WireWriter().key(1000, tb::I64).raw("abcdefg").str(), ErrorKind::Malformed,
                       base.size() + 2, "ModelProto");
}

BOOST_AUTO_TEST_CASE(packed_fixed32_with_length_not_a_multiple_of_4_is_malformed) {
    WireWriter attr = WireWriter()
                          .bytes_field(proto::Attribute::name, "alpha")
                          .key(proto::Attribute::floats, tb::LEN)
                          .varint(6)
                          .raw("abcdef");
    std::string m = model_with_attribute(attr);
    uint64_t at =
        attribute_key_offset(attr) + len_header(proto::Node::attribute, attr.size()) + 7 + 1;  // the length byte
    expect_model_error(m, ErrorKind::Malformed, at, "ModelProto.graph.node[0].attribute[0]");
}

BOOST_AUTO_TEST_CASE(packed_fixed64_with_length_not_a_multiple_of_8_is_malformed) {
    std::string t = WireWriter()
                        .int_field(proto::Tensor::dims, 1)
                        .int_field(proto::Tensor::data_type, 11)
                        .key(proto::Tensor::double_data, tb::LEN)
                        .varint(12)
                        .raw(std::string(12, 'a'))
                        .str();
    expect_tensor_error(t, ErrorKind::Malformed, 5, "TensorProto");
}

// ---- Integers -------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(int32_and_enum_fields_keep_the_low_32_bits) {
    // TensorProto.data_type (enum) written as 2^32 + 1 reads as FLOAT.
    std::string t = WireWriter()
                        .int_field(proto::Tensor::dims, 1)
                        .int_field(proto::Tensor::data_type, (uint64_t{1} << 32) + 1)
                        .bytes_field(proto::Tensor::raw_data, "abcd")
                        .str();
    BOOST_TEST(import_tensor(t).graph()->initializers[0].data_type == 1);
    // AttributeProto.type 2^32 + 2 reads as INT.
    WireWriter attr = WireWriter()
                          .bytes_field(proto::Attribute::name, "k")
                          .int_field(proto::Attribute::i, 5)
                          .int_field(proto::Attribute::type, (uint64_t{1} << 32) + 2);
    auto m = import_model(model_with_attribute(attr));
    BOOST_TEST(static_cast<int>(m.graph()->nodes[0].attributes[0].type) == 2);
    // TypeProto.Tensor.elem_type (int32) likewise.
    WireWriter tt = WireWriter().int_field(proto::TensorType::elem_type, (uint64_t{7} << 32) | 7);
    WireWriter vi = WireWriter()
                        .bytes_field(proto::ValueInfo::name, "x")
                        .message(proto::ValueInfo::type, WireWriter().message(proto::Type::tensor_type, tt));
    auto v = import_model(model_graph_last(WireWriter().message(proto::Graph::input, vi).str()));
    BOOST_TEST(v.graph()->inputs[0].type.elem_type == 7);
}

BOOST_AUTO_TEST_CASE(int64_fields_keep_all_64_bits) {
    auto m = import_model(base + WireWriter().int_field(proto::Model::model_version, (uint64_t{1} << 40) + 3).str());
    BOOST_TEST(m.proto().model_version == (int64_t{1} << 40) + 3);
    std::string t = WireWriter()
                        .int_field(proto::Tensor::dims, 1)
                        .int_field(proto::Tensor::data_type, 7)
                        .int_field(proto::Tensor::int64_data, UINT64_MAX - 1)
                        .str();
    auto bytes = import_tensor(t).graph()->initializers[0].to_tensor();
    int64_t v;
    std::memcpy(&v, bytes.data(), 8);
    BOOST_TEST(v == -2);
}

// ---- Strings --------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(invalid_utf8_in_a_string_field_is_malformed_at_the_bad_sequence) {
    struct Case {
        const char* what;
        std::string bad;
    };
    const Case cases[] = {
        {"overlong 2-byte (C0 AF)", "\xC0\xAF"},
        {"overlong 2-byte (C1 BF)", "\xC1\xBF"},
        {"overlong 3-byte (E0 80 AF)", "\xE0\x80\xAF"},
        {"overlong 4-byte (F0 80 80 AF)", "\xF0\x80\x80\xAF"},
        {"surrogate U+D800", "\xED\xA0\x80"},
        {"surrogate U+DFFF", "\xED\xBF\xBF"},
        {"above U+10FFFF (F4 90 80 80)", "\xF4\x90\x80\x80"},
        {"lead byte F5", "\xF5\x80\x80\x80"},
        {"byte FF", "\xFF"},
        {"lone continuation byte", "\x80"},
        {"truncated 3-byte sequence", "\xE2\x82"},
        {"truncated 4-byte sequence", "\xF0\x9F\x98"},
        {"3-byte sequence broken by ASCII", "\xE2\x82" "A"},
    };
    for (const auto& c : cases) {
        BOOST_TEST_CONTEXT(c.what) {
            // "ok" then the bad bytes, in producer_name; followed by a valid field so a
            // truncated sequence is cut by the string's end, not the file's.
            std::string s = "ok" + c.bad;
            std::string m = base + WireWriter()
                                       .bytes_field(proto::Model::producer_name, s)
                                       .int_field(proto::Model::model_version, 1)
                                       .str();
            expect_model_error(m, ErrorKind::Malformed, base.size() + 2 + 2, "ModelProto.producer_name");
        }
    }
}

BOOST_AUTO_TEST_CASE(a_byte_above_0x7f_is_seen_at_every_position_of_a_string_of_up_to_72_bytes) {
    // The ASCII fast path reads 16 bytes a step and the last 16 (or the first and last 8) in
    // overlapping words (core/strings.hpp, all_ascii): each length and position must still be
    // covered, up to four steps.
    for (size_t n = 1; n <= 72; ++n)
        for (size_t i = 0; i < n; ++i) {
            BOOST_TEST_CONTEXT("length " << n << ", byte " << i) {
                std::string s(n, 'a');
                s[i] = '\x80';
                std::string m = base + WireWriter().bytes_field(proto::Model::producer_name, s).str();
                expect_model_error(m, ErrorKind::Malformed, base.size() + 2 + i, "ModelProto.producer_name");
            }
        }
}

BOOST_AUTO_TEST_CASE(invalid_utf8_in_a_nested_string_names_its_field) {
    WireWriter node = WireWriter()
                          .bytes_field(proto::Node::input, "X")
                          .bytes_field(proto::Node::input, "a\xED\xA0\x80")
                          .bytes_field(proto::Node::op_type, "Add");
    std::string graph = WireWriter().message(proto::Graph::node, node).str();
    std::string m = model_graph_last(graph);
    uint64_t at = graph_payload_offset(graph) + len_header(proto::Graph::node, node.size()) + 3 + 2 + 1;
    expect_model_error(m, ErrorKind::Malformed, at, "ModelProto.graph.node[0].input");
}

BOOST_AUTO_TEST_CASE(valid_utf8_edge_cases_are_accepted) {
    // U+0000, U+007F, U+0080, U+07FF, U+0800, U+D7FF, U+E000, U+FFFF, U+10000, U+10FFFF.
    std::string s = std::string("\x00\x7F", 2) + "\xC2\x80\xDF\xBF\xE0\xA0\x80\xED\x9F\xBF\xEE\x80\x80\xEF\xBF\xBF" +
                    "\xF0\x90\x80\x80\xF4\x8F\xBF\xBF";
    auto m = import_model(base + WireWriter().bytes_field(proto::Model::producer_name, s).str());
    BOOST_TEST(m.proto().producer_name == s);
}

BOOST_AUTO_TEST_CASE(bytes_fields_are_never_decoded) {
    const std::string junk = "\xFF\xC0\xED\xA0\x80";
    WireWriter attr = WireWriter()
                          .bytes_field(proto::Attribute::name, "s")
                          .bytes_field(proto::Attribute::s, junk)
                          .int_field(proto::Attribute::type, 3);
    auto m = import_model(model_with_attribute(attr));
    BOOST_TEST(m.graph()->nodes[0].attributes[0].s() == junk);

    WireWriter strs = WireWriter()
                          .bytes_field(proto::Attribute::name, "ss")
                          .bytes_field(proto::Attribute::strings, junk)
                          .bytes_field(proto::Attribute::strings, "\x80")
                          .int_field(proto::Attribute::type, 8);
    auto n = import_model(model_with_attribute(strs));
    BOOST_TEST(n.graph()->nodes[0].attributes[0].strings().size() == 2u);
    BOOST_TEST(n.graph()->nodes[0].attributes[0].strings()[0] == junk);

    std::string t = WireWriter()
                        .int_field(proto::Tensor::dims, 1)
                        .int_field(proto::Tensor::data_type, 8)
                        .bytes_field(proto::Tensor::string_data, junk)
                        .str();
    auto tensor = import_tensor(t);
    BOOST_TEST(tensor.graph()->initializers[0].strings[0] == junk);
}

// ---- Repeated scalars -----------------------------------------------------------------

BOOST_AUTO_TEST_CASE(packed_and_unpacked_repeated_scalars_mix_in_any_order) {
    // dims: unpacked 2, packed {3, 4}, unpacked 5, empty packed run.
    std::string t = WireWriter()
                        .int_field(proto::Tensor::dims, 2)
                        .packed_varints(proto::Tensor::dims, {3, 4})
                        .int_field(proto::Tensor::dims, 5)
                        .packed_varints(proto::Tensor::dims, {})
                        .int_field(proto::Tensor::data_type, 2)
                        .bytes_field(proto::Tensor::raw_data, std::string(120, 'x'))
                        .str();
    BOOST_TEST(import_tensor(t).graph()->initializers[0].dims.to_vector() == (std::vector<int64_t>{2, 3, 4, 5}));

    // Attribute ints and floats: packed first, then unpacked, then packed again.
    float f1 = 1.5f, f2 = -2.0f, f3 = 0.25f;
    std::string packed_f1(reinterpret_cast<const char*>(&f1), 4);
    std::string packed_f3(reinterpret_cast<const char*>(&f3), 4);
    using A = proto::Attribute;
    WireWriter ints = WireWriter()
                          .bytes_field(A::name, "ints")
                          .packed_varints(A::ints, {1, 2})
                          .int_field(A::ints, 3)
                          .packed_varints(A::ints, {UINT64_MAX});
    WireWriter floats = WireWriter()
                            .bytes_field(A::name, "floats")
                            .bytes_field(A::floats, packed_f1)
                            .float_field(A::floats, f2)
                            .bytes_field(A::floats, packed_f3);
    auto a = import_model(model_with_attribute(ints));
    BOOST_TEST(a.graph()->nodes[0].attributes[0].ints().to_vector() == (std::vector<int64_t>{1, 2, 3, -1}));
    BOOST_TEST(static_cast<int>(a.graph()->nodes[0].attributes[0].type) == 7);
    auto b = import_model(model_with_attribute(floats));
    BOOST_TEST(b.graph()->nodes[0].attributes[0].floats().to_vector() == (std::vector<float>{f1, f2, f3}));
}

// ---- Skipping -------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(unknown_fields_of_every_wire_type_are_skipped) {
    auto unknowns = [] {
        return WireWriter()
            .int_field(900, 1)
            .fixed64_field(901, 2)
            .bytes_field(902, "\xFF\xFF not utf-8, not a message")
            .fixed32_field(903, 3)
            .str();
    };
    WireWriter dim = WireWriter().raw(unknowns()).int_field(proto::Dimension::dim_value, 4);
    WireWriter tt =
        WireWriter()
            .raw(unknowns())
            .int_field(proto::TensorType::elem_type, 1)
            .message(proto::TensorType::shape, WireWriter().raw(unknowns()).message(proto::Shape::dim, dim));
    WireWriter type = WireWriter().raw(unknowns()).message(proto::Type::tensor_type, tt);
    WireWriter vi =
        WireWriter().raw(unknowns()).bytes_field(proto::ValueInfo::name, "X").message(proto::ValueInfo::type, type);
    WireWriter attr =
        WireWriter().raw(unknowns()).bytes_field(proto::Attribute::name, "k").int_field(proto::Attribute::i, 4);
    WireWriter node = WireWriter()
                          .raw(unknowns())
                          .bytes_field(proto::Node::input, "X")
                          .bytes_field(proto::Node::output, "Y")
                          .bytes_field(proto::Node::op_type, "Op")
                          .message(proto::Node::attribute, attr);
    WireWriter init = WireWriter()
                          .raw(unknowns())
                          .int_field(proto::Tensor::dims, 1)
                          .int_field(proto::Tensor::data_type, 1)
                          .bytes_field(proto::Tensor::name, "W")
                          .bytes_field(proto::Tensor::raw_data, "abcd");
    WireWriter graph = WireWriter()
                           .raw(unknowns())
                           .message(proto::Graph::node, node)
                           .message(proto::Graph::initializer, init)
                           .message(proto::Graph::input, vi)
                           .raw(unknowns());
    WireWriter opset = WireWriter().raw(unknowns()).int_field(proto::OperatorSetId::version, 21);
    std::string m = WireWriter()
                        .raw(unknowns())
                        .int_field(proto::Model::ir_version, 9)
                        .message(proto::Model::opset_import, opset)
                        .message(proto::Model::graph, graph)
                        .raw(unknowns())
                        .str();
    auto model = import_model(m);
    BOOST_TEST(model.proto().ir_version == 9);
    BOOST_TEST(model.proto().opset_import.at(0).version == 21);
    BOOST_TEST(model.graph()->nodes.at(0).op_type == "Op");
    BOOST_TEST(model.graph()->nodes[0].attributes.at(0).i == 4);
    BOOST_TEST(model.graph()->initializers.at(0).byte_size() == 4u);
    BOOST_TEST(model.graph()->inputs.at(0).type.shape.at(0).value() == 4);
}

BOOST_AUTO_TEST_CASE(known_fields_with_the_wrong_wire_type_are_skipped) {
    // ir_version as bytes, producer_name as a varint, graph as a fixed32, opset_import as
    // a varint: each is skipped, and the well-typed occurrences are read.
    std::string m = WireWriter()
                        .bytes_field(proto::Model::ir_version, "\x01")
                        .int_field(proto::Model::producer_name, 5)
                        .fixed32_field(proto::Model::graph, 0)
                        .int_field(proto::Model::opset_import, 3)
                        .raw(base)
                        // A later ir_version of the wrong type does not win, nor does a later graph.
                        .fixed64_field(proto::Model::ir_version, 2)
                        .int_field(proto::Model::graph, 0)
                        .str();
    auto model = import_model(m);
    BOOST_TEST(model.proto().ir_version == 9);
    BOOST_TEST(model.proto().producer_name == "onnx-gauntlet");
    BOOST_TEST(model.graph()->nodes.size() == 1u);
    BOOST_TEST(model.proto().opset_import.size() == 1u);

    // A tensor's data_type as bytes and dims as fixed64 are skipped.
    std::string t = WireWriter()
                        .bytes_field(proto::Tensor::data_type, "\x07")
                        .fixed64_field(proto::Tensor::dims, 9)
                        .int_field(proto::Tensor::dims, 1)
                        .int_field(proto::Tensor::data_type, 1)
                        .bytes_field(proto::Tensor::raw_data, "abcd")
                        .str();
    auto tensor = import_tensor(t);
    BOOST_TEST(tensor.graph()->initializers[0].data_type == 1);
    BOOST_TEST(tensor.graph()->initializers[0].dims.to_vector() == (std::vector<int64_t>{1}));

    // A TypeProto member of the wrong wire type leaves "no type".
    WireWriter vi = WireWriter()
                        .bytes_field(proto::ValueInfo::name, "x")
                        .message(proto::ValueInfo::type, WireWriter().int_field(proto::Type::tensor_type, 1));
    auto v = import_model(model_graph_last(WireWriter().message(proto::Graph::input, vi).str()));
    BOOST_TEST(static_cast<int>(v.graph()->inputs[0].type.kind) == static_cast<int>(TypeProto::Kind::None));
}

BOOST_AUTO_TEST_CASE(a_skipped_field_must_still_be_well_framed) {
    // producer_name (2) arriving as a fixed64 is skipped, but a cut-off fixed64 is still malformed.
    std::string m = base + WireWriter().key(proto::Model::producer_name, tb::I64).raw("abc").str();
    expect_model_error(m, ErrorKind::Malformed, base.size() + 1, "ModelProto");
}

// ---- Last wins ------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(last_occurrence_of_a_singular_scalar_wins) {
    std::string early = WireWriter().int_field(proto::Model::ir_version, 2).raw(base).str();
    BOOST_TEST(import_model(early).proto().ir_version == 9);
    // 9 then 2: the 2 wins, and the refusal points at it.
    std::string bad = base + WireWriter().int_field(proto::Model::ir_version, 2).str();
    expect_model_error(bad, ErrorKind::InvalidModel, base.size(), "ModelProto.ir_version");
    auto m = import_model(base + WireWriter().bytes_field(proto::Model::producer_name, "second").str());
    BOOST_TEST(m.proto().producer_name == "second");
    // Tensor data_type: INT8 then FLOAT; four raw bytes fit FLOAT[1] only.
    using T = proto::Tensor;
    std::string t = WireWriter()
                        .int_field(T::dims, 1)
                        .int_field(T::data_type, 3)
                        .int_field(T::data_type, 1)
                        .bytes_field(T::raw_data, "abcd")
                        .str();
    BOOST_TEST(import_tensor(t).graph()->initializers[0].data_type == 1);
    // raw_data twice: the second is the data.
    std::string r = WireWriter()
                        .int_field(T::dims, 1)
                        .int_field(T::data_type, 1)
                        .bytes_field(T::raw_data, "ab")
                        .bytes_field(T::raw_data, "wxyz")
                        .str();
    auto bytes = import_tensor(r).graph()->initializers[0].to_tensor();
    BOOST_TEST(std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()) == "wxyz");
}

BOOST_AUTO_TEST_CASE(singular_message_given_twice_is_replaced_not_merged) {
    // Two graphs: the first has a node and a name, the second only a doc_string.
    std::string first = tb::minimal_graph().str();
    std::string second = WireWriter().bytes_field(proto::Graph::doc_string, "second").str();
    std::string m = WireWriter()
                        .int_field(proto::Model::ir_version, 9)
                        .message(proto::Model::opset_import, tb::opset("", 21))
                        .bytes_field(proto::Model::graph, first)
                        .bytes_field(proto::Model::graph, second)
                        .str();
    auto model = import_model(m);
    BOOST_TEST(model.graph()->doc_string == "second");
    BOOST_TEST(model.graph()->name.empty());
    BOOST_TEST(model.graph()->nodes.empty());
    BOOST_TEST(model.graph()->inputs.empty());

    // ValueInfo.type twice: a shaped tensor, then a tensor type without shape.
    WireWriter vi = WireWriter()
                        .bytes_field(proto::ValueInfo::name, "x")
                        .message(proto::ValueInfo::type, tb::tensor_type(1, {2, 3}))
                        .message(proto::ValueInfo::type,
                                 WireWriter().message(proto::Type::tensor_type,
                                                      WireWriter().int_field(proto::TensorType::elem_type, 7)));
    auto v = import_model(model_graph_last(WireWriter().message(proto::Graph::input, vi).str()));
    BOOST_TEST(v.graph()->inputs[0].type.elem_type == 7);
    BOOST_TEST(!v.graph()->inputs[0].type.has_shape);
    BOOST_TEST(v.graph()->inputs[0].type.shape.empty());

    // Attribute t twice: the second tensor alone.
    WireWriter attr =
        WireWriter()
            .bytes_field(proto::Attribute::name, "value")
            .message(proto::Attribute::t, tb::tensor_raw("first", 1, {1}, "abcd"))
            .message(proto::Attribute::t,
                     WireWriter().int_field(proto::Tensor::data_type, 7).int_field(proto::Tensor::int64_data, 1))
            .int_field(proto::Attribute::type, 4);
    auto a = import_model(model_with_attribute(attr));
    const TensorView& t = *a.graph()->nodes[0].attributes[0].t();
    BOOST_TEST(t.name.empty());
    BOOST_TEST(t.data_type == 7);
    BOOST_TEST(t.dims.empty());
}

// ---- Nesting --------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(message_at_level_128_is_accepted_and_at_129_is_malformed) {
    std::string ok = nested_type_model(128);
    BOOST_CHECK_NO_THROW(import_model(ok));
    std::string path;
    std::string deep = nested_type_model(129, &path);
    expect_model_error(deep, ErrorKind::Malformed, deep.size() - 2, path);
}

BOOST_AUTO_TEST_CASE(nesting_limit_is_configurable_from_8_to_250) {
    for (int limit : {8, 9, 64, 249, 250}) {
        BOOST_TEST_CONTEXT("max_nesting " << limit) {
            ImportOptions o = parse_only();
            o.max_nesting = limit;
            std::string ok = nested_type_model(limit);
            BOOST_CHECK_NO_THROW(import_model(ok, o));
            std::string path;
            std::string deep = nested_type_model(limit + 1, &path);
            expect_model_error(deep, ErrorKind::Malformed, deep.size() - 2, path, o);
        }
    }
}

BOOST_AUTO_TEST_CASE(a_small_dimension_one_level_too_deep_is_malformed_too) {
    // A dimension of one small dim_value is read without entering its message
    // (read_type.cpp, read_small_dim_value): the nesting limit must hold for it all the same.
    // Two sequences put the dimension at level 10, its shape at 9.
    WireWriter dim = WireWriter().int_field(proto::Dimension::dim_value, 3);
    WireWriter tensor = WireWriter()
                            .int_field(proto::TensorType::elem_type, 1)
                            .message(proto::TensorType::shape, WireWriter().message(proto::Shape::dim, dim));
    WireWriter type = WireWriter().message(proto::Type::tensor_type, tensor);
    for (int k = 0; k < 2; ++k)
        type = WireWriter().message(proto::Type::sequence_type, WireWriter().message(proto::ElemType::elem_type, type));
    WireWriter input = WireWriter().bytes_field(proto::ValueInfo::name, "x").message(proto::ValueInfo::type, type);
    const std::string m = model_graph_last(WireWriter().message(proto::Graph::input, input).str());
    ImportOptions o = parse_only();
    o.max_nesting = 10;
    auto ok = import_model(m, o);
    const TypeProto* inner = ok.graph()->inputs[0].type.elem->elem;
    BOOST_REQUIRE(inner);
    BOOST_TEST(inner->shape.at(0).value() == 3);
    o.max_nesting = 9;
    const std::string dim_bytes = WireWriter().message(proto::Shape::dim, dim).str();
    expect_model_error(m, ErrorKind::Malformed, m.rfind(dim_bytes),
                       "ModelProto.graph.input[0].type.sequence_type.elem_type.sequence_type.elem_type.tensor_type"
                       ".shape.dim[0]",
                       o);
}

BOOST_AUTO_TEST_CASE(nesting_limit_outside_8_to_250_is_invalid_argument) {
    std::string m = base;
    for (int limit : {-1, 0, 7, 251, 1000}) {
        BOOST_TEST_CONTEXT("max_nesting " << limit) {
            ImportOptions o;
            o.max_nesting = limit;
            BOOST_CHECK_THROW(import_model(m, o), std::invalid_argument);
            BOOST_CHECK_THROW(onnximport::detail::import_tensor_bytes(span_of(m), "t", o), std::invalid_argument);
            BOOST_CHECK_THROW(import_file("/nonexistent/model.onnx", o), std::invalid_argument);
        }
    }
}

BOOST_AUTO_TEST_CASE(graph_in_attribute_in_graph_costs_three_levels) {
    // graph(1).node(2).attribute(3).g(4).node(5).attribute(6).g(7).node(8) fits in 8;
    // an attribute on the innermost node would be level 9.
    ImportOptions o = parse_only();
    o.max_nesting = 8;
    std::string leaf = WireWriter().bytes_field(proto::Node::op_type, "Leaf").str();
    std::string ok = model_graph_last(WireWriter().bytes_field(proto::Graph::node, if_around(if_around(leaf))).str());
    auto m = import_model(ok, o);
    BOOST_TEST(m.graph()->nodes[0].attributes[0].g()->nodes[0].attributes[0].g()->nodes[0].op_type == "Leaf");

    std::string attr = tb::attr_int("k", 1).str();
    std::string leaf_with_attr = leaf + WireWriter().bytes_field(proto::Node::attribute, attr).str();
    std::string deep =
        model_graph_last(WireWriter().bytes_field(proto::Graph::node, if_around(if_around(leaf_with_attr))).str());
    expect_model_error(deep, ErrorKind::Malformed,
                       deep.size() - attr.size() - len_header(proto::Node::attribute, attr.size()),
                       "ModelProto.graph.node[0].attribute[0].g.node[0].attribute[0].g.node[0].attribute[0]", o);
    // With one more level allowed the same input is accepted.
    o.max_nesting = 9;
    BOOST_CHECK_NO_THROW(import_model(deep, o));
}

BOOST_AUTO_TEST_CASE(the_field_path_is_whole_at_the_deepest_nesting_allowed) {
    // Context::path is a fixed array sized from the nesting limit (context.hpp): at the
    // limit of 250, a resolution error in the innermost of 82 nested subgraphs (node at
    // level 248) still names every step.
    std::string node =
        WireWriter().bytes_field(proto::Node::input, "nowhere").bytes_field(proto::Node::op_type, "Leaf").str();
    std::string path = "ModelProto.graph.node[0]";
    for (int i = 0; i < 82; ++i) {
        node = if_around(node);
        path += ".attribute[0].g.node[0]";
    }
    ImportOptions o;
    o.max_nesting = ImportOptions::max_nesting_limit;
    std::string m = model_graph_last(WireWriter().bytes_field(proto::Graph::node, node).str());
    ImportError e = refusal_of([&] { import_model(m, o); });
    BOOST_TEST((e.kind() == ErrorKind::InvalidModel));
    BOOST_TEST(e.field_path() == path);
    // One level deeper than the limit allows is the reader's refusal.
    std::string deeper = model_graph_last(WireWriter().bytes_field(proto::Graph::node, if_around(node)).str());
    BOOST_TEST((refusal_of([&] { import_model(deeper, o); }).kind() == ErrorKind::Malformed));
}

// ---- Short buffers and corrupted bytes ------------------------------------------------

namespace {

/// A model touching most readers: typed and raw tensors, a sparse initializer, attributes
/// of several kinds, a subgraph, a function and training info.
std::string rich_model() {
    using A = proto::Attribute;
    using T = proto::Tensor;
    WireWriter sub = tb::minimal_graph();
    WireWriter node = tb::node("If", {"X"}, {"Z"}, "if0");
    node.message(proto::Node::attribute, tb::attr_graph("then_branch", sub))
        .message(proto::Node::attribute, tb::attr_int("axis", -1))
        .message(
            proto::Node::attribute,
            WireWriter().bytes_field(A::name, "fs").packed_varints(A::ints, {1, 2, 300}).float_field(A::floats, 0.5f))
        .message(proto::Node::attribute, tb::attr_tensor("value", WireWriter()
                                                                      .int_field(T::dims, 3)
                                                                      .int_field(T::data_type, 10)
                                                                      .packed_varints(T::int32_data, {1, 2, 3})));
    WireWriter sparse =
        WireWriter()
            .message(proto::SparseTensor::values, tb::tensor_raw("sv", 1, {1}, "abcd"))
            .message(proto::SparseTensor::indices,
                     WireWriter().int_field(T::dims, 1).int_field(T::data_type, 7).int_field(T::int64_data, 3))
            .int_field(proto::SparseTensor::dims, 8);
    WireWriter graph = tb::minimal_graph();
    graph.message(proto::Graph::node, node)
        .message(proto::Graph::initializer, tb::tensor_raw("W", 1, {2}, "abcdefgh"))
        .message(proto::Graph::initializer, WireWriter()
                                                .int_field(T::dims, 2)
                                                .int_field(T::data_type, 8)
                                                .bytes_field(T::string_data, "s0")
                                                .bytes_field(T::string_data, "s1")
                                                .bytes_field(T::name, "S"))
        .message(proto::Graph::sparse_initializer, sparse)
        .message(
            proto::Graph::value_info,
            WireWriter()
                .bytes_field(proto::ValueInfo::name, "Z")
                .message(proto::ValueInfo::type, WireWriter().message(proto::Type::sequence_type,
                                                                      WireWriter().message(proto::ElemType::elem_type,
                                                                                           tb::tensor_type(1, {1})))));
    WireWriter fn = WireWriter()
                        .bytes_field(proto::Function::name, "F")
                        .bytes_field(proto::Function::input, "a")
                        .bytes_field(proto::Function::output, "b")
                        .message(proto::Function::node, tb::node("Relu", {"a"}, {"b"}));
    return tb::model(graph)
        .message(proto::Model::functions, fn)
        .message(proto::Model::training_info,
                 WireWriter().message(proto::TrainingInfo::initialization,
                                      WireWriter().bytes_field(proto::Graph::name, "init")))
        .str();
}

/// Imports and, on refusal, checks that the offset lies inside the input.
void import_or_refuse_inside(const std::string& bytes) {
    try {
        import_model(bytes);
    } catch (const ImportError& e) {
        BOOST_TEST_INFO(e.what());
        BOOST_TEST((!e.offset() || *e.offset() <= bytes.size()));
        BOOST_TEST(e.field_path().rfind("ModelProto", 0) == 0u);
    }
}

}  // namespace

BOOST_AUTO_TEST_CASE(rich_model_is_accepted_whole) {
    std::string m = rich_model();
    auto model = import_model(m);
    BOOST_TEST(model.graph()->nodes.size() == 2u);
    BOOST_TEST(model.proto().functions.size() == 1u);
}

BOOST_AUTO_TEST_CASE(every_prefix_of_a_model_is_refused_or_accepted_within_the_input) {
    // Each prefix is a separate allocation so the sanitizers see a read past its end.
    const std::string m = rich_model();
    for (size_t n = 0; n < m.size(); ++n) {
        std::string prefix = m.substr(0, n);
        prefix.shrink_to_fit();
        BOOST_TEST_CONTEXT("prefix of " << n << " bytes") { import_or_refuse_inside(prefix); }
    }
}

BOOST_AUTO_TEST_CASE(every_single_byte_corruption_is_refused_or_accepted_within_the_input) {
    const std::string m = rich_model();
    for (size_t i = 0; i < m.size(); ++i) {
        for (char value : {'\x00', '\x7F', '\x80', '\xFF'}) {
            std::string bad = m;
            bad[i] = value;
            BOOST_TEST_CONTEXT("byte " << i << " set to " << int(static_cast<unsigned char>(value))) {
                import_or_refuse_inside(bad);
            }
        }
    }
}

// ---- Size -----------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(model_file_above_2_31_minus_1_bytes_is_unsupported) {
    // A sparse file costs no disk; the size is decided from fstat before anything is read.
    auto big = sparse_file(uint64_t{1} << 31, "big");
    ImportOptions o = parse_only();
    auto e = refusal_of([&] { import_file(big, o); });
    std::filesystem::remove(big);
    check_error(e, ErrorKind::Unsupported, std::nullopt, "");
    BOOST_TEST(e.source_name() == big.string());
}

BOOST_AUTO_TEST_CASE(model_file_of_exactly_2_31_minus_1_bytes_passes_the_size_check) {
    // Mapped (not read), so only the first page is touched: its zero byte is a key with
    // field 0, which proves the reader started.
    auto edge = sparse_file(0x7FFFFFFFu, "edge");
    ImportOptions o = parse_only();
    o.load_mode = LoadMode::Map;
    auto e = refusal_of([&] { import_file(edge, o); });
    std::filesystem::remove(edge);
    check_error(e, ErrorKind::Malformed, 0, "ModelProto");
}

BOOST_AUTO_TEST_CASE(byte_array_above_2_31_minus_1_bytes_is_unsupported) {
    // An untouched anonymous mapping stands in for a caller's 2 GiB array.
    const size_t size = size_t{1} << 31;
    void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    BOOST_REQUIRE(p != MAP_FAILED);
    std::span<const uint8_t> bytes(static_cast<const uint8_t*>(p), size);
    auto e = refusal_of([&] { import_bytes(bytes, "huge", parse_only()); });
    auto t = refusal_of([&] { onnximport::detail::import_tensor_bytes(bytes, "huge", parse_only()); });
    ::munmap(p, size);
    check_error(e, ErrorKind::Unsupported, std::nullopt, "");
    check_error(t, ErrorKind::Unsupported, std::nullopt, "");
}

BOOST_AUTO_TEST_SUITE_END()
