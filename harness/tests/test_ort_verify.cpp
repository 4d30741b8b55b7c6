// Suite ort_verify: the .ort walk's structural verdict (importer/src/ort/buffer.hpp) against
// FlatBuffers' generated Verifier, the oracle of structure, with its limits raised to ours
// (depth max_nesting, no table cap): what it accepts we never call Malformed, and what we
// accept it accepts (docs/rules.md O2). And every refusal is located: an offset inside the
// buffer and a path from InferenceSession. Mutants: the fuzz_ort corpus, every one-byte
// change and every truncation of a built model, and every offset pointed at every object.
#include "ort_verdicts.hpp"

#include <ort_builder.hpp>

#include <onnximport/import.hpp>

#include <boost/test/unit_test.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

using namespace onnximport;
using namespace ort_test;
namespace tb = onnximport::testing;

namespace {

struct Tally {
    size_t mutants = 0, refused = 0, malformed = 0;
};

/// One mutant: the two verdicts agree as rule O2 says, and a refusal is located.
void judge(const std::vector<uint8_t>& b, Tally& tally) {
    const bool oracle = generated_verifies(b);
    const std::optional<ImportError> e = refusal(b);
    ++tally.mutants;
    if (!e) {
        BOOST_TEST(oracle);  // we accept only what the oracle accepts
        return;
    }
    ++tally.refused;
    tally.malformed += e->kind() == ErrorKind::Malformed;
    BOOST_TEST_INFO("refusal: " << e->what());
    BOOST_TEST(!(oracle && e->kind() == ErrorKind::Malformed));  // never Malformed where the oracle accepts
    BOOST_TEST_INFO("refusal: " << e->what());
    BOOST_TEST(e->field_path().rfind("InferenceSession", 0) == 0u);
    if (b.size() < 12 || e->field_path() == "InferenceSession.root") return;  // the header itself
    BOOST_TEST_INFO("refusal: " << e->what());
    BOOST_TEST((e->offset() && *e->offset() > 0 && *e->offset() < b.size()));
}

/// Two initializers, a node with a tensor attribute and a subgraph, a typed NodeArg.
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

BOOST_AUTO_TEST_CASE(agrees_with_the_oracle_on_the_fuzz_ort_corpus) {
    const auto dir = std::filesystem::path(GAUNTLET_SOURCE_DIR) / "corpus" / "fuzz_ort";
    Tally tally;
    size_t verified = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        std::ifstream in(entry.path(), std::ios::binary);
        const std::vector<uint8_t> b((std::istreambuf_iterator<char>(in)), {});
        BOOST_TEST_CONTEXT(entry.path().filename().string()) judge(b, tally);
        verified += generated_verifies(b);
    }
    // Both verdicts must be exercised for the comparison to mean anything.
    BOOST_TEST(tally.mutants > 100u);
    BOOST_TEST(verified > 10u);
    BOOST_TEST(tally.malformed > 10u);
}

BOOST_AUTO_TEST_CASE(agrees_and_locates_on_every_one_byte_change_and_truncation) {
    const auto good = tb::build_ort(rich_model());
    BOOST_TEST_REQUIRE(generated_verifies(good));
    BOOST_TEST_REQUIRE(!refusal(good));
    Tally tally;
    for (size_t i = 0; i < good.size(); ++i)
        for (uint8_t value : {uint8_t{0}, uint8_t{0xFF}, static_cast<uint8_t>(good[i] + 4)}) {
            auto b = good;
            b[i] = value;
            BOOST_TEST_CONTEXT("byte " << i << " set to " << int{value}) judge(b, tally);
        }
    for (size_t n = 0; n < good.size(); ++n) {
        const std::vector<uint8_t> cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n));
        BOOST_TEST_CONTEXT("cut to " << n << " bytes") judge(cut, tally);
    }
    BOOST_TEST(tally.malformed > good.size());
}

BOOST_AUTO_TEST_CASE(agrees_and_locates_when_any_offset_points_at_any_object) {
    const auto good = tb::build_ort(rich_model());
    // Every 4-aligned word that reads as an offset to a place inside the buffer, pointed
    // at every 4-aligned place: shared tables, strings read as tables, vectors overlapping.
    Tally tally;
    for (uint32_t slot = 8; slot + 4 <= good.size(); slot += 4) {
        uint32_t offset;
        std::memcpy(&offset, good.data() + slot, 4);
        if (offset == 0 || slot + uint64_t{offset} >= good.size()) continue;
        for (uint32_t to = 4; to < good.size(); to += 4) {
            if (to == slot) continue;
            auto b = good;
            const uint32_t rewritten = to - slot;  // a forward or (wrapped) backward offset
            std::memcpy(b.data() + slot, &rewritten, 4);
            BOOST_TEST_CONTEXT("offset at " << slot << " pointed at " << to) judge(b, tally);
        }
    }
    BOOST_TEST(tally.mutants > 5000u);
    BOOST_TEST(tally.refused > tally.mutants / 2);
}

BOOST_AUTO_TEST_SUITE_END()
