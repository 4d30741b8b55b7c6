// The .ort reader (ONNX Runtime's FlatBuffers format): verification of the whole buffer,
// then a walk that fills the same ModelProto as the .onnx reader, without copying names
// or tensor bytes. Resolution (resolve/) then runs on it unchanged.
#pragma once

#include "model/storage.hpp"
#include "ort/schema.hpp"

#include <onnximport/options.hpp>

namespace onnximport::detail {

/// The highest `ort_version` read. ONNX Runtime writes "6"; 1 to 5 differ only in fields
/// this reader does not use (kernel hashes, type-string resolver) or that are then absent.
inline constexpr int max_ort_version = 6;

/// Verifies the buffer with the options' limits (FlatBuffers Verifier), then reads it.
/// @throws ImportError: Malformed (does not verify: nothing read yet), InvalidModel, Unsupported, ExternalData
void read_ort_model(Storage& storage, const ImportOptions& options);

/// Whether the buffer verifies as an InferenceSession with the options' limits, exactly as
/// FlatBuffers' generated Verifier decides (fuzz_ort and test_ort hold the two equal).
bool ort_buffer_verifies(const ModelInput& input, const ImportOptions& options);

// The walk, one file per concern.
struct OrtContext;
void verify_ort(const OrtContext& c, const ImportOptions& options);
void read_ort_graph(OrtContext& c, const fb::Graph* fg, Graph& g);
void read_ort_node(OrtContext& c, const fb::Node* fn, Node& n);
void read_ort_tensor(OrtContext& c, const fb::Tensor* ft, TensorView& t);
void read_ort_sparse_tensor(OrtContext& c, const fb::SparseTensor* fs, SparseTensor& s);
void read_ort_type(OrtContext& c, const fb::TypeInfo* ft, TypeProto& t);
/// Node indices, edges and input_arg_counts of one graph, against its nodes as read.
void check_ort_node_graph(OrtContext& c, const fb::Graph* fg);

}  // namespace onnximport::detail
