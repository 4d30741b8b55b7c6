// Which tensors the `.onnx` writer sends to the external-data file, and where.
// Both encoder passes ask in the same order and get the same offsets; the emit pass also
// records what to write there, written afterwards (on several threads when asked).
#pragma once

#include "write/aligned_sink.hpp"

#include <onnximport/model.hpp>
#include <onnximport/write.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace onnximport::detail {

/// One tensor's bytes at its offset; `from` is the end of the blob before (zeros between).
struct ExternalBlob {
    uint64_t from;
    uint64_t offset;
    std::span<const std::byte> bytes;
};

class TensorRouter {
public:
    /// `location`: what the model names (the external file's name chosen, empty for none);
    /// `shown` names the output in refusals.
    TensorRouter(const ExternalData& external, std::string location, std::string shown);

    /// Starts a pass: offsets from 0 again; `record` keeps the blobs (the emit pass).
    void start_pass(bool record);
    /// The external offset of `t`, or nothing when it stays inline. `eligible` is false
    /// where the onnx package would not look for external data (functions, training
    /// graphs, sparse tensors).
    std::optional<uint64_t> route(const TensorView& t, bool eligible);
    /// The bytes of `t` for an inline field.
    /// @throws ImportError(ExternalData) when they were never loaded.
    std::span<const std::byte> inline_bytes(const TensorView& t) const;

    /// Refuses the model as Unsupported, naming the output. @throws ImportError
    [[noreturn]] void refuse(const std::string& message) const;

    const std::string& location() const noexcept { return location_; }
    const std::vector<ExternalBlob>& blobs() const noexcept { return blobs_; }
    uint64_t external_size() const noexcept { return layout_.end(); }
    uint64_t alignment() const noexcept { return layout_.alignment(); }

private:
    std::string location_;
    uint64_t threshold_;
    std::string shown_;
    AlignedLayout layout_;
    bool record_ = false;
    std::vector<ExternalBlob> blobs_;
};

}  // namespace onnximport::detail
