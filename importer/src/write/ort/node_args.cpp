// The NodeArgs of one graph (node_args.hpp).
#include "write/ort/node_args.hpp"

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

std::vector<PlannedArg> NodeArgTable::plan(const InferredTypes& inferred) const {
    std::vector<PlannedArg> out;
    out.reserve(entries_.size());
    for (const Entry& e : entries_) {
        PlannedArg arg;
        arg.name = e.name;
        arg.doc = e.doc;
        if (e.declared && e.declared->kind != TypeProto::Kind::None) arg.declared = e.declared;
        else if (e.tensor) arg.tensor = e.tensor;
        else arg.inferred = inferred.find(*e.owner, e.name);
        out.push_back(arg);
    }
    return out;
}

}  // namespace onnximport::detail
