// The protobuf wire encoder of the writers (no protobuf library): keys, varints, fixed
// and length-delimited fields. A message is encoded in two passes over the same code: the
// size pass only counts, recording each nested message's length in the order messages
// start; the emit pass writes, taking each length prefix from that record. Nothing is
// encoded twice into memory, and raw tensor bytes go straight to the output.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace onnximport::detail {

/// Where emitted bytes go: a file or a byte array.
class ByteOut {
public:
    virtual ~ByteOut() = default;
    virtual void write(std::span<const std::byte> bytes) = 0;
};

class ProtoEncoder {
public:
    /// Starts the size pass.
    ProtoEncoder() = default;
    /// Ends the size pass and starts the emit pass into `out`.
    void start_emitting(ByteOut& out);
    /// Flushes what the emit pass buffered.
    void finish();

    bool sizing() const noexcept { return out_ == nullptr; }
    /// Bytes counted (size pass) or emitted (emit pass) so far.
    uint64_t position() const noexcept { return position_; }

    void varint_field(uint32_t field, uint64_t value);
    void int_field(uint32_t field, int64_t value) { varint_field(field, static_cast<uint64_t>(value)); }
    void fixed32_field(uint32_t field, uint32_t value);
    void bytes_field(uint32_t field, std::span<const std::byte> bytes);
    void string_field(uint32_t field, std::string_view s) { bytes_field(field, std::as_bytes(std::span(s))); }
    /// The inside of a packed field or a message: a bare varint, bare bytes.
    void raw_varint(uint64_t value);
    void raw_bytes(std::span<const std::byte> bytes);

    /// A length-delimited field whose payload `body` encodes through this encoder.
    template <class Body>
    void message(uint32_t field, Body&& body) {
        const size_t slot = open_message(field);
        const uint64_t start = position_;
        body();
        close_message(slot, start);
    }

    static unsigned varint_size(uint64_t value) noexcept;

private:
    size_t open_message(uint32_t field);
    void close_message(size_t slot, uint64_t start);
    void key(uint32_t field, unsigned wire_type) { raw_varint(uint64_t{field} << 3 | wire_type); }
    void put(const std::byte* data, size_t size);
    void flush();

    ByteOut* out_ = nullptr;
    uint64_t position_ = 0;
    /// The payload length of each message, in the order the messages start.
    std::vector<uint64_t> lengths_;
    size_t next_length_ = 0;
    std::vector<std::byte> buffer_;  ///< small fields, written in 64 KiB pieces
};

}  // namespace onnximport::detail
