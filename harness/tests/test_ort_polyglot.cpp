// Suite ort_polyglot: one buffer that is a valid .ort (Add) and a valid .onnx (Sub) at once
// is refused unless the caller names the format (docs/rules.md O16, O1): ONNX Runtime picks
// the format by the file name, so the model `check` vetted need not be the one it runs.
#include "ort_verdicts.hpp"
#include "temp_tree.hpp"

#include <onnx_builders.hpp>
#include <ort_builder.hpp>

#include <onnximport/import.hpp>

#include <boost/test/unit_test.hpp>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

using namespace onnximport;
namespace tb = onnximport::testing;
namespace P = onnximport::proto;

namespace {

template <class T>
T read(const std::vector<uint8_t>& b, uint64_t at) {
    T v;
    std::memcpy(&v, b.data() + at, sizeof v);
    return v;
}
template <class T>
void put(std::vector<uint8_t>& b, uint64_t at, T v) {
    std::memcpy(b.data() + at, &v, sizeof v);
}

/// The protobuf start of the polyglot: ir_version 8 (08 08), then ir_version again as a
/// 64-bit field (09 and 8 bytes), which a .onnx reader skips for its wire type (W14), holding
/// 00 "ORTM" 00 00 00. So bytes 0..3 read as the root offset 0x00090808, and 4..7 are ORTM.
std::vector<uint8_t> onnx_head(const tb::WireWriter& fields) {
    uint64_t hidden;
    std::memcpy(&hidden, "\0ORTM\0\0\0", 8);
    const std::string head =
        tb::WireWriter().int_field(P::Model::ir_version, 8).fixed64_field(P::Model::ir_version, hidden).str() +
        fields.str();
    return {head.begin(), head.end()};
}

/// A copy of the .ort's root table at `root` of `out`, pointing where the original did once
/// everything moved by `shift` (its vtable then lies after it, which FlatBuffers allows).
void copy_root(const std::vector<uint8_t>& ort, std::vector<uint8_t>& out, uint32_t root, uint64_t shift) {
    const uint32_t r0 = read<uint32_t>(ort, 0);
    const uint32_t v0 = r0 - static_cast<uint32_t>(read<int32_t>(ort, r0));
    const uint16_t vsize = read<uint16_t>(ort, v0), tsize = read<uint16_t>(ort, v0 + 2);
    BOOST_TEST_REQUIRE(tsize < 64u);  // polyglot() leaves 64 bytes for it
    std::memcpy(out.data() + root, ort.data() + r0, tsize);
    put(out, root, static_cast<int32_t>(int64_t{root} - static_cast<int64_t>(v0 + shift)));
    for (uint32_t entry = 4; entry < vsize; entry += 2) {  // InferenceSession's fields are all uoffsets
        const uint16_t field = read<uint16_t>(ort, v0 + entry);
        if (!field) continue;
        const uint64_t target = r0 + field + read<uint32_t>(ort, r0 + field) + shift;
        put(out, root + field, static_cast<uint32_t>(target - (root + field)));
    }
}

/// `fields` of a ModelProto and the .ort `ort` in one buffer: after the fields, an unknown
/// field 9 (skipped by a .onnx reader) holds the rest of the buffer: the copy of the root
/// table at the root offset the first bytes give, then the .ort's bytes after its header,
/// moved by a multiple of 8 so that its scalars stay aligned.
std::vector<uint8_t> polyglot(const std::vector<uint8_t>& ort, const tb::WireWriter& fields) {
    std::vector<uint8_t> out = onnx_head(fields);
    const uint32_t root = read<uint32_t>(out, 0);
    const uint64_t block = (uint64_t{root} + 64 + 7) & ~uint64_t{7};  // the root table is under 64 bytes
    const uint64_t total = block + ort.size() - 8;
    size_t n = 1;  // the size of the hiding field's length varint
    while (tb::varint_size(total - (out.size() + 1 + n)) != n) ++n;
    const std::string hide = tb::WireWriter().key(9, 2).varint(total - (out.size() + 1 + n)).str();
    out.insert(out.end(), hide.begin(), hide.end());
    BOOST_TEST_REQUIRE(out.size() <= root);
    out.resize(total, 0);
    std::memcpy(out.data() + block, ort.data() + 8, ort.size() - 8);
    copy_root(ort, out, root, block - 8);
    return out;
}

/// Z = Add(X, Y) as .ort, C = Sub(A, B) as .onnx fields, one buffer.
std::vector<uint8_t> add_and_sub() {
    tb::OrtModelSpec ort = tb::relu_model();
    ort.graph.node_args = {{"X"}, {"Y"}, {"Z"}};
    ort.graph.inputs = {"X", "Y"};
    ort.graph.outputs = {"Z"};
    ort.graph.initializers.clear();
    ort.graph.nodes = {{.name = "add", .op_type = "Add", .index = 0, .inputs = {"X", "Y"}, .outputs = {"Z"}}};
    const tb::WireWriter graph = tb::WireWriter()
                                     .message(P::Graph::node, tb::node("Sub", {"A", "B"}, {"C"}, "sub"))
                                     .message(P::Graph::input, tb::value_info("A"))
                                     .message(P::Graph::input, tb::value_info("B"))
                                     .message(P::Graph::output, tb::value_info("C"));
    const tb::WireWriter fields =
        tb::WireWriter().message(P::Model::graph, graph).message(P::Model::opset_import, tb::opset("", 17));
    return polyglot(tb::build_ort(ort), fields);
}

std::string op_of(const std::vector<uint8_t>& b, ModelFormat format) {
    ImportOptions o;
    o.format = format;
    const Model m = import_bytes(std::span<const uint8_t>(b), "polyglot", o);
    return std::string(m.graph()->nodes.at(0).op_type);
}

void expect_o16(const std::optional<ImportError>& e) {
    BOOST_TEST_REQUIRE(e.has_value());
    BOOST_TEST_INFO(e->what());
    BOOST_TEST((e->kind() == ErrorKind::InvalidModel));
    BOOST_TEST(e->field_path() == "InferenceSession");
    BOOST_TEST(std::string(e->what()).find("rule O16") != std::string::npos);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ort_polyglot)

BOOST_AUTO_TEST_CASE(a_buffer_valid_as_ort_and_as_onnx_is_read_only_as_the_format_named) {
    const std::vector<uint8_t> b = add_and_sub();
    BOOST_TEST_MESSAGE("ort_polyglot: " << b.size() << " bytes");
    BOOST_TEST_REQUIRE(std::memcmp(b.data() + 4, "ORTM", 4) == 0);
    BOOST_TEST_REQUIRE(ort_test::generated_verifies(b));  // a .ort by FlatBuffers' own Verifier
    BOOST_TEST(op_of(b, ModelFormat::Ort) == "Add");
    BOOST_TEST(op_of(b, ModelFormat::Onnx) == "Sub");
    expect_o16(ort_test::refusal(b, ModelFormat::Auto));
}

BOOST_AUTO_TEST_CASE(the_file_name_does_not_choose_the_format) {
    const std::vector<uint8_t> b = add_and_sub();
    temp_tree::Tree tree;
    for (const char* name : {"model.onnx", "model.ort"}) {
        BOOST_TEST_CONTEXT(name) {
            const auto path = tree.model(std::string(b.begin(), b.end()), name);
            std::optional<ImportError> e;
            try {
                import_file(path);
            } catch (const ImportError& refused) {
                e = refused;
            }
            expect_o16(e);
        }
    }
}

BOOST_AUTO_TEST_CASE(a_polyglot_whose_ort_half_is_broken_is_read_as_its_onnx) {
    std::vector<uint8_t> b = add_and_sub();
    const uint32_t root = read<uint32_t>(b, 0);
    put<int32_t>(b, root, 0x7fffffff);  // the root table's vtable outside: no .ort
    BOOST_TEST(!ort_test::refusal(b, ModelFormat::Auto).has_value());
    BOOST_TEST(op_of(b, ModelFormat::Auto) == "Sub");
}

BOOST_AUTO_TEST_SUITE_END()
