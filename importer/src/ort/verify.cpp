// Verification of the whole .ort buffer before any field is read (ONNX Runtime does the
// same): FlatBuffers' generated Verifier with the limits of ImportOptions, whose defaults
// are ONNX Runtime's (depth 64, 1,000,000 tables, alignment checked, size < 2^31 - 1).
#include "ort/context.hpp"
#include "ort/reader.hpp"

namespace onnximport::detail {

void verify_ort(const OrtContext& c, const ImportOptions& o) {
    const uint64_t size = c.storage.input.size();
    // The Verifier asserts a size below FLATBUFFERS_MAX_BUFFER_SIZE (2^31 - 1): refused first.
    if (size >= FLATBUFFERS_MAX_BUFFER_SIZE)
        c.fail(ErrorKind::Unsupported, c.base, "a .ort buffer must be smaller than 2^31 - 1 bytes (32-bit offsets)");
    flatbuffers::Verifier::Options limits;
    limits.max_depth = o.ort_max_depth;
    limits.max_tables = o.ort_max_tables;
    limits.check_alignment = o.ort_check_alignment;
    flatbuffers::Verifier verifier(c.base, static_cast<size_t>(size), limits);
    if (!fb::VerifyInferenceSessionBuffer(verifier))
        c.fail(ErrorKind::Malformed, c.base,
               "the buffer does not verify as an InferenceSession of the .ort schema (offsets, bounds, alignment, "
               "depth <= " + std::to_string(o.ort_max_depth) + ", tables <= " + std::to_string(o.ort_max_tables) + ")");
}

}  // namespace onnximport::detail
