// The .ort companion file (docs/ort.md, "External data"): the project's own extension.
// Every .ort tensor with external_data_offset >= 0 has its bytes at that offset of one
// file, named by the import (ExternalPlace::ort_companion), opened beneath the
// external-data directory like a .onnx location, once per Model.
#include "external/external_data.hpp"

#include "external/files.hpp"
#include "external/location.hpp"

#include <string>

namespace onnximport::detail {

namespace {

/// Why no companion file can be named for bytes (ImportOptions says which is missing).
std::string why_unnamed(const ImportOptions& options) {
    std::string unset;
    if (!options.external_data_dir) unset = "external_data_dir";
    if (!options.ort_external_data) unset += std::string(unset.empty() ? "" : ", ") + "ort_external_data";
    return "this .ort tensor's bytes are in a companion file, and a model imported from bytes names one only when "
           "both ImportOptions::external_data_dir and ort_external_data are set (not set: " +
           unset + ")";
}

}  // namespace

void load_ort_companion(Storage& storage, const ImportOptions& options, const ExternalPlace& place) {
    ExternalFiles files(storage, options, place.dir, "external_data_offset");
    // Refusals about the file itself name the first tensor that needs it.
    const TensorView& first = *storage.ort_external.front().tensor;
    if (!place.dir || !place.ort_companion) files.refuse_reference(first, why_unnamed(options));
    const std::string location = place.ort_companion->string();
    if (auto bad = check_location(location))
        files.refuse_reference(first, "the .ort companion file cannot be opened: " + *bad);
    const MappedFile& file = files.open(first, location);
    for (const Storage::CompanionRange& r : storage.ort_external) files.bind(*r.tensor, file, r.offset, location);
}

}  // namespace onnximport::detail
