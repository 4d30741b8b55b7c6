// Suite passed_pages: the pages a walk has passed are dropped once they span a chunk, in
// either direction (io/passed_pages.hpp), and a mapped import of .ort or .onnx leaves no
// weight page resident beyond the folios its headers share with them (names are copied),
// and neither does a writer that copies a mapped model or its mapped external-data file
// (write/source_pages.hpp); the inline
// .ort file writer holds none of the tensor bytes it writes (write/ort/fill.cpp).
// Residency is read from /proc/self/pagemap (bit 63: present).
#include "core_support.hpp"
#include "io/passed_pages.hpp"
#include "ort/reader.hpp"

#include <numbered.hpp>
#include <ort_builder.hpp>
#include <sanitizers.hpp>

#include <onnximport/write.hpp>
#include <onnximport/write_ort.hpp>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <unistd.h>
#include <vector>

using onnximport::testing::numbered;
using namespace onnximport;
namespace tb = onnximport::testing;
namespace fs = std::filesystem;

namespace {

const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));

/// How many pages of [begin, begin + size) are mapped in this process; -1 without pagemap.
long present_pages(const void* begin, size_t size) {
    std::FILE* f = std::fopen("/proc/self/pagemap", "rb");
    if (!f) return -1;
    long present = 0;
    const uintptr_t first = reinterpret_cast<uintptr_t>(begin) / page;
    const uintptr_t last = (reinterpret_cast<uintptr_t>(begin) + size + page - 1) / page;
    for (uintptr_t p = first; p < last; ++p) {
        uint64_t entry = 0;
        if (std::fseek(f, static_cast<long>(p * sizeof entry), SEEK_SET) != 0 ||
            std::fread(&entry, sizeof entry, 1, f) != 1) {
            std::fclose(f);
            return -1;
        }
        present += static_cast<long>(entry >> 63);
    }
    std::fclose(f);
    return present;
}

/// A file removed when the test ends, written in one call (as large writes leave it in the page cache).
struct File {
    fs::path path;
    File(const void* bytes, size_t size, const char* ext) {
        path = fs::temp_directory_path() / (numbered("onnx-gauntlet-pages-", ::getpid()) + ext);
        std::ofstream(path, std::ios::binary)
            .write(static_cast<const char*>(bytes), static_cast<std::streamsize>(size));
    }
    ~File() { fs::remove(path); }
};

void touch(const uint8_t* b, size_t size) {
    volatile uint8_t sink = 0;
    for (size_t i = 0; i < size; i += page) sink = sink + b[i];
}

constexpr size_t mib = 1u << 20;
constexpr int weight_count = 24;  // tensors of `mib` bytes: together more than one chunk, so drops happen mid-walk

tb::OrtModelSpec heavy_ort() {
    tb::OrtModelSpec m = tb::relu_model();
    m.graph.initializers.clear();
    m.graph.node_args.pop_back();
    for (int i = 0; i < weight_count; ++i) {
        const std::string name = numbered("w", i);
        m.graph.node_args.push_back({name});
        m.graph.initializers.push_back({.name = name,
                                        .data_type = 2,
                                        .dims = {int64_t{mib}},
                                        .raw = std::vector<uint8_t>(mib, static_cast<uint8_t>(i))});
    }
    return m;
}

std::string heavy_onnx() {
    tb::WireWriter g = tb::minimal_graph();
    for (int i = 0; i < weight_count; ++i)
        g.message(onnximport::proto::Graph::initializer,
                  tb::tensor_raw(numbered("w", i), 2, {int64_t{mib}}, std::string(mib, static_cast<char>(i))));
    return tb::model(g).str();
}

/// The same weights in a file `location` beside the model, the tensors one after another.
std::string heavy_external_onnx(const std::string& location) {
    tb::WireWriter g = tb::minimal_graph();
    for (int i = 0; i < weight_count; ++i) {
        tb::WireWriter t;
        using T = onnximport::proto::Tensor;
        t.int_field(T::dims, mib).int_field(T::data_type, 2).bytes_field(T::name, numbered("w", i));
        for (const auto& [key, value] : {std::pair<std::string, std::string>{"location", location},
                                         {"offset", std::to_string(i * mib)}, {"length", std::to_string(mib)}})
            t.message(T::external_data, tb::string_entry(key, value));
        t.int_field(T::data_location, 1);  // EXTERNAL
        g.message(onnximport::proto::Graph::initializer, t);
    }
    return tb::model(g).str();
}

long weight_pages_present(const Model& m) {
    long present = 0;
    for (const TensorView& t : m.graph()->initializers) present += present_pages(t.bytes().data(), t.bytes().size());
    return present;
}

bool have_pagemap() {
    uint8_t probe = 0;
    if (present_pages(&probe, 1) == 1) return true;
    BOOST_TEST_MESSAGE("skipped: /proc/self/pagemap does not tell residency here");
    return false;
}

ImportOptions mapped() {
    ImportOptions o;
    o.load_mode = LoadMode::Map;
    return o;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(passed_pages)

BOOST_AUTO_TEST_CASE(pages_are_dropped_once_what_was_passed_spans_a_chunk_in_either_direction) {
    if (!have_pagemap()) return;
    const size_t chunk = detail::PassedPages::chunk, size = 3 * chunk;
    std::vector<uint8_t> bytes(size, 7);
    File f(bytes.data(), size, ".bin");
    const auto in = detail::ModelInput::open_file(f.path, "pages", LoadMode::Map, 0);
    BOOST_TEST_REQUIRE(in.is_mapped());
    const uint8_t* b = in.data();
    const long all = static_cast<long>(chunk / page);
    for (bool upward : {true, false}) {
        touch(b, size);
        detail::PassedPages pages(in);
        const uint8_t* lo = upward ? b : b + 2 * chunk;  // a third of the file, in two halves
        const uint8_t* first = upward ? lo : lo + chunk / 2;
        const uint8_t* second = upward ? lo + chunk / 2 : lo;
        pages.passed(first, first + chunk / 2);
        BOOST_TEST(present_pages(lo, chunk) == all);  // half a chunk: kept
        pages.passed(second, second + chunk / 2);
        BOOST_TEST(present_pages(lo, chunk) == 0);  // a whole chunk: dropped
        BOOST_TEST(present_pages(b + chunk, chunk) == all);  // nothing outside it
        BOOST_TEST(lo[12345] == 7);  // a view reads the file again
    }
    // What is left when the walk ends is dropped then.
    touch(b, size);
    {
        detail::PassedPages pages(in);
        pages.passed(b + chunk, b + chunk + mib);
        BOOST_TEST(present_pages(b + chunk, mib) == static_cast<long>(mib / page));
    }
    BOOST_TEST(present_pages(b + chunk, mib) == 0);
}

BOOST_AUTO_TEST_CASE(bytes_outside_the_mapped_input_are_never_dropped) {
    const size_t chunk = detail::PassedPages::chunk;
    std::vector<uint8_t> file_bytes(chunk, 1);
    File f(file_bytes.data(), file_bytes.size(), ".bin");
    const auto in = detail::ModelInput::open_file(f.path, "pages", LoadMode::Map, 0);
    BOOST_TEST_REQUIRE(in.is_mapped());
    std::vector<uint8_t> heap(3 * chunk, 7);  // dropped anonymous pages would read back as zeros
    {
        detail::PassedPages pages(in);
        pages.passed(heap.data(), heap.data() + heap.size());
        pages.passed(in.data() + in.size() - page, in.data() + in.size() + page);  // straddles its end
    }
    BOOST_TEST(std::count(heap.begin(), heap.end(), 7) == static_cast<long>(heap.size()));
}

BOOST_AUTO_TEST_CASE(a_mapped_import_leaves_no_weight_page_resident) {
    if (!have_pagemap()) return;
    const auto ort = tb::build_ort(heavy_ort());
    const std::string onnx = heavy_onnx();
    File fo(ort.data(), ort.size(), ".ort"), fx(onnx.data(), onnx.size(), ".onnx");
    for (const fs::path* p : {&fo.path, &fx.path}) {
        Model m = import_file(*p, mapped());
        BOOST_TEST_REQUIRE(m.graph()->initializers.size() == size_t{weight_count});
        BOOST_TEST_INFO(p->extension().string());
        // Resolution reads the headers at both ends of the file again; where the page cache
        // holds large folios, each such fault maps its whole folio of weights (the bound: a
        // PMD-sized folio at each end; docs/performance.md).
        const long ends = static_cast<long>(2 * (2 * mib) / page);
        BOOST_TEST(weight_pages_present(m) <= ends + weight_count);
        BOOST_TEST(static_cast<int>(m.graph()->initializers[5].bytes()[77]) == 5);  // still readable
    }
}

/// Writes `m` with every writer to a file, on 1 and 2 threads, its weights made resident before
/// each, and checks that no more of them are resident after it than after an import.
void check_every_writer_drops_the_weights(const Model& m) {
    const fs::path dir = fs::temp_directory_path() / numbered("onnx-gauntlet-pages-out-", ::getpid());
    fs::create_directories(dir);
    const auto onnx_writer = [&m](std::string external_data) {
        return [&m, external_data](const fs::path& p, unsigned threads) {
            WriteOptions o;
            o.external_data.file = external_data;
            o.threads = threads;
            write_onnx_file(m, p, o);
        };
    };
    const auto ort_writer = [&m](bool external) {
        return [&m, external](const fs::path& p, unsigned threads) {
            OrtWriteOptions o;
            if (external) o.external_data.file = p.filename().string() + ".data";
            o.threads = threads;
            write_ort_file(m, p, o);
        };
    };
    const auto bytes_writer = [&m](bool ort) {  // to memory, then to the file read back below
        return [&m, ort](const fs::path& p, unsigned threads) {
            WriteOptions onnx_options;
            OrtWriteOptions ort_options;
            onnx_options.threads = ort_options.threads = threads;
            const std::vector<uint8_t> b = ort ? write_ort_bytes(m, ort_options) : write_onnx_bytes(m, onnx_options);
            std::ofstream(p, std::ios::binary)
                .write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
        };
    };
    const std::vector<std::pair<std::string, std::function<void(const fs::path&, unsigned)>>> writers = {
        {"w.onnx", onnx_writer("")}, {"x.onnx", onnx_writer("x.data")}, {"b.onnx", bytes_writer(false)},
        {"w.ort", ort_writer(false)}, {"x.ort", ort_writer(true)},       {"b.ort", bytes_writer(true)},
    };
    const long ends = static_cast<long>(2 * (2 * mib) / page);  // as in the import's case above
    for (const auto& [name, write] : writers) {
        for (unsigned threads : {1u, 2u}) {
            BOOST_TEST_INFO(name << " on " << threads << " thread(s)");
            for (const TensorView& t : m.graph()->initializers)
                touch(reinterpret_cast<const uint8_t*>(t.bytes().data()), t.bytes().size());
            BOOST_TEST_REQUIRE(weight_pages_present(m) >= static_cast<long>(weight_count * mib / page));
            write(dir / name, threads);
            BOOST_TEST(weight_pages_present(m) <= ends + weight_count);
            Model back = import_file(dir / name);
            BOOST_TEST(static_cast<int>(back.graph()->initializers[5].bytes()[77]) == 5);
        }
    }
    fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(every_writer_leaves_no_weight_page_of_a_mapped_model_resident) {
    if (!have_pagemap()) return;
    const std::string onnx = heavy_onnx();
    File in(onnx.data(), onnx.size(), ".onnx");
    check_every_writer_drops_the_weights(import_file(in.path, mapped()));
}

BOOST_AUTO_TEST_CASE(every_writer_leaves_no_page_of_a_mapped_external_data_file_resident) {
    if (!have_pagemap()) return;
    std::string weights;
    for (int i = 0; i < weight_count; ++i) weights.append(mib, static_cast<char>(i));
    File data(weights.data(), weights.size(), ".bin");
    const std::string onnx = heavy_external_onnx(data.path.filename().string());
    File in(onnx.data(), onnx.size(), ".onnx");
    Model m = import_file(in.path, mapped());
    BOOST_TEST_REQUIRE((m.graph()->initializers[0].source == TensorSource::External));
    check_every_writer_drops_the_weights(m);
}

/// Anonymous memory resident in this process (RssAnon of /proc/self/status), in bytes; -1 without it.
long long anonymous_resident() {
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("RssAnon:", 0) == 0) return std::stoll(line.substr(8)) * 1024;
    return -1;
}

bool can_measure_anonymous() {
#ifdef GAUNTLET_TSAN
    BOOST_TEST_MESSAGE("skipped: under ThreadSanitizer, its shadow of the copied bytes is anonymous memory");
    return false;
#endif
    if (anonymous_resident() >= 0) return true;
    BOOST_TEST_MESSAGE("skipped: /proc/self/status has no RssAnon here");
    return false;
}

BOOST_AUTO_TEST_CASE(the_inline_ort_file_writer_never_makes_the_tensor_bytes_of_its_buffer_resident) {
    if (!can_measure_anonymous()) return;
    const std::string onnx = heavy_onnx();
    File in(onnx.data(), onnx.size(), ".onnx");
    const fs::path out =
        fs::temp_directory_path() / (numbered("onnx-gauntlet-pages-inline-", ::getpid()) + ".ort");
    Model m = import_file(in.path, mapped());
    for (unsigned threads : {1u, 2u}) {
        BOOST_TEST_INFO("on " << threads << " thread(s)");
        const long long start = anonymous_resident();
        long long peak = start;
        int reports = 0;
        OrtWriteOptions o;
        o.threads = threads;
        o.progress = [&](uint64_t, uint64_t) {
            peak = std::max(peak, anonymous_resident());
            ++reports;
        };
        write_ort_file(m, out, o);
        BOOST_TEST(reports >= 2);
        // The tables are small beside the weights, which a filled buffer would hold whole.
        BOOST_TEST(peak - start < static_cast<long long>(weight_count * mib / 4));
        Model back = import_file(out);
        BOOST_TEST(static_cast<int>(back.graph()->initializers[23].bytes()[mib - 1]) == 23);
    }
    fs::remove(out);
}

BOOST_AUTO_TEST_SUITE_END()
