// The NodeArgs of one graph (node_args.hpp).
#include "write/ort/node_args.hpp"

#include "write/ort/infer_types.hpp"

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

std::vector<flatbuffers::Offset<fb::ValueInfo>> NodeArgTable::put(OrtAssembly& a) const {
    std::vector<flatbuffers::Offset<fb::ValueInfo>> out;
    out.reserve(entries_.size());
    for (size_t i = 0; i < entries_.size(); ++i) {
        const Entry& e = entries_[i];
        PathScope at(a.refusal.path, "node_arg", static_cast<int64_t>(i));
        const bool declared = e.declared && e.declared->kind != TypeProto::Kind::None;
        const auto type = declared ? put_type(a, *e.declared)
                          : e.tensor ? put_tensor_type(a, *e.tensor)
                          : a.inferred ? put_inferred_type(a, a.inferred->find(*e.owner, e.name))
                                       : flatbuffers::Offset<fb::TypeInfo>();
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
