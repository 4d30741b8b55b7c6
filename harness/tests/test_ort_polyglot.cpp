// Suite ort_polyglot: one buffer that is a valid .ort (Add) and a valid .onnx (Sub) at once
// (harness/support/ort_polyglot.hpp) is refused unless the caller names the format
// (docs/rules.md O16, O1): ONNX Runtime picks the format by the file name, so the model
// `check` vetted need not be the one it runs.
#include "ort_verdicts.hpp"
#include "temp_tree.hpp"

#include <ort_polyglot.hpp>

#include <onnximport/import.hpp>

#include <boost/test/unit_test.hpp>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

using namespace onnximport;
namespace tb = onnximport::testing;

namespace {

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
    BOOST_TEST((e->offset() == uint64_t{4}));  // the identifier ORTM
    BOOST_TEST(std::string(e->what()).find("rule O16") != std::string::npos);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ort_polyglot)

BOOST_AUTO_TEST_CASE(a_buffer_valid_as_ort_and_as_onnx_is_read_only_as_the_format_named) {
    const std::vector<uint8_t> b = tb::add_and_sub_polyglot();
    BOOST_TEST_MESSAGE("ort_polyglot: " << b.size() << " bytes");
    BOOST_TEST_REQUIRE(std::memcmp(b.data() + 4, "ORTM", 4) == 0);
    BOOST_TEST_REQUIRE(ort_test::generated_verifies(b));  // a .ort by FlatBuffers' own Verifier
    BOOST_TEST(op_of(b, ModelFormat::Ort) == "Add");
    BOOST_TEST(op_of(b, ModelFormat::Onnx) == "Sub");
    expect_o16(ort_test::refusal(b, ModelFormat::Auto));
}

BOOST_AUTO_TEST_CASE(the_file_name_does_not_choose_the_format) {
    const std::vector<uint8_t> b = tb::add_and_sub_polyglot();
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
    std::vector<uint8_t> b = tb::add_and_sub_polyglot();
    uint32_t root;
    std::memcpy(&root, b.data(), 4);
    const int32_t outside = 0x7fffffff;  // the root table's vtable far before the buffer: no .ort
    std::memcpy(b.data() + root, &outside, 4);
    BOOST_TEST(!ort_test::refusal(b, ModelFormat::Auto).has_value());
    BOOST_TEST(op_of(b, ModelFormat::Auto) == "Sub");
}

BOOST_AUTO_TEST_SUITE_END()
