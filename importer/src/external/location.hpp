// External-data entries and location rules (spec section 5, rules 1 and 3).
// Pure functions over the strings as written: no file system access here, so every
// rule can be tested on its own. Each check returns the refusal message, or nothing.
#pragma once

#include <onnximport/model.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace onnximport::detail {

/// One tensor's external_data entries, decoded.
struct ExternalRef {
    std::string_view location;
    uint64_t offset = 0;                ///< default 0
    std::optional<uint64_t> length;     ///< absent: the tensor's expected length
};

/// Decodes the entries: location (required), offset, length; checksum and unknown keys
/// are ignored. Refuses duplicate location/offset/length keys, offsets and lengths that
/// are not plain decimal integers within int64, and locations that break the rules of
/// check_location. Returns the refusal message, or nothing when `out` is filled.
std::optional<std::string> parse_entries(std::span<const StringStringEntry> entries, ExternalRef& out);

/// The rules a location must satisfy before it is joined to a directory: relative, not
/// empty, no NUL, not starting with / or \, no drive letter, no `..` segment split at
/// either separator, and not ONNX Runtime's in-memory marker segment _ORT_MEM_ADDR_.
std::optional<std::string> check_location(std::string_view location);

/// A non-negative decimal integer that fits int64: digits only (no sign, no spaces, no
/// hex). Nothing when the text is anything else.
std::optional<uint64_t> parse_decimal(std::string_view text);

/// The text quoted for a message, control bytes escaped as \xNN so a message stays one
/// line (the CLI prints tab-separated lines).
std::string quoted_text(std::string_view text);

}  // namespace onnximport::detail
