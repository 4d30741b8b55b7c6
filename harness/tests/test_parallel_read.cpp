// A large graph read by two threads (ImportOptions::parallel_read, onnx/parallel_graph.hpp):
// the model and any refusal are those of a read by one thread.
#include "core_support.hpp"

#include "storage.hpp"

#include <onnximport/dump.hpp>

#include <boost/test/unit_test.hpp>

#include <set>
#include <sstream>
#include <string>

using namespace onnximport;
using namespace onnximport::testing;
using namespace core_test;

namespace {

constexpr int nodes = 12000;  // above min_parallel_nodes

std::string v(int i) { return "v" + std::to_string(i); }

/// v(i) = Gemm(v(i-1), v(i/2)), with attributes of several kinds spread over the nodes
/// (a subgraph that captures an outer value, a tensor with a typed field), then the
/// value_info, then a second run of nodes. `bad` names nodes whose name is not UTF-8.
std::string wide_model(const std::set<int>& bad = {}) {
    WireWriter g;
    for (int i = 1; i <= nodes; ++i) {
        WireWriter n = node("Gemm", {v(i - 1), v(i / 2)}, {v(i)}, bad.count(i) ? "\xff" : "n" + std::to_string(i));
        n.message(5, attr_int("transB", i & 1));
        if (i % 997 == 0) {
            WireWriter body;
            body.message(1, node("Identity", {v(i - 1)}, {"inner" + std::to_string(i)}));
            body.message(12, value_info("inner" + std::to_string(i)));
            n.message(5, attr_graph("body", body));
        }
        if (i % 1499 == 0) {
            WireWriter t;  // dims [2], FLOAT, two float_data values: converted into an owned buffer
            t.int_field(1, 2).int_field(2, 1).bytes_field(8, "c" + std::to_string(i));
            t.float_field(4, 1.5f).float_field(4, -2.0f);
            n.message(5, attr_tensor("value", t));
        }
        g.message(1, n);
    }
    g.bytes_field(2, "wide").message(11, value_info(v(0)));
    for (int i = 1; i <= nodes; ++i) g.message(13, value_info(v(i), 1, {4, 4}));
    for (int i = nodes + 1; i <= nodes + 10; ++i) g.message(1, node("Relu", {v(i - 1)}, {v(i)}));
    g.message(12, value_info(v(nodes + 10)));
    return model(g).str();
}

ImportOptions with_threads(bool parallel) {
    ImportOptions o;
    o.parallel_read = parallel;
    return o;
}

std::string dump_of(const Model& m) {
    std::ostringstream out;
    write_dump(m, out);
    return out.str();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(parallel_read)

BOOST_AUTO_TEST_CASE(a_graph_read_by_two_threads_is_the_graph_read_by_one) {
    const std::string bytes = wide_model();
    auto two = import_model(bytes, with_threads(true));
    auto one = import_model(bytes, with_threads(false));
    BOOST_TEST(two.storage().helper_heaps.size() == 1u);  // the helper did run
    BOOST_TEST(one.storage().helper_heaps.empty());
    BOOST_TEST(two.graph->nodes.size() == size_t{nodes} + 10);
    BOOST_TEST(two.graph->node_input_count == one.graph->node_input_count);
    BOOST_TEST((dump_of(two) == dump_of(one)));
    // Parse only: the same lists as read, before resolution reorders anything.
    ImportOptions parse = parse_only();
    auto two_parsed = import_model(bytes, parse);
    parse.parallel_read = false;
    auto one_parsed = import_model(bytes, parse);
    BOOST_TEST(two_parsed.storage().helper_heaps.size() == 1u);
    BOOST_TEST((dump_of(two_parsed) == dump_of(one_parsed)));
}

BOOST_AUTO_TEST_CASE(small_graphs_are_read_by_one_thread) {
    WireWriter g;
    for (int i = 1; i < 4000; ++i) g.message(1, node("Relu", {v(i - 1)}, {v(i)}));
    g.message(11, value_info(v(0))).message(12, value_info(v(3999)));
    auto m = import_model(model(g).str(), with_threads(true));
    BOOST_TEST(m.storage().helper_heaps.empty());
}

BOOST_AUTO_TEST_CASE(a_refusal_is_the_one_a_single_thread_gives) {
    // A bad node in the importing thread's part (the first half of the bytes), in the
    // helper's (the second), in both (the first wins).
    for (const std::set<int>& bad : {std::set<int>{100}, std::set<int>{nodes - 100}, std::set<int>{100, nodes - 100},
                                     std::set<int>{nodes / 2, nodes - 1}}) {
        const std::string bytes = wide_model(bad);
        const ImportError two = refusal_of([&] { import_model(bytes, with_threads(true)); });
        const ImportError one = refusal_of([&] { import_model(bytes, with_threads(false)); });
        BOOST_TEST_INFO("first bad node " << *bad.begin() << ": " << two.what());
        BOOST_TEST(std::string(two.what()) == std::string(one.what()));
        BOOST_TEST((two.offset() == one.offset()));
        BOOST_TEST(two.field_path() == "ModelProto.graph.node[" + std::to_string(*bad.begin() - 1) + "].name");
    }
}

BOOST_AUTO_TEST_SUITE_END()
