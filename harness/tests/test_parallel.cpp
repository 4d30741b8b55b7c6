// Suite `parallel`: ImportOptions::threads (the .ort spec's "Parallelization").
// Shares of work cover their range once, in order; an exception of a share reaches the
// caller as one thread would raise it; every page of every payload is touched whatever
// the split; and an import gives the same model with 1 thread as with several, in Read
// and Map mode, from .onnx files whose payloads are large enough to be shared out.
#include "core_support.hpp"
#include "core/pool.hpp"
#include "io/payloads.hpp"

#include <onnximport/dump.hpp>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

using namespace core_test;
using onnximport::detail::ByteRange;
using onnximport::detail::run_shares;
using onnximport::detail::touch_pages;
namespace fs = std::filesystem;

namespace {

struct Share {
    unsigned index;
    uint64_t begin, end;
};

std::vector<Share> shares_of(unsigned threads, uint64_t total, uint64_t grain) {
    std::mutex m;
    std::vector<Share> out;
    run_shares(threads, total, grain, [&](unsigned k, uint64_t b, uint64_t e) {
        std::lock_guard<std::mutex> lock(m);
        out.push_back({k, b, e});
    });
    std::sort(out.begin(), out.end(), [](const Share& a, const Share& b) { return a.begin < b.begin; });
    return out;
}

/// What touch_pages must read, computed here on its own: each range's first byte and the
/// byte at every page start after it.
uint64_t reference_touch_sum(const std::vector<ByteRange>& ranges) {
    uint64_t sum = 0;
    for (const ByteRange& r : ranges)
        for (uint64_t i = 0; i < r.size; ++i)
            if (i == 0 || reinterpret_cast<uintptr_t>(r.data + i) % 4096 == 0) sum += r.data[i];
    return sum;
}

/// A model of `count` FLOAT initializers of `floats` elements each, varied enough that a
/// misplaced range changes the dump's checksums, each starting with a marker of its own.
std::string model_with_weights(int count, int64_t floats) {
    WireWriter g;
    g.message(proto::Graph::node, tb::node("Identity", {"X"}, {"Y"}, "n0"));
    g.bytes_field(proto::Graph::name, "g");
    for (int i = 0; i < count; ++i) {
        std::string raw(static_cast<size_t>(floats) * 4, '\0');
        for (size_t j = 0; j < raw.size(); ++j) raw[j] = static_cast<char>((j * 131 + static_cast<size_t>(i) * 7) >> 3);
        const std::string marker = "payload of w" + std::to_string(i) + ":";  // where a test finds it in the file
        raw.replace(0, marker.size(), marker);
        g.message(proto::Graph::initializer, tb::tensor_raw("w" + std::to_string(i), 1, {floats}, raw));
    }
    g.message(proto::Graph::input, tb::value_info("X")).message(proto::Graph::output, tb::value_info("Y"));
    return tb::model(g).str();
}

struct ModelFile {
    fs::path path;
    explicit ModelFile(const std::string& bytes) {
        path = fs::temp_directory_path() / ("gauntlet-parallel-" + std::to_string(::getpid()) + ".onnx");
        std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }
    ~ModelFile() { fs::remove(path); }
};

/// A folder holding model.onnx with `count` FLOAT initializers of `floats` elements each
/// in the external file w.bin, back to back.
struct ExternalModel {
    fs::path dir;
    ExternalModel(int count, int64_t floats) {
        dir = fs::temp_directory_path() / ("gauntlet-parallel-ext-" + std::to_string(::getpid()));
        fs::create_directories(dir);
        WireWriter g;
        g.bytes_field(proto::Graph::name, "g");
        std::string data;
        for (int i = 0; i < count; ++i) {
            WireWriter t;
            t.int_field(proto::Tensor::dims, static_cast<uint64_t>(floats)).int_field(proto::Tensor::data_type, 1);
            t.bytes_field(proto::Tensor::name, "w" + std::to_string(i));
            for (auto [k, v] : {std::pair<std::string, std::string>{"location", "w.bin"},
                                {"offset", std::to_string(data.size())}})
                t.message(proto::Tensor::external_data, WireWriter().bytes_field(1, k).bytes_field(2, v));
            t.int_field(proto::Tensor::data_location, 1);
            g.message(proto::Graph::initializer, t);
            for (int64_t j = 0; j < floats * 4; ++j) data.push_back(static_cast<char>((j * 131 + i * 7) >> 3));
        }
        std::ofstream(dir / "w.bin", std::ios::binary).write(data.data(), static_cast<std::streamsize>(data.size()));
        const std::string bytes = tb::model(g).str();
        std::ofstream(dir / "model.onnx", std::ios::binary)
            .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }
    ~ExternalModel() { fs::remove_all(dir); }
};

std::string dump_of(const Model& m) {
    std::ostringstream out;
    onnximport::write_dump(m, out);
    return out.str();
}

std::string import_dump(const fs::path& p, LoadMode mode, unsigned threads) {
    ImportOptions o;
    o.load_mode = mode;
    o.threads = threads;
    return dump_of(import_file(p, o));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(parallel)

BOOST_AUTO_TEST_CASE(shares_cover_the_range_once_in_order) {
    for (unsigned threads : {1u, 2u, 3u, 7u, 64u})
        for (uint64_t total : {uint64_t{0}, uint64_t{1}, uint64_t{4095}, uint64_t{4096}, uint64_t{1'000'003}})
            for (uint64_t grain : {uint64_t{1}, uint64_t{4096}}) {
                auto shares = shares_of(threads, total, grain);
                uint64_t at = 0;
                std::vector<bool> seen(threads, false);
                for (const Share& s : shares) {
                    BOOST_TEST(s.begin == at);
                    BOOST_TEST(s.begin < s.end);
                    BOOST_TEST(s.begin % grain == 0);
                    BOOST_TEST(!seen[s.index]);
                    seen[s.index] = true;
                    at = s.end;
                }
                BOOST_TEST(at == total);
                if (total >= threads * grain) BOOST_TEST(shares.size() == threads);  // every thread has work
            }
}

BOOST_AUTO_TEST_CASE(the_lowest_failing_share_is_rethrown_after_all_have_ended) {
    std::mutex m;
    unsigned ended = 0;
    try {
        run_shares(4, 4 * 4096, 4096, [&](unsigned k, uint64_t, uint64_t) {
            {
                std::lock_guard<std::mutex> lock(m);
                ++ended;
            }
            if (k >= 1) throw std::runtime_error("share " + std::to_string(k));
        });
        BOOST_FAIL("no exception");
    } catch (const std::runtime_error& e) {
        BOOST_TEST(std::string(e.what()) == "share 1");
    }
    BOOST_TEST(ended == 4u);
}

BOOST_AUTO_TEST_CASE(every_page_of_every_range_is_touched_whatever_the_split) {
    std::vector<uint8_t> memory((uint64_t{6} << 20) + 12345);
    for (size_t i = 0; i < memory.size(); ++i) memory[i] = static_cast<uint8_t>(i * 2654435761u >> 13);
    // Ranges of odd sizes and starts, one empty, one of a single byte, over the threshold in all.
    std::vector<ByteRange> ranges = {{memory.data() + 3, 5000}, {memory.data() + 9000, 0},
                                     {memory.data() + 9001, 1}, {memory.data() + 10000, (uint64_t{5} << 20) + 777},
                                     {memory.data() + (uint64_t{5} << 20) + 20000, 800000}};
    const uint64_t expected = reference_touch_sum(ranges);
    for (unsigned threads : {1u, 2u, 3u, 8u}) BOOST_TEST(touch_pages(ranges, threads) == expected);
}

BOOST_AUTO_TEST_CASE(an_import_with_threads_equals_one_without) {
    // Payloads over the threshold of parallel payload work in every build (docs/performance.md).
    ModelFile file(model_with_weights(3, 512 * 1024 + 3));
    const std::string one = import_dump(file.path, LoadMode::Read, 1);
    BOOST_TEST(one.find("w2") != std::string::npos);
    for (unsigned threads : {2u, 3u, 8u}) {
        BOOST_TEST(import_dump(file.path, LoadMode::Read, threads) == one);
        BOOST_TEST(import_dump(file.path, LoadMode::Map, threads) == one);
    }
    BOOST_TEST(import_dump(file.path, LoadMode::Map, 1) == one);
}

BOOST_AUTO_TEST_CASE(external_ranges_read_on_threads_equal_one_thread) {
    ExternalModel model(3, 512 * 1024 + 5);  // over the parallel threshold in every build (docs/performance.md)
    auto dump = [&](unsigned threads, bool map) {
        ImportOptions o;
        o.threads = threads;
        o.map_external_files = map;
        o.resolve = false;
        return dump_of(import_file(model.dir / "model.onnx", o));
    };
    const std::string mapped = dump(1, true);
    BOOST_TEST(mapped.find("w2") != std::string::npos);
    for (unsigned threads : {1u, 2u, 5u}) BOOST_TEST(dump(threads, false) == mapped);
    BOOST_TEST(dump(3, true) == mapped);
}

BOOST_AUTO_TEST_CASE(a_read_with_threads_has_the_bytes_of_the_file) {
    const std::string bytes = model_with_weights(2, 1 << 20);
    ModelFile file(bytes);
    ImportOptions o;
    o.load_mode = LoadMode::Read;
    o.threads = 4;
    Model m = import_file(file.path, o);
    const auto& w = m.graph()->initializers[1];
    const auto b = w.bytes();
    const auto at = bytes.find("payload of w1:");
    BOOST_REQUIRE(at != std::string::npos);
    BOOST_TEST(std::string(reinterpret_cast<const char*>(b.data()), b.size()) == bytes.substr(at, b.size()));
}

BOOST_AUTO_TEST_CASE(threads_outside_1_to_64_are_refused) {
    const std::string bytes = tb::minimal_model();
    for (unsigned threads : {0u, 65u}) {
        ImportOptions o;
        o.threads = threads;
        BOOST_CHECK_THROW(import_bytes(span_of(bytes), "m.onnx", o), std::invalid_argument);
    }
    ImportOptions o;
    o.threads = 64;
    BOOST_CHECK_NO_THROW(import_bytes(span_of(bytes), "m.onnx", o));
}

BOOST_AUTO_TEST_SUITE_END()
