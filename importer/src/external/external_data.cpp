// External data (spec section 5): find every external tensor, check its entries, open
// its file beneath the directory, check the range, and point the tensor into the file.
#include "external/external_data.hpp"

#include "core/hash.hpp"
#include "core/refusal.hpp"
#include "external/location.hpp"
#include "external/safe_open.hpp"
#include "model/access.hpp"
#include "model/storage.hpp"
#include "model/visit.hpp"

#include <onnximport/error.hpp>

#include <cerrno>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_map>

namespace onnximport::detail {

namespace {

class Loader {
public:
    Loader(Storage& s, const ImportOptions& options, const std::filesystem::path* dir)
        : s_(s), options_(options), dir_(dir), by_location_(8, NameHash{s.hash_key}) {}

    ~Loader() {
        // Bytes are in place by now: files read without a mapping need no descriptor.
        for (auto& [id, file] : s_.external_files) file->close_descriptor();
    }

    void tensor(TensorView& t) {
        if (t.source == TensorSource::External) load(t);
    }

private:
    Storage& s_;
    const ImportOptions& options_;
    const std::filesystem::path* dir_;
    UniqueFd dirfd_;
    /// Within one import, a location opened once is not opened again (many tensors
    /// usually share one file; this saves a lookup per tensor). Keyed by input bytes:
    /// hashed with the import's key (core/hash.hpp).
    std::unordered_map<std::string_view, MappedFile*, NameHash> by_location_;

    /// Every refusal of section 5 names the tensor's path and offset.
    [[noreturn]] void fail(const TensorView& t, ErrorKind kind, std::string_view leaf, const std::string& message) const {
        std::string path(ModelAccess::field_path(t));
        if (!leaf.empty()) path.append(".").append(leaf);
        refuse(kind, s_.source_name, t.offset, std::move(path), message);
    }

    void load(TensorView& t) {
        ExternalRef ref;
        if (auto bad = parse_entries(t.external_data, ref)) fail(t, ErrorKind::ExternalData, "external_data", *bad);
        const std::string q = quoted_text(ref.location);
        const uint64_t expected = t.byte_size();
        if (ref.length && *ref.length != expected)
            fail(t, ErrorKind::ExternalData, "external_data",
                 "external data length " + std::to_string(*ref.length) + " does not match the tensor's expected length " +
                     std::to_string(expected) + " (location " + q + ")");
        if (!dir_)
            fail(t, ErrorKind::ExternalData, {},
                 "external data " + q +
                     " cannot be resolved: the model was imported from bytes and no external-data directory was named");

        MappedFile& file = open_file(t, ref.location, q);
        // offset + length <= size, compared without computing a sum that could wrap.
        if (ref.offset > file.size() || expected > file.size() - ref.offset)
            fail(t, ErrorKind::ExternalData, "external_data",
                 "external data range at offset " + std::to_string(ref.offset) + " of length " + std::to_string(expected) +
                     " exceeds the " + std::to_string(file.size()) + " bytes of file " + q);

        if (const uint8_t* base = file.data()) {
            ModelAccess::bind(t, reinterpret_cast<const std::byte*>(base + ref.offset), expected, s_);
        } else if (expected == 0) {
            ModelAccess::bind(t, nullptr, 0, s_);
        } else {
            // The length is at most 2^31-1 (the reader refused bigger tensors from the
            // dims) and fits in the file (checked above): never sized from a bare number.
            std::byte* dst = s_.allocate_owned(static_cast<size_t>(expected));
            if (int e = file.read_exact(ref.offset, dst, expected))
                fail(t, ErrorKind::Io, {},
                     e == ENODATA ? "external data file " + q + " shrank while it was read"
                                  : "cannot read external data file " + q + ": " + std::strerror(e));
            ModelAccess::bind(t, dst, expected, s_);
        }
    }

    int directory(const TensorView& t, const std::string& q) {
        if (dirfd_) return dirfd_.get();
        OpenOutcome d = open_directory(*dir_);
        const std::string where = "the external-data directory '" + dir_->string() + "' for location " + q;
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

    MappedFile& open_file(const TensorView& t, std::string_view location, const std::string& q) {
        if (auto it = by_location_.find(location); it != by_location_.end()) return *it->second;
        OpenOutcome o = open_beneath(directory(t, q), location, options_.external_open);
        using S = OpenOutcome::Status;
        const std::string in_dir = " (directory '" + dir_->string() + "')";
        switch (o.status) {
        case S::Opened: break;
        case S::Missing: fail(t, ErrorKind::ExternalData, "external_data", "external data file " + q + " does not exist" + in_dir);
        case S::NotADirectory:
            fail(t, ErrorKind::ExternalData, "external_data",
                 "external data location " + q + " goes through something that is not a directory" + in_dir);
        case S::NotRegular:
            fail(t, ErrorKind::ExternalData, "external_data", "external data location " + q + " is not a regular file" + in_dir);
        case S::Escapes:
            fail(t, ErrorKind::ExternalData, "external_data",
                 "external data location " + q +
                     " leads outside the external-data directory through a symbolic link (or an absolute link)" + in_dir);
        case S::TooManyLinks:
            fail(t, ErrorKind::ExternalData, "external_data",
                 "external data location " + q + " loops through symbolic links or uses too many" + in_dir);
        case S::NameTooLong:
            fail(t, ErrorKind::ExternalData, "external_data", "external data location " + q + " is too long" + in_dir);
        case S::OsError:
            fail(t, ErrorKind::Io, {}, "cannot open external data file " + q + ": " + std::strerror(o.error));
        }
        // Note: a hard link inside the directory to a file that also has a name outside
        // it is accepted; from the directory it is an ordinary file (see safe_open.hpp).
        const Storage::FileId id{static_cast<uint64_t>(o.st.st_dev), static_cast<uint64_t>(o.st.st_ino)};
        auto [it, inserted] = s_.external_files.try_emplace(id);
        if (inserted) {
            // Mapped from the descriptor that was opened and fstat'ed: what was checked is
            // what is read. The size is that same fstat's.
            it->second = std::make_unique<MappedFile>(std::move(o.fd), static_cast<uint64_t>(o.st.st_size),
                                                      options_.map_external_files);
        }
        by_location_.emplace(location, it->second.get());
        return *it->second;
    }
};

}  // namespace

void load_external_data(Storage& storage, const ImportOptions& options, const std::filesystem::path* dir) {
    if (!storage.has_external_tensors) return;
    Loader loader(storage, options, dir);
    visit_model(storage.proto, [](Graph&) {}, [&](TensorView& t) { loader.tensor(t); });
}

}  // namespace onnximport::detail
