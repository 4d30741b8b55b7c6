// The opset table of a model (spec section 4, "Opsets").
#include "resolve/opsets.hpp"

namespace onnximport::detail {

OpsetTable::OpsetTable(const List<OperatorSetId>& imports, ImportHashKey& key) {
    for (const OperatorSetId& o : imports) {
        std::string_view d = canonical(o.domain);
        if (d.empty()) {
            has_default_ = true;
            default_version_ = o.version;
        } else {
            if (!others_) others_.emplace(0, NameHash{key.get()});
            others_->insert_or_assign(d, o.version);
        }
    }
}

const int64_t* OpsetTable::find_named(std::string_view domain) const {
    std::string_view d = canonical(domain);
    if (d.empty()) return has_default_ ? &default_version_ : nullptr;
    if (!others_) return nullptr;
    auto it = others_->find(d);
    return it == others_->end() ? nullptr : &it->second;
}

}  // namespace onnximport::detail
