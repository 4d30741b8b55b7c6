// Suite ort_verify: our verification of a .ort buffer (importer/src/ort/verify.cpp), which
// spells out the path to the main graph's initializers to drop their pages on the way,
// decides exactly as FlatBuffers' generated Verifier, on the fuzz_ort corpus, on every
// one-byte change of a built model and under tight table and depth limits.
#include "ort/reader.hpp"

#include <ort_builder.hpp>

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace onnximport;
namespace tb = onnximport::testing;

namespace {

bool generated_verifies(const std::vector<uint8_t>& b, const ImportOptions& o) {
    flatbuffers::Verifier::Options limits;
    limits.max_depth = o.ort_max_depth;
    limits.max_tables = o.ort_max_tables;
    limits.check_alignment = o.ort_check_alignment;
    flatbuffers::Verifier v(b.data(), b.size(), limits);
    return ortfb::VerifyInferenceSessionBuffer(v);
}

bool ours_verifies(const std::vector<uint8_t>& b, const ImportOptions& o) {
    const auto input = detail::ModelInput::borrow(b, "verify.ort");
    return detail::ort_buffer_verifies(input, o);
}

/// Two initializers, a node with a tensor attribute and a subgraph: every table kind the
/// spelled-out path passes or hands to the generated code.
tb::OrtModelSpec rich_model() {
    tb::OrtModelSpec m = tb::relu_model();
    m.graph.initializers.push_back({.name = "B", .data_type = 7, .dims = {1}, .raw = std::vector<uint8_t>(8, 1)});
    auto body = std::make_shared<tb::OrtGraphSpec>();
    body->node_args = {{"Z"}};
    body->outputs = {"Z"};
    body->initializers = {{.name = "Z", .data_type = 1, .dims = {1}, .raw = std::vector<uint8_t>(4, 2)}};
    tb::OrtAttributeSpec g{.name = "then_branch", .type = 5};
    g.g = body;
    tb::OrtAttributeSpec t{.name = "value", .type = 4};
    t.t = std::make_shared<tb::OrtTensorSpec>(
        tb::OrtTensorSpec{.name = "v", .dims = {1}, .raw = std::vector<uint8_t>(4, 3)});
    m.graph.nodes[0].attributes = {g, t};
    return m;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ort_verify)

BOOST_AUTO_TEST_CASE(decides_as_the_generated_verifier_on_the_fuzz_ort_corpus) {
    const auto dir = std::filesystem::path(GAUNTLET_SOURCE_DIR) / "corpus" / "fuzz_ort";
    size_t files = 0, verified = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        std::ifstream in(entry.path(), std::ios::binary);
        const std::vector<uint8_t> b((std::istreambuf_iterator<char>(in)), {});
        const bool expected = generated_verifies(b, {});
        BOOST_TEST_INFO(entry.path().filename().string());
        BOOST_TEST(ours_verifies(b, {}) == expected);
        ++files;
        verified += expected;
    }
    // Both verdicts must be exercised for the comparison to mean anything.
    BOOST_TEST(files > 100u);
    BOOST_TEST(verified > 10u);
    BOOST_TEST(files - verified > 10u);
}

BOOST_AUTO_TEST_CASE(decides_as_the_generated_verifier_on_every_one_byte_change) {
    const auto good = tb::build_ort(rich_model());
    BOOST_TEST_REQUIRE(generated_verifies(good, {}));
    BOOST_TEST(ours_verifies(good, {}));
    size_t refused = 0;
    for (size_t i = 0; i < good.size(); ++i)
        for (uint8_t value : {uint8_t{0}, uint8_t{0xFF}, static_cast<uint8_t>(good[i] + 4)}) {
            auto b = good;
            b[i] = value;
            const bool expected = generated_verifies(b, {});
            BOOST_TEST_INFO("byte " << i << " set to " << int{value});
            BOOST_TEST(ours_verifies(b, {}) == expected);
            refused += !expected;
        }
    BOOST_TEST(refused > good.size() / 4);
}

BOOST_AUTO_TEST_CASE(decides_as_the_generated_verifier_under_every_table_and_depth_limit) {
    const auto b = tb::build_ort(rich_model());
    for (uint32_t tables = 1; tables <= 40; ++tables)
        for (uint32_t depth = 1; depth <= 8; ++depth) {
            ImportOptions o;
            o.ort_max_tables = tables;
            o.ort_max_depth = depth;
            BOOST_TEST_INFO("tables " << tables << ", depth " << depth);
            BOOST_TEST(ours_verifies(b, o) == generated_verifies(b, o));
        }
    ImportOptions tight;
    tight.ort_max_tables = 3;
    BOOST_TEST(!ours_verifies(b, tight));  // the limits reach the spelled-out path
}

BOOST_AUTO_TEST_SUITE_END()
