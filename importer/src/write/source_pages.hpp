// The pages of the model's mapped files (its input and its external-data files) that a
// writer has copied out (io/passed_pages.hpp): dropped as the copy goes, so a writer holds
// what it writes, not also the model it reads. One walk per mapped file and share of a
// threaded copy; a view into a mapped file reads the file again.
#pragma once

#include "io/passed_pages.hpp"

#include <onnximport/model.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <span>
#include <vector>

namespace onnximport::detail {

class SourcePages {
public:
    SourcePages(const Model& model, unsigned shares);

    /// Calls copy_part(offset, part) for consecutive parts of `bytes` of at most one chunk, and
    /// passes each part once it is copied. Bytes outside the mapped files are never dropped.
    template <class CopyPart>
    void copy(unsigned share, std::span<const std::byte> bytes, CopyPart&& copy_part) {
        PassedPages* pages = pages_of(share, bytes);
        for (uint64_t at = 0; at < bytes.size(); at += PassedPages::chunk) {
            const auto part = bytes.subspan(at, std::min<uint64_t>(PassedPages::chunk, bytes.size() - at));
            copy_part(at, part);
            if (pages)
                pages->passed(reinterpret_cast<const uint8_t*>(part.data()),
                              reinterpret_cast<const uint8_t*>(part.data() + part.size()));
        }
    }

private:
    /// The walk of the mapped file that holds all of `bytes`, for this share; null if none does.
    PassedPages* pages_of(unsigned share, std::span<const std::byte> bytes);

    std::vector<const FileView*> files_;  ///< the mapped ones, by address
    std::deque<PassedPages> pages_;         ///< share by share, a walk per file; a deque: PassedPages does not move
};

}  // namespace onnximport::detail
