// Resolution of one graph and, in scope, its subgraphs (spec section 4). The steps, each
// in its own file: values (scope.cpp), references and subgraphs (graph.cpp), types
// (types.cpp), order (order.hpp), consumers (consumers.hpp).
#pragma once

#include "core/refusal.hpp"
#include "resolve/opsets.hpp"
#include "resolve/order.hpp"
#include "resolve/scope.hpp"

#include <onnximport/model.hpp>

#include <span>

namespace onnximport::detail {

/// Resolves s.graph with s.outer's values in scope. The context's field path names the
/// graph (e.g. ModelProto.graph); node paths use file indices.
/// @throws ImportError(InvalidModel)
void resolve_graph(Refusal& c, Scope& s, const OpsetTable& opsets);

/// Value::type from input and output declarations, then value_info.
/// @param outputs per graph output, where its name was found.
void assign_types(Scope& s, std::span<const ValueRef> outputs);

}  // namespace onnximport::detail
