// The out-of-line parts of reading a field's value (fields.hpp).
#include "onnx/fields.hpp"

namespace onnximport::detail {

void check_utf8(Context& c, Reader::Slice s, std::string_view field) {
    if (const uint8_t* bad = find_invalid_utf8(s.begin, s.end))
        c.fail(ErrorKind::Malformed, bad, "string field is not valid UTF-8", field);
}

}  // namespace onnximport::detail
