// A read-only view of an opened file, mapped or read with pread (file_view.hpp).
#include "io/file_view.hpp"

#include <cerrno>
#include <sys/mman.h>
#include <unistd.h>
#include <utility>

namespace onnximport::detail {

FileView::FileView(UniqueFd fd, uint64_t size, bool map) : fd_(std::move(fd)), size_(size) {
    if (!map || size == 0) return;
    void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd_.get(), 0);
    if (p == MAP_FAILED) return;  // read ranges instead
    addr_ = p;
    fd_ = UniqueFd();
}

FileView::~FileView() { unmap_and_close(); }

void FileView::unmap_and_close() noexcept {
    if (addr_) ::munmap(addr_, size_);
    addr_ = nullptr;
    fd_ = UniqueFd();
}

void FileView::advise_random() const noexcept {
    if (addr_) ::madvise(addr_, size_, MADV_RANDOM);
}

void FileView::drop_pages(const uint8_t* begin, const uint8_t* end) const noexcept {
    const auto page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
    const uintptr_t from = (reinterpret_cast<uintptr_t>(begin) + page - 1) & ~(page - 1);
    const uintptr_t to = reinterpret_cast<uintptr_t>(end) & ~(page - 1);
    if (addr_ && to > from) ::madvise(reinterpret_cast<void*>(from), to - from, MADV_DONTNEED);
}

int FileView::read_exact(uint64_t offset, void* dst, uint64_t length) const noexcept {
    if (!fd_) return EBADF;
    auto* out = static_cast<uint8_t*>(dst);
    uint64_t done = 0;
    while (done < length) {
        ssize_t n = ::pread(fd_.get(), out + done, length - done, static_cast<off_t>(offset + done));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return errno;
        if (n == 0) return ENODATA;  // the file is shorter than its fstat said: it shrank
        done += static_cast<uint64_t>(n);
    }
    return 0;
}

}  // namespace onnximport::detail
