// cli/truncation_guard: a read past the end of a shrunken mapped file, on the calling
// thread or another one, is survived and seen while a guard lives, and kills the process
// as before without one (docs/cli.md, "A file that shrinks").
#include "truncation_guard.hpp"

#include <boost/test/unit_test.hpp>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <string>
#include <sys/mman.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using onnximport::cli::TruncationGuard;

namespace {

/// A file of three pages of 0xAB mapped private, then truncated to one page: the second
/// and third pages of the mapping lie past the file's end.
struct ShrunkMapping {
    size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    unsigned char* base = nullptr;

    ShrunkMapping() {
        char path[] = "/tmp/onnx-gauntlet-guard-XXXXXX";
        int fd = ::mkstemp(path);
        BOOST_REQUIRE(fd >= 0);
        ::unlink(path);
        std::string bytes(3 * page, '\xab');
        BOOST_REQUIRE(::write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size()));
        void* p = ::mmap(nullptr, 3 * page, PROT_READ, MAP_PRIVATE, fd, 0);
        BOOST_REQUIRE(p != MAP_FAILED);
        base = static_cast<unsigned char*>(p);
        BOOST_REQUIRE(::ftruncate(fd, static_cast<off_t>(page)) == 0);
        ::close(fd);
    }
    ~ShrunkMapping() { ::munmap(base, 3 * page); }

    unsigned char read(size_t offset) const { return *static_cast<volatile unsigned char*>(base + offset); }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(cli_truncation_guard)

BOOST_AUTO_TEST_CASE(pages_within_the_file_read_as_before_and_raise_nothing) {
    ShrunkMapping m;
    TruncationGuard guard;
    BOOST_TEST(m.read(10) == 0xAB);
    BOOST_TEST(!guard.truncated());
}

BOOST_AUTO_TEST_CASE(a_page_past_the_end_reads_as_zeros_and_is_reported) {
    ShrunkMapping m;
    TruncationGuard guard;
    BOOST_TEST(m.read(m.page + 5) == 0);
    BOOST_TEST(guard.truncated());
    BOOST_TEST(m.read(2 * m.page) == 0);  // the next page faults on its own
    BOOST_TEST(m.read(10) == 0xAB);       // the file's own page is untouched
}

BOOST_AUTO_TEST_CASE(a_new_guard_starts_clear) {
    ShrunkMapping m;
    { TruncationGuard first; m.read(m.page); BOOST_TEST(first.truncated()); }
    TruncationGuard second;
    BOOST_TEST(!second.truncated());
}

BOOST_AUTO_TEST_CASE(a_fault_on_another_thread_is_survived_and_reported) {
    ShrunkMapping m;
    TruncationGuard guard;
    unsigned char seen = 0xFF;
    std::thread([&] { seen = m.read(2 * m.page + 1); }).join();
    BOOST_TEST(seen == 0);
    BOOST_TEST(guard.truncated());
}

BOOST_AUTO_TEST_CASE(without_a_guard_the_fault_still_kills_with_sigbus) {
    ShrunkMapping m;
    { TruncationGuard ended; }
    std::fflush(nullptr);
    pid_t pid = ::fork();
    BOOST_REQUIRE(pid >= 0);
    if (pid == 0) {
        m.read(m.page);
        ::_exit(0);
    }
    int status = 0;
    BOOST_REQUIRE(::waitpid(pid, &status, 0) == pid);
    BOOST_TEST(WIFSIGNALED(status));
    BOOST_TEST(WTERMSIG(status) == SIGBUS);
}

BOOST_AUTO_TEST_SUITE_END()
