// A writer's walks over its source pages (source_pages.hpp).
#include "write/source_pages.hpp"

#include "model/access.hpp"

namespace onnximport::detail {

SourcePages::SourcePages(const Model& model, unsigned shares) {
    const Storage* storage = ModelAccess::storage_of(model);
    if (!storage) return;
    if (const FileView* input = storage->input.mapping()) files_.push_back(input);
    for (const auto& [id, file] : storage->external_files)
        if (file->data()) files_.push_back(file.get());
    std::sort(files_.begin(), files_.end(),
              [](const FileView* a, const FileView* b) { return a->data() < b->data(); });
    for (unsigned s = 0; s < std::max(shares, 1u); ++s)
        for (const FileView* f : files_) pages_.emplace_back(f);
}

PassedPages* SourcePages::pages_of(unsigned share, std::span<const std::byte> bytes) {
    const auto* begin = reinterpret_cast<const uint8_t*>(bytes.data());
    const auto after = std::upper_bound(files_.begin(), files_.end(), begin,
                                        [](const uint8_t* p, const FileView* f) { return p < f->data(); });
    if (after == files_.begin() || static_cast<size_t>(share) * files_.size() >= pages_.size()) return nullptr;
    const FileView* file = *(after - 1);
    if (begin + bytes.size() > file->data() + file->size()) return nullptr;
    return &pages_[share * files_.size() + static_cast<size_t>(after - 1 - files_.begin())];
}

}  // namespace onnximport::detail
