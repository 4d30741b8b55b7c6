// Opening and reading the model input (input.hpp).
#include "io/input.hpp"

#include "core/pool.hpp"
#include "core/refusal.hpp"
#include "io/payloads.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace onnximport::detail {

namespace {

[[noreturn]] void io_error(const std::string& name, const std::string& what, int error) {
    refuse(ErrorKind::Io, name, std::nullopt, {}, what + ": " + std::strerror(error));
}

[[noreturn]] void too_large(const std::string& name, uint64_t size) {
    refuse(ErrorKind::Unsupported, name, std::nullopt, {},
           "model of " + std::to_string(size) +
               " bytes exceeds protobuf's limit of 2^31-1 bytes; keep weights in external data");
}

const char* kind_of_file(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
    return "not a regular file";
}

[[noreturn]] void not_regular(const std::string& name, mode_t mode) {
    refuse(ErrorKind::Io, name, std::nullopt, {}, std::string("the model path is ") + kind_of_file(mode));
}

/// Opens `path` for reading once stat says it is a regular file, then checks that what was
/// opened is that file (rule D8): a FIFO, socket or device at the path is refused without
/// being opened. One swapped in between the two steps is opened non-blocking and without
/// becoming a controlling terminal, so it cannot make us wait, and is refused unread.
/// Three calls where an O_PATH descriptor reopened through /proc took five and a walk of
/// /proc (docs/performance-history.md, "Opening the model file and the hash key").
UniqueFd open_regular(const std::filesystem::path& path, const std::string& name, struct stat& st) {
    struct stat at_path {};
    if (::stat(path.c_str(), &at_path) != 0) io_error(name, "cannot open the model file", errno);
    if (!S_ISREG(at_path.st_mode)) not_regular(name, at_path.st_mode);
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
    if (!fd) io_error(name, "cannot open the model file", errno);
    if (::fstat(fd.get(), &st) != 0) io_error(name, "cannot stat the model file", errno);
    if (!S_ISREG(st.st_mode)) not_regular(name, st.st_mode);
    if (FileId::of(st) != FileId::of(at_path))
        refuse(ErrorKind::Io, name, std::nullopt, {}, "the model path changed to another file while it was opened");
    return fd;
}

[[noreturn]] void read_failed(const std::string& name, int error) {
    if (error == ENODATA) refuse(ErrorKind::Io, name, std::nullopt, {}, "the model file shrank while it was read");
    io_error(name, "cannot read the model file", error);
}

/// Reads `size` bytes (the file's fstat size) into buffer: in disjoint ranges on up to
/// `threads` threads when the file is large enough for that to pay (io/payloads.hpp), else
/// with one read and nothing else allocated (most models are small).
void read_known(const FileView& file, const std::string& name, uint64_t size, unsigned threads,
                std::unique_ptr<uint8_t[]>& buffer) {
    buffer.reset(new uint8_t[size]);
    const unsigned n = size >= parallel_min_bytes ? std::max(threads, 1u) : 1u;
    if (n == 1) {
        if (int e = file.read_exact(0, buffer.get(), size)) read_failed(name, e);
        return;
    }
    std::vector<int> errors(n, 0);
    run_shares(n, size, share_grain, [&](unsigned share, uint64_t b, uint64_t e) {
        errors[share] = file.read_exact(b, buffer.get() + b, e - b);
    });
    for (int e : errors)  // the first range's failure, as one read from the start would meet it
        if (e) read_failed(name, e);
}

/// A file whose size fstat reports as 0 may still hold bytes (a /proc file): read to its end,
/// growing with what arrives, never past the size limit.
void read_to_end(int fd, const std::string& name, std::vector<uint8_t>& out) {
    out.resize(64 * 1024);
    uint64_t done = 0;
    for (;;) {
        if (done == out.size()) {
            if (done > max_model_bytes) too_large(name, done);
            out.resize(std::min<uint64_t>(2 * done, max_model_bytes + 1));
        }
        ssize_t n = ::read(fd, out.data() + done, out.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) io_error(name, "cannot read the model file", errno);
        if (n == 0) break;
        done += static_cast<uint64_t>(n);
    }
    if (done > max_model_bytes) too_large(name, done);
    out.resize(done);
}

/// Where an empty input points: offsets need a base even when there are no bytes.
constexpr uint8_t no_bytes[1] = {0};

const uint8_t* base_of(const uint8_t* data) { return data ? data : no_bytes; }

}  // namespace

ModelInput ModelInput::open_file(const std::filesystem::path& path, const std::string& name, LoadMode mode,
                                 uint64_t map_threshold, unsigned threads) {
    struct stat st {};
    UniqueFd fd = open_regular(path, name, st);
    const auto size = static_cast<uint64_t>(st.st_size);
    if (size > max_model_bytes) too_large(name, size);
    ModelInput in;
    in.file_id_ = FileId::of(st);
    if (size == 0) {
        read_to_end(fd.get(), name, in.owned_);
        in.data_ = base_of(in.owned_.data());
        in.size_ = in.owned_.size();
        return in;
    }
    const bool map = mode == LoadMode::Map || (mode == LoadMode::Auto && size > map_threshold);
    auto file = std::make_unique<FileView>(std::move(fd), size, map);
    if (file->data()) {
        // Without advice, a cold read of each tensor header reads ahead into the weights
        // around it (spec section 6 notes the inflated resident size).
        file->advise_random();
        in.data_ = file->data();
        in.size_ = size;
        in.mapping_ = std::move(file);
        return in;
    }
    read_known(*file, name, size, threads, in.buffer_);  // not mapped: asked so, or mapping failed
    in.data_ = in.buffer_.get();
    in.size_ = size;
    return in;
}

ModelInput ModelInput::borrow(std::span<const uint8_t> bytes, const std::string& name) {
    if (bytes.size() > max_model_bytes) too_large(name, bytes.size());
    ModelInput in;
    in.data_ = base_of(bytes.data());
    in.size_ = bytes.size();
    return in;
}

ModelInput ModelInput::take(std::vector<uint8_t>&& bytes, const std::string& name) {
    if (bytes.size() > max_model_bytes) too_large(name, bytes.size());
    ModelInput in;
    in.owned_ = std::move(bytes);
    in.data_ = base_of(in.owned_.data());
    in.size_ = in.owned_.size();
    return in;
}

void ModelInput::drop_pages() const noexcept {
    if (is_mapped()) mapping_->drop_pages(data_, data_ + size_);
}

}  // namespace onnximport::detail
