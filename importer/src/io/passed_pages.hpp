// Pages a walk has passed, in whatever order it passes them: each time what was passed has
// grown by a chunk, the mapping drops all of it. A fault on a header beside the weights maps
// as much of the page cache around it as the kernel likes (fault-around, or a whole large
// folio), also pages dropped before; dropping the whole union keeps about one chunk of
// weight pages resident, and none once the walk ends.
#pragma once

#include "io/file_view.hpp"
#include "io/input.hpp"

#include <cstdint>

namespace onnximport::detail {

class PassedPages {
public:
    /// `mapping` null: nothing is ever dropped.
    explicit PassedPages(const FileView* mapping) noexcept : mapping_(mapping) {}
    explicit PassedPages(const ModelInput& input) noexcept : PassedPages(input.mapping()) {}
    ~PassedPages() { drop(); }
    PassedPages(const PassedPages&) = delete;
    PassedPages& operator=(const PassedPages&) = delete;

    /// [begin, end) was read and is not needed soon; a no-op unless it lies in the mapping.
    void passed(const uint8_t* begin, const uint8_t* end) noexcept;
    /// Drops everything passed so far.
    void drop() noexcept;

    static constexpr uintptr_t chunk = 16u << 20;

private:
    const FileView* mapping_;
    const uint8_t* low_ = nullptr;
    const uint8_t* high_ = nullptr;
    uintptr_t span_at_drop_ = 0;
};

}  // namespace onnximport::detail
