// Where a subcommand's model comes from: a file, or standard input for `-` (docs/cli.md).
#pragma once

#include "truncation_guard.hpp"

#include <onnximport/import.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace onnximport::cli {

/// Imports FILE, or standard input when `operand` is "-" (external data is then refused
/// unless options.external_data_dir is set, as for any bytes). A file that shrinks while
/// mapped is the caller's to catch (refusal_of). The Model owns standard input's bytes.
/// @throws ImportError
onnximport::Model load_model(const std::string& operand, const onnximport::ImportOptions& options);

/// The Io refusal of a file that shrank while it was mapped.
onnximport::ImportError truncated_error(const std::string& operand);

/// Runs `work` (an import and whatever reads the model) under a TruncationGuard and
/// returns its refusal, if any; a file that shrank while mapped is refused as Io whatever
/// the work made of the zero pages it then read.
template <class Work>
std::optional<onnximport::ImportError> refusal_of(const std::string& operand, Work&& work) {
    TruncationGuard guard;
    std::optional<onnximport::ImportError> refusal;
    try {
        work();
    } catch (const onnximport::ImportError& e) {
        refusal = e;
    }
    if (guard.truncated()) refusal = truncated_error(operand);
    return refusal;
}

}  // namespace onnximport::cli
