// UTF-8 validation of string fields (spec section 1).
#pragma once

#include <cstdint>

namespace onnximport::detail {

/// Returns null when [p, end) is valid UTF-8 (no overlong forms, no surrogates, at most
/// U+10FFFF), else the first byte of the first invalid sequence.
const uint8_t* find_invalid_utf8(const uint8_t* p, const uint8_t* end) noexcept;

}  // namespace onnximport::detail
