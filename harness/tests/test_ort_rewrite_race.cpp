// Suite ort_rewrite_race: a mapped .ort rewritten in place while it is imported (docs/ort.md,
// "One walk that checks where it reads": a file rewritten while it is mapped changes what is
// read, never where). Another thread flips a node name's uoffset between its valid value and
// 0x7fffff00 (far past the end), through a shared mapping of the file, while the file is mapped
// and imported 1,000 times, and on until both values were seen (a loaded machine may leave the
// flipper unscheduled that long). Each import ends imported or refused as Malformed at that offset, never
// anything else; under ASan (make test-asan runs unit_tests) with no report. A walk that reads an
// offset again after checking it crashes here (docs/performance.md, "Sizes the tests rely on").
#include "temp_tree.hpp"

#include <ort_builder.hpp>
#include "ort_offsets.hpp"

#include <onnximport/import.hpp>

#include <boost/test/unit_test.hpp>

#include <atomic>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <string>
#include <sys/mman.h>
#include <thread>
#include <unistd.h>

using namespace onnximport;
namespace tb = onnximport::testing;

namespace {

constexpr char node_name[] = "raced-node";
constexpr uint32_t far_past_the_end = 0x7fffff00;
constexpr int least_imports = 1000;
// Imports go on past least_imports until both outcomes were seen, up to this long: under ctest -j
// on two cores, the flipper thread can wait for a core longer than a thousand imports take.
constexpr auto both_outcomes_within = std::chrono::seconds(30);

/// The slot of the uoffset that names the node's name string.
uint32_t name_slot(const std::vector<uint8_t>& b) {
    const size_t text = tb::find_bytes(b, node_name);
    BOOST_TEST_REQUIRE(text != std::string::npos);
    for (uint32_t slot : tb::find_ort_offsets(b).uoffsets) {
        uint32_t offset;
        std::memcpy(&offset, b.data() + slot, 4);
        if (uint64_t{slot} + offset + 4 == text) return slot;  // a string's offset names its length prefix
    }
    BOOST_FAIL("no uoffset names the node's name");
    return 0;
}

/// Stores either value at `slot` of the file, through a shared writable mapping of it, until
/// stopped: a store every few nanoseconds, so that reading an offset twice, checked once and
/// used once, would likely see both (a pwrite per flip takes microseconds).
struct Flipper {
    Flipper(const std::filesystem::path& file, uint32_t slot, uint32_t valid) {
        const int fd = ::open(file.c_str(), O_RDWR | O_CLOEXEC);
        BOOST_TEST_REQUIRE(fd >= 0);
        void* p = ::mmap(nullptr, slot + 4, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        ::close(fd);
        BOOST_TEST_REQUIRE(p != MAP_FAILED);
        mapping = static_cast<uint8_t*>(p);
        length = slot + 4;
        thread = std::thread([this, slot, valid] { run(reinterpret_cast<uint32_t*>(mapping + slot), valid); });
    }
    ~Flipper() {
        stop = true;
        if (thread.joinable()) thread.join();
        ::munmap(mapping, length);
    }
    void run(uint32_t* word, uint32_t valid) {
        std::atomic_ref<uint32_t> w(*word);  // aligned: no torn values
        // Each value chosen at random (xorshift32), not in turn: Valgrind runs one thread at a
        // time and switches after a fixed count of blocks, which would always stop alternation
        // on the same value.
        for (uint32_t x = 0x2545f491; !stop.load(std::memory_order_relaxed);) {
            x ^= x << 13, x ^= x >> 17, x ^= x << 5;
            w.store(x & 1 ? valid : far_past_the_end, std::memory_order_relaxed);
            flips.fetch_add(1, std::memory_order_relaxed);
        }
    }
    uint8_t* mapping = nullptr;
    size_t length = 0;
    std::atomic<bool> stop{false};
    std::atomic<size_t> flips{0};
    std::thread thread;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(ort_rewrite_race)

BOOST_AUTO_TEST_CASE(a_node_name_offset_flipped_during_a_mapped_import_is_read_once) {
    tb::OrtModelSpec spec = tb::relu_model();
    spec.graph.nodes[0].name = node_name;
    const std::vector<uint8_t> bytes = tb::build_ort(spec);
    const uint32_t slot = name_slot(bytes);
    uint32_t valid;
    std::memcpy(&valid, bytes.data() + slot, 4);

    temp_tree::Tree tree;
    const auto path = tree.model(std::string(bytes.begin(), bytes.end()), "raced.ort");
    ImportOptions o;
    o.load_mode = LoadMode::Map;
    size_t imported = 0, refused = 0;
    {
        Flipper flipper(path, slot, valid);
        const auto give_up = std::chrono::steady_clock::now() + both_outcomes_within;
        auto more = [&](int i) {
            if (i < least_imports) return true;
            return (imported == 0 || refused == 0) && std::chrono::steady_clock::now() < give_up;
        };
        for (int i = 0; more(i); ++i) {
            try {
                const Model m = import_file(path, o);
                BOOST_TEST(m.graph()->nodes[0].name == node_name);
                ++imported;
            } catch (const ImportError& e) {
                BOOST_TEST_CONTEXT(e.what()) {
                    BOOST_TEST((e.kind() == ErrorKind::Malformed));
                    BOOST_TEST((e.offset() == std::optional<uint64_t>(slot)));
                    BOOST_TEST(e.field_path() == "InferenceSession.model.graph.nodes[0].name");
                }
                ++refused;
            }
        }
        BOOST_TEST_MESSAGE("ort_rewrite_race: " << imported << " imported, " << refused << " refused, "
                                                << flipper.flips.load() << " flips");
    }
    // Both values were seen: the flips overlapped the imports.
    BOOST_TEST(imported > 0u);
    BOOST_TEST(refused > 0u);
}

BOOST_AUTO_TEST_SUITE_END()
