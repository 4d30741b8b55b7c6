// The CLI's escaping of untrusted bytes (docs/cli.md, "Escaping"): file names, model names
// and messages are shown so that a line stays one line and no byte reaches a terminal as
// a control sequence.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace onnximport::cli {

/// Length of the well-formed UTF-8 sequence at s[i] (1..4), or 0 where none starts there
/// (a stray continuation byte, an overlong form, a surrogate, a value past U+10FFFF, a
/// sequence cut short).
size_t utf8_sequence_length(std::string_view s, size_t i) noexcept;

/// True when every byte belongs to a well-formed UTF-8 sequence.
bool is_utf8(std::string_view s) noexcept;

/// The bytes as printable text: `\\`, `\t`, `\n`, `\r`, and `\xHH` for every other control
/// byte, for bytes outside well-formed UTF-8 and for the bytes of the invisible characters
/// that reorder or break lines (C1 controls, U+2028/2029, bidirectional marks). Every
/// other byte is itself, so the escaping is reversible and plain text reads unchanged.
std::string escape(std::string_view bytes);

}  // namespace onnximport::cli
