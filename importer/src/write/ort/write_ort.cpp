// The .ort writer's entry points (onnximport/write_ort.hpp): assemble the buffer on one
// thread; in memory, fill the inline tensors into it; for a file, write it with the inline
// tensors taken from the model, then the companion file's blobs at their aligned offsets
// under a name no file holds (write/generations.hpp), which the model names, and rename
// both into place, the model last: its rename alone switches from the old pair to the new.
#include "write/ort/write_ort.hpp"

#include "model/access.hpp"
#include "write/atomic_file.hpp"
#include "write/blob_writer.hpp"
#include "write/ort/assembly.hpp"
#include "write/files_read.hpp"
#include "write/generations.hpp"
#include "write/output_dir.hpp"
#include "write/progress.hpp"
#include "write/write_error.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <stdexcept>

namespace onnximport::detail {

namespace {

void check_model(const Model& model) {
    if (!model.graph()) throw std::invalid_argument("write_ort: the model is empty");
    if (!model.graph()->resolved) throw std::invalid_argument("write_ort: the model was imported without resolution");
}

/// Half again the input and its external files, as tables may outgrow their protobuf: a
/// reserved page costs nothing until written, while a regrowth copies the whole buffer.
size_t first_reservation(const Model& model) {
    uint64_t held = 0;
    if (const Storage* s = ModelAccess::storage_of(model)) {
        held = s->input.size();
        for (const auto& [id, file] : s->external_files) held += file->size();
    }
    return static_cast<size_t>(std::min<uint64_t>(held + held / 2 + (1 << 16), max_ort_buffer + 1));
}

/// What ONNX Runtime's loader verifies by default (FlatBuffers' Verifier defaults, which it
/// uses): beyond them our writer still writes (nothing of ours needs the cap), and says so.
constexpr uint32_t onnxruntime_max_depth = 64;
constexpr uint32_t onnxruntime_max_tables = 1'000'000;

bool verifies(const OrtAssembly& a, uint32_t max_depth, uint32_t max_tables) {
    flatbuffers::Verifier verifier(a.fbb.GetBufferPointer(), a.fbb.GetSize(), max_depth, max_tables);
    return fb::VerifyInferenceSessionBuffer(verifier);
}

/// Reports (or, with options.onnxruntime_limits, refuses) a buffer beyond ONNX Runtime's
/// default limits. A .onnx may nest subgraphs (max_nesting 128) or hold tables beyond them.
void check_onnxruntime_limits(const OrtAssembly& a) {
    if (verifies(a, onnxruntime_max_depth, onnxruntime_max_tables)) return;
    const bool too_deep = !verifies(a, onnxruntime_max_depth, std::numeric_limits<uint32_t>::max());
    const std::string why = too_deep ? "it nests tables more than 64 deep" : "it holds more than 1,000,000 tables";
    if (a.options.onnxruntime_limits)
        a.unsupported("the .ort would be beyond what ONNX Runtime's loader verifies by default: " + why);
    if (a.options.beyond_onnxruntime_limits) a.options.beyond_onnxruntime_limits(why);
}

/// The buffer finished and verified, the inline tensors' places reserved and not yet filled.
void assemble(OrtAssembly& a, const Model& model) {
    put_session(a, model.proto());
    check_onnxruntime_limits(a);
}

/// The companion file's name, empty for none; any other external file is refused.
std::string companion_of(const std::filesystem::path& path, const OrtWriteOptions& options) {
    const std::filesystem::path& file = options.external_data.file;
    const std::string companion = path.filename().string() + ".data";
    if (!file.empty() && file.lexically_normal() != companion)
        fail_request(path.string(), "the external data of a .ort is always its companion file '" + companion +
                                        "' (the one file the .ort reader looks for), not '" + file.string() + "'");
    return file.empty() ? std::string() : companion;
}

uint64_t external_bytes(const OrtAssembly& a) noexcept {
    return a.external_blobs.empty() ? 0 : a.external_blobs.back().offset + a.external_blobs.back().bytes.size();
}

}  // namespace

void write_ort(const Model& model, const std::filesystem::path& path, const OrtWriteOptions& options,
               WriteFaults* faults) {
    const std::string shown = path.string();
    if (!path.has_filename() || path.filename() == "." || path.filename() == "..")
        fail_request(shown, "the output path names a folder, not a file");
    check_threads(shown, options.threads);
    check_model(model);
    const std::string companion = companion_of(path, options);
    OutputDir dir(path.parent_path(), files_read(model));
    std::optional<Generations> generations;
    if (!companion.empty()) generations.emplace(dir, companion, faults);
    OrtAssembly a(options, shown, first_reservation(model));
    if (generations) a.companion = generations->location();
    SourcePages source(model, options.threads);
    assemble(a, model);
    Progress progress(options.progress, a.fbb.GetSize() + external_bytes(a));
    std::optional<AtomicFile> data;
    if (!a.external_blobs.empty()) data.emplace(dir, a.companion, faults, "OrtWriteOptions.external_data");
    AtomicFile file(dir, path.filename().string(), faults);
    write_inline(file, a.inline_fills, a.fbb.GetBufferPointer(), a.fbb.GetSize(), options.threads, progress, source);
    if (data) write_blobs(*data, options.external_data.alignment, a.external_blobs, options.threads, progress, source);
    commit_generation(file, data ? &*data : nullptr, generations ? &*generations : nullptr, options.generation);
}

}  // namespace onnximport::detail

namespace onnximport {

std::vector<uint8_t> write_ort_bytes(const Model& model, const OrtWriteOptions& options) {
    if (!options.external_data.file.empty())
        detail::fail_request(std::string(model.source_name()) + " (written to memory)",
                             "bytes in memory cannot have an external-data file (write_ort_file writes one)");
    detail::check_threads(std::string(model.source_name()) + " (written to memory)", options.threads);
    detail::check_model(model);
    detail::OrtAssembly a(options, std::string(model.source_name()) + " (written to memory)",
                          detail::first_reservation(model));
    detail::assemble(a, model);
    detail::SourcePages source(model, options.threads);
    detail::fill_inline(a.inline_fills, a.fbb.GetBufferPointer(), a.fbb.GetSize(), options.threads, source);
    return std::vector<uint8_t>(a.fbb.GetBufferPointer(), a.fbb.GetBufferPointer() + a.fbb.GetSize());
}

void write_ort_file(const Model& model, const std::filesystem::path& path, const OrtWriteOptions& options) {
    detail::write_ort(model, path, options, nullptr);
}

}  // namespace onnximport
