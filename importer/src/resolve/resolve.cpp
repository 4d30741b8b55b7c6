// Graph resolution (spec section 4). PLACEHOLDER until issue 3 lands.
#include "resolve/resolve.hpp"

namespace onnximport::detail {

void resolve_model(Model&) {}

}  // namespace onnximport::detail
