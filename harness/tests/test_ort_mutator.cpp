// Suite ort_mutator: fuzz_ort's structure-aware mutations (harness/fuzz/ort_mutate.hpp,
// docs/fuzzing.md, "Shared and aliased .ort objects"). The index finds each object of a built model
// once; a gap opened at any boundary leaves the model as it was; each sharing mutation makes the
// shape it names and keeps the buffer verifying; and chains of mutations reach shared shapes the
// walk accepts, with the walk's verdict held to the generated Verifier's (docs/rules.md O2), as
// fuzz_ort holds it.
#include <ort_builder.hpp>
#include <ort_mutate.hpp>

#include <onnximport/dump.hpp>
#include <onnximport/import.hpp>

#include <boost/test/unit_test.hpp>

#include <optional>
#include <sstream>
#include <string>
#include <vector>

using namespace onnximport;
namespace tb = onnximport::testing;
namespace fo = gauntlet_fuzz::ort;

namespace {

/// The oracle with the walk's own limits, as fuzz_ort and suite ort_verify raise them, or
/// with room for every table of a buffer that shares one level deep (grow's).
bool verifies(const std::vector<uint8_t>& b, bool capped = true) {
    flatbuffers::Verifier::Options limits;
    limits.max_depth = static_cast<flatbuffers::uoffset_t>(ImportOptions{}.max_nesting);
    limits.max_tables = capped ? static_cast<flatbuffers::uoffset_t>((16 * b.size() + (1u << 20)) / 32) : 1u << 26;
    flatbuffers::Verifier v(b.data(), b.size(), limits);
    return ortfb::VerifyInferenceSessionBuffer(v);
}

/// The dump of the walk's model, or the refusal.
std::string outcome(const std::vector<uint8_t>& b, std::optional<ImportError>* refusal = nullptr) {
    ImportOptions o;
    o.format = ModelFormat::Ort;
    o.load_external_data = false;
    o.resolve = false;  // the walk's verdict, as fuzz_ort's differential takes it
    try {
        std::ostringstream out;
        write_dump(import_bytes(std::span<const uint8_t>(b), "mutant.ort", o), out);
        return out.str();
    } catch (const ImportError& e) {
        if (refusal) *refusal = e;
        return std::string("refused: ") + e.what();
    }
}

/// Three nodes with edges, attributes of every list kind, a tensor and a subgraph, shaped
/// NodeArgs and three initializers: every kind of object the schema has several of.
tb::OrtModelSpec many_objects() {
    tb::OrtModelSpec m = tb::chain_model();
    m.graph.node_args = {{"X", 1, 1, std::vector<int64_t>{2, 3}}, {"T"}, {"Y"}, {"Z"}, {"U"}, {"V"}, {"W"}};
    m.graph.nodes.push_back({.name = "c", .index = 2, .inputs = {"Y", "U"}, .outputs = {"Z"}});
    m.graph.initializers = {{.name = "U", .dims = {2}, .raw = std::vector<uint8_t>(8, 1)},
                            {.name = "V", .dims = {1, 2}, .raw = std::vector<uint8_t>(8, 2)},
                            {.name = "W", .data_type = 7, .dims = {3}, .raw = std::vector<uint8_t>(24, 3)}};
    auto body = std::make_shared<tb::OrtGraphSpec>();
    body->node_args = {{"Q"}};
    body->outputs = {"Q"};
    body->initializers = {{.name = "Q", .dims = {1}, .raw = std::vector<uint8_t>(4, 4)}};
    tb::OrtAttributeSpec lists{.name = "lists", .type = 7, .ints = {1, 2, 3, 4, 5}};
    lists.floats = {0.5f, 1.5f};
    tb::OrtAttributeSpec strings{.name = "names", .type = 8, .strings = {"alpha", "beta", "gamma"}};
    tb::OrtAttributeSpec g{.name = "body", .type = 5};
    g.g = body;
    tb::OrtAttributeSpec t{.name = "value", .type = 4};
    t.t = std::make_shared<tb::OrtTensorSpec>(
        tb::OrtTensorSpec{.name = "v", .dims = {2}, .raw = std::vector<uint8_t>(8)});
    m.graph.nodes[0].attributes = {lists, strings};
    m.graph.nodes[1].attributes = {g, t};
    m.graph.edges.push_back({2, false, 1, 0, 0});
    return m;
}

const std::vector<uint8_t>& good() {
    static const std::vector<uint8_t> b = tb::build_ort(many_objects());
    return b;
}

/// Applies `m` with seeds 0..n-1 to the good model; calls `check` on each mutant it made.
template <class Check>
size_t each_mutant(fo::Mutation m, unsigned n, Check check) {
    size_t made = 0;
    for (unsigned seed = 0; seed < n; ++seed) {
        std::vector<uint8_t> b = good();
        b.resize(1 << 16);
        std::mt19937 rng(seed);
        const size_t size = m(b.data(), good().size(), b.size(), fo::index_of(good().data(), good().size()), rng);
        if (!size) continue;
        b.resize(size);
        ++made;
        BOOST_TEST_CONTEXT("seed " << seed) check(b);
    }
    return made;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ort_mutator)

BOOST_AUTO_TEST_CASE(the_index_finds_each_object_of_a_built_model_once) {
    BOOST_TEST_REQUIRE(verifies(good()));
    BOOST_TEST_REQUIRE(outcome(good()).rfind("refused", 0) != 0u);
    const fo::Index ix = fo::index_of(good().data(), good().size());
    BOOST_TEST(ix.complete);
    BOOST_TEST(ix.objects.size() > 100u);
    BOOST_TEST(ix.refs.size() + 1 > ix.objects.size());  // every object but the root is reached
    BOOST_TEST(ix.sharing().objects == 0u);  // the builder shares vtables, never objects
    BOOST_TEST(ix.overlapping() == 0u);
    for (const fo::Ref& r : ix.refs) BOOST_TEST(ix.find(r.target, r.type) != nullptr);
}

BOOST_AUTO_TEST_CASE(an_incomplete_index_marks_a_buffer_that_does_not_read) {
    std::vector<uint8_t> cut(good().begin(), good().begin() + static_cast<std::ptrdiff_t>(good().size() / 2));
    BOOST_TEST(!fo::index_of(cut.data(), cut.size()).complete);
}

BOOST_AUTO_TEST_CASE(a_gap_at_any_boundary_leaves_the_model_as_it_was) {
    const fo::Index ix = fo::index_of(good().data(), good().size());
    const std::string before = outcome(good());
    size_t gaps = 0;
    for (const fo::Object& o : ix.objects) {
        if (!ix.boundary(o.at)) continue;
        std::vector<uint8_t> b = good();
        b.resize(b.size() + 16);
        fo::open_gap(b.data(), good().size(), o.at, 16, ix);
        BOOST_TEST_CONTEXT("gap at " << o.at) {
            BOOST_TEST(verifies(b));
            BOOST_TEST(outcome(b) == before);
        }
        ++gaps;
    }
    BOOST_TEST(gaps > ix.objects.size() / 2);
}

BOOST_AUTO_TEST_CASE(retarget_shares_an_object_of_the_same_type) {
    size_t shared = 0;
    const size_t made = each_mutant(fo::retarget, 300, [&](const std::vector<uint8_t>& b) {
        BOOST_TEST(verifies(b));  // same type, forward: the layout stays valid
        shared += fo::index_of(b.data(), b.size()).sharing().objects >= 1;
    });
    BOOST_TEST(made > 250u);
    // The rest cut off the only other reference (Model.graph pointed at the subgraph).
    BOOST_TEST(shared > made * 9 / 10);
}

BOOST_AUTO_TEST_CASE(overlap_starts_an_object_inside_another) {
    size_t overlapping = 0;
    const size_t made = each_mutant(fo::overlap, 300, [&](const std::vector<uint8_t>& b) {
        BOOST_TEST(verifies(b));
        overlapping += fo::index_of(b.data(), b.size()).overlapping() >= 1;
    });
    BOOST_TEST(made > 250u);
    BOOST_TEST(overlapping > made / 2);  // the rest replaced the only reference to the object they cut
}

BOOST_AUTO_TEST_CASE(duplicate_points_entries_of_a_vector_at_one_object) {
    const size_t made = each_mutant(fo::duplicate, 300, [](const std::vector<uint8_t>& b) {
        BOOST_TEST(verifies(b));
        BOOST_TEST(fo::index_of(b.data(), b.size()).sharing().most >= 2u);
    });
    BOOST_TEST(made > 250u);
}

BOOST_AUTO_TEST_CASE(grow_inserts_many_references_and_the_buffer_still_verifies) {
    size_t most = 0;
    const size_t made = each_mutant(fo::grow, 300, [&](const std::vector<uint8_t>& b) {
        BOOST_TEST(verifies(b, false));  // capped, thousands of references to a subgraph exceed the walk's budget
        BOOST_TEST((b.size() > good().size() && (b.size() - good().size()) % 8 == 0));
        most = std::max(most, fo::index_of(b.data(), b.size()).sharing().most);
    });
    BOOST_TEST(made > 250u);
    BOOST_TEST(most > 1000u);  // thousands of entries on one object
}

BOOST_AUTO_TEST_CASE(chains_of_mutations_reach_shared_shapes_the_walk_accepts) {
    std::vector<uint8_t> b = good();
    size_t shared_accepted = 0, shared = 0;
    for (unsigned seed = 0; seed < 600; ++seed) {
        if (seed % 20 == 0) b = good();  // chains of up to 20 mutations
        std::vector<uint8_t> next = b;
        next.resize(1 << 16);
        std::mt19937 rng(seed);
        const size_t size = fo::mutate(next.data(), b.size(), next.size(), rng);
        if (!size) continue;
        next.resize(size);
        std::optional<ImportError> refusal;
        const bool accepted = outcome(next, &refusal).rfind("refused", 0) != 0;
        const bool oracle = verifies(next);
        BOOST_TEST_CONTEXT("seed " << seed << (refusal ? refusal->what() : "")) {
            BOOST_TEST(!(accepted && !oracle));
            BOOST_TEST(!(oracle && refusal && refusal->kind() == ErrorKind::Malformed));
        }
        const bool has_shared = fo::index_of(next.data(), next.size()).sharing().objects > 0;
        shared += has_shared;
        shared_accepted += has_shared && accepted;
        if (accepted) b = std::move(next);  // go on from a model: shapes pile up
    }
    BOOST_TEST_MESSAGE(shared << " mutants share, " << shared_accepted << " of them accepted");
    BOOST_TEST(shared > 100u);
    BOOST_TEST(shared_accepted > 10u);
}

BOOST_AUTO_TEST_SUITE_END()
