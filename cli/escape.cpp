// Escaping for the CLI's text output (docs/cli.md, "Escaping").
#include "escape.hpp"

#include <cstdint>

namespace onnximport::cli {

namespace {

bool is_continuation(unsigned char c) noexcept { return (c & 0xC0) == 0x80; }

/// The code point of a sequence utf8_sequence_length accepted.
char32_t decode(std::string_view s, size_t i, size_t length) noexcept {
    auto b = [&](size_t k) { return static_cast<char32_t>(static_cast<unsigned char>(s[i + k])); };
    switch (length) {
        case 1: return b(0);
        case 2: return (b(0) & 0x1F) << 6 | (b(1) & 0x3F);
        case 3: return (b(0) & 0x0F) << 12 | (b(1) & 0x3F) << 6 | (b(2) & 0x3F);
        default: return (b(0) & 0x07) << 18 | (b(1) & 0x3F) << 12 | (b(2) & 0x3F) << 6 | (b(3) & 0x3F);
    }
}

/// Characters that are valid text but invisible and able to break a line or reorder what
/// a terminal shows (C1 controls, line and paragraph separators, bidirectional controls).
bool is_hidden_control(char32_t c) noexcept {
    return (c >= 0x80 && c <= 0x9F) || c == 0x200E || c == 0x200F || c == 0x2028 || c == 0x2029 ||
           (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
}

void append_hex(std::string& out, unsigned char c) {
    static constexpr char digits[] = "0123456789abcdef";
    out += "\\x";
    out += digits[c >> 4];
    out += digits[c & 0x0F];
}

}  // namespace

size_t utf8_sequence_length(std::string_view s, size_t i) noexcept {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) return 1;
    size_t length;
    unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF) length = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        length = 3;
        if (c == 0xE0) lo = 0xA0;         // overlong below U+0800
        else if (c == 0xED) hi = 0x9F;    // surrogates U+D800..U+DFFF
    } else if (c >= 0xF0 && c <= 0xF4) {
        length = 4;
        if (c == 0xF0) lo = 0x90;         // overlong below U+10000
        else if (c == 0xF4) hi = 0x8F;    // past U+10FFFF
    } else {
        return 0;  // a continuation byte, C0/C1 (overlong) or F5..FF
    }
    if (s.size() - i < length) return 0;
    const auto second = static_cast<unsigned char>(s[i + 1]);
    if (second < lo || second > hi) return 0;
    for (size_t k = 2; k < length; ++k)
        if (!is_continuation(static_cast<unsigned char>(s[i + k]))) return 0;
    return length;
}

bool is_utf8(std::string_view s) noexcept {
    for (size_t i = 0; i < s.size();) {
        size_t n = utf8_sequence_length(s, i);
        if (n == 0) return false;
        i += n;
    }
    return true;
}

std::string escape(std::string_view bytes) {
    std::string out;
    out.reserve(bytes.size());
    for (size_t i = 0; i < bytes.size();) {
        const auto c = static_cast<unsigned char>(bytes[i]);
        if (c >= 0x20 && c < 0x7F) {
            if (c == '\\') out += '\\';
            out += static_cast<char>(c);
            ++i;
            continue;
        }
        if (c == '\t' || c == '\n' || c == '\r') {
            out += '\\';
            out += c == '\t' ? 't' : c == '\n' ? 'n' : 'r';
            ++i;
            continue;
        }
        const size_t n = c < 0x80 ? 0 : utf8_sequence_length(bytes, i);
        if (n > 1 && !is_hidden_control(decode(bytes, i, n))) {
            out.append(bytes.substr(i, n));
        } else {
            for (size_t k = 0; k < (n ? n : 1); ++k) append_hex(out, static_cast<unsigned char>(bytes[i + k]));
        }
        i += n ? n : 1;
    }
    return out;
}

}  // namespace onnximport::cli
