// The .ort reader (ONNX Runtime's FlatBuffers format): one walk that checks each part of
// the buffer where it reads it (ort/buffer.hpp) and fills the same ModelProto as the .onnx
// reader, without copying names or tensor bytes. Resolution (resolve/) then runs on it
// unchanged.
#pragma once

#include "model/storage.hpp"
#include "ort/buffer.hpp"

#include <onnximport/options.hpp>

#include <cstring>

namespace onnximport::detail {

/// The highest `ort_version` read. ONNX Runtime writes "6"; 1 to 5 differ only in fields
/// this reader does not use (kernel hashes, type-string resolver) or that are then absent.
inline constexpr int max_ort_version = 6;

/// The buffer carries ONNX Runtime's file identifier: size > 8 and `ORTM` at bytes 4..7,
/// as ONNX Runtime recognizes it. Content decides, never the file name (rule O1).
inline bool looks_like_ort(const uint8_t* data, uint64_t size) noexcept {
    return size > 8 && std::memcmp(data + 4, "ORTM", 4) == 0;
}

/// Reads the buffer as a .ort.
/// @throws ImportError: Malformed (not a well-formed .ort buffer), InvalidModel, Unsupported, ExternalData
void read_ort_model(Storage& storage, const ImportOptions& options);

/// Whether FlatBuffers' generated Verifier takes the buffer with ONNX Runtime's limits
/// (ImportOptions::ort_max_depth, ort_max_tables, ort_check_alignment): the check
/// ImportOptions::onnxruntime_limits asks for (rule O2).
bool onnxruntime_verifier_accepts(const ModelInput& input, const ImportOptions& options);

/// A field path of resolution, which names ModelProto's fields, in the .ort schema's names:
/// ModelProto.graph.node[3].input[1] -> InferenceSession.model.graph.nodes[3].inputs[1].
std::string ort_field_path(std::string_view onnx_path);

// The walk, one file per concern.
struct OrtContext;
void read_ort_graph(OrtContext& c, const FbTable& fg, Graph& g);
struct OrtNodeFacts;
void read_ort_node(OrtContext& c, const FbTable& fn, Node& n, OrtNodeFacts& facts);
/// The bytes reading a tensor touched (its table, vtable, name, dims, raw_data), which
/// io/passed_pages.hpp may drop behind the walk.
struct OrtExtent {
    uint32_t lo;
    uint32_t hi;
};
OrtExtent read_ort_tensor(OrtContext& c, const FbTable& ft, TensorView& t);
void read_ort_sparse_tensor(OrtContext& c, const FbTable& fs, SparseTensor& s);
void read_ort_type(OrtContext& c, const FbTable& ft, TypeProto& t);
/// The fields the model does not keep, checked as the rest (rule O2).
void check_ort_resolver(OrtContext& c, const FbTable& resolver);
void check_ort_runtime_optimizations(OrtContext& c, const FbTable& optimizations);
/// Node indices and edges of one graph, against its nodes as read.
void check_ort_node_graph(OrtContext& c, const FbTable& fg, const Graph& g, const OrtNodeFacts& facts);

}  // namespace onnximport::detail
