// The .ort writer's entry with the output layer's test seam (write/faults.hpp); the public
// write_ort_file (onnximport/write_ort.hpp) is this with no faults.
#pragma once

#include <onnximport/model.hpp>
#include <onnximport/write_ort.hpp>

#include <filesystem>

namespace onnximport::detail {

struct WriteFaults;

void write_ort(const Model& model, const std::filesystem::path& path, const OrtWriteOptions& options,
               WriteFaults* faults);

}  // namespace onnximport::detail
