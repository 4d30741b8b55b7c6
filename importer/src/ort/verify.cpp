// Verification of the whole .ort buffer before any field is read (ONNX Runtime does the
// same), with the limits of ImportOptions, whose defaults are ONNX Runtime's (depth 64,
// 1,000,000 tables, alignment checked, size < 2^31 - 1). The generated Verify of each table
// does the work; only the path from the root to the main graph's initializers is spelled
// out here, in the generated order, so that those are verified one at a time with their
// pages dropped behind (PassedPages): a mapped import keeps no weight page resident.
// harness/tests/test_ort_verify.cpp and fuzz_ort hold it equal to the generated Verifier.
#include "io/passed_pages.hpp"
#include "ort/context.hpp"
#include "ort/reader.hpp"

namespace onnximport::detail {

namespace {

using flatbuffers::Verifier;
using flatbuffers::soffset_t;  // FLATBUFFERS_MIN_BUFFER_SIZE names them unqualified
using flatbuffers::uoffset_t;

/// The generated tables derive privately from flatbuffers::Table, whose checks these are.
const flatbuffers::Table* table_of(const void* generated) noexcept {
    return static_cast<const flatbuffers::Table*>(generated);  // the first byte of each
}

bool verify_initializers(Verifier& v, const flatbuffers::Vector<flatbuffers::Offset<fb::Tensor>>* tensors,
                         PassedPages& pages) {
    if (!v.VerifyVector(tensors)) return false;
    for (uint32_t i = 0; tensors && i < tensors->size(); ++i) {
        const fb::Tensor* t = tensors->Get(i);
        if (!t->Verify(v)) return false;
        const auto [lo, hi] = extent_of(t);
        pages.passed(lo, hi);
    }
    return true;
}

bool verify_graph(Verifier& v, const fb::Graph* g, PassedPages& pages) {
    using G = fb::Graph;
    const flatbuffers::Table* t = table_of(g);
    return t->VerifyTableStart(v) && t->VerifyOffset(v, G::VT_INITIALIZERS) &&
           verify_initializers(v, g->initializers(), pages) && t->VerifyOffset(v, G::VT_NODE_ARGS) &&
           v.VerifyVector(g->node_args()) && v.VerifyVectorOfTables(g->node_args()) &&
           t->VerifyOffset(v, G::VT_NODES) && v.VerifyVector(g->nodes()) && v.VerifyVectorOfTables(g->nodes()) &&
           t->VerifyField<uint32_t>(v, G::VT_MAX_NODE_INDEX, 4) && t->VerifyOffset(v, G::VT_NODE_EDGES) &&
           v.VerifyVector(g->node_edges()) && v.VerifyVectorOfTables(g->node_edges()) &&
           t->VerifyOffset(v, G::VT_INPUTS) && v.VerifyVector(g->inputs()) && v.VerifyVectorOfStrings(g->inputs()) &&
           t->VerifyOffset(v, G::VT_OUTPUTS) && v.VerifyVector(g->outputs()) &&
           v.VerifyVectorOfStrings(g->outputs()) && t->VerifyOffset(v, G::VT_SPARSE_INITIALIZERS) &&
           v.VerifyVector(g->sparse_initializers()) && v.VerifyVectorOfTables(g->sparse_initializers()) &&
           t->VerifyOffset(v, G::VT_RUNTIME_OPTIMIZATIONS) && v.VerifyTable(g->runtime_optimizations()) &&
           v.EndTable();
}

bool verify_model(Verifier& v, const fb::Model* m, PassedPages& pages) {
    using M = fb::Model;
    const flatbuffers::Table* t = table_of(m);
    return t->VerifyTableStart(v) && t->VerifyField<int64_t>(v, M::VT_IR_VERSION, 8) &&
           t->VerifyOffset(v, M::VT_OPSET_IMPORT) && v.VerifyVector(m->opset_import()) &&
           v.VerifyVectorOfTables(m->opset_import()) && t->VerifyOffset(v, M::VT_PRODUCER_NAME) &&
           v.VerifyString(m->producer_name()) && t->VerifyOffset(v, M::VT_PRODUCER_VERSION) &&
           v.VerifyString(m->producer_version()) && t->VerifyOffset(v, M::VT_DOMAIN) && v.VerifyString(m->domain()) &&
           t->VerifyField<int64_t>(v, M::VT_MODEL_VERSION, 8) && t->VerifyOffset(v, M::VT_DOC_STRING) &&
           v.VerifyString(m->doc_string()) && t->VerifyOffset(v, M::VT_GRAPH) &&
           (!m->graph() || verify_graph(v, m->graph(), pages)) && t->VerifyOffset(v, M::VT_GRAPH_DOC_STRING) &&
           v.VerifyString(m->graph_doc_string()) && t->VerifyOffset(v, M::VT_METADATA_PROPS) &&
           v.VerifyVector(m->metadata_props()) && v.VerifyVectorOfTables(m->metadata_props()) && v.EndTable();
}

bool verify_session(Verifier& v, const fb::InferenceSession* s, PassedPages& pages) {
    using S = fb::InferenceSession;
    const flatbuffers::Table* t = table_of(s);
    return t->VerifyTableStart(v) && t->VerifyOffset(v, S::VT_ORT_VERSION) && v.VerifyString(s->ort_version()) &&
           t->VerifyOffset(v, S::VT_MODEL) && (!s->model() || verify_model(v, s->model(), pages)) &&
           t->VerifyOffset(v, S::VT_KERNEL_TYPE_STR_RESOLVER) && v.VerifyTable(s->kernel_type_str_resolver()) &&
           v.EndTable();
}

/// As Verifier::VerifyBuffer<InferenceSession>("ORTM"), with verify_session for the root.
bool verify_buffer(Verifier& v, const uint8_t* base, size_t size, PassedPages& pages) {
    if (size < FLATBUFFERS_MIN_BUFFER_SIZE || size < 2 * sizeof(uoffset_t) ||
        !fb::InferenceSessionBufferHasIdentifier(base))
        return false;
    const uoffset_t root = v.VerifyOffset(0);
    return root != 0 && verify_session(v, reinterpret_cast<const fb::InferenceSession*>(base + root), pages);
}

flatbuffers::Verifier::Options limits_of(const ImportOptions& o) noexcept {
    flatbuffers::Verifier::Options limits;
    limits.max_depth = o.ort_max_depth;
    limits.max_tables = o.ort_max_tables;
    limits.check_alignment = o.ort_check_alignment;
    return limits;
}

}  // namespace

bool ort_buffer_verifies(const ModelInput& input, const ImportOptions& o) {
    flatbuffers::Verifier verifier(input.data(), static_cast<size_t>(input.size()), limits_of(o));
    PassedPages pages(input);
    return verify_buffer(verifier, input.data(), static_cast<size_t>(input.size()), pages);
}

void verify_ort(const OrtContext& c, const ImportOptions& o) {
    const uint64_t size = c.storage.input.size();
    // The Verifier asserts a size below FLATBUFFERS_MAX_BUFFER_SIZE (2^31 - 1): refused first.
    if (size >= FLATBUFFERS_MAX_BUFFER_SIZE)
        c.fail(ErrorKind::Unsupported, c.base, "a .ort buffer must be smaller than 2^31 - 1 bytes (32-bit offsets)");
    if (!ort_buffer_verifies(c.storage.input, o))
        c.fail(ErrorKind::Malformed, c.base,
               "the buffer does not verify as an InferenceSession of the .ort schema (offsets, bounds, alignment, "
               "depth <= " + std::to_string(o.ort_max_depth) + ", tables <= " + std::to_string(o.ort_max_tables) + ")");
}

}  // namespace onnximport::detail
