// NodeProto fast path (docs/performance.md, "Plain nodes"): a node whose fields are short
// ASCII strings and plain scalar attributes, read in two scans of its bytes, without
// entering it as a message.
#include "onnx/fields.hpp"

namespace onnximport::detail {

namespace {

constexpr uint8_t len_key(proto::Node field) { return static_cast<uint8_t>(+field << 3 | 2); }

/// What the first scan counts, to size the node's lists exactly.
struct PlainNodeShape {
    uint32_t inputs = 0;
    uint32_t outputs = 0;
    uint32_t attributes = 0;
};

/// Whether [p, end) holds only input, output, name, op_type and domain strings of one-byte
/// lengths, all ASCII, and plain scalar attributes; counts the lists' elements.
bool plain_node_shape(const uint8_t* p, const uint8_t* end, PlainNodeShape& shape) noexcept {
    while (p != end) {
        const uint8_t key = p[0];
        if (key == len_key(proto::Node::attribute)) {
            p = plain_scalar_attribute_end(p + 1, end);
            if (!p) return false;
            ++shape.attributes;
            continue;
        }
        if (end - p < 2 || p[1] >= 0x80 || p[1] > end - p - 2) return false;
        const uint8_t* text = p + 2;
        p = text + p[1];
        if (!all_ascii(text, p)) return false;  // the general path checks UTF-8
        if (key == len_key(proto::Node::input)) ++shape.inputs;
        else if (key == len_key(proto::Node::output)) ++shape.outputs;
        else if (key != len_key(proto::Node::name) && key != len_key(proto::Node::op_type) &&
                 key != len_key(proto::Node::domain))
            return false;
    }
    return true;
}

/// Reads the fields plain_node_shape accepted into n, a fresh Node, as read_node would.
void read_plain_fields(Context& c, const uint8_t* p, const uint8_t* end, const PlainNodeShape& shape, Node& n) {
    ListAccess::reserve(c.node_edges, n.inputs, shape.inputs);
    ListAccess::reserve(c.node_edges, n.outputs, shape.outputs);
    ListAccess::reserve(c.arena, n.attributes, shape.attributes);
    while (p != end) {
        const uint8_t key = p[0];
        if (key == len_key(proto::Node::attribute)) {
            read_plain_scalar_attribute_at(p + 1, ListAccess::append(c.arena, n.attributes));
            p += 2 + p[1];
            continue;
        }
        const std::string_view text = as_view({p + 2, p + 2 + p[1]});
        p += 2 + p[1];
        if (key == len_key(proto::Node::input)) ListAccess::push_back(c.node_edges, n.inputs, text);
        else if (key == len_key(proto::Node::output)) ListAccess::push_back(c.node_edges, n.outputs, text);
        else if (key == len_key(proto::Node::name)) n.name = text;
        else if (key == len_key(proto::Node::op_type)) n.op_type = text;
        else n.domain = text;
    }
}

}  // namespace

Node* read_plain_node(Context& c, Reader& r, List<Node>& nodes) {
    if (!r.is(WireType::Len)) return nullptr;
    const uint8_t* body = r.cursor();
    uint64_t size = 0;
    if (!r.peek_varint(body, size) || size > static_cast<uint64_t>(r.end() - body)) return nullptr;
    PlainNodeShape shape;
    if (!plain_node_shape(body, body + size, shape)) return nullptr;
    if (!c.may_nest(shape.attributes ? 2 : 1)) return nullptr;  // read_message refuses it
    reserve_repeated(c, r, nodes);
    Node& n = ListAccess::append(c.arena, nodes);
    n.offset = c.offset_of(r.key_at());
    read_plain_fields(c, body, body + size, shape, n);
    r.bytes();
    return &n;
}

}  // namespace onnximport::detail
