// The hash-flooding models (docs/performance.md, "hash flooding"): for each map keyed by input bytes (opset domains,
// captured outer names, value names, external-data locations), a model with 2^15 names
// crafted to collide under libstdc++'s std::hash and its twin with ordinary names of the
// same count and length; and value names colliding under the importer's old hash_name.
#pragma once

#include <filesystem>
#include <vector>

namespace gauntlet::bench {

/// Names per model.
constexpr size_t flood_names = size_t{1} << 15;

/// Writes the flooding models into dir unless its stamp shows this generator wrote them.
/// Returns the model paths: for each kind, crafted then ordinary; then values-oldhash and
/// the 2^14-name external pair.
std::vector<std::filesystem::path> generate_flood_models(const std::filesystem::path& dir, bool force);

}  // namespace gauntlet::bench
