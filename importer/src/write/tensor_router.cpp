// External or inline, decided the same way in both passes.
#include "write/tensor_router.hpp"

#include "core/text.hpp"
#include "write/write_error.hpp"

namespace onnximport::detail {

TensorRouter::TensorRouter(const ExternalData& external, std::string location, std::string shown)
    : location_(std::move(location)), threshold_(external.threshold), shown_(std::move(shown)),
      layout_(external.alignment, shown_) {}

void TensorRouter::start_pass(bool record) {
    layout_ = AlignedLayout(layout_.alignment(), shown_);
    record_ = record;
    blobs_.clear();
}

std::span<const std::byte> TensorRouter::inline_bytes(const TensorView& t) const {
    if (!t.has_bytes())
        fail_request(shown_, "tensor " + quoted(t.name, '\'') + " (byte " + std::to_string(t.offset) +
                                 " of the input) has external data that was not loaded",
                     ErrorKind::ExternalData);
    return t.bytes();
}

void TensorRouter::refuse(const std::string& message) const { fail_request(shown_, message); }

std::optional<uint64_t> TensorRouter::route(const TensorView& t, bool eligible) {
    // Only tensors held as raw bytes move, as the onnx package's own conversion does:
    // typed fields and strings stay where they are.
    const bool raw = t.source == TensorSource::Raw || t.source == TensorSource::External;
    if (location_.empty() || !eligible || !raw || t.byte_size() <= threshold_) return std::nullopt;
    const auto bytes = inline_bytes(t);
    const uint64_t from = layout_.end();
    const uint64_t offset = layout_.reserve(bytes.size());
    if (record_) blobs_.push_back({from, offset, bytes});
    return offset;
}

}  // namespace onnximport::detail
