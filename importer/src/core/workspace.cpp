// The caller-owned Workspace (onnximport/workspace.hpp).
#include "core/blocks.hpp"
#include "core/hash_key_reserve.hpp"

#include <onnximport/workspace.hpp>

namespace onnximport {

Workspace::Workspace(size_t keep_bytes)
    : pool_(std::make_shared<detail::BlockPool>(keep_bytes)), keys_(std::make_unique<detail::HashKeyReserve>()) {}
Workspace::~Workspace() = default;

size_t Workspace::kept_bytes() const noexcept { return pool_->kept_bytes(); }

namespace detail {

std::shared_ptr<BlockPool> pool_of(const Workspace* workspace) noexcept {
    return workspace ? workspace->pool_ : nullptr;
}

HashKeyReserve* key_reserve_of(Workspace* workspace) noexcept { return workspace ? workspace->keys_.get() : nullptr; }

}  // namespace detail

}  // namespace onnximport
