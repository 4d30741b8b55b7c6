// io/unique_fd.hpp
#include "io/unique_fd.hpp"

#include <unistd.h>

namespace onnximport::detail {

UniqueFd::~UniqueFd() {
    if (fd_ >= 0) ::close(fd_);
}

UniqueFd& UniqueFd::operator=(UniqueFd&& o) noexcept {
    if (this != &o) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = o.release();
    }
    return *this;
}

}  // namespace onnximport::detail
