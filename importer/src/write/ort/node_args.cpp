// The NodeArgs of one graph (node_args.hpp).
#include "write/ort/node_args.hpp"

#include "write/ort/infer_types.hpp"
#include "write/ort/table_keys.hpp"

namespace onnximport::detail {

bool NodeArgTable::insert(const Entry& e) {
    const auto [at, fresh] = index_.try_emplace(e.name, entries_.size());
    if (fresh) {
        entries_.push_back(e);
        return true;
    }
    // A name declared twice (graph outputs may repeat one): the first declaration that
    // has a type gives it, so that reading the file back and writing it again agrees.
    Entry& first = entries_[at->second];
    if (!first.declared && !first.tensor && e.declared) first.declared = e.declared;
    return false;
}

void NodeArgTable::add_declared(const ValueInfo& v) {
    insert({v.name, v.doc_string(), v.type.kind == TypeProto::Kind::None ? nullptr : &v.type, nullptr, &graph_});
}

void NodeArgTable::add_tensor(std::string_view name, const TensorView& t) { insert({name, {}, nullptr, &t, &graph_}); }

void NodeArgTable::add_used(std::string_view name) {
    if (index_.contains(name)) return;
    Entry e{name, {}, nullptr, nullptr, &graph_};
    const Value* v = graph_.find_value(name);
    for (size_t i = scopes_.size(); !v && i > 0; --i) {
        v = scopes_[i - 1]->find_value(name);
        if (v) e.owner = scopes_[i - 1];
    }
    if (v) {
        e.declared = v->type;
        e.tensor = v->type ? nullptr : v->initializer;
    }
    insert(e);
}

/// The NodeArg's type: declared, an initializer's, inferred or none; each distinct type
/// written once (write/ort/table_pool.hpp).
flatbuffers::Offset<fb::TypeInfo> NodeArgTable::shared_type(OrtAssembly& a, const Entry& e) const {
    using T = flatbuffers::Offset<fb::TypeInfo>;
    if (e.declared && e.declared->kind != TypeProto::Kind::None)
        return a.tables.get(type_key(*e.declared), [&] { return put_type(a, *e.declared).o; });
    if (e.tensor) {
        const std::span<const int64_t> dims(e.tensor->dims.data(), e.tensor->dims.size());
        const std::string key = tensor_type_key(e.tensor->data_type, dims);
        return a.tables.get(key, [&] { return put_tensor_type(a, *e.tensor).o; });
    }
    if (!a.inferred) return T();
    const ValueType t = a.inferred->find(*e.owner, e.name);
    const T made = put_inferred_type(a, t);  // no table for what .ort cannot type
    return made.IsNull() ? made : T(a.tables.get(inferred_type_key(t), [&] { return made.o; }));
}

std::vector<flatbuffers::Offset<fb::ValueInfo>> NodeArgTable::put(OrtAssembly& a) const {
    std::vector<flatbuffers::Offset<fb::ValueInfo>> out;
    out.reserve(entries_.size());
    for (size_t i = 0; i < entries_.size(); ++i) {
        const Entry& e = entries_[i];
        PathScope at(a.refusal.path, "node_arg", static_cast<int64_t>(i));
        const auto type = shared_type(a, e);
        const auto name = a.names.get(e.name);
        const auto doc =
            e.doc.empty() ? flatbuffers::Offset<flatbuffers::String>() : a.fbb.CreateString(e.doc.data(), e.doc.size());
        fb::ValueInfoBuilder b(a.fbb);
        b.add_name(name);
        if (!doc.IsNull()) b.add_doc_string(doc);
        if (!type.IsNull()) b.add_type(type);
        out.push_back(b.Finish());
    }
    return out;
}

}  // namespace onnximport::detail
