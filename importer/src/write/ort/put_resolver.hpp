// The kernel type-string resolver of a set of operator versions (docs/ort.md, "The kernel
// type-string resolver"): what the writer puts in every .ort, and what the test builder of the
// hostile corpus puts in its own (harness/support/ort_builder.hpp).
#pragma once

#include "write/ort/op_signatures.hpp"

#include <ort_generated.h>

#include <map>
#include <string>

namespace onnximport::detail {

/// The resolver for `operators`, keyed by op_id: a std::map, so they are written sorted as
/// strings, FlatBuffers' key order.
flatbuffers::Offset<::onnximport::ortfb::KernelTypeStrResolver> put_resolver(
    flatbuffers::FlatBufferBuilder& fbb, const std::map<std::string, const OpSignature*>& operators);

}  // namespace onnximport::detail
