// A program that uses the installed library as any user would (harness/install/): only the
// public headers, linked through the CMake package or pkg-config. It imports a small model
// and a cut one and prints what it saw, for test_install.sh to compare.
#include <onnximport/import.hpp>
#include <onnximport/version.hpp>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

/// A protobuf field: key, then a varint or a length and bytes (all lengths < 128 here).
void put(std::vector<uint8_t>& out, int field, int wire, const std::vector<uint8_t>& payload) {
    out.push_back(static_cast<uint8_t>(field << 3 | wire));
    if (wire == 2) out.push_back(static_cast<uint8_t>(payload.size()));
    out.insert(out.end(), payload.begin(), payload.end());
}

std::vector<uint8_t> text(const char* s) { return std::vector<uint8_t>(s, s + std::char_traits<char>::length(s)); }

/// ir_version 9, producer "consumer", opset 21, a graph of one Relu node from x to y.
std::vector<uint8_t> relu_model() {
    std::vector<uint8_t> node, graph, input, output, model;
    put(node, 1, 2, text("x"));
    put(node, 2, 2, text("y"));
    put(node, 4, 2, text("Relu"));
    put(input, 1, 2, text("x"));
    put(output, 1, 2, text("y"));
    put(graph, 1, 2, node);
    put(graph, 11, 2, input);
    put(graph, 12, 2, output);
    put(model, 1, 0, {9});
    put(model, 2, 2, text("consumer"));
    put(model, 7, 2, graph);
    put(model, 8, 2, {0x10, 21});  // opset_import: version 21 of the default domain
    return model;
}

}  // namespace

int main() {
    std::vector<uint8_t> bytes = relu_model();
    onnximport::Model model = onnximport::import_bytes(bytes, "relu");
    const auto& node = model.graph()->nodes[0];
    std::printf("onnximport %s (%d): %zu node, %.*s, producer %.*s\n", ONNXIMPORT_VERSION_STRING,
                onnximport::version_number, model.graph()->nodes.size(), static_cast<int>(node.op_type.size()),
                node.op_type.data(), static_cast<int>(model.proto().producer_name.size()),
                model.proto().producer_name.data());
    bytes.pop_back();  // cut inside the graph
    try {
        onnximport::import_bytes(bytes, "cut");
        std::printf("cut model accepted\n");
        return 1;
    } catch (const onnximport::ImportError& e) {
        std::printf("cut model: %s\n", std::string(onnximport::to_string(e.kind())).c_str());
    }
    return 0;
}
