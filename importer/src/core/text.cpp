// core/text.hpp
#include "core/text.hpp"

namespace onnximport::detail {

std::string escaped(std::string_view text) {
    static constexpr char hex[] = "0123456789abcdef";
    std::string s;
    s.reserve(text.size());
    for (char ch : text) {
        const auto b = static_cast<unsigned char>(ch);
        if (b < 0x20 || b == 0x7F) s.append("\\x").append(1, hex[b >> 4]).append(1, hex[b & 15]);
        else s += ch;
    }
    return s;
}

std::string quoted(std::string_view text, char quote) {
    std::string s(1, quote);
    s.append(escaped(text));
    s += quote;
    return s;
}

}  // namespace onnximport::detail
