// The root (docs/ort.md, "Writing"): InferenceSession with the lowest ort_version that holds
// the model (5, or 6 with float8 types), the Model table and the kernel type-string resolver
// of every operator written (put_resolver.cpp). The whole model is lowered first (lower.hpp:
// what is written, and the refusal of what cannot be), then its plan serialized.
#include "core/text.hpp"
#include "format/ort_companion.hpp"
#include "write/ort/assembly.hpp"
#include "write/ort/lower.hpp"
#include "write/ort/put_resolver.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace onnximport::detail {

namespace {

flatbuffers::Offset<flatbuffers::String> string_or_null(OrtAssembly& a, std::string_view s) {
    return s.empty() ? flatbuffers::Offset<flatbuffers::String>() : a.fbb.CreateString(s.data(), s.size());
}

auto put_opsets(OrtAssembly& a, const ModelProto& m) {
    std::vector<flatbuffers::Offset<fb::OperatorSetId>> items;
    for (const OperatorSetId& o : m.opset_import) {
        const std::string_view d = o.domain == "ai.onnx" ? std::string_view() : o.domain;
        const auto domain = a.fbb.CreateString(d.data(), d.size());
        items.push_back(fb::CreateOperatorSetId(a.fbb, domain, o.version));
    }
    return a.fbb.CreateVector(items);
}

auto put_entry(OrtAssembly& a, std::string_view k, std::string_view v) {
    const auto key = a.fbb.CreateString(k.data(), k.size());
    const auto value = a.fbb.CreateString(v.data(), v.size());
    return fb::CreateStringStringEntry(a.fbb, key, value);
}

/// The model's entries, and the companion's name under its key once a tensor is there
/// (rule O7); an entry of the model's under that key would name another file.
auto put_metadata(OrtAssembly& a, const ModelProto& m) {
    std::vector<flatbuffers::Offset<fb::StringStringEntry>> items;
    for (size_t i = 0; i < m.metadata_props.size(); ++i) {
        const StringStringEntry& e = m.metadata_props[i];
        if (e.key == ort_companion_key) {
            PathScope at(a.refusal.path, "metadata_props", i);
            a.unsupported("the key " + quoted(ort_companion_key, '\'') + " is the writer's, naming its companion file",
                          "key");
        }
        items.push_back(put_entry(a, e.key, e.value));
    }
    if (!a.external_blobs.empty()) items.push_back(put_entry(a, ort_companion_key, a.companion));
    return a.fbb.CreateVector(items);
}

}  // namespace

void put_session(OrtAssembly& a, const ModelProto& m) {
    const OrtPlan plan = lower_model(m, a.refusal, a.options.untyped);
    a.plan = &plan;
    flatbuffers::Offset<fb::Graph> graph;
    {
        PathScope at(a.refusal.path, "graph");
        graph = put_graph(a, *m.graph());
    }
    a.plan = nullptr;
    const auto opsets = put_opsets(a, m);
    const auto metadata = put_metadata(a, m);
    const auto producer = a.fbb.CreateString(m.producer_name.data(), m.producer_name.size());
    const auto producer_version = a.fbb.CreateString(m.producer_version.data(), m.producer_version.size());
    const auto domain = a.fbb.CreateString(m.domain.data(), m.domain.size());
    const auto doc = string_or_null(a, m.doc_string);
    const auto graph_doc = string_or_null(a, m.graph()->doc_string);
    fb::ModelBuilder b(a.fbb);
    b.add_ir_version(m.ir_version);
    b.add_opset_import(opsets);
    b.add_producer_name(producer);
    b.add_producer_version(producer_version);
    b.add_domain(domain);
    b.add_model_version(m.model_version);
    if (!doc.IsNull()) b.add_doc_string(doc);
    b.add_graph(graph);
    if (!graph_doc.IsNull()) b.add_graph_doc_string(graph_doc);
    b.add_metadata_props(metadata);
    const auto model = b.Finish();
    const auto resolver = put_resolver(a.fbb, plan.operators);  // InferenceSession field 3
    const auto version = a.fbb.CreateString(written_ort_version(a.uses_float8));
    fb::InferenceSessionBuilder s(a.fbb);
    s.add_ort_version(version);
    s.add_model(model);
    s.add_kernel_type_str_resolver(resolver);
    const auto root = s.Finish();
    a.check_room(16);
    a.fbb.Finish(root, fb::InferenceSessionIdentifier());
}

}  // namespace onnximport::detail
