// Each value's readers, and the graph put in resolved order with its producers and
// consumers (spec section 4, "Order" and "Consumers"); defined in consumers.cpp.
#pragma once

#include "resolve/order.hpp"
#include "resolve/scope.hpp"

namespace onnximport::detail {

/// Each value's readers in file order, in the array that becomes the consumers.
ValueReaders read_by_value(Scope& s, const ReadLists& reads);

/// Puts the nodes in resolved order and fills Value::producer and Value::consumers (the
/// readers, turned into resolved indices).
void apply_order(Scope& s, ValueReaders& readers, NodeOrder& order);

}  // namespace onnximport::detail
