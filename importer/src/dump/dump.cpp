// The structural dump (sweep/DUMP_FORMAT.md). PLACEHOLDER until issue 5 lands.
#include <onnximport/dump.hpp>

namespace onnximport {

void write_dump(const Model& model, std::ostream& out) { out << "ir_version " << model.ir_version << "\n"; }

}  // namespace onnximport
