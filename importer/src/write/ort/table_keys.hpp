// The keys of shared tables (write/ort/table_pool.hpp): each spells out, field by field and
// with every length, what the table it names will hold. The three sources of a NodeArg's
// type (declared, an initializer's dims, inferred) spell the same table the same way.
#pragma once

#include "write/ort/value_type.hpp"

#include <onnximport/model.hpp>

#include <cstdint>
#include <span>
#include <string>

namespace onnximport::detail {

/// The TypeInfo table put_type writes for `t` (kind not None).
std::string type_key(const TypeProto& t);
/// The TypeInfo table put_tensor_type writes: a tensor of known dims.
std::string tensor_type_key(int32_t data_type, std::span<const int64_t> dims);
/// The TypeInfo table put_inferred_type writes for a known tensor or sequence type.
std::string inferred_type_key(ValueType t);
/// The Attribute table of an attribute without a tensor or graph (shareable(at)).
std::string attribute_key(const Attribute& at);
/// True for attributes whose table holds only scalars, strings and lists.
bool shareable(const Attribute& at) noexcept;

}  // namespace onnximport::detail
