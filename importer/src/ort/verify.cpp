// The opt-in check of ImportOptions::onnxruntime_limits (rule O2): would ONNX Runtime's
// loader take this buffer? It verifies with FlatBuffers' generated Verifier and its own
// limits (depth 64, 1,000,000 tables counted per reference), which this reader does not
// apply by default: its walk is bounded by max_nesting and by the buffer's size.
#include "ort/reader.hpp"
#include "ort/schema.hpp"

namespace onnximport::detail {

bool onnxruntime_verifier_accepts(const ModelInput& input, const ImportOptions& o) {
    if (input.size() >= FLATBUFFERS_MAX_BUFFER_SIZE) return false;  // the Verifier asserts it
    flatbuffers::Verifier::Options limits;
    limits.max_depth = o.ort_max_depth;
    limits.max_tables = o.ort_max_tables;
    limits.check_alignment = o.ort_check_alignment;
    flatbuffers::Verifier verifier(input.data(), static_cast<size_t>(input.size()), limits);
    return fb::VerifyInferenceSessionBuffer(verifier);
}

}  // namespace onnximport::detail
