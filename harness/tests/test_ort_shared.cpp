// Suite ort_shared: the hostile .ort cases of shared objects (hostile/src/cases_ort_shared.cpp)
// are refused with memory and time bounded by the file's size (docs/rules.md O15). Each is
// imported in a child process, whose peak RSS and CPU time the kernel reports at its end;
// before the bound, these files reached gigabytes and ran for minutes.
#include <onnximport/import.hpp>
#include <sanitizers.hpp>

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <valgrind/valgrind.h>  // the valgrind package, which install_deps.sh installs
#include <vector>

using namespace onnximport;
namespace fs = std::filesystem;

namespace {

struct Usage {
    int status = -1;
    long peak_kib = 0;
    double cpu_seconds = 0;
};

/// Runs `work` in a child: its exit status (0: refused as Unsupported), peak RSS and CPU time.
template <class Work>
Usage in_child(Work work) {
    const pid_t pid = ::fork();
    if (pid == 0) ::_exit(work());
    Usage u;
    rusage r{};
    ::wait4(pid, &u.status, 0, &r);
    u.peak_kib = r.ru_maxrss;
    u.cpu_seconds = double(r.ru_utime.tv_sec + r.ru_stime.tv_sec) + (r.ru_utime.tv_usec + r.ru_stime.tv_usec) / 1e6;
    return u;
}

std::vector<uint8_t> read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ort_shared)

BOOST_AUTO_TEST_CASE(shared_objects_are_refused_in_memory_and_time_bounded_by_the_file) {
    // Under memcheck a forked child exits through valgrind's leak report and exit code.
    if (RUNNING_ON_VALGRIND) return;
    const fs::path dir = fs::path(GAUNTLET_SOURCE_DIR) / "hostile" / "corpus";
    const Usage idle = in_child([] { return 0; });
    size_t cases = 0;
    for (const char* name : {"unsupported-ort-shared-tensor-1mib-name.ort", "unsupported-ort-shared-ints-list.ort",
                             "unsupported-ort-shared-node-inputs.ort", "unsupported-ort-diamond-of-subgraphs.ort",
                             "unsupported-ort-shared-scalar-attribute.ort",
                             "unsupported-ort-shared-type-1mib-denotation.ort",
                             "unsupported-ort-shared-raw-tensor-1mib.ort"}) {
        const std::vector<uint8_t> bytes = read(dir / name);
        BOOST_TEST_REQUIRE(!bytes.empty(), name);
        const Usage u = in_child([&] {
            try {
                (void)import_bytes(std::span<const uint8_t>(bytes), name);
            } catch (const ImportError& e) {
                return e.kind() == ErrorKind::Unsupported ? 0 : 1;
            }
            return 2;
        });
        const long grown_kib = u.peak_kib - idle.peak_kib;
        BOOST_TEST_INFO(name << ": " << bytes.size() << " bytes, RSS grew " << grown_kib << " KiB, CPU "
                             << u.cpu_seconds << " s");
        BOOST_TEST((WIFEXITED(u.status) && WEXITSTATUS(u.status) == 0));
        ++cases;
        if (onnximport::testing::sanitized) continue;  // shadow memory, slower accesses: the verdict alone
        // Twice the walk's budget (O15), which leaves room for the arena's blocks (docs/performance.md).
        BOOST_TEST_INFO(name);
        BOOST_TEST(grown_kib <= long(32 * bytes.size() / 1024 + 8 * 1024));
        BOOST_TEST_INFO(name);
        BOOST_TEST(u.cpu_seconds < 5.0);  // each takes milliseconds; minutes before the bound
    }
    BOOST_TEST(cases == 7u);
}

BOOST_AUTO_TEST_SUITE_END()
