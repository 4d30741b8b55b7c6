// gauntlet_bench: the benchmark program of `make bench`.
//   gen DIR [--force]        writes the generated models into DIR once (model_gen.cpp)
//   verify FILE              maps a generated big model and compares every weight
//   run --importer ours|protobuf|protobuf-arena|protozero [--mode map|read|plain-map|memory]
//       [--repeat N] [--warmup N] [--threads N] [--no-resolve] [--no-workspace] [--steps] TARGET
//                            imports TARGET (a file, or @LIST: one path per line, loaded one
//                            after another) warmup+repeat times in this process and prints one
//                            JSON object: times, resident sizes, heap bytes of the first import.
//                            Ours reuses one Workspace across the repeats unless --no-workspace;
//                            the peers parse the mapped file (pages faulted in before the clock).
//                            Mode memory: import_bytes of each file's bytes, read into memory
//                            once before the first clock (like with like against ParseFromArray).
//                            --steps (ours): ImportOptions::times too, each step's median in "steps".
//   read-parse FILE          reads FILE and parses it with libprotobuf, once: the whole-process
//                            peer of `onnximport check` (python/gauntlet/bench/run.py times the process).
//   gen-flood DIR [--force]  writes the hash-flooding models (flood_gen.cpp)
// Each (importer, model, mode) runs in a fresh process (python/gauntlet/bench/run.py forks one child per
// measurement) so VmHWM is the peak of that importer alone.
#include "flood_gen.hpp"
#include "measure.hpp"
#include "model_gen.hpp"
#include "protozero_walk.hpp"

#include <google/protobuf/arena.h>
#include <onnx.pb.h>
#include <onnximport/import.hpp>
#include <onnximport/workspace.hpp>
#include <protozero/exception.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <span>
#include <sstream>
#include <string>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace {

using namespace gauntlet::bench;
using Clock = std::chrono::steady_clock;

struct RunArgs {
    std::string importer = "ours";
    std::string mode = "map";
    int repeat = 5;
    int warmup = 1;
    bool resolve = true;
    bool workspace = true;  ///< --no-workspace: every import allocates afresh
    bool steps = false;     ///< --steps: ImportOptions::times, the median of each step
    unsigned threads = 1;   ///< --threads N: ImportOptions::threads
    std::vector<std::string> files;
    std::string target;
};

/// What one pass over the target files yields.
struct Pass {
    double seconds = 0;        ///< the importer's own time (protobuf: ParseFromArray alone)
    double total_seconds = 0;  ///< including reading the file into memory (protobuf)
    uint64_t input_bytes = 0;
    uint64_t payload_bytes = 0;  ///< inline tensor bytes (raw_data), for metadata throughput
    int failed = 0;
    std::string first_error;
    uint64_t heap_bytes = 0, heap_calls = 0;
    onnximport::ImportTimes steps;  ///< summed over the pass's imports (--steps)
};

std::string json_escape(const std::string& s) {
    std::string o;
    for (char ch : s) {
        if (ch == '"' || ch == '\\') o += '\\', o += ch;
        else if (static_cast<unsigned char>(ch) < 0x20) o += ' ';
        else o += ch;
    }
    return o;
}

std::unique_ptr<char[]> read_whole(const std::string& path, uint64_t& size) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw std::runtime_error("cannot open " + path);
    struct stat st {};
    ::fstat(fd, &st);
    size = static_cast<uint64_t>(st.st_size);
    std::unique_ptr<char[]> buf(new char[size ? size : 1]);
    uint64_t done = 0;
    while (done < size) {
        ssize_t n = ::pread(fd, buf.get() + done, size - done, static_cast<off_t>(done));
        if (n <= 0) {
            ::close(fd);
            throw std::runtime_error("cannot read " + path);
        }
        done += static_cast<uint64_t>(n);
    }
    ::close(fd);
    return buf;
}

uint64_t raw_payload(const onnximport::Graph& g) {
    uint64_t n = 0;
    for (auto& t : g.initializers)
        if (t.source == onnximport::TensorSource::Raw) n += t.byte_size();
    return n;
}

/// The bytes of the memory mode, read once per file before its first clock.
const std::vector<uint8_t>& bytes_in_memory(const std::string& path) {
    static std::map<std::string, std::vector<uint8_t>> files;
    auto [it, fresh] = files.try_emplace(path);
    if (fresh) {
        uint64_t size = 0;
        auto buf = read_whole(path, size);
        it->second.assign(buf.get(), buf.get() + size);
    }
    return it->second;
}

/// Mappings of the plain-map mode, released once the pass's models are gone.
std::vector<std::pair<void*, size_t>>& plain_mappings() {
    static std::vector<std::pair<void*, size_t>> v;
    return v;
}

void add_steps(onnximport::ImportTimes& sum, const onnximport::ImportTimes& one) {
    for (auto [name, field] : onnximport::import_steps) sum.*field += one.*field;
}

/// Our importer on one file; `keep` receives the model of the measured pass.
void ours_one(const RunArgs& a, onnximport::Workspace* ws, const std::string& path, Pass& p, bool first,
              onnximport::Model* keep) {
    onnximport::ImportOptions o;
    o.resolve = a.resolve;
    o.workspace = ws;
    o.load_mode = a.mode == "read" ? onnximport::LoadMode::Read : onnximport::LoadMode::Map;
    o.threads = a.threads;
    onnximport::ImportTimes steps;
    if (a.steps) o.times = &steps;
    const std::vector<uint8_t>* in_memory = a.mode == "memory" ? &bytes_in_memory(path) : nullptr;
    if (in_memory) o.external_data_dir = std::filesystem::path(path).parent_path();
    HeapCounters h0 = heap_counters();
    auto t0 = Clock::now();
    try {
        onnximport::Model m;
        if (a.mode == "plain-map") {
            // The "before" of the madvise (docs/performance.md): the same parse over a mapping with no advice.
            int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
            struct stat st {};
            ::fstat(fd, &st);
            size_t size = static_cast<size_t>(st.st_size);
            void* addr = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
            ::close(fd);
            if (addr == MAP_FAILED) throw std::runtime_error("mmap failed");
            o.external_data_dir = std::filesystem::path(path).parent_path();
            m = onnximport::import_bytes({static_cast<const uint8_t*>(addr), size}, path, o);
            plain_mappings().push_back({addr, size});  // unmapped after the pass
        } else if (in_memory) {
            m = onnximport::import_bytes(std::span<const uint8_t>(*in_memory), path, o);
        } else {
            m = onnximport::import_file(path, o);
        }
        double s = seconds_since(t0);
        p.seconds += s;
        p.total_seconds += s;
        add_steps(p.steps, steps);
        p.input_bytes += m.input_size();
        if (m.graph()) p.payload_bytes += raw_payload(*m.graph());
        if (first) {
            HeapCounters h1 = heap_counters();
            p.heap_bytes += h1.bytes - h0.bytes;
            p.heap_calls += h1.calls - h0.calls;
        }
        if (keep) *keep = std::move(m);
    } catch (const onnximport::ImportError& e) {
        p.seconds += seconds_since(t0);
        if (!p.failed++) p.first_error = path + ": " + e.what();
    }
}

/// A file mapped and its pages faulted in, so a peer's clock sees its parse alone.
class Mapping {
public:
    explicit Mapping(const std::string& path) {
        int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) throw std::runtime_error("cannot open " + path);
        struct stat st {};
        ::fstat(fd, &st);
        size_ = static_cast<size_t>(st.st_size);
        if (size_) addr_ = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
        ::close(fd);
        if (addr_ == MAP_FAILED) throw std::runtime_error("cannot map " + path);
    }
    ~Mapping() {
        if (size_) ::munmap(addr_, size_);
    }
    Mapping(const Mapping&) = delete;
    Mapping& operator=(const Mapping&) = delete;
    const char* data() const noexcept { return static_cast<const char*>(addr_); }
    size_t size() const noexcept { return size_; }

private:
    void* addr_ = nullptr;
    size_t size_ = 0;
};

/// What a peer keeps of the measured pass's last file, alive while its resident size is read.
struct PeerKeep {
    std::unique_ptr<google::protobuf::Arena> arena;  ///< protobuf-arena: the message lives here
    std::unique_ptr<onnx::ModelProto> heap;          ///< protobuf: a heap message
    std::unique_ptr<Mapping> mapping;
};

/// Where the protozero walk's sum goes, so that the compiler keeps the walk.
volatile uint64_t walk_sink = 0;

/// libprotobuf (heap or arena message) or the protozero walk on one mapped file.
void peer_one(const std::string& importer, const std::string& path, Pass& p, bool first, PeerKeep* keep) {
    auto t0 = Clock::now();
    auto mapping = std::make_unique<Mapping>(path);
    HeapCounters h0 = heap_counters();
    const int size = static_cast<int>(mapping->size());
    PeerKeep k;
    bool ok = true;
    auto t1 = Clock::now();
    if (importer == "protozero") {
        try {
            walk_sink = walk_sink + protozero_walk(mapping->data(), mapping->size());
        } catch (const protozero::exception&) {
            ok = false;
        }
    } else if (importer == "protobuf-arena") {
        k.arena = std::make_unique<google::protobuf::Arena>();
        auto* m = google::protobuf::Arena::CreateMessage<onnx::ModelProto>(k.arena.get());
        ok = m->ParseFromArray(mapping->data(), size);
        if (ok) for (auto& t : m->graph().initializer()) p.payload_bytes += t.raw_data().size();
    } else {
        k.heap = std::make_unique<onnx::ModelProto>();
        ok = k.heap->ParseFromArray(mapping->data(), size);
        if (ok) for (auto& t : k.heap->graph().initializer()) p.payload_bytes += t.raw_data().size();
    }
    double parse = seconds_since(t1);
    p.seconds += parse;
    p.total_seconds += seconds_since(t0);
    p.input_bytes += mapping->size();
    if (first) {
        HeapCounters h1 = heap_counters();
        p.heap_bytes += h1.bytes - h0.bytes;
        p.heap_calls += h1.calls - h0.calls;
    }
    if (!ok && !p.failed++) p.first_error = path + ": " + importer + " failed";
    k.mapping = std::move(mapping);
    if (keep) *keep = std::move(k);
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void print_list(std::ostream& os, const char* name, const std::vector<double>& v) {
    os << "\"" << name << "\": [";
    for (size_t i = 0; i < v.size(); ++i) os << (i ? ", " : "") << v[i];
    os << "]";
}

int cmd_run(const RunArgs& a) {
    const Resident baseline = read_resident();
    std::vector<double> times, totals;
    std::vector<onnximport::ImportTimes> steps;
    Pass last_pass;
    // Of the first import: the process is fresh then and the Workspace empty, so it counts
    // every byte an import needs.
    std::unique_ptr<onnximport::Workspace> workspace;
    if (a.workspace) workspace = std::make_unique<onnximport::Workspace>();
    uint64_t heap_bytes = 0, heap_calls = 0;
    Resident after;
    const bool single = a.files.size() == 1;
    for (int k = 0; k < a.warmup + a.repeat; ++k) {
        const bool last = k + 1 == a.warmup + a.repeat;
        Pass p;
        {
            onnximport::Model kept;
            PeerKeep kept_peer;
            for (auto& f : a.files) {
                if (a.importer == "ours") ours_one(a, workspace.get(), f, p, k == 0, last && single ? &kept : nullptr);
                else peer_one(a.importer, f, p, k == 0, last && single ? &kept_peer : nullptr);
            }
            if (last) after = read_resident();  // the last model is still alive here
        }
        for (auto [addr, size] : plain_mappings()) ::munmap(addr, size);
        plain_mappings().clear();
        if (k >= a.warmup) {
            times.push_back(p.seconds);
            totals.push_back(p.total_seconds);
            steps.push_back(p.steps);
        }
        if (k == 0) heap_bytes = p.heap_bytes, heap_calls = p.heap_calls;
        if (last) last_pass = p;
    }
    const Resident end = read_resident();
    std::ostringstream os;
    os.precision(9);
    os << "{\"importer\": \"" << (a.importer == "ours" ? "ours-" + a.mode : a.importer) << "\", ";
    os << "\"target\": \"" << json_escape(a.target) << "\", \"files\": " << a.files.size() << ", ";
    os << "\"failed\": " << last_pass.failed << ", \"first_error\": \"" << json_escape(last_pass.first_error) << "\", ";
    os << "\"resolve\": " << (a.resolve ? "true" : "false") << ", ";
    os << "\"input_bytes\": " << last_pass.input_bytes << ", \"payload_bytes\": " << last_pass.payload_bytes << ", ";
    print_list(os, "times", times);
    os << ", ";
    print_list(os, "total_times", totals);
    os << ", \"median\": " << median(times) << ", \"min\": " << *std::min_element(times.begin(), times.end())
       << ", \"max\": " << *std::max_element(times.begin(), times.end())
       << ", \"median_total\": " << median(totals) << ", ";
    os << "\"baseline_rss_kib\": " << baseline.rss_kib << ", \"peak_rss_kib\": " << end.hwm_kib << ", ";
    os << "\"rss_after_kib\": " << after.rss_kib << ", \"rss_after_file_kib\": " << after.file_kib
       << ", \"rss_after_anon_kib\": " << after.anon_kib << ", ";
    os << "\"heap_bytes\": " << heap_bytes << ", \"heap_calls\": " << heap_calls;
    if (a.steps) {
        os << ", \"steps\": {";
        for (size_t i = 0; i < std::size(onnximport::import_steps); ++i) {
            std::vector<double> v;
            for (const onnximport::ImportTimes& t : steps) v.push_back(t.*onnximport::import_steps[i].second);
            os << (i ? ", " : "") << "\"" << onnximport::import_steps[i].first << "\": " << median(v);
        }
        os << "}";
    }
    os << "}";
    std::cout << os.str() << std::endl;
    return 0;
}

/// `verify FILE`: a mapped import of a generated big model, then every weight compared
/// with what the generator wrote. The reader releases the pages behind large payloads, so
/// this is the check that a released view still reads the right bytes (they fault in again).
int cmd_verify(const std::string& path) {
    onnximport::ImportOptions o;
    o.load_mode = onnximport::LoadMode::Map;
    auto m = onnximport::import_file(path, o);
    const onnximport::Graph& g = *m.graph();
    const Resident before = read_resident();
    std::vector<float> want;
    size_t checked = 0;
    for (auto& t : g.initializers) {
        auto bytes = t.bytes();
        want.resize(bytes.size() / 4);
        fill_weights(std::stoi(std::string(t.name.substr(1))), want);
        if (bytes.size() != want.size() * 4 || std::memcmp(bytes.data(), want.data(), bytes.size()) != 0) {
            std::cerr << "gauntlet_bench verify: " << path << ": tensor " << t.name << " differs\n";
            return 1;
        }
        ++checked;
    }
    const Resident after = read_resident();
    std::cout << "{\"verified_tensors\": " << checked << ", \"rss_before_touch_kib\": " << before.rss_kib
              << ", \"rss_after_touch_kib\": " << after.rss_kib << "}" << std::endl;
    return checked == g.initializers.size() && checked > 0 ? 0 : 1;
}

/// `read-parse FILE`: what a program using libprotobuf does to load a model, once: read
/// the file, parse it into a heap message, and free it on the way out.
int cmd_read_parse(const std::string& path) {
    uint64_t size = 0;
    auto buf = read_whole(path, size);
    onnx::ModelProto m;
    if (!m.ParseFromArray(buf.get(), static_cast<int>(size))) {
        std::cerr << "gauntlet_bench read-parse: " << path << ": ParseFromArray failed\n";
        return 1;
    }
    return 0;
}

int usage() {
    std::cerr << "usage: gauntlet_bench gen DIR [--force]\n"
                 "       gauntlet_bench verify BIG_MODEL\n"
                 "       gauntlet_bench run --importer ours|protobuf|protobuf-arena|protozero\n"
                 "                          [--mode map|read|plain-map|memory] [--repeat N] [--warmup N]\n"
                 "                          [--threads N] [--no-resolve] [--no-workspace] [--steps] FILE|@LIST\n"
                 "       gauntlet_bench read-parse FILE\n"
                 "       gauntlet_bench gen-flood DIR [--force]\n";
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) return usage();
    std::string cmd = argv[1];
    try {
        if (cmd == "gen") {
            bool force = argc > 3 && std::string(argv[3]) == "--force";
            auto t0 = Clock::now();
            for (auto& p : generate_models(argv[2], force)) std::cout << p.string() << '\n';
            std::cerr << "gauntlet_bench gen: " << seconds_since(t0) << " s\n";
            return 0;
        }
        if (cmd == "gen-flood") {
            bool force = argc > 3 && std::string(argv[3]) == "--force";
            auto t0 = Clock::now();
            for (auto& p : generate_flood_models(argv[2], force)) std::cout << p.string() << '\n';
            std::cerr << "gauntlet_bench gen-flood: " << seconds_since(t0) << " s\n";
            return 0;
        }
        if (cmd == "verify") return cmd_verify(argv[2]);
        if (cmd == "read-parse") return cmd_read_parse(argv[2]);
        if (cmd != "run") return usage();
        RunArgs a;
        for (int i = 2; i < argc; ++i) {
            std::string s = argv[i];
            if (s == "--importer" && i + 1 < argc) a.importer = argv[++i];
            else if (s == "--mode" && i + 1 < argc) a.mode = argv[++i];
            else if (s == "--repeat" && i + 1 < argc) a.repeat = std::max(1, std::atoi(argv[++i]));
            else if (s == "--warmup" && i + 1 < argc) a.warmup = std::max(0, std::atoi(argv[++i]));
            else if (s == "--threads" && i + 1 < argc)
                a.threads = static_cast<unsigned>(std::max(1, std::atoi(argv[++i])));
            else if (s == "--no-resolve") a.resolve = false;
            else if (s == "--no-workspace") a.workspace = false;
            else if (s == "--steps") a.steps = true;
            else if (!s.empty() && s[0] == '-') return usage();
            else a.target = s;
        }
        static const std::vector<std::string> importers{"ours", "protobuf", "protobuf-arena", "protozero"};
        if (a.target.empty() || std::find(importers.begin(), importers.end(), a.importer) == importers.end())
            return usage();
        if (a.target[0] == '@') {
            std::ifstream in(a.target.substr(1));
            for (std::string line; std::getline(in, line);)
                if (!line.empty()) a.files.push_back(line);
        } else {
            a.files.push_back(a.target);
        }
        if (a.files.empty()) return usage();
        return cmd_run(a);
    } catch (const std::exception& e) {
        std::cerr << "gauntlet_bench: " << e.what() << '\n';
        return 1;
    }
}
