// Suite fuzz_harness: what the fuzz targets decide from an input's bytes alone
// (harness/fuzz/fuzz_share.hpp, fuzz_side_files.hpp; docs/fuzzing.md). The share of inputs
// that get the expensive checks is one in sixteen and depends on every byte; fuzz_external's
// scans read the side files as the importer reads metadata_props and never miss a tensor
// that can be external; its folder holds what the entries ask for, and is kept, not made
// again, while they repeat.
#include <fuzz_check.hpp>
#include <fuzz_run_dir.hpp>
#include <fuzz_share.hpp>
#include <fuzz_side_files.hpp>
#include <onnx_builders.hpp>
#include <refusal_text.hpp>

#include <onnximport/import.hpp>

#include <boost/test/unit_test.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace fs = std::filesystem;
namespace tb = onnximport::testing;
using namespace gauntlet_fuzz;

namespace {

std::span<const uint8_t> span_of(const std::string& s) {
    return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(fuzz_harness)

BOOST_AUTO_TEST_CASE(one_input_in_sixteen_gets_the_expensive_checks_by_every_byte) {
    size_t chosen = 0;
    std::string bytes(37, 'x');
    for (uint32_t i = 0; i < 16000; ++i) {
        std::memcpy(bytes.data() + 11, &i, sizeof i);
        chosen += input_hash(span_of(bytes)) % expensive_check_share == 0;
    }
    BOOST_TEST(chosen > 800u);  // 1000 expected; a hash of a few bytes only would miss
    BOOST_TEST(chosen < 1200u);
    const uint64_t whole = input_hash(span_of(bytes));
    for (size_t at = 0; at < bytes.size(); ++at) {
        std::string flipped = bytes;
        flipped[at] ^= 1;
        BOOST_TEST_CONTEXT("byte " << at) BOOST_TEST(input_hash(span_of(flipped)) != whole);
    }
    BOOST_TEST(input_hash(span_of(bytes + '\0')) != whole);  // the length counts too
}

BOOST_AUTO_TEST_CASE(side_file_entries_are_the_metadata_props_the_importer_reads) {
    using onnximport::proto::Model;
    using onnximport::proto::StringStringEntry;
    // A repeated key (the last wins), a key of the wrong wire type (skipped), an unknown
    // field, an entry that is not a side file, and a link.
    constexpr uint32_t unknown_entry_field = 9;  // no StringStringEntryProto field has this number
    const auto odd = tb::WireWriter()
                         .bytes_field(StringStringEntry::key, "file:first")
                         .int_field(StringStringEntry::value, 7)
                         .bytes_field(StringStringEntry::value, "bytes")
                         .int_field(unknown_entry_field, 1)
                         .bytes_field(StringStringEntry::key, "file:a/b");
    const std::string bytes = tb::model(tb::minimal_graph())
                                  .message(Model::metadata_props, tb::string_entry("author", "nobody"))
                                  .message(Model::metadata_props, odd)
                                  .int_field(Model::metadata_props, 3)
                                  .message(Model::metadata_props, tb::string_entry("link:l", "a/b"))
                                  .str();
    const std::vector<SideEntry> scanned = side_file_entries(span_of(bytes));
    BOOST_REQUIRE_EQUAL(scanned.size(), 2u);
    BOOST_TEST(scanned[0].first == "file:a/b");
    BOOST_TEST(scanned[0].second == "bytes");
    BOOST_TEST(scanned[1].first == "link:l");
    const onnximport::Model m = onnximport::import_bytes(span_of(bytes), "entries", {});
    std::vector<SideEntry> imported;
    for (const auto& e : m.proto().metadata_props)
        if (is_side_file_key(e.key)) imported.emplace_back(e.key, e.value);
    BOOST_TEST((imported == scanned));
    // Bytes that break the wire format give the entries before the break.
    BOOST_TEST(side_file_entries(span_of(bytes.substr(0, bytes.size() - 3))).size() == 1u);
}

BOOST_AUTO_TEST_CASE(a_tensor_that_can_be_external_is_never_missed) {
    using onnximport::proto::Tensor;
    auto with_location = [](const std::string& key_and_value) {
        return tb::model(tb::WireWriter()
                             .message(onnximport::proto::Graph::initializer,
                                      tb::WireWriter().bytes_field(Tensor::name, "w").raw(key_and_value))
                             .bytes_field(onnximport::proto::Graph::name, "g"))
            .str();
    };
    BOOST_TEST(!may_name_external_tensors(span_of(with_location(""))));
    BOOST_TEST(!may_name_external_tensors(span_of(with_location(std::string("\x70\x00", 2)))));  // DEFAULT
    BOOST_TEST(may_name_external_tensors(span_of(with_location("\x70\x01"))));
    // The key and the value written in more bytes than they need, and a value the importer
    // cuts to 32 bits (read_int32): still EXTERNAL to the importer, so still found.
    BOOST_TEST(may_name_external_tensors(span_of(with_location(std::string("\xf0\x80\x00\x81\x00", 5)))));
    BOOST_TEST(may_name_external_tensors(span_of(with_location("\x70\x81\x80\x80\x80\x10"))));
    // A .ort is not scanned: any may be external.
    BOOST_TEST(may_name_external_tensors(span_of(std::string("\x10\0\0\0ORTM\0\0\0\0", 12))));
}

BOOST_AUTO_TEST_CASE(the_folder_holds_what_the_entries_ask_and_is_kept_while_they_repeat) {
    const fs::path root = run_dir("fuzz-harness-test") / "folder";
    SideFileFolder folder(root);
    const std::string bytes = "file:a/b" "one" "file:bad/../x" "link:l" "a/b" "file:a/b" "two";
    const std::string_view all(bytes);
    const std::vector<SideEntry> entries = {
        {all.substr(0, 8), all.substr(8, 3)},    // file:a/b = one
        {all.substr(11, 13), all.substr(8, 3)},  // an unsafe name: skipped
        {all.substr(24, 6), all.substr(30, 3)},  // link:l -> a/b
        {all.substr(33, 8), all.substr(41, 3)},  // file:a/b again: the first wins
    };
    folder.hold(entries);
    BOOST_TEST(slurp(root / "a" / "b") == "one");
    BOOST_TEST(fs::is_symlink(root / "l"));
    BOOST_TEST(!fs::exists(root / "x"));
    BOOST_REQUIRE_EQUAL(folder.files().size(), 1u);
    BOOST_TEST(folder.files()[0].first == "a/b");
    BOOST_TEST(folder.files()[0].second == "one");
    BOOST_TEST(folder.real() == fs::canonical(root).string());

    // The same entries, from other bytes: kept (a file left there stays); others: made again.
    std::ofstream(root / "marker") << "left";
    const std::string copy = bytes;
    std::vector<SideEntry> again;
    for (const auto& [k, v] : entries)
        again.emplace_back(std::string_view(copy).substr(static_cast<size_t>(k.data() - bytes.data()), k.size()),
                           std::string_view(copy).substr(static_cast<size_t>(v.data() - bytes.data()), v.size()));
    folder.hold(again);
    BOOST_TEST(fs::exists(root / "marker"));
    BOOST_TEST(folder.files()[0].second == "one");
    folder.hold({again[2]});
    BOOST_TEST(!fs::exists(root / "marker"));
    BOOST_TEST(!fs::exists(root / "a"));
    BOOST_TEST(fs::is_symlink(root / "l"));
    BOOST_TEST(folder.files().empty());
    folder.hold({});
    BOOST_TEST(fs::is_empty(root));
}

BOOST_AUTO_TEST_CASE(a_refusals_path_is_a_root_and_steps_with_no_entry_named_twice) {
    using gauntlet::path_problem;
    for (const char* good : {"", "ModelProto", "fuzz_wire", "ModelProto.graph.node[0].attribute[1].g.node[0]",
                             "InferenceSession.model.graph.inputs[0].inputs[1]",
                             "InferenceSession.model.graph.node_args[0].type.value.value_type.value_type",
                             "TensorProto.int64_data"}) {
        BOOST_TEST_INFO(good);
        BOOST_TEST(path_problem(good) == nullptr);
    }
    for (const char* bad : {"InferenceSession.model.graph.inputs[0].inputs[0]", "ModelProto.graph.node[2].node[2]",
                            "ModelProto..graph", "ModelProto.graph.", ".graph", "ModelProto.Graph",
                            "ModelProto.node[]", "ModelProto.node[x]", "ModelProto.node[1", "ModelProto.node[1]x]",
                            "ModelProto.graph name"}) {
        BOOST_TEST_INFO(bad);
        BOOST_TEST(path_problem(bad) != nullptr);
    }
}

BOOST_AUTO_TEST_CASE(a_message_holds_no_control_byte_and_escapes_are_text) {
    // What check_text and the hostile corpus's tests refuse: bytes below 0x20 and DEL, not their escapes.
    using gauntlet::has_control_byte;
    for (std::string_view good : {"", "input 'X\\x0a'", "tab\\x09 and \xc3\xa9", "~ is 0x7E"})
        BOOST_TEST(!has_control_byte(good), good);
    for (std::string_view bad : {std::string_view("a\nb"), std::string_view("\x01"), std::string_view("del\x7f"),
                                 std::string_view("nul\0in", 6)})
        BOOST_TEST(has_control_byte(bad));
}

BOOST_AUTO_TEST_SUITE_END()
