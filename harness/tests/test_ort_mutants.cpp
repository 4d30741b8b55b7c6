// Suite ort_mutants: 10,000 mutants of backend .ort files, from a fixed seed. The files are
// the backend models ONNX Runtime wrote (the named .ort seeds of corpus/fuzz_ort) and our
// writer's .ort of the same models; the mutants are truncations, one-byte flips and
// rewritten offsets (a uoffset or soffset the layout holds, harness/tests/ort_offsets.hpp,
// set to zero, past the end, negative, 0x7fffff00 or at another place of the buffer).
// Each refusal is located (docs/ort.md, "One walk that checks where it reads"): a non-zero
// offset inside the buffer and a path below InferenceSession. The one exception is a fault
// in the root's own bytes (the root offset, the identifier, the root table's soffset and its
// vtable), which may be named as the root itself: `InferenceSession` or, for the root
// offset at byte 0, `InferenceSession.root`. Each verdict also agrees with the generated
// Verifier (rule O2), and reading by content, as `check` does, gives the same answer (O1).
#include "ort_verdicts.hpp"

#include "ort_offsets.hpp"

#include <onnximport/import.hpp>
#include <onnximport/write_ort.hpp>

#include <boost/test/unit_test.hpp>
#include <valgrind/valgrind.h>  // the valgrind package, which install_deps.sh installs

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <random>
#include <string>
#include <vector>

using namespace onnximport;
using namespace ort_test;
namespace fs = std::filesystem;
namespace tb = onnximport::testing;

namespace {

/// mt19937_64's sequence is fixed by the standard: every build makes the same mutants.
using Rng = std::mt19937_64;
constexpr uint64_t seed = 0x6f72742d6d757461;  // "ort-muta"

struct Source {
    std::string name;
    std::vector<uint8_t> bytes;
    tb::OrtOffsets offsets;
};

struct Mutant {
    std::vector<uint8_t> bytes;
    bool in_root = false;  ///< the fault lies in the root's own bytes
    std::string what;
};

std::vector<uint8_t> read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

void add_source(std::vector<Source>& out, std::string name, std::vector<uint8_t> bytes) {
    BOOST_TEST_REQUIRE(generated_verifies(bytes), name);
    BOOST_TEST_REQUIRE(!refusal(bytes), name);
    tb::OrtOffsets offsets = tb::find_ort_offsets(bytes);
    out.push_back({std::move(name), std::move(bytes), std::move(offsets)});
}

/// ONNX Runtime's .ort of backend models, and our writer's of each model it can write.
std::vector<Source> backend_sources() {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(fs::path(GAUNTLET_SOURCE_DIR) / "corpus" / "fuzz_ort"))
        if (e.path().extension() == ".ort") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    std::vector<Source> out;
    for (const fs::path& f : files) {
        std::vector<uint8_t> bytes = read(f);
        const std::string name = f.filename().string();
        std::optional<std::vector<uint8_t>> ours;
        try {
            ours = write_ort_bytes(import_bytes(std::span<const uint8_t>(bytes), name));
        } catch (const ImportError&) {  // what our writer cannot write (docs/ort.md, "Refused as Unsupported")
        }
        add_source(out, name, std::move(bytes));
        if (ours) add_source(out, name + " (our writer)", std::move(*ours));
    }
    return out;
}

bool in_root(const tb::OrtOffsets& o, uint64_t p) {
    return p < 8 || (p >= o.root && p < o.root + 4) ||
           (p >= o.root_vtable && p < uint64_t{o.root_vtable} + o.root_vtable_size);
}

/// Cut to n bytes: a fault in the root when any of the root's bytes is cut off.
Mutant truncated(const Source& s, Rng& rng) {
    const size_t n = rng() % s.bytes.size();
    const tb::OrtOffsets& o = s.offsets;
    const uint64_t root_end =
        std::max<uint64_t>({8, uint64_t{o.root} + 4, uint64_t{o.root_vtable} + o.root_vtable_size});
    return {{s.bytes.begin(), s.bytes.begin() + static_cast<std::ptrdiff_t>(n)}, n < root_end,
            s.name + ": cut to " + std::to_string(n) + " bytes"};
}

Mutant flipped(const Source& s, Rng& rng) {
    Mutant m{s.bytes, false, {}};
    const size_t p = rng() % s.bytes.size();
    const auto mask = static_cast<uint8_t>(1 + rng() % 255);
    m.bytes[p] ^= mask;
    m.in_root = in_root(s.offsets, p);
    m.what = s.name + ": byte " + std::to_string(p) + " xor " + std::to_string(mask);
    return m;
}

/// Another value for the offset at `slot`: a uoffset's target is slot + value, an
/// soffset's vtable slot - value.
uint32_t other_offset(uint32_t slot, bool soffset, uint32_t old, uint32_t size, Rng& rng) {
    const auto towards = [&](uint32_t to) { return soffset ? slot - to : to - slot; };
    for (;;) {
        uint32_t v;
        switch (rng() % 6) {
        case 0: v = 0; break;
        case 1: v = 0x7fffff00; break;  // the value of the in-place rewrite race (suite ort_rewrite_race)
        case 2: v = 0x80000000u | static_cast<uint32_t>(rng()); break;  // negative as an int32
        case 3: v = towards(static_cast<uint32_t>(rng() % size) & ~3u); break;  // another place inside
        case 4: v = towards(size + static_cast<uint32_t>(rng() % 8)); break;    // just past the end
        default: v = old + 4 * static_cast<uint32_t>(rng() % 9) - 16; break;     // a neighbouring word
        }
        if (v != old) return v;
    }
}

Mutant rewritten(const Source& s, Rng& rng) {
    const tb::OrtOffsets& o = s.offsets;
    const size_t k = rng() % (o.uoffsets.size() + o.soffsets.size());
    const bool soffset = k >= o.uoffsets.size();
    const uint32_t slot = soffset ? o.soffsets[k - o.uoffsets.size()] : o.uoffsets[k];
    Mutant m{s.bytes, in_root(o, slot), {}};
    uint32_t old;
    std::memcpy(&old, m.bytes.data() + slot, 4);
    const uint32_t v = other_offset(slot, soffset, old, static_cast<uint32_t>(s.bytes.size()), rng);
    std::memcpy(m.bytes.data() + slot, &v, 4);
    m.what = s.name + ": the " + (soffset ? "soffset" : "uoffset") + " at byte " + std::to_string(slot) + " set to " +
             std::to_string(v);
    return m;
}

struct Tally {
    size_t mutants = 0, refused = 0, malformed = 0, root_faults = 0, named_as_root = 0, read_as_onnx = 0;
};

bool below_root(const std::string& path) {
    return path.rfind("InferenceSession.", 0) == 0 && path != "InferenceSession.root";
}

/// The refusal names where the fault is: below the root, or the root for its own bytes.
void check_located(const Mutant& m, const ImportError& e, Tally& t) {
    const std::string& path = e.field_path();
    const uint64_t size = m.bytes.size();
    const bool as_root = path == "InferenceSession" || path == "InferenceSession.root";
    if (!m.in_root) {
        BOOST_TEST(below_root(path));
        BOOST_TEST((e.offset() && *e.offset() > 0 && *e.offset() < size));
        return;
    }
    ++t.root_faults;
    t.named_as_root += as_root;
    BOOST_TEST((as_root || below_root(path)));
    BOOST_TEST((e.offset() && (*e.offset() < size || size == 0)));
    // Byte 0 only for the root offset itself, or a buffer too short to hold a root (12 bytes).
    if (e.offset() == uint64_t{0}) BOOST_TEST((path == "InferenceSession.root" || size < 12));
}

/// What `check` answers by default (the format by content, rule O1) is the .ort reader's answer.
void check_by_content(const Mutant& m, const std::optional<ImportError>& as_ort, Tally& t) {
    if (m.bytes.size() <= 8 || std::memcmp(m.bytes.data() + 4, "ORTM", 4) != 0) return;  // not a .ort by content
    const std::optional<ImportError> e = refusal(m.bytes, ModelFormat::Auto);
    if (!as_ort) {
        BOOST_TEST((!e || std::string(e->what()).find("rule O16") != std::string::npos));
        return;
    }
    if (!e) {
        ++t.read_as_onnx;  // a valid .onnx as well (O1)
        return;
    }
    BOOST_TEST(std::string(e->what()) == std::string(as_ort->what()));
}

void judge(const Mutant& m, Tally& t) {
    ++t.mutants;
    const bool oracle = generated_verifies(m.bytes);
    const std::optional<ImportError> e = refusal(m.bytes);
    BOOST_TEST_CONTEXT(m.what << (e ? std::string(": ") + e->what() : std::string(": imported"))) {
        check_by_content(m, e, t);
        if (!e) {
            BOOST_TEST(oracle);  // we accept only what the oracle accepts
            return;
        }
        ++t.refused;
        t.malformed += e->kind() == ErrorKind::Malformed;
        BOOST_TEST(!(oracle && e->kind() == ErrorKind::Malformed));  // never Malformed where the oracle accepts
        check_located(m, *e, t);
    }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ort_mutants)

BOOST_AUTO_TEST_CASE(every_refusal_of_a_mutated_backend_file_names_its_offset_and_path) {
    const std::vector<Source> sources = backend_sources();
    BOOST_TEST_REQUIRE(sources.size() >= 60u);  // 36 of ONNX Runtime's, most of them also ours
    // A tenth under memcheck, which runs the binary (valgrind_unit_tests_2) within its
    // time limit only so (docs/performance.md, "Sizes the tests rely on").
    const size_t count = RUNNING_ON_VALGRIND ? 1000 : 10000;
    Rng rng(seed);
    Tally tally;
    for (size_t i = 0; i < count; ++i) {
        const Source& s = sources[rng() % sources.size()];
        switch (i % 3) {
        case 0: judge(truncated(s, rng), tally); break;
        case 1: judge(flipped(s, rng), tally); break;
        default: judge(rewritten(s, rng), tally); break;
        }
    }
    BOOST_TEST_MESSAGE("ort_mutants: " << tally.mutants << " mutants of " << sources.size() << " files, "
                                       << tally.refused << " refused (" << tally.malformed << " Malformed), "
                                       << tally.root_faults << " faults in the root's own bytes ("
                                       << tally.named_as_root << " named as the root), " << tally.read_as_onnx
                                       << " read as .onnx");
    BOOST_TEST(tally.mutants == count);
    BOOST_TEST(tally.refused * 10 > tally.mutants * 6);   // most mutants are refused: the test sees refusals
    BOOST_TEST(tally.malformed * 10 > tally.refused * 5);  // and mostly structural ones
    // The exception stays narrow: the root's own bytes are a few dozen of each file's.
    BOOST_TEST(tally.root_faults * 20 < tally.mutants);
    BOOST_TEST(tally.named_as_root > 0u);
}

BOOST_AUTO_TEST_SUITE_END()
