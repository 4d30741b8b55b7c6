// Graph resolution (spec section 4).
#pragma once

#include <onnximport/model.hpp>

namespace onnximport::detail {

/// Builds the graph proper of the main graph and, in scope, of every subgraph:
/// values, references, opsets, types, order and consumers.
/// @throws ImportError(InvalidModel)
void resolve_model(Model& model);

}  // namespace onnximport::detail
