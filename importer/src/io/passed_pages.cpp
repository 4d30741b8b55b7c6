// Dropping the pages a walk has passed (passed_pages.hpp).
#include "io/passed_pages.hpp"

#include <algorithm>

namespace onnximport::detail {

void PassedPages::passed(const uint8_t* begin, const uint8_t* end) noexcept {
    // Only the mapping's own pages: a range elsewhere (a read buffer, another file) is not ours to drop.
    if (!mapping_ || !mapping_->data() || begin >= end) return;
    if (begin < mapping_->data() || end > mapping_->data() + mapping_->size()) return;
    low_ = low_ ? std::min(low_, begin) : begin;
    high_ = std::max(high_, end);
    if (static_cast<uintptr_t>(high_ - low_) - span_at_drop_ >= chunk) drop();
}

void PassedPages::drop() noexcept {
    if (!low_) return;
    mapping_->drop_pages(low_, high_);
    span_at_drop_ = static_cast<uintptr_t>(high_ - low_);
}

}  // namespace onnximport::detail
