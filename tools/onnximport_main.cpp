// build/bin/onnximport: the command line of the importer (contract in ARCHITECTURE.md).
//   check [--max-nesting N] [--external-dir DIR] FILE...   one line per file; exit 0/1/2
//   dump [--max-nesting N] [--external-dir DIR] FILE       the structural dump to stdout
//   bench [--json] [--repeat N] FILE                       import timings (mapped, read) and
//                                                          peak memory, each mode in its own
//                                                          forked child (issue 7)
#include <onnximport/dump.hpp>
#include <onnximport/import.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

constexpr int exit_ok = 0, exit_refused = 1, exit_usage = 2;

void usage(std::ostream& os) {
    os << "usage: onnximport <command> [options] FILE...\n"
          "commands:\n"
          "  check [--max-nesting N] [--external-dir DIR] FILE...\n"
          "      one line per file: FILE<TAB>ok, or\n"
          "      FILE<TAB>KIND<TAB>OFFSET<TAB>FIELD_PATH<TAB>MESSAGE ('-' when unknown)\n"
          "      exit 0 if every file imported, 1 if any was refused, 2 for a usage error\n"
          "  dump [--max-nesting N] [--external-dir DIR] FILE\n"
          "      the structural dump (sweep/DUMP_FORMAT.md) to stdout\n"
          "  bench [--json] [--repeat N] FILE\n"
          "      import timings, mapped and read (median, min, max of N runs after a warm-up, default 5)\n"
          "      and the peak resident size of each mode, measured in its own child process\n"
          "  --help    this text\n";
}

/// Tabs and newlines would break the one-line-per-file contract.
std::string one_line(std::string s) {
    for (char& ch : s)
        if (ch == '\t' || ch == '\n' || ch == '\r') ch = ' ';
    return s;
}

struct Args {
    onnximport::ImportOptions options;
    std::vector<std::string> files;
};

/// Parses the shared options; returns false (after printing why) on a usage error.
bool parse_args(int argc, char** argv, int first, Args& a) {
    for (int i = first; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg == "--help" || arg == "-h") {
            usage(std::cout);
            std::exit(exit_ok);
        } else if (arg == "--max-nesting" && i + 1 < argc) {
            char* end = nullptr;
            long n = std::strtol(argv[++i], &end, 10);
            if (*end || n < onnximport::ImportOptions::min_nesting_limit ||
                n > onnximport::ImportOptions::max_nesting_limit) {
                std::cerr << "onnximport: --max-nesting must be an integer from 8 to 250\n";
                return false;
            }
            a.options.max_nesting = static_cast<int>(n);
        } else if (arg == "--external-dir" && i + 1 < argc) {
            a.options.external_data_dir = argv[++i];
        } else if (arg.size() > 1 && arg[0] == '-') {
            std::cerr << "onnximport: unknown option " << arg << "\n";
            return false;
        } else {
            a.files.push_back(arg);
        }
    }
    if (a.files.empty()) {
        std::cerr << "onnximport: no input file\n";
        return false;
    }
    return true;
}

void print_error_line(const std::string& file, const onnximport::ImportError& e) {
    std::cout << file << '\t' << onnximport::to_string(e.kind()) << '\t'
              << (e.offset() ? std::to_string(*e.offset()) : "-") << '\t'
              << (e.field_path().empty() ? "-" : e.field_path()) << '\t' << one_line(e.message()) << '\n';
}

int cmd_check(const Args& a) {
    int rc = exit_ok;
    for (const auto& file : a.files) {
        try {
            onnximport::import_file(file, a.options);
            std::cout << file << "\tok\n";
        } catch (const onnximport::ImportError& e) {
            print_error_line(file, e);
            rc = exit_refused;
        }
    }
    return rc;
}

int cmd_dump(const Args& a) {
    if (a.files.size() != 1) {
        std::cerr << "onnximport dump: exactly one FILE\n";
        return exit_usage;
    }
    try {
        auto model = onnximport::import_file(a.files[0], a.options);
        onnximport::write_dump(model, std::cout);
        return exit_ok;
    } catch (const onnximport::ImportError& e) {
        std::cerr << e.what() << '\n';
        return exit_refused;
    }
}

/// Resident figures of this process in KiB: VmRSS and VmHWM from /proc/self/status.
void resident_kib(long& rss, long& hwm) {
    rss = hwm = 0;
    std::FILE* f = std::fopen("/proc/self/status", "r");
    if (!f) return;
    char line[256];
    while (std::fgets(line, sizeof line, f)) {
        std::sscanf(line, "VmRSS: %ld", &rss);
        std::sscanf(line, "VmHWM: %ld", &hwm);
    }
    std::fclose(f);
}

/// One load mode of `bench`, in a forked child so that the peak resident size is the
/// import's alone. The child writes "ok MEDIAN MIN MAX PEAK BASELINE" or "error TEXT".
std::string bench_mode(const Args& a, onnximport::LoadMode mode, int repeat) {
    int fds[2];
    if (::pipe(fds) != 0) return "error pipe failed";
    std::cout.flush();
    pid_t pid = ::fork();
    if (pid < 0) return "error fork failed";
    if (pid == 0) {
        ::close(fds[0]);
        std::ostringstream os;
        try {
            long baseline = 0, hwm = 0;
            resident_kib(baseline, hwm);
            onnximport::ImportOptions o = a.options;
            o.load_mode = mode;
            std::vector<double> ms;
            for (int k = 0; k <= repeat; ++k) {  // run 0 is the warm-up
                auto t0 = std::chrono::steady_clock::now();
                auto m = onnximport::import_file(a.files[0], o);
                double t = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
                if (k) ms.push_back(t);
            }
            std::sort(ms.begin(), ms.end());
            double med = ms.size() % 2 ? ms[ms.size() / 2] : (ms[ms.size() / 2 - 1] + ms[ms.size() / 2]) / 2;
            long rss = 0;
            resident_kib(rss, hwm);
            os << "ok " << med << ' ' << ms.front() << ' ' << ms.back() << ' ' << hwm << ' ' << baseline;
        } catch (const std::exception& e) {
            os << "error " << one_line(e.what());
        }
        std::string out = os.str();
        ssize_t ignored = ::write(fds[1], out.data(), out.size());
        (void)ignored;
        ::_exit(0);
    }
    ::close(fds[1]);
    std::string out;
    char buf[512];
    for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(n));
    ::close(fds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    return out.empty() ? "error the measuring child died" : out;
}

int cmd_bench(const Args& a, bool json, int repeat) {
    if (a.files.size() != 1) {
        std::cerr << "onnximport bench: exactly one FILE\n";
        return exit_usage;
    }
    const std::pair<const char*, onnximport::LoadMode> modes[] = {{"map", onnximport::LoadMode::Map},
                                                                 {"read", onnximport::LoadMode::Read}};
    int rc = exit_ok;
    std::ostringstream js;
    js << "{\"file\": \"" << a.files[0] << "\", \"repeat\": " << repeat << ", \"modes\": {";
    bool first = true;
    for (auto [name, mode] : modes) {
        std::istringstream in(bench_mode(a, mode, repeat));
        std::string status;
        in >> status;
        if (status != "ok") {
            std::string why;
            std::getline(in, why);
            std::cerr << "onnximport bench: " << name << ":" << why << '\n';
            rc = exit_refused;
            continue;
        }
        double med, lo, hi;
        long peak, base;
        in >> med >> lo >> hi >> peak >> base;
        if (json) {
            js << (first ? "" : ", ") << '"' << name << "\": {\"median_ms\": " << med << ", \"min_ms\": " << lo
               << ", \"max_ms\": " << hi << ", \"peak_rss_kib\": " << peak << ", \"baseline_rss_kib\": " << base
               << "}";
            first = false;
        } else {
            std::cout << name << ": median " << med << " ms (min " << lo << ", max " << hi << "), peak resident "
                      << peak / 1024.0 << " MiB (" << (peak - base) / 1024.0 << " MiB above the process baseline)\n";
        }
    }
    js << "}}";
    if (json) std::cout << js.str() << '\n';
    return rc;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        usage(std::cerr);
        return exit_usage;
    }
    std::string cmd = argv[1];
    if (cmd == "--help" || cmd == "-h" || cmd == "help") {
        usage(std::cout);
        return exit_ok;
    }
    Args a;
    if (cmd == "check") {
        if (!parse_args(argc, argv, 2, a)) return exit_usage;
        return cmd_check(a);
    }
    if (cmd == "dump") {
        if (!parse_args(argc, argv, 2, a)) return exit_usage;
        return cmd_dump(a);
    }
    if (cmd == "bench") {
        // --json and --repeat are bench's own; the rest are the shared options.
        bool json = false;
        int repeat = 5;
        std::vector<char*> rest{argv[0], argv[1]};
        for (int i = 2; i < argc; ++i) {
            if (std::strcmp(argv[i], "--json") == 0) json = true;
            else if (std::strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) repeat = std::max(1, std::atoi(argv[++i]));
            else rest.push_back(argv[i]);
        }
        if (!parse_args(static_cast<int>(rest.size()), rest.data(), 2, a)) return exit_usage;
        return cmd_bench(a, json, repeat);
    }
    std::cerr << "onnximport: unknown command " << cmd << "\n";
    usage(std::cerr);
    return exit_usage;
}
