// Node and NodeEdge tables of one graph (put_node.cpp).
#pragma once

#include "write/ort/assembly.hpp"

#include <span>
#include <vector>

namespace onnximport::detail {

/// The nodes, indexed by their position in `nodes`.
std::vector<flatbuffers::Offset<fb::Node>> put_nodes(OrtAssembly& a, std::span<const Node* const> nodes,
                                                     std::vector<const Graph*>& scopes);
/// One NodeEdge per node: the edges from the producers in `nodes` of what it reads;
/// `scopes` as for put_nodes (the graph last).
std::vector<flatbuffers::Offset<fb::NodeEdge>> put_edges(OrtAssembly& a, std::span<const Node* const> nodes,
                                                         std::span<const Graph* const> scopes);

}  // namespace onnximport::detail
