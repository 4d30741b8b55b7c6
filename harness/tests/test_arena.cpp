// The model's memory (spec section 6, "Importing therefore allocates only the graph
// itself"): the arena, the Lists filled from it, and what an import asks of the heap.
#include "core_support.hpp"

#include "core/arena.hpp"
#include "model/access.hpp"

#include <numbered.hpp>
#include <onnximport/dump.hpp>
#include <onnximport/workspace.hpp>

#include <boost/test/unit_test.hpp>

#include <sanitizers.hpp>
#ifdef GAUNTLET_ASAN
#include <sanitizer/asan_interface.h>
#endif
#include <valgrind/memcheck.h>

#include <cstdint>
#include <sstream>
#include <string>

using namespace onnximport;
using namespace onnximport::detail;
using namespace onnximport::testing;
using namespace core_test;

namespace {

/// A chain of n Relu nodes with a value_info each: the shape of a large graph.
std::string chain_model(int n) {
    using G = proto::Graph;
    WireWriter g;
    for (int i = 0; i < n; ++i) g.message(G::node, node("Relu", {numbered("c", i)}, {numbered("c", i + 1)}));
    g.bytes_field(G::name, "chain")
        .message(G::input, value_info("c0"))
        .message(G::output, value_info(numbered("c", n)));
    for (int i = 1; i < n; ++i) g.message(G::value_info, value_info(numbered("c", i)));
    return model(g).str();
}

/// Gemm nodes with four attributes each over a chain: other objects in other places than
/// chain_model's, so that reused blocks hold something else where this model's objects go.
std::string gemm_model(int n) {
    using G = proto::Graph;
    using A = proto::Attribute;
    WireWriter g;
    for (int i = 0; i < n; ++i) {
        WireWriter nd = node("Gemm", {numbered("g", i)}, {numbered("g", i + 1)});
        nd.message(proto::Node::attribute,
                   WireWriter().bytes_field(A::name, "alpha").float_field(A::f, 1.0f).int_field(A::type, 1));
        nd.message(proto::Node::attribute,
                   WireWriter().bytes_field(A::name, "transB").int_field(A::i, i & 1).int_field(A::type, 2));
        g.message(G::node, nd);
    }
    g.bytes_field(G::name, "gemm").message(G::input, value_info("g0")).message(G::output, value_info(numbered("g", n)));
    return model(g).str();
}

std::string dump_of(const Model& m) {
    std::ostringstream out;
    write_dump(m, out);
    return out.str();
}

/// Whether memcheck counts the bytes of *p as addressable (querying raises no error).
template <class T>
bool addressable_under_valgrind(const T* p) {
    char vbits[sizeof(T)];
    return VALGRIND_GET_VBITS(p, vbits, sizeof(T)) == 1;
}

boost::test_tools::assertion_result running_on_valgrind(boost::unit_test::test_unit_id) {
    boost::test_tools::assertion_result on(RUNNING_ON_VALGRIND != 0);
    on.message() << "skipped: not running under valgrind (ctest -L valgrind runs it)";
    return on;
}

const Arena& arena_of(Model& m) { return onnximport::detail::ModelAccess::storage(m).arena; }
/// Both arenas of a Model: the objects and the node edges (model/storage.hpp).
size_t reserved_by(Model& m) {
    return arena_of(m).reserved() + onnximport::detail::ModelAccess::storage(m).node_edges.reserved();
}

ImportOptions with(Workspace& ws) {
    ImportOptions o;
    o.workspace = &ws;
    return o;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(arena)

BOOST_AUTO_TEST_CASE(a_list_keeps_its_elements_in_order_across_growth) {
    Arena a;
    List<int64_t> l;
    for (int64_t i = 0; i < 1000; ++i) ListAccess::push_back(a, l, i * 3);
    BOOST_TEST(l.size() == 1000u);
    bool in_order = true;
    for (int64_t i = 0; i < 1000; ++i) in_order = in_order && l[static_cast<size_t>(i)] == i * 3;
    BOOST_TEST(in_order);
    BOOST_CHECK_THROW(l.at(1000), std::out_of_range);
}

BOOST_AUTO_TEST_CASE(a_reserved_list_does_not_move_while_it_fills) {
    Arena a;
    List<std::string_view> l;
    ListAccess::reserve(a, l, 64);
    const auto* first = l.data();
    for (int i = 0; i < 64; ++i) ListAccess::push_back(a, l, std::string_view("x"));
    BOOST_TEST(l.data() == first);
    BOOST_TEST(ListAccess::capacity(l) == 64u);
}

BOOST_AUTO_TEST_CASE(a_list_filled_in_place_grows_without_moving_until_something_else_is_placed) {
    Arena a;
    List<std::string_view> l;
    ListAccess::append_in_place(a, l) = "a";
    const auto* first = l.data();
    for (const char* s : {"b", "c", "d"}) ListAccess::append_in_place(a, l) = s;
    BOOST_TEST(l.data() == first);  // lengthened where it lies
    BOOST_TEST(ListAccess::capacity(l) == 4u);  // no room unused
    a.allocate(1, 1);  // the list is no longer the latest allocation
    ListAccess::append_in_place(a, l) = "e";
    BOOST_TEST(l.data() != first);  // moved, doubling
    BOOST_TEST(ListAccess::capacity(l) == 8u);
    BOOST_TEST((l.to_vector() == std::vector<std::string_view>{"a", "b", "c", "d", "e"}));
}

BOOST_AUTO_TEST_CASE(an_arena_fills_its_first_region_before_it_takes_a_block) {
    alignas(16) std::byte region[256];
    auto inside = [&](const void* p) { return p >= region && p < region + sizeof region; };
    {
        Arena a(BlockUse::Objects, nullptr, Arena::first_block, region);
        BOOST_TEST(inside(a.allocate(200, 8)));
        BOOST_TEST(a.block_count() == 0u);
        BOOST_TEST(a.reserved() == 0u);  // the region is its owner's
        BOOST_TEST(!inside(a.allocate(100, 8)));  // the 56 bytes left do not hold it
        BOOST_TEST(a.block_count() == 1u);
        BOOST_TEST(a.reserved() == Arena::first_block);
    }  // the arena frees its block and leaves the region alone (ASan and memcheck would say)
}

BOOST_AUTO_TEST_CASE(a_small_model_takes_no_arena_block) {
    // Its objects and edges fit in the bytes its Storage holds, and resolution's scratch in
    // the stack's (docs/performance-history.md, "First bytes inside their owners").
    auto m = import_model(chain_model(3), ImportOptions{});
    BOOST_TEST(m.graph()->values.size() == 4u);
    BOOST_TEST(arena_of(m).block_count() == 0u);
    BOOST_TEST(ModelAccess::storage(m).node_edges.block_count() == 0u);
}

BOOST_AUTO_TEST_CASE(allocations_are_aligned_and_large_blocks_are_huge_page_aligned) {
    Arena a;
    for (size_t align : {1, 2, 4, 8, 16, 64}) {
        void* p = a.allocate(3, align);
        BOOST_TEST(reinterpret_cast<uintptr_t>(p) % align == 0u);
    }
    // A request larger than any small block gets a large block of its own, aligned to
    // large_block (blocks.hpp); the request follows the block's header (arena.hpp, Block).
    void* big = a.allocate(3u << 20, 8);
    BOOST_TEST(reinterpret_cast<uintptr_t>(big) % (2u << 20) <= 64u);
    BOOST_TEST(a.block_count() == 2u);
    BOOST_TEST(a.reserved() >= (3u << 20));
}

BOOST_AUTO_TEST_CASE(blocks_grow_geometrically_with_the_graph) {
    // 16 times the nodes: a handful more blocks, not 16 times as many (no per-node
    // allocation), and arena bytes within a small factor of the input size.
    auto small = import_model(chain_model(1000), ImportOptions{});
    auto large = import_model(chain_model(16000), ImportOptions{});
    const Arena& s = arena_of(small);
    const Arena& l = arena_of(large);
    BOOST_TEST(large.graph()->nodes.size() == 16000u);
    BOOST_TEST(l.block_count() <= s.block_count() + 5);
    BOOST_TEST(l.reserved() <= 16 * large.input_size());
}

BOOST_AUTO_TEST_CASE(a_packed_field_repeated_many_times_grows_its_list_geometrically) {
    // 20,000 packed runs of one dimension each (3 bytes apiece): sizing the list exactly
    // at every run copied it 20,000 times and left every old copy in the arena, 1.6 GB
    // for a 60 KB input. Growing geometrically: 8 bytes a dimension for 3 of input, old
    // runs at most as large again, blocks rounded up to powers of two (measured: 17x).
    WireWriter t;
    using T = proto::Tensor;
    for (int i = 0; i < 20000; ++i) t.bytes_field(T::dims, std::string(1, '\x01'));
    t.int_field(T::data_type, 1).bytes_field(T::name, "W").bytes_field(T::raw_data, std::string(4, '\0'));
    WireWriter g = minimal_graph();
    g.message(proto::Graph::initializer, t);
    auto m = import_model(model(g).str(), ImportOptions{});
    BOOST_TEST(m.graph()->initializers.at(0).dims.size() == 20000u);
    BOOST_TEST(arena_of(m).reserved() <= 32 * m.input_size());
}

BOOST_AUTO_TEST_CASE(without_a_workspace_an_import_keeps_nothing_after_its_model) {
    // Nothing outlives the Model: a fresh Workspace sees no block from an import without it.
    { auto m = import_model(chain_model(40000), ImportOptions{}); }
    Workspace ws;
    BOOST_TEST(ws.kept_bytes() == 0u);
    { auto m = import_model(chain_model(40000), with(ws)); }
    BOOST_TEST(ws.kept_bytes() > 0u);
}

BOOST_AUTO_TEST_CASE(a_workspace_keeps_large_blocks_for_the_next_import_up_to_its_limit) {
    Workspace ws;
    const std::string bytes = chain_model(40000);  // an arena of several MiB
    size_t reserved = 0, scratch = 0;
    {
        auto m = import_model(bytes, with(ws));
        reserved = reserved_by(m);
        // While the Model lives, the workspace holds what resolution worked in (resolve/scratch.hpp).
        scratch = ws.kept_bytes();
        BOOST_TEST(scratch > 0u);
    }
    const size_t kept = ws.kept_bytes();
    BOOST_TEST(kept > scratch);
    BOOST_TEST(kept <= reserved + scratch);
    {
        auto again = import_model(bytes, with(ws));
        BOOST_TEST(ws.kept_bytes() == scratch);  // the same model takes every block it left
        BOOST_TEST(reserved_by(again) == reserved);
    }
    BOOST_TEST(ws.kept_bytes() == kept);
    Workspace small(kept - 1);  // a lower limit keeps less
    { auto m = import_model(bytes, with(small)); }
    BOOST_TEST(small.kept_bytes() < kept);
    Workspace none(0);
    { auto m = import_model(bytes, with(none)); }
    BOOST_TEST(none.kept_bytes() == 0u);  // with no room, blocks are freed
}

BOOST_AUTO_TEST_CASE(a_workspace_keeps_the_blocks_of_a_mid_size_graph_too) {
    // A graph of a few thousand nodes has no large block; glibc would give its larger blocks
    // back to the kernel when freed (blocks.hpp, pooled_block).
    Workspace ws;
    const std::string bytes = chain_model(2000);
    size_t reserved = 0;
    {
        auto m = import_model(bytes, with(ws));
        reserved = reserved_by(m);
        BOOST_TEST(reserved < large_block);
    }
    const size_t kept = ws.kept_bytes();
    BOOST_TEST(kept >= pooled_block);
    {
        auto again = import_model(bytes, with(ws));
        BOOST_TEST(reserved_by(again) == reserved);
    }
    BOOST_TEST(ws.kept_bytes() == kept);  // the same blocks, back again
}

BOOST_AUTO_TEST_CASE(a_model_may_outlive_its_workspace) {
    auto ws = std::make_unique<Workspace>();
    auto m = import_model(chain_model(40000), with(*ws));
    ws.reset();  // the pool lives on with the Model
    BOOST_TEST(m.graph()->nodes.size() == 40000u);
}

#ifdef GAUNTLET_ASAN
BOOST_AUTO_TEST_CASE(a_kept_block_reads_as_freed_memory_under_asan) {
    // A view into a destroyed Model must still be caught by AddressSanitizer although its
    // block is kept for the next import (blocks.cpp poisons it).
    Workspace ws;
    const void* node = nullptr;
    {
        auto m = import_model(chain_model(40000), with(ws));
        node = &m.graph()->nodes[20000];  // far enough in to lie in a large (pooled) block
        BOOST_TEST(!__asan_address_is_poisoned(node));
    }
    BOOST_TEST(ws.kept_bytes() > 0u);
    BOOST_TEST(__asan_address_is_poisoned(node));
}
#endif

BOOST_AUTO_TEST_CASE(a_kept_block_is_unaddressable_under_valgrind,
                     *boost::unit_test::precondition(running_on_valgrind)) {
    // The same for memcheck (blocks.cpp): a kept block is no access, and one taken
    // again holds undefined bytes until the import writes them.
    Workspace ws;
    const std::string bytes = chain_model(40000);
    const Node* node = nullptr;
    {
        auto m = import_model(bytes, with(ws));
        node = &m.graph()->nodes[20000];  // far enough in to lie in a large (pooled) block
        BOOST_TEST(addressable_under_valgrind(node));
    }
    BOOST_TEST(ws.kept_bytes() > 0u);
    BOOST_TEST(!addressable_under_valgrind(node));
    auto again = import_model(bytes, with(ws));
    BOOST_TEST(addressable_under_valgrind(&again.graph()->nodes[20000]));
}

BOOST_AUTO_TEST_CASE(a_pool_counts_the_pages_a_kept_block_holds_not_its_size) {
    // A large block's pages past the written ones go back to the kernel (blocks.cpp), so the
    // limit counts the written huge pages: a mostly unwritten block fits a smaller limit.
    BlockPool pool(2 * large_block);
    const PoolBlock b = allocate_pool_block(8 * large_block, BlockUse::Scratch);
    pool.give_back(b, large_block + 1);  // into its second huge page
    BOOST_TEST(pool.kept_bytes() == 2 * large_block);
    const PoolBlock again = pool.take(8 * large_block, BlockUse::Scratch);
    BOOST_TEST(again.data == b.data);
    BOOST_TEST(pool.kept_bytes() == 0u);
    pool.give_back(again, 2 * large_block + 1);  // three huge pages: over the limit, freed
    BOOST_TEST(pool.kept_bytes() == 0u);
    BOOST_TEST(!pool.take(large_block, BlockUse::Scratch).data);
}

BOOST_AUTO_TEST_CASE(a_kept_block_goes_back_to_the_same_kind_of_arena) {
    BlockPool pool(size_t{64} << 20);
    const PoolBlock objects = allocate_pool_block(large_block, BlockUse::Objects);
    const PoolBlock scratch = allocate_pool_block(large_block, BlockUse::Scratch);
    pool.give_back(objects, large_block);
    pool.give_back(scratch, large_block);
    const PoolBlock first = pool.take(large_block, BlockUse::Scratch);
    BOOST_TEST(first.data == scratch.data);  // not the first of the two in the pool
    const PoolBlock second = pool.take(large_block, BlockUse::NodeEdges);
    BOOST_TEST(second.data == objects.data);  // none of its use is left: any that fits
    BOOST_TEST(!pool.take(large_block, BlockUse::Objects).data);
    free_pool_block(first);
    free_pool_block(second);
}

namespace {

/// Reused blocks hold the last model's bytes, not zeros: every object the importer places
/// must be fully initialized. The dump reads every field.
void check_reused_blocks_give_the_model_of_fresh_ones(int gemm_nodes, int filler_nodes) {
    const std::string bytes = gemm_model(gemm_nodes);
    std::string fresh;
    {
        auto m = import_model(bytes, ImportOptions{});
        fresh = dump_of(m);
    }
    Workspace ws;
    { auto filler = import_model(chain_model(filler_nodes), with(ws)); }
    const size_t kept = ws.kept_bytes();
    BOOST_TEST(kept > 0u);
    auto reused = import_model(bytes, with(ws));
    BOOST_TEST(ws.kept_bytes() < kept);  // it took blocks the chain wrote
    BOOST_TEST((dump_of(reused) == fresh));
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_model_in_reused_blocks_is_the_model_in_fresh_ones) {
    check_reused_blocks_give_the_model_of_fresh_ones(20000, 60000);
}

BOOST_AUTO_TEST_CASE(a_mid_size_model_in_reused_blocks_is_the_model_in_fresh_ones) {
    // Blocks from pooled_block up to large_block are kept too (blocks.hpp).
    check_reused_blocks_give_the_model_of_fresh_ones(1500, 4000);
}

BOOST_AUTO_TEST_SUITE_END()
