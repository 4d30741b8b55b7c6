// The flatc-generated code of importer/schema/ort.fbs (built into the build tree): the
// reader takes its field ids (VT_*) and, for ImportOptions::onnxruntime_limits, its Verifier.
#pragma once

#include <ort_generated.h>

#include <cstdint>
#include <cstring>

namespace onnximport::detail {

namespace fb = ::onnximport::ortfb;

/// Where an object of the buffer starts.
inline const uint8_t* address_of(const void* object) noexcept { return static_cast<const uint8_t*>(object); }

}  // namespace onnximport::detail
