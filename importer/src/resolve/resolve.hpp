// Graph resolution (spec section 4).
#pragma once

#include "model/storage.hpp"

#include <onnximport/options.hpp>

namespace onnximport::detail {

/// Builds the graph proper of the main graph and, in scope, of every subgraph:
/// values, references, opsets, types, order and consumers. `times`: where the main
/// graph's steps go (ImportOptions::times), or null.
/// @throws ImportError(InvalidModel)
void resolve_model(Storage& storage, ImportTimes* times);

}  // namespace onnximport::detail
