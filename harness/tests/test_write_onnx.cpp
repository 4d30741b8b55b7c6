// Suite `write_onnx`: the `.onnx` writer — a round trip of a model with every
// field kind (the dump of the re-import equals the original's), graph names and a topological
// node order for a model read from a .ort, the same bytes every
// time, external data at aligned offsets for 1, 64 and 4096, external input written out
// again, and errors (a full disk, a folder that is a link out, an escaping name, a bad
// alignment) that leave nothing behind.
#include "core_support.hpp"
#include "ort_write_models.hpp"
#include "write_models.hpp"
#include "write_support.hpp"

#include "external/location.hpp"
#include "write/faults.hpp"
#include "write/generations.hpp"
#include "write/write_onnx.hpp"

#include <onnximport/dump.hpp>
#include <onnximport/write.hpp>
#include <onnximport/write_ort.hpp>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace core_test;
using namespace write_test;

namespace {

ImportOptions full() { return ImportOptions{}; }

std::string dump_of(const Model& m) {
    std::ostringstream out;
    write_dump(m, out);
    return out.str();
}

/// The dump without what moving bytes between raw_data and an external file changes:
/// data_location and external_data lines go, and an external source reads as raw.
std::string storage_blind(const std::string& dump) {
    std::istringstream in(dump);
    std::string out, line;
    while (std::getline(in, line)) {
        const auto word = line.find_first_not_of(' ');
        const std::string_view rest = std::string_view(line).substr(word == std::string::npos ? 0 : word);
        if (rest.starts_with("data_location ") || rest.starts_with("external_data ")) continue;
        if (rest == "source external") line = line.substr(0, word) + "source raw";
        out += line + "\n";
    }
    return out;
}

Model rich() { return import_bytes(bytes_of(rich_model()), "rich.onnx", full()); }

std::string write_bytes(const Model& m) {
    auto b = write_onnx_bytes(m);
    return {b.begin(), b.end()};
}

struct Placed {
    uint64_t offset;
    uint64_t size;
};

/// Where each external tensor of `m` sits, its length entry checked against its size.
std::vector<Placed> external_ranges(const Model& m) {
    std::vector<Placed> out;
    auto visit = [&](const TensorView& t) {
        if (t.data_location != 1) return;
        onnximport::detail::ExternalRef ref;
        BOOST_REQUIRE(!onnximport::detail::parse_entries(t.external_data, ref));
        BOOST_TEST(ref.length.value_or(0) == t.byte_size());
        out.push_back({ref.offset, t.byte_size()});
    };
    for (const auto& t : m.graph()->initializers) visit(t);
    for (const auto& n : m.graph()->nodes)
        for (const auto& a : n.attributes) {
            if (a.t()) visit(*a.t());
            if (a.g())
                for (const auto& t : a.g()->initializers) visit(t);
        }
    return out;
}

std::vector<uint64_t> external_offsets(const Model& m) {
    std::vector<uint64_t> offsets;
    for (const auto& p : external_ranges(m)) offsets.push_back(p.offset);
    return offsets;
}

WriteOptions external(uint64_t alignment, uint64_t threshold = 64) {
    WriteOptions o;
    o.external_data = {"weights.bin", threshold, alignment};
    return o;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(write_onnx)

BOOST_AUTO_TEST_CASE(a_model_with_every_field_kind_reads_back_with_the_same_dump) {
    Model original = rich();
    BOOST_TEST_REQUIRE(original.graph()->nodes_were_reordered);
    const std::string written = write_bytes(original);
    Model again = import_bytes(bytes_of(written), "again.onnx", full());
    BOOST_TEST(dump_of(again) == dump_of(original));
    BOOST_TEST(again.graph()->nodes_were_reordered);
}

/// A .ort has no graph names and keeps ONNX Runtime's node order (docs/write.md, "From a .ort"):
/// its .onnx names the main graph main_graph and each subgraph after its attribute, and lists
/// nodes in resolved (topological) order. The .onnx of a .onnx keeps its names and file order.
BOOST_AUTO_TEST_CASE(a_model_read_from_a_ort_gets_graph_names_and_a_topological_node_order) {
    const Model original = import_bytes(bytes_of(ort_rich_model()), "rich.onnx", full());
    BOOST_TEST_REQUIRE(original.graph()->nodes_were_reordered);
    const Model from_ort = import_bytes(write_ort_bytes(original), "rich.ort", full());
    BOOST_TEST_REQUIRE(from_ort.graph()->nodes_were_reordered);  // the .ort kept the file order
    const Model back = import_model(write_bytes(from_ort), full());
    BOOST_TEST(back.graph()->name == "main_graph");
    BOOST_TEST(!back.graph()->nodes_were_reordered);
    std::set<std::string> subgraphs;
    for (const auto& n : back.graph()->nodes)
        for (const auto& a : n.attributes) {
            if (a.g()) subgraphs.insert(std::string(a.name) + "=" + std::string(a.g()->name));
            for (const auto& g : a.graphs()) subgraphs.insert(std::string(a.name) + "=" + std::string(g.name));
        }
    BOOST_TEST(subgraphs == (std::set<std::string>{"g=g", "graphs=graphs"}));
    const Model again = import_model(write_bytes(original), full());
    BOOST_TEST(again.graph()->name.empty());
    BOOST_TEST(again.graph()->nodes_were_reordered);
}

BOOST_AUTO_TEST_CASE(a_sparse_tensor_without_values_or_indices_reads_back_the_same) {
    // An absent values or indices message reads as no tensor; an empty one is refused.
    WireWriter sparse = WireWriter().packed_varints(P::SparseTensor::dims, {4});
    WireWriter attribute =
        WireWriter().bytes_field(P::Attribute::name, "s").message(P::Attribute::sparse_tensors, sparse);
    Model original = import_model(model_with_attribute(attribute));
    Model again = import_model(write_bytes(original));
    BOOST_TEST(dump_of(again) == dump_of(original));
}

BOOST_AUTO_TEST_CASE(external_data_entries_of_a_tensor_that_is_not_external_are_kept) {
    WireWriter tensor =
        tb::tensor_raw("t", 2, {1}, "x").message(P::Tensor::external_data, tb::string_entry("location", ""));
    Model original = import_model(model_with_attribute(tb::attr_tensor("t", tensor)));
    BOOST_TEST_REQUIRE(original.graph()->nodes[0].attributes[0].t()->external_data.size() == 1u);
    Model again = import_model(write_bytes(original));
    BOOST_TEST(dump_of(again) == dump_of(original));
}

BOOST_AUTO_TEST_CASE(the_same_model_gives_the_same_bytes_and_a_rewrite_changes_nothing) {
    Model original = rich();
    const std::string first = write_bytes(original);
    BOOST_TEST(write_bytes(original) == first);
    BOOST_TEST(write_bytes(rich()) == first);
    Model again = import_bytes(bytes_of(first), "again.onnx", full());
    BOOST_TEST(write_bytes(again) == first);
}

BOOST_AUTO_TEST_CASE(the_file_writer_writes_the_same_bytes_as_the_memory_writer) {
    TempDir t;
    Model original = rich();
    onnximport::write_onnx_file(original, t.root / "m.onnx");
    BOOST_TEST(read_all(t.root / "m.onnx") == write_bytes(original));
    BOOST_TEST(listing(t.root) == std::set<std::string>{"m.onnx"});
}

BOOST_AUTO_TEST_CASE(external_offsets_are_multiples_of_the_alignment) {
    for (uint64_t alignment : {1u, 64u, 4096u}) {
        BOOST_TEST_CONTEXT("alignment " << alignment) {
            TempDir t;
            Model original = rich();
            onnximport::write_onnx_file(original, t.root / "m.onnx", external(alignment));
            BOOST_TEST(listing(t.root) == (std::set<std::string>{"m.onnx", "weights.bin"}));
            Model again = import_file(t.root / "m.onnx", full());
            const auto offsets = external_offsets(again);
            BOOST_TEST(offsets.size() == 3u);  // W_raw, the attribute's tensor, the subgraph's
            for (uint64_t offset : offsets) BOOST_TEST(offset % alignment == 0u);
            BOOST_TEST(storage_blind(dump_of(again)) == storage_blind(dump_of(original)));
        }
    }
}

BOOST_AUTO_TEST_CASE(the_padding_between_external_tensors_is_zeros) {
    TempDir t;
    onnximport::write_onnx_file(rich(), t.root / "m.onnx", external(4096));
    Model again = import_file(t.root / "m.onnx", full());
    std::string data = read_all(t.root / "weights.bin");
    uint64_t end = 0;
    for (const auto& p : external_ranges(again)) {
        BOOST_REQUIRE(p.offset + p.size <= data.size());
        data.replace(p.offset, p.size, p.size, '\0');  // blank every tensor: zeros remain
        end = std::max(end, p.offset + p.size);
    }
    BOOST_TEST(data == std::string(data.size(), '\0'));
    BOOST_TEST(end == data.size());  // ends with the last tensor, not with padding
}

BOOST_AUTO_TEST_CASE(tensors_at_or_below_the_threshold_stay_inline) {
    TempDir t;
    onnximport::write_onnx_file(rich(), t.root / "m.onnx", external(64, 1500));
    Model again = import_file(t.root / "m.onnx", full());
    BOOST_TEST(external_offsets(again).size() == 1u);  // W_raw's 2000 bytes only
}

BOOST_AUTO_TEST_CASE(external_input_is_written_out_again_by_the_same_rules) {
    TempDir t;
    fs::create_directories(t.root / "a");
    fs::create_directories(t.root / "b");
    Model original = rich();
    onnximport::write_onnx_file(original, t.root / "a" / "m.onnx", external(64));
    Model external_model = import_file(t.root / "a" / "m.onnx", full());
    onnximport::write_onnx_file(external_model, t.root / "b" / "m.onnx", external(4096));
    Model again = import_file(t.root / "b" / "m.onnx", full());
    for (uint64_t offset : external_offsets(again)) BOOST_TEST(offset % 4096 == 0u);
    BOOST_TEST(storage_blind(dump_of(again)) == storage_blind(dump_of(original)));
    // And inline: the loaded bytes go back into raw_data.
    BOOST_TEST(storage_blind(dump_of(import_bytes(write_onnx_bytes(external_model), "inline", full()))) ==
               storage_blind(dump_of(original)));
}

BOOST_AUTO_TEST_CASE(no_output_replaces_the_input_or_a_file_it_reads) {
    // docs/write.md, "The input survives": compared by device and inode, so a hard link to
    // the input is refused as the input itself is; the input's bytes stay as they were.
    TempDir t;
    onnximport::write_onnx_file(rich(), t.root / "m.onnx", external(64));
    fs::create_hard_link(t.root / "weights.bin", t.root / "alias.bin");
    const std::string model_bytes = read_all(t.root / "m.onnx"), weights = read_all(t.root / "weights.bin");
    Model input = import_file(t.root / "m.onnx", full());
    const auto refused = [&](auto write) {
        const ImportError e = refusal_of(write);
        BOOST_TEST(to_string(e.kind()) == "Unsupported");
        BOOST_TEST(e.message().find("the input model or a file it reads") != std::string::npos, e.message());
    };
    WriteOptions as_model = external(64), as_alias = external(64);
    as_model.external_data.file = "m.onnx";
    as_alias.external_data.file = "alias.bin";
    refused([&] { onnximport::write_onnx_file(input, t.root / "out.onnx", as_model); });
    refused([&] { onnximport::write_onnx_file(input, t.root / "out.onnx", external(64)); });
    refused([&] { onnximport::write_onnx_file(input, t.root / "out.onnx", as_alias); });
    refused([&] { onnximport::write_onnx_file(input, t.root / "m.onnx"); });
    write_text(t.root / "small.onnx", tb::minimal_model());  // a model the .ort writer takes
    fs::create_hard_link(t.root / "small.onnx", t.root / "small.ort");
    const Model small = import_file(t.root / "small.onnx", full());
    refused([&] { onnximport::write_ort_file(small, t.root / "small.ort"); });
    BOOST_TEST(read_all(t.root / "m.onnx") == model_bytes);
    BOOST_TEST(read_all(t.root / "weights.bin") == weights);
    BOOST_TEST(read_all(t.root / "small.ort") == tb::minimal_model());
    BOOST_TEST(listing(t.root) ==
               (std::set<std::string>{"alias.bin", "m.onnx", "small.onnx", "small.ort", "weights.bin"}));
}

BOOST_AUTO_TEST_CASE(external_tensors_that_were_not_loaded_are_refused) {
    TempDir t;
    onnximport::write_onnx_file(rich(), t.root / "m.onnx", external(64));
    ImportOptions o;
    o.load_external_data = false;
    Model unloaded = import_file(t.root / "m.onnx", o);
    BOOST_TEST(to_string(refusal_of([&] { write_onnx_bytes(unloaded); }).kind()) == "ExternalData");
}

BOOST_AUTO_TEST_CASE(an_unloaded_tensor_is_refused_by_its_name_with_control_bytes_escaped) {
    WireWriter w;  // "w\x01", FLOAT [1], in w.bin, which nothing reads
    w.int_field(P::Tensor::dims, 1).int_field(P::Tensor::data_type, 1).bytes_field(P::Tensor::name, "w\x01");
    w.message(P::Tensor::external_data, tb::string_entry("location", "w.bin")).int_field(P::Tensor::data_location, 1);
    WireWriter g = tb::minimal_graph();
    g.message(P::Graph::initializer, w);
    ImportOptions o;
    o.load_external_data = false;
    const std::string bytes = tb::model(g).str();
    Model unloaded = onnximport::import_bytes(std::span(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()),
                                              "m.onnx", o);
    const std::string message = refusal_of([&] { write_onnx_bytes(unloaded); }).message();
    BOOST_TEST(message.find("tensor 'w\\x01'") != std::string::npos, message);
}

BOOST_AUTO_TEST_CASE(a_disk_full_in_either_file_leaves_nothing_behind) {
    const uint64_t model_size = write_bytes(rich()).size();
    for (uint64_t fail_after : {uint64_t{0}, model_size / 2, model_size + 100}) {
        BOOST_TEST_CONTEXT("failing after " << fail_after << " bytes") {
            TempDir t;
            onnximport::detail::WriteFaults faults;
            faults.fail_after = fail_after;
            auto e =
                refusal_of([&] { onnximport::detail::write_onnx(rich(), t.root / "m.onnx", external(64), &faults); });
            BOOST_TEST(to_string(e.kind()) == "Io");
            BOOST_TEST(listing(t.root).empty());
        }
    }
}

BOOST_AUTO_TEST_CASE(several_threads_write_the_same_external_file) {
    TempDir t;
    fs::create_directories(t.root / "one");
    fs::create_directories(t.root / "two");
    WriteOptions o = external(4096);  // three tensors over three pages: a share each
    onnximport::write_onnx_file(rich(), t.root / "one" / "m.onnx", o);
    for (unsigned threads : {2u, 3u, 64u}) {
        BOOST_TEST_CONTEXT(threads << " threads") {
            fs::remove_all(t.root / "two");
            fs::create_directories(t.root / "two");
            o.threads = threads;
            onnximport::write_onnx_file(rich(), t.root / "two" / "m.onnx", o);
            BOOST_TEST(read_all(t.root / "one" / "weights.bin") == read_all(t.root / "two" / "weights.bin"));
            BOOST_TEST(read_all(t.root / "one" / "m.onnx") == read_all(t.root / "two" / "m.onnx"));
        }
    }
}

BOOST_AUTO_TEST_CASE(a_target_folder_that_is_a_link_out_is_refused_and_nothing_written) {
    TempDir t;
    fs::create_directories(t.root / "outside");
    fs::create_directory_symlink(t.root / "outside", t.root / "out");
    auto e = refusal_of([&] { onnximport::write_onnx_file(rich(), t.root / "out" / "m.onnx", external(64)); });
    BOOST_TEST(to_string(e.kind()) == "Unsupported");
    BOOST_TEST(listing(t.root / "outside").empty());
}

BOOST_AUTO_TEST_CASE(a_link_at_the_model_name_is_refused_and_leaves_no_external_file) {
    TempDir t;
    fs::create_directories(t.root / "out");
    write_text(t.root / "victim", "keep");
    fs::create_symlink(t.root / "victim", t.root / "out" / "m.onnx");
    auto e = refusal_of([&] { onnximport::write_onnx_file(rich(), t.root / "out" / "m.onnx", external(64)); });
    BOOST_TEST(to_string(e.kind()) == "Unsupported");
    BOOST_TEST(read_all(t.root / "victim") == "keep");
    BOOST_TEST(listing(t.root / "out") == std::set<std::string>{"m.onnx"});
}

BOOST_AUTO_TEST_CASE(an_external_name_that_would_escape_is_refused_and_nothing_written) {
    TempDir t;
    fs::create_directories(t.root / "out");
    for (std::string name : {"../w.bin", "/tmp/w.bin", "sub/../../w.bin", "m.onnx"}) {
        BOOST_TEST_CONTEXT("external name " << name) {
            WriteOptions o = external(64);
            o.external_data.file = name;
            auto e = refusal_of([&] { onnximport::write_onnx_file(rich(), t.root / "out" / "m.onnx", o); });
            BOOST_TEST((to_string(e.kind()) == "ExternalData" || to_string(e.kind()) == "Unsupported"));
            BOOST_TEST(listing(t.root / "out").empty());
            BOOST_TEST(listing(t.root) == std::set<std::string>{"out"});
        }
    }
}

BOOST_AUTO_TEST_CASE(an_alignment_that_is_not_a_power_of_two_is_refused) {
    TempDir t;
    for (uint64_t alignment : {0u, 3u, 100u}) {
        auto e = refusal_of([&] { onnximport::write_onnx_file(rich(), t.root / "m.onnx", external(alignment)); });
        BOOST_TEST(to_string(e.kind()) == "Unsupported");
    }
    BOOST_TEST(listing(t.root).empty());
}

BOOST_AUTO_TEST_CASE(progress_reaches_the_total) {
    TempDir t;
    WriteOptions o = external(64);
    uint64_t last_done = 0, last_total = 0;
    o.progress = [&](uint64_t done, uint64_t total) {
        last_done = done;
        last_total = total;
    };
    onnximport::write_onnx_file(rich(), t.root / "m.onnx", o);
    BOOST_TEST(last_total == fs::file_size(t.root / "m.onnx") + fs::file_size(t.root / "weights.bin"));
    BOOST_TEST(last_done == last_total);
}

BOOST_AUTO_TEST_CASE(a_taken_external_name_gets_a_generation_and_another_models_data_is_left_alone) {
    // a.onnx's data is weights.bin; m.onnx asks for the same name twice (docs/write.md, "Generations").
    TempDir t;
    const Model original = rich();
    WriteOptions o = external(64);
    onnximport::write_onnx_file(original, t.root / "a.onnx", o);
    std::vector<std::string> generations;
    o.generation = [&](const std::string& written) { generations.push_back(written); };
    const fs::path held = t.root / "w.0123456789abcdef.bin";  // a live writer's, not yet named by its model
    write_text(held, "held");
    const int lock = ::open(held.c_str(), O_RDONLY | O_CLOEXEC);
    BOOST_REQUIRE(lock >= 0 && ::flock(lock, LOCK_EX) == 0);
    for (int round = 0; round < 2; ++round) {
        onnximport::write_onnx_file(original, t.root / "m.onnx", o);
        BOOST_TEST_REQUIRE(generations.size() == static_cast<size_t>(round + 1));
        BOOST_TEST(onnximport::detail::is_generation_name(generations.back()));
        BOOST_TEST(listing(t.root) == (std::set<std::string>{"a.onnx", "weights.bin", "m.onnx", generations.back(),
                                                             held.filename().string()}));
        for (const char* name : {"a.onnx", "m.onnx"})
            BOOST_TEST(storage_blind(dump_of(import_file(t.root / name))) == storage_blind(dump_of(original)), name);
    }
    ::close(lock);
    BOOST_TEST(generations[0] != generations[1]);  // the first was superseded and removed
}

BOOST_AUTO_TEST_CASE(a_link_planted_at_the_external_name_is_refused_and_not_written_through) {
    // The onnx save-side shape of 2026 (loader bugs): a link at the data file's name, to a file the
    // writer must not touch. Refused (docs/write.md, "The output layer"), nothing written.
    TempDir t;
    write_text(t.root / "victim", "keep");
    fs::create_symlink(t.root / "victim", t.root / "weights.bin");
    auto e = refusal_of([&] { onnximport::write_onnx_file(rich(), t.root / "m.onnx", external(64)); });
    BOOST_TEST(to_string(e.kind()) == "Unsupported");
    BOOST_TEST(read_all(t.root / "victim") == "keep");
    BOOST_TEST(fs::is_symlink(t.root / "weights.bin"));
    BOOST_TEST(listing(t.root) == (std::set<std::string>{"victim", "weights.bin"}));
}

BOOST_AUTO_TEST_CASE(a_generation_a_model_in_the_data_folder_names_is_left_alone) {
    // sub/other.onnx names its own generation sub/w.<hex>.bin; m.onnx writes sub/weights.bin twice.
    TempDir t;
    fs::create_directory(t.root / "sub");
    const Model original = rich();
    WriteOptions o = external(64);
    for (int i = 0; i < 2; ++i) onnximport::write_onnx_file(original, t.root / "sub" / "other.onnx", o);
    const std::set<std::string> other = listing(t.root / "sub");
    BOOST_TEST_REQUIRE(other.size() == 2u);  // other.onnx and its generation: weights.bin was superseded
    o.external_data.file = "sub/weights.bin";
    for (int i = 0; i < 3; ++i) onnximport::write_onnx_file(original, t.root / "m.onnx", o);
    std::set<std::string> now = listing(t.root / "sub");
    for (const auto& name : other) BOOST_TEST(now.erase(name) == 1u, name);
    BOOST_TEST(now.size() == 1u);  // m.onnx's one data file
    BOOST_TEST(storage_blind(dump_of(import_file(t.root / "sub" / "other.onnx"))) == storage_blind(dump_of(original)));
    BOOST_TEST(storage_blind(dump_of(import_file(t.root / "m.onnx"))) == storage_blind(dump_of(original)));
}

BOOST_AUTO_TEST_CASE(a_generation_named_across_the_first_mebibyte_of_a_model_is_kept) {
    // The names are searched chunk by chunk (write/generations.cpp): a name straddling two is found.
    TempDir t;
    const std::string named = "w.0123456789abcdef.bin", orphan = "w.fedcba9876543210.bin";
    write_text(t.root / "big.onnx", std::string((size_t{1} << 20) - 5, 'x') + named + "y");
    write_text(t.root / named, "big.onnx's data");
    write_text(t.root / orphan, "no model names it");
    onnximport::write_onnx_file(rich(), t.root / "m.onnx", external(64));
    BOOST_TEST(listing(t.root) == (std::set<std::string>{"big.onnx", named, "m.onnx", "weights.bin"}));
}

BOOST_AUTO_TEST_SUITE_END()
