// ModelProto, GraphProto, NodeProto, FunctionProto, TrainingInfoProto, ValueInfoProto.
#include "write/onnx_encoder.hpp"

#include "external/location.hpp"
#include "core/utf8.hpp"
#include "model/access.hpp"

#include <onnx_fields.hpp>

#include <algorithm>
#include <numeric>
#include <vector>

namespace onnximport::detail {

void OnnxEncoder::entries(uint32_t field, const List<StringStringEntry>& list) {
    using F = proto::StringStringEntry;
    for (const auto& entry : list)
        e_.message(field, [&] {
            text(+F::key, entry.key);
            text(+F::value, entry.value);
        });
}

void OnnxEncoder::opsets(uint32_t field, const List<OperatorSetId>& list) {
    using F = proto::OperatorSetId;
    for (const auto& o : list)
        e_.message(field, [&] {
            if (!o.domain.empty()) text(+F::domain, o.domain);
            e_.int_field(+F::version, o.version);
        });
}

void OnnxEncoder::strings(uint32_t field, const List<std::string_view>& list, bool is_text) {
    for (std::string_view s : list) is_text ? text(field, s) : e_.string_field(field, s);
}

void OnnxEncoder::text(uint32_t field, std::string_view s) {
    const auto* p = reinterpret_cast<const uint8_t*>(s.data());
    if (e_.sizing() && find_invalid_utf8(p, p + s.size()))
        router_.refuse("the string " + quoted_text(s) + " is not valid UTF-8, as an .onnx string field must be");
    e_.string_field(field, s);
}

/// Nodes in file order (resolution keeps them in resolved order and remembers each one's
/// place in Node::file_index), so a re-import orders them as the original did. A .ort's order
/// is ONNX Runtime's, which need not be topological as a .onnx's must: resolved order there.
void OnnxEncoder::nodes(uint32_t field, const List<Node>& list) {
    if (from_ort_) {
        for (const auto& n : list) e_.message(field, [&] { node(n); });
        return;
    }
    std::vector<size_t> order(list.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return list[a].file_index < list[b].file_index; });
    for (size_t i : order) e_.message(field, [&] { node(list[i]); });
}

void OnnxEncoder::model(const Model& m) {
    const Storage* storage = ModelAccess::storage_of(m);
    from_ort_ = storage && storage->from_ort;
    model(m.proto());
}

void OnnxEncoder::model(const ModelProto& m) {
    using F = proto::Model;
    if (m.has_ir_version) e_.int_field(+F::ir_version, m.ir_version);
    if (!m.producer_name.empty()) text(+F::producer_name, m.producer_name);
    if (!m.producer_version.empty()) text(+F::producer_version, m.producer_version);
    if (!m.domain.empty()) text(+F::domain, m.domain);
    if (m.model_version != 0) e_.int_field(+F::model_version, m.model_version);
    if (!m.doc_string.empty()) text(+F::doc_string, m.doc_string);
    if (m.graph()) {
        external_allowed_ = true;
        e_.message(+F::graph, [&] { graph(*m.graph(), "main_graph"); });
        external_allowed_ = false;
    }
    opsets(+F::opset_import, m.opset_import);
    entries(+F::metadata_props, m.metadata_props);
    for (const auto& t : m.training_info) e_.message(+F::training_info, [&] { training_info(t); });
    for (const auto& f : m.functions) e_.message(+F::functions, [&] { function(f); });
}

void OnnxEncoder::graph(const Graph& g, std::string_view name_if_none) {
    using F = proto::Graph;
    nodes(+F::node, g.nodes);
    const std::string_view name = g.name.empty() && from_ort_ ? name_if_none : g.name;
    if (!name.empty()) text(+F::name, name);
    for (const auto& t : g.initializers) e_.message(+F::initializer, [&] { tensor(t); });
    if (!g.doc_string.empty()) text(+F::doc_string, g.doc_string);
    for (const auto& v : g.inputs) e_.message(+F::input, [&] { value_info(v); });
    for (const auto& v : g.outputs) e_.message(+F::output, [&] { value_info(v); });
    for (const auto& v : g.value_info) e_.message(+F::value_info, [&] { value_info(v); });
    for (const auto& s : g.sparse_initializers) e_.message(+F::sparse_initializer, [&] { sparse_tensor(s); });
    entries(+F::metadata_props, g.metadata_props);
}

void OnnxEncoder::node(const Node& n) {
    using F = proto::Node;
    strings(+F::input, n.inputs);
    strings(+F::output, n.outputs);
    if (!n.name.empty()) text(+F::name, n.name);
    if (!n.op_type.empty()) text(+F::op_type, n.op_type);
    for (const auto& a : n.attributes) e_.message(+F::attribute, [&] { attribute(a); });
    if (!n.doc_string().empty()) text(+F::doc_string, n.doc_string());
    if (!n.domain.empty()) text(+F::domain, n.domain);
    if (!n.overload().empty()) text(+F::overload, n.overload());
    entries(+F::metadata_props, n.metadata_props());
}

void OnnxEncoder::function(const Function& f) {
    using F = proto::Function;
    if (!f.name.empty()) text(+F::name, f.name);
    strings(+F::input, f.inputs);
    strings(+F::output, f.outputs);
    strings(+F::attribute, f.attributes);
    nodes(+F::node, f.nodes);
    if (!f.doc_string.empty()) text(+F::doc_string, f.doc_string);
    opsets(+F::opset_import, f.opset_import);
    if (!f.domain.empty()) text(+F::domain, f.domain);
    for (const auto& a : f.attribute_protos) e_.message(+F::attribute_proto, [&] { attribute(a); });
    for (const auto& v : f.value_info) e_.message(+F::value_info, [&] { value_info(v); });
    if (!f.overload.empty()) text(+F::overload, f.overload);
    entries(+F::metadata_props, f.metadata_props);
}

void OnnxEncoder::training_info(const TrainingInfo& t) {
    using F = proto::TrainingInfo;
    if (t.initialization()) e_.message(+F::initialization, [&] { graph(*t.initialization()); });
    if (t.algorithm()) e_.message(+F::algorithm, [&] { graph(*t.algorithm()); });
    entries(+F::initialization_binding, t.initialization_binding);
    entries(+F::update_binding, t.update_binding);
}

void OnnxEncoder::value_info(const ValueInfo& v) {
    using F = proto::ValueInfo;
    if (!v.name.empty()) text(+F::name, v.name);
    // An absent type and a type with no member read alike; only a denotation needs one.
    if (v.type.kind != TypeProto::Kind::None || !v.type.denotation().empty())
        e_.message(+F::type, [&] { type(v.type); });
    if (!v.doc_string().empty()) text(+F::doc_string, v.doc_string());
    entries(+F::metadata_props, v.metadata_props());
}

}  // namespace onnximport::detail
