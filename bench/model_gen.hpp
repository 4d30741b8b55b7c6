// The generated benchmark models: written once, deterministically, into the
// bench directory, streaming the weights so a 1 GiB model never sits in memory.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace gauntlet::bench {

/// The generated models by name: "big", "big-external", "wide", "reversed".
const std::vector<std::string>& generated_model_names();

/// The weights of tensor W<index> of the big models, as generated (for verification).
void fill_weights(int index, std::vector<float>& buf);

/// Writes every generated model into dir unless a stamp shows the same generator
/// version already wrote it. Returns the paths of the .onnx files.
std::vector<std::filesystem::path> generate_models(const std::filesystem::path& dir, bool force);

}  // namespace gauntlet::bench
