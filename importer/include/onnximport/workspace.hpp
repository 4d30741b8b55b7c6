// Reuse of memory between imports, owned by the caller (the way a JSON parser object is
// reused over many documents). Without a Workspace, an import allocates only for its
// Model and gives everything back when the Model is destroyed; with one, the arena blocks
// of destroyed Models, all but the small ones malloc keeps itself, are kept in it for the
// next import that names it, which then finds its pages already faulted in
// (docs/performance-history.md, "Mid-size graphs").
#pragma once

#include <cstddef>
#include <memory>

namespace onnximport {

class Workspace;

namespace detail {
class BlockPool;
class HashKeyReserve;
/// The pool of a Workspace (null for none): Models imported with it share it, and may
/// outlive the Workspace (the pool lives until the last of them is gone).
std::shared_ptr<BlockPool> pool_of(const Workspace* workspace) noexcept;
/// Where the imports of a Workspace draw their hash keys (null for none: each draws alone).
HashKeyReserve* key_reserve_of(Workspace* workspace) noexcept;
}  // namespace detail

class Workspace {
public:
    /// Room for the blocks of a graph of a million nodes and its scratch, so that the next
    /// import reuses every one of them instead of faulting one in again (docs/performance-history.md,
    /// "Room for a graph of a million nodes").
    static constexpr size_t default_keep_bytes = size_t{512} << 20;

    /// Keeps blocks whose resident pages add up to at most `keep_bytes`: a kept large block
    /// (of huge pages) counts the pages an import wrote, which are marked free to the kernel
    /// (MADV_FREE) so that it may take them back under memory pressure; its pages past those
    /// are given back. Smaller blocks count whole and stay resident.
    explicit Workspace(size_t keep_bytes = default_keep_bytes);
    ~Workspace();
    Workspace(const Workspace&) = delete;
    Workspace& operator=(const Workspace&) = delete;

    /// The resident bytes of the blocks kept now, as the limit counts them.
    size_t kept_bytes() const noexcept;

private:
    friend std::shared_ptr<detail::BlockPool> detail::pool_of(const Workspace*) noexcept;
    friend detail::HashKeyReserve* detail::key_reserve_of(Workspace*) noexcept;
    std::shared_ptr<detail::BlockPool> pool_;
    std::unique_ptr<detail::HashKeyReserve> keys_;
};

}  // namespace onnximport
