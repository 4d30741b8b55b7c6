// The `.onnx` writer's entry with the output layer's test seam (faults.hpp); the public
// write_onnx_file (onnximport/write.hpp) is this with no faults.
#pragma once

#include <onnximport/model.hpp>
#include <onnximport/write.hpp>

#include <filesystem>

namespace onnximport::detail {

struct WriteFaults;

void write_onnx(const Model& model, const std::filesystem::path& path, const WriteOptions& options,
                WriteFaults* faults);

}  // namespace onnximport::detail
