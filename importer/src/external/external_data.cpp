// External data (spec section 5): find every external tensor, check its entries, open
// its file beneath the directory, check the range, and point the tensor into the file.
#include "external/external_data.hpp"

#include "external/location.hpp"
#include "external/safe_open.hpp"
#include "storage.hpp"

#include <onnximport/error.hpp>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_map>

namespace onnximport::detail {

namespace {

std::atomic<bool> map_files{true};

class Loader {
public:
    Loader(Model& model, const std::filesystem::path* dir) : s_(model.storage()), dir_(dir) {}

    ~Loader() {
        // Bytes are in place by now: mapped files need no descriptor, and read ranges
        // were copied out. Keeping none open avoids EMFILE on many-file models.
        for (auto& [id, file] : s_.external_files) file->drop_descriptor();
    }

    void model(Model& m) {
        if (m.graph) graph(*m.graph);
        for (auto& ti : m.training_info) {
            if (ti.initialization) graph(*ti.initialization);
            if (ti.algorithm) graph(*ti.algorithm);
        }
        for (auto& f : m.functions) {
            for (auto& n : f.nodes) attributes(n.attributes);
            attributes(f.attribute_protos);
        }
    }

private:
    Storage& s_;
    const std::filesystem::path* dir_;
    UniqueFd dirfd_;
    /// Within one import, a location opened once is not opened again (many tensors
    /// usually share one file; this saves a lookup per tensor).
    std::unordered_map<std::string_view, MappedFile*> by_location_;

    void graph(Graph& g) {
        for (auto& t : g.initializers) tensor(t);
        for (auto& st : g.sparse_initializers) sparse(st);
        for (auto& n : g.nodes) attributes(n.attributes);
    }

    void attributes(List<Attribute>& attrs) {
        for (auto& a : attrs) {
            AttributeFields* f = a.fields;
            if (!f) continue;  // scalars only
            if (f->t) tensor(*f->t);
            for (auto& t : f->tensors) tensor(t);
            if (f->sparse_tensor) sparse(*f->sparse_tensor);
            for (auto& st : f->sparse_tensors) sparse(st);
            if (f->g) graph(*f->g);
            for (auto& sub : f->graphs) graph(sub);
        }
    }

    void sparse(SparseTensor& st) {
        tensor(st.values);
        tensor(st.indices);
    }

    /// The choke point of section 5: every refusal names the tensor's path and offset.
    [[noreturn]] void fail(const TensorView& t, ErrorKind kind, std::string_view leaf, const std::string& message) const {
        std::string path(t.field_path);
        if (!leaf.empty()) path += "." + std::string(leaf);
        throw ImportError(kind, s_.source_name, t.offset, std::move(path), message);
    }

    void tensor(TensorView& t) {
        if (t.source != TensorSource::External) return;
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
            t.set_bytes(reinterpret_cast<const std::byte*>(base + ref.offset), expected, &s_);
        } else if (expected == 0) {
            t.set_bytes(nullptr, 0, &s_);
        } else {
            // The length is at most 2^31-1 (the reader refused bigger tensors from the
            // dims) and fits in the file (checked above): never sized from a bare number.
            std::byte* dst = s_.allocate_owned(static_cast<size_t>(expected));
            if (int e = file.read_exact(ref.offset, dst, expected))
                fail(t, ErrorKind::Io, {},
                     e == ENODATA ? "external data file " + q + " shrank while it was read"
                                  : "cannot read external data file " + q + ": " + std::strerror(e));
            t.set_bytes(dst, expected, &s_);
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
        OpenOutcome o = open_beneath(directory(t, q), location);
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
            it->second = std::make_unique<MappedFile>(o.fd.release(), static_cast<uint64_t>(o.st.st_size),
                                                      map_files.load());
        }
        by_location_.emplace(location, it->second.get());
        return *it->second;
    }
};

}  // namespace

void set_map_external_files(bool map) noexcept { map_files.store(map); }

void load_external_data(Model& model, const ImportOptions&, const std::filesystem::path* dir) {
    if (!model.storage().has_external_tensors) return;
    Loader loader(model, dir);
    loader.model(model);
}

}  // namespace onnximport::detail
