// Protobuf wire encoding in two passes (see proto_encoder.hpp).
#include "write/proto_encoder.hpp"

#include <stdexcept>

namespace onnximport::detail {

namespace {

/// Fields at least this long skip the buffer: tensor bytes are not copied twice.
constexpr size_t direct_write = 16 * 1024;
constexpr size_t buffer_capacity = 64 * 1024;

}  // namespace

unsigned ProtoEncoder::varint_size(uint64_t value) noexcept {
    unsigned n = 1;
    while (value >= 0x80) {
        value >>= 7;
        ++n;
    }
    return n;
}

void ProtoEncoder::start_emitting(ByteOut& out) {
    out_ = &out;
    position_ = 0;
    next_length_ = 0;
    buffer_.reserve(buffer_capacity);
}

void ProtoEncoder::finish() { flush(); }

void ProtoEncoder::flush() {
    if (out_ && !buffer_.empty()) out_->write(buffer_);
    buffer_.clear();
}

void ProtoEncoder::put(const std::byte* data, size_t size) {
    position_ += size;
    if (sizing()) return;
    if (size >= direct_write) {
        flush();
        out_->write(std::span(data, size));
        return;
    }
    if (buffer_.size() + size > buffer_capacity) flush();
    buffer_.insert(buffer_.end(), data, data + size);
}

void ProtoEncoder::raw_varint(uint64_t value) {
    std::byte b[10];
    size_t n = 0;
    while (value >= 0x80) {
        b[n++] = static_cast<std::byte>((value & 0x7F) | 0x80);
        value >>= 7;
    }
    b[n++] = static_cast<std::byte>(value);
    put(b, n);
}

void ProtoEncoder::raw_bytes(std::span<const std::byte> bytes) { put(bytes.data(), bytes.size()); }

void ProtoEncoder::varint_field(uint32_t field, uint64_t value) {
    key(field, 0);
    raw_varint(value);
}

void ProtoEncoder::fixed32_field(uint32_t field, uint32_t value) {
    key(field, 5);
    std::byte b[4];
    for (unsigned i = 0; i < 4; ++i) b[i] = static_cast<std::byte>(value >> (8 * i));
    put(b, 4);
}

void ProtoEncoder::bytes_field(uint32_t field, std::span<const std::byte> bytes) {
    key(field, 2);
    raw_varint(bytes.size());
    raw_bytes(bytes);
}

size_t ProtoEncoder::open_message(uint32_t field) {
    key(field, 2);
    if (sizing()) {
        lengths_.push_back(0);
        return lengths_.size() - 1;
    }
    const size_t slot = next_length_++;
    raw_varint(lengths_[slot]);
    return slot;
}

void ProtoEncoder::close_message(size_t slot, uint64_t start) {
    if (!sizing()) {
        // The emit pass wrote the prefix the size pass recorded: the two must agree.
        if (position_ - start != lengths_[slot]) throw std::logic_error("the encoder's two passes disagree");
        return;
    }
    const uint64_t length = position_ - start;
    lengths_[slot] = length;
    position_ += varint_size(length);  // the prefix, counted once the payload is known
}

}  // namespace onnximport::detail
