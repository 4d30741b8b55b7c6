// Names and messages that end in a number ("v12" for ("v", 12)), for the tests and the bench.
// Not "v" + std::to_string(12): GCC 12 at -O3 warns -Wrestrict on a literal prepended to a
// temporary string, wrongly (a memcpy of 2^63 bytes that cannot happen).
#pragma once

#include <string>
#include <string_view>

namespace onnximport::testing {

template <class Integer>
std::string numbered(std::string_view prefix, Integer i) {
    std::string s(prefix);
    s += std::to_string(i);
    return s;
}

}  // namespace onnximport::testing
