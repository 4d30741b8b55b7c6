// The out-of-line parts of reading a field's value (fields.hpp).
#include "onnx/fields.hpp"

namespace onnximport::detail {

void check_utf8(Context& c, Reader::Slice s, std::string_view field) {
    if (const uint8_t* bad = find_invalid_utf8(s.begin, s.end))
        c.fail(ErrorKind::Malformed, bad, "string field is not valid UTF-8", field);
}

Graph* read_singular_graph(Context& c, Reader& r, std::string_view field) {
    auto graph = [&](Reader& sub, const uint8_t* at, Graph& g) { read_graph(c, sub, at, g); };
    return read_singular<Graph>(c, r, field, graph);
}

}  // namespace onnximport::detail
