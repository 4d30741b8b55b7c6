// The state of one .ort assembly: the one FlatBufferBuilder, where each tensor's
// bytes go once the buffer is finished, and the refusals of what the format cannot hold.
// The builder is single-threaded by design (docs/ort.md, "Writing `.ort` files"): tables are made
// here on one thread, tensor bytes are copied into their reserved places afterwards
// (write/ort/fill.cpp), by a pool when asked.
#pragma once

#include "core/refusal.hpp"
#include "format/ort_data_type.hpp"
#include "write/aligned_sink.hpp"
#include "write/atomic_file.hpp"
#include "write/progress.hpp"
#include "write/ort/plan.hpp"
#include "write/ort/string_pool.hpp"
#include "write/ort/table_pool.hpp"
#include "write/ort/value_type.hpp"
#include "write/source_pages.hpp"
#include "write/tensor_router.hpp"

#include <onnximport/model.hpp>
#include <onnximport/write_ort.hpp>

#include <ort_generated.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace onnximport::detail {

namespace fb = ::onnximport::ortfb;

/// The `ort_version` written: the lowest that holds the model (docs/ort.md, "Version"): 5
/// brought the kernel type-string resolver minimal builds need, 6 the float8 types.
inline const char* written_ort_version(bool uses_float8) noexcept { return uses_float8 ? "6" : "5"; }
/// A 32-bit offset format: the buffer stays below 2^31 - 1 bytes (FlatBuffers' maximum).
inline constexpr uint64_t max_ort_buffer = (uint64_t{1} << 31) - 1;

/// An inline tensor's bytes and the uoffset of its raw_data vector (counted from the
/// buffer's end, so it stays valid while the builder grows).
struct PlacedBytes {
    std::span<const std::byte> bytes;
    uint64_t place = 0;
};

struct OrtAssembly {
    /// @throws ImportError(Unsupported) for an alignment that is not a power of two
    /// `reserve`: the size of the builder's first buffer.
    OrtAssembly(const OrtWriteOptions& o, std::string output_name, size_t reserve = 1 << 16)
        : output(std::move(output_name)), fbb(reserve), options(o), refusal(output, nullptr, "ModelProto"),
          layout(o.external_data.alignment, output), names(fbb) {}

    std::string output;  ///< refusals' source name: the refusal views it
    flatbuffers::FlatBufferBuilder fbb;
    const OrtWriteOptions& options;
    Refusal refusal;  ///< the path names the model part
    std::vector<PlacedBytes> inline_fills;
    std::vector<ExternalBlob> external_blobs;  ///< the companion file's, in offset order
    std::string companion;                     ///< its name, which the model names when it holds a blob
    AlignedLayout layout;                      ///< the companion file's offsets
    uint64_t max_buffer = max_ort_buffer;      ///< lowered only by tests
    std::deque<std::vector<std::byte>> owned;  ///< bytes made here (lifted Constants); stable
    const OrtPlan* plan = nullptr;             ///< what put_session serializes (lower.hpp)
    bool uses_float8 = false;  ///< an element type of format version 6 was written
    StringPool names;          ///< value, operator and attribute names, each written once
    TablePool tables;          ///< NodeArg types and plain attributes, each written once
    TablePool vectors;         ///< nodes' attributes, input_arg_counts and implicit_inputs, each vector once

    /// What the format cannot hold, at the current field path.
    [[noreturn]] void unsupported(const std::string& message, std::string_view leaf = {}) const {
        refusal.fail(ErrorKind::Unsupported, nullptr, message, leaf);
    }
    /// The refusal the lowering pass decided for the part written now, if any (plan.hpp).
    void refuse_if(const std::optional<LoweringRefusal>& r) const {
        if (r) unsupported(r->message, r->leaf);
    }
    /// Refuses a buffer that would reach max_ort_buffer with `more` bytes added.
    void check_room(uint64_t more) const;
};

using StringOffsets = std::vector<flatbuffers::Offset<flatbuffers::String>>;

/// One tensor table; `name` replaces the tensor's own (a lifted Constant's output).
flatbuffers::Offset<fb::Tensor> put_tensor(OrtAssembly& a, const TensorView& t, std::string_view name);
/// A tensor table of bytes made by the writer (a lifted value_float(s) or value_int(s)).
flatbuffers::Offset<fb::Tensor> put_owned_tensor(OrtAssembly& a, std::string_view name, int32_t data_type,
                                                 std::span<const int64_t> dims, std::vector<std::byte> bytes);
/// A STRING tensor table from a list of strings (a lifted value_string(s)).
flatbuffers::Offset<fb::Tensor> put_string_tensor(OrtAssembly& a, std::string_view name, std::span<const int64_t> dims,
                                                  std::span<const std::string_view> strings);
flatbuffers::Offset<fb::SparseTensor> put_sparse(OrtAssembly& a, const SparseTensor& s, std::string_view name = {});
/// A TypeInfo; null for "no type".
flatbuffers::Offset<fb::TypeInfo> put_type(OrtAssembly& a, const TypeProto& t);
/// An inferred type: a tensor (or a sequence of one) of its element type, no shape; null
/// for what a TypeInfo cannot hold (unknown, optional).
flatbuffers::Offset<fb::TypeInfo> put_inferred_type(OrtAssembly& a, ValueType t);
/// Whether put_inferred_type writes a table for `t` (.ort has none for what it cannot type).
bool has_inferred_table(ValueType t) noexcept;
/// The tensor type of an initializer: its element type and dims.
flatbuffers::Offset<fb::TypeInfo> put_tensor_type(OrtAssembly& a, const TensorView& t);
/// The graph as `a.plan` lowered it.
flatbuffers::Offset<fb::Graph> put_graph(OrtAssembly& a, const Graph& g);
flatbuffers::Offset<fb::Attribute> put_attribute(OrtAssembly& a, const Attribute& at);
/// The whole InferenceSession, finished: the model lowered (lower.hpp), then serialized.
void put_session(OrtAssembly& a, const ModelProto& m);

StringOffsets put_strings(OrtAssembly& a, std::span<const std::string_view> names);
/// The element type a tensor or a tensor type may carry: 1..20 (0 is kept for types).
void check_element_type(OrtAssembly& a, int32_t code, std::string_view leaf);

/// Copies every inline tensor's bytes into the finished buffer, on `threads` threads.
void fill_inline(std::span<const PlacedBytes> fills, uint8_t* buffer, uint64_t size, unsigned threads,
                 SourcePages& source);
/// Writes the finished buffer into `file` with every inline tensor's bytes taken from the
/// model instead of the buffer's reserved places, which are left unwritten.
/// @throws ImportError(Io) when a write fails
void write_inline(AtomicFile& file, std::span<const PlacedBytes> fills, const uint8_t* buffer, uint64_t size,
                  unsigned threads, Progress& progress, SourcePages& source);

}  // namespace onnximport::detail
