// fuzz_external: external data (spec section 5) from inputs that carry their own side
// files. The input is a ModelProto; its metadata_props entries with a key
// `file:NAME` are side files (the value is the file's bytes) and `link:NAME` symbolic
// links (the value is the link's target, as written). The target writes them into a
// fresh folder `data/` of a per-process temporary directory (fuzz_run_dir.hpp: under
// $TMPDIR, /dev/shm or /tmp, removed at exit), beside a file `outside` that is not in the folder, and imports
// the bytes with external_data_dir set to the folder twice: openat2 with mapped files,
// then the user-space walk with pread (safe_open.hpp, external_data.hpp). A model that names
// no external tensor is imported once: the two ways differ only in how an external file is
// opened and read, so for it they run the same code.
//
// Oracle (beyond the sanitizers and fuzz_common's walk of the model):
//  - a refusal is an ImportError of a known kind naming the input, with an offset inside
//    it (Io included: a location may name a folder or a loop of links);
//  - for a model that names an external tensor, both ways of opening and reading give the
//    same answer: the same digest of the walk (fuzz_common.hpp's Walker, over every tensor
//    byte), or a refusal with the same kind, offset and field path; on the inputs
//    fuzz_share.hpp picks (a fixed share, by a hash of the bytes), also the same dump (which
//    holds every name and every tensor's SHA-256);
//  - an accepted external tensor's location resolves (realpath) inside the folder to a
//    regular file the input wrote, and its bytes are that file's bytes from its offset
//    (default 0), as many as the tensor holds, which is its length when one is given.
// GAUNTLET_EXTERNAL_STATS=1 prints at exit how the inputs went (not a model, imported once,
// accepted and how many external tensors were checked, refused by kind): a view of what the
// corpus reaches.
// The target never writes outside its folder: a NAME is one to three segments of
// [A-Za-z0-9._-] other than . and ..; entries with other names are skipped; every file is
// written before any link is made, and nothing is created beneath a link. (A link may
// point anywhere: making a link touches nothing, and reading through it is what the
// importer must refuse.)
#include "fuzz_common.hpp"
#include "fuzz_run_dir.hpp"
#include "fuzz_share.hpp"

#include "external/external_data.hpp"
#include "external/safe_open.hpp"

#include <cctype>
#include <climits>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <unistd.h>

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
                     "fuzz_external: %llu inputs, %llu not a model, %llu naming no external tensor (imported once), "
                     "%llu accepted (%llu external tensors checked)\n",
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

/// NAME as segments, or nothing when it is not one the target writes.
std::optional<std::string> safe_name(std::string_view n) {
    int segments = 0;
    size_t start = 0;
    while (start <= n.size()) {
        size_t end = n.find('/', start);
        if (end == std::string_view::npos) end = n.size();
        const std::string_view seg = n.substr(start, end - start);
        if (seg.empty() || seg.size() > 32 || seg == "." || seg == ".." || ++segments > 3) return std::nullopt;
        for (char c : seg)
            if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-')) return std::nullopt;
        start = end + 1;
    }
    return std::string(n);
}

/// True when no folder on the way from `data` to NAME is a symbolic link: a side file or
/// link is never created through a link the input made (which could lead anywhere).
bool no_link_on_the_way(const fs::path& data, const std::string& n) {
    std::error_code ec;
    fs::path p = data;
    for (size_t start = 0, end; (end = n.find('/', start)) != std::string::npos; start = end + 1) {
        p /= n.substr(start, end - start);
        if (fs::symlink_status(p, ec).type() == fs::file_type::symlink) return false;
    }
    return true;
}

/// Writes the input's side files, all files before any link; returns NAME -> bytes of the
/// regular files written.
std::map<std::string, std::string> write_side_files(const Model& m, const fs::path& data) {
    std::map<std::string, std::string> files;
    std::error_code ec;
    for (const bool links : {false, true}) {
        for (const auto& e : m.proto().metadata_props) {
            if (!e.key.starts_with(links ? "link:" : "file:")) continue;
            auto n = safe_name(e.key.substr(5));
            if (!n || !no_link_on_the_way(data, *n)) continue;
            const fs::path p = data / *n;
            if (fs::symlink_status(p, ec).type() != fs::file_type::not_found) continue;  // the first entry wins
            fs::create_directories(p.parent_path(), ec);
            if (ec || !no_link_on_the_way(data, *n)) continue;
            if (!links) {
                std::ofstream out(p, std::ios::binary);
                out.write(e.value.data(), static_cast<std::streamsize>(e.value.size()));
                if (out.good()) files.emplace(*n, std::string(e.value));
            } else if (!e.value.empty() && e.value.size() < 256 && e.value.find('\0') == std::string_view::npos) {
                (void)::symlink(std::string(e.value).c_str(), p.c_str());
            }
        }
    }
    return files;
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
    std::string data_real;
    const std::map<std::string, std::string>& files;

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
        const std::string what = std::string(t.name) + " at \"" + std::string(location) + "\"";
        char resolved[PATH_MAX];
        if (!::realpath((data / std::string(location)).c_str(), resolved))
            fuzz_fail("an accepted external location does not resolve", what);
        const std::string real = resolved;
        GAUNTLET_CHECK(
            real.size() > data_real.size() + 1 && real.compare(0, data_real.size() + 1, data_real + "/") == 0,
            "accepted outside the folder: " + what + " -> " + real);
        const auto file = files.find(real.substr(data_real.size() + 1));
        GAUNTLET_CHECK(file != files.end(), "accepted something the input did not write as a file: " + what);
        const auto bytes = t.bytes();
        const uint64_t from = offset.value_or(0);
        GAUNTLET_CHECK(!length || *length == bytes.size(), what);
        GAUNTLET_CHECK(from <= file->second.size() && bytes.size() <= file->second.size() - from,
                       "accepted a range beyond the file: " + what);
        GAUNTLET_CHECK(bytes.empty() || std::memcmp(bytes.data(), file->second.data() + from, bytes.size()) == 0,
                       "external bytes differ from the file's: " + what);
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
    void model(const Model& m) const {
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

void check_refusal(const ImportError& e, uint64_t size) {
    const auto k = e.kind();
    GAUNTLET_CHECK(k == ErrorKind::Malformed || k == ErrorKind::InvalidModel || k == ErrorKind::Unsupported ||
                       k == ErrorKind::ExternalData || k == ErrorKind::Io,
                   describe(e));
    GAUNTLET_CHECK(e.source_name() == name, describe(e));
    GAUNTLET_CHECK(e.offset().has_value() && *e.offset() <= size, describe(e));
    GAUNTLET_CHECK(!e.message().empty(), describe(e));
}

/// One import of the bytes: the walk's digest (and the dump, when asked) when accepted,
/// the refusal otherwise.
struct Outcome {
    std::optional<ImportError> error;
    uint64_t digest = 0;
    std::string dump;
};

Outcome import_once(std::span<const uint8_t> bytes, const ImportOptions& options, const ExternalCheck& check,
                    bool with_dump) {
    try {
        Model m = import_bytes(bytes, name, options);
        Walker w;
        w.model(m);
        check.model(m);
        return {std::nullopt, w.hash, with_dump ? dump_of(m) : std::string()};
    } catch (const ImportError& e) {
        check_refusal(e, bytes.size());
        return {e, 0, {}};
    }
}

/// The external-data folder, empty, and its real path. Emptied (removed and made again) only
/// when the last input may have written into it: most inputs write nothing, and on a
/// loaded disk the folder's churn cost more than the imports (docs/fuzzing.md).
struct Folder {
    fs::path path;
    std::string real;
    bool may_hold_files = true;

    void empty() {
        if (!may_hold_files) return;
        std::error_code ec;
        fs::remove_all(path, ec);
        fs::create_directory(path, ec);
        if (ec) fuzz_fail("cannot make the external-data folder", path.string());
        char resolved[PATH_MAX];
        if (!::realpath(path.c_str(), resolved)) fuzz_fail("realpath of the folder failed", path.string());
        real = resolved;
        may_hold_files = false;
    }
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

/// True when the model asks for a side file or link (write_side_files may write).
bool asks_for_side_files(const Model& m) {
    for (const auto& e : m.proto().metadata_props)
        if (e.key.starts_with("file:") || e.key.starts_with("link:")) return true;
    return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::span<const uint8_t> bytes(data, size);
    ++stats.inputs;
    // The side files come from the model itself: read without external data first.
    ImportOptions plain;
    plain.load_external_data = false;
    plain.resolve = false;
    std::map<std::string, std::string> files;
    static Folder folder{make_run_dir() / "data", {}, true};
    folder.empty();
    bool external = false;
    try {
        Model m = import_bytes(bytes, name, plain);
        folder.may_hold_files = asks_for_side_files(m);
        files = write_side_files(m, folder.path);
        external = names_external_tensors(m);
    } catch (const ImportError& e) {
        check_error(e, name, size);
        ++stats.not_a_model;
        return 0;
    }
    const ExternalCheck check{folder.path, folder.real, files};

    ImportOptions options;
    options.external_data_dir = folder.path;
    options.external_open = ExternalOpen::Auto;
    options.map_external_files = true;
    const bool expensive = gets_expensive_checks(bytes);
    const Outcome first = import_once(bytes, options, check, expensive);
    if (first.error) ++stats.refused[std::string(to_string(first.error->kind()))];
    else ++stats.accepted;
    if (!external) {
        ++stats.no_external_tensor;
        return 0;
    }
    options.external_open = ExternalOpen::Walk;
    options.map_external_files = false;
    const Outcome second = import_once(bytes, options, check, expensive);
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
