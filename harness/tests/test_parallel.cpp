// Suite `parallel`: ImportOptions::threads (the .ort spec's "Parallelization").
// Shares of work cover their range once, in order; an exception of a share reaches the
// caller as one thread would raise it; every page of every payload is touched whatever
// the split, and once however many ranges alias it; external ranges that overlap are read
// once into one buffer; and an import gives the same model with 1 thread as with several,
// in Read and Map mode, from .onnx files whose payloads are large enough to be shared out.
#include "core_support.hpp"
#include "core/intervals.hpp"
#include "core/pool.hpp"
#include "io/payloads.hpp"

#include <numbered.hpp>
#include <onnximport/dump.hpp>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

using onnximport::testing::numbered;
using namespace core_test;
using onnximport::detail::ByteRange;
using onnximport::detail::Interval;
using onnximport::detail::run_shares;
using onnximport::detail::touch_pages;
using onnximport::detail::union_of;
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

/// What touch_pages must read from ranges that do not overlap, computed here on its own:
/// each range's first byte and the byte at every page start after it.
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
        const std::string marker = numbered("payload of w", i) + ":";  // where a test finds it in the file
        raw.replace(0, marker.size(), marker);
        g.message(proto::Graph::initializer, tb::tensor_raw(numbered("w", i), 1, {floats}, raw));
    }
    g.message(proto::Graph::input, tb::value_info("X")).message(proto::Graph::output, tb::value_info("Y"));
    return tb::model(g).str();
}

struct ModelFile {
    fs::path path;
    explicit ModelFile(const std::string& bytes) {
        path = fs::temp_directory_path() / (numbered("gauntlet-parallel-", ::getpid()) + ".onnx");
        std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }
    ~ModelFile() { fs::remove(path); }
};

/// A folder holding model.onnx with `count` FLOAT initializers of `floats` elements each
/// in the external file w.bin, tensor i at offset i * stride (back to back by default; 0:
/// all alias one range).
struct ExternalModel {
    fs::path dir;
    std::string data;
    ExternalModel(int count, int64_t floats, std::optional<uint64_t> stride = std::nullopt) {
        const uint64_t step = stride.value_or(static_cast<uint64_t>(floats) * 4);
        dir = fs::temp_directory_path() / numbered("gauntlet-parallel-ext-", ::getpid());
        fs::create_directories(dir);
        WireWriter g;
        g.bytes_field(proto::Graph::name, "g");
        for (int i = 0; i < count; ++i) {
            WireWriter t;
            t.int_field(proto::Tensor::dims, static_cast<uint64_t>(floats)).int_field(proto::Tensor::data_type, 1);
            t.bytes_field(proto::Tensor::name, numbered("w", i));
            for (auto [k, v] : {std::pair<std::string, std::string>{"location", "w.bin"},
                                {"offset", std::to_string(i * step)}})
                t.message(proto::Tensor::external_data, tb::string_entry(k, v));
            t.int_field(proto::Tensor::data_location, 1);
            g.message(proto::Graph::initializer, t);
        }
        data.resize(static_cast<size_t>(static_cast<uint64_t>(count - 1) * step + static_cast<uint64_t>(floats) * 4));
        for (size_t j = 0; j < data.size(); ++j) data[j] = static_cast<char>((j * 131 + j / 4093) >> 3);
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
            if (k >= 1) throw std::runtime_error(numbered("share ", k));
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

BOOST_AUTO_TEST_CASE(overlapping_intervals_join_and_the_others_keep_their_order) {
    // [100,200), [150,300) and [120,130) of key 1 overlap; [0,50) and [50,60) only meet;
    // key 2 is another file; [7,7) is empty.
    const std::vector<Interval> in = {{1, 100, 200}, {1, 0, 50},  {2, 150, 160}, {1, 150, 300},
                                      {1, 50, 60},   {1, 7, 7},   {1, 120, 130}};
    const auto u = union_of(in);
    BOOST_TEST_REQUIRE(u.spans.size() == 4u);
    const std::vector<std::vector<uint64_t>> want = {{1, 100, 300}, {1, 0, 50}, {2, 150, 160}, {1, 50, 60}};
    for (size_t k = 0; k < want.size(); ++k)
        BOOST_TEST((std::vector<uint64_t>{u.spans[k].key, u.spans[k].begin, u.spans[k].end} == want[k]), k);
    BOOST_TEST((u.span_of == std::vector<size_t>{0, 1, 2, 0, 3, SIZE_MAX, 0}));
    const std::vector<Interval> disjoint = {{0, 30, 40}, {0, 10, 20}, {0, 20, 30}};
    const auto d = union_of(disjoint);
    BOOST_TEST_REQUIRE(d.spans.size() == 3u);
    for (size_t k = 0; k < 3; ++k) BOOST_TEST(d.spans[k].begin == disjoint[k].begin);
}

BOOST_AUTO_TEST_CASE(a_range_aliased_by_many_tensors_is_touched_once) {
    std::vector<uint8_t> memory((uint64_t{6} << 20) + 12345);
    for (size_t i = 0; i < memory.size(); ++i) memory[i] = static_cast<uint8_t>(i * 2654435761u >> 13);
    const ByteRange whole{memory.data() + 3, memory.size() - 3};
    const uint64_t once = reference_touch_sum({whole});
    // 20,000 tensors on the whole range, one inside it, one on its first byte: the union is the range.
    std::vector<ByteRange> aliased(20'000, whole);
    aliased.push_back({memory.data() + 5000, 100'000});
    aliased.push_back({memory.data() + 3, 1});
    for (unsigned threads : {1u, 2u, 3u}) BOOST_TEST(touch_pages(aliased, threads) == once);
}

BOOST_AUTO_TEST_CASE(external_ranges_that_overlap_are_read_once_into_one_buffer) {
    // Each tensor over the parallel threshold (io/payloads.hpp) in every build; 32 on one
    // range, then 8 at a stride of a page, each overlapping the next.
    for (uint64_t stride : {uint64_t{0}, uint64_t{4096}}) {
        const int count = stride ? 8 : 32;
        ExternalModel model(count, (1 << 20) + 5, stride);
        for (unsigned threads : {1u, 2u}) {
            BOOST_TEST_CONTEXT("stride " << stride << ", " << threads << " threads") {
                ImportOptions o;
                o.threads = threads;
                o.map_external_files = false;
                o.resolve = false;
                Model m = import_file(model.dir / "model.onnx", o);
                const auto& w = m.graph()->initializers;
                BOOST_TEST_REQUIRE(w.size() == size_t(count));
                const std::byte* base = w[0].bytes().data();
                for (int i = 0; i < count; ++i) {
                    const auto b = w[i].bytes();
                    BOOST_TEST(b.data() == base + i * stride, i);  // one buffer for the union
                    BOOST_TEST(std::string(reinterpret_cast<const char*>(b.data()), b.size()) ==
                                   model.data.substr(i * stride, b.size()), i);
                }
            }
        }
    }
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
