// Suites `errors` and `memory`: the one exception type and its fields (spec section 7),
// and where tensor bytes live (section 6) — map versus read and the 1 MiB threshold,
// caller bytes used in place, close() releasing the storage, to_tensor() copying.
#include "core_support.hpp"

#include "model/access.hpp"
#include "wire/reader.hpp"

#include <numbered.hpp>

#include <boost/test/unit_test.hpp>

#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <cstdio>
#include <fcntl.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using onnximport::testing::numbered;
using namespace core_test;

namespace {

/// A temporary model file, removed when the test ends.
struct TempFile {
    std::filesystem::path path;
    TempFile(const std::string& bytes, const char* tag) {
        path = std::filesystem::temp_directory_path() /
               ("onnx-gauntlet-mem-" + std::string(tag) + "-" + std::to_string(::getpid()) + ".onnx");
        std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }
    ~TempFile() { std::filesystem::remove(path); }
};

/// The minimal model plus a FLOAT[2] initializer "W" whose raw bytes are `raw`, and,
/// optionally, an unknown field padding the file to exactly `total` bytes.
std::string model_with_weight(const std::string& raw, uint64_t total = 0) {
    WireWriter g = tb::minimal_graph();
    g.message(proto::Graph::initializer, tb::tensor_raw("W", 1, {2}, raw));
    std::string m = tb::model(g).str();
    if (total) {
        // key of field 1000 (2 bytes) + length varint + payload = what is missing.
        uint64_t missing = total - m.size();
        uint64_t len = missing - 2 - onnximport::testing::varint_size(missing);
        if (2 + onnximport::testing::varint_size(len) + len != missing) ++len;
        m += WireWriter().bytes_field(1000, std::string(len, 'p')).str();
        BOOST_REQUIRE(m.size() == total);
    }
    return m;
}

const std::string raw8 = std::string("\x00\x00\x80\x3F\x00\x00\x00\x40", 8);  // 1.0f, 2.0f

const TensorView& weight(const Model& m) { return m.graph()->initializers.at(0); }

bool inside(const void* p, const void* begin, uint64_t size) {
    auto* b = static_cast<const std::byte*>(begin);
    auto* q = static_cast<const std::byte*>(p);
    return q >= b && q < b + size;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(errors)

BOOST_AUTO_TEST_CASE(import_error_carries_kind_source_offset_path_and_message) {
    ImportError e(ErrorKind::ExternalData, "m.onnx", 42, "ModelProto.graph.initializer[0]", "location is absolute");
    BOOST_TEST(to_string(e.kind()) == "ExternalData");
    BOOST_TEST(e.source_name() == "m.onnx");
    BOOST_TEST(e.offset().value() == 42u);
    BOOST_TEST(e.field_path() == "ModelProto.graph.initializer[0]");
    BOOST_TEST(e.message() == "location is absolute");
    std::string what = e.what();
    for (const char* part : {"ExternalData", "m.onnx", "42", "ModelProto.graph.initializer[0]", "location is absolute"})
        BOOST_TEST(what.find(part) != std::string::npos, "what() lacks " << part << ": " << what);
    // Without offset or path, what() does not invent them.
    ImportError bare(ErrorKind::Io, "x", std::nullopt, "", "gone");
    BOOST_TEST(!bare.offset());
    BOOST_TEST(std::string(bare.what()).find(" at byte") == std::string::npos);
    BOOST_TEST(std::string(bare.what()).find('(') == std::string::npos);
}

BOOST_AUTO_TEST_CASE(error_kinds_have_stable_names) {
    BOOST_TEST(to_string(ErrorKind::Malformed) == "Malformed");
    BOOST_TEST(to_string(ErrorKind::InvalidModel) == "InvalidModel");
    BOOST_TEST(to_string(ErrorKind::Unsupported) == "Unsupported");
    BOOST_TEST(to_string(ErrorKind::ExternalData) == "ExternalData");
    BOOST_TEST(to_string(ErrorKind::Io) == "Io");
    BOOST_TEST(to_lower_string(ErrorKind::Malformed) == "malformed");
    BOOST_TEST(to_lower_string(ErrorKind::InvalidModel) == "invalidmodel");
    BOOST_TEST(to_lower_string(ErrorKind::Unsupported) == "unsupported");
    BOOST_TEST(to_lower_string(ErrorKind::ExternalData) == "externaldata");
    BOOST_TEST(to_lower_string(ErrorKind::Io) == "io");
}

BOOST_AUTO_TEST_CASE(import_error_is_a_runtime_error) {
    try {
        import_model(tb::minimal_model() + "\x80");
        BOOST_FAIL("accepted");
    } catch (const std::runtime_error& e) {
        BOOST_TEST(std::string(e.what()).find("Malformed") != std::string::npos);
    }
}

BOOST_AUTO_TEST_CASE(errors_name_the_input_they_came_from) {
    std::string bad = tb::minimal_model() + "\x80";
    BOOST_TEST(refusal_of([&] { import_bytes(span_of(bad), "caller-name", parse_only()); }).source_name() ==
               "caller-name");
    BOOST_TEST(refusal_of([&] {
                   onnximport::detail::import_tensor_bytes(span_of(bad), "tensor-name", parse_only());
               }).source_name() == "tensor-name");
    TempFile f(bad, "name");
    auto e = refusal_of([&] { import_file(f.path, parse_only()); });
    BOOST_TEST(e.source_name() == f.path.string());
    // Offsets in a file count from its first byte, as in a byte array.
    check_error(e, ErrorKind::Malformed, bad.size() - 1, "ModelProto");
}

BOOST_AUTO_TEST_CASE(missing_file_is_io_without_offset_or_path) {
    auto e = refusal_of([] { import_file("/nonexistent/dir/model.onnx", parse_only()); });
    check_error(e, ErrorKind::Io, std::nullopt, "");
    BOOST_TEST(e.source_name() == "/nonexistent/dir/model.onnx");
}

BOOST_AUTO_TEST_CASE(a_fifo_as_the_model_path_is_io_at_once) {
    // Opening a FIFO for reading would block until a writer comes: it is refused first.
    const auto path = std::filesystem::temp_directory_path() / numbered("gauntlet-fifo-", ::getpid());
    BOOST_REQUIRE(::mkfifo(path.c_str(), 0600) == 0);
    auto e = refusal_of([&] { import_file(path, parse_only()); });
    std::filesystem::remove(path);
    check_error(e, ErrorKind::Io, std::nullopt, "");
    BOOST_TEST(e.message().find("FIFO") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_fifo_as_the_model_path_is_never_opened) {
    // A writer opening a FIFO blocks until a reader opens it: had the import opened the FIFO
    // (even non-blocking, even to refuse it at once), the writer's open would have returned.
    // Rule D8 (io/input.cpp): the path is checked with stat first.
    const auto path = std::filesystem::temp_directory_path() / numbered("gauntlet-fifo-w-", ::getpid());
    BOOST_REQUIRE(::mkfifo(path.c_str(), 0600) == 0);
    std::atomic<bool> writer_opened{false};
    std::thread writer([&] {
        int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);  // blocks until a reader comes
        writer_opened = fd >= 0;
        if (fd >= 0) ::close(fd);
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the writer is waiting by then
    auto e = refusal_of([&] { import_file(path, parse_only()); });
    std::this_thread::sleep_for(std::chrono::milliseconds(200));  // a woken writer has returned by then
    const bool opened_by_import = writer_opened;
    const int release = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);  // lets the writer go
    writer.join();
    if (release >= 0) ::close(release);
    std::filesystem::remove(path);
    check_error(e, ErrorKind::Io, std::nullopt, "");
    BOOST_TEST(!opened_by_import);
}

BOOST_AUTO_TEST_CASE(a_file_the_kernel_sizes_as_zero_is_read_to_its_end) {
    // /proc/version reports size 0 and holds "Linux version ...": read whole, its first
    // byte is a key of wire type 4, refused as a group at offset 0 (not an empty model).
    auto e = refusal_of([] { import_file("/proc/version", parse_only()); });
    check_error(e, ErrorKind::Malformed, 0, "ModelProto");
}

BOOST_AUTO_TEST_CASE(directory_is_io) {
    auto e = refusal_of([] { import_file(std::filesystem::temp_directory_path(), parse_only()); });
    check_error(e, ErrorKind::Io, std::nullopt, "");
}

BOOST_AUTO_TEST_CASE(empty_input_is_a_model_without_ir_version) {
    std::string empty;
    check_error(refusal_of([&] { import_model(empty); }), ErrorKind::InvalidModel, 0, "ModelProto.ir_version");
    TempFile f("", "empty");
    check_error(refusal_of([&] { import_file(f.path, parse_only()); }), ErrorKind::InvalidModel, 0,
                "ModelProto.ir_version");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(memory)

BOOST_AUTO_TEST_CASE(small_files_are_read_and_large_ones_mapped_in_auto_mode) {
    // "Models up to 1 MiB are read instead of mapped": exactly 1 MiB is read, one byte more is mapped.
    for (uint64_t size : {uint64_t{1} << 20, (uint64_t{1} << 20) + 1}) {
        BOOST_TEST_CONTEXT("file of " << size << " bytes") {
            TempFile f(model_with_weight(raw8, size), "auto");
            Model m = import_file(f.path, parse_only());
            BOOST_TEST(m.is_mapped() == (size > (uint64_t{1} << 20)));
            BOOST_TEST(m.input_size() == size);
            BOOST_TEST(weight(m).to_tensor().size() == 8u);
        }
    }
    TempFile small(model_with_weight(raw8), "small");
    BOOST_TEST(!import_file(small.path, parse_only()).is_mapped());
}

BOOST_AUTO_TEST_CASE(load_mode_forces_map_or_read) {
    TempFile f(model_with_weight(raw8), "mode");
    ImportOptions o = parse_only();
    o.load_mode = LoadMode::Map;
    BOOST_TEST(import_file(f.path, o).is_mapped());
    o.load_mode = LoadMode::Read;
    BOOST_TEST(!import_file(f.path, o).is_mapped());
    TempFile big(model_with_weight(raw8, (uint64_t{1} << 20) + 100), "mode-big");
    BOOST_TEST(!import_file(big.path, o).is_mapped());
    // The threshold is an option too.
    ImportOptions low = parse_only();
    low.map_threshold = 16;
    BOOST_TEST(import_file(f.path, low).is_mapped());
}

BOOST_AUTO_TEST_CASE(raw_tensor_bytes_are_a_view_into_the_mapped_or_read_file) {
    std::string bytes = model_with_weight(raw8);
    TempFile f(bytes, "view");
    const uint64_t raw_offset = bytes.find(raw8);
    for (LoadMode mode : {LoadMode::Map, LoadMode::Read}) {
        BOOST_TEST_CONTEXT("mode " << static_cast<int>(mode)) {
            ImportOptions o = parse_only();
            o.load_mode = mode;
            Model m = import_file(f.path, o);
            const uint8_t* input = detail::ModelAccess::storage(m).input.data();
            BOOST_TEST(static_cast<const void*>(weight(m).bytes().data()) ==
                       static_cast<const void*>(input + raw_offset));
        }
    }
}

BOOST_AUTO_TEST_CASE(caller_bytes_are_used_in_place) {
    std::string bytes = model_with_weight(raw8);
    const uint64_t raw_offset = bytes.find(raw8);
    Model m = import_bytes(span_of(bytes), "test.onnx", parse_only());  // in place, no copy
    auto view = weight(m).bytes();
    BOOST_TEST(static_cast<const void*>(view.data()) == static_cast<const void*>(bytes.data() + raw_offset));
    BOOST_TEST(static_cast<int>(weight(m).source) == static_cast<int>(TensorSource::Raw));
    // The view sees the caller's array: changing it changes what the tensor reads.
    bytes[raw_offset] = '\x7F';
    BOOST_TEST(static_cast<int>(weight(m).bytes()[0]) == 0x7F);
}

BOOST_AUTO_TEST_CASE(strings_are_views_into_the_caller_bytes) {
    // Zero-copy: names are not copied anywhere, which is why the caller's array must
    // outlive the Model. The exception is a tensor's name, copied because its bytes sit
    // next to weights whose pages the reader releases (read_tensor.cpp).
    std::string bytes = model_with_weight(raw8);
    Model m = import_bytes(span_of(bytes), "test.onnx", parse_only());  // in place, no copy
    const std::string_view op = m.graph()->nodes.at(0).op_type;
    BOOST_TEST(inside(m.proto().producer_name.data(), bytes.data(), bytes.size()));
    BOOST_TEST(inside(op.data(), bytes.data(), bytes.size()));
    BOOST_TEST(!inside(weight(m).name.data(), bytes.data(), bytes.size()));
    BOOST_TEST(m.proto().producer_name == "onnx-gauntlet");
    BOOST_TEST(weight(m).name == "W");
    bytes[static_cast<size_t>(op.data() - bytes.data())] = 'Q';
    BOOST_TEST(op.front() == 'Q');
    std::memset(bytes.data(), 'z', bytes.size());
    BOOST_TEST(weight(m).name == "W");
}

BOOST_AUTO_TEST_CASE(typed_field_data_is_converted_into_an_owned_array) {
    using T = proto::Tensor;
    WireWriter t = WireWriter()
                       .int_field(T::dims, 2)
                       .int_field(T::data_type, 1)
                       .float_field(T::float_data, 1.0f)
                       .float_field(T::float_data, 2.0f)
                       .bytes_field(T::name, "W");
    WireWriter g = tb::minimal_graph();
    g.message(proto::Graph::initializer, t);
    std::string bytes = tb::model(g).str();
    auto m = import_model(bytes);
    BOOST_TEST(static_cast<int>(weight(m).source) == static_cast<int>(TensorSource::Typed));
    BOOST_TEST(!inside(weight(m).bytes().data(), bytes.data(), bytes.size()));
    auto copy = weight(m).to_tensor();
    BOOST_TEST(std::memcmp(copy.data(), raw8.data(), 8) == 0);
}

BOOST_AUTO_TEST_CASE(bytes_after_close_throw_io) {
    std::string bytes = model_with_weight(raw8);
    using T = proto::Tensor;
    WireWriter typed = WireWriter()
                           .int_field(T::dims, 1)
                           .int_field(T::data_type, 7)
                           .int_field(T::int64_data, 5)
                           .bytes_field(T::name, "T");
    WireWriter g = tb::minimal_graph();
    g.message(proto::Graph::initializer, tb::tensor_raw("W", 1, {2}, raw8)).message(proto::Graph::initializer, typed);
    std::string two = tb::model(g).str();
    auto m = import_model(two);
    BOOST_TEST(!m.is_closed());
    m.close();
    BOOST_TEST(m.is_closed());
    for (const TensorView& t : m.graph()->initializers) {
        BOOST_TEST_CONTEXT("tensor " << t.name) {
            auto e = refusal_of([&] { (void)t.bytes(); });
            check_error(e, ErrorKind::Io, std::nullopt, "");
            BOOST_TEST(e.source_name() == "test.onnx");
            BOOST_TEST(e.message().find(std::string(t.name)) != std::string::npos);
            BOOST_CHECK_THROW((void)t.to_tensor(), ImportError);
            BOOST_TEST(t.byte_size() == 8u);  // metadata stays
        }
    }
    // Closing twice is harmless.
    m.close();
    BOOST_TEST(m.is_closed());
}

BOOST_AUTO_TEST_CASE(bytes_of_a_mapped_file_after_close_throw_io_and_strings_stay_valid) {
    TempFile f(model_with_weight(raw8), "close");
    for (LoadMode mode : {LoadMode::Map, LoadMode::Read}) {
        BOOST_TEST_CONTEXT("mode " << static_cast<int>(mode)) {
            ImportOptions o = parse_only();
            o.load_mode = mode;
            Model m = import_file(f.path, o);
            m.close();
            auto e = refusal_of([&] { (void)weight(m).bytes(); });
            check_error(e, ErrorKind::Io, std::nullopt, "");
            BOOST_TEST(e.source_name() == f.path.string());
            // Strings view the model input, which stays until the Model is destroyed.
            BOOST_TEST(m.proto().producer_name == "onnx-gauntlet");
            BOOST_TEST(m.graph()->nodes.at(0).op_type == "Identity");
        }
    }
}

BOOST_AUTO_TEST_CASE(to_tensor_copies_and_the_copy_outlives_close_and_the_model) {
    std::vector<std::byte> copy;
    {
        TempFile f(model_with_weight(raw8), "copy");
        ImportOptions o = parse_only();
        o.load_mode = LoadMode::Map;
        Model m = import_file(f.path, o);
        copy = weight(m).to_tensor();
        BOOST_TEST(static_cast<const void*>(copy.data()) != static_cast<const void*>(weight(m).bytes().data()));
        m.close();
    }
    BOOST_REQUIRE(copy.size() == 8u);
    BOOST_TEST(std::memcmp(copy.data(), raw8.data(), 8) == 0);
}

BOOST_AUTO_TEST_CASE(moving_a_model_keeps_its_views) {
    std::string bytes = model_with_weight(raw8);
    auto a = import_model(bytes);
    const void* before = weight(a).bytes().data();
    Model b = std::move(a);
    BOOST_TEST(weight(b).bytes().data() == before);
    BOOST_TEST(b.proto().producer_name == "onnx-gauntlet");
    // The moved-from Model is empty and safe to use.
    BOOST_TEST(!a.graph());
    BOOST_TEST(a.proto().producer_name.empty());
    BOOST_TEST(a.input_size() == 0u);
    a.close();
    b.close();
    BOOST_CHECK_THROW((void)weight(b).bytes(), ImportError);
}

BOOST_AUTO_TEST_CASE(large_payloads_of_a_mapped_file_read_back_exactly_and_the_file_is_unchanged) {
    // Payloads of the reader's large size and more: the pages behind them are released
    // (io/passed_pages.hpp). Odd sizes put the headers at every kind of page offset.
    constexpr int count = 6;
    auto payload = [](int i) {
        std::string raw(300001 + 4093 * static_cast<size_t>(i), '\0');
        for (size_t k = 0; k < raw.size(); ++k) raw[k] = static_cast<char>((i * 131 + k * 7 + (k >> 9)) & 0xFF);
        return raw;
    };
    WireWriter g = tb::minimal_graph();
    for (int i = 0; i < count; ++i) {
        std::string raw = payload(i);
        WireWriter t = tb::tensor_raw(numbered("w", i), 2, {static_cast<int64_t>(raw.size())}, raw);
        // After the payload: a string the Model views.
        t.message(proto::Tensor::metadata_props, tb::string_entry("k", numbered("after ", i)));
        g.message(proto::Graph::initializer, t);
    }
    const std::string bytes = tb::model(g).str();
    TempFile f(bytes, "large");
    auto file_bytes = [&] {
        std::ifstream in(f.path, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    {
        ImportOptions o = parse_only();
        o.load_mode = LoadMode::Map;
        Model m = import_file(f.path, o);
        BOOST_REQUIRE(m.graph()->initializers.size() == size_t{count});
        for (int i = 0; i < count; ++i) {
            const TensorView& t = m.graph()->initializers[static_cast<size_t>(i)];
            const std::string want = payload(i);
            BOOST_TEST(t.name == numbered("w", i));
            BOOST_TEST(std::memcmp(t.bytes().data(), want.data(), want.size()) == 0, "tensor " << i);
            BOOST_TEST(t.metadata_props.at(0).value == numbered("after ", i));
        }
        BOOST_TEST(m.graph()->nodes.at(0).op_type == "Identity");
        BOOST_TEST((file_bytes() == bytes));
        // close() drops every page of the mapping: the views read the file again.
        m.close();
        for (int i = 0; i < count; ++i)
            BOOST_TEST(m.graph()->initializers[static_cast<size_t>(i)].metadata_props.at(0).value ==
                       numbered("after ", i));
    }
    BOOST_TEST((file_bytes() == bytes));
}

BOOST_AUTO_TEST_CASE(the_model_file_is_mapped_read_only) {
    // The decode path never writes its input: the mapping itself refuses writes.
    const std::string bytes = model_with_weight(raw8);
    TempFile f(bytes, "readonly");
    ImportOptions o = parse_only();
    o.load_mode = LoadMode::Map;
    Model m = import_file(f.path, o);
    BOOST_REQUIRE(m.is_mapped());
    const auto at = reinterpret_cast<uintptr_t>(detail::ModelAccess::storage(m).input.data());
    std::ifstream maps("/proc/self/maps");
    std::string line, perms;
    while (std::getline(maps, line)) {
        uintptr_t lo = 0, hi = 0;
        char p[5] = {};
        if (std::sscanf(line.c_str(), "%lx-%lx %4s", &lo, &hi, p) == 3 && lo <= at && at < hi) perms = p;
    }
    BOOST_TEST(perms == "r--p");
}

BOOST_AUTO_TEST_CASE(empty_tensor_has_empty_bytes_until_close) {
    WireWriter g = tb::minimal_graph();
    g.message(proto::Graph::initializer, WireWriter()
                                             .int_field(proto::Tensor::dims, 0)
                                             .int_field(proto::Tensor::data_type, 1)
                                             .bytes_field(proto::Tensor::name, "E"));
    std::string bytes = tb::model(g).str();
    auto m = import_model(bytes);
    BOOST_TEST(weight(m).bytes().empty());
    BOOST_TEST(weight(m).to_tensor().empty());
    m.close();
    BOOST_CHECK_THROW((void)weight(m).bytes(), ImportError);
}

BOOST_AUTO_TEST_SUITE_END()
