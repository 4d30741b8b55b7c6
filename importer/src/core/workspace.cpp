// The caller-owned Workspace (onnximport/workspace.hpp).
#include "core/blocks.hpp"

#include <onnximport/workspace.hpp>

namespace onnximport {

Workspace::Workspace(size_t keep_bytes) : pool_(std::make_shared<detail::BlockPool>(keep_bytes)) {}
Workspace::~Workspace() = default;

size_t Workspace::kept_bytes() const noexcept { return pool_->kept_bytes(); }

namespace detail {

std::shared_ptr<BlockPool> pool_of(const Workspace* workspace) noexcept {
    return workspace ? workspace->pool_ : nullptr;
}

}  // namespace detail

}  // namespace onnximport
