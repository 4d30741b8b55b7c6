// Suite `ort_external`: the .ort companion file (docs/ort.md, "External data"): tensors
// with external_data_offset >= 0 read from DIR/NAME.data (or the name under the model's
// metadata key, or ImportOptions::ort_external_data; rule O7) with the containment of .onnx
// external data. Accepted tensors give
// the bytes and the dump of inline ones; every refusal has kind ExternalData, the tensor's
// offset and the path ending in external_data_offset.
#include "temp_tree.hpp"

#include "model/access.hpp"

#include <onnximport/dump.hpp>
#include <onnximport/import.hpp>
#include <ort_builder.hpp>

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <vector>

using namespace onnximport;
namespace tb = onnximport::testing;
namespace ofb = onnximport::ortfb;
namespace fs = std::filesystem;
using temp_tree::Tree;

namespace {

const std::vector<uint8_t> w_bytes{0, 0, 128, 63, 0, 0, 0, 64};  // relu_model's W: 1.0f, 2.0f

/// relu_model with W's bytes at `offset` of the companion file instead of inline.
tb::OrtModelSpec external_relu(int64_t offset) {
    auto m = tb::relu_model();
    m.graph.initializers[0].raw.reset();
    m.graph.initializers[0].external_data_offset = offset;
    return m;
}

std::string str(const std::vector<uint8_t>& b) { return {b.begin(), b.end()}; }
std::string str(std::span<const std::byte> b) { return {reinterpret_cast<const char*>(b.data()), b.size()}; }

/// A companion file: `offset` bytes of padding, then `bytes`.
std::string companion(size_t offset, const std::vector<uint8_t>& bytes) {
    return std::string(offset, '\x5a') + str(bytes);
}

std::string dump_of(const Model& m) {
    std::ostringstream out;
    write_dump(m, out);
    return out.str();
}

/// The Tensor table of initializer i: the offset its refusals carry.
uint64_t tensor_offset(const std::vector<uint8_t>& b, uint32_t i = 0) {
    const auto* t = ofb::GetInferenceSession(b.data())->model()->graph()->initializers()->Get(i);
    return static_cast<uint64_t>(reinterpret_cast<const uint8_t*>(t) - b.data());
}

ImportError refusal_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const ImportError& e) {
        return e;
    }
    BOOST_FAIL("expected an ImportError, the model was accepted");
    throw;
}

/// Kind ExternalData, the tensor's offset, the path of its external_data_offset, and
/// `names` in the message.
void expect_refused(const ImportError& e, uint64_t offset, const std::string& path, const std::string& names) {
    BOOST_TEST_INFO("refusal: " << e.what());
    BOOST_TEST(to_string(e.kind()) == "ExternalData");
    BOOST_TEST_INFO("refusal: " << e.what());
    BOOST_TEST(e.offset().value_or(~uint64_t{0}) == offset);
    BOOST_TEST(e.field_path() == path);
    BOOST_TEST_INFO("refusal: " << e.what());
    BOOST_TEST(e.message().find(names) != std::string::npos);
}

const std::string w_path = "InferenceSession.model.graph.initializers[0].external_data_offset";

/// Writes model.ort (from `spec`) and, unless null, model.ort.data; returns the model's bytes.
std::vector<uint8_t> write_model(const Tree& tree, const tb::OrtModelSpec& spec,
                                 const std::optional<std::string>& data) {
    const auto b = tb::build_ort(spec);
    tree.model(str(b), "model.ort");
    if (data) Tree::write(tree.dir / "model.ort.data", *data);
    return b;
}

/// The file refusal of the relu model whose W is at offset 0 of a companion set up by `arrange`.
void expect_file_refused(const std::function<void(const Tree&)>& arrange, const std::string& names,
                         ExternalOpen method = ExternalOpen::Auto) {
    Tree tree;
    const auto b = write_model(tree, external_relu(0), std::nullopt);
    arrange(tree);
    ImportOptions o;
    o.external_open = method;
    expect_refused(refusal_of([&] { import_file(tree.dir / "model.ort", o); }), tensor_offset(b), w_path, names);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ort_external)

BOOST_AUTO_TEST_CASE(an_external_tensor_has_the_bytes_and_dump_of_the_inline_one) {
    Tree tree;
    const Model inline_model = import_file(tree.model(str(tb::build_ort(tb::relu_model())), "inline.ort"));
    for (auto [map, threads] : {std::pair{true, 1u}, {false, 1u}, {true, 2u}}) {
        BOOST_TEST_CONTEXT("map_external_files " << map << ", threads " << threads) {
            write_model(tree, external_relu(3), companion(3, w_bytes));  // offset 3: no alignment asked for
            ImportOptions o;
            o.map_external_files = map;
            o.threads = threads;
            const Model m = import_file(tree.dir / "model.ort", o);
            const TensorView& w = m.graph()->initializers[0];
            BOOST_TEST((w.source == TensorSource::External));
            BOOST_TEST(w.data_location == 1);
            BOOST_TEST(str(w.bytes()) == str(w_bytes));
            BOOST_TEST(str(w.bytes()) == str(inline_model.graph()->initializers[0].bytes()));
            // The dumps differ only where the bytes come from (sweep/DUMP_FORMAT.md).
            std::string expected = dump_of(inline_model);
            for (auto [from, to] : {std::pair{"data_location 0", "data_location 1"}, {"source raw", "source external"}})
                expected.replace(expected.find(from), std::string(from).size(), to);
            BOOST_TEST(dump_of(m) == expected);
        }
    }
}

BOOST_AUTO_TEST_CASE(a_mapped_companion_is_one_file_whose_tensors_are_views_into_it) {
    Tree tree;
    auto spec = external_relu(0);
    auto second = spec.graph.initializers[0];
    second.name = "V";
    second.external_data_offset = 9;
    spec.graph.node_args.push_back({"V"});
    spec.graph.initializers.push_back(second);
    auto attr_tensor = std::make_shared<tb::OrtTensorSpec>(second);
    attr_tensor->external_data_offset = 17;  // the file's end: the last 8 bytes
    spec.graph.nodes[0].attributes.push_back({.name = "value", .type = 4, .t = attr_tensor});
    const std::vector<uint8_t> v_bytes{1, 2, 3, 4, 5, 6, 7, 8}, a_bytes{9, 10, 11, 12, 13, 14, 15, 16};
    write_model(tree, spec, str(w_bytes) + "\x01" + str(v_bytes) + str(a_bytes));
    Model m = import_file(tree.dir / "model.ort");
    const Graph& g = *m.graph();
    BOOST_TEST(str(g.initializers[0].bytes()) == str(w_bytes));
    BOOST_TEST(str(g.initializers[1].bytes()) == str(v_bytes));
    BOOST_TEST(str(g.nodes[0].attributes[0].t()->bytes()) == str(a_bytes));
    const auto& files = detail::ModelAccess::storage(m).external_files;
    BOOST_TEST_REQUIRE(files.size() == 1u);
    const uint8_t* base = files.begin()->second->data();
    BOOST_TEST_REQUIRE(base != nullptr);
    BOOST_TEST(reinterpret_cast<const uint8_t*>(g.initializers[1].bytes().data()) == base + 9);
    BOOST_TEST(reinterpret_cast<const uint8_t*>(g.nodes[0].attributes[0].t()->bytes().data()) == base + 17);
}

BOOST_AUTO_TEST_CASE(without_loading_the_tensor_keeps_its_length_and_no_bytes) {
    Tree tree;
    write_model(tree, external_relu(0), std::nullopt);  // no companion file at all
    ImportOptions o;
    o.load_external_data = false;
    Model m = import_file(tree.dir / "model.ort", o);
    const TensorView& w = m.graph()->initializers[0];
    BOOST_TEST((w.source == TensorSource::External));
    BOOST_TEST(!w.has_bytes());
    BOOST_TEST(w.byte_size() == 8u);
}

BOOST_AUTO_TEST_CASE(an_empty_tensor_may_sit_at_the_end_of_the_companion) {
    Tree tree;
    auto spec = external_relu(8);
    spec.graph.initializers[0].dims = {0};
    write_model(tree, spec, str(w_bytes));
    Model m = import_file(tree.dir / "model.ort");
    BOOST_TEST(m.graph()->initializers[0].bytes().size() == 0u);
    BOOST_TEST(m.graph()->initializers[0].has_bytes());
}

BOOST_AUTO_TEST_CASE(offsets_the_reader_refuses_before_any_file_is_opened) {
    Tree tree;
    auto below = external_relu(-2);
    auto b = write_model(tree, below, std::nullopt);
    expect_refused(refusal_of([&] { import_file(tree.dir / "model.ort"); }), tensor_offset(b), w_path, "below -1");
    auto with_raw = tb::relu_model();
    with_raw.graph.initializers[0].external_data_offset = 0;
    b = write_model(tree, with_raw, companion(0, w_bytes));
    expect_refused(refusal_of([&] { import_file(tree.dir / "model.ort"); }), tensor_offset(b), w_path,
                   "together with raw_data");
    auto strings = external_relu(0);
    strings.graph.initializers[0] = {.name = "W", .data_type = 8, .dims = {1}, .external_data_offset = 0};
    b = write_model(tree, strings, companion(0, w_bytes));
    expect_refused(refusal_of([&] { import_file(tree.dir / "model.ort"); }), tensor_offset(b), w_path, "STRING");
}

BOOST_AUTO_TEST_CASE(the_path_names_the_tensor_that_is_refused) {
    Tree tree;
    auto spec = tb::relu_model();
    for (const char* name : {"A", "B"}) {
        spec.graph.node_args.push_back({name});
        spec.graph.initializers.push_back({.name = name, .dims = {2}, .raw = w_bytes});
    }
    spec.graph.initializers[2].raw.reset();
    spec.graph.initializers[2].external_data_offset = 1;  // 1 + 8 bytes of an 8-byte file
    const auto b = write_model(tree, spec, str(w_bytes));
    expect_refused(refusal_of([&] { import_file(tree.dir / "model.ort"); }), tensor_offset(b, 2),
                   "InferenceSession.model.graph.initializers[2].external_data_offset", "exceeds the 8 bytes");
}

BOOST_AUTO_TEST_CASE(a_range_beyond_the_companion_is_refused_without_wrapping) {
    for (int64_t offset : {int64_t{1}, int64_t{9}, INT64_MAX}) {
        BOOST_TEST_CONTEXT("offset " << offset) {
            Tree tree;
            const auto b = write_model(tree, external_relu(offset), str(w_bytes));
            expect_refused(refusal_of([&] { import_file(tree.dir / "model.ort"); }), tensor_offset(b), w_path,
                           "exceeds the 8 bytes of file 'model.ort.data'");
        }
    }
}

BOOST_AUTO_TEST_CASE(a_missing_companion_is_refused) {
    expect_file_refused([](const Tree&) {}, "'model.ort.data' does not exist");
}

BOOST_AUTO_TEST_CASE(a_companion_that_is_not_a_regular_file_is_refused) {
    expect_file_refused([](const Tree& t) { fs::create_directory(t.dir / "model.ort.data"); }, "is not a regular file");
    expect_file_refused([](const Tree& t) { BOOST_REQUIRE(::mkfifo((t.dir / "model.ort.data").c_str(), 0600) == 0); },
                        "is not a regular file");
}

BOOST_AUTO_TEST_CASE(a_companion_linked_out_of_the_folder_is_refused_both_ways) {
    for (auto method : {ExternalOpen::Openat2, ExternalOpen::Walk}) {
        if (method == ExternalOpen::Openat2 && !temp_tree::kernel_has_openat2()) continue;
        BOOST_TEST_CONTEXT("open method " << (method == ExternalOpen::Openat2 ? "openat2" : "walk")) {
            expect_file_refused(
                [](const Tree& t) { fs::create_symlink("../outside/secret.bin", t.dir / "model.ort.data"); },
                "leads outside", method);
            expect_file_refused(
                [](const Tree& t) { fs::create_symlink(t.outside / "secret.bin", t.dir / "model.ort.data"); },
                "leads outside", method);
        }
    }
    Tree tree;  // a link that stays inside is followed
    write_model(tree, external_relu(0), std::nullopt);
    Tree::write(tree.dir / "weights.bin", str(w_bytes));
    fs::create_symlink("weights.bin", tree.dir / "model.ort.data");
    BOOST_TEST(str(import_file(tree.dir / "model.ort").graph()->initializers[0].bytes()) == str(w_bytes));
}

BOOST_AUTO_TEST_CASE(the_companion_is_resolved_against_external_data_dir) {
    Tree tree;
    write_model(tree, external_relu(0), std::nullopt);
    Tree::write(tree.outside / "model.ort.data", str(w_bytes));
    ImportOptions o;
    o.external_data_dir = tree.outside;
    BOOST_TEST(str(import_file(tree.dir / "model.ort", o).graph()->initializers[0].bytes()) == str(w_bytes));
}

BOOST_AUTO_TEST_CASE(ort_external_data_overrides_the_name_and_must_stay_beneath) {
    Tree tree;
    const auto b = write_model(tree, external_relu(0), std::nullopt);
    fs::create_directory(tree.dir / "w");
    Tree::write(tree.dir / "w" / "weights.bin", str(w_bytes));
    ImportOptions o;
    o.ort_external_data = "w/weights.bin";
    BOOST_TEST(str(import_file(tree.dir / "model.ort", o).graph()->initializers[0].bytes()) == str(w_bytes));
    for (const char* bad : {"../outside/secret.bin", "/etc/passwd", "w/../../outside/secret.bin", ""}) {
        BOOST_TEST_CONTEXT("ort_external_data " << bad) {
            o.ort_external_data = bad;
            expect_refused(refusal_of([&] { import_file(tree.dir / "model.ort", o); }), tensor_offset(b), w_path,
                           "the .ort companion file cannot be opened");
        }
    }
}

BOOST_AUTO_TEST_CASE(bytes_name_a_companion_only_with_both_options) {
    Tree tree;
    const auto b = tb::build_ort(external_relu(0));
    Tree::write(tree.dir / "w.data", str(w_bytes));
    ImportOptions o;
    auto from_bytes = [&] { return import_bytes(std::span<const uint8_t>(b), "bytes.ort", o); };
    expect_refused(refusal_of(from_bytes), tensor_offset(b), w_path, "not set: external_data_dir, ort_external_data");
    o.external_data_dir = tree.dir;
    expect_refused(refusal_of(from_bytes), tensor_offset(b), w_path, "not set: ort_external_data");
    o.external_data_dir.reset();
    o.ort_external_data = "w.data";
    expect_refused(refusal_of(from_bytes), tensor_offset(b), w_path, "not set: external_data_dir)");
    o.external_data_dir = tree.dir;
    BOOST_TEST(str(from_bytes().graph()->initializers[0].bytes()) == str(w_bytes));
    const auto inline_bytes = tb::build_ort(tb::relu_model());  // nothing external: no option needed
    BOOST_TEST(import_bytes(std::span<const uint8_t>(inline_bytes), "inline.ort").graph()->initializers.size() == 1u);
}

BOOST_AUTO_TEST_CASE(the_model_names_its_companion_under_its_key_and_the_caller_overrides_it) {
    Tree tree;
    auto spec = external_relu(0);
    spec.metadata = {{"author", "a"}, {"onnximport.ort_external_data", "w.0123456789abcdef.bin"}};
    write_model(tree, spec, std::string("01234567"));  // model.ort.data: not the file named
    Tree::write(tree.dir / "w.0123456789abcdef.bin", str(w_bytes));
    const Model m = import_file(tree.dir / "model.ort");
    BOOST_TEST(str(m.graph()->initializers[0].bytes()) == str(w_bytes));
    BOOST_TEST_REQUIRE(m.proto().metadata_props.size() == 1u);  // the key is the format's, not the model's
    BOOST_TEST(m.proto().metadata_props[0].key == "author");
    ImportOptions o;
    o.ort_external_data = "model.ort.data";
    BOOST_TEST(str(import_file(tree.dir / "model.ort", o).graph()->initializers[0].bytes()) == "01234567");
    const auto b = tb::build_ort(spec);  // bytes: the directory is enough, the model names the file
    o = ImportOptions{};
    o.external_data_dir = tree.dir;
    BOOST_TEST(str(import_bytes(std::span<const uint8_t>(b), "bytes.ort", o).graph()->initializers[0].bytes()) ==
               str(w_bytes));
}

BOOST_AUTO_TEST_CASE(a_bad_name_under_the_key_is_refused_where_it_is_written) {
    for (const char* bad : {"../outside/secret.bin", "/etc/passwd", ""}) {
        BOOST_TEST_CONTEXT("named " << bad) {
            auto spec = tb::relu_model();  // refused even with nothing external: the file is wrong
            spec.metadata = {{"onnximport.ort_external_data", bad}};
            const auto b = tb::build_ort(spec);
            const ImportError e = refusal_of([&] { import_bytes(std::span<const uint8_t>(b), "m.ort"); });
            const auto* entry = ofb::GetInferenceSession(b.data())->model()->metadata_props()->Get(0);
            const auto* value = reinterpret_cast<const uint8_t*>(entry->value());
            BOOST_TEST(to_string(e.kind()) == "ExternalData");
            BOOST_TEST(e.field_path() == "InferenceSession.model.metadata_props[0].value");
            BOOST_TEST(e.offset().value_or(0) == static_cast<uint64_t>(value - b.data()));
        }
    }
    auto twice = tb::relu_model();
    twice.metadata = {{"onnximport.ort_external_data", "a.bin"}, {"onnximport.ort_external_data", "b.bin"}};
    const auto b = tb::build_ort(twice);
    const ImportError e = refusal_of([&] { import_bytes(std::span<const uint8_t>(b), "m.ort"); });
    BOOST_TEST(to_string(e.kind()) == "InvalidModel");
    BOOST_TEST(e.field_path() == "InferenceSession.model.metadata_props[1].key");
}

BOOST_AUTO_TEST_SUITE_END()
