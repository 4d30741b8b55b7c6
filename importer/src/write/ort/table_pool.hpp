// Tables written once per content (docs/ort.md, "Shared tables"): a NodeArg's type or a plain
// attribute equal to one written before is a uoffset to the first copy, as FlatBuffers lets
// any number of uoffsets reach one table. A key spells out all the table holds
// (write/ort/table_keys.hpp), so equal keys mean equal tables. The output does not depend on
// the hash key: the first copy is always the one shared.
#pragma once

#include "core/hash.hpp"

#include <cstdint>
#include <string>
#include <unordered_map>

namespace onnximport::detail {

class TablePool {
public:
    TablePool() : offsets_(0, NameHash{random_hash_key()}) {}

    /// The offset of the table that `key` describes; `make()` writes it the first time.
    /// make may call get() itself (a sequence's element type).
    template <class Make>
    uint32_t get(const std::string& key, Make make) {
        if (const auto it = offsets_.find(key); it != offsets_.end()) return it->second;
        const uint32_t made = make();
        offsets_.emplace(key, made);
        return made;
    }

private:
    std::unordered_map<std::string, uint32_t, NameHash> offsets_;  ///< keyed, as input bytes (core/hash.hpp)
};

}  // namespace onnximport::detail
