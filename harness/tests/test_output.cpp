// Suite `output`: the writers' output layer (issue 18) — files that appear whole or not at
// all, the output folder and names beneath it never reached through a link, names that
// would escape refused, short writes and a full disk, the aligned external-data sink.
#include "core_support.hpp"
#include "write_support.hpp"

#include "write/aligned_sink.hpp"
#include "write/atomic_file.hpp"
#include "write/faults.hpp"
#include "write/output_dir.hpp"

#include <boost/test/unit_test.hpp>

#include <csignal>
#include <cstddef>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace core_test;
using namespace write_test;
using onnximport::detail::AlignedLayout;
using onnximport::detail::AlignedSink;
using onnximport::detail::AtomicFile;
using onnximport::detail::OutputDir;
using onnximport::detail::WriteFaults;

namespace {

std::span<const std::byte> bytes(const std::string& s) { return std::as_bytes(std::span(s.data(), s.size())); }

/// Writes `text` to `name` beneath `dir` and commits it.
void write_file(const fs::path& dir, const std::string& name, const std::string& text) {
    OutputDir out(dir);
    AtomicFile f(out, name);
    f.write(bytes(text));
    f.commit();
}

ErrorKind kind_of_write(const fs::path& dir, const std::string& name) {
    return refusal_of([&] { write_file(dir, name, "x"); }).kind();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(output)

BOOST_AUTO_TEST_CASE(a_file_appears_only_when_committed) {
    TempDir t;
    OutputDir out(t.root);
    AtomicFile f(out, "model.onnx");
    f.write(bytes("hello "));
    f.write(bytes("world"));
    BOOST_TEST(listing(t.root).count("model.onnx") == 0);
    f.commit();
    BOOST_TEST(listing(t.root) == std::set<std::string>{"model.onnx"});
    BOOST_TEST(read_all(t.root / "model.onnx") == "hello world");
}

BOOST_AUTO_TEST_CASE(a_file_dropped_before_commit_leaves_nothing) {
    TempDir t;
    {
        OutputDir out(t.root);
        AtomicFile f(out, "model.onnx");
        f.write(bytes("half"));
        f.prepare();  // named beside its final name: the destructor must remove that too
    }
    BOOST_TEST(listing(t.root).empty());
}

BOOST_AUTO_TEST_CASE(short_writes_still_write_everything) {
    TempDir t;
    WriteFaults faults;
    faults.max_chunk = 3;
    OutputDir out(t.root);
    AtomicFile f(out, "m.onnx", &faults);
    f.write(bytes("0123456789abcdef"));
    f.commit();
    BOOST_TEST(read_all(t.root / "m.onnx") == "0123456789abcdef");
}

BOOST_AUTO_TEST_CASE(a_full_disk_is_an_io_error_at_its_offset_and_leaves_nothing) {
    TempDir t;
    WriteFaults faults;
    faults.fail_after = 10;
    {
        OutputDir out(t.root);
        AtomicFile f(out, "m.onnx", &faults);
        auto e = refusal_of([&] { f.write(bytes("0123456789abcdef")); });
        BOOST_TEST(to_string(e.kind()) == "Io");
        BOOST_TEST(e.offset().value_or(0) == 10u);
        BOOST_TEST(e.message().find("No space left") != std::string::npos);
    }
    BOOST_TEST(listing(t.root).empty());
}

BOOST_AUTO_TEST_CASE(a_file_size_limit_in_a_child_is_an_io_error_and_leaves_nothing) {
    TempDir t;
    pid_t pid = ::fork();
    BOOST_REQUIRE(pid >= 0);
    if (pid == 0) {
        // The kernel's own refusal (EFBIG) instead of the seam: a real failing write().
        std::signal(SIGXFSZ, SIG_IGN);
        rlimit limit{4096, 4096};
        ::setrlimit(RLIMIT_FSIZE, &limit);
        try {
            write_file(t.root, "m.onnx", std::string(10000, 'x'));
        } catch (const ImportError& e) {
            ::_exit(e.kind() == ErrorKind::Io ? 0 : 2);
        }
        ::_exit(1);
    }
    int status = 0;
    BOOST_REQUIRE(::waitpid(pid, &status, 0) == pid);
    BOOST_TEST(WIFEXITED(status));
    BOOST_TEST(WEXITSTATUS(status) == 0);
    BOOST_TEST(listing(t.root).empty());
}

BOOST_AUTO_TEST_CASE(an_existing_file_is_replaced_whole) {
    TempDir t;
    write_text(t.root / "m.onnx", "old contents");
    write_file(t.root, "m.onnx", "new");
    BOOST_TEST(read_all(t.root / "m.onnx") == "new");
    BOOST_TEST(listing(t.root).size() == 1u);
}

BOOST_AUTO_TEST_CASE(an_existing_link_at_the_name_is_refused_and_its_target_untouched) {
    TempDir t;
    fs::create_directories(t.root / "out");
    write_text(t.root / "victim", "keep me");
    fs::create_symlink(t.root / "victim", t.root / "out" / "m.onnx");
    BOOST_TEST(to_string(kind_of_write(t.root / "out", "m.onnx")) == "Unsupported");
    BOOST_TEST(read_all(t.root / "victim") == "keep me");
    BOOST_TEST(fs::is_symlink(t.root / "out" / "m.onnx"));
    BOOST_TEST(listing(t.root / "out").size() == 1u);
}

BOOST_AUTO_TEST_CASE(a_target_folder_that_is_a_link_out_is_refused) {
    TempDir t;
    fs::create_directories(t.root / "outside");
    fs::create_directories(t.root / "inside");
    fs::create_directory_symlink(t.root / "outside", t.root / "inside" / "out");
    BOOST_TEST(to_string(kind_of_write(t.root / "inside" / "out", "m.onnx")) == "Unsupported");
    BOOST_TEST(to_string(kind_of_write(t.root / "inside" / "out" / ".", "m.onnx")) == "Unsupported");
    BOOST_TEST(listing(t.root / "outside").empty());
}

BOOST_AUTO_TEST_CASE(a_target_folder_passing_through_a_link_is_refused) {
    TempDir t;
    fs::create_directories(t.root / "real" / "sub");
    fs::create_directory_symlink(t.root / "real", t.root / "alias");
    BOOST_TEST(to_string(kind_of_write(t.root / "alias" / "sub", "m.onnx")) == "Unsupported");
    BOOST_TEST(listing(t.root / "real" / "sub").empty());
}

BOOST_AUTO_TEST_CASE(names_that_would_escape_are_refused) {
    TempDir t;
    fs::create_directories(t.root / "out");
    for (std::string name : {"../m.onnx", "/tmp/m.onnx", "a/../../m.onnx", "", "C:m.onnx", "sub/"}) {
        BOOST_TEST_INFO("name " << name);
        BOOST_TEST(to_string(kind_of_write(t.root / "out", name)) == "ExternalData");
    }
    BOOST_TEST(listing(t.root).size() == 1u);
    BOOST_TEST(listing(t.root / "out").empty());
}

BOOST_AUTO_TEST_CASE(a_name_in_an_existing_subfolder_is_written_but_not_through_a_link) {
    TempDir t;
    fs::create_directories(t.root / "out" / "weights");
    fs::create_directories(t.root / "elsewhere");
    fs::create_directory_symlink(t.root / "elsewhere", t.root / "out" / "linked");
    write_file(t.root / "out", "weights/w.bin", "abc");
    BOOST_TEST(read_all(t.root / "out" / "weights" / "w.bin") == "abc");
    BOOST_TEST(to_string(kind_of_write(t.root / "out", "linked/w.bin")) == "Unsupported");
    BOOST_TEST(to_string(kind_of_write(t.root / "out", "missing/w.bin")) == "Io");
    BOOST_TEST(listing(t.root / "elsewhere").empty());
}

BOOST_AUTO_TEST_CASE(a_failed_commit_of_several_files_publishes_none) {
    TempDir t;
    WriteFaults faults;
    {
        OutputDir out(t.root);
        AtomicFile a(out, "m.onnx", &faults);
        AtomicFile b(out, "m.data", &faults);
        a.write(bytes("model"));
        faults.fail_after = 5;
        BOOST_CHECK_THROW(b.write(bytes("data")), ImportError);
    }
    BOOST_TEST(listing(t.root).empty());
}

BOOST_AUTO_TEST_CASE(blobs_land_at_multiples_of_the_alignment_with_zeros_between) {
    for (uint64_t alignment : {1u, 64u, 4096u}) {
        TempDir t;
        OutputDir out(t.root);
        AtomicFile f(out, "w.bin");
        AlignedSink sink(f, alignment);
        std::vector<uint64_t> offsets;
        for (size_t n : {3u, 100u, 1u, 5000u}) offsets.push_back(sink.append(bytes(std::string(n, 'w'))));
        f.commit();
        const std::string file = read_all(t.root / "w.bin");
        uint64_t end = 0;
        size_t i = 0;
        for (size_t n : {3u, 100u, 1u, 5000u}) {
            BOOST_TEST_INFO("alignment " << alignment << ", blob " << i);
            BOOST_TEST(offsets[i] % alignment == 0u);
            BOOST_TEST(offsets[i] >= end);
            BOOST_TEST(offsets[i] - end < alignment);
            BOOST_TEST(file.substr(end, offsets[i] - end) == std::string(offsets[i] - end, '\0'));
            BOOST_TEST(file.substr(offsets[i], n) == std::string(n, 'w'));
            end = offsets[i] + n;
            ++i;
        }
        BOOST_TEST(file.size() == end);
    }
}

BOOST_AUTO_TEST_CASE(an_alignment_that_is_not_a_power_of_two_is_refused) {
    for (uint64_t alignment : {0u, 3u, 48u, 4095u}) {
        BOOST_TEST_INFO("alignment " << alignment);
        BOOST_TEST(to_string(refusal_of([&] { AlignedLayout(alignment, "w.bin"); }).kind()) == "Unsupported");
    }
    BOOST_TEST(to_string(refusal_of([&] { AlignedLayout(uint64_t{1} << 31, "w.bin"); }).kind()) == "Unsupported");
}

BOOST_AUTO_TEST_SUITE_END()
