// The two verdicts the .ort suites compare (docs/ort.md, "One walk that checks where it
// reads"): FlatBuffers' generated Verifier, the oracle of structure, with its limits raised
// to the walk's own, and the importer's answer, a refusal or none.
#pragma once

#include <onnximport/import.hpp>
#include <ort_generated.h>

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace ort_test {

using namespace onnximport;

/// The oracle with the limits of our own walk: max_nesting deep, and as many tables as the
/// walk's budget holds at 32 bytes each (rule O15; uncapped, a rewritten offset can make
/// the tables a tree of exponential size).
inline bool generated_verifies(const std::vector<uint8_t>& b) {
    flatbuffers::Verifier::Options limits;
    limits.max_depth = static_cast<flatbuffers::uoffset_t>(ImportOptions{}.max_nesting);
    limits.max_tables = static_cast<flatbuffers::uoffset_t>((16 * b.size() + (1u << 20)) / 32);
    flatbuffers::Verifier v(b.data(), b.size(), limits);
    return ortfb::VerifyInferenceSessionBuffer(v);
}

/// The importer's refusal of `b` read as `format`, or none when it imports.
inline std::optional<ImportError> refusal(const std::vector<uint8_t>& b, ModelFormat format = ModelFormat::Ort) {
    ImportOptions o;
    o.format = format;
    o.load_external_data = false;
    try {
        import_bytes(std::span<const uint8_t>(b), "mutant.ort", o);
    } catch (const ImportError& e) {
        return e;
    }
    return std::nullopt;
}

}  // namespace ort_test
