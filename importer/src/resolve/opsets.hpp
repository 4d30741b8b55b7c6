// Which operator-set version a node uses (spec section 4, "Opsets"): the version the
// model imports for the node's domain, with ai.onnx and the empty domain the same.
#pragma once

#include "core/hash_key_reserve.hpp"

#include <onnximport/model.hpp>

#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace onnximport::detail {

class OpsetTable {
public:
    /// A domain imported more than once takes the last version listed, as a protobuf
    /// map field would; the spec does not refuse repeats.
    OpsetTable(const List<OperatorSetId>& imports, ImportHashKey& key);

    /// The version imported for `domain`, or nullptr when the model does not import it.
    /// Inline for the default domain, which most nodes use: one test per node.
    const int64_t* find(std::string_view domain) const {
        if (domain.empty()) return has_default_ ? &default_version_ : nullptr;
        return find_named(domain);
    }

private:
    const int64_t* find_named(std::string_view domain) const;

    static std::string_view canonical(std::string_view domain) {
        return domain == "ai.onnx" ? std::string_view() : domain;
    }

    // Most nodes are in the default domain: answered without hashing.
    bool has_default_ = false;
    int64_t default_version_ = 0;
    /// Keyed by input bytes: hashed with the import's key (core/hash.hpp). Made for the
    /// first domain other than the default one: most models import none.
    std::optional<std::unordered_map<std::string_view, int64_t, NameHash>> others_;
};

}  // namespace onnximport::detail
