// Suite proto_mutator: the .onnx fuzz targets' structure-aware mutations (harness/fuzz/
// proto_mutate.hpp, docs/fuzzing.md "What the mutator costs"). The flat tree writes back what
// it parsed and refuses what is not a message; its copies carry whole subtrees; mutations
// that are not byte-level write messages that parse again and never exceed their room; and
// a crossover grafts a field of the second input into the first.
#include <onnx_builders.hpp>
#include <proto_mutate.hpp>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace tb = onnximport::testing;
namespace fp = gauntlet_fuzz::proto;

namespace {

std::vector<uint8_t> bytes_of(const std::string& s) { return {s.begin(), s.end()}; }

/// A graph with nested messages (node, attribute, tensor), leaves (names, raw data),
/// varints and a fixed32 (a float attribute).
tb::WireWriter graph() {
    using namespace onnximport::proto;
    auto node = tb::node("Relu", {"X"}, {"Y"}, "n0");
    node.message(Node::attribute,
                 tb::WireWriter().bytes_field(Attribute::name, "alpha").float_field(Attribute::f, 0.5f));
    return tb::WireWriter()
        .message(Graph::node, node)
        .message(Graph::initializer, tb::tensor_raw("W", 1, {2}, "\x01\x02\x03\x04\x05\x06\x07\x08"))
        .bytes_field(Graph::name, "g")
        .message(Graph::input, tb::value_info("X"))
        .message(Graph::output, tb::value_info("Y"));
}

/// A model of every wire type: the graph above and a fixed64 field.
std::vector<uint8_t> model_bytes() {
    auto model = tb::model(graph());
    model.fixed64_field(onnximport::proto::Model::model_version, 0x0123456789ABCDEFull);
    return bytes_of(model.str());
}

/// The first field numbered `number` in the list from `first`.
int32_t field_numbered(const fp::Tree& t, int32_t first, uint32_t number) {
    for (int32_t f = first; f != fp::none; f = t.fields[size_t(f)].next)
        if (t.fields[size_t(f)].number == number) return f;
    return fp::none;
}

/// Parses, or fails the test.
int32_t parsed(fp::Tree& t, const std::vector<uint8_t>& b) {
    int32_t root = fp::none;
    BOOST_REQUIRE(t.parse(b.data(), b.size(), root));
    return root;
}

std::vector<uint8_t> written(fp::Tree& t, int32_t root) {
    std::vector<uint8_t> out(t.encoded_size(root));
    BOOST_REQUIRE(t.write(root, out.data()) == out.data() + out.size());
    return out;
}

/// The byte mutator's stand-in: flips the middle byte and grows by one where it may; counts
/// the calls made on the whole input (the byte-level path) apart from those on a payload.
struct ByteMutatorLog {
    static inline const uint8_t* whole_input = nullptr;
    static inline size_t whole_calls = 0, payload_calls = 0;
    static size_t mutate(uint8_t* data, size_t size, size_t max_size) {
        ++(data == whole_input ? whole_calls : payload_calls);
        if (size > 0) data[size / 2] ^= 0x55;
        if (size < max_size) data[size++] = 'z';
        return size;
    }
};

bool contains(const std::vector<uint8_t>& b, const std::string& s) {
    return std::search(b.begin(), b.end(), s.begin(), s.end()) != b.end();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(proto_mutator)

BOOST_AUTO_TEST_CASE(a_parsed_message_writes_back_byte_for_byte) {
    const auto b = model_bytes();
    fp::Tree t;
    const int32_t root = parsed(t, b);
    BOOST_TEST(written(t, root) == b, boost::test_tools::per_element());
    // The graph (field 7) is a message down to the float attribute; the producer name a leaf.
    const int32_t graph_field = field_numbered(t, root, 7), producer = field_numbered(t, root, 2);
    BOOST_REQUIRE(graph_field != fp::none && producer != fp::none);
    BOOST_TEST(t.fields[size_t(graph_field)].is_message);
    BOOST_TEST(!t.fields[size_t(producer)].is_message);
    BOOST_TEST(t.fields[size_t(producer)].payload_size == std::string("onnx-gauntlet").size());
    std::vector<fp::Site> sites;
    std::vector<fp::ListRef> lists;
    t.collect(root, {}, sites, lists);
    bool fixed32 = false;
    for (const auto& s : sites) fixed32 |= t.fields[size_t(s.field)].wire == 5;
    BOOST_TEST(fixed32);  // reached inside graph -> node -> attribute
}

BOOST_AUTO_TEST_CASE(bytes_that_are_not_a_message_are_refused) {
    const std::vector<std::vector<uint8_t>> bad = {
        {0x08},             // a key without its varint
        {0x08, 0x80},       // a varint cut off
        {0x0A, 0x05, 'a'},  // a length beyond the end
        {0x0B},             // wire type 3 (a group)
        {0x00, 0x01},       // field number 0
        {0x0D, 1, 2, 3},    // a fixed32 cut off
    };
    for (const auto& b : bad) {
        fp::Tree t;
        int32_t root;
        BOOST_TEST(!t.parse(b.data(), b.size(), root));
    }
    std::vector<uint8_t> many;
    for (size_t i = 0; i <= fp::Tree::max_fields; ++i) many.insert(many.end(), {0x08, 0x01});
    fp::Tree t;
    int32_t root;
    BOOST_TEST(!t.parse(many.data(), many.size(), root));
    many.resize(2 * fp::Tree::max_fields);
    BOOST_TEST(t.parse(many.data(), many.size(), root));
}

BOOST_AUTO_TEST_CASE(a_copy_carries_the_whole_subtree_and_the_original_stays) {
    const auto b = model_bytes();
    fp::Tree t;
    int32_t root = parsed(t, b);
    const int32_t original = field_numbered(t, root, 7);
    const int32_t copy = t.copy(original);
    // No field is shared: an edit of the copy's subtree cannot reach the original's.
    std::vector<fp::Site> in_original, in_copy;
    std::vector<fp::ListRef> lists;
    t.collect(t.fields[size_t(original)].first_child, {original}, in_original, lists);
    t.collect(t.fields[size_t(copy)].first_child, {copy}, in_copy, lists);
    BOOST_TEST(in_copy.size() == in_original.size());
    for (const auto& c : in_copy)
        for (const auto& o : in_original) BOOST_TEST_REQUIRE(c.field != o.field);
    t.fields[size_t(copy)].number = 20;  // renumbered: the original keeps its number
    t.link_after(root, t.before(root, t.length(root)), copy);
    std::vector<uint8_t> expected = b;
    const auto copied = bytes_of(tb::WireWriter().message(onnximport::proto::Model::training_info, graph()).str());
    expected.insert(expected.end(), copied.begin(), copied.end());
    BOOST_TEST(written(t, root) == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(structured_mutations_write_messages_that_parse_again_within_their_room) {
    const auto b = model_bytes();
    fp::Mutator m(ByteMutatorLog::mutate);
    size_t structured = 0, grew = 0, shrank = 0, payloads_before = ByteMutatorLog::payload_calls;
    for (unsigned seed = 1; seed <= 3000; ++seed) {
        for (const size_t room : {size_t{65536}, b.size()}) {
            std::vector<uint8_t> data = b;
            data.resize(room);
            ByteMutatorLog::whole_input = data.data();
            const size_t whole_before = ByteMutatorLog::whole_calls;
            const size_t n = m.mutate(data.data(), b.size(), room, seed);
            BOOST_REQUIRE(n <= room);
            if (ByteMutatorLog::whole_calls != whole_before) continue;  // the byte-level path
            ++structured;
            data.resize(n);
            fp::Tree again;
            int32_t root;
            BOOST_REQUIRE_MESSAGE(again.parse(data.data(), data.size(), root), "seed " << seed);
            grew += n > b.size();
            shrank += n < b.size();
        }
    }
    // Most mutations are structured (4 in 5 before falling back); they add and drop fields
    // and mutate payloads with the byte mutator.
    BOOST_TEST(structured > 3000u);
    BOOST_TEST(grew > 500u);
    BOOST_TEST(shrank > 500u);
    BOOST_TEST(ByteMutatorLog::payload_calls - payloads_before > 100u);
}

BOOST_AUTO_TEST_CASE(a_crossover_grafts_a_field_of_the_second_input_into_the_first) {
    const auto a = model_bytes();
    const auto b = bytes_of(tb::WireWriter().bytes_field(onnximport::proto::Model::doc_string, "GRAFTED-DOC").str());
    fp::Mutator m(ByteMutatorLog::mutate);
    for (unsigned seed = 1; seed <= 200; ++seed) {
        std::vector<uint8_t> out(65536);
        const size_t n = m.cross_over(a.data(), a.size(), b.data(), b.size(), out.data(), out.size(), seed);
        out.resize(n);
        BOOST_TEST(n >= a.size() + b.size());
        BOOST_TEST(contains(out, "GRAFTED-DOC"));
        fp::Tree t;
        int32_t root;
        BOOST_TEST(t.parse(out.data(), out.size(), root));
    }
    // Cut to the room it has.
    std::vector<uint8_t> small(a.size());
    BOOST_TEST(m.cross_over(a.data(), a.size(), b.data(), b.size(), small.data(), small.size(), 7) == a.size());
}

BOOST_AUTO_TEST_CASE(a_crossover_with_bytes_that_are_not_a_message_splices_them) {
    const auto a = model_bytes();
    const std::vector<uint8_t> b = {0x0B, 'n', 'o', 't', ' ', 'w', 'i', 'r', 'e'};  // wire type 3
    fp::Mutator m(ByteMutatorLog::mutate);
    for (unsigned seed = 1; seed <= 50; ++seed) {
        std::vector<uint8_t> out(65536);
        const size_t n = m.cross_over(a.data(), a.size(), b.data(), b.size(), out.data(), out.size(), seed);
        // A prefix of a, then a suffix of b: some cut k of a matches with the rest from b.
        bool found = false;
        for (size_t k = 0; k <= std::min(n, a.size()) && !found; ++k)
            found = std::equal(out.begin(), out.begin() + long(k), a.begin()) && n - k <= b.size() &&
                    std::equal(out.begin() + long(k), out.begin() + long(n), b.end() - long(n - k));
        BOOST_TEST(found, "seed " << seed);
    }
}

BOOST_AUTO_TEST_SUITE_END()
