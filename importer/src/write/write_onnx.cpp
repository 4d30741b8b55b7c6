// The `.onnx` writer: the size pass plans every length and external offset,
// the emit pass streams the model file, then the external blobs are written (on
// options.threads threads, in byte shares) and both files are renamed into place, the
// external one under a name no file holds and the model last (write/generations.hpp).
#include "write/write_onnx.hpp"

#include "io/input.hpp"
#include "write/aligned_sink.hpp"
#include "write/blob_writer.hpp"
#include "write/atomic_file.hpp"
#include "write/onnx_encoder.hpp"
#include "write/files_read.hpp"
#include "write/generations.hpp"
#include "write/output_dir.hpp"
#include "write/progress.hpp"
#include "write/source_pages.hpp"
#include "write/write_error.hpp"

#include <optional>
#include <string>
#include <vector>

namespace onnximport::detail {

namespace {

/// Tensor bytes come straight from the model (ProtoEncoder writes large ones directly).
class FileOut final : public ByteOut {
public:
    FileOut(AtomicFile& file, Progress& progress, SourcePages& source)
        : file_(file), progress_(progress), source_(source) {}
    void write(std::span<const std::byte> bytes) override {
        source_.copy(0, bytes, [&](uint64_t, std::span<const std::byte> part) { file_.write(part); });
        progress_.advance(bytes.size());
    }

private:
    AtomicFile& file_;
    Progress& progress_;
    SourcePages& source_;
};

/// The same into memory (write_onnx_bytes).
class MemoryOut final : public ByteOut {
public:
    MemoryOut(std::vector<uint8_t>& out, SourcePages& source) : out_(out), source_(source) {}
    void write(std::span<const std::byte> bytes) override {
        source_.copy(0, bytes, [&](uint64_t, std::span<const std::byte> part) {
            const auto* p = reinterpret_cast<const uint8_t*>(part.data());
            out_.insert(out_.end(), p, p + part.size());
        });
    }

private:
    std::vector<uint8_t>& out_;
    SourcePages& source_;
};

/// The size pass: every length and every external offset, nothing written.
uint64_t plan(const Model& model, ProtoEncoder& e, TensorRouter& router, const std::string& shown) {
    router.start_pass(false);
    OnnxEncoder(e, router).model(model);
    if (e.position() > max_model_bytes)  // the importer's limit on a model file (rule W19)
        fail_request(shown, "the model would take " + std::to_string(e.position()) +
                                " bytes, more than protobuf's 2^31 - 1: write its tensors as external data");
    return e.position();
}

void emit(const Model& model, ProtoEncoder& e, TensorRouter& router, ByteOut& out) {
    router.start_pass(true);
    e.start_emitting(out);
    OnnxEncoder(e, router).model(model);
    e.finish();
}

void check_names(const std::filesystem::path& path, const WriteOptions& options) {
    const std::string shown = path.string();
    if (!path.has_filename() || path.filename() == "." || path.filename() == "..")
        fail_request(shown, "the output path names a folder, not a file");
    const std::filesystem::path& external = options.external_data.file;
    if (!external.empty() && external.lexically_normal() == path.filename())
        fail_request(shown, "the external-data file cannot be the model file itself");
}

}  // namespace

void write_onnx(const Model& model, const std::filesystem::path& path, const WriteOptions& options,
                WriteFaults* faults) {
    check_names(path, options);
    const std::string shown = path.string();
    check_threads(shown, options.threads);
    OutputDir dir(path.parent_path(), files_read(model));
    std::optional<Generations> generations;
    if (!options.external_data.file.empty())
        generations.emplace(dir, options.external_data.file.string(), faults);
    TensorRouter router(options.external_data, generations ? generations->location() : std::string(), shown);
    ProtoEncoder e;
    const uint64_t model_size = plan(model, e, router, shown);
    Progress progress(options.progress, model_size + router.external_size());
    std::optional<AtomicFile> data;
    if (router.external_size() > 0) data.emplace(dir, router.location(), faults, "WriteOptions.external_data");
    AtomicFile file(dir, path.filename().string(), faults);
    SourcePages source(model, options.threads);
    FileOut out(file, progress, source);
    emit(model, e, router, out);
    if (data) write_blobs(*data, router.alignment(), router.blobs(), options.threads, progress, source);
    commit_generation(file, data ? &*data : nullptr, generations ? &*generations : nullptr, options.generation);
}

}  // namespace onnximport::detail

namespace onnximport {

void write_onnx_file(const Model& model, const std::filesystem::path& path, const WriteOptions& options) {
    detail::write_onnx(model, path, options, nullptr);
}

std::vector<uint8_t> write_onnx_bytes(const Model& model, const WriteOptions& options) {
    const std::string shown = std::string(model.source_name()) + " (written to memory)";
    if (!options.external_data.file.empty())
        detail::fail_request(shown, "bytes in memory cannot have an external-data file");
    detail::check_threads(shown, options.threads);
    detail::TensorRouter router(options.external_data, std::string(), shown);
    detail::ProtoEncoder e;
    std::vector<uint8_t> bytes;
    bytes.reserve(detail::plan(model, e, router, shown));
    detail::SourcePages source(model, 1);
    detail::MemoryOut out(bytes, source);
    detail::emit(model, e, router, out);
    return bytes;
}

}  // namespace onnximport
