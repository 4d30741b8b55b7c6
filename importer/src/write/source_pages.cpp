// A writer's walk over its source pages (source_pages.hpp).
#include "write/source_pages.hpp"

#include "model/access.hpp"

namespace onnximport::detail {

SourcePages::SourcePages(const Model& model, unsigned shares) {
    const Storage* storage = ModelAccess::storage_of(model);
    if (!storage || !storage->input.is_mapped()) return;
    for (unsigned s = 0; s < (shares ? shares : 1); ++s) pages_.emplace_back(storage->input);
}

}  // namespace onnximport::detail
