// The model input (spec section 6): one contiguous, read-only byte range, from a file
// (mapped or read) or from the caller, and the one place that gives the kernel advice
// about it. The decode path reads it and never writes it.
#pragma once

#include "io/file_id.hpp"
#include "io/file_view.hpp"

#include <onnximport/options.hpp>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace onnximport::detail {

/// protobuf's own limit on a message (spec section 1, "Size").
inline constexpr uint64_t max_model_bytes = 0x7FFFFFFFu;

class ModelInput {
public:
    /// Opens a model file: the path is checked with stat before it is opened for reading,
    /// so a FIFO, socket or device is refused (Io) without being opened (input.cpp).
    /// Over `map_threshold` (LoadMode::Auto) the file is mapped read-only, else read; a
    /// file whose size the kernel reports as 0 (as /proc files) is read to its end.
    /// A read file is read in disjoint ranges on up to `threads` threads (payloads.hpp).
    /// @throws ImportError(Io) or ImportError(Unsupported) for a file over 2^31 - 1 bytes.
    static ModelInput open_file(const std::filesystem::path& path, const std::string& name, LoadMode mode,
                                uint64_t map_threshold, unsigned threads = 1);
    /// The caller's bytes, used in place.
    static ModelInput borrow(std::span<const uint8_t> bytes, const std::string& name);
    /// The caller's bytes, kept by the input.
    static ModelInput take(std::vector<uint8_t>&& bytes, const std::string& name);

    const uint8_t* data() const noexcept { return data_; }
    uint64_t size() const noexcept { return size_; }
    bool is_mapped() const noexcept { return mapping_ && mapping_->data(); }
    /// The mapping that holds data(), or null when the input is not mapped.
    const FileView* mapping() const noexcept { return is_mapped() ? mapping_.get() : nullptr; }

    /// The file the input was read from (a writer must not replace it), or none for bytes.
    const std::optional<FileId>& file_id() const noexcept { return file_id_; }

    /// Drops the resident pages of the importer's own mapping (Model::close); views stay valid.
    void drop_pages() const noexcept;

private:
    const uint8_t* data_ = nullptr;
    uint64_t size_ = 0;
    std::unique_ptr<FileView> mapping_;
    std::unique_ptr<uint8_t[]> buffer_;
    std::vector<uint8_t> owned_;
    std::optional<FileId> file_id_;
};

}  // namespace onnximport::detail
