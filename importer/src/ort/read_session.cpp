// The root of a .ort buffer: InferenceSession (ort_version, model, the kernel type-string
// resolver) and Model (ir_version, opsets, producer, metadata, graph). Model checks as for
// .onnx (spec section 2).
#include "core/text.hpp"
#include "external/location.hpp"
#include "format/ort_companion.hpp"
#include "ort/context.hpp"
#include "ort/reader.hpp"

namespace onnximport::detail {

namespace {

using IS = fb::InferenceSession;
using M = fb::Model;

/// ort_version must be a plain decimal (digits only, no sign, space or leading zero):
/// stricter than ONNX Runtime's std::stoi, which reads "6abc" as 6 (rule O5).
void check_version(OrtContext& c, const FbTable& session) {
    bool present = false;
    const std::string_view v = c.fb.string(session, IS::VT_ORT_VERSION, "ort_version", &present);
    if (!present) c.invalid(session, "ort_version is missing", "ort_version");
    const uint8_t* at = address_of(v.data()) - 4;  // the string, from its length
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

void read_opsets(OrtContext& c, const FbTable& fm, ModelProto& m) {
    const FbVector v = c.fb.vector(fm, M::VT_OPSET_IMPORT, 4, "opset_import");
    ListAccess::reserve(c.arena, m.opset_import, v.count);
    for (uint32_t i = 0; i < v.count; ++i) {
        const FbTable o = c.fb.table_at(v, i, "opset_import");
        PathScope at(c.path, "opset_import", i);
        Nested nested(c, o);
        using O = fb::OperatorSetId;
        const std::string_view domain = c.fb.string(o, O::VT_DOMAIN, "domain");
        const auto version = c.fb.scalar<int64_t>(o, O::VT_VERSION, 0, "version");
        ListAccess::push_back(c.arena, m.opset_import, OperatorSetId{domain, version});
    }
}

/// The entry naming the companion file (rule O7): kept out of the Model's metadata, its
/// name checked as a location now (rule E2), so a bad name is refused where it is written.
void read_companion_name(OrtContext& c, const FbTable& e, std::string_view value, bool present) {
    using E = fb::StringStringEntry;
    if (!c.storage.ort_companion_named.empty())
        c.invalid(c.at(e, E::VT_KEY), "the companion file is named twice in metadata_props", "key");
    // The string, from its length; the entry's field when there is none.
    const uint8_t* at = present ? address_of(value.data()) - 4 : c.at(e, E::VT_VALUE);
    if (auto bad = check_location(value))
        c.fail(ErrorKind::ExternalData, at, "the companion file it names cannot be opened: " + *bad, "value");
    c.storage.ort_companion_named = value;
}

void read_metadata(OrtContext& c, const FbTable& fm, ModelProto& m) {
    const FbVector v = c.fb.vector(fm, M::VT_METADATA_PROPS, 4, "metadata_props");
    ListAccess::reserve(c.arena, m.metadata_props, v.count);
    for (uint32_t i = 0; i < v.count; ++i) {
        const FbTable e = c.fb.table_at(v, i, "metadata_props");
        PathScope at(c.path, "metadata_props", i);
        Nested nested(c, e);
        using E = fb::StringStringEntry;
        const std::string_view key = c.fb.string(e, E::VT_KEY, "key");
        bool present = false;
        const std::string_view value = c.fb.string(e, E::VT_VALUE, "value", &present);
        if (key == ort_companion_key)
            read_companion_name(c, e, value, present);
        else
            ListAccess::push_back(c.arena, m.metadata_props, StringStringEntry{key, value});
    }
}

void read_model(OrtContext& c, const FbTable& fm, ModelProto& m) {
    PathScope at(c.path, "model");
    Nested nested(c, fm);
    m.has_ir_version = true;  // a scalar of a table reads as its default when absent
    m.ir_version = c.fb.scalar<int64_t>(fm, M::VT_IR_VERSION, 0, "ir_version");
    if (m.ir_version < 3)
        c.invalid(c.at(fm, M::VT_IR_VERSION),
                  "ir_version " + std::to_string(m.ir_version) + " is below 3, the oldest version read", "ir_version");
    read_opsets(c, fm, m);
    m.producer_name = c.fb.string(fm, M::VT_PRODUCER_NAME, "producer_name");
    m.producer_version = c.fb.string(fm, M::VT_PRODUCER_VERSION, "producer_version");
    m.domain = c.fb.string(fm, M::VT_DOMAIN, "domain");
    m.model_version = c.fb.scalar<int64_t>(fm, M::VT_MODEL_VERSION, 0, "model_version");
    m.doc_string = c.fb.string(fm, M::VT_DOC_STRING, "doc_string");
    read_metadata(c, fm, m);
    const std::string_view graph_doc = c.fb.string(fm, M::VT_GRAPH_DOC_STRING, "graph_doc_string");
    const FbTable fg = c.fb.table(fm, M::VT_GRAPH, "graph");
    if (!fg) c.invalid(fm, "the model has no graph", "graph");
    Graph* g = c.arena.make<Graph>();
    g->doc_string = graph_doc;
    PathScope at_graph(c.path, "graph");
    read_ort_graph(c, fg, *g);
    ModelAccess::graph(m) = g;
}

}  // namespace

void read_ort_model(Storage& storage, const ImportOptions& options) {
    // Offsets are 32 bits: a buffer of 2^31 - 1 bytes or more cannot be addressed (rule O2).
    if (storage.input.size() >= 0x7FFFFFFFu)
        refuse(ErrorKind::Unsupported, storage.source_name, 0, "InferenceSession",
               "a .ort buffer must be smaller than 2^31 - 1 bytes (32-bit offsets)");
    storage.from_ort = true;
    OrtContext c(storage, options);
    const FbTable session = c.fb.root();
    Nested nested(c, session);
    check_version(c, session);
    const FbTable model = c.fb.table(session, IS::VT_MODEL, "model");
    if (!model) c.invalid(session, "the session has no model", "model");
    read_model(c, model, storage.proto);
    if (const FbTable resolver = c.fb.table(session, IS::VT_KERNEL_TYPE_STR_RESOLVER, "kernel_type_str_resolver")) {
        PathScope at(c.path, "kernel_type_str_resolver");
        check_ort_resolver(c, resolver);
    }
    if (options.onnxruntime_limits && !onnxruntime_verifier_accepts(storage.input, options))
        c.fail(ErrorKind::Unsupported, nullptr,
               "ONNX Runtime's loader would refuse this file: it nests tables deeper than " +
                   std::to_string(options.ort_max_depth) + " or holds more than " +
                   std::to_string(options.ort_max_tables) + " (its FlatBuffers Verifier's limits; rule O2)");
}

}  // namespace onnximport::detail
