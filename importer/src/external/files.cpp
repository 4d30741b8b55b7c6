// The external-data files of one import: open beneath the directory, map once, point
// tensors into the mapping or read their ranges (spec section 5, rules 2, 4 and E8).
#include "external/files.hpp"

#include "core/intervals.hpp"
#include "core/pool.hpp"
#include "core/refusal.hpp"
#include "external/location.hpp"
#include "io/payloads.hpp"
#include "model/access.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>

namespace onnximport::detail {

namespace {

/// The unions of overlapping ranges, in the order of their first read: each read once
/// into its own buffer.
struct SpanReads {
    std::vector<size_t> first;  ///< the span's lowest read, in binding order
    std::vector<const FileView*> files;
    std::vector<uint64_t> sizes;
    std::vector<std::byte*> buffers;
};

struct SpanFailure {
    size_t span = SIZE_MAX;
    int error = 0;
};

/// Reads every span on up to `threads` threads (all on one below parallel_min_bytes);
/// returns the failure of the lowest span that failed, as one thread would meet it first.
SpanFailure read_spans(const std::vector<Interval>& at, const SpanReads& spans, unsigned threads) {
    uint64_t total = 0;
    for (uint64_t size : spans.sizes) total += size;
    const unsigned n = total >= parallel_min_bytes ? threads : 1u;
    std::vector<SpanFailure> failures(n);
    run_pieces(n, spans.sizes, share_grain, [&](unsigned share, size_t k, uint64_t from, uint64_t to) {
        if (failures[share].error) return;  // the share's first failure is its lowest span
        const int e = spans.files[k]->read_exact(at[k].begin + from, spans.buffers[k] + from, to - from);
        if (e) failures[share] = {k, e};
    });
    return *std::min_element(failures.begin(), failures.end(),
                             [](const SpanFailure& a, const SpanFailure& b) { return a.span < b.span; });
}

}  // namespace

ExternalFiles::ExternalFiles(Storage& s, const ImportOptions& options, const std::filesystem::path* dir,
                             std::string_view leaf)
    : s_(s), options_(options), dir_(dir), leaf_(leaf), by_location_(8, NameHash{s.hash_key.get()}) {}

ExternalFiles::~ExternalFiles() {
    for (auto& [id, file] : s_.external_files) file->close_descriptor();
}

void ExternalFiles::fail(const TensorView& t, ErrorKind kind, std::string_view leaf, const std::string& message) const {
    std::string path(ModelAccess::field_path(t));
    if (!leaf.empty()) path.append(".").append(leaf);
    refuse(kind, s_.source_name, t.offset, std::move(path), message);
}

int ExternalFiles::directory_fd(const TensorView& t, const std::string& quoted) {
    if (dirfd_) return dirfd_.get();
    if (!dir_)
        fail(t, ErrorKind::ExternalData, {},
             "external data " + quoted + " cannot be resolved: no external-data directory");
    OpenOutcome d = open_directory(*dir_);
    const std::string where = "the external-data directory '" + dir_->string() + "' for location " + quoted;
    switch (d.status) {
    case OpenOutcome::Status::Opened: break;
    case OpenOutcome::Status::OsError:
        fail(t, ErrorKind::Io, {}, "cannot open " + where + ": " + std::strerror(d.error));
    default:
        fail(t, ErrorKind::ExternalData, {}, where + " cannot be opened as a directory: " + std::strerror(d.error));
    }
    dirfd_ = std::move(d.fd);
    return dirfd_.get();
}

void ExternalFiles::check_opened(const TensorView& t, const OpenOutcome& o, const std::string& quoted) const {
    using S = OpenOutcome::Status;
    const std::string in_dir = " (directory '" + dir_->string() + "')";
    switch (o.status) {
    case S::Opened: return;
    case S::Missing: refuse_reference(t, "external data file " + quoted + " does not exist" + in_dir);
    case S::NotADirectory:
        refuse_reference(t, "external data location " + quoted + " goes through something that is not a directory" +
                                in_dir);
    case S::NotRegular: refuse_reference(t, "external data location " + quoted + " is not a regular file" + in_dir);
    case S::Escapes:
        refuse_reference(
            t, "external data location " + quoted +
                   " leads outside the external-data directory through a symbolic link (or an absolute link)" + in_dir);
    case S::TooManyLinks:
        refuse_reference(t, "external data location " + quoted + " loops through symbolic links or uses too many" +
                                in_dir);
    case S::NameTooLong: refuse_reference(t, "external data location " + quoted + " is too long" + in_dir);
    case S::OsError:
        fail(t, ErrorKind::Io, {}, "cannot open external data file " + quoted + ": " + std::strerror(o.error));
    }
}

FileView& ExternalFiles::open(const TensorView& t, std::string_view location) {
    if (auto it = by_location_.find(location); it != by_location_.end()) return *it->second;
    const std::string quoted = quoted_text(location);
    OpenOutcome o = open_beneath(directory_fd(t, quoted), location, options_.external_open);
    check_opened(t, o, quoted);
    // Note: a hard link inside the directory to a file that also has a name outside
    // it is accepted; from the directory it is an ordinary file (see safe_open.hpp).
    const Storage::FileId id = FileId::of(o.st);
    auto [it, inserted] = s_.external_files.try_emplace(id);
    if (inserted) {
        // Mapped from the descriptor that was opened and fstat'ed: what was checked is
        // what is read. The size is that same fstat's.
        it->second = std::make_unique<FileView>(std::move(o.fd), static_cast<uint64_t>(o.st.st_size),
                                                  options_.map_external_files);
    }
    by_location_.emplace(location, it->second.get());
    return *it->second;
}

void ExternalFiles::bind(TensorView& t, const FileView& file, uint64_t offset, std::string_view location) {
    const uint64_t expected = t.byte_size();
    // offset + length <= size, compared without computing a sum that could wrap.
    if (offset > file.size() || expected > file.size() - offset)
        refuse_reference(t, "external data range at offset " + std::to_string(offset) + " of length " +
                                std::to_string(expected) + " exceeds the " + std::to_string(file.size()) +
                                " bytes of file " + quoted_text(location));
    if (const uint8_t* base = file.data()) {
        ModelAccess::bind(t, reinterpret_cast<const std::byte*>(base + offset), expected, s_);
        return;
    }
    if (expected == 0) {
        ModelAccess::bind(t, nullptr, 0, s_);
        return;
    }
    reads_.push_back({&file, offset, expected, &t, location});
}

void ExternalFiles::read_ranges() {
    std::vector<Interval> places;
    places.reserve(reads_.size());
    for (const RangeRead& r : reads_)
        places.push_back({reinterpret_cast<uintptr_t>(r.file), r.offset, r.offset + r.size});
    const Unions unions = union_of(places);
    // A span's first read is its lowest in binding order: spans come in that order.
    SpanReads spans;
    for (size_t i = 0; i < reads_.size(); ++i) {
        const size_t k = unions.span_of[i];
        if (k != spans.first.size()) continue;
        const Interval& v = unions.spans[k];
        spans.first.push_back(i);
        spans.files.push_back(reads_[i].file);
        spans.sizes.push_back(v.end - v.begin);
        // A union lies inside its file (each range was checked against its size): never
        // sized from a bare number.
        spans.buffers.push_back(s_.allocate_owned(static_cast<size_t>(v.end - v.begin)));
    }
    const SpanFailure failed = read_spans(unions.spans, spans, options_.threads);
    if (failed.error) {
        const RangeRead& r = reads_[spans.first[failed.span]];
        fail(*r.tensor, ErrorKind::Io, {},
             failed.error == ENODATA ? "external data file " + quoted_text(r.location) + " shrank while it was read"
                                     : "cannot read external data file " + quoted_text(r.location) + ": " +
                                           std::strerror(failed.error));
    }
    for (size_t i = 0; i < reads_.size(); ++i) {
        const RangeRead& r = reads_[i];
        const size_t k = unions.span_of[i];
        ModelAccess::bind(*r.tensor, spans.buffers[k] + (r.offset - unions.spans[k].begin), r.size, s_);
    }
    reads_.clear();
}

}  // namespace onnximport::detail
