// The .ort companion file (docs/ort.md, "External data"): the project's own extension.
// Every .ort tensor with external_data_offset >= 0 has its bytes at that offset of one
// file, opened beneath the external-data directory like a .onnx location, once per Model.
// Its name (rule O7): the caller's (ImportOptions::ort_external_data), else the one the
// model's metadata gives (Storage::ort_companion_named), else the model file's plus ".data".
#include "external/external_data.hpp"

#include "external/files.hpp"
#include "external/location.hpp"

#include <optional>
#include <string>

namespace onnximport::detail {

namespace {

/// Why no companion file can be named for bytes (ImportOptions says which is missing).
std::string why_unnamed(const ImportOptions& options) {
    std::string unset;
    if (!options.external_data_dir) unset = "external_data_dir";
    if (!options.ort_external_data) unset += std::string(unset.empty() ? "" : ", ") + "ort_external_data";
    return "this .ort tensor's bytes are in a companion file, and a model imported from bytes names one only when "
           "ImportOptions::external_data_dir is set and the model or ort_external_data names the file (not set: " +
           unset + ")";
}

/// The companion's name, or nothing for bytes whose options and model name none.
std::optional<std::string> companion_name(const Storage& storage, const ImportOptions& options,
                                          const ExternalPlace& place) {
    if (!place.dir) return std::nullopt;
    if (options.ort_external_data) return options.ort_external_data->string();
    if (!storage.ort_companion_named.empty()) return std::string(storage.ort_companion_named);
    if (!place.model_file) return std::nullopt;
    return place.model_file->filename().string() + ".data";
}

}  // namespace

void load_ort_companion(Storage& storage, const ImportOptions& options, const ExternalPlace& place) {
    ExternalFiles files(storage, options, place.dir, "external_data_offset");
    // Refusals about the file itself name the first tensor that needs it.
    const TensorView& first = *storage.ort_external.front().tensor;
    const std::optional<std::string> name = companion_name(storage, options, place);
    if (!name) files.refuse_reference(first, why_unnamed(options));
    const std::string& location = *name;
    if (auto bad = check_location(location))
        files.refuse_reference(first, "the .ort companion file cannot be opened: " + *bad);
    const FileView& file = files.open(first, location);
    for (const Storage::CompanionRange& r : storage.ort_external) files.bind(*r.tensor, file, r.offset, location);
    files.read_ranges();
}

}  // namespace onnximport::detail
