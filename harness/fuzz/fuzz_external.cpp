// fuzz_external: external data (spec section 5) from inputs that carry their own side
// files. The input is a ModelProto; its top-level metadata_props entries with a key
// `file:NAME` are side files (the value is the file's bytes) and `link:NAME` symbolic
// links (the value is the link's target, as written). The target reads them from the bytes
// and writes them into the folder `data/` of a per-process temporary directory
// (fuzz_side_files.hpp, which says what it writes and what it never does; fuzz_run_dir.hpp:
// under $TMPDIR, /dev/shm or /tmp, removed at exit), beside a file `outside` that is not in
// the folder, and imports the bytes with external_data_dir set to the folder: openat2 with
// mapped files, then, unless the first import settles it, the user-space walk with pread
// (safe_open.hpp, external_data.hpp). The first settles bytes refused while reading (the
// walk would read them the same way) and models that name no external tensor (the two ways
// differ only in how an external file is opened and read).
//
// Oracle (beyond the sanitizers and fuzz_common's walk of the model):
//  - a refusal passes fuzz_check.hpp's check_error (a known kind, Io included, naming the
//    input, with an offset inside it and a well-formed path);
//  - an accepted model's side-file entries are the ones read from the bytes;
//  - otherwise both ways of opening and reading give the same answer: the same digest of
//    the walk (fuzz_common.hpp's Walker, over every tensor byte), or a refusal with the same
//    kind, offset and field path; on the inputs fuzz_share.hpp picks (a fixed share, by a
//    hash of the bytes), also the same dump (which holds every name and every tensor's
//    SHA-256);
//  - an accepted external tensor's location resolves (realpath) inside the folder to a
//    regular file the input wrote, and its bytes are that file's bytes from its offset
//    (default 0), as many as the tensor holds, which is its length when one is given.
// GAUNTLET_EXTERNAL_STATS=1 prints at exit how the inputs went (refused while reading, read
// naming no external tensor, accepted and how many external tensors were checked, refused
// by kind): a view of what the corpus reaches.
#include "fuzz_common.hpp"
#include "fuzz_run_dir.hpp"
#include "fuzz_share.hpp"
#include "fuzz_side_files.hpp"

#include "external/external_data.hpp"
#include "external/safe_open.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <span>
#include <string>

namespace {

namespace fs = std::filesystem;
using namespace onnximport;
using namespace gauntlet_fuzz;

constexpr std::string_view name = "fuzz_external";

struct Stats {
    uint64_t inputs = 0, not_a_model = 0, no_external_tensor = 0, accepted = 0, external_tensors = 0;
    std::map<std::string, uint64_t> refused;
    ~Stats() {
        if (!std::getenv("GAUNTLET_EXTERNAL_STATS")) return;
        std::fprintf(stderr,
                     "fuzz_external: %llu inputs, %llu refused while reading, %llu read naming no external tensor "
                     "(both imported once), %llu accepted (%llu external tensors checked)\n",
                     static_cast<unsigned long long>(inputs), static_cast<unsigned long long>(not_a_model),
                     static_cast<unsigned long long>(no_external_tensor), static_cast<unsigned long long>(accepted),
                     static_cast<unsigned long long>(external_tensors));
        for (const auto& [kind, n] : refused)
            std::fprintf(stderr, "  refused %s: %llu\n", kind.c_str(), static_cast<unsigned long long>(n));
    }
};
Stats stats;

/// The run folder (fuzz_run_dir.hpp), with the file `outside` beside the external-data folder.
const fs::path& make_run_dir() {
    const fs::path& dir = run_dir("fuzz-external");
    if (!fs::exists(dir / "outside"))
        std::ofstream(dir / "outside", std::ios::binary) << "bytes outside the external-data folder";
    return dir;
}

std::optional<uint64_t> decimal(std::string_view s) {
    uint64_t v = 0;
    if (s.empty()) return std::nullopt;
    for (char c : s) {
        if (c < '0' || c > '9' || v > (UINT64_MAX - 9) / 10) return std::nullopt;
        v = v * 10 + static_cast<uint64_t>(c - '0');
    }
    return v;
}

struct ExternalCheck {
    const fs::path& data;
    const std::string& data_real;
    const std::vector<SideFileFolder::File>& files;
    const std::vector<SideEntry>& entries;  ///< read from the bytes (fuzz_side_files.hpp)

    void tensor(const TensorView& t) const {
        if (t.source != TensorSource::External || !t.has_bytes()) return;
        ++stats.external_tensors;
        std::string_view location;
        std::optional<uint64_t> offset, length;
        for (const auto& e : t.external_data) {
            if (e.key == "location") location = e.value;
            if (e.key == "offset") offset = decimal(e.value);
            if (e.key == "length") length = decimal(e.value);
        }
        // Built only for a message: the checks hold on every input but a finding.
        const auto what = [&] { return std::string(t.name) + " at \"" + std::string(location) + "\""; };
        char resolved[PATH_MAX];
        if (!::realpath((data / std::string(location)).c_str(), resolved))
            fuzz_fail("an accepted external location does not resolve", what());
        const std::string_view real = resolved;
        const bool inside_folder =
            real.size() > data_real.size() + 1 && real.starts_with(data_real) && real[data_real.size()] == '/';
        GAUNTLET_CHECK(inside_folder, "accepted outside the folder: " + what() + " -> " + std::string(real));
        const std::string_view inside = real.substr(data_real.size() + 1);
        const auto file = std::find_if(files.begin(), files.end(), [&](const auto& f) { return f.first == inside; });
        GAUNTLET_CHECK(file != files.end(), "accepted something the input did not write as a file: " + what());
        const auto bytes = t.bytes();
        const uint64_t from = offset.value_or(0);
        GAUNTLET_CHECK(!length || *length == bytes.size(), what());
        GAUNTLET_CHECK(from <= file->second.size() && bytes.size() <= file->second.size() - from,
                       "accepted a range beyond the file: " + what());
        GAUNTLET_CHECK(bytes.empty() || std::memcmp(bytes.data(), file->second.data() + from, bytes.size()) == 0,
                       "external bytes differ from the file's: " + what());
    }

    void attribute(const Attribute& a) const {
        if (a.t()) tensor(*a.t());
        for (const auto& t : a.tensors()) tensor(t);
        if (a.sparse_tensor()) sparse(*a.sparse_tensor());
        for (const auto& s : a.sparse_tensors()) sparse(s);
        if (a.g()) graph(*a.g());
        for (const auto& g : a.graphs()) graph(g);
    }
    void sparse(const SparseTensor& s) const {
        tensor(s.values);
        tensor(s.indices);
    }
    void graph(const Graph& g) const {
        for (const auto& t : g.initializers) tensor(t);
        for (const auto& s : g.sparse_initializers) sparse(s);
        for (const auto& n : g.nodes)
            for (const auto& a : n.attributes) attribute(a);
    }
    /// The side files the folder was filled from are the model's: the scan read the bytes
    /// as the importer did.
    void side_files(const Model& m) const {
        size_t i = 0;
        for (const auto& e : m.proto().metadata_props) {
            if (!is_side_file_key(e.key)) continue;
            GAUNTLET_CHECK(i < entries.size() && entries[i] == SideEntry(e.key, e.value),
                           "the side-file entries read from the bytes are not the model's: " + std::string(e.key));
            ++i;
        }
        GAUNTLET_CHECK(i == entries.size(), "the bytes name side files the model does not");
    }

    void model(const Model& m) const {
        side_files(m);
        if (m.graph()) graph(*m.graph());
        for (const auto& ti : m.proto().training_info) {
            if (ti.initialization()) graph(*ti.initialization());
            if (ti.algorithm()) graph(*ti.algorithm());
        }
        for (const auto& f : m.proto().functions) {
            for (const auto& n : f.nodes)
                for (const auto& a : n.attributes) attribute(a);
            for (const auto& a : f.attribute_protos) attribute(a);
        }
    }
};

/// One import of the bytes: the walk's digest (and the dump, when asked) when accepted,
/// the refusal otherwise.
struct Outcome {
    std::optional<ImportError> error;
    bool read = false;      ///< the read step ended: the bytes hold a model
    bool external = false;  ///< accepted, and a tensor keeps its data in an external file
    uint64_t digest = 0;
    std::string dump;
};

/// True when a tensor of the model (in any graph, attribute, function or training info) keeps
/// its data in an external file: the tensors the importer's external-data step visits.
bool names_external_tensors(Model& m) {
    bool any = false;
    detail::visit_model(
        detail::ModelAccess::proto(m), [](Graph&) {},
        [&](const TensorView& t) { any |= t.source == TensorSource::External; });
    return any;
}

/// Options with the folder as external_data_dir and `times` for the steps' times. Made once
/// per way, not per input: fresh options would copy the folder's path (and split it into its
/// components) on every execution.
ImportOptions options_for(const fs::path& folder, ExternalOpen open, ImportTimes& times) {
    ImportOptions o;
    o.external_data_dir = folder;
    o.external_open = open;
    o.map_external_files = open == ExternalOpen::Auto;  // openat2 maps, the walk reads with pread
    o.times = &times;
    return o;
}

Outcome import_once(std::span<const uint8_t> bytes, const ImportOptions& options, ImportTimes& times,
                    const ExternalCheck& check, bool with_dump) {
    times = {};
    try {
        Model m = import_bytes(bytes, name, options);
        Walker w;
        w.model(m);
        check.model(m);
        return {std::nullopt, true, names_external_tensors(m), w.hash, with_dump ? dump_of(m) : std::string()};
    } catch (ImportError& e) {
        check_error(e, name, bytes.size(), /*io_possible=*/true);
        // A step's time is added when the step ends (onnximport/options.hpp): none for the
        // read step means the refusal came while reading (no step takes 0 ns on a clock of 1 ns).
        return {std::move(e), times.read > 0, false, 0, {}};
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::span<const uint8_t> bytes(data, size);
    ++stats.inputs;
    static SideFileFolder folder(make_run_dir() / "data");
    const std::vector<SideEntry> entries = side_file_entries(bytes);
    folder.hold(entries);
    const ExternalCheck check{folder.path(), folder.real(), folder.files(), entries};

    static ImportTimes times;
    static const ImportOptions by_openat2 = options_for(folder.path(), ExternalOpen::Auto, times);
    static const ImportOptions by_walk = options_for(folder.path(), ExternalOpen::Walk, times);
    const bool expensive = gets_expensive_checks(bytes);
    const Outcome first = import_once(bytes, by_openat2, times, check, expensive);
    if (first.error) ++stats.refused[std::string(to_string(first.error->kind()))];
    else ++stats.accepted;
    // Refused while reading, the walk would read the same bytes the same way; without an
    // external tensor, it would run the same code.
    if (!first.read || !(first.error ? may_name_external_tensors(bytes) : first.external)) {
        ++(first.read ? stats.no_external_tensor : stats.not_a_model);
        return 0;
    }
    const Outcome second = import_once(bytes, by_walk, times, check, expensive);
    if (first.error && second.error) {
        GAUNTLET_CHECK(first.error->kind() == second.error->kind() && first.error->offset() == second.error->offset() &&
                           first.error->field_path() == second.error->field_path(),
                       "openat2 and the walk refuse differently: " + describe(*first.error) + " vs " +
                           describe(*second.error));
    } else {
        GAUNTLET_CHECK(!first.error && !second.error,
                       std::string("openat2 and the walk disagree: ") +
                           (first.error ? "openat2 refuses, " + describe(*first.error)
                                        : "the walk refuses, " + describe(*second.error)));
        GAUNTLET_CHECK(first.digest == second.digest, "openat2 with mapping and the walk with pread walk differently");
        GAUNTLET_CHECK(first.dump == second.dump, "openat2 with mapping and the walk with pread give different dumps");
    }
    return 0;
}
