// `onnximport bench FILE`: import timings, mapped and read (and with --memory, from bytes read
// once beforehand; with --steps, step by step), and each mode's peak resident size, measured in
// a forked child per mode so that the peak is the import's alone (docs/cli.md, "bench").
#include "commands.hpp"
#include "escape.hpp"
#include "input.hpp"
#include "output.hpp"

#include <onnximport/workspace.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <iostream>
#include <span>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace onnximport::cli {

namespace {

struct Timing {
    double median_ms = 0, min_ms = 0, max_ms = 0;
    long peak_kib = 0, baseline_kib = 0;
    std::vector<double> step_ms;  ///< per step, the median; empty without --steps
};

double median_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
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

/// The bytes of `file`, read once before the clock: the memory mode times the import alone.
/// @throws ImportError(Io), as import_file would for a file it cannot read
std::vector<uint8_t> read_whole(const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    std::vector<uint8_t> bytes;
    if (in) bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (!in && !in.eof())
        throw onnximport::ImportError(onnximport::ErrorKind::Io, file, std::nullopt, {}, "cannot read the file");
    return bytes;
}

/// Options for importing `file`'s bytes as import_file would the file: external data beside
/// the file (unless --external-dir says otherwise). A .ort's companion is the one the model
/// names (rule O7) or --ort-data's: naming FILE.data here would override the model's name.
onnximport::ImportOptions memory_options(const std::string& file, onnximport::ImportOptions options) {
    const std::filesystem::path path(file);
    if (!options.external_data_dir) options.external_data_dir = path.parent_path().empty() ? "." : path.parent_path();
    return options;
}

/// The child's work: a warm-up and `repeat` timed imports, which reuse one Workspace as a
/// program importing many models would; from memory, of bytes read before the first.
/// "ok MEDIAN MIN MAX PEAK BASELINE", then with `with_steps` each step's median, or "error "
/// and the refusal's text, raw (the parent escapes it for the terminal).
std::string measure(const std::string& file, onnximport::ImportOptions options, bool from_memory, int repeat,
                    bool with_steps) {
    long baseline = 0, hwm = 0;
    resident_kib(baseline, hwm);
    onnximport::Workspace workspace;
    options.workspace = &workspace;
    if (from_memory) options = memory_options(file, options);
    std::vector<uint8_t> bytes;
    std::vector<double> ms;
    std::vector<onnximport::ImportTimes> times;
    auto refusal = refusal_of(file, [&] {
        if (from_memory) bytes = read_whole(file);
        for (int k = 0; k <= repeat; ++k) {  // run 0 is the warm-up
            onnximport::ImportTimes t_steps;
            options.times = with_steps ? &t_steps : nullptr;
            auto t0 = std::chrono::steady_clock::now();
            auto m = from_memory ? onnximport::import_bytes(std::span<const uint8_t>(bytes), file, options)
                                 : onnximport::import_file(file, options);
            double t = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            if (k) ms.push_back(t), times.push_back(t_steps);
        }
    });
    if (refusal) return std::string("error ") + refusal->what();
    long rss = 0;
    resident_kib(rss, hwm);
    std::ostringstream os;
    os << "ok " << median_of(ms) << ' ' << *std::min_element(ms.begin(), ms.end()) << ' '
       << *std::max_element(ms.begin(), ms.end()) << ' ' << hwm << ' ' << baseline;
    for (const auto& [name, field] : onnximport::import_steps) {
        std::vector<double> v;
        for (const onnximport::ImportTimes& t : times) v.push_back(t.*field * 1e3);
        if (with_steps) os << ' ' << median_of(v);
    }
    return os.str();
}

/// measure() in a forked child; its answer, or "error ..." when the child failed.
std::string measure_in_child(const std::string& file, const onnximport::ImportOptions& options, bool from_memory,
                             int repeat, bool with_steps) {
    int fds[2];
    if (::pipe(fds) != 0) return "error pipe failed";
    std::cout.flush();
    pid_t pid = ::fork();
    if (pid < 0) return "error fork failed";
    if (pid == 0) {
        ::close(fds[0]);
        std::string out;
        try {
            out = measure(file, options, from_memory, repeat, with_steps);
        } catch (const std::exception& e) {
            out = std::string("error ") + e.what();
        }
        for (size_t done = 0; done < out.size();) {
            ssize_t n = ::write(fds[1], out.data() + done, out.size() - done);
            if (n <= 0) break;
            done += static_cast<size_t>(n);
        }
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

bool parse_timing(const std::string& answer, Timing& t) {
    std::istringstream in(answer);
    std::string status;
    in >> status >> t.median_ms >> t.min_ms >> t.max_ms >> t.peak_kib >> t.baseline_kib;
    for (double ms; in >> ms;) t.step_ms.push_back(ms);
    return status == "ok" && (t.step_ms.empty() || t.step_ms.size() == std::size(onnximport::import_steps));
}

void print_text(const char* mode, const Timing& t) {
    std::cout << mode << ": median " << t.median_ms << " ms (min " << t.min_ms << ", max " << t.max_ms
              << "), peak resident " << t.peak_kib / 1024.0 << " MiB (" << (t.peak_kib - t.baseline_kib) / 1024.0
              << " MiB above the process baseline)\n";
    for (size_t i = 0; i < t.step_ms.size(); ++i)
        std::cout << (i ? ", " : "  steps, median ms: ") << onnximport::import_steps[i].first << ' '
                  << t.step_ms[i] << (i + 1 == t.step_ms.size() ? "\n" : "");
}

nlohmann::ordered_json timing_record(const Timing& t) {
    nlohmann::ordered_json r = {{"median_ms", t.median_ms}, {"min_ms", t.min_ms}, {"max_ms", t.max_ms},
                                {"peak_rss_kib", t.peak_kib}, {"baseline_rss_kib", t.baseline_kib}};
    if (t.step_ms.empty()) return r;
    r["steps_ms"] = nlohmann::ordered_json::object();
    for (size_t i = 0; i < t.step_ms.size(); ++i)
        r["steps_ms"][onnximport::import_steps[i].first] = t.step_ms[i];
    return r;
}

}  // namespace

int run_bench(const ParsedArgs& args) {
    onnximport::ImportOptions options = import_options(args);
    if (args.operands.size() != 1) throw UsageError("bench: exactly one FILE");
    const std::string& file = args.operands[0];
    if (file == "-") throw UsageError("bench: standard input cannot be imported repeatedly; name a file");
    const int repeat = args.has("--repeat")
                           ? static_cast<int>(parse_integer("--repeat", args.values.find("--repeat")->second, 1, 10000))
                           : 5;
    const bool json = args.has("--json");
    const bool with_steps = args.has("--steps");
    struct Mode {
        const char* name;
        onnximport::LoadMode load_mode;
        bool from_memory;
    };
    std::vector<Mode> modes = {{"map", onnximport::LoadMode::Map, false}, {"read", onnximport::LoadMode::Read, false}};
    if (args.has("--memory")) modes.push_back({"memory", onnximport::LoadMode::Auto, true});
    int rc = exit_ok;
    nlohmann::ordered_json record = nlohmann::ordered_json::object();
    set_name(record, "file", file);
    record["repeat"] = repeat;
    record["modes"] = nlohmann::ordered_json::object();
    for (const auto& [name, load_mode, from_memory] : modes) {
        options.load_mode = load_mode;
        const std::string answer = measure_in_child(file, options, from_memory, repeat, with_steps);
        Timing t;
        if (!parse_timing(answer, t)) {
            const std::string why = answer.substr(std::min<size_t>(answer.size(), 6));  // after "error "
            print_error(std::string("bench: ") + name + ": " + why);
            record["modes"][name] = {{"error", why}};
            rc = exit_refused;
        } else if (json) {
            record["modes"][name] = timing_record(t);
        } else {
            print_text(name, t);
        }
    }
    if (json) std::cout << to_json_line(record) << '\n';
    return rc;
}

}  // namespace onnximport::cli
