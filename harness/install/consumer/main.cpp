// A program that uses the installed library as any user would (harness/install/): only the
// public headers, linked through the CMake package or pkg-config. It imports a small model
// and a cut one and prints what it saw, for test_install.sh to compare.
#include "relu_model.hpp"

#include <onnximport/import.hpp>
#include <onnximport/version.hpp>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

int main() {
    std::vector<uint8_t> bytes = consumer::relu_model();
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
