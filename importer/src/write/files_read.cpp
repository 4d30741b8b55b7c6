// The files a model reads (files_read.hpp).
#include "write/files_read.hpp"

#include "model/access.hpp"

namespace onnximport::detail {

std::vector<FileId> files_read(const Model& model) {
    std::vector<FileId> out;
    const Storage* storage = ModelAccess::storage_of(model);
    if (!storage) return out;
    if (storage->input.file_id()) out.push_back(*storage->input.file_id());
    for (const auto& [id, file] : storage->external_files) out.push_back(id);
    return out;
}

}  // namespace onnximport::detail
