// A replaced global operator new/delete that counts what the benchmark child allocates:
// the bytes the import allocates on the heap (docs/performance.md). Every form of operator
// new funnels into count(); storage comes from malloc, so both our importer and libprotobuf
// are measured the same way. C-level malloc calls (the Python peer, stdio) are not counted:
// the figure is C++ heap use.
#include "measure.hpp"

#include <atomic>
#include <cstdlib>
#include <new>

namespace {

std::atomic<uint64_t> g_bytes{0};
std::atomic<uint64_t> g_calls{0};

void* counted(std::size_t n) {
    g_bytes.fetch_add(n, std::memory_order_relaxed);
    g_calls.fetch_add(1, std::memory_order_relaxed);
    return std::malloc(n ? n : 1);
}

void* counted_aligned(std::size_t n, std::align_val_t al) {
    g_bytes.fetch_add(n, std::memory_order_relaxed);
    g_calls.fetch_add(1, std::memory_order_relaxed);
    std::size_t a = static_cast<std::size_t>(al);
    if (a < sizeof(void*)) a = sizeof(void*);
    void* p = nullptr;
    if (::posix_memalign(&p, a, n ? n : 1) != 0) return nullptr;
    return p;
}

}  // namespace

namespace gauntlet::bench {
HeapCounters heap_counters() noexcept {
    return {g_bytes.load(std::memory_order_relaxed), g_calls.load(std::memory_order_relaxed)};
}
}  // namespace gauntlet::bench

void* operator new(std::size_t n) {
    if (void* p = counted(n)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n) {
    if (void* p = counted(n)) return p;
    throw std::bad_alloc();
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return counted(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return counted(n); }
void* operator new(std::size_t n, std::align_val_t al) {
    if (void* p = counted_aligned(n, al)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n, std::align_val_t al) {
    if (void* p = counted_aligned(n, al)) return p;
    throw std::bad_alloc();
}
void* operator new(std::size_t n, std::align_val_t al, const std::nothrow_t&) noexcept {
    return counted_aligned(n, al);
}
void* operator new[](std::size_t n, std::align_val_t al, const std::nothrow_t&) noexcept {
    return counted_aligned(n, al);
}

void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
