// Graph resolution (spec section 4).
#pragma once

#include "model/storage.hpp"

namespace onnximport::detail {

/// Builds the graph proper of the main graph and, in scope, of every subgraph:
/// values, references, opsets, types, order and consumers.
/// @throws ImportError(InvalidModel)
void resolve_model(Storage& storage);

}  // namespace onnximport::detail
