// A private memory mapping of an opened file descriptor (spec sections 5 and 6).
#include "external/mapped_file.hpp"

#include <cerrno>
#include <sys/mman.h>
#include <unistd.h>

namespace onnximport::detail {

MappedFile::MappedFile(int fd, uint64_t size, bool map, bool copy_on_write) : fd_(fd), size_(size) {
    if (!map || size == 0) return;
    // A writable private mapping is charged in full against the commit limit where the
    // system does not overcommit (vm.overcommit_memory=2): then it is refused, and a
    // read-only one still is not.
    void* p = MAP_FAILED;
    if (copy_on_write) p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_NORESERVE, fd, 0);
    copy_on_write_ = p != MAP_FAILED;
    if (p == MAP_FAILED) p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p != MAP_FAILED) addr_ = p;
}

MappedFile::~MappedFile() { release(); }

void MappedFile::release() noexcept {
    if (addr_) ::munmap(addr_, size_);
    addr_ = nullptr;
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
}

void MappedFile::advise_random() const noexcept {
    if (addr_) ::madvise(addr_, size_, MADV_RANDOM);
}

void MappedFile::drop_pages() const noexcept {
    if (addr_) ::madvise(addr_, size_, MADV_DONTNEED);
}

void MappedFile::drop_descriptor() noexcept {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
}

int MappedFile::read_exact(uint64_t offset, void* dst, uint64_t length) const noexcept {
    if (fd_ < 0) return EBADF;
    auto* out = static_cast<uint8_t*>(dst);
    uint64_t done = 0;
    while (done < length) {
        ssize_t n = ::pread(fd_, out + done, length - done, static_cast<off_t>(offset + done));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return errno;
        if (n == 0) return ENODATA;  // the file is shorter than its fstat said: it shrank
        done += static_cast<uint64_t>(n);
    }
    return 0;
}

}  // namespace onnximport::detail
