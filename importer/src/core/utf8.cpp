// UTF-8 validation of string fields (spec section 1), Unicode Table 3-7 well-formed sequences.
#include "core/utf8.hpp"

namespace onnximport::detail {

const uint8_t* find_invalid_utf8(const uint8_t* p, const uint8_t* end) noexcept {
    while (p < end) {
        uint8_t b = *p;
        if (b < 0x80) {
            ++p;
            continue;
        }
        int extra;
        uint8_t lo = 0x80, hi = 0xBF;  // allowed range of the second byte
        if (b >= 0xC2 && b <= 0xDF) extra = 1;
        else if (b == 0xE0) { extra = 2; lo = 0xA0; }
        else if (b >= 0xE1 && b <= 0xEC) extra = 2;
        else if (b == 0xED) { extra = 2; hi = 0x9F; }  // no surrogates
        else if (b >= 0xEE && b <= 0xEF) extra = 2;
        else if (b == 0xF0) { extra = 3; lo = 0x90; }
        else if (b >= 0xF1 && b <= 0xF3) extra = 3;
        else if (b == 0xF4) { extra = 3; hi = 0x8F; }  // at most U+10FFFF
        else return p;
        if (end - p <= extra) return p;
        if (p[1] < lo || p[1] > hi) return p;
        for (int i = 2; i <= extra; ++i)
            if (p[i] < 0x80 || p[i] > 0xBF) return p;
        p += extra + 1;
    }
    return nullptr;
}

}  // namespace onnximport::detail
