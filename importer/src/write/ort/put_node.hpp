// Node and NodeEdge tables of one graph, from its plan (put_node.cpp).
#pragma once

#include "write/ort/assembly.hpp"

#include <span>
#include <vector>

namespace onnximport::detail {

/// The nodes, indexed by their position in `nodes`.
std::vector<flatbuffers::Offset<fb::Node>> put_nodes(OrtAssembly& a, std::span<const PlannedNode> nodes);
/// One NodeEdge per node: the edges from the producers in `nodes` of what it reads.
std::vector<flatbuffers::Offset<fb::NodeEdge>> put_edges(OrtAssembly& a, std::span<const PlannedNode> nodes);

}  // namespace onnximport::detail
