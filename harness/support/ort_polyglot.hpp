// One buffer that is a valid .ort and a valid .onnx at once (docs/rules.md O16): for the
// tests of the rule and the hostile corpus. ONNX Runtime picks the format by the file name,
// so a checker that reads one half vets a model the runtime need not run.
#pragma once

#include <onnx_builders.hpp>
#include <ort_builder.hpp>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace onnximport::testing {

namespace polyglot_detail {

constexpr uint32_t unused_model_field = 9;  // no ModelProto field has this number: a .onnx reader skips it

template <class T>
T read(const std::vector<uint8_t>& b, uint64_t at) {
    T v;
    std::memcpy(&v, b.data() + at, sizeof v);
    return v;
}
template <class T>
void put(std::vector<uint8_t>& b, uint64_t at, T v) {
    std::memcpy(b.data() + at, &v, sizeof v);
}

/// The protobuf start of the polyglot: ir_version 8 (08 08), then ir_version again as a
/// 64-bit field (09 and 8 bytes), which a .onnx reader skips for its wire type (W14), holding
/// 00 "ORTM" 00 00 00. So bytes 0..3 read as the root offset 0x00090808, and 4..7 are ORTM.
inline std::vector<uint8_t> onnx_head(const WireWriter& fields) {
    uint64_t hidden;
    std::memcpy(&hidden, "\0ORTM\0\0\0", 8);
    const std::string head = WireWriter()
                                 .int_field(proto::Model::ir_version, 8)
                                 .fixed64_field(proto::Model::ir_version, hidden)
                                 .str() +
                             fields.str();
    return {head.begin(), head.end()};
}

/// A copy of the .ort's root table at `root` of `out`, pointing where the original did once
/// everything moved by `shift` (its vtable then lies after it, which FlatBuffers allows).
inline void copy_root(const std::vector<uint8_t>& ort, std::vector<uint8_t>& out, uint32_t root, uint64_t shift) {
    const uint32_t r0 = read<uint32_t>(ort, 0);
    const uint32_t v0 = r0 - static_cast<uint32_t>(read<int32_t>(ort, r0));
    const uint16_t vsize = read<uint16_t>(ort, v0), tsize = read<uint16_t>(ort, v0 + 2);
    if (tsize >= 64) throw std::logic_error("polyglot: the root table must fit the 64 bytes left for it");
    std::memcpy(out.data() + root, ort.data() + r0, tsize);
    put(out, root, static_cast<int32_t>(int64_t{root} - static_cast<int64_t>(v0 + shift)));
    for (uint32_t entry = 4; entry < vsize; entry += 2) {  // InferenceSession's fields are all uoffsets
        const uint16_t field = read<uint16_t>(ort, v0 + entry);
        if (!field) continue;
        const uint64_t target = r0 + field + read<uint32_t>(ort, r0 + field) + shift;
        put(out, root + field, static_cast<uint32_t>(target - (root + field)));
    }
}

}  // namespace polyglot_detail

/// `fields` of a ModelProto and the .ort `ort` in one buffer: after the fields, an unknown
/// field 9 (skipped by a .onnx reader) holds the rest of the buffer: the copy of the root
/// table at the root offset the first bytes give, then the .ort's bytes after its header,
/// moved by a multiple of 8 so that its scalars stay aligned.
inline std::vector<uint8_t> polyglot(const std::vector<uint8_t>& ort, const WireWriter& fields) {
    using namespace polyglot_detail;
    std::vector<uint8_t> out = onnx_head(fields);
    const uint32_t root = read<uint32_t>(out, 0);
    const uint64_t block = (uint64_t{root} + 64 + 7) & ~uint64_t{7};  // the root table is under 64 bytes
    const uint64_t total = block + ort.size() - 8;
    size_t n = 1;  // the size of the hiding field's length varint
    while (varint_size(total - (out.size() + 1 + n)) != n) ++n;
    const std::string hide = WireWriter().key(unused_model_field, LEN).varint(total - (out.size() + 1 + n)).str();
    out.insert(out.end(), hide.begin(), hide.end());
    if (out.size() > root) throw std::logic_error("polyglot: the .onnx fields pass the root offset");
    out.resize(total, 0);
    std::memcpy(out.data() + block, ort.data() + 8, ort.size() - 8);
    copy_root(ort, out, root, block - 8);
    return out;
}

/// Z = Add(X, Y) as .ort, C = Sub(A, B) as .onnx fields, one buffer.
inline std::vector<uint8_t> add_and_sub_polyglot() {
    OrtModelSpec ort = relu_model();
    ort.graph.node_args = {{"X"}, {"Y"}, {"Z"}};
    ort.graph.inputs = {"X", "Y"};
    ort.graph.outputs = {"Z"};
    ort.graph.initializers.clear();
    ort.graph.nodes = {{.name = "add", .op_type = "Add", .index = 0, .inputs = {"X", "Y"}, .outputs = {"Z"}}};
    const WireWriter graph = WireWriter()
                                 .message(proto::Graph::node, node("Sub", {"A", "B"}, {"C"}, "sub"))
                                 .message(proto::Graph::input, value_info("A"))
                                 .message(proto::Graph::input, value_info("B"))
                                 .message(proto::Graph::output, value_info("C"));
    const WireWriter fields =
        WireWriter().message(proto::Model::graph, graph).message(proto::Model::opset_import, opset("", 17));
    return polyglot(build_ort(ort), fields);
}

}  // namespace onnximport::testing
