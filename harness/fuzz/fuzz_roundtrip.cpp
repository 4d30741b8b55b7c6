// fuzz_roundtrip: bytes -> import_bytes -> write_onnx_bytes -> import_bytes: the
// .onnx writer against the reader, on every model the reader accepts; then the .ort writer.
//
// Oracle (beyond the sanitizers). On every accepted input:
//  - the model is written without a refusal (bytes have no external data, and an input
//    bounded by the target's max_len cannot grow past the writer's size limit), but for a
//    string that is not UTF-8, which only the .ort reader lets through: Unsupported;
//  - the written bytes import again, and that import written again gives the same bytes
//    (writing is idempotent: every field the writer writes survived the trip);
//  - the .ort writer refuses only as Unsupported (what the format cannot hold), and what
//    it writes our reader imports.
// On the inputs fuzz_share.hpp picks (a fixed share, by a hash of the bytes), also:
//  - the dump of the re-import equals the original's (for a .ort input, the original's with
//    its graphs named and its nodes ordered as the writer does: docs/write.md, "From a .ort"),
//    and writing the same model twice gives the same bytes;
//  - the .ort is the same on one and two threads, and its import written as .ort and read
//    again dumps the same (its normalizations are done once, docs/ort.md; the bytes may
//    differ, as the objects are made in another order);
//  - the writers to files give the bytes the writers to memory gave, on two threads, from the
//    model imported from a mapped copy of the input (in the target's run folder,
//    fuzz_run_dir.hpp): the .onnx stream, the inline .ort written around its tensors
//    (write/ort/fill.cpp); and that model dumps the same after they dropped its pages.
// A refusal of the first import gets fuzz_check.hpp's check_error, as in fuzz_model, and ends the input;
// a writer's refusal (.onnx: a string not UTF-8; .ort: what the format cannot hold) its check_text.
#include "fuzz_common.hpp"
#include "fuzz_run_dir.hpp"
#include "fuzz_share.hpp"

#include <onnximport/write.hpp>
#include <onnximport/write_ort.hpp>

#include <fstream>
#include <iterator>
#include <span>

namespace {
constexpr std::string_view name = "fuzz_roundtrip";

std::vector<uint8_t> read_file(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// A .ort beyond ONNX Runtime's default limits is refused: the read-back uses the reader's defaults.
onnximport::OrtWriteOptions within_onnxruntime_limits() {
    onnximport::OrtWriteOptions o;
    o.onnxruntime_limits = true;
    return o;
}

/// `onnx` and `ort` (empty: refused) are what the writers to memory gave for the input's model.
void file_round_trip(std::span<const uint8_t> input, const std::vector<uint8_t>& onnx,
                     const std::vector<uint8_t>& ort) {
    using namespace onnximport;
    using namespace gauntlet_fuzz;
    const std::filesystem::path& dir = run_dir("fuzz-roundtrip");
    std::ofstream(dir / "in", std::ios::binary | std::ios::trunc)
        .write(reinterpret_cast<const char*>(input.data()), static_cast<std::streamsize>(input.size()));
    ImportOptions mapped = with_two_threads();
    mapped.load_mode = LoadMode::Map;
    try {
        const Model m = import_file(dir / "in", mapped);
        const std::string before = dump_of(m);
        WriteOptions onnx_options;
        onnx_options.threads = 2;
        write_onnx_file(m, dir / "w.onnx", onnx_options);
        GAUNTLET_CHECK(read_file(dir / "w.onnx") == onnx, "write_onnx to a file and write_onnx_bytes differ");
        if (!ort.empty()) {
            OrtWriteOptions ort_options = within_onnxruntime_limits();
            ort_options.threads = 2;
            write_ort_file(m, dir / "w.ort", ort_options);
            GAUNTLET_CHECK(read_file(dir / "w.ort") == ort, "write_ort_file and write_ort_bytes differ");
        }
        GAUNTLET_CHECK(dump_of(m) == before, "the mapped model dumps otherwise after the writers dropped its pages");
    } catch (const ImportError& e) {
        fuzz_fail("importing or writing the mapped copy of an accepted input was refused", describe(e));
    }
}

/// The .ort written, or nothing when the writer refused (as Unsupported); `expensive`: the
/// checks of the share as well.
std::vector<uint8_t> ort_round_trip(const onnximport::Model& original, bool expensive) {
    using namespace onnximport;
    using namespace gauntlet_fuzz;
    std::vector<uint8_t> ort;
    try {
        ort = write_ort_bytes(original, within_onnxruntime_limits());
    } catch (const ImportError& e) {
        if (e.kind() != ErrorKind::Unsupported)
            fuzz_fail("the .ort writer refused other than as Unsupported", describe(e));
        check_text(e);
        return {};
    }
    try {
        Model back = import_bytes(std::span<const uint8_t>(ort), name);
        if (!expensive) return ort;
        OrtWriteOptions two = within_onnxruntime_limits();
        two.threads = 2;
        GAUNTLET_CHECK(write_ort_bytes(original, two) == ort, "the .ort written on one and on two threads differ");
        const std::vector<uint8_t> again = write_ort_bytes(back, within_onnxruntime_limits());
        GAUNTLET_CHECK(dump_of(import_bytes(std::span<const uint8_t>(again), name)) == dump_of(back),
                       "the .ort's import written as .ort and read again dumps otherwise");
    } catch (const ImportError& e) {
        fuzz_fail("the reader refused the .ort the writer wrote", describe(e));
    }
    return ort;
}
/// What the .onnx writer makes of a graph read from a .ort (docs/write.md, "From a .ort"): named
/// when it has no name, its nodes in resolved order (their file index their place in it).
void as_written_from_ort(onnximport::Graph& g, std::string_view name_if_none) {
    if (g.name.empty()) g.name = name_if_none;
    uint32_t place = 0;
    for (onnximport::Node& n : g.nodes) {
        n.file_index = place++;
        for (onnximport::Attribute& a : n.attributes) {
            onnximport::AttributeFields* f = onnximport::detail::ModelAccess::fields(a);
            if (!f) continue;
            if (f->g) as_written_from_ort(*f->g, a.name);
            for (onnximport::Graph& sub : f->graphs) as_written_from_ort(sub, a.name);
        }
    }
}

/// The dump the re-import of the written .onnx must have: the original's, or for a .ort input
/// that of a second import of it, changed as the writer changes it.
std::string expected_dump(std::span<const uint8_t> input, const onnximport::Model& original) {
    using onnximport::detail::ModelAccess;
    if (!ModelAccess::storage_of(original)->from_ort) return gauntlet_fuzz::dump_of(original);
    onnximport::Model m = onnximport::import_bytes(input, name);
    if (onnximport::Graph* g = ModelAccess::graph(ModelAccess::proto(m))) as_written_from_ort(*g, "main_graph");
    return gauntlet_fuzz::dump_of(m);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace onnximport;
    using namespace gauntlet_fuzz;
    const std::span<const uint8_t> input(data, size);
    std::optional<Model> original;
    try {
        original.emplace(import_bytes(input, name));
    } catch (const ImportError& e) {
        check_error(e, name, size);
        return 0;
    }
    std::vector<uint8_t> written;
    try {
        written = write_onnx_bytes(*original);
    } catch (const ImportError& e) {
        if (e.kind() != ErrorKind::Unsupported || e.message().find("not valid UTF-8") == std::string::npos)
            fuzz_fail("the writer refused a model the reader accepted", describe(e));
        check_text(e);
        return 0;
    }
    const bool expensive = gets_expensive_checks(input);
    if (expensive) GAUNTLET_CHECK(write_onnx_bytes(*original) == written, "writing the same model twice differs");
    try {
        Model again = import_bytes(std::span<const uint8_t>(written), name);
        GAUNTLET_CHECK(write_onnx_bytes(again) == written, "writing the re-import gives other bytes");
        if (expensive)
            GAUNTLET_CHECK(dump_of(again) == expected_dump(input, *original),
                           "the re-import's dump differs from the original's");
    } catch (const ImportError& e) {
        fuzz_fail("the reader refused what the writer wrote", describe(e));
    }
    const std::vector<uint8_t> ort = ort_round_trip(*original, expensive);
    if (expensive) file_round_trip(input, written, ort);
    return 0;
}
