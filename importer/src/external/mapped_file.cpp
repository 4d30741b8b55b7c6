// A read-only memory mapping of an opened file descriptor (spec sections 5 and 6).
#include "external/mapped_file.hpp"

#include <sys/mman.h>
#include <unistd.h>

namespace onnximport::detail {

MappedFile::MappedFile(int fd, uint64_t size, bool map) : fd_(fd), size_(size) {
    if (map && size > 0) {
        void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p != MAP_FAILED) addr_ = p;
    }
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

}  // namespace onnximport::detail
