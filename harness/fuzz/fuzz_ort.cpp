// fuzz_ort: bytes -> import_bytes of a .ort buffer, then a walk of the whole graph and
// every tensor view, with fuzz_model's invariants.
//
// Oracle (beyond the sanitizers):
//  - differential against FlatBuffers' generated Verifier, the oracle of structure, with
//    its limits raised to the walk's own (depth max_nesting, tables as the budget; O2):
//    read as .ort, what it accepts we never refuse as Malformed, and what we accept it
//    accepts; with ONNX Runtime's limits (ImportOptions::onnxruntime_limits) we accept
//    only what it accepts with its defaults;
//  - a refusal is an ImportError with a kind and an offset inside the input; refusing
//    the same bytes again gives the same kind, offset and path;
//  - an accepted model walks end to end (tensor views of the spec's length, string
//    tensors of one entry per element, resolution's tables consistent) and dumps
//    deterministically, across two imports of the same bytes (the second on two threads);
//  - after Model::close() tensor bytes throw ImportError(Io).
// The structure-aware mutator is ort_mutator.cpp (it shares, aliases and multiplies
// references: ort_mutate.hpp); seeds are .ort files ONNX Runtime wrote.
// GAUNTLET_ORT_STATS=1 prints at exit how the .ort inputs went through the differential, all
// of them and those with shared or overlapping objects (ort_index.hpp): what the mutator reaches.
#include "fuzz_common.hpp"
#include "ort_index.hpp"

#include <ort_generated.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <span>

namespace {
constexpr std::string_view name = "fuzz_ort";

/// Verdicts of the structural differential, for inputs of one shape.
struct Verdicts {
    uint64_t inputs = 0, oracle_accepts = 0, walk_accepts = 0;
    std::map<std::string, uint64_t> refused;  ///< the walk's refusals by kind
    void add(bool oracle, std::string_view refusal) {
        ++inputs;
        oracle_accepts += oracle;
        if (refusal.empty()) ++walk_accepts;
        else ++refused[std::string(refusal)];
    }
    void print(const char* what) const {
        std::fprintf(stderr, "fuzz_ort: %s: %llu inputs, the Verifier accepts %llu, the walk accepts %llu\n", what,
                     static_cast<unsigned long long>(inputs), static_cast<unsigned long long>(oracle_accepts),
                     static_cast<unsigned long long>(walk_accepts));
        for (const auto& [kind, n] : refused)
            std::fprintf(stderr, "  refused %s: %llu\n", kind.c_str(), static_cast<unsigned long long>(n));
    }
};

struct Stats {
    const bool on = std::getenv("GAUNTLET_ORT_STATS") != nullptr;
    Verdicts all, shared, overlapping;
    size_t most = 0;  ///< the most references to one object in an input
    void add(std::span<const uint8_t> bytes, bool oracle, std::string_view refusal) {
        all.add(oracle, refusal);
        const gauntlet_fuzz::ort::Index ix = gauntlet_fuzz::ort::index_of(bytes.data(), bytes.size());
        if (const auto s = ix.sharing(); s.objects) {
            shared.add(oracle, refusal);
            most = std::max(most, s.most);
        }
        if (ix.overlapping()) overlapping.add(oracle, refusal);
    }
    ~Stats() {
        if (!on) return;
        all.print(".ort (ORTM)");
        shared.print("with a shared object");
        std::fprintf(stderr, "  most references to one object: %zu\n", most);
        overlapping.print("with overlapping vectors or strings");
    }
};
Stats stats;

bool verifier_accepts(const uint8_t* data, size_t size, bool raised) {
    flatbuffers::Verifier::Options limits;  // ONNX Runtime's defaults, or the walk's own
    if (raised) limits.max_depth = static_cast<flatbuffers::uoffset_t>(onnximport::ImportOptions{}.max_nesting);
    // Uncapped, the Verifier counts every reference, exponentially many in a diamond of shared
    // subgraphs (docs/performance.md, ".ort budget"). Capped at the tables the walk's budget
    // holds (rule O15), the cap is reached only where the walk refuses.
    if (raised) limits.max_tables = static_cast<flatbuffers::uoffset_t>((16 * size + (1u << 20)) / 32);
    flatbuffers::Verifier verifier(data, size, limits);
    return onnximport::ortfb::VerifyInferenceSessionBuffer(verifier);
}

/// The walk's structural verdict against the oracle's, read as .ort whatever ORTM says.
void check_structure(std::span<const uint8_t> bytes) {
    using namespace onnximport;
    ImportOptions o;
    o.format = ModelFormat::Ort;
    o.load_external_data = false;
    o.resolve = false;
    const bool oracle = verifier_accepts(bytes.data(), bytes.size(), true);
    try {
        (void)import_bytes(bytes, name, o);
        if (stats.on) stats.add(bytes, oracle, {});
        GAUNTLET_CHECK(oracle, "the walk accepts a buffer FlatBuffers' Verifier refuses");
    } catch (const ImportError& e) {
        if (stats.on) stats.add(bytes, oracle, onnximport::to_string(e.kind()));
        GAUNTLET_CHECK(!(oracle && e.kind() == ErrorKind::Malformed),
                       "Malformed, but FlatBuffers' Verifier accepts the buffer: " + gauntlet_fuzz::describe(e));
        return;
    }
    o.onnxruntime_limits = true;  // accepted: ONNX Runtime's limits decide as its Verifier
    bool within = true;
    try {
        (void)import_bytes(bytes, name, o);
    } catch (const ImportError&) {
        within = false;
    }
    GAUNTLET_CHECK(within == verifier_accepts(bytes.data(), bytes.size(), false),
                   "onnxruntime_limits and FlatBuffers' Verifier with its defaults disagree");
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace onnximport;
    using namespace gauntlet_fuzz;
    const std::span<const uint8_t> bytes(data, size);
    const bool ort = size > 8 && std::memcmp(data + 4, "ORTM", 4) == 0;
    if (ort) check_structure(bytes);
    std::optional<ImportError> first_error;
    try {
        Model m = import_bytes(bytes, name);
        Walker w;
        w.model(m);
        const std::string dump = dump_of(m);
        Model again = import_bytes(bytes, name, with_two_threads());
        GAUNTLET_CHECK(dump_of(again) == dump, "dumps of two imports of the same bytes differ");
        m.close();
        check_closed(m);
        return 0;
    } catch (const ImportError& e) {
        check_error(e, name, size);
        first_error = e;
    }
    check_refused_again(bytes, name, {}, *first_error);
    return 0;
}
