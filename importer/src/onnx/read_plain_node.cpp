// NodeProto fast path (docs/performance-history.md, "Plain nodes" and "Plain nodes in one scan"): a
// node whose fields are short ASCII strings and plain scalar attributes, found in one scan of
// its bytes and placed without entering it as a message.
#include "onnx/fields.hpp"
#include "onnx/plain_attribute.hpp"

namespace onnximport::detail {

namespace {

constexpr uint8_t len_key(proto::Node field) { return static_cast<uint8_t>(+field << 3 | 2); }

/// The most inputs, outputs or attributes of a node read here; a node with more (rare:
/// docs/performance-history.md, "Plain nodes in one scan") is read the general way.
constexpr uint32_t plain_list_max = 8;

/// What the scan found, each field by the address of its one-byte length. The arrays are
/// filled as far as their counts and left uninitialized past them: nothing reads further.
struct PlainNode {
    const uint8_t* inputs[plain_list_max];
    const uint8_t* outputs[plain_list_max];
    const uint8_t* attributes[plain_list_max];
    uint32_t input_count = 0;
    uint32_t output_count = 0;
    uint32_t attribute_count = 0;
    const uint8_t* name = nullptr;  ///< the last of each, as protobuf reads a repeated singular field
    const uint8_t* op_type = nullptr;
    const uint8_t* domain = nullptr;
};

/// Adds a field to one of the lists unless it is full.
bool add(const uint8_t* (&list)[plain_list_max], uint32_t& count, const uint8_t* field) noexcept {
    if (count == plain_list_max) return false;
    list[count++] = field;
    return true;
}

/// Whether [p, end) holds only input, output, name, op_type and domain strings of one-byte
/// lengths, all ASCII, and plain scalar attributes, at most plain_list_max of each list.
/// The fields between two attributes are checked for ASCII as one run, keys and lengths with
/// the strings (a one-byte length is below 0x80); an attribute's float is not ASCII, so it
/// ends a run.
bool scan_plain_node(const uint8_t* p, const uint8_t* end, PlainNode& found) noexcept {
    const uint8_t* run = p;
    while (p != end) {
        const uint8_t key = p[0];
        if (key == len_key(proto::Node::attribute)) {  // checks its own length
            const uint8_t* next = plain_scalar_attribute_end(p + 1, end);
            if (!next || !all_ascii(run, p) || !add(found.attributes, found.attribute_count, p + 1)) return false;
            p = run = next;
            continue;
        }
        // A length of two bytes or more, read here as its first, fails the run's ASCII check.
        const size_t left = static_cast<size_t>(end - p);
        if (left < 2 || p[1] > left - 2) return false;
        const uint8_t* next = p + 2 + p[1];
        // The most frequent first: a switch's table of jumps cost more than these tests.
        if (key == len_key(proto::Node::input)) {
            if (!add(found.inputs, found.input_count, p + 1)) return false;
        } else if (key == len_key(proto::Node::output)) {
            if (!add(found.outputs, found.output_count, p + 1)) return false;
        } else if (key == len_key(proto::Node::op_type)) {
            found.op_type = p + 1;
        } else if (key == len_key(proto::Node::name)) {
            found.name = p + 1;
        } else if (key == len_key(proto::Node::domain)) {
            found.domain = p + 1;
        } else {
            return false;
        }
        p = next;
    }
    return all_ascii(run, end);  // the general path checks UTF-8
}

/// The string whose one-byte length is at `length`.
std::string_view text_of(const uint8_t* length) noexcept { return as_view({length + 1, length + 1 + length[0]}); }

/// text_of, or the empty string for a field the node does not have (null).
std::string_view text_at(const uint8_t* length) noexcept { return length ? text_of(length) : std::string_view(); }

/// A node's inputs, then its outputs, in one array in the edges' arena; null for neither.
std::string_view* place_edges(Arena& edges, const PlainNode& found) {
    const uint32_t count = found.input_count + found.output_count;
    if (count == 0) return nullptr;
    std::string_view* texts = ListAccess::make_array_for_overwrite<std::string_view>(edges, count);
    for (uint32_t i = 0; i < found.input_count; ++i) texts[i] = text_of(found.inputs[i]);
    for (uint32_t i = 0; i < found.output_count; ++i) texts[found.input_count + i] = text_of(found.outputs[i]);
    return texts;
}

}  // namespace

Node* read_plain_node(Context& c, Reader& r, List<Node>& nodes) {
    if (!r.is(WireType::Len)) return nullptr;
    const uint8_t* body = r.cursor();
    uint64_t size = 0;
    if (!r.peek_varint(body, size) || size > static_cast<uint64_t>(r.end() - body)) return nullptr;
    PlainNode found;
    if (!scan_plain_node(body, body + size, found)) return nullptr;
    if (!c.may_nest(found.attribute_count ? 2 : 1)) return nullptr;  // read_message refuses it
    reserve_repeated(c, r, nodes);
    std::string_view* edges = place_edges(c.node_edges, found);
    const std::string_view domain = text_at(found.domain), name = text_at(found.name),
                           op_type = text_at(found.op_type);
    const uint64_t offset = c.offset_of(r.key_at());
    // Built once all it holds is known (a byte loaded in between might alias it): the compiler
    // drops the stores of its members' initializers that the lines below overwrite
    // (docs/performance-history.md, "Nodes built once").
    Node& n = ListAccess::append_by_members(c.arena, nodes);
    ListAccess::view(n.inputs, edges, found.input_count);
    ListAccess::view(n.outputs, edges + found.input_count, found.output_count);
    n.domain = domain;
    n.name = name;
    n.op_type = op_type;
    n.offset = offset;
    if (found.attribute_count) {
        ListAccess::reserve(c.arena, n.attributes, found.attribute_count);
        for (uint32_t i = 0; i < found.attribute_count; ++i)
            read_plain_scalar_attribute_at(found.attributes[i], ListAccess::append(c.arena, n.attributes));
    }
    r.skip_peeked(body + size);
    return &n;
}

}  // namespace onnximport::detail
