// A user of the dump (the package's component `dump`, pkg-config's onnximport-dump): imports
// the small model and writes its structural dump, for test_install.sh to look at.
#include "relu_model.hpp"

#include <onnximport/dump.hpp>
#include <onnximport/import.hpp>

#include <iostream>

int main() {
    const std::vector<uint8_t> bytes = consumer::relu_model();
    onnximport::write_dump(onnximport::import_bytes(bytes, "relu"), std::cout);
    return 0;
}
