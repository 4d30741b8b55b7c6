// The root of a .ort buffer: InferenceSession (ort_version, model) and Model (ir_version,
// opsets, producer, metadata, graph). Model checks as for .onnx (spec section 2).
#include "core/text.hpp"
#include "ort/context.hpp"
#include "ort/reader.hpp"

namespace onnximport::detail {

namespace {

using IS = fb::InferenceSession;

/// ort_version must be a plain decimal (digits only, no sign, space or leading zero):
/// stricter than ONNX Runtime's std::stoi, which reads "6abc" as 6.
void check_version(const OrtContext& c, const fb::InferenceSession* session) {
    const flatbuffers::String* s = session->ort_version();
    if (!s) c.invalid(session, "ort_version is missing", "ort_version");
    const std::string_view v = text_of(s);
    const uint8_t* at = address_of(s);
    bool plain = !v.empty() && v[0] != '0';
    for (char ch : v) plain = plain && ch >= '0' && ch <= '9';
    if (!plain) {
        if (v == "0") c.invalid(at, "ort_version 0 does not exist (the first is 1)", "ort_version");
        c.invalid(at, "ort_version " + quoted(v, '"') + " is not a plain decimal number", "ort_version");
    }
    const auto newer = [&] {
        c.fail(ErrorKind::Unsupported, at,
               "ort_version " + std::string(v) + " is newer than the newest read (" + std::to_string(max_ort_version) +
                   ")",
               "ort_version");
    };
    if (v.size() > 9) newer();  // a plain decimal, beyond any int
    if (std::stoi(std::string(v)) > max_ort_version) newer();  // at most 9 digits: no overflow
}

void read_opsets(OrtContext& c, const fb::Model* fm, ModelProto& m) {
    const auto* v = fm->opset_import();
    ListAccess::reserve(c.arena, m.opset_import, size_of(v));
    for (uint32_t i = 0; i < size_of(v); ++i) {
        const fb::OperatorSetId* o = element(c, v, i, "opset_import");
        ListAccess::push_back(c.arena, m.opset_import, OperatorSetId{text_of(o->domain()), o->version()});
    }
}

void read_metadata(OrtContext& c, const fb::Model* fm, ModelProto& m) {
    const auto* v = fm->metadata_props();
    ListAccess::reserve(c.arena, m.metadata_props, size_of(v));
    for (uint32_t i = 0; i < size_of(v); ++i) {
        const fb::StringStringEntry* e = element(c, v, i, "metadata_props");
        ListAccess::push_back(c.arena, m.metadata_props, StringStringEntry{text_of(e->key()), text_of(e->value())});
    }
}

void read_model(OrtContext& c, const fb::Model* fm, ModelProto& m) {
    PathScope at(c.path, "model");
    m.has_ir_version = true;  // a scalar of a table reads as its default when absent
    m.ir_version = fm->ir_version();
    if (m.ir_version < 3)
        c.invalid(field_at(fm, fb::Model::VT_IR_VERSION),
                  "ir_version " + std::to_string(m.ir_version) + " is below 3, the oldest version read", "ir_version");
    read_opsets(c, fm, m);
    m.producer_name = text_of(fm->producer_name());
    m.producer_version = text_of(fm->producer_version());
    m.domain = text_of(fm->domain());
    m.model_version = fm->model_version();
    m.doc_string = text_of(fm->doc_string());
    read_metadata(c, fm, m);
    const fb::Graph* fg = fm->graph();
    if (!fg) c.invalid(fm, "the model has no graph", "graph");
    Graph* g = c.arena.make<Graph>();
    g->doc_string = text_of(fm->graph_doc_string());
    PathScope at_graph(c.path, "graph");
    read_ort_graph(c, fg, *g);
    ModelAccess::graph(m) = g;
}

}  // namespace

void read_ort_model(Storage& storage, const ImportOptions& options) {
    OrtContext c(storage);
    verify_ort(c, options);
    const fb::InferenceSession* session = fb::GetInferenceSession(c.base);
    check_version(c, session);
    const fb::Model* model = session->model();
    if (!model) c.invalid(session, "the session has no model", "model");
    read_model(c, model, storage.proto);
}

}  // namespace onnximport::detail
