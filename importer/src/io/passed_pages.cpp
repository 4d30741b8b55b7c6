// Dropping the pages a walk has passed (passed_pages.hpp).
#include "io/passed_pages.hpp"

#include <algorithm>

namespace onnximport::detail {

void PassedPages::passed(const uint8_t* begin, const uint8_t* end) noexcept {
    if (!input_.is_mapped() || begin >= end) return;
    low_ = low_ ? std::min(low_, begin) : begin;
    high_ = std::max(high_, end);
    if (static_cast<uintptr_t>(high_ - low_) - span_at_drop_ >= chunk) drop();
}

void PassedPages::drop() noexcept {
    if (!low_) return;
    input_.drop_pages(low_, high_);
    span_at_drop_ = static_cast<uintptr_t>(high_ - low_);
}

}  // namespace onnximport::detail
