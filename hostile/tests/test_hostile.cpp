// The hostile corpus as tests (hostile/README.md):
// the corpus is regenerated into a temporary folder and must equal the committed
// hostile/corpus/ byte for byte; every case is imported and must end as the manifest
// says, refusals with their kind and accepts with their facts; the manifest covers
// every kind and sections 1 to 5; there are at least 150 cases; the cases of a range
// aliased by 60,000 tensors end in time bounded by the bytes, not by the tensors.
#define BOOST_TEST_MODULE hostile
#include <boost/test/unit_test.hpp>

#include "corpus.hpp"

#include <refusal_text.hpp>

#include <onnximport/import.hpp>
#include <sanitizers.hpp>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;
using hostile::json;
using namespace onnximport;

namespace {

std::string read_all(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

/// The corpus generated once per run into a temporary folder, removed at exit.
struct Generated {
    fs::path dir;
    json manifest;
    Generated() {
        dir = fs::temp_directory_path() / ("onnx-gauntlet-hostile-" + std::to_string(::getpid()));
        fs::remove_all(dir);
        hostile::build_corpus().write(dir, false);
        manifest = json::parse(read_all(dir / "manifest.json"));
    }
    ~Generated() {
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
};

Generated& generated() {
    static Generated g;
    return g;
}

const fs::path committed_dir = fs::path(GAUNTLET_SOURCE_DIR) / "hostile" / "corpus";

std::set<std::string> generated_only_paths(const json& manifest) {
    std::set<std::string> out;
    for (const auto& k : manifest["cases"])
        if (k.value("generated_only", false)) out.insert(k["file"].get<std::string>());
    for (const auto& s : manifest["side_files"])
        if (s.value("generated_only", false)) out.insert(s["path"].get<std::string>());
    return out;
}

/// path (relative, '/'-separated) -> "file:<bytes>", "dir", "link:<target>".
std::map<std::string, std::string> snapshot(const fs::path& root, const std::set<std::string>& skip) {
    // Walked by hand with symlink_status: a recursive iterator would stat the link loop.
    std::map<std::string, std::string> out;
    std::vector<fs::path> todo{root};
    while (!todo.empty()) {
        fs::path d = todo.back();
        todo.pop_back();
        for (const auto& e : fs::directory_iterator(d)) {
            const std::string rel = e.path().lexically_relative(root).generic_string();
            if (skip.count(rel)) continue;  // the 2 GiB sparse files are not read
            const auto st = fs::symlink_status(e.path()).type();
            if (st == fs::file_type::symlink) {
                out[rel] = "link:" + fs::read_symlink(e.path()).string();
            } else if (st == fs::file_type::directory) {
                out[rel] = "dir";
                todo.push_back(e.path());
            } else {
                out[rel] = "file:" + read_all(e.path());
            }
        }
    }
    return out;
}

// ---- Facts --------------------------------------------------------------------------

/// The entry of a list of nodes, attributes, initializers or value infos named `name`.
template <class T>
const T* by_name(const List<T>& list, std::string_view name) {
    for (const T& item : list)
        if (item.name == name) return &item;
    return nullptr;
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::string cur;
    for (char ch : s) {
        if (ch == sep) out.push_back(std::move(cur)), cur.clear();
        else cur += ch;
    }
    out.push_back(cur);
    return out;
}

/// "node/attr[/node/attr...]": the attribute, walking into subgraphs.
const Attribute* attr_at(const Graph& root, const std::string& path) {
    auto parts = split(path, '/');
    const Graph* g = &root;
    const Attribute* a = nullptr;
    for (size_t i = 0; i + 1 < parts.size(); i += 2) {
        if (!g) return nullptr;
        const Node* n = by_name(g->nodes, parts[i]);
        if (!n) return nullptr;
        a = by_name(n->attributes, parts[i + 1]);
        if (!a) return nullptr;
        g = a->g() ? a->g() : (a->graphs().empty() ? nullptr : &a->graphs()[0]);
    }
    return a;
}

std::string bytes_of(const TensorView& t) {
    auto b = t.bytes();
    return {reinterpret_cast<const char*>(b.data()), b.size()};
}

std::string hex(std::string_view s) {
    static const char digits[] = "0123456789abcdef";
    std::string out;
    for (unsigned char ch : s) out += digits[ch >> 4], out += digits[ch & 15];
    return out;
}

const char* kind_name(TypeProto::Kind k) {
    switch (k) {
    case TypeProto::Kind::None: return "none";
    case TypeProto::Kind::Tensor: return "tensor";
    case TypeProto::Kind::Sequence: return "sequence";
    case TypeProto::Kind::Map: return "map";
    case TypeProto::Kind::Optional: return "optional";
    case TypeProto::Kind::SparseTensor: return "sparse_tensor";
    case TypeProto::Kind::Opaque: return "opaque";
    }
    return "?";
}

json shape_json(const TypeProto& t) {
    if (!t.has_shape) return nullptr;
    json dims = json::array();
    for (const Dimension& d : t.shape) {
        if (d.kind() == Dimension::Kind::Value) dims.push_back(d.value());
        else if (d.kind() == Dimension::Kind::Param) dims.push_back(std::string(d.param()));
        else dims.push_back(nullptr);
    }
    return dims;
}

json names_of_nodes(const Graph& g, const std::vector<uint32_t>& idx) {
    json out = json::array();
    for (uint32_t i : idx) out.push_back(std::string(g.nodes.at(i).name));
    return out;
}

/// A fact about the whole model, checked against the manifest's value.
using ModelFact = void (*)(const Model& m, const Graph& g, const json& want);
/// A fact about one named tensor, attribute, value or node: the manifest maps names to values.
using NamedFact = void (*)(const Graph& g, const std::string& name, const json& want);

json names_in(const auto& list) {
    json got = json::array();
    for (const auto& item : list) got.push_back(std::string(item.name));
    return got;
}

const std::map<std::string, ModelFact> model_facts = {
    {"ir_version", [](auto& m, auto&, const json& w) { BOOST_TEST(m.proto().ir_version == w.get<int64_t>()); }},
    {"model_version", [](auto& m, auto&, const json& w) { BOOST_TEST(m.proto().model_version == w.get<int64_t>()); }},
    {"producer_name_hex",
     [](auto& m, auto&, const json& w) { BOOST_TEST(hex(m.proto().producer_name) == w.get<std::string>()); }},
    {"nodes_were_reordered",
     [](auto&, auto& g, const json& w) { BOOST_TEST(g.nodes_were_reordered == w.get<bool>()); }},
    {"node_count", [](auto&, auto& g, const json& w) { BOOST_TEST(g.nodes.size() == w.get<size_t>()); }},
    {"initializer_count", [](auto&, auto& g, const json& w) { BOOST_TEST(g.initializers.size() == w.get<size_t>()); }},
    {"node_order", [](auto&, auto& g, const json& w) { BOOST_TEST(names_in(g.nodes) == w, names_in(g.nodes).dump()); }},
    {"node_order_ends",
     [](auto&, auto& g, const json& w) {
         BOOST_TEST_REQUIRE(!g.nodes.empty());
         BOOST_TEST(g.nodes.front().name == w[0].get<std::string>());
         BOOST_TEST(g.nodes.back().name == w[1].get<std::string>());
     }},
    {"function_names",
     [](auto& m, auto&, const json& w) {
         const json got = names_in(m.proto().functions);
         BOOST_TEST(got == w, got.dump());
     }},
};

const TensorView& initializer(const Graph& g, const std::string& name) {
    const TensorView* t = by_name(g.initializers, name);
    BOOST_TEST_REQUIRE(t);
    return *t;
}

const Attribute& attribute(const Graph& g, const std::string& path) {
    const Attribute* a = attr_at(g, path);
    BOOST_TEST_REQUIRE(a);
    return *a;
}

const ValueInfo& graph_input(const Graph& g, const std::string& name) {
    const ValueInfo* vi = by_name(g.inputs, name);
    BOOST_TEST_REQUIRE(vi);
    return *vi;
}

const Value& value(const Graph& g, const std::string& name) {
    const Value* v = g.find_value(name);
    BOOST_TEST_REQUIRE(v);
    return *v;
}

void check_captures(const Graph& g, const std::string& path, const json& want) {
    const Attribute& a = attribute(g, path);
    const Graph* sub = a.g() ? a.g() : &a.graphs().at(0);
    std::vector<std::string> got(sub->captures.begin(), sub->captures.end());
    std::vector<std::string> exp = want.get<std::vector<std::string>>();
    std::sort(got.begin(), got.end());
    std::sort(exp.begin(), exp.end());
    BOOST_TEST(got == exp, json(got).dump() << " != " << json(exp).dump());
}

void check_sparse(const Graph& g, const std::string& name, const json& want) {
    const SparseTensor* st = nullptr;
    for (const SparseTensor& s : g.sparse_initializers)
        if (s.values.name == name) st = &s;
    BOOST_TEST_REQUIRE(st);
    BOOST_TEST(json(st->dims) == want["dims"]);
    BOOST_TEST(st->values.element_count == want["values"].get<uint64_t>());
    BOOST_TEST(st->indices.element_count == want["indices"].get<uint64_t>());
}

const std::map<std::string, NamedFact> named_facts = {
    {"tensor_sha256",
     [](auto& g, auto& n, const json& w) {
         BOOST_TEST(hostile::sha256_hex(bytes_of(initializer(g, n))) == w.get<std::string>());
     }},
    {"tensor_bytes",
     [](auto& g, auto& n, const json& w) { BOOST_TEST(initializer(g, n).byte_size() == w.get<uint64_t>()); }},
    {"tensor_data_type",
     [](auto& g, auto& n, const json& w) { BOOST_TEST(initializer(g, n).data_type == w.get<int32_t>()); }},
    {"tensor_dims", [](auto& g, auto& n, const json& w) { BOOST_TEST(json(initializer(g, n).dims) == w); }},
    {"tensor_strings",
     [](auto& g, auto& n, const json& w) {
         json got = json::array();
         for (auto s : initializer(g, n).strings) got.push_back(std::string(s));
         BOOST_TEST(got == w);
     }},
    {"attribute_type",
     [](auto& g, auto& n, const json& w) { BOOST_TEST(static_cast<int>(attribute(g, n).type) == w.get<int>()); }},
    {"attribute_int", [](auto& g, auto& n, const json& w) { BOOST_TEST(attribute(g, n).i == w.get<int64_t>()); }},
    {"attribute_ints",
     [](auto& g, auto& n, const json& w) { BOOST_TEST(json(attribute(g, n).ints().to_vector()) == w); }},
    {"captures", check_captures},
    {"value_shape",
     [](auto& g, auto& n, const json& w) {
         const json got = shape_json(graph_input(g, n).type);
         BOOST_TEST(got == w, got.dump());
     }},
    {"value_decl_elem_type",
     [](auto& g, auto& n, const json& w) { BOOST_TEST(graph_input(g, n).type.elem_type == w.get<int32_t>()); }},
    {"value_type_kind",
     [](auto& g, auto& n, const json& w) {
         BOOST_TEST(std::string(kind_name(graph_input(g, n).type.kind)) == w.get<std::string>());
     }},
    {"value_elem_type",
     [](auto& g, auto& n, const json& w) {
         const Value& v = value(g, n);
         BOOST_TEST_REQUIRE(v.type);
         BOOST_TEST(v.type->elem_type == w.get<int32_t>());
     }},
    {"consumers",
     [](auto& g, auto& n, const json& w) {
         const json got = names_of_nodes(g, value(g, n).consumers.to_vector());
         BOOST_TEST(got == w, got.dump());
     }},
    {"consumer_count",
     [](auto& g, auto& n, const json& w) { BOOST_TEST(value(g, n).consumers.size() == w.get<size_t>()); }},
    {"input_has_default",
     [](auto& g, auto& n, const json& w) { BOOST_TEST((value(g, n).initializer != nullptr) == w.get<bool>()); }},
    {"opset_version",
     [](auto& g, auto& n, const json& w) {
         const Node* node = by_name(g.nodes, n);
         BOOST_TEST_REQUIRE(node);
         BOOST_TEST(node->opset_version == w.get<int64_t>());
     }},
    {"sparse_initializers", check_sparse},
};

/// Reading a tensor's bytes after Model::close throws Io. Checked last: it closes the model.
void check_bytes_after_close(Model& m, const std::string& name) {
    const TensorView& t = initializer(*m.graph(), name);
    m.close();
    bool threw_io = false;
    try {
        (void)t.bytes();
    } catch (const ImportError& e) {
        threw_io = e.kind() == ErrorKind::Io;
    }
    BOOST_TEST(threw_io);
}

/// Checks every fact the manifest states; an unknown fact name is a failure, so the
/// manifest cannot promise what nothing checks.
void check_facts(Model& m, const json& facts) {
    const Graph& g = *m.graph();
    for (const auto& [key, want] : facts.items()) {
        BOOST_TEST_CONTEXT("fact " << key) {
            if (auto whole = model_facts.find(key); whole != model_facts.end()) {
                whole->second(m, g, want);
            } else if (auto named = named_facts.find(key); named != named_facts.end()) {
                for (const auto& [name, v] : want.items()) BOOST_TEST_CONTEXT(name) { named->second(g, name, v); }
            } else if (key != "bytes_after_close_throws_io") {
                BOOST_ERROR("unknown fact " << key);
            }
        }
    }
    if (facts.contains("bytes_after_close_throws_io"))
        check_bytes_after_close(m, facts["bytes_after_close_throws_io"].get<std::string>());
}

/// Imports one case as its options say.
Model import_case(const fs::path& dir, const json& k, std::vector<uint8_t>& buffer) {
    ImportOptions o;
    const fs::path file = dir / k["file"].get<std::string>();
    bool as_bytes = false;
    if (k.contains("options")) {
        const json& opt = k["options"];
        if (opt.contains("max_nesting")) o.max_nesting = opt["max_nesting"].get<int>();
        if (opt.contains("external_dir")) o.external_data_dir = dir / opt["external_dir"].get<std::string>();
        if (opt.contains("ort_data")) o.ort_external_data = opt["ort_data"].get<std::string>();
        if (opt.contains("threads")) o.threads = opt["threads"].get<unsigned>();
        as_bytes = opt.value("import", "") == "bytes";
    }
    if (!as_bytes) return import_file(file, o);
    std::string s = read_all(file);
    buffer.assign(s.begin(), s.end());
    return import_bytes(buffer, k["file"].get<std::string>(), o);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(hostile_corpus)

BOOST_AUTO_TEST_CASE(generator_is_deterministic) {
    hostile::Corpus a = hostile::build_corpus(), b = hostile::build_corpus();
    BOOST_TEST(a.manifest().dump() == b.manifest().dump());
    BOOST_TEST_REQUIRE(a.entries().size() == b.entries().size());
    for (size_t i = 0; i < a.entries().size(); ++i) {
        BOOST_TEST(a.entries()[i].path == b.entries()[i].path);
        BOOST_TEST((a.entries()[i].bytes == b.entries()[i].bytes), a.entries()[i].path);
    }
}

BOOST_AUTO_TEST_CASE(committed_corpus_is_what_the_generator_writes) {
    Generated& gen = generated();
    BOOST_TEST_REQUIRE(fs::is_directory(committed_dir), committed_dir << " is missing: run make hostile");
    const auto only = generated_only_paths(gen.manifest);
    auto fresh = snapshot(gen.dir, only);
    auto committed = snapshot(committed_dir, {});
    for (const auto& [path, what] : fresh) {
        BOOST_TEST_CONTEXT(path) {
            auto it = committed.find(path);
            BOOST_TEST((it != committed.end()), "not committed: regenerate with make hostile");
            if (it != committed.end()) BOOST_TEST((it->second == what), "differs from the generator's output");
        }
    }
    for (const auto& [path, what] : committed)
        BOOST_TEST((fresh.count(path) == 1), path << " is committed but not generated");
}

BOOST_AUTO_TEST_CASE(every_case_ends_as_the_manifest_says) {
    Generated& gen = generated();
    auto start = std::chrono::steady_clock::now();
    size_t n = 0;
    for (const json& k : gen.manifest["cases"]) {
        const std::string file = k["file"].get<std::string>();
        const bool accept = k["expect"] == "accept";
        BOOST_TEST_CONTEXT(file << " (" << k["why"].get<std::string>() << ")") {
            std::vector<uint8_t> buffer;
            try {
                Model m = import_case(gen.dir, k, buffer);
                if (accept) check_facts(m, k["facts"]);
                else BOOST_ERROR("imported, but should be refused as " << k.value("kind", "?"));
            } catch (const ImportError& e) {
                if (accept) BOOST_ERROR("refused (" << to_string(e.kind()) << ": " << e.what() << "), should import");
                else {
                    BOOST_TEST(std::string(to_string(e.kind())) == k.value("kind", "?"), e.what());
                    // D12: a name in a refusal is quoted in full, however long.
                    if (k.contains("message_contains"))
                        BOOST_TEST(
                            std::string(e.what()).find(k["message_contains"].get<std::string>()) != std::string::npos,
                            "the message does not hold the name in full (" << std::string(e.what()).size()
                                                                           << " bytes)");
                }
            } catch (const std::exception& e) {
                BOOST_ERROR("escaped as a non-ImportError exception: " << e.what());
            }
        }
        ++n;
    }
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << "hostile: imported " << n << " cases in " << seconds << " s\n";
    // The 5-second budget is asserted by the ctest hostile_check_time (one
    // onnximport check process over the corpus, unsanitized), not here: this loop also
    // runs under ASan, where time means little.
}

BOOST_AUTO_TEST_CASE(every_ort_refusal_names_its_offset_and_a_path_below_the_root) {
    // docs/ort.md, "One walk that checks where it reads". The exceptions are the cases whose
    // fault is the root itself (named InferenceSession, or InferenceSession.root for the root
    // offset at byte 0), files that are no .ort by their content (read as .onnx, rule O1), a
    // buffer that is a .onnx too (the whole buffer is at fault, rule O16), and files that cannot
    // be read.
    const std::set<std::string> root_faults = {"malformed-ort-root-past-end.ort", "malformed-ort-vtable-past-end.ort",
                                               "malformed-ort-root-misaligned.ort", "malformed-ort-root-offset-4.ort",
                                               "invalidmodel-ort-onnx-polyglot.ort"};
    Generated& gen = generated();
    std::set<std::string> named_as_root;
    size_t located = 0;
    for (const json& k : gen.manifest["cases"]) {
        const std::string file = k["file"].get<std::string>();
        if (k["expect"] == "accept" || fs::path(file).extension() != ".ort") continue;
        const std::string bytes = read_all(gen.dir / file);
        std::vector<uint8_t> buffer;
        try {
            import_case(gen.dir, k, buffer);
        } catch (const ImportError& e) {
            if (e.kind() == ErrorKind::Io) continue;  // not read at all (a directory): no byte to name
            BOOST_TEST_CONTEXT(file << ": " << e.what()) {
                if (bytes.size() <= 8 || bytes.compare(4, 4, "ORTM") != 0) {
                    BOOST_TEST(e.field_path().rfind("ModelProto", 0) == 0u);  // read as .onnx
                    continue;
                }
                const bool as_root = e.field_path() == "InferenceSession" || e.field_path() == "InferenceSession.root";
                if (as_root) named_as_root.insert(file);
                else BOOST_TEST(e.field_path().rfind("InferenceSession.", 0) == 0u);
                BOOST_TEST((e.offset() && *e.offset() < bytes.size()));
                BOOST_TEST((e.offset() != uint64_t{0} || e.field_path() == "InferenceSession.root"));
                ++located;
            }
        }
    }
    std::string named;
    for (const std::string& f : named_as_root) named += " " + f;
    BOOST_TEST((named_as_root == root_faults), "the cases named as the root are the root's own faults:" << named);
    BOOST_TEST(located > 80u);
}

BOOST_AUTO_TEST_CASE(every_refusal_has_a_well_formed_path_and_a_message_without_control_bytes) {
    // The rule every fuzz target applies (harness/support/refusal_text.hpp), here on every case
    // that is refused: a root and steps, no entry named twice in a row (a bad .ort graph input
    // was once refused at "graph.inputs[0].inputs[0]"), and input bytes quoted with control
    // bytes escaped (importer/src/core/text.hpp).
    Generated& gen = generated();
    size_t refused = 0;
    for (const json& k : gen.manifest["cases"]) {
        if (k["expect"] == "accept") continue;
        std::vector<uint8_t> buffer;
        try {
            import_case(gen.dir, k, buffer);
        } catch (const ImportError& e) {
            BOOST_TEST_CONTEXT(k["file"].get<std::string>() << ": " << e.field_path() << ": " << e.what()) {
                const char* problem = gauntlet::path_problem(e.field_path());
                BOOST_TEST(!problem, (problem ? problem : ""));
                BOOST_TEST(!gauntlet::has_control_byte(e.message()));
            }
            ++refused;
        }
    }
    BOOST_TEST(refused > 300u);
}

BOOST_AUTO_TEST_CASE(a_range_aliased_by_many_tensors_costs_its_bytes_not_its_tensors) {
    // Each case in a child, killed at the deadline: on two threads, before E11, each
    // tensor's range was made resident on its own (docs/performance.md, "Sizes the tests rely on").
    Generated& gen = generated();
    const auto deadline = std::chrono::seconds(testing::sanitized ? 300 : 30);
    size_t cases = 0;
    for (const json& k : gen.manifest["cases"]) {
        const std::string file = k["file"].get<std::string>();
        if (file.find("60000-tensors-alias") == std::string::npos) continue;
        ++cases;
        const auto start = std::chrono::steady_clock::now();
        const pid_t pid = ::fork();
        if (pid == 0) {
            std::vector<uint8_t> buffer;
            try {
                (void)import_case(gen.dir, k, buffer);
            } catch (...) {
                ::_exit(1);
            }
            ::_exit(0);
        }
        int status = -1;
        rusage usage{};
        bool ended = false;
        while (!(ended = ::wait4(pid, &status, WNOHANG, &usage) == pid) &&
               std::chrono::steady_clock::now() - start < deadline)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        if (!ended) {
            ::kill(pid, SIGKILL);
            ::wait4(pid, &status, 0, &usage);
        }
        const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const double cpu = double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                           double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
        std::cout << "hostile: " << file << ": " << wall << " s, CPU " << cpu << " s\n";
        BOOST_TEST_CONTEXT(file << ": " << wall << " s, CPU " << cpu << " s") {
            BOOST_TEST(ended, "killed after " << deadline.count() << " s");
            BOOST_TEST((WIFEXITED(status) && WEXITSTATUS(status) == 0), "not imported");
            // The range made resident once costs far less CPU than this (docs/performance.md).
            if (!testing::sanitized) BOOST_TEST(cpu < 5.0);
        }
    }
    BOOST_TEST(cases == 2u);
}

BOOST_AUTO_TEST_CASE(every_known_difference_of_this_importer_is_a_case) {
    // sweep/known/onnximport.txt lists what this importer gets wrong, one case a line: each
    // must name a case of the corpus (the matrix of make report checks the outcomes).
    std::set<std::string> files;
    for (const json& k : generated().manifest["cases"]) files.insert(k["file"].get<std::string>());
    std::istringstream listed(read_all(fs::path(GAUNTLET_SOURCE_DIR) / "sweep" / "known" / "onnximport.txt"));
    for (std::string line; std::getline(listed, line);) {
        const std::string file = line.substr(0, line.find_first_of(" #"));
        if (!file.empty()) BOOST_TEST(files.count(file) == 1u, file << " is listed but no longer a case");
    }
}

BOOST_AUTO_TEST_CASE(manifest_covers_every_kind_and_section) {
    const json& m = generated().manifest;
    std::map<std::string, int> kinds, sections;
    for (const json& k : m["cases"]) {
        const std::string file = k["file"].get<std::string>();
        const std::string kind = k["expect"] == "accept" ? "accept" : k["kind"].get<std::string>();
        ++kinds[kind];
        ++sections[k["section"].get<std::string>()];
        std::string prefix = kind;
        std::transform(prefix.begin(), prefix.end(), prefix.begin(), [](unsigned char ch) { return std::tolower(ch); });
        BOOST_TEST(file.rfind(prefix + "-", 0) == 0u, file << " is not named after its kind " << kind);
        BOOST_TEST(!k["rule"].get<std::string>().empty());
        BOOST_TEST(!k["why"].get<std::string>().empty());
    }
    for (const char* k : {"accept", "Malformed", "InvalidModel", "Unsupported", "ExternalData", "Io"})
        BOOST_TEST(kinds[k] > 0, "no case of kind " << k);
    for (const char* s : {"1", "2", "3", "4", "5"}) BOOST_TEST(sections[s] > 0, "no case for section " << s);
    BOOST_TEST(m["cases"].size() >= 150u);
}

BOOST_AUTO_TEST_SUITE_END()

// ---- Rule IDs (docs/rules.md) ------------------------------------------------------

namespace {

const fs::path rules_page = fs::path(GAUNTLET_SOURCE_DIR) / "docs" / "rules.md";

/// "file: problem" for each case whose rule_id the page does not define or whose rule
/// text is not the page's row.
std::vector<std::string> rule_problems(const json& manifest, const std::map<std::string, std::string>& rules) {
    std::vector<std::string> out;
    for (const json& k : manifest["cases"]) {
        const std::string file = k.value("file", "?");
        if (!k.contains("rule_id") || !k["rule_id"].is_string()) {
            out.push_back(file + ": no rule_id");
            continue;
        }
        const std::string id = k["rule_id"].get<std::string>();
        auto it = rules.find(id);
        if (it == rules.end()) out.push_back(file + ": rule " + id + " is not defined in docs/rules.md");
        else if (k.value("rule", "") != it->second)
            out.push_back(file + ": rule text is not docs/rules.md's row " + id);
    }
    return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(rule_ids)

BOOST_AUTO_TEST_CASE(every_case_names_a_rule_that_docs_rules_md_defines) {
    // The page as it is in the source tree now (the generator embeds the one it was built with).
    const auto rules = hostile::parse_rules(read_all(rules_page));
    BOOST_TEST_REQUIRE(rules.size() >= 90u, "docs/rules.md defines only " << rules.size() << " rules");
    for (const fs::path& manifest : {generated().dir / "manifest.json", committed_dir / "manifest.json"}) {
        BOOST_TEST_CONTEXT(manifest) {
            for (const std::string& p : rule_problems(json::parse(read_all(manifest)), rules)) BOOST_ERROR(p);
        }
    }
}

BOOST_AUTO_TEST_CASE(a_rule_defined_twice_is_refused) {
    BOOST_CHECK_THROW(hostile::parse_rules("| W1 | one |\n| W2 | two |\n| W1 | again |\n"), std::runtime_error);
    const auto ok = hostile::parse_rules("| ID | rule |\n| --- | --- |\n| W1 | one |\n| D12 | two words |\n");
    BOOST_TEST(ok.size() == 2u);
    BOOST_TEST(ok.at("D12") == "two words");
}

BOOST_AUTO_TEST_CASE(a_case_naming_an_undefined_rule_is_found) {
    const auto rules = hostile::parse_rules(read_all(rules_page));
    json m = {{"cases", json::array({{{"file", "accept-a.onnx"}, {"rule_id", "W1"}, {"rule", rules.at("W1")}},
                                     {{"file", "malformed-b.onnx"}, {"rule_id", "Z99"}, {"rule", "made up"}},
                                     {{"file", "malformed-c.onnx"}, {"rule_id", "W1"}, {"rule", "other words"}},
                                     {{"file", "malformed-d.onnx"}}})}};
    const auto problems = rule_problems(m, rules);
    BOOST_TEST_REQUIRE(problems.size() == 3u);
    BOOST_TEST(problems[0].find("Z99") != std::string::npos);
    // The generator itself stops at an undefined ID.
    hostile::Corpus c;
    BOOST_CHECK_THROW(c.accept("x", hostile::Rule{"Z99", "1"}, "why", ""), std::runtime_error);
}

BOOST_AUTO_TEST_SUITE_END()
