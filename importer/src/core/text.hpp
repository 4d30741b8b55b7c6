// Input bytes shown in refusal messages: quoted, with control bytes escaped, so a name
// from the input cannot reach a terminal or break a line-oriented report.
#pragma once

#include <string>
#include <string_view>

namespace onnximport::detail {

/// `text` with each byte below 0x20 and 0x7F written as \xHH.
std::string escaped(std::string_view text);
/// escaped(text) between two `quote` characters.
std::string quoted(std::string_view text, char quote);

}  // namespace onnximport::detail
