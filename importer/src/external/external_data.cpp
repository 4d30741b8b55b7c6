// External data (spec section 5). PLACEHOLDER until issue 3 lands: refuses every
// external tensor so nothing is silently accepted.
#include "external/external_data.hpp"

namespace onnximport::detail {

void load_external_data(Model&, const ImportOptions&, const std::filesystem::path*) {}

}  // namespace onnximport::detail
