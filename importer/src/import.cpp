// The entry points: open or take the input (spec section 6), read the messages
// (sections 1-3), load external data (section 5), resolve the graph (section 4).
#include "external/external_data.hpp"
#include "onnx/fields.hpp"
#include "resolve/resolve.hpp"
#include "storage.hpp"

#include <onnximport/import.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <new>
#include <stdexcept>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace onnximport {

namespace detail {

namespace {

/// Faults in the page holding p by itself. A read of a page not yet mapped makes the
/// kernel map up to 16 pages around it (fault-around, which MADV_RANDOM does not turn
/// off), pages the release below then has to unmap again: for a model with a weight
/// payload between every two tensor headers, those two steps were most of the import.
/// A write access to a private mapping instead copies just that page for this process
/// (copy-on-write). The write is a compare-exchange of 0 with 0: it changes nothing (a
/// byte that is not 0 is left as it is), yet the processor performs it as a write.
void fault_in_alone(const uint8_t* p) noexcept {
    uint8_t expected = 0;
    __atomic_compare_exchange_n(const_cast<uint8_t*>(p), &expected, uint8_t{0}, false, __ATOMIC_RELAXED,
                                __ATOMIC_RELAXED);
}

}  // namespace

void release_passed_input(const Storage& storage, const uint8_t* begin, const uint8_t* end) noexcept {
    // Only the importer's own private mapping of the model file: dropping its pages loses
    // nothing (the next access faults them in again from the file, a page it wrote to
    // included: the write changed nothing). A caller's array (import_bytes) is never touched.
    if (!storage.input_mapping || !storage.input) return;
    // What follows the payload (usually the next tensor's header) is read next.
    if (storage.input_mapping->copy_on_write() && end < storage.input + storage.input_size) fault_in_alone(end);
    static const uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
    // The pages behind the reader are still released: the copied pages, and the pages
    // fault-around maps where fault_in_alone was not used (the first tensor, a header that
    // crosses a page boundary). Each call costs a walk of the range and a TLB flush, so
    // releases are batched without any state: only a payload that crosses a multiple of
    // `chunk` (from the input's start) releases, from 128 KiB before the previous multiple
    // to its own last whole page. Every run of large payloads is covered; RSS stays within
    // one chunk's headers: a page each, 64 KiB each at worst (every header across a page
    // boundary), so at most 17 MiB for a chunk of 256 KiB payloads. 8 MiB chunks took about
    // a quarter longer on the 1 GiB model (gauntlet_bench run); 32 to 512 MiB measured alike.
    constexpr uintptr_t chunk = 64u << 20, behind = 128 * 1024;
    const auto base = reinterpret_cast<uintptr_t>(storage.input);
    const uintptr_t b = reinterpret_cast<uintptr_t>(begin) - base, e = reinterpret_cast<uintptr_t>(end) - base;
    if (b / chunk == e / chunk) return;
    uintptr_t from = std::min(b, (e / chunk - 1) * chunk);
    from = from > behind ? (from - behind) & ~(page - 1) : 0;
    const uintptr_t to = e & ~(page - 1);
    if (to > from) ::madvise(reinterpret_cast<void*>(base + from), to - from, MADV_DONTNEED);
}

}  // namespace detail

namespace {

/// protobuf's own limit on a message (spec section 1, "Size").
constexpr uint64_t max_model_bytes = 0x7FFFFFFFu;

static_assert(std::endian::native == std::endian::little, "the raw layout is read in place: little-endian hosts only");

void check_options(const ImportOptions& o) {
    if (o.max_nesting < ImportOptions::min_nesting_limit || o.max_nesting > ImportOptions::max_nesting_limit)
        throw std::invalid_argument("max_nesting must be between 8 and 250");
}

[[noreturn]] void io_error(const std::string& name, const std::string& what) {
    throw ImportError(ErrorKind::Io, name, std::nullopt, {}, what + ": " + std::strerror(errno));
}

void check_size(const std::string& name, uint64_t size) {
    if (size > max_model_bytes)
        throw ImportError(ErrorKind::Unsupported, name, std::nullopt, {},
                          "model of " + std::to_string(size) +
                              " bytes exceeds protobuf's limit of 2^31-1 bytes; keep weights in external data");
}

/// Reads the messages, then the external data, then resolves.
void read_into(Model& m, const ImportOptions& o, const std::filesystem::path* model_dir) {
    auto& s = m.storage();
    detail::Context c(s, s.input, s.input_size, o.max_nesting, "ModelProto");
    c.may_split = o.parallel_read;
    detail::Reader r(c, s.input, s.input + s.input_size);
    try {
        detail::read_model(c, r, m);
        if (o.load_external_data) detail::load_external_data(m, o, model_dir);
        if (o.resolve) detail::resolve_model(m);
    } catch (const std::bad_alloc&) {
        // The graph grows with what the input holds (never with a declared length), but a
        // large input of tiny messages can still need more memory than there is.
        throw ImportError(ErrorKind::Unsupported, s.source_name, std::nullopt, {},
                          "the model's graph does not fit in memory");
    }
}

}  // namespace

Model import_file(const std::filesystem::path& path, const ImportOptions& options) {
    check_options(options);
    Model m;
    auto& s = m.storage();
    s.source_name = path.string();
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) io_error(s.source_name, "cannot open the model file");
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        ::close(fd);
        io_error(s.source_name, "cannot stat the model file");
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        throw ImportError(ErrorKind::Io, s.source_name, std::nullopt, {}, "the model path is not a regular file");
    }
    uint64_t size = static_cast<uint64_t>(st.st_size);
    if (size > max_model_bytes) ::close(fd);
    check_size(s.source_name, size);

    bool map = options.load_mode == LoadMode::Map ||
               (options.load_mode == LoadMode::Auto && size > options.map_threshold);
    auto file = std::make_unique<detail::MappedFile>(fd, size, map, /*copy_on_write=*/true);
    if (file->data()) {
        // Without advice, a cold read of each tensor header reads ahead into the weights
        // around it (spec section 6 notes the inflated resident size). MADV_RANDOM turns
        // read-ahead off; the pages that fault-around still maps next to each header are
        // released behind the reader (release_passed_input above).
        file->advise_random();
        s.input = file->data();
        s.input_mapping = std::move(file);
    } else {
        // Read: the buffer's size is the file's real size, already below the limit.
        s.input_buffer.reset(new uint8_t[size ? size : 1]);
        uint64_t done = 0;
        while (done < size) {
            ssize_t n = ::pread(file->fd(), s.input_buffer.get() + done, size - done, static_cast<off_t>(done));
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) io_error(s.source_name, "cannot read the model file");
            if (n == 0) throw ImportError(ErrorKind::Io, s.source_name, done, {}, "the model file shrank while it was read");
            done += static_cast<uint64_t>(n);
        }
        s.input = s.input_buffer.get();
    }
    s.input_size = size;
    std::filesystem::path dir = options.external_data_dir ? *options.external_data_dir : path.parent_path();
    if (dir.empty()) dir = ".";
    read_into(m, options, &dir);
    return m;
}

Model import_bytes(std::span<const uint8_t> bytes, std::string_view name, const ImportOptions& options) {
    check_options(options);
    Model m;
    auto& s = m.storage();
    s.source_name = std::string(name);
    check_size(s.source_name, bytes.size());
    s.input = bytes.data();
    s.input_size = bytes.size();
    const std::filesystem::path* dir = options.external_data_dir ? &*options.external_data_dir : nullptr;
    read_into(m, options, dir);
    return m;
}

Model import_tensor_bytes(std::span<const uint8_t> bytes, std::string_view name, const ImportOptions& options) {
    check_options(options);
    Model m;
    auto& s = m.storage();
    s.source_name = std::string(name);
    check_size(s.source_name, bytes.size());
    s.input = bytes.data();
    s.input_size = bytes.size();
    m.graph = s.arena.make<Graph>();
    detail::Context c(s, s.input, s.input_size, options.max_nesting, "TensorProto");
    detail::Reader r(c, s.input, s.input + s.input_size);
    detail::read_tensor(c, r, s.input, detail::ListAccess::append(s.arena, m.graph->initializers));
    return m;
}

}  // namespace onnximport
