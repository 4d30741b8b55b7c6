// External data (spec section 5): find every external tensor, check its entries, then
// open its file beneath the directory and point the tensor into it (external/files.hpp).
#include "external/external_data.hpp"

#include "external/files.hpp"
#include "external/location.hpp"
#include "model/visit.hpp"

#include <string>

namespace onnximport::detail {

namespace {

/// The .onnx references: each tensor's external_data entries name a file and a range.
class Loader {
public:
    Loader(Storage& s, const ImportOptions& options, const std::filesystem::path* dir)
        : dir_(dir), files_(s, options, dir, "external_data") {}

    void tensor(TensorView& t) {
        if (t.source == TensorSource::External) load(t);
    }
    void read_ranges() { files_.read_ranges(); }

private:
    const std::filesystem::path* dir_;
    ExternalFiles files_;

    void load(TensorView& t) {
        ExternalRef ref;
        if (auto bad = parse_entries(t.external_data, ref)) files_.refuse_reference(t, *bad);
        const std::string q = quoted_text(ref.location);
        const uint64_t expected = t.byte_size();
        if (ref.length && *ref.length != expected)
            files_.refuse_reference(t, "external data length " + std::to_string(*ref.length) +
                                           " does not match the tensor's expected length " + std::to_string(expected) +
                                           " (location " + q + ")");
        if (!dir_)
            files_.fail(
                t, ErrorKind::ExternalData, {},
                "external data " + q +
                    " cannot be resolved: the model was imported from bytes and no external-data directory was named");
        files_.bind(t, files_.open(t, ref.location), ref.offset, ref.location);
    }
};

}  // namespace

void load_external_data(Storage& storage, const ImportOptions& options, const ExternalPlace& place) {
    if (storage.has_external_tensors) {
        Loader loader(storage, options, place.dir);
        visit_model(storage.proto, [](Graph&) {}, [&](TensorView& t) { loader.tensor(t); });
        loader.read_ranges();
    }
    if (!storage.ort_external.empty()) load_ort_companion(storage, options, place);
}

}  // namespace onnximport::detail
